/*
 * struct sl_sim owns one whole simulated machine: clock, event queue, CPUs and runqueues, tasks,
 * workloads and subscribers. Nothing is global, so thousands can live in one process.
 */
#ifndef SCHEDLAB_SIM_H
#define SCHEDLAB_SIM_H

#include <schedlab/types.h>
#include <schedlab/event.h>
#include <bsd/sys/tree.h>
#include <bsd/sys/queue.h>

#include "core/timerq.h"
#include "core/rng.h"
#include "sched/features.h"
#include "machine/params.h"
#include "cpuidle/cpuidle.h"
#include "stats/hist.h"

#define SL_IRQ_ISSUER (-1)
#define SL_IRQ_SPREAD (-2)

struct sl_sim;
struct sl_task;
struct sl_config;
struct sl_workload_inst;
struct sl_sched_class;

/* ---- CFS entities and runqueues (field names follow the kernel's, for the reader) ---- */

struct sl_load_weight {
	u64 weight;
	u64 inv_weight;
};

struct sched_entity {
	struct sl_load_weight load;
	RB_ENTRY(sched_entity) run_node;
	TAILQ_ENTRY(sched_entity)
	group_node; /* cfs_rq->tasks list: newest first, as the kernel's */
	u64 rb_seq; /* enqueue order: equal vruntimes go right (FIFO), as the kernel's rbtree */
	int on_rq;
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 vruntime;
	u64 prev_sum_exec_runtime;
	u64 last_wakeup;
	u64 avg_overlap;
	u64 avg_wakeup;
	u64 avg_running; /* 2.6.32 */
	u64 start_runtime;
	u64 wait_start, wait_max, wait_sum, wait_count;
	u64 nr_migrations;
	/* EEVDF (6.18, eevdf.h); CFS 2.6.3x never touches these */
	u64 deadline;
	u64 slice; /* the request, ns */
	u64 vprot; /* RUN_TO_PARITY: curr is protected while vruntime < vprot */
	s64 vlag;
	bool custom_slice, rel_deadline, sched_delayed;
};

RB_HEAD(cfs_tree, sched_entity);
RB_HEAD(eevdf_tree, sched_entity);

/* The 6.18 cfs_rq (one per CPU: the model's tasks share one autogroup, see eevdf.h). */
struct eevdf_rq {
	struct eevdf_tree timeline; /* queued entities but curr, by deadline (ties go right) */
	TAILQ_HEAD(eevdf_tasks_head, sched_entity)
	tasks; /* rq->cfs_tasks: most recently run first */
	u64 seq;
	u64 zero_vruntime;
	s64 sum_w_vruntime; /* sum of key(se) * w over the tree */
	u64 sum_weight;	    /* sum of w = scale_load_down(weight) over the tree */
	u64 load;	    /* sum of load.weight of the queued entities (balancing) */
	struct sched_entity *curr, *next;
	struct sched_entity *last_put; /* put back by put_prev, not yet re-picked */
	unsigned long nr_queued;       /* counts curr and delayed entities */
	/* newidle balancing (eevdf_balance.c) */
	u64 avg_idle, idle_stamp, max_newidle_lb_cost;
	unsigned ni_call, ni_success, ni_ratio;
	int recent_used_cpu;
	int nr_balance_failed;
	u64 balance_interval; /* ms */
	u64 next_balance;     /* ns */
};

struct cfs_rq {
	struct sl_load_weight load;
	unsigned long nr_running;
	u64 min_vruntime;
	struct cfs_tree tasks_timeline;
	TAILQ_HEAD(, sched_entity) tasks;
	u64 seq;
	struct sched_entity *curr, *next, *last;
};

