/*
 * The EEVDF fair class (6.18) behind struct sl_sched_class: enqueue/dequeue with delayed
 * dequeue, pick with protection and the next buddy, wake-up preemption, yield, fork and the
 * tick (docs/model/eevdf.md §4).
 *
 * The machine calls put_prev_task before pick_next_task (the 2.6.3x order). So that a re-pick
 * of the same task behaves as the kernel's "prev == next" (no set_next_entity: protection and
 * prev_sum_exec_runtime not renewed), put_prev remembers the entity it put back (last_put) and
 * pick treats it as curr.
 */
#include "sched/eevdf/eevdf.h"
#include "sched/common.h"

static void eevdf_init_rq(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	sl_eevdf_rq_init(cfs);
	/* newidle counters (NI_RANDOM) start at call 512, success 256, ratio 512 */
	cfs->ni_call = 512;
	cfs->ni_success = 256;
	cfs->ni_ratio = 512;
	/* a machine that ran before the workload: the ratio its history left, the count as if
	 * the last 512 calls had succeeded at that rate */
	if (sim->ni_ratio_start) {
		cfs->ni_ratio = sim->ni_ratio_start;
		cfs->ni_success = sim->ni_ratio_start / 2;
	}
	cfs->avg_idle = 2 * sim->tun.sched_migration_cost;
	cfs->max_newidle_lb_cost = 0;
	cfs->max_idle_balance_cost = sim->tun.sched_migration_cost;
	cfs->last_decay_max_lb_cost = 0;
	cfs->balance_interval = 2;
	cfs->next_balance = 0;
	cfs->last_balance = 0;
	sl_nohz_next_set(sim, rq->id, cfs->next_balance);
	cfs->nr_balance_failed = 0;
	/* sd_llc_shared is allocated zeroed and no domain build sets nr_idle_scan: the scan is
	 * off until the first periodic balance (§5.6) */
	cfs->nr_idle_scan = 0;
}

/* __sched_fork: v and vlag zeroed, slice = base [UNVERIFIED in core.c] */
static void eevdf_init_task(struct sl_sim *sim, struct sl_task *p)
{
	sl_eevdf_set_load_weight(p);
	p->se.vruntime = 0;
	ee_se(&p->se)->vlag = 0;
	ee_se(&p->se)->slice = sim->tun.sched_base_slice;
	p->se.custom_slice = false;
	/* sched_setattr(sched_runtime != 0): a custom slice, clamped, kept across placements */
	if (p->sched_runtime) {
		u64 r = p->sched_runtime;

		ee_se(&p->se)->slice = r < EEVDF_SLICE_MIN   ? EEVDF_SLICE_MIN
				       : r > EEVDF_SLICE_MAX ? EEVDF_SLICE_MAX
							     : r;
		p->se.custom_slice = true;
	}
	p->se.rel_deadline = false;
	p->se.sched_delayed = false;
	ee_se(&p->se)->recent_used_cpu = -1;
	sl_eevdf_pelt_init(&p->se);
}

/* task_fork_fair only sets capacity; no child_runs_first, no vruntime copy. */
static void eevdf_task_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent)
{
	(void)sim;
	if (parent)
		ee_se(&p->se)->recent_used_cpu = parent->cpu;
}

void sl_eevdf_enqueue_entity(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se,
			     int flags)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	bool curr = cfs->curr == se;

	/* curr is placed before update_curr (its own run time must not move V under it) */
	if (curr)
		sl_eevdf_place_entity(sim, cfs, se, flags);
	sl_eevdf_update_curr(sim, rq);
	/* PELT to now with the entity not yet counted; attached if it comes from elsewhere */
	sl_eevdf_pelt_update(sim, rq, se, EE_DO_ATTACH);
	if (!curr)
		sl_eevdf_place_entity(sim, cfs, se, flags);
	cfs->load += se->load.weight;
	cfs->nr_queued++;
	TAILQ_INSERT_HEAD(&cfs->tasks, se, group_node);
	if (!curr)
		sl_eevdf_enqueue_tree(cfs, se);
	se->on_rq = 1;
}

