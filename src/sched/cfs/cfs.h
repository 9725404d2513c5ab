/*
 * CFS as of Linux 2.6.31 and 2.6.32. cfs.c holds what the two releases share (the weight
 * arithmetic, the rbtree, update_curr, slices, enqueue/dequeue, the tick); each release file
 * (cfs_2_6_31.c, cfs_2_6_32.c) holds the rules that changed between them behind struct
 * sl_cfs_ops, the class_data of its struct sl_release. A new release is one new file and one
 * line in release.c.
 */
#ifndef SCHEDLAB_CFS_H
#define SCHEDLAB_CFS_H

#include "sched/class.h"
#include "sched/common.h"
#include "sched/release.h"

enum sl_sd_level { SL_SD_SMT, SL_SD_MC, SL_SD_CPU, SL_SD_NLEVELS };

RB_HEAD(sl_cfs_tree, sched_entity);
/* The 2.6.3x cfs_rq: a CPU's root runqueue is the class's per-CPU area (class.h rq_size), a
 * group's are its tg->cfs_rq[] (cfs_group.c). */
struct cfs_rq {
	struct sl_load_weight load;
	unsigned long nr_running;
	u64 min_vruntime;
	struct sl_cfs_tree tasks_timeline;
	struct sched_entity *leftmost; /* the tree's first (rb_leftmost), kept as it changes */
	TAILQ_HEAD(, sched_entity) tasks;
	u64 seq;
	struct sched_entity *curr, *next, *last;
	/* group scheduling only (cfs_group.c): the owning group (NULL: a CPU's root runqueue), its
	 * CPU, and the kernel's per-CPU share figures (shares, rq_weight, task_weight, h_load) */
	struct sl_tg *tg;
	int cpu;
	u64 shares, rq_weight, task_weight, h_load;
};

/* CPU rq's root runqueue: CFS is only ever a release's fair class, whose area is the fair slot's */
static inline struct cfs_rq *cfs_rq_of_cpu(const struct sl_cpu *rq)
{
	return (struct cfs_rq *)sl_fair_rq_area(rq);
}

struct sl_sd_params {
	unsigned flags;
	int min_interval, max_interval, busy_factor, imbalance_pct, cache_nice_tries;
	int busy_idx, idle_idx, newidle_idx, wake_idx, forkexec_idx;
};

enum sl_idle_type { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE };

/* What changed in the fair class between 2.6.31 and 2.6.32: a release's class_data. */
struct sl_cfs_ops {
	struct sl_sd_params sd[SL_SD_NLEVELS];
	/*
	 * Group cpu_power. 2.6.31: a group whose CPUs share power or a package counts as one CPU
	 * (1024) and loads are divided by reciprocal_divide; 2.6.32: the sum of its CPUs' power,
	 * an SMT thread being smt_gain / threads (1178 / 2 = 589), and a plain division.
	 */
	bool power_is_sum;
	/* 2.6.32 task_hot: a buddy is hot only while the balancing CPU has tasks */
	bool hot_buddy_needs_running;
	void (*place_entity)(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se,
			     int initial);
	void (*check_preempt_wakeup)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				     int wake_flags);
	struct sched_entity *(*pick_next_entity)(struct sl_sim *sim, struct cfs_rq *cfs);
	void (*check_preempt_tick)(struct sl_sim *sim, struct sl_cpu *rq, struct cfs_rq *cfs,
				   struct sched_entity *curr);
	void (*task_new)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p);
	/* select_task_rq for a wake-up (SD_BALANCE_WAKE) or fork (SD_BALANCE_FORK) */
	int (*select_task_rq)(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			      int wake_flags);
	/* put_prev_task's averages (2.6.32 adds avg_running) */
	void (*put_prev_stats)(struct sl_sim *sim, struct sl_task *prev);
};

/* the running release's CFS rules */
static inline const struct sl_cfs_ops *cfs_ops(const struct sl_sim *sim)
{
	return (const struct sl_cfs_ops *)sim->rel->class_data;
}

/* ---- arithmetic (exposed for the tests) ---- */
u64 sl_calc_delta_mine(u64 delta_exec, u64 weight, struct sl_load_weight *lw);
u64 sl_calc_delta_fair(u64 delta, const struct sched_entity *se);
u64 sl_sched_period(const struct sl_sim *sim, unsigned long nr_running);
u64 sl_sched_slice(const struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se);
u64 sl_sched_vslice(const struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se);
void sl_set_load_weight(struct sl_task *p);
/* The boot-time scaling of sched_init_granularity for n online CPUs. */
void sl_init_granularity(struct sl_tunables *t, int ncpu);

static inline bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return (s64)(a->vruntime - b->vruntime) < 0;
}

/* ---- the entity hierarchy (group scheduling, cfs_group.c; without it one level) ---- */

/* the runqueue a task is (to be) queued on: its group's on its CPU, or the CPU's */
static inline struct cfs_rq *sl_task_cfs_rq(struct sl_sim *sim, const struct sl_task *p)
{
	return p->se.tg ? &p->se.tg->cfs_rq[p->cpu] : cfs_rq_of_cpu(&sim->cpus[p->cpu]);
}

static inline bool sl_entity_is_task(const struct sched_entity *se)
{
	return !se->my_q;
}