/* The tunables of kernel/sched_fair.c and kernel/sched.c, in nanoseconds. */
struct sl_tunables {
	u64 sched_latency;
	u64 sched_min_granularity;
	u64 sched_wakeup_granularity;
	u64 sched_nr_latency;
	u64 sched_child_runs_first;
	u64 sched_migration_cost;
	u64 sched_shares_ratelimit;
	u64 sched_shares_thresh;
	u64 sched_compat_yield;
	u64 sched_nr_migrate;
	/* 6.18 (EEVDF) */
	u64 sched_base_slice;
	u64 sched_normalized_base_slice;
	u64 sched_tunable_scaling; /* 0 none, 1 log, 2 linear */
	u64 ncpu_online;	   /* what the scaling factor is computed from */
	/* RT bandwidth (kernel.sched_rt_period_us / sched_rt_runtime_us, microseconds; the
	 * runtime holds the int's bit pattern: (s32)-1 = RUNTIME_INF, no throttling) */
	u64 sched_rt_period_us;
	u64 sched_rt_runtime_us;
};

/* ---- Task programs ---- */

enum sl_op {
	OP_RUN,		 /* burn CPU time d */
	OP_SLEEP,	 /* interruptible sleep for d (a timer on this CPU) */
	OP_SLEEP_PERIOD, /* sleep until the next multiple of d since the task started */
	OP_IO,		 /* uninterruptible wait on the fixed-latency device, d */
	OP_WAKE,	 /* wake the peer (a pipe write); arg = sync hint */
	OP_WAIT,	 /* wait to be woken (a pipe read); consumes one pending wake-up */
	OP_FORK,	 /* fork a child running `child` */
	OP_EXEC,	 /* exec: the address space (and the cache warmth) is new */
	OP_EXIT,
	OP_WAIT_BELOW, /* wait(2) for children while live children >= arg */
	OP_LOOP,       /* jump to step arg, arg2 times in all (0: forever) */
	OP_YIELD,      /* sched_yield() */
	OP_LOCK,       /* lock mutex arg of the group */
	OP_UNLOCK,
	OP_BIO,	     /* synchronous direct I/O of d bytes to the task's disk (arg2: SL_BIO_*) */
	OP_AIO_FILL, /* libaio: submit until arg requests are in flight */
	OP_AIO_WAIT, /* libaio: io_getevents(min 1): reap completions, or sleep for one */
	OP_UNTIL,    /* exit once d has passed since the task started (fio runtime=) */
	/* rt-app's events (src/workload/rtapp.c) */
	OP_NOTE,     /* call the group's note hook: a workload's bookkeeping, no time passes */
	OP_TIMER,    /* sleep until group timer arg's next expiry (next += d); arg2: relative */
	OP_RUNTIME,  /* burn CPU until d of wall-clock time has passed */
	OP_CWAIT,    /* release group mutex arg2 (if >= 0) and wait on group condition arg */
	OP_CSIGNAL,  /* wake the first waiter of condition arg (none: the signal is lost) */
	OP_CBROAD,   /* wake every waiter of condition arg */
	OP_BARRIER,  /* wait until group barrier arg's number of tasks have reached it */
	OP_AFFINITY, /* sched_setaffinity(mask d.a; 0: every CPU): leaves a CPU no longer allowed */
	SL_NR_OPS,   /* not an opcode: their number (src/machine/task_prog.c's table) */
};

struct sl_prog;
struct sl_step {
	enum sl_op op;
	struct sl_dist d;
	int arg, arg2;
	const struct sl_prog *child;
};

struct sl_prog {
	char comm[16];
	int nice;
	int policy;
	int rt_priority;   /* 1..99 for SL_SCHED_FIFO / SL_SCHED_RR, else 0 */
	u64 sched_runtime; /* sched_setattr: 6.18's custom slice (0: the base slice) */
	u64 cpus_allowed;  /* the tasks' affinity: bit c allows CPU c; 0: every CPU */
	int n, cap;
	struct sl_step *steps;
};

/* ---- Tasks ---- */

/* Internal numbering (not the kernel's SCHED_* values): the RT policies come last so that the
 * fair policies keep their numbers. */
enum sl_policy { SL_SCHED_NORMAL, SL_SCHED_BATCH, SL_SCHED_IDLE, SL_SCHED_FIFO, SL_SCHED_RR };

/* ---- the real-time class (src/sched/rt.c), field names after the kernel's ---- */

