/*
 * The BFS class (bfs.h; the facts and the function names of sched_bfs.c v0.300-0.304 are in
 * docs/model/bfs.md). Every hook works on the one global queue in sim->class_state; a CPU's
 * rq->nr_running counts the BFS tasks whose task_cpu is that CPU (queued or running), as the
 * machine's fallback placement reads it.
 */
#include "sched/bfs/bfs.h"
#include "sched/class.h"
#include "sched/cfs.h"
#include "sched/rt.h"

#include <stdlib.h>

static u64 rr_interval(const struct sl_sim *sim)
{
	return sim->tun.policy[BFS_TUN_RR_INTERVAL];
}

/* ---- arithmetic ---- */

u64 sl_bfs_prio_ratio(int user_prio)
{
	/* init_prio_ratios: prio_ratios[0] = 100, then prio_ratios[i - 1] * 11 / 10 */
	u64 r = 100;

	for (int i = 1; i <= user_prio && i < BFS_PRIO_RANGE; i++)
		r = r * 11 / 10;
	return r;
}

u64 sl_bfs_deadline_diff(u64 rr_interval_ms, int nice)
{
	/* prio_deadline_diff: prio_ratios[TASK_USER_PRIO(p)] * rr_interval ms, the ratio in
	 * hundredths */
	return sl_bfs_prio_ratio(nice + 20) * rr_interval_ms * (NSEC_PER_MSEC / 100);
}

int sl_bfs_locality(const struct sl_sim *sim, int a, int b)
{
	const struct sl_cpu *x = &sim->cpus[a], *y = &sim->cpus[b];

	if (a == b)
		return 0;
	if (x->socket == y->socket && x->core == y->core)
		return 1; /* SMT siblings */
	if (x->socket == y->socket)
		return 2; /* shared cache (the MC level) */
	return 3;	  /* another package of the same node (the CPU level) */
}

u64 sl_bfs_cache_distance(const struct sl_sim *sim, int task_cpu, int cpu)
{
	const struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	return (u64)grq->locality[task_cpu * grq->ncpu + cpu] * rr_interval(sim) * NSEC_PER_MSEC;
}

u64 sl_bfs_iso_period(const struct sl_sim *sim)
{
	return 5 * sim->hz * (u64)sim->ncpu + 1;
}

/* time_slice_expired: a new slice and a new deadline from now */
static void time_slice_expired(struct sl_sim *sim, struct sl_task *p)
{
	p->bfs.time_slice = (s64)(rr_interval(sim) * 1000);
	p->bfs.deadline = sim->now + sl_bfs_deadline_diff(rr_interval(sim), p->nice);
}

/* check_deadline: less than RESCHED_US left counts as expired */
static void check_deadline(struct sl_sim *sim, struct sl_task *p)
{
	if (p->bfs.time_slice < BFS_RESCHED_US)
		time_slice_expired(sim, p);
}

/* update_cpu_clock's slice part: the time run since the last charge, in whole us */
static void charge_slice(struct sl_sim *sim, struct sl_task *p)
{
	if (sim->now > p->bfs.last_ran)
		p->bfs.time_slice -= (s64)((sim->now - p->bfs.last_ran) / NSEC_PER_USEC);
	p->bfs.last_ran = sim->now;
}

/* effective_prio: ISO runs as NORMAL while the ISO limit is hit */
static int bfs_prio(const struct sl_sim *sim, const struct sl_task *p)
{
	if (p->policy == SL_SCHED_ISO)
		return sl_bfs_grq(sim)->iso_refractory ? BFS_NORMAL_PRIO : BFS_ISO_PRIO;
	if (p->policy == SL_SCHED_IDLE)
		return BFS_IDLE_PRIO;
	return BFS_NORMAL_PRIO;
}

/* ---- the global queue ---- */

static void queue_add(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	p->bfs.prio = bfs_prio(sim, p);
	TAILQ_INSERT_TAIL(&grq->queue[p->bfs.prio - BFS_ISO_PRIO], p, bfs.run_list);
	p->bfs.queued = true;
	grq->nr_queued++;
}

static void queue_del(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	TAILQ_REMOVE(&grq->queue[p->bfs.prio - BFS_ISO_PRIO], p, bfs.run_list);
	p->bfs.queued = false;
	grq->nr_queued--;
}

static void move_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	if (p->se.on_rq && p->cpu != cpu) {
		sim->cpus[p->cpu].nr_running--;
		sim->cpus[cpu].nr_running++;
	}
	sl_task_move_cpu(sim, p, cpu);
}

struct sl_task *sl_bfs_earliest_deadline_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	for (int q = 0; q < BFS_NQUEUES; q++) {
		struct sl_task *p, *edt = NULL;
		u64 earliest = 0;

		TAILQ_FOREACH(p, &grq->queue[q], bfs.run_list)
		{
			if (!sl_cpu_allowed(p, rq->id))
				continue;
			u64 dl = p->bfs.deadline + sl_bfs_cache_distance(sim, p->cpu, rq->id);

			/* an old deadline: the first found in queue (FIFO) order */
			if (dl < sim->now)
				return p;
			/* strictly earlier: of equal ones the first queued wins */
			if (!edt || dl < earliest) {
				edt = p;
				earliest = dl;
			}
		}
		if (edt)
			return edt;
	}
	return NULL;
}

