/*
 * The EEVDF fair class of Linux 6.18 (docs/model/eevdf.md), re-implemented from the
 * facts stated there, not from kernel text.
 *
 * Files: eevdf_core.c (weights, __calc_delta, the deadline-ordered tree with the S/W sums around
 * zero_vruntime, avg_vruntime, eligibility, lag), eevdf_pick.c (update_curr/update_deadline,
 * protection, place_entity, __pick_eevdf), eevdf.c (the class: enqueue/dequeue with delayed
 * dequeue, wake-up preemption, yield, fork, the tick), eevdf_balance.c (wake-up CPU choice,
 * periodic and newidle balancing), eevdf_6_18.c (the release: features, tunables, defaults);
 * the balancer's busiest-CPU and idlest-CPU trees are the shared range tree (sched/rtree.c).
 *
 * Model choices (each explained where it is made):
 * - Pick descends the deadline tree by its min_vruntime augmentation, as the kernel's
 *   __pick_eevdf: the eligible entity with the earliest deadline, ties to the earlier insertion
 *   (what an in-order walk for the first eligible one gives; -DSL_EEVDF_CHECK_AUGMENT checks).
 * min_slice/max_slice are augmented values of the tree (each node keeps its subtree's least and
 * greatest slice), O(1) to read.
 * - Autogroup: the target puts each session in its own task group. A run holds only the
 *   workload's tasks, all started from one session (the shell), so they share one autogroup: one
 *   group entity per CPU whose cfs_rq holds all of them. With one group entity per CPU the root
 *   level has a single entity, which pick always takes, so the task level decides alone; we
 *   model that level directly (flat). What is lost: the group entity's slice/lag (inert with
 *   one entity) and shares across CPUs (same group on both CPUs, share = weight split by load,
 *   which changes nothing when no other group competes).
 * - Preemption model "none": a reschedule (resched_curr_lazy == resched_curr) takes effect at
 *   the next return to user or explicit schedule. The model's kernel paths take no time, so
 *   "return to user" is now for the local CPU and the IPI's arrival for a remote one; what
 *   "none" changes against "full" (no preemption inside a long kernel path) has no counterpart.
 */
#ifndef SCHEDLAB_EEVDF_H
#define SCHEDLAB_EEVDF_H

#include "sched/class.h"

extern const struct sl_sched_class sl_eevdf_class;

RB_HEAD(sl_eevdf_tree, sched_entity);

/* PELT's struct sched_avg (eevdf_pelt.c): sums over time, their averages, and util_est */
struct sl_pelt_avg {
	u64 last_update_time; /* ns, a multiple of 1024 after the first update; 0: detached */
	u64 load_sum, runnable_sum;
	u32 util_sum, period_contrib;
	u64 load_avg, runnable_avg, util_avg;
	u32 util_est; /* a task's EWMA or a cfs_rq's sum of its queued tasks' */
	u32 pad;
};
/* util_est's flag: util_avg has not changed since the estimate was last sampled */
#define SL_UTIL_AVG_UNCHANGED 0x80000000u

/* The 6.18 cfs_rq, the class's part of a runqueue (its area, class.h rq_size; one per CPU: the
 * model's tasks share one autogroup, see above). */
struct eevdf_rq {
	struct sl_eevdf_tree timeline; /* queued entities but curr, by deadline (ties go right) */
	TAILQ_HEAD(eevdf_tasks_head, sched_entity)
	tasks; /* rq->cfs_tasks: most recently run first */
	u64 seq;
	u64 zero_vruntime;
	s64 sum_w_vruntime; /* sum of key(se) * w over the tree */
	u64 sum_weight;	    /* sum of w = scale_load_down(weight) over the tree */
	u64 load;	    /* sum of load.weight of the queued entities (balancing) */
	struct sched_entity *curr, *next;
	bool next_forced;	       /* next is picked even ineligible (wakee_first with force) */
	struct sched_entity *last_put; /* put back by put_prev, not yet re-picked */
	unsigned long nr_queued;       /* counts curr and delayed entities */
	/* newidle balancing (eevdf_balance.c) */
	u64 avg_idle, idle_stamp, max_newidle_lb_cost;
	u64 max_idle_balance_cost, last_decay_max_lb_cost; /* rq's; sd's, in jiffy_of's jiffies */
	unsigned ni_call, ni_success, ni_ratio;
	/* a balance with a cost under way: its examination (ni_pending) or, after a pull, the
	 * pulled task's switch-in (ni_tail) is due at rq->resched */
	bool ni_pending, ni_tail;
	int recent_used_cpu;
	int nr_balance_failed;
	u64 balance_interval; /* ms */
	u64 next_balance;     /* ns */
	/* sd->last_balance of the one domain, in jiffies + 1 (eevdf_balance.c jiffy_of) */
	u64 last_balance;
	/* PELT (eevdf_pelt.c): the cfs_rq's averages, and what tasks that left while asleep
	 * (woken elsewhere, exited) take away at its next update (cfs_rq->removed) */
	struct sl_pelt_avg avg;
	u64 removed_nr, removed_load, removed_util, removed_runnable;
	u64 nohz_next_blocked; /* CPU 0's: the machine's nohz.next_blocked (eevdf_balance.c) */
	bool tick_kept;	       /* idle, its tick kept for a wheel timer the coming tick runs */
	/* SIS_UTIL: the LLC's idle-scan budget (sd_llc_shared's nr_idle_scan, a copy per CPU) */
	unsigned nr_idle_scan;
};

