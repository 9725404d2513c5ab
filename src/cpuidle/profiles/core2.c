/*
 * A 2009 Core 2 desktop (45 nm dual core, ~65 W, e.g. an E8400 class part) under acpi_idle.
 * The _CST values are TYPICAL, not one board's: BIOSes differ, and many desktop boards exposed
 * only C1. Target residency = latency x processor.latency_factor (2), as acpi_idle computed it
 * (docs/model/cpuidle.md §7.4).
 *   C1: HLT, latency 1 us; not TIME_VALID (HLT entry).
 *   C2: MWAIT 0x10 (stop clock), latency 1 us; TIME_VALID.
 *   C3: MWAIT 0x20 (deep sleep), latency 57 us, the value such BIOSes commonly report;
 *       TIME_VALID. The LAPIC timer stops in C3 on Core 2 (no ARAT: TIMER_STOP) and the
 *       caches and TLB are flushed (TLB_FLUSHED). It is ACPI type C3: CHECK_BM (bm_check=1 on
 *       Intel SMP, so an entry reads BM_STS and may be demoted to C2, the safe state).
 * 2.6.3x's lapic_timer_check_state assumes the LAPIC timer stops from the first C2-type state
 * on (local_apic_timer_c2_ok is 0 and Core 2 has no ARAT), so C2 and C3 both go through the
 * broadcast clockevent (TIMER_STOP) in acpi_idle's entry and exit.
 *
 * Power: ESTIMATES per core. Busy ~20 W (a 65 W TDP dual core, minus the uncore); POLL spins
 * at C0 power. The datasheets' Extended HALT figure is ~8 W for the package, so C1 (HLT, with
 * the usual C1E promotion) ~4 W per core; C2 3 W; C3 (lower voltage, caches retained in L2
 * but not clocked) 1.5 W. Entry energy is exit latency x busy power (the rule of
 * docs/model/cpuidle.md §7.5).
 */
#include "cpuidle/profiles/profile.h"

#define BUSY 20000

static const struct sl_cpuidle_driver core2 = {
	.name = "core2",
	.state_count = 4,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("C1", 1, 2, 4000, 0, BUSY),
			SL_STATE("C2", 1, 2, 3000, SL_TV | CPUIDLE_FLAG_TIMER_STOP, BUSY),
			SL_STATE("C3", 57, 114, 1500,
				 SL_TV | CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP |
					 CPUIDLE_FLAG_CHECK_BM,
				 BUSY),
		},
	.latency_factor = 2,
	.bm_check = true,
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &core2, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_core2 = {
	.name = "core2",
	.help = "2009 Core 2 desktop under acpi_idle: POLL, C1 (HLT) 1/2, C2 1/2, C3 57/114 us",
	.load = load,
};
