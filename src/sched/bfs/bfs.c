/*
 * The BFS class (bfs.h; the facts and the function names of sched_bfs.c v0.304 are in
 * docs/model/bfs.md). Every hook works on the one global queue, the class's machine-wide area
 * (sim_size); a CPU's rq->nr_running counts the BFS tasks whose task_cpu is that CPU (queued or
 * running), as the machine's fallback placement reads it.
 */
#include "sched/bfs/bfs.h"
#include "sched/class.h"
#include "sched/common.h"
#include "sched/prio.h"

#include <stdlib.h>
#ifdef SL_BFS_CHECK_PREEMPT
#include <stdio.h>
#endif

static u64 rr_interval(const struct sl_sim *sim)
{
	return sim->tun.policy[BFS_TUN_RR_INTERVAL];
}

/* ---- arithmetic ---- */

u64 sl_bfs_prio_ratio(int user_prio)
{
	/* sched_init (v0.303-0.304): prio_ratios[0] = 100, then prio_ratios[i - 1] * 11 / 10 */
	u64 r = 100;

	for (int i = 1; i <= user_prio && i < BFS_PRIO_RANGE; i++)
		r = r * 11 / 10;
	return r;
}

/* an int product in the kernel: wraps past INT_MAX as gcc's two's complement code does */
static s32 int_mul(s32 a, s32 b)
{
	return (s32)((u32)a * (u32)b);
}

s32 sl_bfs_deadline_diff(u64 rr_interval_ms, u64 hz, int nice)
{
	/* prio_deadline_diff (v0.303-0.304): (prio_ratios[user_prio] * rr_interval * HZ /
	 * (1000 * 100)) ?: 1, int arithmetic, in jiffies */
	s32 d = int_mul(int_mul((s32)sl_bfs_prio_ratio(nice + 20), (s32)rr_interval_ms), (s32)hz) /
		(1000 * 100);

	return d ? d : 1;
}

s32 sl_bfs_task_timeslice(u64 rr_interval_ms, int nice)
{
	/* task_timeslice (v0.303-0.304): rr_interval * task_prio_ratio(p) / 100 */
	return (s32)(rr_interval_ms * sl_bfs_prio_ratio(nice + 20) / 100);
}

u64 sl_bfs_jiffies(const struct sl_sim *sim)
{
	return sl_jiffies(sim);
}

int sl_bfs_locality(const struct sl_sim *sim, int a, int b)
{
	const struct sl_cpu *x = &sim->cpus[a], *y = &sim->cpus[b];

	/* sched_init_smp (v0.302-0.304): 0 for a CPU sharing an SMT or MC domain (sd->level <=
	 * SD_LV_MC: same package, shared cache), 1 within the node (SD_LV_CPU, SD_LV_NODE); 3
	 * (not in any domain: another node) does not occur in the model */
	if (a == b || x->socket == y->socket)
		return 0;
	return 1;
}

s32 sl_bfs_cache_distance(const struct sl_sim *sim, int task_cpu, int cpu, const struct sl_task *p)
{
	/* cache_distance (v0.303-0.304): rq->cpu_locality[task_cpu] * task_timeslice(p), added as
	 * is to the deadline, a number of jiffies (ms at HZ=1000) */
	return sl_bfs_locality(sim, task_cpu, cpu) *
	       sl_bfs_task_timeslice(rr_interval(sim), p->nice);
}

u64 sl_bfs_iso_period(const struct sl_sim *sim)
{
	return 5 * sim->hz * (u64)sim->ncpu + 1;
}

/* time_slice_expired (v0.304): a new slice and a new deadline from now; SCHED_IDLEPRIO's is
 * further offset by longest_deadline_diff (nice 19's) */
static void time_slice_expired(struct sl_sim *sim, struct sl_task *p)
{
	s64 diff = sl_bfs_deadline_diff(rr_interval(sim), sim->hz, p->nice);

	if (p->policy == SL_SCHED_IDLE)
		diff += sl_bfs_deadline_diff(rr_interval(sim), sim->hz, 19);
	bfs_se(&p->se)->time_slice = (s64)(rr_interval(sim) * 1000);
	bfs_se(&p->se)->deadline = sl_bfs_jiffies(sim) + (u64)diff;
}

