/*
 * CFS rules of Linux 2.6.31 (kernel/sched_fair.c and kernel/sched.c of that release; checked
 * against the 2.6.31.3 tree, whose scheduler files are 2.6.31's):
 * - place_entity: NEW_FAIR_SLEEPERS credits a full sched_latency; the max() with the old vruntime
 *   applies on wake-up only, so a forked child can be placed before its copied vruntime;
 * - check_preempt_wakeup sets both buddies before any test; WAKEUP_OVERLAP includes `sync`;
 * - pick_next_entity prefers next, then last; check_preempt_tick has the slice test only;
 * - select_task_rq_fair: wake_affine, then passive balancing (SD_WAKE_BALANCE), then wake_idle,
 *   which returns prev_cpu because no default x86 domain sets SD_WAKE_IDLE;
 * - the sync hint is dropped when either avg_overlap exceeds migration_cost (no flag yet).
 */
#include "sched/cfs/cfs.h"
#include "sched/cfs/cfs_releases.h"
#include "sched/class.h"

static const struct sl_feat_desc feats_2_6_31[] = {
	{F_NEW_FAIR_SLEEPERS, "NEW_FAIR_SLEEPERS", 1, 1},
	{F_NORMALIZED_SLEEPER, "NORMALIZED_SLEEPER", 0, 1},
	{F_ADAPTIVE_GRAN, "ADAPTIVE_GRAN", 1, 1},
	{F_WAKEUP_PREEMPT, "WAKEUP_PREEMPT", 1, 1},
	{F_START_DEBIT, "START_DEBIT", 1, 1},
	{F_AFFINE_WAKEUPS, "AFFINE_WAKEUPS", 1, 1},
	{F_CACHE_HOT_BUDDY, "CACHE_HOT_BUDDY", 1, 1},
	{F_SYNC_WAKEUPS, "SYNC_WAKEUPS", 1, 1},
	{F_HRTICK, "HRTICK", 0, 1},
	{F_DOUBLE_TICK, "DOUBLE_TICK", 0, 1},
	{F_ASYM_GRAN, "ASYM_GRAN", 1, 1},
	{F_LB_BIAS, "LB_BIAS", 1, 1},
	/* only with CONFIG_FAIR_GROUP_SCHED: root_task_group_empty() makes it a no-op */
	{F_LB_WAKEUP_UPDATE, "LB_WAKEUP_UPDATE", 1, 0},
	/* only with CONFIG_FAIR_GROUP_SCHED: effective_load() is the identity without groups */
	{F_ASYM_EFF_LOAD, "ASYM_EFF_LOAD", 1, 0},
	{F_WAKEUP_OVERLAP, "WAKEUP_OVERLAP", 0, 1},
	{F_LAST_BUDDY, "LAST_BUDDY", 1, 1},
	{F_OWNER_SPIN, "OWNER_SPIN", 1, 1},
};

static void place_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se,
			 int initial)
{
	u64 vruntime = cfs->min_vruntime;

	if (initial && sched_feat(sim, F_START_DEBIT))
		vruntime += sl_sched_vslice(sim, cfs, se);
	if (!initial) {
		/* the flags read only where they change the result (see cfs.c wakeup_gran) */
		u64 thresh = sim->tun.sched_latency;
		u64 off = max_vruntime(se->vruntime, vruntime);
		u64 on = max_vruntime(se->vruntime, vruntime - thresh), norm = on;
		/* NORMALIZED_SLEEPER's threshold differs only for a weight other than nice 0's */
		bool scaled = se->load.weight != NICE_0_LOAD &&
			      (!sl_entity_is_task(se) || sl_task_of(se)->policy != SL_SCHED_IDLE);

		if (scaled)
			norm = max_vruntime(se->vruntime,
					    vruntime - sl_calc_delta_fair(thresh, se));
		vruntime = off;
		if ((on != off || norm != off) && sched_feat(sim, F_NEW_FAIR_SLEEPERS))
			vruntime = norm != on && sched_feat(sim, F_NORMALIZED_SLEEPER) ? norm : on;
	}
	se->vruntime = vruntime;
}