/* The class's per-task area (class.h task_size), in the entity's class_area (sched.h). */
struct eevdf_entity {
	/* first: what the tree's insertion, pick and augmentation read at each level besides the
	 * entity's rb_seq, vruntime and children (sched.h), in 32 bytes */
	u64 deadline;
	/* the subtree's least vruntime (wrapping compare), for the pick */
	u64 min_vruntime;
	/* the least and greatest slice of the subtree rooted here (the tree's augmentation, as the
	 * kernel's min_slice) */
	u64 min_slice, max_slice;
	u64 slice; /* the request, ns */
	u64 vprot; /* RUN_TO_PARITY: curr is protected while vruntime < vprot */
	s64 vlag;
	/* the task's record_wakee (task_struct members in the kernel, kept here with the class's
	 * own): wake_wide's flips, and select_idle_sibling's recent_used_cpu (eevdf_balance.c) */
	struct sl_task *last_wakee;
	u64 wakee_flip_decay_ts;
	unsigned wakee_flips;
	int recent_used_cpu;
	struct sl_pelt_avg avg; /* PELT (eevdf_pelt.c) */
};
_Static_assert(sizeof(struct eevdf_entity) <= SL_SE_AREA_SIZE,
	       "EEVDF's per-task area must fit the entity's class_area");

/* se's EEVDF members (const for a const entity) */
#define ee_se(se)                                                                                  \
	_Generic((se),                                                                             \
		const struct sched_entity *: (const struct eevdf_entity *)(const void *)(se)       \
						     ->class_area,                                 \
		default: (struct eevdf_entity *)(void *)(se)->class_area)

static inline struct eevdf_rq *ee_rq_of(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	(void)sim; /* EEVDF is only ever a release's fair class: its area is the fair slot's */
	return (struct eevdf_rq *)sl_fair_rq_area(rq);
}

#define EEVDF_FIXEDPOINT_SHIFT 10
#define EEVDF_NICE_0_LOAD      (1ULL << 20) /* scale_load(1024) */
/* normalized_sysctl_sched_base_slice; also RUN_TO_PARITY-off's fixed protection */
#define EEVDF_NORMALIZED_SLICE 700000ULL
#define EEVDF_SLICE_MIN	       100000ULL
#define EEVDF_SLICE_MAX	       100000000ULL

/* enqueue/dequeue flags (the kernel's meanings, our values) */
#define EE_ENQUEUE_WAKEUP  0x01
#define EE_ENQUEUE_INITIAL 0x02
#define EE_DEQUEUE_SLEEP   0x01
#define EE_DEQUEUE_DELAYED 0x02
#define EE_DEQUEUE_SPECIAL 0x04 /* a sleep that is never delayed */
#define EE_DEQUEUE_MIGRATE 0x08 /* a balancer's move: task_on_rq_migrating */
/* update_load_avg's flags */
#define EE_SKIP_AGE_LOAD 0x1
#define EE_DO_ATTACH	 0x2
#define EE_DO_DETACH	 0x4

static inline u64 scale_load(u64 w)
{
	return w << EEVDF_FIXEDPOINT_SHIFT;
}
static inline u64 scale_load_down(u64 w)
{
	u64 d = w >> EEVDF_FIXEDPOINT_SHIFT;

	return w ? (d > 2 ? d : 2) : 0;
}

/* ---- arithmetic (eevdf_core.c) ---- */
void sl_eevdf_set_load_weight(struct sl_task *p);
u64 sl_eevdf_calc_delta(u64 delta, u64 weight, struct sl_load_weight *lw);
u64 sl_eevdf_calc_delta_fair(u64 delta, const struct sched_entity *se);
/* tunable_scaling: factor for ncpus online, and the boot scaling of base_slice */
u64 sl_eevdf_scaling_factor(u64 scaling, int ncpu);
void sl_eevdf_update_scaling(struct sl_tunables *t);
void sl_eevdf_init_granularity(struct sl_tunables *t, int ncpu);