/* check_deadline (v0.304): an empty slice (<= 0 us) is refilled with a new deadline */
static void check_deadline(struct sl_sim *sim, struct sl_task *p)
{
	if (bfs_se(&p->se)->time_slice <= 0)
		time_slice_expired(sim, p);
}

/* update_cpu_clock's slice part: the time run since the last charge, in whole us (the
 * kernel's clamp of a bogus difference to half a jiffy or one jiffy is not reproduced:
 * docs/model/bfs.md) */
static void charge_slice(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_bfs_entity *b = bfs_se(&p->se);

	if (sim->now > b->last_ran)
		b->time_slice -= (s64)((sim->now - b->last_ran) / NSEC_PER_USEC);
	b->last_ran = sim->now;
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

/* at the tail of its prio's queue (bfs_queue.c keeps the order) */
static void queue_add(struct sl_sim *sim, struct sl_task *p)
{
	bfs_se(&p->se)->prio = (short)bfs_prio(sim, p);
	sl_bfs_queue_add(sim, p);
	bfs_se(&p->se)->queued = true;
	sl_bfs_grq(sim)->nr_queued++;
}

static void queue_del(struct sl_sim *sim, struct sl_task *p)
{
	sl_bfs_queue_del(sim, p);
	bfs_se(&p->se)->queued = false;
	sl_bfs_grq(sim)->nr_queued--;
}

static void move_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	sl_bfs_queue_move(sim, p, cpu);
	if (p->se.on_rq && p->cpu != cpu) {
		sim->cpus[p->cpu].nr_running--;
		sim->cpus[cpu].nr_running++;
	}
	sl_task_move_cpu(sim, p, cpu);
}

/* an idle CPU nobody has kicked yet (the model's reading of cpu_idle_map, docs/model/bfs.md) */
static bool idle_cpu(const struct sl_sim *sim, int c)
{
	return !sim->cpus[c].curr && !sim->cpus[c].need_resched;
}

/*
 * The idle CPUs are sim->free_bits (set exactly when idle_cpu() holds, sched.h): a mask names
 * CPUs below 64 only (sl_cpu_allowed), so a task with one looks at the first word alone.
 */
static u64 free_word(const struct sl_sim *sim, const struct sl_task *p, int w)
{
	if (!p->cpus_allowed)
		return sim->free_bits[w];
	return w ? 0 : sim->free_bits[0] & p->cpus_allowed;
}

/* suitable_idle_cpus: an idle CPU p may run on */
static bool suitable_idle_cpus(const struct sl_sim *sim, const struct sl_task *p)
{
	return p->cpus_allowed ? free_word(sim, p, 0) != 0 : sim->nr_free > 0;
}

/* the idle CPU closest in cache to p's (lowest locality, then id): the model's choice for a
 * task put back while a CPU is idle */
static int best_idle(const struct sl_sim *sim, const struct sl_task *p)
{
	int best = -1;

	for (int w = 0; w < sim->lvl_words; w++) {
		for (u64 x = free_word(sim, p, w); x; x &= x - 1) {
			int c = w * 64 + __builtin_ctzll(x);
			int l = sl_bfs_locality(sim, p->cpu, c);

			if (!l)
				return c; /* the least locality: no later CPU comes before it */
			if (best < 0 || l < sl_bfs_locality(sim, p->cpu, best))
				best = c;
		}
	}
	return best;
}

/* the kernel prio of what a CPU runs (rq->rq_prio); an idle CPU scores PRIO_LIMIT */
#define BFS_PRIO_LIMIT (BFS_IDLE_PRIO + 1)

static int rq_prio(const struct sl_sim *sim, int c)
{
	const struct sl_task *curr = sim->cpus[c].curr;

	if (!curr)
		return BFS_PRIO_LIMIT;
	if (curr->sched_class == &sl_bfs_class)
		return bfs_se(&curr->se)->prio;
	return curr->prio; /* the RT class above: 0..99 */
}