/* an idle CPU p may run on and nobody has kicked yet (the model's reading of cpu_idle_map,
 * docs/model/bfs.md) */
static bool idle_cpu(const struct sl_sim *sim, int c)
{
	return !sim->cpus[c].curr && !sim->cpus[c].need_resched;
}

/* resched_best_idle: the idle CPU closest in cache to p's (lowest locality, then id) */
static int best_idle(const struct sl_sim *sim, const struct sl_task *p)
{
	const struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	int best = -1;

	for (int c = 0; c < sim->ncpu; c++)
		if (sl_cpu_allowed(p, c) && idle_cpu(sim, c) &&
		    (best < 0 || grq->locality[p->cpu * grq->ncpu + c] <
					 grq->locality[p->cpu * grq->ncpu + best]))
			best = c;
	return best;
}

int sl_bfs_preempt_target(struct sl_sim *sim, struct sl_task *p)
{
	int target = best_idle(sim, p), highest_prio = -1;
	s64 latest = 0;

	if (target >= 0)
		return target;
	/* IDLEPRIO tasks never preempt anything */
	if (p->policy == SL_SCHED_IDLE)
		return -1;
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_task *curr = sim->cpus[c].curr;

		/* an RT task (the class above) is never preempted from here */
		if (!sl_cpu_allowed(p, c) || !curr || curr->sched_class != &sl_bfs_class)
			continue;
		if (curr->bfs.prio < highest_prio)
			continue;
		s64 offset = (s64)curr->bfs.deadline - (s64)sl_bfs_cache_distance(sim, p->cpu, c);

		if (curr->bfs.prio > highest_prio || offset > latest) {
			highest_prio = curr->bfs.prio;
			latest = offset;
			target = c;
		}
	}
	if (target < 0 || p->bfs.prio > highest_prio)
		return -1;
	if (p->bfs.prio == highest_prio && !((s64)p->bfs.deadline < latest))
		return -1;
	return target;
}

static void try_preempt(struct sl_sim *sim, struct sl_task *p)
{
	int c = sl_bfs_preempt_target(sim, p);

	if (c >= 0)
		sl_resched_cpu(sim, &sim->cpus[c]);
}

/* ---- ISO accounting (iso_tick / no_iso_tick, from every CPU's tick) ---- */

static void bfs_tick_load(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	const struct sl_task *curr = rq->curr;
	u64 period = sl_bfs_iso_period(sim), iso_cpu = sim->tun.policy[BFS_TUN_ISO_CPU];

	/* a running RT task is accounted as ISO time too */
	if (curr && (sl_rt_policy(curr->policy) ||
		     (curr->policy == SL_SCHED_ISO && !grq->iso_refractory))) {
		if (grq->iso_ticks <= period * 100 - 100) {
			grq->iso_ticks += 100;
			if (grq->iso_ticks > period * iso_cpu)
				grq->iso_refractory = true;
		}
	} else if (grq->iso_ticks) {
		grq->iso_ticks -= grq->iso_ticks / period + 1;
		if (grq->iso_refractory && grq->iso_ticks < period * (iso_cpu * 115 / 128))
			grq->iso_refractory = false;
	}
}

/* ---- the class hooks ---- */

static int bfs_init_sim(struct sl_sim *sim)
{
	struct sl_bfs_grq *grq = calloc(1, sizeof(*grq));

	if (!grq || !(grq->locality = calloc((size_t)sim->ncpu * (size_t)sim->ncpu, sizeof(int)))) {
		free(grq);
		sim->oom = true;
		return -1;
	}
	for (int q = 0; q < BFS_NQUEUES; q++)
		TAILQ_INIT(&grq->queue[q]);
	grq->ncpu = sim->ncpu;
	for (int a = 0; a < sim->ncpu; a++)
		for (int b = 0; b < sim->ncpu; b++)
			grq->locality[a * sim->ncpu + b] = sl_bfs_locality(sim, a, b);
	sim->class_state = grq;
	return 0;
}

static void bfs_exit_sim(struct sl_sim *sim)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	if (grq)
		free(grq->locality);
	free(grq);
	sim->class_state = NULL;
}

static void bfs_update_curr(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *curr = rq->curr;

	if (!curr || curr->sched_class != &sl_bfs_class)
		return;
	u64 delta = sim->now > curr->se.exec_start ? sim->now - curr->se.exec_start : 0;

	curr->se.sum_exec_runtime += delta;
	curr->se.exec_start = sim->now;
}

static void bfs_init_task(struct sl_sim *sim, struct sl_task *p)
{
	/* the nice weight, for what outside the class reads it (a CFS-style report) */
	p->se.load.weight = sl_prio_to_weight[p->nice + 20];
	p->se.load.inv_weight = sl_prio_to_wmult[p->nice + 20];
	p->bfs.time_slice = (s64)(rr_interval(sim) * 1000);
	p->bfs.prio = bfs_prio(sim, p);
}