#define SL_MAX_RT_PRIO 100 /* kernel prio 0..99 is RT; prio = 99 - rt_priority */

struct sched_rt_entity {
	TAILQ_ENTRY(sl_task) run_list; /* in rt_rq->queue[prio] */
	bool on_rq;
	unsigned time_slice; /* SCHED_RR: ticks left */
};

struct rt_rq {
	TAILQ_HEAD(, sl_task) queue[SL_MAX_RT_PRIO]; /* one FIFO per prio, curr stays queued */
	u64 bitmap[2];				     /* bit prio: queue[prio] is not empty */
	unsigned long rt_nr_running;
	int highest_prio; /* of the queued tasks (curr included); SL_MAX_RT_PRIO if none */
	bool overloaded;  /* more than one RT task queued: push/pull candidates */
	u64 rt_time;	  /* RT run time charged in the current bandwidth period */
	bool rt_throttled;
};

enum sl_tstate {
	TS_NEW,
	TS_RUNNING, /* runnable or running: TASK_RUNNING */
	TS_SLEEPING,
	TS_UNINTERRUPTIBLE,
	TS_DEAD,
};

enum sl_block { BLK_NONE, BLK_TIMER, BLK_IO, BLK_WAIT, BLK_CHILD, BLK_MUTEX, BLK_AIO, BLK_COND };

/* A FIFO of tasks sleeping on a condition variable or a barrier. */
struct sl_waitq {
	struct sl_task **w;
	int n, cap;
};

/* rt-app's timer: an absolute expiry shared by the threads that name it. */
struct sl_abstimer {
	u64 next;
	bool init;
};

struct sl_barrier {
	int need, arrived;
	struct sl_waitq q;
};

struct sl_mutex {
	struct sl_task *owner;
	struct sl_task **waiters; /* FIFO of sleepers */
	int nwait, capw;
	struct sl_task **spinners; /* FIFO of OWNER_SPIN spinners */
	int nspin, capspin;
};

struct sl_group;

struct sl_task {
	int pid;
	char comm[16];
	int nice;
	enum sl_policy policy;
	int rt_priority; /* sched_param.sched_priority: 1..99 for RT, 0 otherwise */
	int prio;	 /* RT: the kernel's prio 99 - rt_priority */
	const struct sl_sched_class *sched_class; /* the class stack entry that owns it */
	struct sched_entity se; /* RT tasks use its exec_start and sum_exec_runtime only */
	struct sched_rt_entity rt;
	int cpu;
	enum sl_tstate state;
	enum sl_block blocked;
	bool on_cpu;
	bool spinning;		    /* OWNER_SPIN: busy-waiting on a mutex */
	struct sl_mutex *lock_wait; /* the mutex spun or slept on */
	int wait_below;		    /* OP_WAIT_BELOW threshold while blocked on children */
	int iowait_cpu;		    /* rq whose nr_iowait counts this task */
	u64 steps_at_now;	    /* zero-time steps run at the current instant */
	u64 frame_due;		    /* a periodic task's current frame is due then */
	u64 steps_time;
	u64 runtime_end;  /* OP_RUNTIME: the wall-clock end of the current burst, 0 if none */
	u64 cpus_allowed; /* bit c: may run on CPU c; 0: every CPU (at most 64 CPUs named) */

	struct sl_group *group;
	struct sl_task *parent;
	struct sl_task *peer;
	int live_children;

	const struct sl_prog *prog;
	int pc;
	int *loopcnt;
	bool in_run;
	u64 run_target; /* sum_exec_runtime at which the current run ends */
	int pending_wakes;
	u64 start_time;
	struct sl_timer timer; /* sleep / I/O completion */

	/* block I/O (blockdev.c): the task's disk, its request pool, what remains to do */
	int disk;
	struct sl_request *reqs;
	int nreqs, inflight, reaped_pending;
	u64 io_left; /* requests still to submit (UINT64_MAX: until the run ends) */
	u64 io_sector;
	u64 io_bytes, io_ops;

	/* 6.18 record_wakee: wake_wide's flips */
	struct sl_task *last_wakee;
	unsigned wakee_flips;
	u64 wakee_flip_decay_ts;
	int recent_used_cpu;