bool sl_eevdf_dequeue_entity(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se,
			     int flags)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	bool sleep = flags & EE_DEQUEUE_SLEEP, finish_delay = flags & EE_DEQUEUE_DELAYED;

	sl_eevdf_update_curr(sim, rq);
	sl_eevdf_clear_buddies(cfs, se);
	/* an ineligible sleeper stays queued and competes until picked or woken */
	if (!finish_delay && sleep && !(flags & EE_DEQUEUE_SPECIAL) &&
	    sched_feat(sim, F_DELAY_DEQUEUE) && !sl_eevdf_entity_eligible(cfs, se)) {
		sl_eevdf_pelt_update(sim, rq, se, 0);
		if (!se->sched_delayed)
			rq->nr_delayed++;
		se->sched_delayed = true;
		return false;
	}
	sl_eevdf_pelt_update(sim, rq, se, (flags & EE_DEQUEUE_MIGRATE) ? EE_DO_DETACH : 0);
	sl_eevdf_update_entity_lag(sim, cfs, se);
	if (sched_feat(sim, F_PLACE_REL_DEADLINE) && !sleep) {
		ee_se(se)->deadline -= se->vruntime;
		se->rel_deadline = true;
	}
	if (se != cfs->curr)
		sl_eevdf_dequeue_tree(cfs, se);
	se->on_rq = 0;
	cfs->nr_queued--;
	cfs->load -= se->load.weight;
	TAILQ_REMOVE(&cfs->tasks, se, group_node);
	if (cfs->last_put == se)
		cfs->last_put = NULL;
	if (finish_delay) {
		if (se->sched_delayed)
			rq->nr_delayed--;
		se->sched_delayed = false;
		if (sched_feat(sim, F_DELAY_ZERO) && ee_se(se)->vlag > 0)
			ee_se(se)->vlag = 0;
	}
	return true;
}

/*
 * Wake-up of a delayed task (ttwu_runnable: same CPU, no migration): DELAY_ZERO drops a
 * positive lag by placing it at V again. No update_curr first (6.18.38's enqueue_task_fair).
 */
static void requeue_delayed_entity(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	if (sched_feat(sim, F_DELAY_ZERO)) {
		sl_eevdf_update_entity_lag(sim, cfs, se);
		if (ee_se(se)->vlag > 0) {
			cfs->nr_queued--;
			if (se != cfs->curr)
				sl_eevdf_dequeue_tree(cfs, se);
			ee_se(se)->vlag = 0;
			sl_eevdf_place_entity(sim, cfs, se, 0);
			if (se != cfs->curr)
				sl_eevdf_enqueue_tree(cfs, se);
			cfs->nr_queued++;
		}
	}
	sl_eevdf_pelt_update(sim, rq, se, 0);
	if (se->sched_delayed)
		rq->nr_delayed--;
	se->sched_delayed = false;
}

/*
 * rq->nr_running counts runnable tasks (the kernel's h_nr_runnable): a delayed task is still
 * queued (nr_queued) but not runnable.
 */
static void eevdf_enqueue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup)
{
	/* a delayed task's wake-up is ENQUEUE_DELAYED: its estimate comes back too */
	sl_eevdf_util_est_enqueue(sim, rq, &p->se);
	/* a delayed task's wake-up is ttwu_runnable's, which leaves avg_idle and idle_stamp:
	 * only ttwu_do_activate (a task not queued) updates them */
	if (p->se.sched_delayed) {
		requeue_delayed_entity(sim, rq, &p->se);
		sl_nr_running_inc(sim, rq);
		return;
	}
	if (wakeup)
		sl_eevdf_update_avg_idle(sim, rq);
	sl_eevdf_enqueue_entity(sim, rq, &p->se, wakeup ? EE_ENQUEUE_WAKEUP : 0);
	sl_nr_running_inc(sim, rq);
}

