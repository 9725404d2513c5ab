/*
 * Nehalem / Westmere under intel_idle (nehalem_cstates, docs/model/cpuidle.md §7.1), with the poll
 * state at index 0 and the modern names (the "-NHM" suffixes were dropped). C1E is the 3.x
 * addition; the original 2.6.35 table had only C1/C3/C6.
 *
 * Flags: every state TIME_VALID (intel_idle measures every state). C3 and C6 flush the TLB
 * (TLB_FLUSHED), and Nehalem has no always-running APIC timer, so the LAPIC timer stops in
 * them and they need the broadcast timer (TIMER_STOP; docs/model/cpuidle.md §7.1 marks this
 * UNVERIFIED for this exact table).
 *
 * Power: ESTIMATES from docs/model/cpuidle.md §7.5 (no authoritative public per-state table
 * exists), per core of a ~95 W 4-core Xeon 5500 at nominal frequency, taking a point in each
 * estimated range:
 *   C0 busy 15 W (12-20 W); POLL spins at C0, so 15 W too; C1 4 W (3-6 W, clock gated);
 *   C1E 3 W (2-4 W, lowest V/f point); C3 1.5 W (1-2 W, core clocks stopped, caches flushed
 *   to L3); C6 0.15 W (0-0.3 W, power gated). Package-level power (uncore, L3, QPI) is not
 *   modelled here.
 * Entry energy, the rule of docs/model/cpuidle.md §7.5: exit latency x busy power, e.g. C6 200 us x
 * 15 W = 3 mJ (3,000,000 nJ). That is why target residency is 2-4 x the exit latency.
 */
#include "cpuidle/profiles/profile.h"

#define BUSY 15000

static const struct sl_cpuidle_driver nehalem = {
	.name = "nehalem",
	.state_count = 5,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("C1", 3, 6, 4000, SL_TV, BUSY),
			SL_STATE("C1E", 10, 20, 3000, SL_TV, BUSY),
			SL_STATE("C3", 20, 80, 1500,
				 SL_TV | CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP, BUSY),
			SL_STATE("C6", 200, 800, 150,
				 SL_TV | CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP, BUSY),
		},
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &nehalem, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_nehalem = {
	.name = "nehalem",
	.help = "Nehalem/Westmere under intel_idle: POLL C1 C1E C3 C6 (3/6 ... 200/800 us)",
	.load = load,
};
