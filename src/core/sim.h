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
};

RB_HEAD(cfs_tree, sched_entity);

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
	int n, cap;
	struct sl_step *steps;
};

/* ---- Tasks ---- */

enum sl_policy { SL_SCHED_NORMAL, SL_SCHED_BATCH, SL_SCHED_IDLE };

enum sl_tstate {
	TS_NEW,
	TS_RUNNING, /* runnable or running: TASK_RUNNING */
	TS_SLEEPING,
	TS_UNINTERRUPTIBLE,
	TS_DEAD,
};

enum sl_block { BLK_NONE, BLK_TIMER, BLK_IO, BLK_WAIT, BLK_CHILD, BLK_MUTEX, BLK_AIO };

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
	struct sched_entity se;
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
	struct sl_params p;
	struct sl_tunables tun;
	u64 features;
	const struct sl_cfs_release *rel;

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
