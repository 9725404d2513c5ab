/*
 * Skylake-SP (Xeon Scalable 1st gen) under intel_idle (skx_cstates, docs/model/cpuidle.md §7.3):
 * POLL, C1 2/2, C1E 10/20 (ALWAYS_ENABLE in the kernel, not modelled), C6 133/600 TLB_FLUSHED. All
 * TIME_VALID; ARAT, so no TIMER_STOP.
 *
 * Power: ESTIMATES per core of a 28-core ~205 W part (~6 W per busy core once the uncore and
 * mesh are taken out): busy and POLL 6 W, C1 1.5 W, C1E 1 W, C6 (power gated) 0.1 W. Entry
 * energy is exit latency x busy power (the rule of docs/model/cpuidle.md §7.5).
 */
#include "cpuidle/profiles/profile.h"

#define BUSY 6000

static const struct sl_cpuidle_driver skx = {
	.name = "skylake-server",
	.state_count = 4,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("C1", 2, 2, 1500, SL_TV, BUSY),
			SL_STATE("C1E", 10, 20, 1000, SL_TV, BUSY),
			SL_STATE("C6", 133, 600, 100, SL_TV | CPUIDLE_FLAG_TLB_FLUSHED, BUSY),
		},
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &skx, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_skylake_server = {
	.name = "skylake-server",
	.help = "Skylake-SP under intel_idle: POLL C1 2/2 C1E 10/20 C6 133/600 us",
	.load = load,
};
