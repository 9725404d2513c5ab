/*
 * The scheduler's world: tasks, per-CPU runqueues (each class's queue, the sched domains),
 * the tunables, and struct sl_sim, the scheduler's state of one simulated machine. Nothing is
 * global, so thousands of simulations can live in one process.
 *
 * struct sl_sim holds what the scheduler classes read: every CPU's runqueue, the tunables, the
 * features, the release, the clock. The machine's own state (cpuidle, disks, interrupts, the
 * workload groups, the task storage, the parameters) is in struct sl_machine
 * (machine/machine.h), which embeds this struct and is reached from it by container_of, as this
 * struct embeds the engine (core/engine.h: the clock, timer queue and event stream) at its top.
 * Likewise a CPU's and a task's machine state (the idle loop, the machine's timers, a task's
 * program) are in struct sl_machine_cpu and struct sl_machine_task, not in struct sl_cpu and
 * struct sl_task.
 */
#ifndef SCHEDLAB_SCHED_SCHED_H
#define SCHEDLAB_SCHED_SCHED_H

#include <stddef.h>

#include <schedlab/types.h>
#include <schedlab/event.h>
#include <bsd/sys/tree.h>
#include <bsd/sys/queue.h>

#include "core/engine.h"
#include "sched/features.h"
#include "sched/rtree.h"

struct sl_sim;
struct sl_task;
struct sl_sched_class;
struct sl_release;
/* the machine's parts a task points at, opaque here */
struct sl_prog;
struct sl_group;
struct sl_tg;
struct sl_mutex;
struct sl_task_io;

/* ---- CFS entities and runqueues (field names follow the kernel's, for the reader) ---- */

struct sl_load_weight {
	u64 weight;
	u64 inv_weight;
};

/* the capacity of a fair class's per-task area in the entity (class_area below): what the
 * largest class's struct needs (each checks its own at compile time), so that the union is no
 * larger than it was */
#define SL_SE_AREA_SIZE 144

/*
 * A release's fair class is fixed for a run (sim->rel->fair), and each keeps members the others
 * never touch: 2.6.3x CFS (cfs*.c, balance.c; the waker's avg_wakeup in machine.c's wake-up is
 * taken under CFS only), and the classes with a per-task area of their own in class_area.
 * They share one union, used as the run's release's: a task or group entity starts zeroed (the
 * task arena, calloc), so each starts as it did with members of its own. Members outside the
 * union are every release's.
 */
struct sched_entity {
	/*
	 * What a descent of a run queue's tree reads at each level, together at the start: the
	 * keys (vruntime, then rb_seq for ties) and the children (run_node's first two pointers),
	 * 32 bytes; EEVDF's own keys begin its area (the union below). With thousands of entities
	 * a queue each level is a cache miss, and they were 72 bytes apart (docs/performance.md,
	 * issue 32). The members read at each switch follow, then the union, as before.
	 */
	u64 rb_seq; /* enqueue order: equal vruntimes go right (FIFO), as the kernel's rbtree */
	u64 vruntime;
	RB_ENTRY(sched_entity) run_node;
	struct sl_load_weight load;
	TAILQ_ENTRY(sched_entity)
	group_node; /* cfs_rq->tasks list: newest first, as the kernel's */
	u64 exec_start;
	u64 sum_exec_runtime;
	u64 prev_sum_exec_runtime;
	int on_rq; /* here, beside the flags, so that the struct has no hole */
	bool custom_slice, rel_deadline, sched_delayed; /* EEVDF */
	union {
		struct { /* CFS 2.6.31/2.6.32 */
			u64 last_wakeup;
			u64 avg_overlap;
			u64 avg_wakeup;
			u64 avg_running; /* 2.6.32 */
			u64 start_runtime;
			/* group scheduling (2.6.31 USER_SCHED, cfs_group.c): a group's entity owns
			 * my_q (its per-CPU runqueue) and sits on its CPU's root runqueue; a
			 * task's entity has my_q NULL */
			struct cfs_rq *my_q;
			/* a task's group under group scheduling (group_sched=1 is 2.6.31's only,
			 * config.c), NULL without */
			struct sl_tg *tg;
		};
		/* the fair class's own per-task area (class.h task_size: its struct, declared in
		 * its folder, at most SL_SE_AREA_SIZE bytes), zeroed with the task */
		u64 class_area[SL_SE_AREA_SIZE / sizeof(u64)];
	};
};
_Static_assert(offsetof(struct sched_entity, run_node) + 2 * sizeof(void *) -
			       offsetof(struct sched_entity, rb_seq) ==
		       32,
	       "a tree level's keys and children must be the entity's first 32 bytes");

