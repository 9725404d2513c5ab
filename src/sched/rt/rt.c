/*
 * The real-time class: SCHED_FIFO and SCHED_RR (kernel/sched_rt.c of 2.6.31/2.6.32; the same
 * rules in 6.18's kernel/sched/rt.c, whose names differ: enqueue_task_rt, pick_next_task_rt,
 * wakeup_preempt_rt for check_preempt_curr_rt, ...).
 *
 * - Each CPU has 100 FIFO queues, one per kernel prio (99 - rt_priority), and a bitmap of the
 *   non-empty ones; pick takes the head of the first non-empty queue. The running task stays
 *   at the head of its queue, as in the kernel (rt_nr_running counts it).
 * - A waking or new task of a higher priority (lower prio number) than the running RT task
 *   preempts it at once; any RT wakee preempts a fair or idle CPU (machine.c's class rule).
 * - SCHED_RR: time_slice counts ticks from RR_TIMESLICE = 100 * HZ / 1000; when it runs out
 *   it is refilled and, if another task of the same priority is queued, the task goes to the
 *   tail and the CPU reschedules. SCHED_FIFO runs until it blocks, yields or is preempted.
 * - sched_yield() moves the task to the tail of its queue.
 * - Bandwidth: rt_time accumulates the RT run time of each CPU (update_curr_rt, at every
 *   tick and switch); once it exceeds sched_rt_runtime_us in a sched_rt_period_us period the
 *   CPU's rt_rq is throttled (pick returns nothing, the fair class runs). One period timer for
 *   all CPUs (def_rt_bandwidth) fires on multiples of the period, takes one runtime off every
 *   rt_time and unthrottles an rt_rq whose rt_time fell below the runtime. Simplification:
 *   2.6.3x lent runtime between CPUs (balance_runtime, RT_RUNTIME_SHARE); not modelled, the
 *   limit is per CPU (6.18 has RT_RUNTIME_SHARE off, docs/model/eevdf.md §1). 6.18 reserves the
 *   fair time by a deadline server (fair_server, 50 ms per 1 s per CPU) instead; it is modelled by
 *   the same 950/1000 ms throttling: the fair class gets the same 5%, only where in the period
 *   it runs differs (the server may run it before the RT tasks have used their 950 ms).
 */
#include "sched/rt/rt.h"
#include "sched/common.h"
#include "sched/class.h"

#include <stdlib.h>

void sl_rt_tunables_default(struct sl_tunables *t)
{
	t->sched_rt_period_us = SL_RT_PERIOD_US_DEFAULT;
	t->sched_rt_runtime_us = SL_RT_RUNTIME_US_DEFAULT;
}

unsigned sl_rr_timeslice(const struct sl_sim *sim)
{
	u64 ticks = SL_RR_TIMESLICE_MS * sim->hz / 1000;

	return ticks ? (unsigned)ticks : 1;
}

/* ---- bandwidth ---- */

static bool bandwidth_enabled(const struct sl_sim *sim)
{
	/* rt_bandwidth_enabled(): sysctl_sched_rt_runtime >= 0 (an int) */
	return (s32)(u32)sim->tun.sched_rt_runtime_us >= 0;
}

static u64 rt_period_ns(const struct sl_sim *sim)
{
	return sim->tun.sched_rt_period_us * NSEC_PER_USEC;
}

static u64 rt_runtime_ns(const struct sl_sim *sim)
{
	return (u64)(s32)(u32)sim->tun.sched_rt_runtime_us * NSEC_PER_USEC;
}

static void resched_if_rt_waits(struct sl_sim *sim, struct sl_cpu *rq)
{
	const struct rt_rq *rt = rt_rq_of(sim, rq);

	/* sched_rt_rq_enqueue: resched when the queue's best beats what runs */
	if (rt->rt_nr_running && (!rq->curr || sl_task_prio(rq->curr) > rt->highest_prio))
		sl_resched_cpu(sim, rq);
}

static void period_timer_fn(struct sl_sim *sim, struct sl_timer *t)
{
	u64 runtime = rt_runtime_ns(sim);
	bool idle = true;

	(void)t;
	sim->this_cpu = -1;
	for (int c = 0; c < sim->ncpu; c++) {
		struct rt_rq *rt = rt_rq_of(sim, &sim->cpus[c]);

		if (rt->rt_time) {
			rt->rt_time -= rt->rt_time < runtime ? rt->rt_time : runtime;
			if (rt->rt_throttled && rt->rt_time < runtime) {
				rt->rt_throttled = false;
				resched_if_rt_waits(sim, &sim->cpus[c]);
			}
		}
		if (rt->rt_time || rt->rt_nr_running)
			idle = false;
	}
	sim->rt_period_active = !idle && bandwidth_enabled(sim);
	if (sim->rt_period_active)
		sl_arm(sim, &sim->rt_period_timer,
		       (sim->now / rt_period_ns(sim) + 1) * rt_period_ns(sim));
}

