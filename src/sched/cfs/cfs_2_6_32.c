/*
 * CFS rules of plain Linux 2.6.32 (SUBLEVEL 0; long-term 2.6.32.x trees carry 2.6.33 backports):
 * - place_entity: FAIR_SLEEPERS credit, halved by GENTLE_FAIR_SLEEPERS; the max() with the old
 *   vruntime applies to fork too; task_new first copies the running entity's vruntime;
 * - check_preempt_wakeup: NEXT_BUDDY optional, WAKEUP_SYNC / WAKEUP_RUNNING, and LAST_BUDDY only
 *   after a successful preemption with nr_running >= sched_nr_latency;
 * - pick_next_entity: the last buddy overrides the next buddy;
 * - check_preempt_tick: a second test compares a vruntime difference with the wall-clock slice,
 *   as an *unsigned* comparison on x86_64 (s64 against unsigned long), so a negative difference
 *   also reschedules once min_granularity has run. Reproduced as on x86_64;
 * - select_task_rq_fair(sd_flag): wake_affine or prev_cpu (no level sets SD_BALANCE_WAKE);
 *   SYNC_LESS / SYNC_MORE act on the sync hint; `!this_load ||` counts as balanced;
 * - put_prev_task keeps avg_running.
 */
#include "sched/cfs/cfs.h"
#include "sched/cfs/cfs_releases.h"
#include "sched/class.h"

static const struct sl_feat_desc feats_2_6_32[] = {
	{F_FAIR_SLEEPERS, "FAIR_SLEEPERS", 1, 1},
	{F_GENTLE_FAIR_SLEEPERS, "GENTLE_FAIR_SLEEPERS", 1, 1},
	{F_NORMALIZED_SLEEPER, "NORMALIZED_SLEEPER", 0, 1},
	{F_START_DEBIT, "START_DEBIT", 1, 1},
	{F_WAKEUP_PREEMPT, "WAKEUP_PREEMPT", 1, 1},
	{F_ADAPTIVE_GRAN, "ADAPTIVE_GRAN", 1, 1},
	{F_ASYM_GRAN, "ASYM_GRAN", 1, 1},
	{F_WAKEUP_SYNC, "WAKEUP_SYNC", 0, 1},
	{F_WAKEUP_OVERLAP, "WAKEUP_OVERLAP", 0, 1},
	{F_WAKEUP_RUNNING, "WAKEUP_RUNNING", 0, 1},
	{F_SYNC_WAKEUPS, "SYNC_WAKEUPS", 1, 1},
	{F_AFFINE_WAKEUPS, "AFFINE_WAKEUPS", 1, 1},
	{F_SYNC_LESS, "SYNC_LESS", 1, 1},
	{F_SYNC_MORE, "SYNC_MORE", 0, 1},
	{F_NEXT_BUDDY, "NEXT_BUDDY", 0, 1},
	{F_LAST_BUDDY, "LAST_BUDDY", 1, 1},
	{F_CACHE_HOT_BUDDY, "CACHE_HOT_BUDDY", 1, 1},
	/* x86 arch_scale_freq_power reads APERF/MPERF; the model's CPUs run at one frequency */
	{F_ARCH_POWER, "ARCH_POWER", 0, 0},
	{F_HRTICK, "HRTICK", 0, 1},
	{F_DOUBLE_TICK, "DOUBLE_TICK", 0, 1},
	{F_LB_BIAS, "LB_BIAS", 1, 1},
	/* only with CONFIG_FAIR_GROUP_SCHED */
	{F_LB_SHARES_UPDATE, "LB_SHARES_UPDATE", 1, 0},
	{F_ASYM_EFF_LOAD, "ASYM_EFF_LOAD", 1, 0},
	{F_OWNER_SPIN, "OWNER_SPIN", 1, 1},
};

static void place_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se,
			 int initial)
{
	u64 vruntime = cfs->min_vruntime;

	if (initial && sched_feat(sim, F_START_DEBIT))
		vruntime += sl_sched_vslice(sim, cfs, se);
	if (!initial && sched_feat(sim, F_FAIR_SLEEPERS)) {
		u64 thresh = sim->tun.sched_latency;

		if (sched_feat(sim, F_NORMALIZED_SLEEPER) &&
		    sl_task_of(se)->policy != SL_SCHED_IDLE)
			thresh = sl_calc_delta_fair(thresh, se);
		if (sched_feat(sim, F_GENTLE_FAIR_SLEEPERS))
			thresh >>= 1;
		vruntime -= thresh;
	}
	se->vruntime = max_vruntime(se->vruntime, vruntime);
}