/*
 * try_preempt's walk when no CPU p may use is idle (an idle CPU is then a kicked one, which no
 * longer counts: the model's choice): every allowed CPU scored by the prio of what it runs and,
 * among equals, by its task's deadline minus the cache distance from p's CPU; the worst prio
 * and then the latest offset deadline, p's own CPU on ties, else the first. Over p's mask's
 * CPUs, or every CPU with all set (the check of the trees, SL_BFS_CHECK_PREEMPT).
 */
static int walk_latest(const struct sl_sim *sim, const struct sl_task *p, s64 ts, bool all,
		       int *prio_out, s64 *latest_out)
{
	int target = -1, highest_prio = -1;
	s64 latest = 0;
	/* a mask names CPUs below 64 only (sl_cpu_allowed) */
	int n = all || sim->ncpu < 64 ? sim->ncpu : 64;

	for (int c = 0; c < n; c++) {
		const struct sl_task *curr = sim->cpus[c].curr;
		int prio = rq_prio(sim, c);

		if (!sl_cpu_allowed(p, c) || !curr || prio < highest_prio)
			continue;
		s64 offset = -sl_bfs_locality(sim, p->cpu, c) * ts;

		if (curr->sched_class == &sl_bfs_class)
			offset += (s64)bfs_se(&curr->se)->deadline;
		if (prio > highest_prio || offset > latest || (offset == latest && c == p->cpu)) {
			highest_prio = prio;
			latest = offset;
			target = c;
		}
	}
	*prio_out = highest_prio;
	*latest_out = latest;
	return target;
}

/* p preempts what target runs (prio, offset deadline latest) unless its prio is worse, or equal
 * with p SCHED_NORMAL and its deadline not earlier: an equal-prio wakee of another policy
 * (BATCH, ISO, IDLEPRIO, or ISO demoted to NORMAL) always preempts */
static int preempts(const struct sl_task *p, int target, int prio, s64 latest)
{
	if (target < 0 || bfs_se(&p->se)->prio > prio)
		return -1;
	if (bfs_se(&p->se)->prio == prio && p->policy == SL_SCHED_NORMAL &&
	    !((s64)bfs_se(&p->se)->deadline < latest))
		return -1;
	return target;
}

int sl_bfs_preempt_target(struct sl_sim *sim, struct sl_task *p)
{
	/*
	 * try_preempt (v0.304, SMP): every allowed CPU is scored by the prio of what it runs
	 * (an idle one as PRIO_LIMIT, below any task) and, among equals, by its task's deadline
	 * minus the cache distance from p's CPU (for an idle one minus the distance alone: the
	 * closest idle CPU); the worst prio and then the latest offset deadline is the target,
	 * p's own CPU on ties, at once if it is idle.
	 */
	int target, prio = 0;
	s64 latest = 0;
	/* p's cache distance from another socket: the same for every CPU of the scan */
	s64 ts = sl_bfs_timeslice(sim, p->nice);

	/* the walk returns p's own CPU when it reaches it idle, whatever came before */
	if (sl_cpu_allowed(p, p->cpu) && rq_prio(sim, p->cpu) == BFS_PRIO_LIMIT &&
	    idle_cpu(sim, p->cpu))
		return p->cpu;
	/* an idle CPU scores above any busy one, and among idle ones the walk keeps the first
	 * at the least distance: best_idle's choice (p's own CPU is not idle here) */
	int idle = best_idle(sim, p);

	if (idle >= 0)
		return idle;
	/* none idle: a mask names at most 64 CPUs, walked; else the trees of the CPUs running
	 * BFS tasks give the walk's answer (bfs_running.c: a CPU running an RT task is never
	 * preempted, so -1 there is the walk's verdict too) */
	if (p->cpus_allowed)
		target = walk_latest(sim, p, ts, false, &prio, &latest);
	else
		target = sl_bfs_running_latest(sim, p, ts, &prio, &latest);
	target = preempts(p, target, prio, latest);
#ifdef SL_BFS_CHECK_PREEMPT
	{
		int wprio;
		s64 wlatest;
		int w = walk_latest(sim, p, ts, true, &wprio, &wlatest);

		if (preempts(p, w, wprio, wlatest) != target) {
			fprintf(stderr, "bfs: try_preempt of pid %d: trees %d, walk %d\n", p->pid,
				target, preempts(p, w, wprio, wlatest));
			abort();
		}
	}
#endif
	return target;
}