	/* Cache warmth: where it last ran and what that CPU's switch count was then. */
	int last_cpu;
	u64 last_switch_seq;
	bool cache_cold;
};

/* ---- CPUs ---- */

#define SL_MAX_DOMAINS 4

struct sl_sched_group {
	int *cpus;
	int ncpus;
	u64 cpu_power;
};

struct sl_sched_domain {
	int level; /* enum sl_sd_level */
	int *span; /* CPU ids, ascending */
	int nspan;
	struct sl_sched_group
		*groups; /* groups[0] holds the owning CPU, as the kernel's sd->groups */
	int ngroups;
	unsigned flags;
	int min_interval, max_interval; /* ms */
	int busy_factor;
	int imbalance_pct;
	int cache_nice_tries;
	int busy_idx, idle_idx, newidle_idx, wake_idx, forkexec_idx;
	u64 last_balance;     /* jiffies */
	u64 balance_interval; /* ms */
	int nr_balance_failed;
};

struct sl_cpu {
	int id;
	int socket, core, thread;
	struct cfs_rq cfs;
	struct eevdf_rq ee;
	struct rt_rq rt;
	struct sl_task *curr; /* NULL: the idle task */
	unsigned long nr_running;
	struct sl_load_weight load;
	u64 cpu_load[5];
	int nr_iowait;
	bool need_resched;
	bool idle;	   /* in the idle loop */
	bool tick_stopped; /* NO_HZ */
	int idle_state;
	struct sl_cpuidle_dev idle_dev;

	struct sl_timer tick;
	struct sl_timer work;	 /* curr's run step ends */
	struct sl_timer resched; /* reschedule IPI / return-to-user */
	struct sl_timer hrtick;
	struct sl_timer idle_timer; /* the poll state's time limit */
	bool irq_wake;		    /* out of idle only to handle an interrupt */
	int irq_busy;		    /* interrupts being handled (no idle meanwhile) */
	u64 irq_exit_latency;	    /* what leaving idle for it cost */

	struct sl_sched_domain sd[SL_MAX_DOMAINS];
	int nsd;
	u64 next_balance; /* jiffies */
	bool idle_at_tick;
	bool in_nohz_recently;
	bool in_nohz_mask;
	bool active_balance;
	int push_cpu;

	/* statistics */
	u64 switch_seq; /* switches to a different task: cache warmth */
	u64 busy_ns, busy_since;
};

/* ---- Workload groups ---- */

struct sl_group {
	int id;
	char name[32];
	char spec[256];
	bool finite;
	int ntasks;	/* tasks ever created in the group */
	int live;	/* not yet exited */
	u64 start, end; /* completion time when finite */
	struct sl_mutex *mutexes;
	int nmutex;
	struct sl_prog **progs; /* owned */
	int nprogs;
	const struct sl_workload_inst *wl;
	struct sl_timer start_timer;
	bool spawned;
	/* block I/O of the group's tasks */
	bool io;
	u64 io_bytes, io_ops;
	struct sl_hist *clat;
	/* periodic tasks' frames */
	u64 frames, frames_late, late_sum, late_max;
	/* rt-app's synchronisation objects (owned) */
	struct sl_waitq *conds;
	int nconds;
	struct sl_abstimer *timers;
	int ntimers;
	struct sl_barrier *barriers;
	int nbarriers;
	/* a workload's per-run state: OP_NOTE calls note(); finish() runs after the run (its
	 * failure fails the run), state_free() when the simulation is freed */
	void *state;
	void (*note)(struct sl_sim *sim, struct sl_task *p, const struct sl_step *st);
	int (*finish)(struct sl_sim *sim, struct sl_group *g);
	void (*state_free)(void *state);
};

/* Block I/O: a request of a task, and a disk serving its queue in order. */
#define SL_BIO_RANDOM 0x1
#define SL_BIO_WRITE  0x2

