/*
 * The machine: CPUs, the tick, per-CPU timers, reschedule IPIs, the idle loop and the execution
 * of task programs. The scheduler class decides; the machine carries the decisions out in time.
 * A simulation is built here from a plain description (struct sl_machine_desc); the
 * configuration layer (config/) turns the user's words into one, adds the workload groups and
 * the --at changes, and arms them.
 */
#ifndef SCHEDLAB_MACHINE_H
#define SCHEDLAB_MACHINE_H

#include "core/arena.h"
#include "sched/sched.h"
#include "machine/blockdev.h"
#include "machine/group.h"
#include "machine/idle.h"
#include "machine/mtask.h"
#include "machine/params.h"
#include "machine/prog.h"
#include "machine/sync.h"
#include "machine/wake_rules.h"

/*
 * The most tasks one simulation creates (about 0.65 KB each: 1e6 is ~650 MB). Workload specs
 * whose max_tasks add up beyond it are refused when the configuration is built; new_task() stops
 * a run that gets there anyway (a workload without max_tasks).
 */
#define SL_MAX_TASKS 1000000

/*
 * Tasks live in chunks of SL_TASK_CHUNK zeroed tasks, in pid order: one allocation per chunk
 * instead of one per fork, and no array of task pointers (a task's place is its pid's). 512
 * tasks are 212 KB, above glibc's first mmap threshold (128 KB), so the first chunk is mapped
 * and faulted in only as forks reach its pages: a run of a few tasks does not pay for 512.
 */
#define SL_TASK_CHUNK 512

struct sl_task_chunk {
	struct sl_machine_task t[SL_TASK_CHUNK];
};

struct sl_knob_change;

/*
 * A CPU's machine state: its place in the core, the idle loop, the machine's timers, interrupt
 * handling and the busy time, none of which the scheduler reads (its runqueue is sim->cpus[id],
 * this is sl_mcpu(sim, id)).
 */
struct sl_machine_cpu {
	int thread; /* the hyperthread within its core (0: the first) */
	int nr_iowait;
	bool idle; /* in the idle loop */
	int idle_state;
	/* newidle_cost: the switch-out of the task that blocked, written when the balance ends
	 * (the kernel's one sched_switch after sched_balance_newidle), held meanwhile */
	struct sl_event ni_switch;
	bool ni_switch_held;

	struct sl_timer tick;
	struct sl_timer work;	    /* curr's run step ends */
	struct sl_timer idle_timer; /* the poll state's time limit */
	bool irq_wake;		    /* out of idle only to handle an interrupt */
	int irq_busy;		    /* interrupts being handled (no idle meanwhile) */
	u64 irq_exit_latency;	    /* what leaving idle for it cost */
	u64 exit_until;		    /* the C-state exit under way ends then (hba_mbps) */
	struct sl_timer bg;	    /* background wake-ups (bg_wakeup) */
	u64 bg_next;
	/* irq_bg_rate (machine/irq_bg.c): the next interrupt, and its handler's end on an idle
	 * CPU (a timer of no CPU: its dispatch takes nothing out of idle) */
	struct sl_timer irq_bg, irq_bg_end;
	int irq_bg_cpu;
	/* tick_keep: a task ran since the last idle entry; the ticks still kept for RCU */
	bool ran_task;
	u64 tick_keep_left;
	/* core_power: the core's energy so far (kept on its thread 0) and when it was added */
	u64 core_energy_pj, core_mark;

	/* statistics */
	u64 switch_seq; /* switches to a different task: cache warmth */
	/* cache_refill_foreign: the group of the last switch-in here and its switch_seq, and the
	 * switch_seq of the last switch-in here of a task of any other group */
	const struct sl_group *seq_group;
	u64 seq_group_at, seq_other_at;
	u64 busy_ns, busy_since;
	u64 util, util_t; /* machine/vcpu_util.c: busy time, decayed as PELT's (vcpu_pack_room) */
	/* wake_hold (wake_rules.c): the task held on this CPU, its switch-in and the hold's end */
	const struct sl_task *hold;
	u64 hold_since, hold_until;
	/* timer_coalesce (machine/sleep_timers.c): the tasks whose timer was last armed here as a
	 * sleep's, and some whose timer has fired since */
	struct sl_task **sleepers;
	int nsleepers, capsleepers;

