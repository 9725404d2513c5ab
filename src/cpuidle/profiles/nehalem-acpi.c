/*
 * Nehalem as a 2009 kernel (2.6.31/2.6.32) saw it: intel_idle did not exist yet, so acpi_idle
 * built the table from the BIOS _CST (docs/model/cpuidle.md §7.4). Each ACPI state Cn is named
 * "C<n>", its exit latency is the _CST latency and its target residency latency x
 * processor.latency_factor (default 2; the default is UNVERIFIED, the formula is not).
 *
 * The _CST values are ESTIMATES of a typical Nehalem-EP BIOS (they vary by vendor):
 *   C1: FFH, MWAIT 0x00, latency 1 us (1-3). 2.6.31 asks for it: its _PDC
 *       (init_intel_pdc, ACPI_PDC_C_CAPABILITY_SMP of pdc_intel.h) includes ACPI_PDC_C_C1_FFH,
 *       so the BIOS reports C1 as Functional Fixed Hardware; the FFH probe (cstate.c) accepts
 *       it where CPUID leaf 5 lists C1 sub-states, as on Nehalem; and
 *       acpi_processor_setup_cpuidle marks an FFH C1 CPUIDLE_FLAG_TIME_VALID (acpi_idle_enter_c1
 *       measures it). It was HLT (no residency, the old menu assuming a whole tick) before
 *       the 2.6.31 sources were checked: HLT is only what idle=halt or idle=nomwait give.
 *   C2: MWAIT 0x10, hardware C3, latency 20 us (20-64).
 *   C3: MWAIT 0x20, hardware C6, latency 200 us (100-245).
 * The PCU resolves requests itself: AnandTech measured "ACPI C2" on a Lynnfield Xeon landing
 * ~14 % in hardware C3 and ~86 % in C6; this table keeps the nominal mapping.
 * C2 and C3 are TIME_VALID; C3 (ACPI type C3) carries CHECK_BM: on Intel SMP 2.6.3x sets
 * bm_check=1, bm_control=0, so each C3 entry reads BM_STS first and goes to the safe state (the
 * deepest C2-type state, here C2) when any DMA happened since the last read (machine/idle.c).
 * Both stop the LAPIC timer (no ARAT on Nehalem: lapic_timer_check_state marks C2-type and
 * deeper, TIMER_STOP), so each entry and exit goes through clockevents_notify, and both flush
 * the TLB (a hardware property).
 *
 * Power: the ESTIMATES of nehalem.c (docs/model/cpuidle.md §7.5) for the hardware state each ACPI
 * state reaches: busy and POLL 15 W, C1 (hw C1) 4 W, C2 (hw C3) 1.5 W, C3 (hw C6) 0.15 W. Entry
 * energy is exit latency x busy power.
 */
#include "cpuidle/profiles/profile.h"

#define BUSY	       15000
#define DEEP	       (SL_TV | CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP)
#define LATENCY_FACTOR 2 /* processor.latency_factor's default (2.6.31 processor_idle.c) */

static const struct sl_cpuidle_driver nehalem_acpi = {
	.name = "nehalem-acpi",
	.state_count = 4,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("C1", 1, 1 * LATENCY_FACTOR, 4000, SL_TV, BUSY),
			SL_STATE("C2", 20, 20 * LATENCY_FACTOR, 1500, DEEP, BUSY),
			SL_STATE("C3", 200, 200 * LATENCY_FACTOR, 150, DEEP | CPUIDLE_FLAG_CHECK_BM,
				 BUSY),
		},
	.latency_factor = LATENCY_FACTOR,
	.bm_check = true,
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &nehalem_acpi, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_nehalem_acpi = {
	.name = "nehalem-acpi",
	.help = "Nehalem under 2009 acpi_idle: POLL, C1 (MWAIT), C2 = hw C3 20/40, C3 = hw C6 "
		"200/400 us",
	.load = load,
};
