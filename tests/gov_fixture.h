/* What the governor tests share: docs/model/cpuidle.md §7.1's Nehalem table, in ns, powers left
 * 0, and a device to run a governor on. */
#ifndef SCHEDLAB_TEST_GOV_FIXTURE_H
#define SCHEDLAB_TEST_GOV_FIXTURE_H

#include "cpuidle/cpuidle.h"

#include <string.h>

/* POLL 0/0, C1 3/6 us, C1E 10/20, C3 20/80, C6 200/800, all TIME_VALID */
static const struct sl_cpuidle_driver test_nehalem = {
	.name = "nehalem",
	.state_count = 5,
	.states = {{"POLL", 0, 0, 0, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID, 0},
		   {"C1", 3000, 6000, 0, CPUIDLE_FLAG_TIME_VALID, 0},
		   {"C1E", 10000, 20000, 0, CPUIDLE_FLAG_TIME_VALID, 0},
		   {"C3", 20000, 80000, 0, CPUIDLE_FLAG_TIME_VALID, 0},
		   {"C6", 200000, 800000, 0, CPUIDLE_FLAG_TIME_VALID, 0}},
};

/* a fresh dev with the default governor parameters in gp, a 1 ms tick, no PM QoS limit */
static inline void gov_dev_init(struct sl_cpuidle_dev *dev, struct sl_gov_params *gp)
{
	memset(dev, 0, sizeof(*dev));
	sl_gov_params_default(gp);
	dev->gp = gp;
	dev->tick_ns = 1000000;
	dev->latency_req_ns = SL_PM_QOS_DEFAULT_NS;
}

#endif