static void try_preempt(struct sl_sim *sim, struct sl_task *p)
{
	int c = sl_bfs_preempt_target(sim, p);

	if (c >= 0)
		sl_resched_cpu(sim, &sim->cpus[c]);
}

/* ---- ISO accounting (task_running_tick / no_iso_tick of v0.304, from every CPU's tick) ---- */

/*
 * ISO_PERIOD is 5 * HZ * num_online_cpus() + 1, an unsigned int (num_online_cpus() is
 * cpumask_weight's unsigned int): the int iso_ticks meets it in unsigned 32-bit arithmetic.
 */
static u32 iso_period(const struct sl_sim *sim)
{
	return (u32)sl_bfs_iso_period(sim);
}

/* the refractory flag is cleared below iso_cpu * 90 / 100 percent: 10% hysteresis */
static bool iso_below_hysteresis(const struct sl_sim *sim, const struct sl_bfs_grq *grq)
{
	u32 iso_cpu = (u32)sim->tun.policy[BFS_TUN_ISO_CPU];

	return (u32)grq->iso_ticks / iso_period(sim) < iso_cpu * 90 / 100;
}

/* no_iso_tick (v0.304): iso_ticks * (ISO_PERIOD - 1) / ISO_PERIOD in unsigned int, which wraps
 * once iso_ticks * (ISO_PERIOD - 1) reaches 2^32 (0.311 replaced it with iso_ticks -=
 * iso_ticks / ISO_PERIOD + 1, "integer overflow ... which breaks iso throttling") */
static void no_iso_tick(struct sl_sim *sim, struct sl_bfs_grq *grq)
{
	u32 period = iso_period(sim);

	if (!grq->iso_ticks)
		return;
	grq->iso_ticks = (s32)((u32)grq->iso_ticks * (period - 1) / period);
	if (grq->iso_refractory && iso_below_hysteresis(sim, grq))
		grq->iso_refractory = false;
}

static void bfs_tick_load(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	const struct sl_task *curr = rq->curr;
	u32 period = iso_period(sim), iso_cpu = (u32)sim->tun.policy[BFS_TUN_ISO_CPU];

	/* scheduler_tick: an idle CPU's tick decays */
	if (!curr) {
		no_iso_tick(sim, grq);
		return;
	}
	/* iso_tick: a running ISO task (not refractory) or RT task adds 100, up to a period's */
	if (sl_rt_policy(curr->policy) || (curr->policy == SL_SCHED_ISO && !grq->iso_refractory)) {
		if ((u32)grq->iso_ticks <= period * 100 - 100)
			grq->iso_ticks += 100;
	} else {
		no_iso_tick(sim, grq);
	}
	/* test_ret_isorefractory, only on the tick of a CPU running a SCHED_ISO task: set once
	 * iso_ticks / ISO_PERIOD > iso_cpu, cleared below the hysteresis */
	if (curr->policy == SL_SCHED_ISO) {
		if (!grq->iso_refractory) {
			if ((u32)grq->iso_ticks / period > iso_cpu)
				grq->iso_refractory = true;
		} else if (iso_below_hysteresis(sim, grq)) {
			grq->iso_refractory = false;
		}
	}
}

/* ---- the class hooks ---- */

/* the global run queue is the class's area (sim_size), zeroed by the core; what init_sim
 * allocates in it exit_sim frees, also after a failed init_sim (the machine calls it then) */