/* ---- the tree and V (eevdf_core.c) ---- */
void sl_eevdf_rq_init(struct eevdf_rq *cfs);
void sl_eevdf_enqueue_tree(struct eevdf_rq *cfs, struct sched_entity *se);
void sl_eevdf_dequeue_tree(struct eevdf_rq *cfs, struct sched_entity *se);
struct sched_entity *sl_eevdf_first(struct eevdf_rq *cfs);
struct sched_entity *sl_eevdf_next(struct sched_entity *se);
u64 sl_eevdf_min_slice(struct eevdf_rq *cfs);	 /* ~0 if the tree is empty */
u64 sl_eevdf_max_slice(struct eevdf_rq *cfs);	 /* 0 if the tree is empty */
u64 sl_eevdf_avg_vruntime(struct eevdf_rq *cfs); /* moves zero_vruntime: a state change */
bool sl_eevdf_vruntime_eligible(const struct eevdf_rq *cfs, u64 vruntime);
bool sl_eevdf_entity_eligible(const struct eevdf_rq *cfs, const struct sched_entity *se);
struct sched_entity *sl_eevdf_first_eligible(struct eevdf_rq *cfs); /* O(log n) */
s64 sl_eevdf_entity_lag(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se,
			u64 avruntime);
void sl_eevdf_update_entity_lag(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se);

/* ---- pick, slices, placement (eevdf_pick.c) ---- */
bool sl_eevdf_update_deadline(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se);
void sl_eevdf_update_curr(struct sl_sim *sim, struct sl_cpu *rq);
bool sl_eevdf_protect_slice(const struct sched_entity *se);
void sl_eevdf_set_protect_slice(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se);
void sl_eevdf_update_protect_slice(struct eevdf_rq *cfs, struct sched_entity *se);
void sl_eevdf_cancel_protect_slice(struct sched_entity *se);
void sl_eevdf_place_entity(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se,
			   int flags);
/* __pick_eevdf: curr is the running entity (in the tree or not, or NULL) */
struct sched_entity *sl_eevdf_pick_eevdf(struct sl_sim *sim, struct eevdf_rq *cfs,
					 struct sched_entity *curr, bool protect);
/* the same among the runnable entities only (the machine's wake_skip_delayed) */
struct sched_entity *sl_eevdf_pick_runnable(struct eevdf_rq *cfs, bool protect);
struct sched_entity *sl_eevdf_pick_next_entity(struct sl_sim *sim, struct eevdf_rq *cfs,
					       struct sched_entity *curr);

/* ---- the class (eevdf.c) ---- */
void sl_eevdf_enqueue_entity(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se,
			     int flags);
/* false: the entity stayed queued, delayed */
bool sl_eevdf_dequeue_entity(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se,
			     int flags);
void sl_eevdf_clear_buddies(struct eevdf_rq *cfs, struct sched_entity *se);

/* ---- balancing (eevdf_balance.c) ---- */
enum ee_idle { EE_CPU_IDLE, EE_CPU_NOT_IDLE, EE_CPU_NEWLY_IDLE };
/* 6.18's group_type, by pulling priority (misfit, SMT, asym and imbalanced groups never arise in
 * the model's one domain of one-CPU groups of full capacity, docs/model/eevdf.md §5.4) */
enum ee_group_type {
	EE_GROUP_HAS_SPARE,
	EE_GROUP_FULLY_BUSY,
	EE_GROUP_MISFIT_TASK,
	EE_GROUP_SMT_BALANCE,
	EE_GROUP_ASYM_PACKING,
	EE_GROUP_IMBALANCED,
	EE_GROUP_OVERLOADED,
};
enum ee_migration_type { EE_MIGRATE_LOAD, EE_MIGRATE_UTIL, EE_MIGRATE_TASK, EE_MIGRATE_MISFIT };
/* sg_lb_stats of one group: its CPUs' PELT sums (cpu_load, cpu_util_cfs, cpu_runnable), the
 * queued tasks of every class with delayed ones (rq->nr_running) and the fair runnable ones
 * (h_nr_runnable), its idle CPUs, capacity and weight */
struct ee_sg_stats {
	u64 avg_load, group_load, group_capacity, group_util, group_runnable;
	unsigned sum_nr_running, sum_h_nr_running, idle_cpus, group_weight;
	enum ee_group_type group_type;
};
/* sd_lb_stats: the local group, the busiest (has_busiest), the domain's totals */
struct ee_sd_stats {
	struct ee_sg_stats local, busiest;
	bool has_busiest;
	u64 total_load, total_capacity, avg_load;
};
bool sl_eevdf_group_is_overloaded(unsigned pct, const struct ee_sg_stats *sgs);
bool sl_eevdf_group_has_capacity(unsigned pct, const struct ee_sg_stats *sgs);
/* group_classify, and avg_load for an overloaded group */
void sl_eevdf_group_classify(unsigned pct, struct ee_sg_stats *sgs);
/* update_sd_pick_busiest: sgs busier than the busiest so far */
bool sl_eevdf_pick_busiest(const struct ee_sd_stats *sds, const struct ee_sg_stats *sgs);
/* sched_balance_find_src_group after the statistics, with calculate_imbalance: false when
 * balanced, else the migration type and the imbalance (> 0) */
