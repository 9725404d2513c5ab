/*
 * The KVM guest of the shared traces (docs/model/formats.md §7: Linux 6.18, 2 vCPUs,
 * cpuidle driver haltpoll): POLL 0/0 and "haltpoll idle" (HLT, a VM exit) 1/1, as its sysfs
 * showed them. Both TIME_VALID; the guest's emulated LAPIC timer keeps running (no
 * TIMER_STOP), and a VM exit says nothing of the host's TLB (no TLB_FLUSHED).
 *
 * Power: ESTIMATES, and only loosely meaningful for a guest: the host core's power while the
 * vCPU runs or polls (10 W, a server core at nominal frequency) and while it halts (2 W: the
 * host usually finds other work or enters a shallow C-state, which the guest cannot see).
 * Entry energy is exit latency x busy power (the rule of docs/model/cpuidle.md §7.5); the real cost
 * of a VM exit and re-entry is a few microseconds more than the 1 us the driver declares.
 */
#include "cpuidle/profiles/profile.h"

#define BUSY 10000

static const struct sl_cpuidle_driver vm_haltpoll = {
	.name = "vm-haltpoll",
	.state_count = 2,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("haltpoll idle", 1, 1, 2000, SL_TV, BUSY),
		},
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &vm_haltpoll, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_vm_haltpoll = {
	.name = "vm-haltpoll",
	.help = "the shared traces' KVM guest (cpuidle-haltpoll): POLL 0/0, haltpoll idle 1/1 us",
	.load = load,
	.driver = "haltpoll",
};