static void eevdf_dequeue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep)
{
	int flags = sleep ? EE_DEQUEUE_SLEEP : 0;

	/* an exiting task is dequeued for good, not delayed [UNVERIFIED: the kernel's exit
	 * path was not read; a delayed dead task would only leave at its next pick] */
	if (p->state == TS_DEAD)
		flags |= EE_DEQUEUE_SPECIAL;
	/* dequeue_task_fair: the estimate leaves (a delayed task's left already) and is
	 * sampled at a sleep, from util_avg as of the last update */
	if (!p->se.sched_delayed)
		sl_eevdf_util_est_dequeue(sim, rq, &p->se);
	sl_eevdf_util_est_update(sim, &p->se, sleep);
	/* runnable -> delayed or gone: either way one runnable task less */
	sl_eevdf_dequeue_entity(sim, rq, &p->se, flags);
	sl_nr_running_dec(sim, rq);
	/* task_dead_fair: its averages leave the cfs_rq at the next update */
	if (p->state == TS_DEAD)
		sl_eevdf_pelt_remove(sim, rq, &p->se);
}

static void eevdf_wake_up_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			      bool parent_on_rq)
{
	(void)parent_on_rq;
	sl_eevdf_pelt_post_init(sim, rq, &p->se);
	sl_eevdf_util_est_enqueue(sim, rq, &p->se);
	sl_eevdf_enqueue_entity(sim, rq, &p->se, EE_ENQUEUE_INITIAL);
	sl_nr_running_inc(sim, rq);
}

static void hrtick_start(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct sched_entity *se = &p->se;
	s64 delta;

	if (!sched_feat(sim, F_HRTICK) || rq->nr_running <= 1)
		return;
	delta = (s64)(ee_se(se)->slice - (se->sum_exec_runtime - se->prev_sum_exec_runtime));
	if (delta < 0) {
		if (rq->curr == p)
			sl_resched_cpu(sim, rq);
		return;
	}
	if (delta < 10000)
		delta = 10000; /* hrtick_start's floor */
	sl_arm(sim, &rq->hrtick, sim->now + (u64)delta);
}

static void set_next_entity(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se,
			    bool first)
{
	/* the picked entity is no longer anyone's next buddy: left set, a buddy that ran and was
	 * put back runnable would win the next pick again (PICK_BUDDY, or forced), undoing the
	 * wake-up preemption of whoever took the CPU from it */
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	if (first)
		sl_eevdf_clear_buddies(cfs, se);
	if (se->on_rq) {
		sl_eevdf_dequeue_tree(cfs, se);
		sl_eevdf_pelt_update(sim, rq, se, 0);
	}
	if (first)
		sl_eevdf_set_protect_slice(sim, cfs, se);
	se->exec_start = sim->now;
	cfs->curr = se;
	if (first)
		se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

static struct sl_task *eevdf_pick_next_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sched_entity *se, *prev;
	struct sl_task *p;

	/* a newidle balance with a cost: its next step is due now; after it the CPU picks what
	 * is queued, or goes idle without balancing again */
	if (cfs->ni_pending || cfs->ni_tail) {
		int step = sl_eevdf_newidle_resume(sim, rq);

		if (step > 0)
			return NULL; /* the pulled task's switch-in is due at rq->resched */
		if (step < 0 && !cfs->nr_queued)
			goto idle;
	}
again:
	if (!cfs->nr_queued) {
		cfs->last_put = NULL;
		if (sl_eevdf_newidle_balance(sim, rq))
			goto again;
		if (cfs->ni_pending)
			return NULL; /* the balance takes time: rq->resched is armed at its end */
	idle:
		cfs->last_put = NULL;
		/* __schedule clears need_resched once the pick is done */
		sl_set_need_resched(sim, rq, false);
		sl_cancel(sim, &rq->resched);
		return NULL;
	}
	/* prev counts as curr only if it is still the CPU's task (no higher class ran since) */
	prev = cfs->last_put;
	if (prev && rq->curr != sl_task_of(prev))
		prev = NULL;
	se = sl_eevdf_pick_next_entity(sim, cfs, prev);
	if (se->sched_delayed) {
		/* a picked delayed entity leaves for good; pick again */
		sl_eevdf_dequeue_entity(sim, rq, se, EE_DEQUEUE_SLEEP | EE_DEQUEUE_DELAYED);
		goto again;
	}
	set_next_entity(sim, rq, se, se != prev);
	cfs->last_put = NULL;
	/* most recently run first: the balancer takes from the tail */
	TAILQ_REMOVE(&cfs->tasks, se, group_node);
	TAILQ_INSERT_HEAD(&cfs->tasks, se, group_node);
	p = sl_task_of(se);
	hrtick_start(sim, rq, p);
	sl_set_need_resched(sim, rq, false);
	sl_cancel(sim, &rq->resched);
	return p;
}

