/*
 * A KVM guest without a cpuidle driver (current_driver "none"), such as the Firecracker VM
 * schedlab's CI runs in: the idle loop halts through default_idle_call, which traces cpu_idle
 * with state=1, and no governor runs. State 0 is POLL only so that HLT keeps the trace's number
 * 1; `validate` disables it (a machine.conf says cpuidle_disable POLL), as the kernel never polls
 * there.
 *
 * HLT's exit latency is the cost of waking a halted vCPU: the sender's IPI (a VM exit), the
 * host's wake-up and scheduling of the vCPU thread, the VM entry. It is MEASURED, not declared
 * by any driver: `schedlab calibrate` on this project's CI machine (Linux 6.18.44, 2 vCPUs) gave
 * the figure below as the cross-CPU pipe hand-off minus the same-CPU one minus the model's IPI;
 * a calibrate directory replaces it for another machine. Power: the vm-haltpoll estimates.
 */
#include "cpuidle/profiles/profile.h"

#define BUSY	 10000
#define HLT_EXIT 7 /* us: calibrate's figure, see above (6.8 us, machines/fc-2vcpu) */

static const struct sl_cpuidle_driver vm_hlt = {
	.name = "vm-hlt",
	.state_count = 2,
	.busy_power_mw = BUSY,
	.states =
		{
			SL_STATE("POLL", 0, 0, BUSY, CPUIDLE_FLAG_POLL | SL_TV, BUSY),
			SL_STATE("HLT", HLT_EXIT, HLT_EXIT, 2000, SL_TV, BUSY),
		},
};

static int load(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen)
{
	return sl_idle_profile_static(drv, &vm_hlt, arg, err, errlen);
}

const struct sl_idle_profile sl_profile_vm_hlt = {
	.name = "vm-hlt",
	.help = "a KVM guest with no cpuidle driver: default idle HLT (state 1), exit latency "
		"measured by calibrate",
	.load = load,
	/* no cpuidle driver: the idle loop halts through default_idle_call, which traces
	 * cpu_idle state=1 (HLT is state 1 here for that); no governor runs, so no POLL */
	.driver = "none",
	.no_poll = true,
};