/* the buddy marks go on every level of the hierarchy */
static void set_last_buddy(struct sl_sim *sim, struct sched_entity *se)
{
	if (sl_task_of(se)->policy != SL_SCHED_IDLE)
		for (; se; se = sl_parent_entity(se))
			sl_cfs_rq_of(sim, se)->last = se;
}

static void set_next_buddy(struct sl_sim *sim, struct sched_entity *se)
{
	if (sl_task_of(se)->policy != SL_SCHED_IDLE)
		for (; se; se = sl_parent_entity(se))
			sl_cfs_rq_of(sim, se)->next = se;
}

/* find_matching_se: walk both up to the entities that share a runqueue (USER_SCHED: the
 * tasks themselves when in one group, else their groups' entities) */
static void find_matching_se(struct sl_sim *sim, struct sched_entity **se,
			     struct sched_entity **pse)
{
	int sd = 0, pd = 0;

	for (struct sched_entity *e = *se; e; e = sl_parent_entity(e))
		sd++;
	for (struct sched_entity *e = *pse; e; e = sl_parent_entity(e))
		pd++;
	for (; sd > pd; sd--)
		*se = sl_parent_entity(*se);
	for (; pd > sd; pd--)
		*pse = sl_parent_entity(*pse);
	/* both reach the CPU's root runqueue at the latest (the kernel's BUG_ON(!pse)) */
	while (*se && *pse && sl_cfs_rq_of(sim, *se) != sl_cfs_rq_of(sim, *pse)) {
		*se = sl_parent_entity(*se);
		*pse = sl_parent_entity(*pse);
	}
}

static void check_preempt_wakeup(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				 int wake_flags)
{
	struct sl_task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs = sl_task_cfs_rq(sim, curr);
	u64 mc = sim->tun.sched_migration_cost;

	sl_update_curr(sim, cfs);
	if (se == pse)
		return;
	if (se->on_rq && sched_feat(sim, F_LAST_BUDDY))
		set_last_buddy(sim, se);
	set_next_buddy(sim, pse);
	if (rq->need_resched)
		return;
	if (p->policy != SL_SCHED_NORMAL)
		return;
	if (curr->policy == SL_SCHED_IDLE) {
		sl_resched_task(sim, rq);
		return;
	}
	if (!sched_feat(sim, F_WAKEUP_PREEMPT))
		return;
	if (((wake_flags & WF_SYNC) || (se->avg_overlap < mc && pse->avg_overlap < mc)) &&
	    sched_feat(sim, F_WAKEUP_OVERLAP)) {
		sl_resched_task(sim, rq);
		return;
	}
	find_matching_se(sim, &se, &pse);
	if (se && pse && sl_wakeup_preempt_entity(sim, se, pse) == 1)
		sl_resched_task(sim, rq);
}

static struct sched_entity *pick_next_entity(struct sl_sim *sim, struct cfs_rq *cfs)
{
	struct sched_entity *left = sl_cfs_leftmost(cfs), *se = left;

	if (cfs->next && sl_wakeup_preempt_entity(sim, cfs->next, left) < 1)
		se = cfs->next;
	else if (cfs->last && sl_wakeup_preempt_entity(sim, cfs->last, left) < 1)
		se = cfs->last;
	sl_clear_buddies(cfs, se); /* pick_next_task_fair's __clear_buddies of the pick */
	return se;
}

static void check_preempt_tick(struct sl_sim *sim, struct sl_cpu *rq, struct cfs_rq *cfs,
			       struct sched_entity *curr)
{
	u64 ideal_runtime = sl_sched_slice(sim, cfs, curr);
	u64 delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;