/* A task group of CONFIG_USER_SCHED (one per uid), with an entity and a runqueue per CPU. */
struct sl_tg {
	int uid;
	u64 shares;		 /* tg->shares */
	struct sched_entity *se; /* [ncpu], queued on CPU c's root runqueue (CFS's area) */
	struct cfs_rq *cfs_rq;	 /* [ncpu] (sched/cfs/cfs.h) */
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
	/* a policy's own tunables, named by its release's own sysctl rows (release.h) */
	u64 policy[8];
};

/* ---- Tasks ---- */

/* Internal numbering (not the kernel's SCHED_* values): the RT policies come last so that the
 * fair policies keep their numbers. */
enum sl_policy {
	SL_SCHED_NORMAL,
	SL_SCHED_BATCH,
	SL_SCHED_IDLE, /* BFS: SCHED_IDLEPRIO (the same policy number, 5) */
	SL_SCHED_FIFO,
	SL_SCHED_RR,
	SL_SCHED_ISO, /* BFS only: isochronous (docs/model/bfs.md) */
};

/* ---- the real-time class (src/sched/rt/rt.c), field names after the kernel's ---- */

#define SL_MAX_RT_PRIO 100 /* kernel prio 0..99 is RT; prio = 99 - rt_priority */

struct sched_rt_entity {
	TAILQ_ENTRY(sl_task) run_list; /* in rt_rq->queue[prio] */
	bool on_rq;
	unsigned time_slice; /* SCHED_RR: ticks left */
};

enum sl_tstate {
	TS_NEW,
	TS_RUNNING, /* runnable or running: TASK_RUNNING */
	TS_SLEEPING,
	TS_UNINTERRUPTIBLE,
	TS_DEAD,
};

/*
 * The scheduler's part of a task: what the classes read. The machine keeps each task as a
 * struct sl_machine_task (machine/mtask.h) that embeds this one and adds its program, run
 * step, sleep timer and the rest no class reads. Members are ordered by size (8-byte, then
 * 4-byte, then the bytes and the flags) so that the struct has no holes: a run keeps every task
 * it created, and 100k tasks are 100k of these (with the machine's part 424 bytes each;
 * docs/performance.md). What only one release's fair class needs is in the entity's union.
 */
struct sl_task {
	const struct sl_sched_class *sched_class; /* the class stack entry that owns it */
	struct sched_entity se; /* RT tasks use its exec_start and sum_exec_runtime only */
	struct sched_rt_entity rt;
	u64 sched_runtime; /* sched_setattr's runtime: 6.18's custom slice (0: the base slice) */
	u64 cpus_allowed;  /* bit c: may run on CPU c; 0: every CPU (at most 64 CPUs named) */

	struct sl_task *parent;

	int pid;
	int nice;
	int rt_priority; /* sched_param.sched_priority: 1..99 for RT, 0 otherwise */
	int prio;	 /* RT: the kernel's prio 99 - rt_priority */
	int group_id;	 /* the workload group's id (-1: none), for the events */
	int uid;	 /* the owner's user id (group scheduling: the task group it joins) */
	int cpu;
	/* enums in a byte each (their values are below 8) */
	uint8_t policy; /* enum sl_policy */
	uint8_t state;	/* enum sl_tstate */
	bool on_cpu;
};

/* ---- CPUs ---- */

#define SL_MAX_DOMAINS 4

/* find_busiest_group's sums over a group's CPUs at one load index, kept while valid */
struct sl_group_sums {
	u64 epoch; /* the group's epoch they were taken at (0: never) */
	u64 features;
	u64 sum_src, sum_tgt, max_src, min_src, sum_nr, sum_wl, sum_alpt;
};

struct sl_sched_group {
	int *cpus;
	int ncpus;
	u64 cpu_power;
	u32 reciprocal_power; /* 2.6.31's reciprocal_value(cpu_power) */
	/* bumped (sl_lb_touch) whenever a member CPU's nr_running, load or cpu_load[] changes,
	 * or its curr between a task and none (the idle task): sums[load_idx] taken at this
	 * epoch still hold */
	u64 epoch;
	/* groups[0] of a domain only: bumped with the epoch of any group of the span (the sum of
	 * the span's changes, one counter to compare) */
	u64 span_epoch;
	/* the CPU that balances the group (its first idle CPU, else its first), found at the
	 * group's epoch idle_epoch (0: never) */
	u64 idle_epoch;
	int idle_cpu;
	struct sl_group_sums sums[6]; /* by load_idx, 0..5 (cpu_load[load_idx - 1]) */
};