	/* last: the fields above, which every event reads, share the first cache lines */
	struct sl_cpuidle_dev idle_dev;
};

/*
 * One simulated machine: the scheduler's state (struct sl_sim, all that sched/ sees) and what
 * only the machine and the layers above it read. Every struct sl_sim is the sim of one of
 * these (sl_machine_new allocates them whole), so sl_machine_of(sim) reaches it.
 */
struct sl_machine {
	struct sl_sim sim;
	const struct sl_params *p;   /* the machine's parameters (machine/params.h) */
	struct sl_machine_cpu *cpus; /* sim.ncpu of them, by CPU id (sl_mcpu) */
	const struct sl_cpuidle_driver *idle_drv;
	const struct sl_cpuidle_governor *idle_gov;
	u64 pm_qos_latency_ns;
	struct sl_gov_params gov_params;

	struct sl_disk *disks;
	int ndisks;
	int irq_affinity; /* >= 0: that CPU; SL_IRQ_ISSUER, _SPREAD, _BIOS, _BALANCE (blockdev.h) */
	/* acpi_idle of 2.6.3x (machine/idle.c): the chipset's BM_STS bit (set by any disk DMA,
	 * cleared by the bus-master check that reads it), and when the global broadcast lock of
	 * clockevents_notify is held */
	bool bm_sts;
	u64 *bcast_busy; /* the broadcast lock's reserved [start, end) pairs, sorted, future only */
	int nbcast, capbcast;

	/* the tasks, by pid - 1 (sl_sim_task): an arena of chunks of SL_TASK_CHUNK tasks in pid
	 * order (machine/machine.c), freed with the simulation */
	struct sl_task_chunk **task_chunks;
	int ntasks, nchunks, capchunks;
	struct sl_arena task_arena; /* the chunks after the first (machine.c's task_alloc) */

	struct sl_group *groups;
	int ngroups;

	/* the --at changes (config/machine_build.c) */
	struct sl_knob_change *changes;
	int nchanges;
	bool duration_set;
	bool in_wakeup; /* inside sl_try_to_wake_up's decision (wake_hold lets it reschedule) */
	/* wake_enqueue_busy: inside a deferred enqueue, the time since its call (ipi_busy counts
	 * from the call); 0 otherwise */
	u64 wake_since;
	/* the run's seed, for irq_bg's phases (machine/irq_bg.c) */
	u64 irq_bg_seed;
	/* the wake-up rules that can apply in this run, in their order (machine/wake_rules.c) */
	const struct sl_wake_rule *wake_rules[SL_WAKE_RULES_MAX];
	int nwake_rules;
	/* vcpu_pack_wait (machine/vcpu_pack.c): every runnable task, and some that slept since */
	struct sl_task **runnable;
	int nrunnable, caprunnable;
};

static inline struct sl_machine *sl_machine_of_mut(struct sl_sim *sim)
{
	return sl_container_of(sim, struct sl_machine, sim);
}

static inline const struct sl_machine *sl_machine_of_const(const struct sl_sim *sim)
{
	return (const struct sl_machine *)(const void *)((const char *)sim -
							 offsetof(struct sl_machine, sim));
}

/* the machine whose scheduler state sim is, const when sim is */
#define sl_machine_of(sim)                                                                         \
	_Generic((sim), const struct sl_sim *: sl_machine_of_const, default: sl_machine_of_mut)(sim)

/* CPU cpu's machine state (0 <= cpu < sim->ncpu) */
static inline struct sl_machine_cpu *sl_mcpu(const struct sl_sim *sim, int cpu)
{
	return &sl_machine_of(sim)->cpus[cpu];
}

/* the task of pid i + 1 (0 <= i < sl_machine_of(sim)->ntasks) */
static inline struct sl_task *sl_sim_task(const struct sl_sim *sim, int i)
{
	return &sl_machine_of(sim)->task_chunks[i / SL_TASK_CHUNK]->t[i % SL_TASK_CHUNK].task;
}