/* start_rt_bandwidth: armed at the first RT enqueue, on the grid of multiples of the period
 * (hrtimer_forward of a timer that started at 0) */
static void start_bandwidth(struct sl_sim *sim)
{
	if (sim->rt_period_active || !bandwidth_enabled(sim))
		return;
	if (!sim->rt_period_timer.fn)
		sl_timer_init(&sim->rt_period_timer, period_timer_fn, -1);
	sim->rt_period_active = true;
	sl_arm(sim, &sim->rt_period_timer, (sim->now / rt_period_ns(sim) + 1) * rt_period_ns(sim));
}

/* sched_rt_runtime_exceeded */
static bool runtime_exceeded(struct sl_sim *sim, struct rt_rq *rt)
{
	if (rt->rt_throttled)
		return true;
	if (rt_runtime_ns(sim) >= rt_period_ns(sim))
		return false;
	if (rt->rt_time > rt_runtime_ns(sim)) {
		rt->rt_throttled = true;
		return true;
	}
	return false;
}

/* update_curr_rt: charge the running RT task, and its CPU's bandwidth */
static void update_curr_rt(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *curr = rq->curr;
	struct rt_rq *rt;

	if (!curr || curr->sched_class != &sl_rt_class)
		return;
	u64 delta = sim->now > curr->se.exec_start ? sim->now - curr->se.exec_start : 0;

	curr->se.sum_exec_runtime += delta;
	curr->se.exec_start = sim->now;
	if (!bandwidth_enabled(sim))
		return;
	start_bandwidth(sim); /* a no-op, unless --at has just turned the limit on */
	rt = rt_rq_of(sim, rq);
	rt->rt_time += delta;
	if (runtime_exceeded(sim, rt))
		sl_resched_cpu(sim, rq);
}

/* ---- the queues ---- */

static int first_prio(const struct rt_rq *rt)
{
	for (int w = 0; w < 2; w++)
		if (rt->bitmap[w])
			return w * 64 + __builtin_ctzll(rt->bitmap[w]);
	return SL_MAX_RT_PRIO;
}

/* rt->overloaded again from its count, and the CPU's bit of the rto_mask with it */
static void update_overload(struct sl_sim *sim, struct sl_cpu *rq, struct rt_rq *rt)
{
	bool o = rt->rt_nr_running > 1;

	if (o == rt->overloaded)
		return;
	rt->overloaded = o;
	rt_root_of(sim)->rto_mask[rq->id / 64] ^= 1ULL << (rq->id % 64);
}

void sl_rt_enqueue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup)
{
	struct rt_rq *rt = rt_rq_of(sim, rq);

	(void)wakeup;
	TAILQ_INSERT_TAIL(&rt->queue[p->prio], p, rt.run_list);
	rt->bitmap[p->prio / 64] |= 1ULL << (p->prio % 64);
	p->rt.on_rq = true;
	p->se.on_rq = 1; /* the machine asks se.on_rq whether a parent is queued */
	rt->rt_nr_running++;
	sl_nr_running_inc(sim, rq);
	if (p->prio < rt->highest_prio)
		rt->highest_prio = p->prio;
	update_overload(sim, rq, rt);
	start_bandwidth(sim);
}

void sl_rt_dequeue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep)
{
	struct rt_rq *rt = rt_rq_of(sim, rq);

	(void)sleep;
	update_curr_rt(sim, rq);
	TAILQ_REMOVE(&rt->queue[p->prio], p, rt.run_list);
	if (TAILQ_EMPTY(&rt->queue[p->prio]))
		rt->bitmap[p->prio / 64] &= ~(1ULL << (p->prio % 64));
	p->rt.on_rq = false;
	p->se.on_rq = 0;
	rt->rt_nr_running--;
	sl_nr_running_dec(sim, rq);
	rt->highest_prio = first_prio(rt);
	update_overload(sim, rq, rt);
}

/* requeue_task_rt: to the tail of its priority's queue */
static void requeue(struct rt_rq *rt, struct sl_task *p)
{
	TAILQ_REMOVE(&rt->queue[p->prio], p, rt.run_list);
	TAILQ_INSERT_TAIL(&rt->queue[p->prio], p, rt.run_list);
}

