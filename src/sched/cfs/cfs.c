/*
 * The parts of CFS that 2.6.31 and 2.6.32 share (kernel/sched_fair.c and the CFS-facing parts of
 * kernel/sched.c). The integer arithmetic is the kernel's, rounding included, because slices
 * and vruntimes are compared against hand-computed figures and against real traces.
 */
#include "sched/cfs/cfs.h"
#include "sched/class.h"

#include <limits.h>
#include <stdlib.h>

#define SRR(x, y) (((x) + (1ULL << ((y)-1))) >> (y))

u64 sl_calc_delta_mine(u64 delta_exec, u64 weight, struct sl_load_weight *lw)
{
	u64 tmp;

	/* A runqueue's inverse is zeroed by every load change and recomputed here, cached. */
	if (!lw->inv_weight) {
		if (lw->weight >= WMULT_CONST)
			lw->inv_weight = 1;
		else
			lw->inv_weight = 1 + (WMULT_CONST - lw->weight / 2) / (lw->weight + 1);
	}
	tmp = delta_exec * weight;
	if (tmp > WMULT_CONST)
		tmp = SRR(SRR(tmp, 16) * lw->inv_weight, 16);
	else
		tmp = SRR(tmp * lw->inv_weight, 32);
	return tmp > (u64)LONG_MAX ? (u64)LONG_MAX : tmp;
}

u64 sl_calc_delta_fair(u64 delta, const struct sched_entity *se)
{
	if (se->load.weight != NICE_0_LOAD) {
		struct sl_load_weight lw = se->load;

		delta = sl_calc_delta_mine(delta, NICE_0_LOAD, &lw);
	}
	return delta;
}

void sl_set_load_weight(struct sl_task *p)
{
	if (p->policy == SL_SCHED_IDLE) {
		p->se.load.weight = WEIGHT_IDLEPRIO;
		p->se.load.inv_weight = WMULT_IDLEPRIO;
		return;
	}
	p->se.load.weight = sl_prio_to_weight[p->nice + 20];
	p->se.load.inv_weight = sl_prio_to_wmult[p->nice + 20];
}

/*
 * sched_init_granularity (2.6.31 and 2.6.32 alike): factor = 1 + ilog2(online CPUs); latency and
 * min_granularity are scaled and clamped to 200 ms, wakeup_granularity and shares_ratelimit are
 * scaled without a clamp; migration_cost and sched_nr_latency stay.
 */
void sl_init_granularity(struct sl_tunables *t, int ncpu)
{
	u64 factor = 1 + (u64)sl_ilog2((u64)ncpu);
	const u64 limit = 200000000ULL;

	t->sched_min_granularity *= factor;
	if (t->sched_min_granularity > limit)
		t->sched_min_granularity = limit;
	t->sched_latency *= factor;
	if (t->sched_latency > limit)
		t->sched_latency = limit;
	t->sched_wakeup_granularity *= factor;
	t->sched_shares_ratelimit *= factor;
}

/* ---- the rbtree, keyed by vruntime (equal keys go right) ---- */

static int entity_cmp(struct sched_entity *a, struct sched_entity *b)
{
	s64 d = (s64)(a->vruntime - b->vruntime);

	if (d < 0)
		return -1;
	if (d > 0)
		return 1;
	/* equal keys: the later insertion goes right (FIFO among equals) */
	return a->rb_seq < b->rb_seq ? -1 : (a->rb_seq > b->rb_seq);
}

RB_PROTOTYPE(sl_cfs_tree, sched_entity, run_node, entity_cmp);
RB_GENERATE(sl_cfs_tree, sched_entity, run_node, entity_cmp)

void sl_cfs_rq_init(struct cfs_rq *cfs)
{
	cfs->load.weight = 0;
	cfs->load.inv_weight = 0;
	cfs->nr_running = 0;
	/* as init_cfs_rq: min_vruntime starts at -(1 << 20) so that wrap-around is exercised */
	cfs->min_vruntime = (u64)(-(1LL << 20));
	RB_INIT(&cfs->tasks_timeline);
	cfs->leftmost = NULL;
	TAILQ_INIT(&cfs->tasks);
	cfs->seq = 0;
	cfs->curr = cfs->next = cfs->last = NULL;
	cfs->tg = NULL;
	cfs->shares = cfs->rq_weight = cfs->task_weight = cfs->h_load = 0;
}