static void bfs_task_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent)
{
	if (!parent) {
		/* started by the shell, which sleeps in wait(): a fresh slice and deadline */
		time_slice_expired(sim, p);
		return;
	}
	/* sched_fork: the parent's slice is shared with the child, which keeps the parent's
	 * deadline; a parent with too little left is rescheduled and the child starts anew */
	p->bfs.deadline = parent->bfs.deadline;
	if (parent->bfs.time_slice >= BFS_RESCHED_US * 2) {
		parent->bfs.time_slice /= 2;
		p->bfs.time_slice = parent->bfs.time_slice;
	} else {
		parent->bfs.time_slice = 0;
		sl_resched_cpu(sim, &sim->cpus[parent->cpu]);
		time_slice_expired(sim, p);
	}
}

/* activate_task */
static void activate(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	queue_add(sim, p);
	p->se.on_rq = 1;
	rq->nr_running++;
}

static void bfs_wake_up_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			    bool parent_on_rq)
{
	(void)parent_on_rq;
	activate(sim, rq, p);
	/* wake_up_new_task: a fork (no CLONE_VM) by the running parent with no idle CPU for the
	 * child reschedules the parent (child runs first, before an exec); else try_preempt */
	if (p->parent && rq->curr == p->parent && best_idle(sim, p) < 0)
		sl_resched_cpu(sim, rq);
	else
		try_preempt(sim, p);
}

static void bfs_enqueue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup)
{
	activate(sim, rq, p);
	if (wakeup)
		try_preempt(sim, p);
}

static void bfs_dequeue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep)
{
	(void)sleep;
	if (p->on_cpu) {
		bfs_update_curr(sim, rq);
		charge_slice(sim, p);
		check_deadline(sim, p);
	}
	if (p->bfs.queued)
		queue_del(sim, p);
	p->se.on_rq = 0;
	sim->cpus[p->cpu].nr_running--;
}

static struct sl_task *bfs_pick_next_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *p = sl_bfs_earliest_deadline_task(sim, rq);

	if (!p)
		return NULL;
	/* take_task: off the queue, onto this CPU */
	queue_del(sim, p);
	move_cpu(sim, p, rq->id);
	p->se.exec_start = sim->now;
	p->bfs.last_ran = sim->now;
	return p;
}

static void bfs_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	bfs_update_curr(sim, rq);
	prev->se.exec_start = 0;
	if (!prev->se.on_rq)
		return;
	/* return_task: still runnable, back to the tail of its queue */
	charge_slice(sim, prev);
	check_deadline(sim, prev);
	queue_add(sim, prev);
	/* an idle CPU it may run on takes it (the model's choice, docs/model/bfs.md) */
	int c = best_idle(sim, prev);

	if (c >= 0 && c != rq->id)
		sl_resched_cpu(sim, &sim->cpus[c]);
}

static void bfs_task_tick(struct sl_sim *sim, struct sl_cpu *rq, int queued)
{
	struct sl_task *p = rq->curr;

	if (queued)
		return;
	bfs_update_curr(sim, rq);
	charge_slice(sim, p);
	/* an ISO task over the limit goes back as NORMAL: its slice is zeroed */
	if (p->policy == SL_SCHED_ISO && sl_bfs_grq(sim)->iso_refractory)
		p->bfs.time_slice = 0;
	if (p->bfs.time_slice > 0)
		return;
	sl_resched_cpu(sim, rq);
}

static void bfs_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				   int wake_flags)
{
	/* try_preempt runs at the enqueue, over every CPU */
	(void)sim;
	(void)rq;
	(void)p;
	(void)wake_flags;
}

static void bfs_yield_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *p = rq->curr;

	/* sys_sched_yield: the slice is given up, a new deadline is set */
	bfs_update_curr(sim, rq);
	p->bfs.last_ran = sim->now;
	time_slice_expired(sim, p);
}

static int bfs_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			      int wake_flags)
{
	(void)sim;
	(void)wake_flags;
	/* a child starts on its parent's CPU; a wakee keeps its task_cpu (the queue is global,
	 * try_preempt chooses where it runs) */
	return sd_flag & SD_BALANCE_FORK ? this_cpu : p->cpu;
}

const struct sl_sched_class sl_bfs_class = {
	.name = "bfs",
	.init_sim = bfs_init_sim,
	.exit_sim = bfs_exit_sim,
	.init_task = bfs_init_task,
	.task_fork = bfs_task_fork,
	.wake_up_new = bfs_wake_up_new,
	.enqueue_task = bfs_enqueue_task,
	.dequeue_task = bfs_dequeue_task,
	.pick_next_task = bfs_pick_next_task,
	.put_prev_task = bfs_put_prev_task,
	.task_tick = bfs_task_tick,
	.check_preempt_curr = bfs_check_preempt_curr,
	.yield_task = bfs_yield_task,
	.update_curr = bfs_update_curr,
	.set_task_cpu = move_cpu,
	.select_task_rq = bfs_select_task_rq,
	.tick_load = bfs_tick_load,
};