	if (delta_exec > ideal_runtime) {
		sl_resched_task(sim, rq);
		sl_clear_buddies_h(sim, curr);
	}
}

static void task_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	/* curr is NULL when the child's group has no running entity here */
	struct cfs_rq *cfs = sl_task_cfs_rq(sim, p);
	struct sched_entity *curr = cfs->curr, *se = &p->se;

	sl_update_curr(sim, cfs);
	place_entity(sim, cfs, se, 1);
	sl_child_runs_first(sim, rq, curr, p);
	sl_cfs_enqueue_task(sim, rq, p, 0);
}

static int affine_load(struct sl_sim *sim, struct sl_sched_domain *sd, struct sl_task *p,
		       int prev_cpu, int this_cpu, int sync, int idx, u64 load, u64 this_load,
		       u64 imbalance)
{
	struct sl_task *curr = sim->cpus[this_cpu].curr;
	u64 mc = sim->tun.sched_migration_cost, tl = this_load;

	if (!(sd->flags & SD_WAKE_AFFINE))
		return 0;
	if (!curr || (sync && (curr->se.avg_overlap > mc || p->se.avg_overlap > mc)))
		sync = 0;
	if (sim->group_sched) {
		/* effective_load: the change as the root runqueues see it (unsigned sums that
		 * may wrap, as the kernel's) */
		if (sync) {
			s64 w = (s64)curr->se.load.weight;

			tl += (u64)sl_effective_load(sim, curr->se.tg, this_cpu, -w, -w);
			load += (u64)sl_effective_load(sim, curr->se.tg, prev_cpu, 0, -w);
		}
		s64 w = (s64)p->se.load.weight;
		bool balanced =
			100 * (tl + (u64)sl_effective_load(sim, p->se.tg, this_cpu, w, w)) <=
			imbalance * (load + (u64)sl_effective_load(sim, p->se.tg, prev_cpu, 0, w));

		return sl_wake_affine_verdict(sim, sync, balanced, this_cpu, prev_cpu, idx, tl,
					      load);
	}
	if (sync)
		tl -= curr->se.load.weight; /* unsigned, may wrap: as the kernel's */
	bool balanced = 100 * (tl + p->se.load.weight) <= imbalance * load;

	return sl_wake_affine_verdict(sim, sync, balanced, this_cpu, prev_cpu, idx, tl, load);
}

/* AFFINE_WAKEUPS read only where the loads say yes (see cfs.c wakeup_gran) */
static int wake_affine(struct sl_sim *sim, struct sl_sched_domain *sd, struct sl_task *p,
		       int prev_cpu, int this_cpu, int sync, int idx, u64 load, u64 this_load,
		       u64 imbalance)
{
	return affine_load(sim, sd, p, prev_cpu, this_cpu, sync, idx, load, this_load, imbalance) &&
	       sched_feat(sim, F_AFFINE_WAKEUPS);
}

static int select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			  int wake_flags)
{
	int prev_cpu = p->cpu;
	struct sl_cpu *rq = &sim->cpus[this_cpu];
	struct sl_sched_domain *this_sd = NULL;

	if (sd_flag & SD_BALANCE_FORK)
		return sl_find_idlest_cpu_fork(sim, p, this_cpu); /* sched_balance_self */
	/* try_to_wake_up: LB_WAKEUP_UPDATE updates the shares over the waking CPU's first domain
	 * that holds the task's CPU (unless root_task_group_empty(), never so under USER_SCHED:
	 * uid 0's group is the root's child) */
	if (sched_feat(sim, F_LB_WAKEUP_UPDATE) && sim->group_sched && sim->ntgs && this_cpu >= 0) {
		for (int i = 0; i < rq->nsd; i++)
			if (sl_sd_spans(&rq->sd[i], prev_cpu)) {
				sl_update_shares(sim, &rq->sd[i], this_cpu, i);
				break;
			}
	}
	if (this_cpu < 0 || prev_cpu == this_cpu)
		return prev_cpu;
	for (int i = 0; i < rq->nsd && !this_sd; i++)
		if (sl_sd_spans(&rq->sd[i], prev_cpu))
			this_sd = &rq->sd[i];
	if (!this_sd)
		return prev_cpu;
	int idx = this_sd->wake_idx;
	u64 imbalance = 100 + (u64)(this_sd->imbalance_pct - 100) / 2;
	u64 load = sl_source_load(sim, prev_cpu, idx);
	u64 this_load = sl_target_load(sim, this_cpu, idx);

	if (wake_affine(sim, this_sd, p, prev_cpu, this_cpu, wake_flags & WF_SYNC, idx, load,
			this_load, imbalance))
		return this_cpu;
	if ((this_sd->flags & SD_WAKE_BALANCE) && imbalance * this_load <= 100 * load)
		return this_cpu;
	return prev_cpu; /* wake_idle(): no default domain has SD_WAKE_IDLE */
}