/* ---- the class hooks ---- */

static bool rt_owns(const struct sl_sim *sim, const struct sl_task *p)
{
	(void)sim;
	return sl_rt_policy(p->policy);
}

static int rt_init_sim(struct sl_sim *sim)
{
	struct rt_root *root = rt_root_of(sim);

	root->rto_mask = calloc((size_t)(sim->ncpu + 63) / 64, sizeof(u64));
	if (!root->rto_mask) {
		sim->oom = true;
		return -1;
	}
	return 0;
}

static void rt_exit_sim(struct sl_sim *sim)
{
	struct rt_root *root = rt_root_of(sim);

	if (root) {
		free(root->rto_mask);
		root->rto_mask = NULL;
	}
}

static void rt_init_rq(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct rt_rq *rt = rt_rq_of(sim, rq);

	for (int i = 0; i < SL_MAX_RT_PRIO; i++)
		TAILQ_INIT(&rt->queue[i]);
	rt->highest_prio = SL_MAX_RT_PRIO;
}

static void rt_init_task(struct sl_sim *sim, struct sl_task *p)
{
	p->prio = sl_task_prio(p);
	p->rt.time_slice = sl_rr_timeslice(sim);
	/* set_load_weight of an RT task (2.6.3x): twice nice -20's weight; the fair class's
	 * wake_affine reads a waker's weight */
	p->se.load.weight = sl_prio_to_weight[0] * 2;
	p->se.load.inv_weight = sl_prio_to_wmult[0] >> 1;
}

static void rt_task_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent)
{
	(void)sim;
	(void)p;
	(void)parent;
}

static void rt_wake_up_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   bool parent_on_rq)
{
	(void)parent_on_rq;
	sl_rt_enqueue(sim, rq, p, 0);
}

static struct sl_task *rt_pick_next_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct rt_rq *rt = rt_rq_of(sim, rq);

	if (!rt->rt_nr_running || rt->rt_throttled)
		return NULL;
	struct sl_task *p = TAILQ_FIRST(&rt->queue[first_prio(rt)]);

	p->se.exec_start = sim->now;
	return p;
}

static void rt_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	update_curr_rt(sim, rq);
	prev->se.exec_start = 0;
}

static void rt_task_tick(struct sl_sim *sim, struct sl_cpu *rq, int queued)
{
	struct sl_task *p = rq->curr;
	struct rt_rq *rt = rt_rq_of(sim, rq);

	update_curr_rt(sim, rq);
	/* only the fair class arms the hrtick; the RR slice is counted in ticks */
	if (queued || p->policy != SL_SCHED_RR)
		return;
	if (--p->rt.time_slice)
		return;
	p->rt.time_slice = sl_rr_timeslice(sim);
	/* requeue only when it is not alone at its priority */
	if (TAILQ_FIRST(&rt->queue[p->prio]) != p || TAILQ_NEXT(p, rt.run_list)) {
		requeue(rt, p);
		sl_resched_cpu(sim, rq);
	}
}

static void rt_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				  int wake_flags)
{
	(void)wake_flags;
	/* a strictly higher priority only: an equal one waits its turn (FIFO) */
	if (!rq->curr || p->prio < rq->curr->prio)
		sl_resched_cpu(sim, rq);
}

static void rt_yield_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	requeue(rt_rq_of(sim, rq), rq->curr);
}

const struct sl_sched_class sl_rt_class = {
	.name = "rt",
	.owns = rt_owns,
	.init_sim = rt_init_sim,
	.exit_sim = rt_exit_sim,
	.slot = SL_RT_SLOT,
	.sim_size = sizeof(struct rt_root),
	.rq_size = sizeof(struct rt_rq),
	.init_rq = rt_init_rq,
	.init_task = rt_init_task,
	.task_fork = rt_task_fork,
	.wake_up_new = rt_wake_up_new,
	.enqueue_task = sl_rt_enqueue,
	.dequeue_task = sl_rt_dequeue,
	.pick_next_task = rt_pick_next_task,
	.put_prev_task = rt_put_prev_task,
	.task_tick = rt_task_tick,
	.check_preempt_curr = rt_check_preempt_curr,
	.yield_task = rt_yield_task,
	.update_curr = update_curr_rt,
	.set_task_cpu = sl_task_move_cpu,
	.select_task_rq = sl_rt_select_task_rq,
	.pre_schedule = sl_rt_pre_schedule,
	.post_schedule = sl_rt_post_schedule,
	.task_woken = sl_rt_task_woken,
};
