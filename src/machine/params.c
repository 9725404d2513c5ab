#include "core/suggest.h"
#include "machine/params.h"
#include "core/parse.h"

#include <stdio.h>
#include <string.h>

#define P(field) offsetof(struct sl_params, field)

const struct sl_param_desc sl_param_table[] = {
	{"hz", P(hz), 1000, SL_PARAM_COUNT,
	 "CONFIG_HZ=1000, the x86 desktop default of 2009 kernels (2.6.31 defconfig)"},
	{"ctx_switch", P(ctx_switch_ns), 2000, SL_PARAM_NS,
	 "lmbench lat_ctx, 2 processes, 0 KB, on Core 2 / Nehalem class CPUs: 1.5-3 us"},
	{"ctx_switch_bare", P(ctx_switch_bare_ns), 0, SL_PARAM_NS,
	 "a switch alone, without the system calls around it (calibrate: a sched_yield switch - a "
	 "lone sched_yield): a trace replay's ctx_switch, since a recorded burst holds its system "
	 "calls; 0: not measured, a replay prices a switch at ctx_switch"},
	{"cache_refill", P(cache_refill_ns), 10000, SL_PARAM_NS,
	 "refill of a 256 KB private L2 from L3 at ~25 GB/s after other tasks evicted it"},
	{"cache_refill_foreign", P(cache_refill_foreign_ns), 0, SL_PARAM_NS,
	 "0: off. Else what a task's switch-in on the CPU it last ran on costs more (beyond "
	 "cache_refill) when a task of another workload group, or of none, ran there since: "
	 "another program's working set, where its own group's threads share its code and data. "
	 "tools/loop_other.py --resumes measures it in real traces: the switch-ins of rt-app's "
	 "threads back where a task not of their logs ran (docs/validate.md, issue 28 step 15)"},
	{"migrate_smt", P(migrate_smt_ns), 1000, SL_PARAM_NS,
	 "SMT siblings share L1/L2: only TLB and branch state are lost"},
	{"migrate_core", P(migrate_core_ns), 10000, SL_PARAM_NS,
	 "another core of the socket: L1/L2 refilled from the shared L3 (as cache_refill)"},
	{"migrate_socket", P(migrate_socket_ns), 50000, SL_PARAM_NS,
	 "another socket: ~1 MB working set from remote memory at ~20 GB/s"},
	{"exec_cold", P(exec_cold_ns), 20000, SL_PARAM_NS,
	 "after exec nothing of the new image is cached: as a cold L2 plus page-table setup"},
	{"ipi", P(ipi_ns), 1000, SL_PARAM_NS,
	 "x2APIC IPI delivery and the reschedule interrupt entry, ~1 us on Nehalem"},
	{"fork", P(fork_ns), 100000, SL_PARAM_NS,
	 "lmbench lat_proc fork of a small process on a 2009 x86 machine: ~100 us"},
	{"exec", P(exec_ns), 300000, SL_PARAM_NS,
	 "lmbench lat_proc exec (fork+exec minus fork), dynamic binary: ~300 us"},
	{"exit", P(exit_ns), 30000, SL_PARAM_NS, "teardown of a small address space: ~30 us"},
	{"io_latency", P(io_latency_ns), 100000, SL_PARAM_NS,
	 "a small read served from a disk cache or SSD of 2009: ~100 us"},
	{"disk_mbps", P(disk_mbps), 110, SL_PARAM_COUNT,
	 "a 2009 7200 rpm SATA/SAS disk streaming: ~110 MB/s on its outer tracks"},
	{"disk_cmd", P(disk_cmd_ns), 10000, SL_PARAM_NS,
	 "command decode and DMA set-up per request; with the CPU costs it makes idle=poll give "
	 "~107 MB/s per disk at bs=128k, the seed's figure (the calibration the fio issue allows)"},
	{"disk_seek", P(disk_seek_ns), 12500000, SL_PARAM_NS,
	 "7200 rpm: ~8.3 ms average seek + 4.2 ms half a rotation, for random requests"},
	{"irq", P(irq_ns), 10000, SL_PARAM_NS,
	 "AHCI completion: hardirq + block softirq + bio completion, ~5-15 us on Nehalem"},
	{"io_submit", P(io_submit_ns), 10000, SL_PARAM_NS,
	 "pread/io_submit, bio allocation, elevator and driver queueing: ~10 us per request"},
	{"timer_slack", P(timer_slack_ns), 0, SL_PARAM_NS,
	 "0: a sleep ends at its expiry, as the 2009 figures assume. Linux gives a normal task's "
	 "sleep a window [t, t + timer_slack_ns] (50 us by default) and programs the timer for its "
	 "end; `schedlab calibrate` measures the lateness of a real machine's sleeps for it"},
	{"timer_coalesce", P(timer_coalesce), 0, SL_PARAM_FLAG,
	 "0: each sleep's timer fires alone at its window's end (t + timer_slack_ns). 1: as "
	 "hrtimer's interrupt does (__hrtimer_run_queues, every Linux since 2.6.28): the timer "
	 "firing on a CPU runs with it every other sleep timer of that CPU whose window has "
	 "opened (its own t is past), in the order of their ends; the recordings of this machine "
	 "wake two threads that went to sleep 60 us apart in one interrupt (docs/validate.md)"},
	{"exit_irq_wait", P(exit_irq_wait), 1, SL_PARAM_FLAG,
	 "1: a timer (a sleep's, the tick, the poll limit) expiring while its CPU is still leaving "
	 "a C-state is handled when the exit is done, behind the interrupt that woke the CPU, in "
	 "the order they expired: a halted CPU runs no handler before it is out (hrtimer_interrupt "
	 "then runs every expired timer in order). 0: it ran at its expiry, ahead of the one that "
	 "woke the CPU (schedlab before issue 28's step 31; a device interrupt waits with "
	 "hba_mbps either way)"},
	{"bcast_lock", P(bcast_lock_ns), 1000, SL_PARAM_NS,
	 "acpi_idle (2.6.3x releases): each entry and exit of a TIMER_STOP state calls "
	 "clockevents_notify, which holds clockevents_lock and tick_broadcast_lock (global, irqs "
	 "off) while it writes the LAPIC timer and, when the CPU's event is the earliest, "
	 "reprograms the HPET (2-3 uncached reads, ~1 us each on ICH10): ESTIMATE 1 us on average; "
	 "0 turns the lock off"},
	{"pkg_c3_exit", P(pkg_c3_exit_ns), 0, SL_PARAM_NS,
	 "package C3 exit (uncore, L3 and QPI clocks) added to the core's exit when every core of "
	 "its socket was in C3 or deeper: 0, no published Nehalem figure separates it from the "
	 "_CST/intel_idle latencies, which are worst cases that already include the package"},
	{"pkg_c6_exit", P(pkg_c6_exit_ns), 0, SL_PARAM_NS,
	 "package C6 exit (as pkg_c3_exit, when every core of the socket was in the deepest "
	 "state): 0 for the same reason"},
	{"disk_jitter", P(disk_jitter_ns), 0, SL_PARAM_NS,
	 "per-request variation of a rotating disk's service time (where the platter is when "
	 "the command arrives, firmware and track switches), uniform in [0, disk_jitter] from "
	 "the run's seeded PRNG: 0, no published per-request figure; the model's disks are "
	 "otherwise deterministic"},
	{"ctrl_disks", P(ctrl_disks), 8, SL_PARAM_COUNT,
	 "disks per storage controller, each controller one interrupt line: an 8-port SAS HBA "
	 "of 2009 (LSI SAS1068E class); used by --irq-affinity bios and irqbalance"},
	{"smt_resolve", P(smt_resolve), 0, SL_PARAM_FLAG,
	 "1: a core's C-state is the shallowest of its threads' (Intel's thread-to-core "
	 "coordination table, Xeon C5500/C3500 datasheet table 121): a thread pays the exit of "
	 "the state its core reached (C1 when a sibling runs). 0 (default): each logical CPU pays "
	 "its own state's exit, as the model did before; a switch for measuring it"},
	{"bg_wakeup", P(bg_wakeup_ns), 0, SL_PARAM_NS,
	 "0 (default): nothing wakes an idle CPU but the workload. Else the interval of each "
	 "CPU's background timer wake-ups (non-deferrable kernel timers, RCU, the vmstat and "
	 "cache-reaping work of an idle 2.6.3x system): a timer the governors see in the sleep "
	 "length, phased evenly over the CPUs. PowerTOP reports of idle 2.6.2x/2.6.3x machines "
	 "(2007-2010) give tens of wake-ups per second and CPU (79.9/s on one CPU in a 2007 "
	 "report): 10-200 ms; the fio machine of 2.6.31 sets it (docs/experiments-2009.md)"},
	{"hba_mbps", P(hba_mbps), 0, SL_PARAM_COUNT0,
	 "0 (default): each disk transfers at its own rate. Else the MB/s of one storage "
	 "controller's shared path (its PCIe link, the SAS expander's uplink), shared by the "
	 "ctrl_disks disks behind it: n transfers at once each move at min(disk_mbps, this / n). "
	 "With it the controller's single interrupt vector also holds every completion that "
	 "arrives while its CPU is leaving a C-state until the exit is done. Calibrated on the "
	 "2009 idle=poll row only (docs/experiments-2009.md)"},
	{"hba_hold", P(hba_hold), 0, SL_PARAM_FLAG,
	 "with hba_mbps: 1 makes the controller's transfers stand still while one of its "
	 "completions waits for its CPU to leave a C-state (a controller that holds its data path "
	 "until the host takes its reply). A HYPOTHESIS with no published source: the mechanism "
	 "the "
	 "2009 loss's growth with disks asks for (docs/experiments-2009.md); 0 (default): the path "
	 "keeps moving"},
	{"c2_as_c6", P(c2_as_c6), 0, SL_PARAM_FLAG,
	 "1: acpi_idle's C2-type state (the _CST's hardware C3) costs the exit latency of the "
	 "table's deepest state, as when the PCU resolves an \"ACPI C2\" request to hardware C6 "
	 "(AnandTech saw it 86 % of the time on a Lynnfield Xeon, docs/model/cpuidle.md §7.4); "
	 "the governors still see the _CST latency. 0 (default): the nominal mapping"},
	{"core_power", P(core_power), 0, SL_PARAM_FLAG,
	 "1: energy is counted per core, as the hardware draws it: a core's power is that of its "
	 "most active thread (busy, or the shallower state), and a wake-up's transition energy "
	 "is paid when the core itself leaves the state. 0 (default): per logical CPU, which "
	 "counts an SMT pair twice"},
	{"tick_grid", P(tick_grid), 0, SL_PARAM_FLAG,
	 "1: the tick keeps the jiffy grid, as tick_sched_timer's hrtimer_forward does, also "
	 "when it ran late behind its CPU's C-state exit, so an idle CPU's sleep length is the "
	 "time to the next grid tick. 0 (default): re-armed one period after it ran, so an idle "
	 "load balancer's tick drifts by every exit latency (the model before; kept so that "
	 "other experiments' outputs stay identical); the fio machine of 2.6.31 sets 1"},
	{"group_sched", P(group_sched), 0, SL_PARAM_FLAG,
	 "1: CFS group scheduling as 2.6.31 distributions shipped it (CONFIG_FAIR_GROUP_SCHED "
	 "with CONFIG_USER_SCHED): a task group per user id (the workloads' uid key), each "
	 "with an entity on every CPU and per-CPU shares (docs/model/cfs.md section 7); 2.6.31 "
	 "only. 0 (default): one flat runqueue per CPU, as a kernel without it"},
	{"group_root_shares", P(group_root_shares), 2048, SL_PARAM_COUNT,
	 "uid 0's task group's cpu_share (init_task_group: INIT_TASK_GROUP_LOAD = 2 x "
	 "NICE_0_LOAD under USER_SCHED, kernel/sched.c of 2.6.31; /sys/kernel/uids/0/cpu_share), "
	 "clamped to [2, 262144] as sched_group_set_shares does"},
	{"group_user_shares", P(group_user_shares), 1024, SL_PARAM_COUNT,
	 "another user's task group's cpu_share (NICE_0_LOAD, alloc_fair_sched_group of "
	 "2.6.31), clamped to [2, 262144]"},
	{"rtapp_calib", P(rtapp_calib_ns), 0, SL_PARAM_NS,
	 "0: an rt-app run of N us is N us of CPU time. Else the ns per loop rt-app's start-up "
	 "calibration yields (integer), used when the file's calibration names a CPU: a run of "
	 "N us is N*1000/rtapp_calib loops; `schedlab calibrate` emulates rt-app 1.0's "
	 "calibration"},
	{"rtapp_kloop", P(rtapp_kloop_ns), 0, SL_PARAM_NS,
	 "0: off. What 1000 of rt-app's loops (waste_cpu_cycles) take, measured by `schedlab "
	 "calibrate` in 1 ms runs after a sleep: a run's CPU time is its loops at this cost"},
	{"rtapp_kloop_sd", P(rtapp_kloop_sd_ns), 0, SL_PARAM_NS,
	 "the standard deviation of rtapp_kloop between runs (calibrate): each run draws its cost"},
	{"rtapp_cold", P(rtapp_cold_ns), 0, SL_PARAM_NS,
	 "with rtapp_kloop: what a run costs beyond its loops (caches and TLB cold after the "
	 "thread slept; calibrate: runs of two lengths, time = cold + loops x per-loop cost)"},
	{"rtapp_calib_real", P(rtapp_calib_real), 0, SL_PARAM_FLAG,
	 "0: rtapp_calib is every modelled launch's ns per loop. 1: `validate --real DIR` takes "
	 "the recorded launch's own instead (its logs' c_duration over perf, rounded), as rt-app "
	 "calibrates anew at each launch (13 or 14 ns in tests/data/validate-rep's calibration "
	 "half); with rtapp_kloop measured from the same logs (tools/rtapp_loop_cost.py; "
	 "docs/validate.md, issue 28, \"Waits behind the waker's vCPU, the tail\")"},
	{"wake_local", P(wake_local), 0, SL_PARAM_NS,
	 "0: a task woken on an idle CPU by that CPU's own interrupt (its timer) runs at once. "
	 "Else "
	 "the mean of the kernel's path from sched_waking to sched_switch there (irq exit, "
	 "schedule, the vCPU's own delays), drawn per wake-up; calibrate measures it in a trace"},
	{"wake_local_sd", P(wake_local_sd), 0, SL_PARAM_NS,
	 "its standard deviation (calibrate: half the 16th-84th percentile spread)"},
	{"wake_remote", P(wake_remote), 0, SL_PARAM_NS,
	 "0: a task woken onto an idle CPU by another CPU waits the IPI and the idle state's exit "
	 "latency only. Else what the measured path takes beyond those two, drawn per wake-up"},
	{"wake_remote_sd", P(wake_remote_sd), 0, SL_PARAM_NS, "its standard deviation (calibrate)"},
	{"wake_local_decade", P(wake_local_decade), 0, SL_PARAM_NS,
	 "0: wake_local whatever the idle length. Else a vCPU idle longer wakes slower (the host "
	 "let its core sleep deeper, caches went cold): the mean of wake_local grows by this much "
	 "per tenfold of the idle length beyond 1 ms, and shrinks below (never under 0). "
	 "calibrate --recordings measures it in real traces"},
	{"wake_remote_decade", P(wake_remote_decade), 0, SL_PARAM_NS,
	 "the same for wake_remote (calibrate --recordings)"},
	{"wake_local_tail", P(wake_local_tail), 0, SL_PARAM_COUNT0,
	 "0: wake_local's spread is normal. Else of 1000 timer wake-ups of an idle CPU this many "
	 "wait an extra delay beyond the normal draw, exponential of mean wake_local_tail_mean "
	 "(1000 or more: every one): the path's long tail, which a normal spread lacks. "
	 "calibrate --recordings fits both to the upper quantiles of the wake-ups whose CPU ran "
	 "the task first (docs/validate.md, issue 28, the wake-up path's tail)"},
	{"wake_local_tail_mean", P(wake_local_tail_mean), 0, SL_PARAM_NS,
	 "the mean of wake_local_tail's extra delay (0: off)"},
	{"wake_remote_tail", P(wake_remote_tail), 0, SL_PARAM_COUNT0,
	 "the same for a wake-up of an idle CPU from another CPU (calibrate --recordings)"},
	{"wake_remote_tail_mean", P(wake_remote_tail_mean), 0, SL_PARAM_NS,
	 "the mean of wake_remote_tail's extra delay (0: off)"},
	{"syscall_preempt", P(syscall_preempt), 0, SL_PARAM_FLAG,
	 "0: a task's zero-time steps (a pipe write, a condition's signal or broadcast, a mutex's "
	 "unlock) run one after the other. 1: a step that wakes a task is a system call, whose "
	 "return to user mode is a preemption point in every Linux kernel (PREEMPT_NONE too): "
	 "when the woken task preempts, it runs before the waker's next step (rt-app's resume: "
	 "the woken thread runs before the unlock, finds the mutex held and sleeps again, as "
	 "traced here). 0 by default: the results before it stay as they were"},
	{"cwait_preempt", P(cwait_preempt), 0, SL_PARAM_FLAG,
	 "0: pthread_cond_wait releases its mutex and sleeps at once. 1 (with syscall_preempt): "
	 "as glibc does it, the waiter is registered on the condition first, then the release "
	 "(a futex wake if the mutex is contended) returns through a preemption point; a "
	 "waiter preempted there and signalled before it runs again does not sleep (the "
	 "traces: a partner's signal in that window wakes nobody)"},
	{"cond_groups", P(cond_groups), 0, SL_PARAM_FLAG,
	 "0: a condition's signal or broadcast wakes its waiters and goes on. 1: as glibc 2.25 "
	 "to 2.40 (Debian 12's 2.36, the recordings' rt-app) does it: waiters join a second "
	 "group while the first one has members; a signal or broadcast that must switch groups "
	 "first waits until the first group's woken waiters have run, each of which wakes it "
	 "(a woken waiter's wake-up of its signaller; docs/validate.md, issue 28 step 29)"},
	{"vcpu_pack", P(vcpu_pack), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else this kernel's non-mainline sched_vcpu_pack "
	 "rule as observed: of 1000 wake-ups that the policy sends to an idle CPU away from a "
	 "busy previous CPU, this many stay on the previous CPU (calibrate counts them: 275 here)"},
	{"vcpu_pack_waker", P(vcpu_pack_waker), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else the same patch's rule as observed for a "
	 "wake-up by a running task (a pipe write, a resume, a signal) of a task that last ran "
	 "on the waker's CPU: of 1000 that the policy sends to an idle CPU, this many stay on "
	 "the waker's CPU (calibrate's free ping-pong counts them: 997 and 998 here)"},
	{"vcpu_pack_queued", P(vcpu_pack_queued), 0, SL_PARAM_COUNT,
	 "0 (leave it out): vcpu_pack_waker's rate holds whether the waker is alone on its CPU or "
	 "not. Else the rate of that rule when other tasks are queued on the waker's CPU: of "
	 "1000 such wake-ups that the policy sends to an idle CPU, this many stay (the traces "
	 "of this machine: 403 of 827, 49%, against 99% with the waker alone; tools/wake_pack.py "
	 "--fit, a task whose later lines were lost not waiting)"},
	{"vcpu_pack_other", P(vcpu_pack_other), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else the same patch's rule as observed in real "
	 "traces (tools/wake_pack.py --fit) for a wake-up by the one task runnable on its CPU of "
	 "a task that last ran on another CPU: of 1000 that the policy sends to an idle CPU, this "
	 "many join the waker (one draw, whatever the tasks' sizes; the room rule below is the "
	 "one by utilization)"},
	{"vcpu_pack_irq", P(vcpu_pack_irq), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else this machine's rule as observed in real "
	 "traces (a replay measures it in its own: docs/workloads.md) for a wake-up by an "
	 "interrupt (a task's own timer) on an idle CPU where the task last ran and another "
	 "woken task waits to run: of 1000 that the policy sends to another, idle CPU, this "
	 "many stay (every recording of the corpus: all of them)"},
	{"vcpu_pack_irq_busy", P(vcpu_pack_irq_busy), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else this machine's rule as observed in real "
	 "traces (docs/validate.md, issue 28, browser) for a wake-up by an interrupt (a task's "
	 "own timer) on the CPU where the task last ran while that CPU runs another task: of "
	 "1000 that the policy sends to another, idle CPU, this many stay (the calibration "
	 "half's traces, tools/wake_irq.py: of the wakees that slept alone there, never "
	 "delayed, 181 of 262; 955 of 1102 as counted before, docs/validate.md, \"Keeping the "
	 "interrupt's wakee\"; mainline takes the idle CPU)"},
	{"vcpu_pack_irq_same", P(vcpu_pack_irq_same), 0, SL_PARAM_COUNT,
	 "0 (leave it out): vcpu_pack_irq_busy's rate for every running task. Else the rate of "
	 "vcpu_pack_irq_busy's rule where the running task's prio is the wakee's (issue 28, "
	 "docs/validate.md, \"Keeping the interrupt's wakee\": tools/wake_irq.py on the "
	 "calibration half's traces, wakees that slept alone: 36 of 83 stayed, where 145 of 179 "
	 "did beside a task of another prio)"},
	{"vcpu_pack_irq_alone", P(vcpu_pack_irq_alone), 0, SL_PARAM_COUNT,
	 "0 (leave it out): vcpu_pack_irq_busy's and vcpu_pack_irq_same's rates whatever waits "
	 "there. Else the rate of vcpu_pack_irq_busy's rule where the running task is the only "
	 "runnable one on that CPU (nothing waits there); with others waiting the two other "
	 "rates hold (0: the policy's choice). The calibration half's recordings of the 2-vCPU "
	 "guest keep 1246 of 1307 such wake-ups on their busy vCPU with the other idle, and 125 "
	 "of 343 with others waiting (tools/wake_irq.py; docs/validate.md, issue 28 step 19)"},
	{"vcpu_pack_irq_move", P(vcpu_pack_irq_move), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement (no idle CPU: the wakee stays on its previous "
	 "CPU). Else, on 2 CPUs both running a task, an interrupt's wake-up of a task last on "
	 "its CPU, where others wait, goes to the other CPU, whose task runs alone there (nothing "
	 "waiting), this many times in 1000. The calibration half's recordings of the 2-vCPU "
	 "guest move 166 of 269 such wake-ups, and 1 to 6 per cent where nothing waits on the "
	 "wakee's CPU or something waits on the other too (tools/wake_irq.py; docs/validate.md, "
	 "issue 28 step 19)"},
	{"vcpu_pack_room", P(vcpu_pack_room), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): mainline placement. Else the same patch's rule as observed in real "
	 "traces (docs/validate.md, tools/wake_pack.py) for a wake-up by the one task runnable on "
	 "its CPU of a task that last ran on another CPU, sent by the policy to an idle CPU: it "
	 "stays on the waker's CPU when that CPU's utilization plus the wakee's is below this "
	 "(per 1024 of a CPU; utilization decayed as PELT's util_avg, 32 ms half-life) and the "
	 "wakee's is below vcpu_pack_small"},
	{"vcpu_pack_small", P(vcpu_pack_small), 0, SL_PARAM_COUNT0,
	 "with vcpu_pack_room: the wakee's own utilization (per 1024) must be below this to be "
	 "packed (0: no wakee is; 1024: no bound of its own, the room bounds it)"},
	{"vcpu_pack_prio", P(vcpu_pack_prio), 0, SL_PARAM_COUNT0,
	 "with vcpu_pack_room: the wakee's kernel prio (120 + nice; an RT task's 99 - its "
	 "priority) must be below this to be packed (0: any prio). In the recordings only "
	 "wakees of a negative nice joined their waker (120: docs/validate.md)"},
	{"vcpu_pack_room_sum", P(vcpu_pack_room_sum), 0, SL_PARAM_FLAG,
	 "with vcpu_pack_room: 0, the waker's CPU's utilization is its busy time (decayed as "
	 "util_avg). 1: the sum of the utilizations of the tasks whose last CPU it is, asleep "
	 "ones included, as the kernel's cpu_util keeps a sleeper's decaying utilization on the "
	 "CPU it left (tools/wake_pack.py --fit --sum measures the room on that sum; "
	 "docs/validate.md, step 28)"},
	{"vcpu_pack_busy", P(vcpu_pack_busy), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else this machine's rule as observed in real "
	 "traces (docs/validate.md, issue 28 after step 6) on 2 CPUs, both running a task: a "
	 "task's wake-up that the policy leaves on the wakee's previous CPU while more tasks wait "
	 "there than on the other (besides each one's current) goes to the other CPU this many "
	 "times in 1000 (the calibration half's traces: 271 of 1269 with the previous CPU the "
	 "waker's; 67 of 4546 with no more waiting there)"},
	{"vcpu_pack_wait", P(vcpu_pack_wait), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else this machine's rule as observed in real "
	 "traces (docs/validate.md, issue 28, the wake-up situations) on 2 CPUs, both running a "
	 "task: a task's wake-up by the task running on its previous CPU, which the policy leaves "
	 "there, goes to the other CPU this many times in 1000 when a task of a priority as high "
	 "as the wakee's or higher waits there (tools/wake_situations.py on the calibration "
	 "half's 21 traces: 193 of 850 moved; 122 of 749 with only lower ones waiting, 60 of "
	 "4253 with none; a task whose later lines were lost not waiting)"},
	{"vcpu_pack_wait_lower", P(vcpu_pack_wait_lower), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else vcpu_pack_wait's rule where only tasks of a "
	 "lower priority than the wakee's wait on its previous CPU: the wake-up goes to the other "
	 "CPU this many times in 1000 (tools/wake_situations.py on the calibration half's 21 "
	 "traces prints it: 122 of 749 moved, 162; the moves that part a waker and its wakee "
	 "which the model lacked, tools/pair_flips.py, docs/validate.md, pairs made and unmade)"},
	{"vcpu_pack_wait_none", P(vcpu_pack_wait_none), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else vcpu_pack_wait's rule where no task waits "
	 "on the wakee's previous CPU (the waker alone there): the wake-up goes to the other, "
	 "busy CPU this many times in 1000, where mainline finds no idle CPU and keeps it "
	 "(tools/wake_situations.py on the calibration half's 21 traces prints it: 60 of 4253 "
	 "moved, 14; docs/validate.md, issue 28 step 15, wake-up placement in the browser)"},
	{"vcpu_pack_wait_hot", P(vcpu_pack_wait_hot), 0, SL_PARAM_COUNT,
	 "0 (leave it out): vcpu_pack_wait_none's rate, or mainline's choice. Else its case where "
	 "nothing waits on the other CPU either and that CPU's busy time (decayed as util_avg, "
	 "32 ms half-life) is vcpu_pack_hot_util or more: the wake-up goes there this many times "
	 "in 1000. The recordings move 1-12 per 1000 of these under 768 of 1024 and 64-247 at or "
	 "over it (five sets' calibration halves; docs/validate.md, step 28)"},
	{"vcpu_pack_hot_util", P(vcpu_pack_hot_util), 768, SL_PARAM_COUNT,
	 "vcpu_pack_wait_hot's bound on the other CPU's utilization, per 1024 (768: where the "
	 "recordings' move rate rises, docs/validate.md, step 28)"},
	{"vcpu_pack_stay", P(vcpu_pack_stay), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else, on 2 CPUs both running a task, a task's "
	 "wake-up by the task running alone on its CPU, of a task last on the other CPU whose "
	 "task runs alone there, that the policy sends away from that previous CPU (mainline's "
	 "wake_affine_weight by PELT load), stays there this many times in 1000 "
	 "(tools/wake_situations.py on the calibration half prints it: 951-973 on five sets, "
	 "two kernel builds; docs/validate.md, issue 28 step 27)"},
	{"vcpu_pack_join", P(vcpu_pack_join), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else vcpu_pack_stay's situation with others "
	 "waiting behind the task on the wakee's previous CPU: a wake-up the policy leaves "
	 "there goes to the waker's CPU this many times in 1000 (tools/wake_situations.py, the "
	 "join case: 730 per mille on validate-v1300c's calibration half; docs/validate.md, "
	 "issue 28 step 27)"},
	{"vcpu_pack_stay_queued", P(vcpu_pack_stay_queued), 0, SL_PARAM_COUNT,
	 "0 (leave it out): mainline placement. Else vcpu_pack_stay's situation with others "
	 "waiting behind the waker on its CPU: a wake-up the policy sends away from the wakee's "
	 "previous CPU, which runs a task, goes back there this many times in 1000 "
	 "(tools/wake_situations.py: 1404 of 1458 stayed on validate-v1300e's calibration half, "
	 "962; docs/validate.md, issue 28 step 29)"},
	{"vcpu_pack_sis_gate", P(vcpu_pack_sis_gate), 0, SL_PARAM_FLAG,
	 "0 (leave it out): the both-busy rules (vcpu_pack_busy, vcpu_pack_wait and its splits, "
	 "vcpu_pack_stay, _join, _stay_queued) act at every wake-up of their situation. 1: only "
	 "where the policy's SIS_UTIL idle-scan budget of the waker's LLC (nr_idle_scan, as the "
	 "last periodic balance set it) is > 0, or the policy has none; where it is 0 the "
	 "policy's choice stands. The recordings of this machine move 815 per mille of "
	 "vcpu_pack_wait_alone's wake-ups at a budget > 0 and 109 at 0, join 721 against 101 "
	 "(tools/wake_situations.py --budget=pos|zero on validate-v1300e's calibration half; "
	 "docs/validate.md, issue 28 step 30)"},
	{"vcpu_pack_wait_alone", P(vcpu_pack_wait_alone), 0, SL_PARAM_COUNT,
	 "0 (leave it out): vcpu_pack_wait and _lower decide wherever the other CPU stands. Else "
	 "(with any of the four _alone/_crowded lines set) vcpu_pack_wait's rate where the other "
	 "CPU's task runs alone, nothing waiting there (tools/wake_situations.py, \"(B alone)\": "
	 "255 of 341 moved on validate-v1300c's calibration half, 747; docs/validate.md, issue 28 "
	 "step 27)"},
	{"vcpu_pack_wait_lower_alone", P(vcpu_pack_wait_lower_alone), 0, SL_PARAM_COUNT,
	 "vcpu_pack_wait_alone's rate where only tasks less important than the wakee wait on "
	 "its previous CPU (154 of 284, 542)"},
	{"vcpu_pack_wait_crowded", P(vcpu_pack_wait_crowded), 0, SL_PARAM_COUNT,
	 "with the split on (vcpu_pack_wait_alone): vcpu_pack_wait's rate where others wait on "
	 "the other CPU too (6 of 631 moved on validate-v1300c's calibration half, 9)"},
	{"vcpu_pack_wait_lower_crowded", P(vcpu_pack_wait_lower_crowded), 0, SL_PARAM_COUNT,
	 "the same where only less important tasks wait on the wakee's previous CPU (4 of 667, "
	 "5)"},
	{"wake_ipi", P(wake_ipi_ns), 0, SL_PARAM_NS,
	 "0: waking a task costs its waker nothing more wherever the task goes. Else the waker's "
	 "CPU time to wake a task onto another CPU that is idle and not polling: the IPI (on "
	 "bare metal an APIC write, well under 1 us; in a VM the write exits to the host, which "
	 "kicks the halted vCPU's thread). calibrate's free ping-pong measures it (a round whose "
	 "write woke the other CPU against one that did not); this machine's recordings show "
	 "bursts that wake the other, halted vCPU 11-13 us longer than those that wake locally"},
	{"wake_tail", P(wake_tail_ns), 0, SL_PARAM_NS,
	 "0: a running task's wake-up of another costs the waker no time. Else the waker's CPU "
	 "time after each wake-up it makes from task context, before its next step: the rest of "
	 "the futex wake system call and of the caller's path to its next one (in a VM every "
	 "step of it slower). Measured on the calibration half's 21 real traces (docs/validate.md, "
	 "issue 28 step 9): from a waker's sched_waking to its next event (its next wake-up or its "
	 "switch-out asleep), for the pairs whose next step the model makes at once, a wakee "
	 "woken onto the waker's own CPU: median 6 us (3608 wake-ups), every target 11 us (7202). "
	 "A recorded trace's bursts hold it already: trace replay gives no credit for it"},
	{"wake_tail_unlock", P(wake_tail_unlock), 0, SL_PARAM_FLAG,
	 "0: wake_tail runs right after the wake-up. 1: at the waker's next step that is not a "
	 "mutex's unlock, so a wake-up under a mutex (rt-app's resume: lock, broadcast, unlock) "
	 "releases it first: glibc's unlock of a mutex nobody waits on is a store in user mode, "
	 "and the rest of the path (rt-app's loop, the next event's system call) comes after it"},
	{"task_preempt", P(task_preempt_ns), 0, SL_PARAM_NS,
	 "0: a task's wake-up of a task that then preempts it on its own CPU switches at the "
	 "wake-up. Else that switch comes this much later: the rest of the waker's system call "
	 "to its return to user mode, where the preemption is taken (the waker's time "
	 "meanwhile, out of the wake_tail it owes with wake_tail_unlock). The calibration half's "
	 "recordings switch 3 us (p10), 4 (median) and 9 (p90) after the sched_waking (10814 "
	 "such wake-ups, tools/preempt_switch.py; docs/validate.md, issue 28 steps 22 and 23)"},
	{"irq_preempt", P(irq_preempt_ns), 0, SL_PARAM_NS,
	 "0: an interrupt's wake-up (a sleep's timer, a device) that preempts the task running on "
	 "the interrupt's own CPU switches at once. Else it switches this much later, the CPU "
	 "taken meanwhile (the rest of the handler and the interrupt's exit, in a VM slower). "
	 "Measured on the calibration half's 21 real traces (docs/validate.md, issue 28 step 9): "
	 "712 interrupt wake-ups onto a vCPU running a task whose next switch there preempted it "
	 "for the wakee: median 10 us from sched_waking (p10 8, p75 12)"},
	{"irq_wake_preempt", P(irq_wake_preempt), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): the policy decides whether an interrupt's wake-up preempts. Else the "
	 "whole decision for an interrupt's wake-up (a sleep's timer, a device) of a task kept on "
	 "the interrupt's own CPU while that runs a task of its class: the wakee runs first this "
	 "many times in 1000 (forced), else it waits. In the calibration half's 21 real traces "
	 "1084 of 1562 such wake-ups switched to the wakee within 100 us: 693 (688 within 50 us, "
	 "694 within 200; tools/wake_wait.py --count irq; docs/validate.md, the slow five per "
	 "cent). Where irq_wake_preempt_up applies, that rate instead"},
	{"irq_wake_preempt_up", P(irq_wake_preempt_up), 0, SL_PARAM_COUNT0,
	 "0 (leave it out). Else irq_wake_preempt's rule with this rate where the running task's "
	 "utilization plus 1 is wake_preempt_ratio times the wakee's plus 1 or more (with "
	 "wake_preempt_ratio set; the others: irq_wake_preempt, or the policy where that is 0). "
	 "In the calibration half's 21 real traces 567 of 690 such wake-ups at a ratio of 8 ran "
	 "within 100 us: 822 (806 at a ratio of 4, 842 at 16; the others 593), where the model's "
	 "EEVDF ran 173 of 361 at once and let 137 more preempt the running task later, which "
	 "the traces show 6 times in 690 (tools/wake_wait.py --count irq --by-size 8)"},
	{"newidle_ratio", P(newidle_ratio), 0, SL_PARAM_COUNT0,
	 "0: 6.18's newidle balance starts each run as the kernel boots, its NI_RANDOM ratio at "
	 "512 of 1024 (a balance runs on half the calls until 512 calls have measured the real "
	 "success rate). Else each CPU's ratio when the run starts (1..1024, the success count at "
	 "half of it, the calls at 512): a machine that ran before the workload holds the ratio "
	 "its history left. tools/newidle_ratio.py on the calibration half's 21 real traces: 133 "
	 "newidle pulls in 15041 idle entries sustain a ratio of 96 (1024 x sqrt(133 / 15174); "
	 "docs/validate.md, the newidle balance rule by rule). tools/wake_pullback.py reads it "
	 "directly: a balance that runs while a cold task waits on the other CPU pulls, and 133 "
	 "of those 1127 moments pulled (11.8%): 1024 x 0.118 - 2 = 119 (issue 28 step 15, the "
	 "just-woken wakee pulled back; not adopted)"},
	{"newidle_cost", P(newidle_cost_ns), 0, SL_PARAM_NS,
	 "0: a newidle balance takes no time (6.18's: the CPU going idle balances, pulls and "
	 "switches at one instant, max_newidle_lb_cost stays 0 and the avg_idle cut-offs never "
	 "stop a balance). Else a balance that passes its gates and NI_RANDOM's draw examines the "
	 "other CPUs' queues this long after the CPU's decision (sched_balance_update_blocked_"
	 "averages, the statistics, the busiest runqueue's lock): meanwhile the CPU is neither "
	 "idle nor running a task, a task woken onto it waits for the balance's end and counts "
	 "as pulled, and the time is the domain cost 6.18 keeps in max_newidle_lb_cost, which "
	 "with the avg_idle that each wake-up onto the idle CPU updates gates later balances. "
	 "A machine cost, one value for every policy; only 6.18's EEVDF newidle balance defers "
	 "(2.6.3x CFS's idle_balance and the plugin hook still balance at one instant). "
	 "tools/newidle_cost.py on the calibration half's 21 real traces: a pull's "
	 "sched_migrate_task 9.5 us after the blocking task's sched_wakeup (24 pulls), a switch to "
	 "a task waiting on the CPU 5.0 us after it (4545): 4500 ns (issue 28 step 16, not "
	 "adopted)"},
	{"newidle_tail", P(newidle_tail_ns), 0, SL_PARAM_NS,
	 "0: a task a newidle balance pulled is switched in at the examination (with newidle_cost "
	 "set). Else this long after it (the attach, the pick, the switch): tools/newidle_cost.py "
	 "on the calibration half's 21 real traces, the sched_migrate_task to the switch-out, "
	 "median of 24 pulls: 2000 ns (issue 28 step 16, not adopted)"},
	{"tick_phase", P(tick_phase_ns), 0, SL_PARAM_NS,
	 "0: the jiffy grid (the periodic tick, jiffies) starts with the run. Else it is offset by "
	 "this much (modulo the tick period). A real run starts at an arbitrary point of the tick "
	 "period, so its periodic timers meet the tick at an arbitrary phase, where a grid "
	 "starting "
	 "with the run fixes it (docs/validate.md, the slow five per cent)"},
	{"tick_phase_random", P(tick_phase_random), 0, SL_PARAM_FLAG,
	 "0: tick_phase as given. 1: the offset is drawn from the seed, uniform over one tick "
	 "period, a different phase for each seed, as each real run has its own; the scheduler's "
	 "stream of numbers is not used for it"},
	{"wake_hold", P(wake_hold), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): a task woken onto a CPU whose running task it does not preempt at "
	 "once may preempt it later, at the policy's tick or at a renewal of the running task's "
	 "deadline. Else, of 1000 such wake-ups (the running task of the wakee's class, no "
	 "reschedule pending), this many hold the running task: no reschedule but a wake-up's "
	 "own is taken on that CPU until the task is switched out (it blocks) or wake_hold_max "
	 "has passed. In the calibration half's 21 real traces, of the wake-ups kept on a busy "
	 "vCPU and not run there within 100 us, 146 of 5068 preempted the running task later "
	 "(the model, seeds 1-3: 416 of 5926): 972 (tools/wake_wait.py --count any --kept other; "
	 "docs/validate.md, packed wakees)"},
	{"wake_hold_max", P(wake_hold_max_ns), 0, SL_PARAM_NS,
	 "0: wake_hold's hold lasts until the running task is switched out. Else at most this "
	 "long after the wake-up: a bound, the longest wait of such a wakee for the running task "
	 "to block in the calibration half's 21 real traces, 5264 us (tools/wake_wait.py --kept, "
	 "'after' max)"},
	{"wake_move_preempt", P(wake_move_preempt), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): the policy decides whether a wakee placed on a busy CPU preempts. Else "
	 "a task's wake-up of a task last on the waker's CPU that the placement sends to another "
	 "CPU running a task of the wakee's class, which the policy does not let preempt, "
	 "preempts there this many times in 1000 (forced). In the calibration half's 21 real "
	 "traces 271 of 387 such moves ran the wakee there at once (the model: 1 of 80): 700 "
	 "(tools/wake_wait.py --count own --kept other, 'moved' and 'waited there' of B busy; "
	 "docs/validate.md, packed wakees)"},
	{"ipi_busy", P(ipi_busy_ns), 0, SL_PARAM_NS,
	 "0: a wake-up that preempts the task running on another CPU switches there ipi later, "
	 "as on any CPU. Else this much later: in a VM the waker's path to the remote enqueue "
	 "and the reschedule IPI into a running vCPU (the sender's exit, the host's kick, the "
	 "target's exit and injection) take tens of us. Measured on the calibration half's 21 "
	 "real traces (docs/validate.md, issue 28, the wake-up situations): tools/"
	 "wake_situations.py --remote, the wake-ups by a task onto the other vCPU, which ran a "
	 "task that the wakee then preempted: median 31 us from sched_waking to the switch"},
	{"wake_enqueue_busy", P(wake_enqueue_busy_ns), 0, SL_PARAM_NS,
	 "0: a wakee is enqueued at its wake-up's call. Else a task's wake-up of a task onto "
	 "another CPU that runs a task enqueues it this much later (the wakee on no runqueue "
	 "meanwhile, the waker running on; its time counts in wake_tail's, which it lengthens "
	 "to this if shorter; ipi_busy still counts from the call): in a VM the waker's "
	 "select_task_rq, the remote runqueue's lock and the enqueue take that long before "
	 "sched_wakeup. Measured on the calibration half's 21 real traces (docs/validate.md, "
	 "issue 28 step 15, a wake-up's time in the waker): tools/wake_cost.py, 2532 such "
	 "wake-ups, median 12 us from sched_waking to sched_wakeup (onto the waker's own CPU "
	 "1 us)"},
	{"wake_enqueue_tail", P(wake_enqueue_tail_ns), 0, SL_PARAM_NS,
	 "0: a wake-up that wake_enqueue_busy defers costs its waker wake_tail, or the deferral "
	 "if longer. Else at least the deferral plus this: the waker's time from the deferred "
	 "enqueue to its next step. Measured on the calibration half's 21 real traces "
	 "(docs/validate.md, issue 28 step 15, a wake-up's time in the waker): tools/"
	 "wake_cost.py, the wake-ups onto another, busy CPU: median 5 us from sched_wakeup to "
	 "the waker's next event (16 us from the sched_waking)"},
	{"wake_preempt", P(wake_preempt), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): the policy alone decides whether a wakee preempts. Else this "
	 "kernel's wake-up preemption as traced: of 1000 wake-ups by a running task of a task "
	 "of its class on the waker's own CPU that the policy does not let preempt, this many "
	 "do anyway (the wakee runs next; calibrate --recordings counts the need_resched flag "
	 "of such sched_wakeup events in real traces)"},
	{"wake_preempt_short", P(wake_preempt_short), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): wake_preempt's rate whatever the wakee's sleep. Else its rate for a "
	 "wakee that slept less than wake_preempt_sleep (since its switch-out): wake_preempt is "
	 "measured on wakees asleep 1 ms or more, and the short sleepers (the second half of a "
	 "hand-off under a mutex, a condition signalled back within a loop) preempt far more "
	 "often in this kernel's traces (calibrate --recordings counts both)"},
	{"wake_preempt_sleep", P(wake_preempt_sleep_ns), 1000000, SL_PARAM_NS,
	 "with wake_preempt_short: the sleep under which it applies (1 ms: the bound of "
	 "calibrate --recordings' wake_preempt count)"},
	{"wake_preempt_again", P(wake_preempt_again), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): a mutex's waiter woken by the release is one more wake-up to "
	 "wake_preempt. Else the rate for a waiter that last ran on the releasing task's own "
	 "CPU (the second half of a hand-off: it preempted the holder, found the mutex held and "
	 "slept) woken by that release there: this kernel lets it run first again at 931 of "
	 "1000 in the calibration half's traces (tools/wake_preempt_pairs.py --again), where "
	 "the model's draws were independent"},
	{"wake_preempt_short_late", P(wake_preempt_short_late), 0, SL_PARAM_COUNT0,
	 "with wake_preempt_short_run: wake_preempt_short's rate for a waker that has run "
	 "wake_preempt_short_run or more since its switch-in (wake_preempt_short stays the rate "
	 "of the others). In this kernel's traces a short sleeper's wake-up onto its waker's own "
	 "CPU lets the wakee run first more often the longer the waker has run: 546, 638, 654, "
	 "857 and 938 per 1000 for runs of 0-10, 10-40, 40-160, 160-640 and 640 us or more "
	 "(tools/wake_preempt_pairs.py --short --no-again, the calibration half: 613 under 160 us, "
	 "862 from it; docs/validate.md, issue 28 step 23)"},
	{"wake_preempt_short_run", P(wake_preempt_short_run_ns), 0, SL_PARAM_NS,
	 "0: off. The waker's run since its switch-in from which a short sleeper's wake-up takes "
	 "wake_preempt_short_late instead of wake_preempt_short"},
	{"wake_preempt_all", P(wake_preempt_all), 0, SL_PARAM_FLAG,
	 "0: wake_preempt's rates add to the policy's own wake-up preemption (they apply where "
	 "it does not preempt). 1: they are the whole decision, as calibrate --recordings "
	 "measures them (the share of all such wake-ups whose sched_wakeup sets need_resched): "
	 "inside the waker's first wake_preempt_window since its switch-in the policy's own "
	 "check is left out, and a drawn wakee runs next even where the policy would not pick "
	 "it yet (after the window, mainline's slice used up, the policy's check comes first "
	 "and the rates apply where it does not preempt, as with 0)"},
	{"wake_preempt_long_policy", P(wake_preempt_long_policy), 0, SL_PARAM_FLAG,
	 "with wake_preempt_all: 0, the rates decide alone inside the window for every such "
	 "wake-up. 1: only for a wakee asleep under wake_preempt_sleep and for a hand-off's "
	 "second half (wake_preempt_again); a wakee asleep longer goes to the policy's check, and "
	 "wake_preempt's rates (0: none) apply where it does not preempt. With wake_skip_delayed "
	 "the policy's check gives the recorded pairs' rates (CodecLooper2 -> CodecLooper3 893 per "
	 "mille against 797 recorded, CodecLooper1 -> CodecLooper2 77 against 135; "
	 "tools/wake_first.py --pairs) where a pooled rate cannot (docs/validate.md, issue 28 step "
	 "21)"},
	{"wake_again_policy", P(wake_again_policy), 0, SL_PARAM_FLAG,
	 "0: a hand-off's second half (a mutex's waiter woken by the release on the CPU it "
	 "slept on) is decided by wake_preempt_again's rate, or by the short sleepers' rates. "
	 "1: by the policy's own check, with wake_skip_delayed, as any long sleeper's under "
	 "wake_preempt_long_policy (docs/validate.md, issue 28 step 33: the kernel's check is "
	 "plain EEVDF, and the bounced waiter's waker is mostly ineligible)"},
	{"wake_preempt_window", P(wake_preempt_window_ns), 1400000, SL_PARAM_NS,
	 "with wake_preempt_all: the waker's run since its switch-in under which the rates "
	 "decide (1.4 ms: 6.18's base slice on 2 CPUs, the bound of calibrate --recordings' "
	 "count)"},
	{"wake_preempt_ratio", P(wake_preempt_ratio), 0, SL_PARAM_COUNT0,
	 "0 (leave it out): wake_preempt's rates whatever the two tasks' sizes. Else the ratio "
	 "of the two tasks' utilizations (PELT-like, 32 ms half-life, plus 1 each) from which "
	 "wake_preempt_up (the waker's this many times the wakee's or more) or "
	 "wake_preempt_down (the wakee's this many times the waker's) replace wake_preempt, "
	 "and wake_preempt_short_up or _down replace wake_preempt_short (docs/validate.md, "
	 "issue 28 step 8: in this kernel's traces a small wakee of a big waker runs first far "
	 "more often than a big wakee of a small one)"},
	{"wake_preempt_up", P(wake_preempt_up), 0, SL_PARAM_COUNT0,
	 "with wake_preempt_ratio: the rate for a wakee asleep wake_preempt_sleep or more whose "
	 "waker's utilization is the ratio times its own or more (0: wake_preempt's)"},
	{"wake_preempt_down", P(wake_preempt_down), 0, SL_PARAM_COUNT0,
	 "with wake_preempt_ratio: the rate for a wakee asleep wake_preempt_sleep or more whose "
	 "utilization is the ratio times its waker's or more (0: wake_preempt's)"},
	{"wake_preempt_short_up", P(wake_preempt_short_up), 0, SL_PARAM_COUNT0,
	 "with wake_preempt_ratio: wake_preempt_up's rule for a wakee asleep under "
	 "wake_preempt_sleep (0: wake_preempt_short's rate)"},
	{"wake_preempt_short_down", P(wake_preempt_short_down), 0, SL_PARAM_COUNT0,
	 "with wake_preempt_ratio: wake_preempt_down's rule for a wakee asleep under "
	 "wake_preempt_sleep (0: wake_preempt_short's rate)"},
	{"wake_cold", P(wake_cold_ns), 0, SL_PARAM_NS,
	 "0: a woken task's first step costs nothing beyond the switch. Else the CPU it spends "
	 "first, before its next step (a mutex's lock or unlock aside), after a sleep of "
	 "wake_cold_sleep or more: its cache and TLB gone cold. The measured guest's threads that "
	 "wake another first thing after a sleep do it 10 us after their switch-in from a busy "
	 "vCPU, 11-25 us from one idle 0.1-10 ms, 4 us after a sleep under 1 ms "
	 "(tools/wake_cold.py; docs/validate.md, issue 28 step 20)"},
	{"wake_cold_idle", P(wake_cold_idle_ns), 0, SL_PARAM_NS,
	 "with wake_cold: more where the task's CPU was idle before it ran, at 1 ms of idle (the "
	 "host had the core meanwhile)"},
	{"wake_cold_idle_decade", P(wake_cold_idle_decade_ns), 0, SL_PARAM_NS,
	 "with wake_cold_idle: its growth per tenfold of the idle length (shrinks below 1 ms, "
	 "never under 0)"},
	{"wake_cold_sleep", P(wake_cold_sleep_ns), 1000000, SL_PARAM_NS,
	 "with wake_cold: the least sleep after which a task starts cold"},
	{"irq_wake_unprotected", P(irq_wake_unprotected), 0, SL_PARAM_FLAG,
	 "0: the policy's wake-up check as the kernel's. 1: an interrupt's wake-up of a task kept "
	 "on the interrupt's own CPU is checked without the running task's slice protection "
	 "(EEVDF: the pick decides by eligibility and deadline, as for a wakee of a shorter slice "
	 "under PREEMPT_SHORT; other policies have no such protection). The recordings let such a "
	 "wakee preempt a task switched in under 250 us before as often as an older one "
	 "(tools/irq_protect.py; docs/validate.md, 'A fresh task's protection')"},
	{"wake_skip_delayed", P(wake_skip_delayed), 0, SL_PARAM_FLAG,
	 "0: the policy's wake-up check as the kernel's source reads (EEVDF 6.18: its pick may "
	 "return a delayed entity, a sleeper left queued by DELAY_DEQUEUE, and then the wakee "
	 "does not preempt). 1: the check's pick passes over delayed entities, as the measured "
	 "guest behaves: mp3-long's AudioOut, alone on its vCPU, lets AudioTrack run first at "
	 "251 of 252 wake-ups, where the delayed AudioTick that woke AudioOut 300 us before "
	 "holds the pick's earliest deadline (docs/validate.md, issue 28 step 21)"},
	{"burst_quiet", P(burst_quiet), 0, SL_PARAM_FLAG,
	 "0: the end of a task's CPU burst is a preemption point (the policy's accounting there "
	 "may reschedule). 1: it is not: the burst's end is the task's own code going on (a run "
	 "loop ends and the task calls into the kernel to lock, wait or sleep), so a reschedule "
	 "the policy asks there (EEVDF's update_curr once the slice's protection has lapsed) waits "
	 "for the next tick, interrupt or wake-up, which asks again. The recordings let a task "
	 "woken onto a busy vCPU in mid-run only rarely (tools/preempt_causes.py, 'later'; "
	 "docs/validate.md, issue 28 step 11)"},
	{"burst_account", P(burst_account), 0, SL_PARAM_FLAG,
	 "with burst_quiet: 1: the policy's accounting (update_curr) is brought up to date at the "
	 "end of each CPU burst, as the model did before issue 28 step 32. 0: it is not, as in "
	 "the kernel, whose update_curr runs at a tick, a wake-up, a sleep or a switch, never "
	 "where user code ends a loop: a running task's vruntime is then as stale as the last such "
	 "event, which decides whether a delayed sleeper woken on its CPU is still ineligible "
	 "(requeue_delayed_entity does not update curr). Recorded on heavy-barrier with a BPF "
	 "probe: the waker's vruntime 1.5 ms stale (median) at the wake-up (docs/validate.md, "
	 "issue 28 step 32)"},
	{"irq_bg_rate", P(irq_bg_rate), 0, SL_PARAM_COUNT0,
	 "0 (default): no interrupt but the workload's and the model's own. Else each CPU's "
	 "background interrupts per second that wake no task (timers, IPIs, virtio): every "
	 "1/rate s, at a phase per CPU drawn from the seed, the CPU leaves idle (the profile's "
	 "exit latency) for irq_bg_run and goes back, or its running task's burst ends irq_bg_run "
	 "later; no task, no scheduler decision. Measured by tools/irq_background.py as the "
	 "interrupt-only idle exits per second of idle time (docs/validate.md, issue 28 step 14); "
	 "at most 10000"},
	{"irq_bg_run", P(irq_bg_run_ns), 0, SL_PARAM_NS,
	 "with irq_bg_rate: each background interrupt's time on its CPU, taken from the running "
	 "task or spent out of idle (0: an idle exit and straight back). tools/irq_background.py: "
	 "an interrupt-only idle exit's time from the exit to the next entry"},
	{"tick_keep", P(tick_keep), 0, SL_PARAM_COUNT0,
	 "0 (default): an idle CPU's tick stops as its policy's NO_HZ rule says. Else, of 1000 "
	 "idle entries of a CPU that ran a task since its last, this many keep the tick running "
	 "for tick_keep_ticks ticks whatever the policy says, as tick_nohz_next_event does while "
	 "rcu_needs_cpu() (RCU callbacks queued on the CPU, not offloaded, every 6.x kernel); each "
	 "kept tick is a whole tick (the policy's tick hook: 6.18's idle periodic balance). "
	 "tools/idle_tick_kept.py measures it on the recordings as the first tick's excess of "
	 "tick-phase exits with nothing following over the later ticks' (docs/validate.md, issue "
	 "28 step 15: none measured on fc-2vcpu-r28); at most 1000"},
	{"tick_keep_ticks", P(tick_keep_ticks), 1, SL_PARAM_COUNT,
	 "with tick_keep: the ticks a kept tick runs from the idle entry on (the CPU's ticks, "
	 "busy or idle, count: RCU's grace period goes on with them) before the policy's rule "
	 "decides again; 1: the first tick only"},
	{"sib_idle_rate", P(sib_idle_rate), 0, SL_PARAM_COUNT0,
	 "0 (default): a CPU's work rate is the same whatever the other CPUs do. Else the work "
	 "a CPU does in 1000 ns of CPU time while the other CPU of its pair (CPU id xor 1) is "
	 "idle, against 1000 while that CPU runs a task: a running task's burst left is "
	 "stretched by 1000/rate when the sibling goes idle and shrunk back when it runs again "
	 "(why is not known: the host's use of a halted vCPU's hardware thread, its halt "
	 "handling). "
	 "Measured by tools/loop_other.py as rt-app's loop cost with the other vCPU idle against "
	 "busy, within each file and run length: 976 on the calibration half of "
	 "tests/data/validate-rep, not adopted (docs/validate.md, issue 28 step 15); at most "
	 "100000"},
};
const int sl_param_count = (int)SL_ARRAY_SIZE(sl_param_table);