/*
 * The kernel's rb_leftmost: kept at each insert and removal, as a walk down the left spine
 * missed the cache at every level with thousands of tasks a run queue (update_curr reads it at
 * every event). -DSL_CFS_CHECK_LEFTMOST compares it with the walk.
 */
struct sched_entity *sl_cfs_leftmost(struct cfs_rq *cfs)
{
#ifdef SL_CFS_CHECK_LEFTMOST
	if (cfs->leftmost != RB_MIN(sl_cfs_tree, &cfs->tasks_timeline))
		abort();
#endif
	return cfs->leftmost;
}

struct sched_entity *sl_cfs_rightmost(struct cfs_rq *cfs)
{
	return RB_MAX(sl_cfs_tree, &cfs->tasks_timeline);
}

static void __enqueue_entity(struct cfs_rq *cfs, struct sched_entity *se)
{
	se->rb_seq = cfs->seq++;
	RB_INSERT(sl_cfs_tree, &cfs->tasks_timeline, se);
	if (!cfs->leftmost || entity_cmp(se, cfs->leftmost) < 0)
		cfs->leftmost = se;
}

static void __dequeue_entity(struct cfs_rq *cfs, struct sched_entity *se)
{
	if (cfs->leftmost == se)
		cfs->leftmost = RB_NEXT(sl_cfs_tree, &cfs->tasks_timeline, se);
	RB_REMOVE(sl_cfs_tree, &cfs->tasks_timeline, se);
}

static void update_min_vruntime(struct cfs_rq *cfs)
{
	u64 vruntime = cfs->min_vruntime;
	struct sched_entity *left = sl_cfs_leftmost(cfs);

	if (cfs->curr)
		vruntime = cfs->curr->vruntime;
	if (left)
		vruntime = cfs->curr ? min_vruntime(vruntime, left->vruntime) : left->vruntime;
	cfs->min_vruntime = max_vruntime(cfs->min_vruntime, vruntime);
}

void sl_update_curr(struct sl_sim *sim, struct cfs_rq *cfs)
{
	struct sched_entity *curr = cfs->curr;
	u64 delta;

	if (!curr)
		return;
	delta = sim->now - curr->exec_start;
	if (!delta)
		return;
	curr->sum_exec_runtime += delta;
	curr->vruntime += sl_calc_delta_fair(delta, curr);
	update_min_vruntime(cfs);
	curr->exec_start = sim->now;
}

/* ---- period and slice ---- */

u64 sl_sched_period(const struct sl_sim *sim, unsigned long nr_running)
{
	if (nr_running > sim->tun.sched_nr_latency)
		return sim->tun.sched_min_granularity * nr_running;
	return sim->tun.sched_latency;
}

/*
 * sched_slice: the period of se's own runqueue, then, walking up the hierarchy, the share of each
 * level (with group scheduling a task's slice is also scaled by its group entity's share of the
 * CPU's root runqueue; without, one level).
 */
u64 sl_sched_slice(const struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	u64 slice = sl_sched_period(sim, cfs->nr_running + !se->on_rq);

	for (;;) {
		struct sl_load_weight lw = cfs->load;

		if (!se->on_rq) {
			/* update_load_add on a copy: weight added, inverse zeroed */
			lw.weight += se->load.weight;
			lw.inv_weight = 0;
		}
		slice = sl_calc_delta_mine(slice, se->load.weight, se->on_rq ? &cfs->load : &lw);
		se = sl_parent_entity(se);
		if (!se)
			break;
		cfs = sl_cfs_rq_of((struct sl_sim *)sim, se);
	}
	return slice;
}

u64 sl_sched_vslice(const struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	return sl_calc_delta_fair(sl_sched_slice(sim, cfs, se), se);
}

/* ---- preemption ---- */

void sl_resched_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	sl_resched_cpu(sim, rq);
}

/* task_new's last step in both releases: with sched_child_runs_first, a child forked on its
 * parent's CPU that was placed after the parent trades vruntimes with it, so it runs first */
void sl_child_runs_first(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *curr,
			 struct sl_task *p)
{
	struct sched_entity *se = &p->se;