/*
 * What find_busiest_group finds in a domain at one load index whatever the CPU that balances
 * (balance.c domain_stats), kept while no CPU of the span changed: the sum of every group's
 * source load and power, and the busiest group as a remote group reads (the first of the
 * greatest average load above 0 among the groups over capacity or imbalanced, in groups[]
 * order), with the first such among the others for a CPU of that group.
 */
struct sl_sd_cand {
	int group; /* index in groups[] (-1: none) */
	bool imb;
	u64 avg_load, nr_running, load;
};

struct sl_sd_stats {
	u64 epoch; /* groups[0].span_epoch they were taken at (0: never) */
	u64 features;
	u64 total_src, total_pwr;
	struct sl_sd_cand cand[2];
};

/*
 * The span and the groups are shared by every CPU of the span (built once, by the span's first
 * CPU, which owns them): groups[] is in the order of the groups' first CPUs and local is the
 * index of the group holding the owning CPU. The kernel's order (sd->groups: the local group
 * first, then the others) is sl_sd_group(sd, 0..ngroups-1).
 */
struct sl_sched_domain {
	int level; /* enum sl_sd_level */
	int *span; /* CPU ids, ascending */
	int nspan;
	struct sl_sched_group *groups;
	struct sl_sd_stats *stats; /* [6], by load_idx; shared with the span and groups */
	int ngroups;
	int local;  /* groups[local] holds the owning CPU */
	bool owner; /* this CPU's domain allocated span, groups and the groups' cpus */
	unsigned flags;
	int min_interval, max_interval; /* ms */
	int busy_factor;
	int imbalance_pct;
	int cache_nice_tries;
	int busy_idx, idle_idx, newidle_idx, wake_idx, forkexec_idx;
	u64 last_balance;     /* jiffies */
	u64 shares_update;    /* group scheduling: update_shares' last run here (ns) */
	u64 balance_interval; /* ms */
	u64 interval_ms;      /* the balance_interval interval_j[] are for (0: none yet) */
	u64 interval_j[2];    /* it in jiffies as rebalance_domains clamps it: idle, busy */
	int nr_balance_failed;
	/* this CPU's last find_busiest_group here that found no busiest group: the span's epoch
	 * then (groups[0].span_epoch: it only grows, so an equal one means no CPU of the span
	 * changed), the features, the idle type and whether it cleared *balance */
	bool nobusy_valid;
	bool nobusy_stop;
	int nobusy_idle;
	u64 nobusy_epoch, nobusy_features;
};

