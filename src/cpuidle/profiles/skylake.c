/*
 * Skylake client under intel_idle (skl_cstates, docs/model/cpuidle.md §7.2), poll state at index 0.
 * Every state is TIME_VALID; C3 and deeper flush the TLB. Skylake has an always-running APIC timer
 * (ARAT), so no state needs the broadcast timer (no TIMER_STOP). The IBRS flag of C6+ (2022) is not
 * modelled.
 *
 * Power: ESTIMATES per core of a 4-core 14 nm desktop part (no public per-state table): busy
 * 10 W, POLL at C0 power, C1 2 W, C1E 1.5 W, C3 0.8 W, C6 (power gated) 0.1 W. C7s..C10 differ
 * mainly at package level (LLC flush, voltage regulators off); the core is already power gated,
 * so they get small, decreasing shares: 80, 50, 30, 20 mW. Entry energy is exit latency x busy
 * power (the rule of docs/model/cpuidle.md §7.5).
 */
#include "cpuidle/profiles/profile.h"

#define BUSY 10000
#define TLB  (SL_TV | CPUIDLE_FLAG_TLB_FLUSHED)

static const struct sl_cpuidle_driver skylake = {
	.name = "skylake",
	.state_count = 9,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("C1", 2, 2, 2000, SL_TV, BUSY),
			SL_STATE("C1E", 10, 20, 1500, SL_TV, BUSY),
			SL_STATE("C3", 70, 100, 800, TLB, BUSY),
			SL_STATE("C6", 85, 200, 100, TLB, BUSY),
			SL_STATE("C7s", 124, 800, 80, TLB, BUSY),
			SL_STATE("C8", 200, 800, 50, TLB, BUSY),
			SL_STATE("C9", 480, 5000, 30, TLB, BUSY),
			SL_STATE("C10", 890, 5000, 20, TLB, BUSY),
		},
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &skylake, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_skylake = {
	.name = "skylake",
	.help = "Skylake client under intel_idle: POLL C1 C1E C3 C6 C7s C8 C9 C10",
	.load = load,
};