	if (sim->tun.sched_child_runs_first && sim->this_cpu == p->cpu && curr &&
	    entity_before(curr, se)) {
		u64 t = curr->vruntime;

		curr->vruntime = se->vruntime;
		se->vruntime = t;
		sl_resched_task(sim, rq);
	}
}

/* wakeup_gran, with ADAPTIVE_GRAN and ASYM_GRAN, the same in both releases */
static u64 wakeup_gran(struct sl_sim *sim, struct sched_entity *curr, struct sched_entity *se)
{
	u64 gran = sim->tun.sched_wakeup_granularity;
	struct cfs_rq *cfs = sl_cfs_rq_of(sim, curr);

	/*
	 * Each flag is read only where its value changes the granularity: a sweep's memo
	 * (docs/sweep.md) copies a run that agrees with an earlier one on the bits that one read,
	 * so a bit read where both values give the same figure splits runs that take one path.
	 */
	if (cfs->curr) {
		u64 this_run = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;
		/* a group's entity never samples avg_wakeup: 0, so no granularity between groups */
		u64 expected = 2 * se->avg_wakeup * sl_cfs_rq_of(sim, se)->nr_running;
		u64 g = this_run < expected ? expected - this_run : 0;
		u64 adaptive = (s64)g < (s64)gran ? g : gran;

		if (adaptive != gran && sched_feat(sim, F_ADAPTIVE_GRAN))
			gran = adaptive;
	}
	/* ASYM_GRAN: scaled by the wakee's weight, else by the current task's */
	u64 by_curr = sl_calc_delta_fair(gran, curr);

	if (se->load.weight == curr->load.weight && se->load.inv_weight == curr->load.inv_weight)
		return by_curr; /* the same figure either way, and no division for it */
	u64 by_se = sl_calc_delta_fair(gran, se);

	return by_se != by_curr && sched_feat(sim, F_ASYM_GRAN) ? by_se : by_curr;
}

int sl_wakeup_preempt_entity(struct sl_sim *sim, struct sched_entity *curr, struct sched_entity *se)
{
	s64 vdiff = (s64)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	if (vdiff > (s64)wakeup_gran(sim, curr, se))
		return 1;
	return 0;
}

void sl_clear_buddies(struct cfs_rq *cfs, struct sched_entity *se)
{
	if (cfs->last == se)
		cfs->last = NULL;
	if (cfs->next == se)
		cfs->next = NULL;
}

void sl_clear_buddies_h(struct sl_sim *sim, struct sched_entity *se)
{
	for (; se; se = sl_parent_entity(se))
		sl_clear_buddies(sl_cfs_rq_of(sim, se), se);
}

/* task_hot (kernel/sched.c): a buddy, or ran within migration_cost, resists migration. */
bool sl_task_hot(struct sl_sim *sim, struct sl_task *p)
{
	struct cfs_rq *cfs = sl_task_cfs_rq(sim, p);

	bool busy = sim->this_cpu < 0 || sim->cpus[sim->this_cpu].nr_running;

	/* the flag last: read only where it decides (see wakeup_gran) */
	if ((&p->se == cfs->next || &p->se == cfs->last) &&
	    (busy || !cfs_ops(sim)->hot_buddy_needs_running) && sched_feat(sim, F_CACHE_HOT_BUDDY))
		return true;
	if (sim->tun.sched_migration_cost == (u64)(unsigned)-1)
		return true;
	if (sim->tun.sched_migration_cost == 0)
		return false;
	return (s64)(sim->now - p->se.exec_start) < (s64)sim->tun.sched_migration_cost;
}

/* ---- HRTICK (both releases): end a slice exactly instead of at the next tick ---- */

static bool hrtick_enabled(struct sl_sim *sim)
{
	/* high-resolution timers are always active in the model */
	return sched_feat(sim, F_HRTICK);
}

void sl_hrtick_start_fair(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct cfs_rq *cfs = sl_task_cfs_rq(sim, p);

	if (!hrtick_enabled(sim) || cfs->nr_running <= 1)
		return;
	u64 slice = sl_sched_slice(sim, cfs, &p->se);
	u64 ran = p->se.sum_exec_runtime - p->se.prev_sum_exec_runtime;
	s64 delta = (s64)(slice - ran);

	if (delta < 0) {
		if (rq->curr == p)
			sl_resched_task(sim, rq);
		return;
	}
	/* pick_next calls this while rq->curr is still prev: the kernel's 10 us floor */
	if (rq->curr != p && delta < 10000)
		delta = 10000;
	sl_arm(sim, &rq->hrtick, sim->now + (u64)delta);
}