static int bfs_init_sim(struct sl_sim *sim)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	/* the idle CPUs' bitmap (sched.h), kept only under BFS, which reads it */
	sim->free_bits = calloc((size_t)sim->lvl_words, sizeof(u64));
	if (!sim->free_bits || sl_bfs_queue_init(sim, grq) || sl_bfs_running_init(sim, grq)) {
		sim->oom = true;
		return -1;
	}
	for (int c = 0; c < sim->ncpu; c++)
		sl_cpu_free_update(sim, &sim->cpus[c]);
	grq->ncpu = sim->ncpu;
	return 0;
}

static void bfs_exit_sim(struct sl_sim *sim)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	if (grq) {
		sl_bfs_queue_free(grq);
		sl_bfs_running_free(grq);
	}
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
	bfs_se(&p->se)->time_slice = (s64)(rr_interval(sim) * 1000);
	bfs_se(&p->se)->prio = bfs_prio(sim, p);
}

static void bfs_task_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent)
{
	if (!parent) {
		/* started by the shell, which sleeps in wait(): a fresh slice and deadline */
		time_slice_expired(sim, p);
		return;
	}
	/* sched_fork (v0.304): a parent with slice left halves it (int division) and the child
	 * gets the same; with none left the child gets what the parent has (<= 0, so it
	 * reschedules at its first tick). The child keeps the parent's deadline (the task struct
	 * is copied). The running parent's slice is as its last tick left it (rq_time_slice). */
	bfs_se(&p->se)->deadline = bfs_se(&parent->se)->deadline;
	if (bfs_se(&parent->se)->time_slice > 0)
		bfs_se(&parent->se)->time_slice /= 2;
	bfs_se(&p->se)->time_slice = bfs_se(&parent->se)->time_slice;
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
	if (p->parent && rq->curr == p->parent && !suitable_idle_cpus(sim, p))
		sl_resched_cpu(sim, rq);
	else
		try_preempt(sim, p);
}

static void bfs_enqueue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup)
{
	activate(sim, rq, p);
	/* try_to_wake_up (v0.302-0.304): a sync wake-up (the waker is about to sleep) preempts
	 * nothing unless an idle CPU suits the wakee */
	if (wakeup && (!(sim->wake_flags & WF_SYNC) || suitable_idle_cpus(sim, p)))
		try_preempt(sim, p);
}

static void bfs_dequeue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep)
{
	(void)sleep;
	if (p->on_cpu) {
		bfs_update_curr(sim, rq);
		charge_slice(sim, p);
		/* only in schedule(), whose put_prev_task takes rq out of the running trees before
		 * anything reads them: the new deadline is not written there */
		check_deadline(sim, p);
	}
	if (bfs_se(&p->se)->queued)
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
	bfs_se(&p->se)->last_ran = sim->now;
	/* a BFS task becomes rq's curr only from here (the RT class picks before this one) */
	sl_bfs_running_set(sim, rq->id, p);
	return p;
}

static void bfs_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	/* and stops being it only after here */
	sl_bfs_running_set(sim, rq->id, NULL);
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
	/* task_running_tick: an ISO task still running at ISO_PRIO when the limit is hit goes
	 * back as NORMAL: its slice is zeroed */
	if (p->policy == SL_SCHED_ISO && sl_bfs_grq(sim)->iso_refractory &&
	    bfs_se(&p->se)->prio == BFS_ISO_PRIO)
		bfs_se(&p->se)->time_slice = 0;
	if (bfs_se(&p->se)->time_slice > 0)
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
	struct sl_bfs_entity *b = bfs_se(&p->se);

	/* sys_sched_yield (v0.304): rq_time_slice = 0, so schedule()'s check_deadline gives a
	 * new slice and deadline (0.302-0.303 expired the task struct's copy, which schedule()
	 * then overwrote with the rq's: the fix of 0.304) */
	bfs_update_curr(sim, rq);
	b->last_ran = sim->now;
	time_slice_expired(sim, p);
	sl_bfs_running_set(sim, rq->id, p);
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
	.task_size = sizeof(struct sl_bfs_entity),
	.sim_size = sizeof(struct sl_bfs_grq),
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