static void set_buddy(struct sched_entity **slot, struct sched_entity *se)
{
	if (sl_task_of(se)->policy != SL_SCHED_IDLE)
		*slot = se;
}

static void check_preempt_wakeup(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				 int wake_flags)
{
	struct sl_task *curr = rq->curr;
	struct sched_entity *se = &curr->se, *pse = &p->se;
	struct cfs_rq *cfs = cfs_rq_of_cpu(rq);
	u64 mc = sim->tun.sched_migration_cost;
	/* computed at the declaration in the kernel, before update_curr */
	int scale = cfs->nr_running >= sim->tun.sched_nr_latency;

	sl_update_curr(sim, cfs);
	if (se == pse)
		return;
	if (sched_feat(sim, F_NEXT_BUDDY) && scale && !(wake_flags & WF_FORK))
		set_buddy(&cfs->next, pse);
	if (rq->need_resched)
		return;
	if (p->policy != SL_SCHED_NORMAL)
		return;
	if (curr->policy == SL_SCHED_IDLE) {
		sl_resched_task(sim, rq);
		return;
	}
	if ((sched_feat(sim, F_WAKEUP_SYNC) && (wake_flags & WF_SYNC)) ||
	    (sched_feat(sim, F_WAKEUP_OVERLAP) && se->avg_overlap < mc && pse->avg_overlap < mc)) {
		sl_resched_task(sim, rq);
		return;
	}
	if (sched_feat(sim, F_WAKEUP_RUNNING) && pse->avg_running < se->avg_running) {
		set_buddy(&cfs->next, pse);
		sl_resched_task(sim, rq);
		return;
	}
	if (!sched_feat(sim, F_WAKEUP_PREEMPT))
		return;
	if (sl_wakeup_preempt_entity(sim, se, pse) == 1) {
		sl_resched_task(sim, rq);
		if (!se->on_rq)
			return;
		if (sched_feat(sim, F_LAST_BUDDY) && scale)
			set_buddy(&cfs->last, se);
	}
}

static struct sched_entity *pick_next_entity(struct sl_sim *sim, struct cfs_rq *cfs)
{
	struct sched_entity *left = sl_cfs_leftmost(cfs), *se = left;

	if (cfs->next && sl_wakeup_preempt_entity(sim, cfs->next, left) < 1)
		se = cfs->next;
	/* checked second, so it overrides next */
	if (cfs->last && sl_wakeup_preempt_entity(sim, cfs->last, left) < 1)
		se = cfs->last;
	sl_clear_buddies(cfs, se);
	return se;
}

static void check_preempt_tick(struct sl_sim *sim, struct sl_cpu *rq, struct cfs_rq *cfs,
			       struct sched_entity *curr)
{
	u64 ideal_runtime = sl_sched_slice(sim, cfs, curr);
	u64 delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;

	if (delta_exec > ideal_runtime) {
		sl_resched_task(sim, rq);
		sl_clear_buddies(cfs, curr);
		return;
	}
	if (!sched_feat(sim, F_WAKEUP_PREEMPT))
		return;
	if (delta_exec < sim->tun.sched_min_granularity)
		return;
	if (cfs->nr_running > 1) {
		struct sched_entity *se = sl_cfs_leftmost(cfs);
		s64 delta = (s64)(curr->vruntime - se->vruntime);

		/* s64 > unsigned long: an unsigned comparison on x86_64 */
		if ((u64)delta > ideal_runtime)
			sl_resched_task(sim, rq);
	}
}

static void task_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct cfs_rq *cfs = cfs_rq_of_cpu(rq);
	struct sched_entity *curr = cfs->curr, *se = &p->se;

	sl_update_curr(sim, cfs);
	if (curr)
		se->vruntime = curr->vruntime;
	place_entity(sim, cfs, se, 1);
	sl_child_runs_first(sim, rq, curr, p);
	sl_cfs_enqueue_task(sim, rq, p, 0);
}

static int wake_affine(struct sl_sim *sim, struct sl_sched_domain *sd, struct sl_task *p,
		       int this_cpu, int sync)
{
	struct sl_task *curr = sim->cpus[this_cpu].curr;
	int prev_cpu = p->cpu, idx = sd->wake_idx;
	u64 mc = sim->tun.sched_migration_cost;
	u64 load = sl_source_load(sim, prev_cpu, idx);
	u64 this_load = sl_target_load(sim, this_cpu, idx);
	u64 imbalance = 100 + (u64)(sd->imbalance_pct - 100) / 2;

	if (!curr) {
		sync = 0;
	} else if (sync && sched_feat(sim, F_SYNC_LESS)) {
		if (curr->se.avg_overlap > mc || p->se.avg_overlap > mc)
			sync = 0;
	} else if (!sync && sched_feat(sim, F_SYNC_MORE)) {
		if (curr->se.avg_overlap < mc && p->se.avg_overlap < mc)
			sync = 1;
	}
	if (sync)
		this_load -= curr->se.load.weight; /* unsigned long arithmetic, may wrap */
	bool balanced = !this_load || 100 * (this_load + p->se.load.weight) <= imbalance * load;

	return sl_wake_affine_verdict(sim, sync, balanced, this_cpu, prev_cpu, idx, this_load,
				      load);
}