int sl_params_check(const struct sl_params *p, char *err, size_t errlen)
{
	/* a CPU handling interrupts half its time or more is no background (and one that
	 * always is never runs a task to its end) */
	if (p->irq_bg_rate && p->irq_bg_run_ns >= NSEC_PER_SEC / p->irq_bg_rate / 2) {
		snprintf(
			err, errlen,
			"--param irq_bg_run=%lluns: expected under half of 1/irq_bg_rate (%llu ns)",
			(unsigned long long)p->irq_bg_run_ns,
			(unsigned long long)(NSEC_PER_SEC / p->irq_bg_rate / 2));
		return -1;
	}
	return 0;
}

void sl_params_default(struct sl_params *p)
{
	for (int i = 0; i < sl_param_count; i++)
		*(u64 *)(void *)((char *)p + sl_param_table[i].offset) = sl_param_table[i].def;
}

int sl_params_set(struct sl_params *p, const char *assignment, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	size_t n = eq ? (size_t)(eq - assignment) : 0;

	if (!eq) {
		snprintf(err, errlen, "--param '%s': expected NAME=VALUE", assignment);
		return -1;
	}
	for (int i = 0; i < sl_param_count; i++) {
		const struct sl_param_desc *d = &sl_param_table[i];
		u64 v;
		char e[192];

		if (strlen(d->name) != n || strncmp(d->name, assignment, n))
			continue;
		if (d->is_count ? sl_parse_u64(eq + 1, &v, e, sizeof(e))
				: sl_parse_duration(eq + 1, &v, e, sizeof(e))) {
			snprintf(err, errlen, "--param %s: %s", d->name, e);
			return -1;
		}
		if (d->is_count == SL_PARAM_FLAG && v > 1) {
			snprintf(err, errlen, "--param %s=%s: expected 0 or 1", d->name, eq + 1);
			return -1;
		}
		if (d->is_count == SL_PARAM_COUNT0 && v > 100000) {
			snprintf(err, errlen, "--param %s=%s: expected 0..100000", d->name, eq + 1);
			return -1;
		}
		if (d->is_count == SL_PARAM_COUNT && (v == 0 || v > 10000)) {
			snprintf(err, errlen, "--param %s=%s: expected 1..10000", d->name, eq + 1);
			return -1;
		}
		if (d->offset == P(newidle_ratio) && v > 1024) {
			snprintf(err, errlen, "--param newidle_ratio=%s: expected 0..1024", eq + 1);
			return -1;
		}
		/* a background wake-up more often than every 100 us is no background: refused
		 * before it could make a run of seconds billions of events */
		if (d->offset == P(bg_wakeup_ns) && v && v < 100000) {
			snprintf(err, errlen, "--param bg_wakeup=%s: expected 0 or at least 100us",
				 eq + 1);
			return -1;
		}
		if (d->offset == P(tick_keep) && v > 1000) {
			snprintf(err, errlen, "--param tick_keep=%s: expected 0..1000", eq + 1);
			return -1;
		}
		/* more often than every 100 us is no background (as bg_wakeup) */
		if (d->offset == P(irq_bg_rate) && v > 10000) {
			snprintf(err, errlen, "--param irq_bg_rate=%s: expected 0..10000", eq + 1);
			return -1;
		}
		*(u64 *)(void *)((char *)p + d->offset) = v;
		return 0;
	}
	char valid[1024], hint[128];
	size_t off = 0;
	struct sl_suggest sg;

	sl_suggest_init(&sg, assignment, n);
	valid[0] = '\0';
	for (int i = 0; i < sl_param_count; i++) {
		sl_append(valid, sizeof(valid), &off, "%s%s", i ? " " : "", sl_param_table[i].name);
		sl_suggest_add(&sg, sl_param_table[i].name);
	}
	snprintf(err, errlen, "unknown --param '%.*s'%s (valid: %s)", (int)n, assignment,
		 sl_suggest_text(&sg, hint, sizeof(hint)), valid);
	return -1;
}