/* cpu is in sd's span (a binary search: the span is in ascending order) */
static inline bool sl_sd_spans(const struct sl_sched_domain *sd, int cpu)
{
	int lo = 0, hi = sd->nspan;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (sd->span[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sd->nspan && sd->span[lo] == cpu;
}

/* the i-th group in the kernel's order: the local group first, then the others in order */
static inline struct sl_sched_group *sl_sd_group(const struct sl_sched_domain *sd, int i)
{
	return &sd->groups[i == 0 ? sd->local : i <= sd->local ? i - 1 : i];
}

#define SL_MAX_CLASSES 4 /* the class stack's depth (sim->classes) */

struct sl_cpu {
	int id;
	int socket, core;
	/* each class's part of this runqueue, by its slot (class.h: 0 the release's fair class,
	 * then upwards): an area of the class's rq_size, allocated and zeroed by the scheduler
	 * core (class.c), read through sl_rq_area; NULL for a class with rq_size 0 */
	void *class_rq[SL_MAX_CLASSES];
	struct sl_task *curr; /* NULL: the idle task */
	unsigned long nr_running;
	/* EEVDF's delayed-dequeue tasks here: still queued, so the kernel's rq->nr_running counts
	 * them, while nr_running above counts the runnable ones only */
	unsigned long nr_delayed;
	struct sl_load_weight load;
	u64 cpu_load[5];
	bool need_resched;
	bool tick_stopped; /* NO_HZ */

	struct sl_timer resched; /* reschedule IPI / return-to-user */
	struct sl_timer hrtick;

	struct sl_sched_domain sd[SL_MAX_DOMAINS];
	int nsd;
	int llc_size; /* CPUs sharing this one's last-level cache (its socket); EEVDF's domains */
	u64 next_balance; /* jiffies */
	/* min over sd[] of last_balance + the CPU_IDLE interval (balance.c rebalance_domains;
	 * 0: not known): before it, a CPU_IDLE rebalance_domains finds nothing due */
	u64 idle_next_balance;
	bool idle_at_tick;
	bool in_nohz_recently;
	bool in_nohz_mask;
	bool active_balance;
	int push_cpu;
	/* inside a newidle balance that takes time (newidle_cost): no task, not idle, its
	 * resched armed at the balance's next step; the machine does not idle it meanwhile */
	bool in_newidle;
};

/*
 * What the scheduler asks of the machine below it in time but above it in the layers: the
 * machine fills this in when it builds the simulation (machine.c).
 */
struct sl_machine_ops {
	/* resched_task/resched_cpu: set need_resched on rq and, when rq is another CPU that does
	 * not poll, send it a reschedule IPI */
	void (*resched_cpu)(struct sl_sim *sim, struct sl_cpu *rq);
	/* the expiry of cpu's next timer of the kernel's timer wheel (timer_list), UINT64_MAX:
	 * none; hrtimers (a task's sleep, the tick, the hrtick) are not in it. NULL: none */
	u64 (*next_wheel_timer)(const struct sl_sim *sim, int cpu);
};

struct sl_sim {
	union {
		struct sl_engine eng;
		struct {
			SL_ENGINE_MEMBERS
		};
	};
	const struct sl_machine_ops *mops;
	struct sl_rng sched_rng; /* the scheduler's and the machine's draws: workloads' stay put */
	/* NI_RANDOM's dice alone (the kernel's sched_rng() state, used by nothing else): how often
	 * the newidle balance is called leaves the machine's draws where they were */
	struct sl_rng ni_rng;
	u64 hz; /* CONFIG_HZ: the tick rate */
	struct sl_tunables tun;
	u64 features;
	/* the feature bits sched_feat() has read so far (NULL: not recorded). A run reads
	 * features only there, so two runs whose sets agree on every bit the first one read are
	 * the same run: a sweep simulates such a combination once (experiment/sweep_row.c) */
	u64 *feat_read;
	const struct sl_release *rel;
	/* the scheduler classes, highest first (class.h); the release's fair class last */
	const struct sl_sched_class *classes[SL_MAX_CLASSES];
	int nclasses;
	/* the classes' per-CPU areas by slot (class.h: 0 is the fair class's): ncpu areas of
	 * the class's rq_size each, and their machine-wide areas of its sim_size (NULL: 0) */
	char *class_rq_mem[SL_MAX_CLASSES];
	void *class_sim[SL_MAX_CLASSES];
	/* a class's machine-wide state it allocates itself (class.h init_sim); NULL: none */
	void *class_state;

	int ncpu;
	struct sl_cpu *cpus;

	/* CFS group scheduling (cfs_group.c): 0 off, 1 USER_SCHED; the task groups, in order of
	 * creation (tgs[0] is uid 0's init_task_group); the default shares of uid 0's group and
	 * of the others (param.group_root_shares / group_user_shares) */
	int group_sched;
	struct sl_tg **tgs;
	int ntgs, captgs;
	u64 tg_root_shares, tg_user_shares;

	/* RT bandwidth: one timer for every CPU's rt_rq (def_rt_bandwidth), armed at the first
	 * RT enqueue, on the grid of multiples of the period */
	struct sl_timer rt_period_timer;
	bool rt_period_active;

	int this_cpu;	   /* CPU whose event is being handled; -1: interrupt-less context */
	int wake_flags;	   /* the try_to_wake_up in progress's (BFS reads WF_SYNC at enqueue) */
	int nohz_balancer; /* nohz.load_balancer, -1 if none */
	int nohz_count;	   /* CPUs in nohz.cpu_mask */
	int nr_overloaded; /* CPUs with nr_running >= 2 (sl_nr_running_inc/dec keep it) */
	/* the root domain's overloaded flag (6.18's rd->overloaded): set when a CPU's queued
	 * tasks (nr_running + nr_delayed) reach 2, rewritten only by a load balance's statistics
	 * (EEVDF's sl_eevdf_load_balance); so it stays set after the overload ended */
	bool rd_overloaded;
	/* each CPU's NI_RANDOM ratio at the start (machine param newidle_ratio; 0: boot's) */
	unsigned ni_ratio_start;
	/* a newidle balance's time to its examination of the other queues, and from a pull to the
	 * pulled task's switch-in (machine params newidle_cost, newidle_tail; 0: none) */
	u64 ni_cost, ni_tail;
	/* 64-CPU words of a bitmap of the CPUs (free_bits) */
	int lvl_words;
	/* 6.18's balancer keeps each CPU's group statistics between balances (eevdf_balance.c;
	 * made by EEVDF's build_domains on larger machines, NULL otherwise): lb_mark[c] set, and
	 * c in lb_marked (lb_nmarked of them), when an input of CPU c's statistics may have
	 * changed since they were last taken; sl_lb_mark marks it */
	unsigned char *lb_mark;
	int *lb_marked;
	int lb_nmarked;
	struct ee_lbc *lbc;
	/* a min tree over the CPUs (nohz_next.c, rtree.c): CPU c's key is its due time to balance
	 * (sl_nohz_next_set; nohz_due[c]) while its tick is stopped, else UINT64_MAX (6.18's NO_HZ
	 * kick; built by EEVDF's build_domains; nohz_due NULL under the other releases) */
	struct sl_rtree nohz_next;
	u64 *nohz_due;
	/* bit c set while CPU c runs the idle task and no reschedule is pending (BFS's idle
	 * CPUs, bfs.c; 6.18's NO_HZ stats kick); nr_free such CPUs. Kept by sl_set_curr and
	 * sl_set_need_resched; made by BFS's init_sim and EEVDF's build_domains, NULL under the
	 * other releases */
	u64 *free_bits;
	int nr_free;
	u64 tick_ns;
	/* the jiffy grid's offset from the run's start, below tick_ns (tick_phase, 0: none) */
	u64 tick_phase_ns;
	u64 nr_migrations;
	/* a task's CPU set inside a wake-up (try_to_wake_up's set_task_cpu): the migrate event's
	 * reason, SL_MIGRATE_WAKE, so that a trace writes it after the wake-up's sched_waking */
	bool migrating_wakee;
};

/* jiffies since the run's start, counted at the grid's boundaries (tick_phase) */
static inline u64 sl_jiffies(const struct sl_sim *sim)
{
	return (sim->now + sim->tick_ns - sim->tick_phase_ns) / sim->tick_ns - 1;
}

/* the jiffy grid's next boundary after now */
static inline u64 sl_tick_next(const struct sl_sim *sim)
{
	return (sl_jiffies(sim) + 1) * sim->tick_ns + sim->tick_phase_ns;
}

/* an input of CPU cpu's balancer statistics (6.18: nr_running, nr_delayed, nr_queued, curr,
 * need_resched, the cfs_rq's PELT averages or util_est) changes: taken again at the next
 * balance (a no-op without the kept statistics) */
static inline void sl_lb_mark(struct sl_sim *sim, int cpu)
{
	if (!sim->lb_mark || sim->lb_mark[cpu])
		return;
	sim->lb_mark[cpu] = 1;
	sim->lb_marked[sim->lb_nmarked++] = cpu;
}

/* rq's nr_running, load or cpu_load[] changed, or curr between a task and none: the groups
 * holding it recompute their sums */
static inline void sl_lb_touch(struct sl_cpu *rq)
{
	for (int i = 0; i < rq->nsd; i++) {
		rq->sd[i].groups[rq->sd[i].local].epoch++;
		rq->sd[i].groups[0].span_epoch++;
	}
}

/* a runqueue's nr_running changes only through these, which keep sim->nr_overloaded and mark
 * the CPU's balancer statistics */
static inline void sl_nr_running_inc(struct sl_sim *sim, struct sl_cpu *rq)
{
	sl_lb_touch(rq);
	sl_lb_mark(sim, rq->id);
	if (++rq->nr_running == 2)
		sim->nr_overloaded++;
	if (rq->nr_running + rq->nr_delayed >= 2)
		sim->rd_overloaded = true;
}

static inline void sl_nr_running_dec(struct sl_sim *sim, struct sl_cpu *rq)
{
	sl_lb_touch(rq);
	sl_lb_mark(sim, rq->id);
	if (rq->nr_running-- == 2)
		sim->nr_overloaded--;
}

/* nr_overloaded and rd_overloaded from every CPU's nr_running, and every CPU's balancer
 * statistics marked (for runqueues filled by hand, as the tests do) */
static inline void sl_nr_levels_rebuild(struct sl_sim *sim)
{
	sim->nr_overloaded = 0;
	for (int c = 0; c < sim->ncpu; c++) {
		sim->nr_overloaded += sim->cpus[c].nr_running >= 2;
		sl_lb_mark(sim, c);
		if (sim->cpus[c].nr_running + sim->cpus[c].nr_delayed >= 2)
			sim->rd_overloaded = true;
	}
}

/* nohz_next.c: the tree built (-1: out of memory; every CPU never due until set) and freed,
 * CPU cpu's due time set (a no-op without the tree), CPU cpu's leaf again from its state, and
 * the first CPU >= from that is tickless and due to balance at now (-1: none) */
int sl_nohz_next_init(struct sl_sim *sim);
void sl_nohz_next_free(struct sl_sim *sim);
void sl_nohz_next_set(struct sl_sim *sim, int cpu, u64 due);
void sl_nohz_next_update(struct sl_sim *sim, int cpu);
int sl_nohz_next_due(const struct sl_sim *sim, int from, u64 now);

/* a CPU's tick stops or runs again: every change goes through here, which keeps nohz_next */
static inline void sl_set_tick_stopped(struct sl_sim *sim, struct sl_cpu *rq, bool stopped)
{
	rq->tick_stopped = stopped;
	sl_nohz_next_update(sim, rq->id);
}

/* rq's bit in free_bits again from its curr and need_resched */
static inline void sl_cpu_free_update(struct sl_sim *sim, struct sl_cpu *rq)
{
	u64 bit = 1ULL << (rq->id % 64), *w;
	bool now_free = !rq->curr && !rq->need_resched;

	if (!sim->free_bits)
		return;
	w = &sim->free_bits[rq->id / 64];
	if (now_free == !!(*w & bit))
		return;
	*w ^= bit;
	sim->nr_free += now_free ? 1 : -1;
}

/* every change of a CPU's curr or need_resched goes through these (free_bits) */
static inline void sl_set_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *curr)
{
	rq->curr = curr;
	sl_cpu_free_update(sim, rq);
	sl_lb_mark(sim, rq->id);
}

static inline void sl_set_need_resched(struct sl_sim *sim, struct sl_cpu *rq, bool v)
{
	rq->need_resched = v;
	sl_cpu_free_update(sim, rq);
	sl_lb_mark(sim, rq->id);
}

/*
 * rq is idle as the kernel's idle_cpu() means it: the idle task runs (no curr) and nothing is
 * queued. The wake-up placement rules (machine.c, vcpu_util.c), the IPI a wake-up costs and
 * the balancers ask this.
 */
static inline bool sl_rq_idle(const struct sl_cpu *rq)
{
	return !rq->curr && !rq->nr_running;
}

/* p's affinity allows CPU cpu */
static inline bool sl_cpu_allowed(const struct sl_task *p, int cpu)
{
	return !p->cpus_allowed || (cpu < 64 && (p->cpus_allowed >> cpu) & 1);
}

static inline bool sched_feat(const struct sl_sim *sim, enum sl_feat f)
{
	if (sim->feat_read)
		*sim->feat_read |= 1ULL << f;
	return sim->features & (1ULL << f);
}

static inline void sl_emit(struct sl_sim *sim, struct sl_event *ev)
{
	sl_engine_emit(&sim->eng, ev);
}

static inline void sl_arm(struct sl_sim *sim, struct sl_timer *t, u64 expires)
{
	sl_engine_arm(&sim->eng, t, expires);
}

static inline void sl_cancel(struct sl_sim *sim, struct sl_timer *t)
{
	sl_engine_cancel(&sim->eng, t);
}

static inline int sl_sim_subscribe(struct sl_sim *sim, sl_event_fn fn, void *ctx)
{
	return sl_engine_subscribe(&sim->eng, fn, ctx);
}

static inline void sl_resched_cpu(struct sl_sim *sim, struct sl_cpu *rq)
{
	sim->mops->resched_cpu(sim, rq);
}

static inline u64 sl_next_wheel_timer(const struct sl_sim *sim, int cpu)
{
	return sim->mops->next_wheel_timer ? sim->mops->next_wheel_timer(sim, cpu) : UINT64_MAX;
}

#endif
