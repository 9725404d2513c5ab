/*
 * The oracle: the bound the real governors are measured against. It is told the time of the
 * next event already known to wake this CPU (dev->next_wake_ns: its timers, the tick included
 * while it runs, and the device interrupts already in flight to it) and picks the enabled state
 * with the least energy for an idle of exactly that length, within the PM QoS latency limit:
 * energy(i) = power(i) x interval + the state's entry-and-exit energy, ties to the shallower.
 *
 * What it cannot know is a wake-up that another CPU has not yet decided to send (a remote
 * wake-up caused by future work): nothing in a simulation knows that before it happens. The
 * report's "oracle agreement" closes that gap after the fact: it compares every governor's
 * choice with the least-energy state for the period as it really lasted.
 */
#include "cpuidle/cpuidle.h"

static int oracle_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	dev->predicted_ns = dev->next_wake_ns == UINT64_MAX ? 0 : dev->next_wake_ns;
	if (dev->latency_req_ns == 0)
		return 0;
	/* no known wake-up: any state is cheapest over an unbounded idle; take the deepest */
	return sl_cpuidle_oracle_choice(drv, dev,
					dev->next_wake_ns == UINT64_MAX ? UINT64_MAX / 1000000
									: dev->next_wake_ns);
}

const struct sl_cpuidle_governor sl_gov_oracle = {
	.name = "oracle",
	.help = "knows the next wake-up already scheduled for the CPU; least energy for it",
	.rating = 0,
	.select = oracle_select,
};