static void put_prev_stats(struct sl_sim *sim, struct sl_task *prev)
{
	if (prev->state == TS_RUNNING) {
		u64 runtime = prev->se.sum_exec_runtime - prev->se.prev_sum_exec_runtime;
		u64 cap = 2 * sim->tun.sched_migration_cost;

		sl_update_avg(&prev->se.avg_overlap, runtime < cap ? runtime : cap);
	}
}

#define SD_COMMON                                                                                  \
	(SD_LOAD_BALANCE | SD_BALANCE_FORK | SD_BALANCE_EXEC | SD_WAKE_AFFINE | SD_WAKE_BALANCE)

static const struct sl_cfs_ops cfs_ops_2_6_31 = {
	/* include/linux/topology.h of 2.6.31: only the SMT level balances when newly idle */
	.sd =
		{
			[SL_SD_SMT] = {SD_COMMON | SD_BALANCE_NEWIDLE | SD_SHARE_CPUPOWER, 1, 2, 64,
				       110, 0, 0, 0, 0, 0, 0},
			[SL_SD_MC] = {SD_COMMON | SD_SHARE_PKG_RESOURCES, 1, 4, 64, 125, 1, 2, 0, 0,
				      1, 1},
			[SL_SD_CPU] = {SD_COMMON, 1, 4, 64, 125, 1, 2, 1, 2, 1, 1},
		},
	.power_is_sum = false,
	.hot_buddy_needs_running = false,
	.place_entity = place_entity,
	.check_preempt_wakeup = check_preempt_wakeup,
	.pick_next_entity = pick_next_entity,
	.check_preempt_tick = check_preempt_tick,
	.task_new = task_new,
	.select_task_rq = select_task_rq,
	.put_prev_stats = put_prev_stats,
};

const struct sl_release sl_cfs_2_6_31 = {
	.name = "2.6.31",
	.fair = &sl_cfs_class,
	.init_granularity = sl_init_granularity,
	/* USER_SCHED is modelled from the 2.6.31 sources only (docs/model/cfs.md section 7) */
	.group_sched = true,
	.ftrace_2_6 = true,
	/* the menu governor as 2.6.31 shipped it, before the menu-tng patch */
	.acpi_idle = true,
	.irq_per_controller = true,
	.idle_governor = "menu-2.6.31",
	.sysctls = SL_SYSCTL_CFS,
	.feats = {feats_2_6_31, (int)SL_ARRAY_SIZE(feats_2_6_31)},
	.defaults =
		{
			.sched_latency = 20000000,
			.sched_min_granularity = 4000000,
			.sched_wakeup_granularity = 5000000,
			.sched_nr_latency = 5,
			.sched_child_runs_first = 1,
			.sched_migration_cost = 500000,
			.sched_shares_ratelimit = 250000,
			.sched_shares_thresh = 4,
			.sched_compat_yield = 0,
			.sched_nr_migrate = 32,
		},
	.class_data = &cfs_ops_2_6_31,
};