static void hrtick_update(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *curr = rq->curr;

	if (!curr || !curr->on_cpu)
		return;
	if (sl_task_cfs_rq(sim, curr)->nr_running < sim->tun.sched_nr_latency)
		sl_hrtick_start_fair(sim, rq, curr);
}

/* ---- enqueue / dequeue ---- */

/* the CPU's load counts the top level's entities only (the group entities under groups) */
static void account_entity_enqueue(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	struct sl_cpu *rq = &sim->cpus[cfs->cpu];

	cfs->load.weight += se->load.weight;
	cfs->load.inv_weight = 0;
	if (!sl_parent_entity(se)) {
		rq->load.weight += se->load.weight;
		rq->load.inv_weight = 0;
	}
	sl_lb_touch(rq);
	cfs->nr_running++;
	se->on_rq = 1;
	if (sl_entity_is_task(se)) {
		cfs->task_weight += se->load.weight;
		TAILQ_INSERT_HEAD(&cfs->tasks, se, group_node);
	}
}

static void account_entity_dequeue(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	struct sl_cpu *rq = &sim->cpus[cfs->cpu];

	/* se is never NULL; the analyzer infers NULL from dequeue_entity's comparison with
	 * cfs->curr, which may be NULL */
	cfs->load.weight -= se->load.weight; // NOLINT(clang-analyzer-core.NullDereference)
	cfs->load.inv_weight = 0;
	if (!sl_parent_entity(se)) {
		rq->load.weight -= se->load.weight;
		rq->load.inv_weight = 0;
	}
	sl_lb_touch(rq);
	cfs->nr_running--;
	se->on_rq = 0;
	if (sl_entity_is_task(se)) {
		cfs->task_weight -= se->load.weight;
		TAILQ_REMOVE(&cfs->tasks, se, group_node);
	}
}

void sl_enqueue_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se, int wakeup)
{
	sl_update_curr(sim, cfs);
	account_entity_enqueue(sim, cfs, se);
	if (wakeup)
		cfs_ops(sim)->place_entity(sim, cfs, se, 0);
	if (se != cfs->curr)
		__enqueue_entity(cfs, se);
}

void sl_dequeue_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	sl_update_curr(sim, cfs);
	sl_clear_buddies_h(sim, se);
	if (se != cfs->curr)
		__dequeue_entity(cfs, se);
	account_entity_dequeue(sim, cfs, se);
	update_min_vruntime(cfs);
}

void sl_cfs_enqueue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup)
{
	struct sched_entity *se = &p->se;

	if (wakeup)
		p->se.start_runtime = p->se.sum_exec_runtime;
	/* enqueue_task_fair: up the hierarchy until an entity already queued; a group entity
	 * queued here is placed as a waking one */
	for (; se; se = sl_parent_entity(se)) {
		if (se->on_rq)
			break;
		sl_enqueue_entity(sim, sl_cfs_rq_of(sim, se), se, wakeup);
		wakeup = 1;
	}
	sl_nr_running_inc(sim, rq);
	hrtick_update(sim, rq);
}

void sl_cfs_dequeue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep)
{
	/* kernel/sched.c dequeue_task: the overlap/wakeup averages, before update_curr */
	if (sleep) {
		if (p->se.last_wakeup) {
			sl_update_avg(&p->se.avg_overlap,
				      p->se.sum_exec_runtime - p->se.last_wakeup);
			p->se.last_wakeup = 0;
		} else {
			sl_update_avg(&p->se.avg_wakeup, sim->tun.sched_wakeup_granularity);
		}
	}
	/* dequeue_task_fair: up the hierarchy while the runqueue left behind is empty */
	for (struct sched_entity *se = &p->se; se; se = sl_parent_entity(se)) {
		struct cfs_rq *cfs = sl_cfs_rq_of(sim, se);

		sl_dequeue_entity(sim, cfs, se);
		if (cfs->load.weight)
			break;
	}
	sl_nr_running_dec(sim, rq);
	hrtick_update(sim, rq);
}

/* ---- pick / put ---- */