static void eevdf_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sched_entity *se = &prev->se;

	cfs->last_put = NULL;
	if (se->on_rq) {
		sl_eevdf_update_curr(sim, rq);
		sl_eevdf_enqueue_tree(cfs, se);
		sl_eevdf_pelt_update(sim, rq, se, 0); /* still curr: ran until now */
		cfs->last_put = se;
	}
	cfs->curr = NULL;
}

static void eevdf_task_tick(struct sl_sim *sim, struct sl_cpu *rq, int queued)
{
	if (!ee_rq_of(sim, rq)->curr)
		return;
	sl_eevdf_update_curr(sim, rq);
	sl_eevdf_pelt_update(sim, rq, ee_rq_of(sim, rq)->curr, 0); /* entity_tick */
	/* the hrtick's expiry ends the slice */
	if (queued)
		sl_resched_cpu(sim, rq);
}

/* check_preempt_wakeup_fair: would the pick choose the wakee now? */
static void eevdf_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				     int wake_flags)
{
	struct sl_task *curr = rq->curr;
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sched_entity *se = &p->se, *cse, *pick;
	bool cse_idle, pse_idle, pshort, unprot;

	if (!curr) {
		sl_resched_cpu(sim, rq); /* the idle class yields to anything */
		return;
	}
	if (curr == p)
		return;
	cse = &curr->se;
	if (sched_feat(sim, F_NEXT_BUDDY) && !(wake_flags & WF_FORK) && !se->sched_delayed) {
		cfs->next = se;
		cfs->next_forced = false;
	}
	if (rq->need_resched)
		return;
	if (!sched_feat(sim, F_WAKEUP_PREEMPTION))
		return;
	cse_idle = curr->policy == SL_SCHED_IDLE;
	pse_idle = p->policy == SL_SCHED_IDLE;
	if (cse_idle && !pse_idle) {
		sl_eevdf_cancel_protect_slice(cse);
		sl_resched_cpu(sim, rq);
		return;
	}
	if (cse_idle != pse_idle)
		return;
	if (p->policy != SL_SCHED_NORMAL)
		return; /* a SCHED_BATCH wakee never preempts */
	sl_eevdf_update_curr(sim, rq);
	pshort = sched_feat(sim, F_PREEMPT_SHORT) && ee_se(se)->slice < ee_se(cse)->slice;
	/* the machine's irq_wake_unprotected: the pick without curr's protection, as pshort's */
	unprot = pshort || (wake_flags & WF_UNPROTECTED);
	pick = sl_eevdf_pick_eevdf(sim, cfs, cfs->curr, !unprot);
	/* the machine's wake_skip_delayed: a delayed entity does not stand in the wakee's way */
	if (pick && pick->sched_delayed && (wake_flags & WF_SKIP_DELAYED))
		pick = sl_eevdf_pick_runnable(cfs, !unprot);
	if (pick == se) {
		if (unprot)
			sl_eevdf_cancel_protect_slice(cse);
		sl_resched_cpu(sim, rq);
		return;
	}
	if (pshort && sched_feat(sim, F_RUN_TO_PARITY))
		sl_eevdf_update_protect_slice(cfs, cse);
}

