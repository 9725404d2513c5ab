/*
 * Sapphire Rapids under current intel_idle (spr_cstates, docs/model/cpuidle.md §7.3): POLL, C1 1/1,
 * C1E 2/4, C6 290/800 (TLB_FLUSHED; INIT_XSTATE not modelled). All TIME_VALID; ARAT, so no
 * TIMER_STOP. The kernel marks C1E ALWAYS_ENABLE and later UNUSABLE by default
 * (disable_promotion_to_c1e); a table cannot say "disabled by default", so C1E is listed and a run
 * that wants the kernel's default disables it through the device's disable bits. The first
 * submission's C6 was 128/384 and the proposed UMWAIT C0.2 state (100 ns) is not included.
 *
 * Power: ESTIMATES per core of a 56-core ~350 W part (~5 W per busy core without the uncore):
 * busy and POLL 5 W, C1 1.2 W, C1E 0.9 W, C6 (power gated) 0.08 W. Entry energy is exit
 * latency x busy power (the rule of docs/model/cpuidle.md §7.5).
 */
#include "cpuidle/profiles/profile.h"

#define BUSY 5000

static const struct sl_cpuidle_driver spr = {
	.name = "sapphire-rapids",
	.state_count = 4,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("C1", 1, 1, 1200, SL_TV, BUSY),
			SL_STATE("C1E", 2, 4, 900, SL_TV, BUSY),
			SL_STATE("C6", 290, 800, 80, SL_TV | CPUIDLE_FLAG_TLB_FLUSHED, BUSY),
		},
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &spr, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_sapphire_rapids = {
	.name = "sapphire-rapids",
	.help = "Sapphire Rapids under intel_idle: POLL C1 1/1 C1E 2/4 C6 290/800 us",
	.load = load,
};