static void set_next_entity(struct sl_sim *sim, struct cfs_rq *cfs, struct sched_entity *se)
{
	if (se->on_rq)
		__dequeue_entity(cfs, se);
	se->exec_start = sim->now;
	cfs->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

struct sl_task *sl_cfs_pick_next_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct cfs_rq *cfs = cfs_rq_of_cpu(rq);
	struct sched_entity *se;

	if (!cfs->nr_running)
		return NULL;
	/* down the hierarchy: each level's pick becomes that level's curr */
	do {
		se = cfs_ops(sim)->pick_next_entity(sim, cfs);
		set_next_entity(sim, cfs, se);
		cfs = se->my_q;
	} while (cfs);
	if (hrtick_enabled(sim))
		sl_hrtick_start_fair(sim, rq, sl_task_of(se));
	return sl_task_of(se);
}

void sl_cfs_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	(void)rq;
	cfs_ops(sim)->put_prev_stats(sim, prev);
	for (struct sched_entity *se = &prev->se; se; se = sl_parent_entity(se)) {
		struct cfs_rq *cfs = sl_cfs_rq_of(sim, se);

		if (se->on_rq)
			sl_update_curr(sim, cfs);
		if (se->on_rq)
			__enqueue_entity(cfs, se);
		cfs->curr = NULL;
	}
}

/* ---- the tick ---- */

static void entity_tick(struct sl_sim *sim, struct sl_cpu *rq, struct cfs_rq *cfs,
			struct sched_entity *curr, int queued)
{
	sl_update_curr(sim, cfs);
	/* the hrtick timer's tick ends the slice unconditionally */
	if (queued) {
		sl_resched_task(sim, rq);
		return;
	}
	/* while an hrtick is pending the periodic tick leaves preemption to it (unless DOUBLE_TICK)
	 */
	if (sl_timer_armed(&rq->hrtick) && !sched_feat(sim, F_DOUBLE_TICK))
		return;
	if (cfs->nr_running > 1 || !sched_feat(sim, F_WAKEUP_PREEMPT))
		cfs_ops(sim)->check_preempt_tick(sim, rq, cfs, curr);
}

/* task_tick_fair: entity_tick at every level, the task's first */
void sl_cfs_task_tick(struct sl_sim *sim, struct sl_cpu *rq, int queued)
{
	struct sched_entity *se = cfs_rq_of_cpu(rq)->curr;

	if (!se)
		return;
	while (se->my_q && se->my_q->curr)
		se = se->my_q->curr;
	for (; se; se = sl_parent_entity(se))
		entity_tick(sim, rq, sl_cfs_rq_of(sim, se), se, queued);
}

void sl_cfs_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			       int wake_flags)
{
	/* the idle class is preempted by anything */
	if (!rq->curr) {
		sl_resched_task(sim, rq);
		return;
	}
	cfs_ops(sim)->check_preempt_wakeup(sim, rq, p, wake_flags);
}

/*
 * sched_yield (yield_task_fair, 2.6.31 = 2.6.32): without sched_compat_yield a yield only updates
 * the runtime and reschedules; with it (or for SCHED_BATCH) the task goes behind the rightmost.
 */
void sl_cfs_yield_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct cfs_rq *cfs = rq->curr ? sl_task_cfs_rq(sim, rq->curr) : cfs_rq_of_cpu(rq);
	struct sched_entity *se = cfs->curr, *rightmost;

	if (!se || cfs->nr_running == 1)
		return;
	sl_clear_buddies_h(sim, se);
	if (!sim->tun.sched_compat_yield && sl_task_of(se)->policy != SL_SCHED_BATCH) {
		sl_update_curr(sim, cfs);
		return;
	}
	rightmost = sl_cfs_rightmost(cfs);
	if (!rightmost || entity_before(rightmost, se))
		return;
	se->vruntime = rightmost->vruntime + 1;
}

/* set_task_cpu: vruntime is carried relative to the runqueue's min_vruntime. */
void sl_cfs_set_task_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	struct cfs_rq *old = sl_task_cfs_rq(sim, p),
		      *new = p->se.tg ? &p->se.tg->cfs_rq[cpu] : cfs_rq_of_cpu(&sim->cpus[cpu]);

	p->se.vruntime -= old->min_vruntime - new->min_vruntime;
	sl_task_move_cpu(sim, p, cpu);
}