/*
 * The machine's wake_preempt rule (machine.c): the wakee becomes the next buddy, which
 * pick_next_entity takes while it is eligible (PICK_BUDDY), and the current task loses its
 * slice protection and is rescheduled. An ineligible wakee is left to the pick, unless force
 * (wake_preempt_again: the traced kernel lets the bounced waiter of a hand-off run first again
 * whatever its lag after its few microseconds of run): then the pick takes it anyway.
 */
static void eevdf_wakee_first(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, bool force)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	if (!cfs->curr || (!force && !sl_eevdf_entity_eligible(cfs, &p->se)))
		return;
	cfs->next = &p->se;
	cfs->next_forced = force;
	sl_eevdf_cancel_protect_slice(cfs->curr);
	sl_resched_cpu(sim, rq);
}

/* yield_task_fair (6.18.2x form): an eligible yielder jumps to its deadline and asks anew. */
static void eevdf_yield_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sched_entity *curr = cfs->curr;

	if (!curr || cfs->nr_queued == 1)
		return;
	sl_eevdf_clear_buddies(cfs, curr);
	sl_eevdf_update_curr(sim, rq);
	if (sl_eevdf_entity_eligible(cfs, curr)) {
		curr->vruntime = ee_se(curr)->deadline;
		sl_eevdf_update_deadline(sim, cfs, curr);
	}
}

/*
 * A task moving to another CPU (a wake-up there, or a balance's move):
 * - migrate_task_rq_fair: a sleeping task's averages leave its old CPU (a balancer's move
 *   detached it already); it attaches to the new one at its enqueue;
 * - enqueue_entity with ENQUEUE_MIGRATED zeroes exec_start: task_hot never calls a task hot on
 *   a CPU it has not run on yet.
 */
static void eevdf_set_task_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	if (cpu != p->cpu) {
		sl_eevdf_pelt_migrate(sim, p);
		p->se.exec_start = 0;
	}
	sl_task_move_cpu(sim, p, cpu);
}

const struct sl_sched_class sl_eevdf_class = {
	.name = "fair (EEVDF 6.18)",
	.owns = NULL,
	.task_size = sizeof(struct eevdf_entity),
	.rq_size = sizeof(struct eevdf_rq),
	.init_rq = eevdf_init_rq,
	.init_task = eevdf_init_task,
	.task_fork = eevdf_task_fork,
	.wake_up_new = eevdf_wake_up_new,
	.enqueue_task = eevdf_enqueue_task,
	.dequeue_task = eevdf_dequeue_task,
	.pick_next_task = eevdf_pick_next_task,
	.put_prev_task = eevdf_put_prev_task,
	.task_tick = eevdf_task_tick,
	.check_preempt_curr = eevdf_check_preempt_curr,
	.wakee_first = eevdf_wakee_first,
	.yield_task = eevdf_yield_task,
	.update_curr = sl_eevdf_update_curr,
	/* no vruntime renormalisation: lag and relative deadline carry the state */
	.set_task_cpu = eevdf_set_task_cpu,
	.select_task_rq = sl_eevdf_select_task_rq,
	.build_domains = sl_eevdf_build_domains,
	.free_domains = sl_eevdf_free_domains,
	.tick_load = NULL,
	.tick_balance = sl_eevdf_tick_balance,
	.newidle_balance = NULL, /* done inside pick_next_task, as 6.18 does */
	.active_balance = NULL,
	.nohz_stop_tick = sl_eevdf_nohz_stop_tick,
	.idle_scan = sl_eevdf_idle_scan_of,
};