/* Everything a simulation is built from, decided before it starts. */
struct sl_machine_desc {
	const struct sl_release *rel;
	int ncpu, sockets, cores; /* the topology (threads = ncpu / (sockets x cores)) */
	u64 seed;
	const struct sl_params *params; /* copied */
	const struct sl_tunables *tun;	/* after boot scaling and the sysctl writes; copied */
	u64 features;
	u64 *feat_read; /* where sched_feat() records the bits it reads (NULL: nowhere) */
	/* cpuidle: the state table (pointed at: it must outlive the simulation), the governor,
	 * the QoS limit, per-state disable, the governors' tunables */
	const struct sl_cpuidle_driver *drv;
	const struct sl_cpuidle_governor *gov;
	u64 pm_qos_ns;
	const bool *disabled; /* SL_CPUIDLE_MAX_STATES entries */
	const struct sl_gov_params *gp;
	int irq_affinity;
	bool progress;
};

/* what the scheduler calls back (sched/sched.h), filled in by machine.c */
extern const struct sl_machine_ops sl_machine_ops;

/* A machine with its CPUs idle, its domains built and no task; NULL when out of memory. */
struct sl_sim *sl_machine_new(const struct sl_machine_desc *d);
/* Room for n workload groups (ids 0..n-1, zeroed); the caller fills them in. */
int sl_machine_alloc_groups(struct sl_sim *sim, int n);
int sl_sim_run(struct sl_sim *sim);
void sl_sim_free(struct sl_sim *sim);
/* Replace the cpuidle governor before the run (the old one's per-CPU state is released). */
int sl_sim_set_governor(struct sl_sim *sim, const struct sl_cpuidle_governor *gov);

void sl_schedule(struct sl_sim *sim, struct sl_cpu *rq);
/* charge rq's current task its run time (its class's update_curr) */
void sl_machine_update_curr(struct sl_sim *sim, struct sl_cpu *rq);
/* NO_HZ tick policy of the class stack: true if rq's tick keeps running */
bool sl_class_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop);
void sl_machine_start(struct sl_sim *sim);
void sl_machine_dispatch(struct sl_sim *sim, struct sl_timer *t);
/* An interrupt takes ns from rq's running task: its current burst ends that much later. */
void sl_machine_steal(struct sl_sim *sim, struct sl_cpu *rq, u64 ns);
/* an interrupt's handler done on rq: back to idle if nothing runs, is asked or is handled */
void sl_machine_idle_if_done(struct sl_sim *sim, struct sl_cpu *rq);
/* sl_machine_steal without the policy's accounting first: no scheduler code runs */
void sl_machine_steal_quiet(struct sl_sim *sim, struct sl_cpu *rq, u64 ns);
void sl_machine_init_cpu(struct sl_sim *sim, struct sl_cpu *rq, int id);
/* Create a task running prog, as if forked by a shell that is not on any runqueue. */
struct sl_task *sl_spawn(struct sl_sim *sim, struct sl_group *g, const struct sl_prog *prog);
/* p's struct sl_task_ext, made (zeroed) if it has none; NULL (sim->oom set) if out of memory */
struct sl_task_ext *sl_task_ext(struct sl_sim *sim, struct sl_task *p);
/* frees what a task holds; the task's own memory goes with sl_task_chunks_free */
void sl_task_free(struct sl_task *p);
void sl_task_chunks_free(struct sl_sim *sim);
/* try_to_wake_up from the running context (waker may be NULL: an interrupt). */
void sl_try_to_wake_up(struct sl_sim *sim, struct sl_task *p, struct sl_task *waker,
		       int wake_flags);
/* The wake_local/wake_remote path of an idle CPU rq to run a woken task (machine.c). */
u64 sl_wake_path(struct sl_sim *sim, const struct sl_cpu *rq);
/* Close the open busy interval of every CPU (at the end of a run). */
void sl_machine_finish(struct sl_sim *sim);

#endif
