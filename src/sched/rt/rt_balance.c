/*
 * The RT class on several CPUs (kernel/sched_rt.c's SMP part, simplified): where a waking RT
 * task goes, and pushing / pulling queued RT tasks so that the highest-priority RT tasks run
 * wherever lower-priority work runs.
 *
 * A CPU's level (cpupri's idea, as one number where larger means less important work): the
 * kernel prio of its best queued RT task (0..99, the running one included), 100 when it runs
 * fair tasks only, 101 when it is idle. find_lowest_rq takes the CPUs of the largest level
 * that is above (less important than) the task's prio; of those, the task's own CPU if it is
 * one, else the lowest-numbered. Simplifications: every task may run on every CPU (no
 * affinity), no sched_domain walk for the nearest CPU, no RT_PUSH_IPI; a throttled rt_rq keeps
 * its level.
 */
#include "sched/rt/rt.h"
#include "sched/class.h"
#include "sched/common.h"
#include "sched/class.h"

#define LEVEL_FAIR (SL_MAX_RT_PRIO)
#define LEVEL_IDLE (SL_MAX_RT_PRIO + 1)

static int cpu_level(const struct sl_cpu *rq, const struct rt_rq *rt)
{
	if (rt->rt_nr_running)
		return rt->highest_prio;
	return sl_rq_idle(rq) ? LEVEL_IDLE : LEVEL_FAIR;
}

static int find_lowest_rq(struct sl_sim *sim, const struct sl_task *p, int prefer)
{
	const struct rt_rq *rts = rt_rqs(sim);
	const struct sl_cpu *cpus = sim->cpus;
	/* p's mask and priority read once: the scan of every CPU is the class's hottest loop */
	const u64 mask = p->cpus_allowed;
	int best = -1, best_level = p->prio, n = sim->ncpu;

	for (int c = 0; c < n; c++) {
		int l = cpu_level(&cpus[c], &rts[c]);

		if (l > best_level && (!mask || (c < 64 && (mask >> c) & 1))) {
			best = c;
			best_level = l;
		}
	}
	if (best >= 0 && prefer >= 0 && prefer < sim->ncpu && sl_cpu_allowed(p, prefer) &&
	    cpu_level(&sim->cpus[prefer], &rts[prefer]) == best_level)
		best = prefer;
	return best;
}

/*
 * select_task_rq_rt (6.x form, as the task asks): stay on the task's CPU unless an RT task of a
 * higher or equal priority runs there; then the CPU of the lowest-priority work, if any is
 * lower than the task. A fork starts from the parent's CPU (this_cpu). 2.6.31 moved the wakee
 * whenever any RT task ran there and placed a fork on the parent's CPU always.
 */
int sl_rt_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			 int wake_flags)
{
	int cpu = sd_flag == SD_BALANCE_FORK && this_cpu >= 0 ? this_cpu : p->cpu;
	const struct sl_task *curr = sim->cpus[cpu].curr;

	(void)wake_flags;
	if (curr && sl_rt_policy(curr->policy) && curr->prio <= p->prio) {
		int t = find_lowest_rq(sim, p, cpu);

		if (t >= 0)
			cpu = t;
	}
	return cpu;
}

/* the best queued RT task of rq that is not running (pick_next_pushable_task) */
static struct sl_task *best_waiting(struct sl_cpu *rq, struct rt_rq *rt)
{
	struct sl_task *p;

	for (int prio = rt->highest_prio; prio < SL_MAX_RT_PRIO; prio++)
		TAILQ_FOREACH(p, &rt->queue[prio], rt.run_list)
	if (p != rq->curr && !p->on_cpu)
		return p;
	return NULL;
}

static void move_task(struct sl_sim *sim, struct sl_task *p, struct sl_cpu *src, struct sl_cpu *dst)
{
	sl_rt_dequeue(sim, src, p, 0);
	sl_task_move_cpu(sim, p, dst->id);
	sl_rt_enqueue(sim, dst, p, 0);
}

/* push_rt_task: move rq's best waiting RT task to the CPU of the lowest-priority work */
static bool push_one(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct rt_rq *rt = rt_rq_of(sim, rq);

	if (!rt->overloaded)
		return false;
	struct sl_task *next = best_waiting(rq, rt);

	if (!next)
		return false;
	/* it beats what runs here: it runs here, after a reschedule */
	if (!rq->curr || next->prio < sl_task_prio(rq->curr)) {
		sl_resched_cpu(sim, rq);
		return false;
	}
	int cpu = find_lowest_rq(sim, next, -1);

	if (cpu < 0 || cpu == rq->id)
		return false;
	move_task(sim, next, rq, &sim->cpus[cpu]);
	sl_resched_cpu(sim, &sim->cpus[cpu]);
	return true;
}

static void push_rt_tasks(struct sl_sim *sim, struct sl_cpu *rq)
{
	while (push_one(sim, rq))
		;
}

/* pull_rt_task: from every overloaded CPU, the waiting RT task that beats this CPU's best */
static void pull_rt_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct rt_rq *rts = rt_rqs(sim);
	const u64 *mask = rt_root_of(sim)->rto_mask;

	/* the overloaded CPUs in CPU order: a move changes only src's bit (visited) and rq's
	 * (never a source), so each word's bits can be taken at once */
	for (int w = 0; w < (sim->ncpu + 63) / 64; w++)
		for (u64 bits = mask[w]; bits; bits &= bits - 1) {
			int c = w * 64 + __builtin_ctzll(bits);
			struct sl_cpu *src = &sim->cpus[c];

			if (src == rq || !rts[c].overloaded)
				continue;
			struct sl_task *p = best_waiting(src, &rts[c]);

			if (!p || p->prio >= rts[rq->id].highest_prio || !sl_cpu_allowed(p, rq->id))
				continue;
			/* it is about to preempt what runs there: leave it */
			if (!src->curr || p->prio < sl_task_prio(src->curr))
				continue;
			move_task(sim, p, src, rq);
		}
}

/* pre_schedule_rt: prev was RT and this CPU's best RT priority dropped (prev blocked); a
 * throttled CPU could not run what it pulls, so it pulls nothing */
void sl_rt_pre_schedule(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	const struct rt_rq *rt = rt_rq_of(sim, rq);

	if (prev && prev->sched_class == &sl_rt_class && !rt->rt_throttled &&
	    rt->highest_prio > prev->prio)
		pull_rt_task(sim, rq);
}

/* post_schedule_rt: after switching to an RT task, push what else waits here */
void sl_rt_post_schedule(struct sl_sim *sim, struct sl_cpu *rq)
{
	if (rt_rq_of(sim, rq)->overloaded)
		push_rt_tasks(sim, rq);
}

/* task_woken_rt: p was queued without preempting an RT task that beats or ties it */
void sl_rt_task_woken(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	if (p->on_cpu || rq->need_resched || !rt_rq_of(sim, rq)->overloaded || !rq->curr ||
	    rq->curr->sched_class != &sl_rt_class || rq->curr->prio > p->prio)
		return;
	push_rt_tasks(sim, rq);
}