/* cfs_rq_of: a group's entity sits on its CPU's root runqueue */
static inline struct cfs_rq *sl_cfs_rq_of(struct sl_sim *sim, struct sched_entity *se)
{
	if (se->my_q)
		return cfs_rq_of_cpu(&sim->cpus[se->my_q->cpu]);
	return sl_task_cfs_rq(sim, sl_container_of(se, struct sl_task, se));
}

/* parent_entity: a task's group entity on its CPU; groups are children of the root (USER_SCHED
 * has two levels) */
static inline struct sched_entity *sl_parent_entity(struct sched_entity *se)
{
	const struct sl_task *p;

	if (se->my_q)
		return NULL;
	p = sl_container_of(se, struct sl_task, se);
	return p->se.tg ? &p->se.tg->se[p->cpu] : NULL;
}

/* ---- group scheduling of 2.6.31 (cfs_group.c; docs/model/cfs.md §7) ---- */
#define SL_MIN_SHARES 2ULL
#define SL_MAX_SHARES (1ULL << 18)
/* the task group of uid (created, as sched_create_user does, on its first task); NULL on OOM */
struct sl_tg *sl_tg_of_uid(struct sl_sim *sim, int uid);
void sl_tg_free_all(struct sl_sim *sim);
/* update_shares(sd) of the domain sd of CPU cpu, rate-limited by sched_shares_ratelimit */
void sl_update_shares(struct sl_sim *sim, struct sl_sched_domain *sd, int cpu, int level);
/* tg_shares_up for one group over a span (exposed for the tests); top: the span is the top
 * balancing domain (no parent with SD_LOAD_BALANCE) */
void sl_tg_shares_up(struct sl_sim *sim, struct sl_tg *tg, const int *span, int nspan, bool top);
/* update_h_load(cpu) */
void sl_update_h_load(struct sl_sim *sim, int cpu);
/* effective_load(tg, cpu, wl, wg) */
s64 sl_effective_load(struct sl_sim *sim, struct sl_tg *tg, int cpu, s64 wl, s64 wg);
/* sched_group_set_shares: clamp to [MIN_SHARES, MAX_SHARES], reset the per-CPU shares */
void sl_tg_set_shares(struct sl_sim *sim, struct sl_tg *tg, u64 shares);
/* clear_buddies: se's marks at every level */
void sl_clear_buddies_h(struct sl_sim *sim, struct sched_entity *se);

/* ---- shared rules ---- */
void sl_cfs_rq_init(struct cfs_rq *cfs);
struct sched_entity *sl_cfs_leftmost(struct cfs_rq *cfs);
struct sched_entity *sl_cfs_rightmost(struct cfs_rq *cfs);
void sl_update_curr(struct sl_sim *sim, struct cfs_rq *cfs);
int sl_wakeup_preempt_entity(struct sl_sim *sim, struct sched_entity *curr,
			     struct sched_entity *se);
void sl_clear_buddies(struct cfs_rq *cfs, struct sched_entity *se);
/* enqueue_entity / dequeue_entity on one level (the hierarchy walks are the task operations') */
void sl_enqueue_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se, int wakeup);
void sl_dequeue_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se);
void sl_resched_task(struct sl_sim *sim, struct sl_cpu *rq);
/* task_new's sched_child_runs_first swap of the child p with curr (NULL: none) */
void sl_child_runs_first(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *curr,
			 struct sl_task *p);
bool sl_task_hot(struct sl_sim *sim, struct sl_task *p);
void sl_hrtick_start_fair(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p);

/* ---- the class operations the machine calls ---- */
void sl_cfs_enqueue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup);
void sl_cfs_dequeue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep);
struct sl_task *sl_cfs_pick_next_task(struct sl_sim *sim, struct sl_cpu *rq);
void sl_cfs_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev);
void sl_cfs_task_tick(struct sl_sim *sim, struct sl_cpu *rq, int queued);
void sl_cfs_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			       int wake_flags);
void sl_cfs_yield_task(struct sl_sim *sim, struct sl_cpu *rq);
void sl_cfs_set_task_cpu(struct sl_sim *sim, struct sl_task *p, int cpu);

/* ---- load figures and balancing (balance.c) ---- */
void sl_update_cpu_load(struct sl_cpu *rq);
u64 sl_source_load(struct sl_sim *sim, int cpu, int type);
u64 sl_target_load(struct sl_sim *sim, int cpu, int type);
u64 sl_cpu_avg_load_per_task(struct sl_sim *sim, int cpu);
/* wake_affine's verdict once the releases' rules have given sync, balanced and the loads */
int sl_wake_affine_verdict(struct sl_sim *sim, int sync, bool balanced, int this_cpu, int prev_cpu,
			   int idx, u64 this_load, u64 load);
int sl_find_idlest_cpu_fork(struct sl_sim *sim, struct sl_task *p, int this_cpu);
void sl_build_domains(struct sl_sim *sim);
/* NO_HZ tick stop/restart and the idle load balancer (balance.c) */
bool sl_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop);
void sl_active_load_balance(struct sl_sim *sim, struct sl_cpu *busiest, int push_cpu);
void sl_free_domains(struct sl_sim *sim);
void sl_rebalance_tick(struct sl_sim *sim, struct sl_cpu *rq);
void sl_idle_balance(struct sl_sim *sim, struct sl_cpu *rq);

#endif