static int select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			  int wake_flags)
{
	struct sl_cpu *rq;
	int prev_cpu = p->cpu;

	if (sd_flag & SD_BALANCE_FORK)
		return sl_find_idlest_cpu_fork(sim, p, this_cpu);
	if (this_cpu < 0)
		return prev_cpu;
	rq = &sim->cpus[this_cpu];
	if (!sched_feat(sim, F_AFFINE_WAKEUPS))
		return prev_cpu;
	/* affine_sd: the lowest domain of the waker's CPU with SD_WAKE_AFFINE spanning prev_cpu */
	for (int i = 0; i < rq->nsd; i++) {
		struct sl_sched_domain *sd = &rq->sd[i];

		if (!(sd->flags & SD_WAKE_AFFINE))
			continue;
		if (!sl_sd_spans(sd, prev_cpu))
			continue;
		if (wake_affine(sim, sd, p, this_cpu, wake_flags & WF_SYNC))
			return this_cpu;
		return prev_cpu;
	}
	return prev_cpu;
}

static void put_prev_stats(struct sl_sim *sim, struct sl_task *prev)
{
	u64 runtime = prev->se.sum_exec_runtime - prev->se.prev_sum_exec_runtime;

	sl_update_avg(&prev->se.avg_running, runtime);
	if (prev->state == TS_RUNNING) {
		u64 cap = 2 * sim->tun.sched_migration_cost;

		sl_update_avg(&prev->se.avg_overlap, runtime < cap ? runtime : cap);
	} else {
		sl_update_avg(&prev->se.avg_running, 0);
	}
}

#define SD_COMMON                                                                                  \
	(SD_LOAD_BALANCE | SD_BALANCE_NEWIDLE | SD_BALANCE_FORK | SD_BALANCE_EXEC | SD_WAKE_AFFINE)

static const struct sl_cfs_ops cfs_ops_2_6_32 = {
	/* include/linux/topology.h of 2.6.32: new-idle balancing at every level, all idx 0 but
	   busy/idle */
	.sd =
		{
			[SL_SD_SMT] = {SD_COMMON | SD_SHARE_CPUPOWER, 1, 2, 64, 110, 0, 0, 0, 0, 0,
				       0},
			[SL_SD_MC] = {SD_COMMON | SD_SHARE_PKG_RESOURCES, 1, 4, 64, 125, 1, 2, 0, 0,
				      0, 0},
			[SL_SD_CPU] = {SD_COMMON, 1, 4, 64, 125, 1, 2, 1, 0, 0, 0},
		},
	.power_is_sum = true,
	.hot_buddy_needs_running = true,
	.place_entity = place_entity,
	.check_preempt_wakeup = check_preempt_wakeup,
	.pick_next_entity = pick_next_entity,
	.check_preempt_tick = check_preempt_tick,
	.task_new = task_new,
	.select_task_rq = select_task_rq,
	.put_prev_stats = put_prev_stats,
};

const struct sl_release sl_cfs_2_6_32 = {
	.name = "2.6.32",
	.fair = &sl_cfs_class,
	.init_granularity = sl_init_granularity,
	.ftrace_2_6 = true,
	/* 2.6.32 merged the reworked menu governor (menu-tng) */
	.acpi_idle = true,
	.irq_per_controller = true,
	.idle_governor = "menu-tng",
	.sysctls = SL_SYSCTL_CFS,
	.feats = {feats_2_6_32, (int)SL_ARRAY_SIZE(feats_2_6_32)},
	.defaults =
		{
			.sched_latency = 5000000,
			.sched_min_granularity = 1000000,
			.sched_wakeup_granularity = 1000000,
			.sched_nr_latency = 5,
			.sched_child_runs_first = 0,
			.sched_migration_cost = 500000,
			.sched_shares_ratelimit = 250000,
			.sched_shares_thresh = 4,
			.sched_compat_yield = 0,
			.sched_nr_migrate = 32,
		},
	.class_data = &cfs_ops_2_6_32,
};