struct sl_request {
	struct sl_task *owner;
	int disk;
	u64 bytes, sector;
	unsigned flags;
	u64 submit_time;
	int issue_cpu;
	int phase;	     /* 0: the interrupt is raised; 1: its handling is done */
	struct sl_timer irq; /* the completion interrupt on its CPU */
	struct sl_request *next;
	bool busy;
};

struct sl_disk {
	int id;
	struct sl_request *head, *tail; /* the queue */
	struct sl_request *active;
	u64 next_sector; /* where the head is: a request starting here needs no seek */
	struct sl_timer done;
	u64 busy_ns, busy_since, ops, bytes;
};

struct sl_subscriber {
	sl_event_fn fn;
	void *ctx;
};

struct sl_knob_change {
	struct sl_timer timer;
	char kind; /* 'f' features, 's' sysctl */
	char text[256];
};

struct sl_sim {
	u64 now;
	u64 end;
	struct sl_timerq q;
	struct sl_rng rng;
	struct sl_rng sched_rng; /* the scheduler's own draws (NI_RANDOM): workloads' stay put */
	struct sl_params p;
	struct sl_tunables tun;
	u64 features;
	const struct sl_cfs_release *rel;
	/* the scheduler classes, highest first (class.h); the release's fair class last */
	const struct sl_sched_class *classes[4];
	int nclasses;

	int ncpu;
	struct sl_cpu *cpus;
	const struct sl_cpuidle_driver *idle_drv;
	const struct sl_cpuidle_governor *idle_gov;
	u64 pm_qos_latency_ns;
	struct sl_gov_params gov_params;

	struct sl_disk *disks;
	int ndisks;
	int irq_affinity; /* >= 0: that CPU; SL_IRQ_ISSUER; SL_IRQ_SPREAD */

	struct sl_task **tasks; /* by pid - 1 */
	int ntasks, captasks;

	struct sl_group *groups;
	int ngroups;

	struct sl_subscriber subs[8];
	int nsubs;

	struct sl_knob_change *changes;
	int nchanges;

	/* RT bandwidth: one timer for every CPU's rt_rq (def_rt_bandwidth), armed at the first
	 * RT enqueue, on the grid of multiples of the period */
	struct sl_timer rt_period_timer;
	bool rt_period_active;

	int this_cpu;	   /* CPU whose event is being handled; -1: interrupt-less context */
	int nohz_balancer; /* nohz.load_balancer, -1 if none */
	int nohz_count;	   /* CPUs in nohz.cpu_mask */
	u64 tick_ns;
	u64 nr_events;
	u64 nr_migrations;
	bool oom;
	bool interrupted; /* stopped by SIGINT/SIGTERM (core/interrupt.h) */
	char error[256];  /* a run-time failure (a program that makes no progress) */
	bool duration_set;
	bool progress; /* progress lines on stderr */
};

/* p's affinity allows CPU cpu */
static inline bool sl_cpu_allowed(const struct sl_task *p, int cpu)
{
	return !p->cpus_allowed || (cpu < 64 && (p->cpus_allowed >> cpu) & 1);
}

static inline bool sched_feat(const struct sl_sim *sim, enum sl_feat f)
{
	return sim->features & (1ULL << f);
}

void sl_emit(struct sl_sim *sim, struct sl_event *ev);
void sl_arm(struct sl_sim *sim, struct sl_timer *t, u64 expires);
void sl_cancel(struct sl_sim *sim, struct sl_timer *t);

/* lifecycle (sim.c) */
struct sl_sim *sl_sim_new(const struct sl_config *cfg);
/* The name of workload group i: the workload's name, numbered from its second occurrence
 * ("make", "make#2"); the sweep names its columns with it. */
void sl_group_name(const struct sl_config *cfg, int i, char *buf, size_t len);
int sl_sim_run(struct sl_sim *sim);
void sl_sim_free(struct sl_sim *sim);
int sl_sim_subscribe(struct sl_sim *sim, sl_event_fn fn, void *ctx);
/* Replace the cpuidle governor before the run (the old one's per-CPU state is released). */
int sl_sim_set_governor(struct sl_sim *sim, const struct sl_cpuidle_governor *gov);
#endif
