/*
 * The poll governor: always state 0, a busy loop on need_resched (what idle=poll gives). It is
 * the foundation's only governor; with it a wake-up costs no exit latency and a remote wake-up
 * needs no IPI, because a polling CPU sees TIF_NEED_RESCHED at once.
 */
#include "cpuidle/cpuidle.h"

static int poll_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)dev;
	(void)drv;
	return 0;
}

const struct sl_cpuidle_governor sl_gov_poll = {
	.name = "poll",
	.help = "always state 0: the busy loop of idle=poll",
	.rating = 0,
	.select = poll_select,
};