bool sl_eevdf_find_src_group(enum ee_idle idle, unsigned pct, struct ee_sd_stats *sds,
			     enum ee_migration_type *type, s64 *imbalance);
/* pull to dst from the busiest CPU: -1 balanced, else the number of tasks moved */
int sl_eevdf_load_balance(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle);
/* the balance's statistics (rd->overloaded, and when set the local group, the totals and the
 * busiest group, its CPU returned, NULL: none), from the kept statistics when the machine keeps
 * them and walk is false, else by a walk of every CPU (for tests: the two agree) */
/* the fork's find_idlest_cpu: from the kept statistics' tree, or (walk) by visiting every CPU */
int sl_eevdf_find_idlest_cpu(struct sl_sim *sim, struct sl_task *p, int this_cpu, bool walk);
struct sl_cpu *sl_eevdf_lb_stats(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle,
				 struct ee_sd_stats *sds, bool walk);
int sl_eevdf_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			    int wake_flags);
void sl_eevdf_build_domains(struct sl_sim *sim);
void sl_eevdf_free_domains(struct sl_sim *sim);

/* ---- PELT, util_est, SIS_UTIL (eevdf_pelt.c) ---- */
#define SL_PELT_CLOCK_START (1024ULL * 1024ULL) /* the PELT clock at the model's time 0 */
static inline u64 sl_pelt_clock(const struct sl_sim *sim)
{
	return sim->now + SL_PELT_CLOCK_START;
}
u64 sl_pelt_decay_load(u64 val, u64 n);
/* the pieces, for tests: 1 when a period boundary was crossed (averages recomputed) */
int sl_pelt_update_se(u64 now, const struct eevdf_rq *cfs, struct sched_entity *se);
int sl_pelt_update_blocked_se(u64 now, struct sched_entity *se);
int sl_pelt_update_cfs(u64 now, struct eevdf_rq *cfs, u64 h_nr_runnable);
void sl_pelt_attach(struct eevdf_rq *cfs, struct sched_entity *se);
void sl_pelt_detach(struct eevdf_rq *cfs, struct sched_entity *se);
/* update_load_avg(cfs_rq of rq, se, flags) at now; se NULL: the cfs_rq alone (blocked) */
void sl_eevdf_pelt_update(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se,
			  int flags);
void sl_eevdf_pelt_migrate(struct sl_sim *sim, struct sl_task *p);
void sl_eevdf_pelt_remove(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se);
void sl_eevdf_pelt_init(struct sched_entity *se);
void sl_eevdf_pelt_post_init(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se);
void sl_eevdf_util_est_enqueue(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se);
void sl_eevdf_util_est_dequeue(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se);
void sl_eevdf_util_est_update(struct sl_sim *sim, struct sched_entity *se, bool sleep);
/* cpu_util_cfs, 0..1024 */
u64 sl_eevdf_cpu_util(const struct sl_sim *sim, const struct sl_cpu *rq);
u64 sl_eevdf_cpu_util_ue(const struct sl_sim *sim, const struct sl_cpu *rq, bool util_est);
/* update_idle_cpu_scan's budget: llc_weight CPUs of summed utilization sum_util, the domain's
 * imbalance_pct pct */
unsigned sl_eevdf_idle_scan(u64 sum_util, unsigned llc_weight, unsigned pct);
/* a periodic balance of dst's LLC sets its nr_idle_scan (when SIS_UTIL is on) */
void sl_eevdf_update_idle_scan(struct sl_sim *sim, struct sl_cpu *dst, unsigned pct);
/* the class's idle_scan: cpu's nr_idle_scan with SIS_UTIL on, -1 with it off (no budget) */
int sl_eevdf_idle_scan_of(struct sl_sim *sim, int cpu);
void sl_eevdf_tick_balance(struct sl_sim *sim, struct sl_cpu *rq);
/* nothing to pick on rq: true if a task was pulled */
bool sl_eevdf_newidle_balance(struct sl_sim *sim, struct sl_cpu *rq);
int sl_eevdf_newidle_resume(struct sl_sim *sim, struct sl_cpu *rq);
void sl_eevdf_update_avg_idle(struct sl_sim *sim, struct sl_cpu *rq);
void eevdf_note_idle(struct sl_sim *sim, struct sl_cpu *rq, bool entering);
bool sl_eevdf_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop);

#endif
