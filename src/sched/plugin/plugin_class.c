/*
 * The adapter between the machine's scheduler-class hooks (class.h) and a policy plug-in's
 * callbacks (include/schedlab/policy.h). The adapter does what every class must do for the
 * machine and what a policy should not have to: the run-time accounting (sum_exec_runtime,
 * exec_start), the runqueue's nr_running and on_rq, a task's move to the CPU that picked it,
 * the wake-up of an idle CPU, and the policy's per-task and per-CPU areas. The policy keeps its
 * queues; the adapter checks what it is handed back and fails the run, naming the policy and the
 * callback, when a task it returns cannot run there.
 */
#include "sched/plugin/plugin.h"
#include "sched/class.h"
#include "sched/common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the policy's per-task areas come in chunks of this many, in pid order (as the tasks do) */
#define PLUGIN_TASK_CHUNK 512

#define POL(sim) (sl_plugin_of(sim)->pol)
#define S(sim)	 ((struct schedlab_sched *)(void *)(sim))
#define T(p)	 ((struct schedlab_task *)(void *)(p))

void sl_plugin_fail(struct sl_sim *sim, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (sim->error[0])
		return; /* the first failure is the one to name */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(sim->error, sizeof(sim->error), "policy %s (%s): %s", POL(sim)->name,
		 sl_plugin_of(sim)->path, msg);
}

void *sl_plugin_task_area(const struct sl_sim *sim, const struct sl_task *p)
{
	const struct sl_plugin_state *st = sl_plugin_state(sim);
	size_t size = POL(sim)->task_size;
	int i = p->pid - 1;

	if (!size || !st || p->sched_class != &sl_plugin_class ||
	    i / PLUGIN_TASK_CHUNK >= st->nchunks || !st->task_chunks[i / PLUGIN_TASK_CHUNK])
		return NULL;
	return st->task_chunks[i / PLUGIN_TASK_CHUNK] + (size_t)(i % PLUGIN_TASK_CHUNK) * size;
}

/* ---- accounting ---- */

static void plugin_update_curr(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_task *curr = rq->curr;

	if (!curr || curr->sched_class != &sl_plugin_class)
		return;
	u64 delta = sim->now > curr->se.exec_start ? sim->now - curr->se.exec_start : 0;

	curr->se.sum_exec_runtime += delta;
	curr->se.exec_start = sim->now;
	if (delta && POL(sim)->update_curr)
		POL(sim)->update_curr(S(sim), rq->id, T(curr), delta);
}

/* ---- the machine-wide and per-task areas ---- */

static int plugin_init_sim(struct sl_sim *sim)
{
	const struct schedlab_policy *pol = POL(sim);
	struct sl_plugin_state *st = calloc(1, sizeof(*st));

	if (!st) {
		sim->oom = true;
		return -1;
	}
	sim->class_state = st;
	if ((pol->global_size && !(st->global = calloc(1, pol->global_size))) ||
	    (pol->cpu_size && !(st->cpus = calloc((size_t)sim->ncpu, pol->cpu_size)))) {
		sim->oom = true;
		return -1;
	}
	/* a refusal fails the run at its first event, with this message (a failed init_sim
	 * would be reported as out of memory) */
	if (pol->init && pol->init(S(sim)))
		sl_plugin_fail(sim, "init refused this machine (%d CPUs)", sim->ncpu);
	return 0;
}

static void plugin_exit_sim(struct sl_sim *sim)
{
	struct sl_plugin_state *st = sl_plugin_state(sim);

	if (!st)
		return;
	for (int k = 0; k < st->nchunks; k++)
		free(st->task_chunks[k]);
	free(st->task_chunks);
	free(st->cpus);
	free(st->global);
	free(st);
	sim->class_state = NULL;
}

static void plugin_init_task(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_plugin_state *st = sl_plugin_state(sim);
	size_t size = POL(sim)->task_size;
	int k = (p->pid - 1) / PLUGIN_TASK_CHUNK;

	/* the nice weight, for what outside the class reads it (reports, the fallback placement) */
	p->se.load.weight = sl_prio_to_weight[p->nice + 20];
	p->se.load.inv_weight = sl_prio_to_wmult[p->nice + 20];
	if (!size)
		return;
	/* tasks come in pid order: a new chunk when the first task of one arrives */
	if (k >= st->nchunks) {
		char **a = realloc(st->task_chunks, sizeof(*a) * (size_t)(k + 1));

		if (!a) {
			sim->oom = true;
			return;
		}
		st->task_chunks = a;
		while (st->nchunks <= k)
			st->task_chunks[st->nchunks++] = NULL;
	}
	if (!st->task_chunks[k] && !(st->task_chunks[k] = calloc(PLUGIN_TASK_CHUNK, size)))
		sim->oom = true;
}

/* p has the area its policy asked for (not: out of memory at init_task; the run fails at its
 * next event, and the policy never sees p) */
static bool area_ok(const struct sl_sim *sim, const struct sl_task *p)
{
	return !POL(sim)->task_size || sl_plugin_task_area(sim, p);
}

static void plugin_task_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent)
{
	if (POL(sim)->task_fork && area_ok(sim, p))
		POL(sim)->task_fork(S(sim), T(p),
				    parent && parent->sched_class == &sl_plugin_class ? T(parent)
										      : NULL);
}

/* ---- the queue ---- */

static void enqueue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, unsigned flags)
{
	p->se.on_rq = 1;
	sl_nr_running_inc(sim, rq);
	if (area_ok(sim, p))
		POL(sim)->enqueue(S(sim), rq->id, T(p), flags);
}

static void plugin_wake_up_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			       bool parent_on_rq)
{
	(void)parent_on_rq;
	enqueue(sim, rq, p, SCHEDLAB_ENQ_NEW);
}

static void plugin_enqueue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				int wakeup)
{
	enqueue(sim, rq, p, wakeup ? SCHEDLAB_ENQ_WAKEUP : 0);
}

static void plugin_dequeue_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep)
{
	unsigned flags = sleep ? SCHEDLAB_DEQ_SLEEP : 0;

	if (p->on_cpu) {
		plugin_update_curr(sim, &sim->cpus[p->cpu]);
		flags |= SCHEDLAB_DEQ_RUNNING;
	}
	(void)rq;
	POL(sim)->dequeue(S(sim), p->cpu, T(p), flags);
	p->se.on_rq = 0;
	sl_nr_running_dec(sim, &sim->cpus[p->cpu]);
}

/* p, runnable on another CPU, now belongs to cpu (a global queue's pick, host->migrate) */
static void move_queued(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	if (p->cpu == cpu)
		return;
	sl_nr_running_dec(sim, &sim->cpus[p->cpu]);
	sl_task_move_cpu(sim, p, cpu);
	sl_nr_running_inc(sim, &sim->cpus[cpu]);
}

static struct sl_task *plugin_pick_next_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct schedlab_task *t = POL(sim)->pick_next(S(sim), rq->id);
	struct sl_task *p = (struct sl_task *)(void *)t;

	if (!p)
		return NULL;
	if (p->sched_class != &sl_plugin_class || !p->se.on_rq || p->state != TS_RUNNING) {
		sl_plugin_fail(sim, "pick_next(cpu %d) returned pid %d, which is not runnable",
			       rq->id, p->pid);
		return NULL;
	}
	if (p->on_cpu && p->cpu != rq->id) {
		sl_plugin_fail(sim, "pick_next(cpu %d) returned pid %d, running on CPU %d", rq->id,
			       p->pid, p->cpu);
		return NULL;
	}
	if (!sl_cpu_allowed(p, rq->id)) {
		sl_plugin_fail(sim, "pick_next(cpu %d) returned pid %d, whose affinity excludes it",
			       rq->id, p->pid);
		return NULL;
	}
	move_queued(sim, p, rq->id);
	p->se.exec_start = sim->now;
	return p;
}

static void plugin_put_prev_task(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev)
{
	plugin_update_curr(sim, rq);
	prev->se.exec_start = 0;
	POL(sim)->put_prev(S(sim), rq->id, T(prev), prev->se.on_rq != 0);
}

static void plugin_task_tick(struct sl_sim *sim, struct sl_cpu *rq, int queued)
{
	if (queued)
		return; /* no hrtick: the policy has the periodic tick only */
	plugin_update_curr(sim, rq);
	if (POL(sim)->task_tick)
		POL(sim)->task_tick(S(sim), rq->id, T(rq->curr));
}

static void plugin_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				      int wake_flags)
{
	(void)wake_flags;
	if (!rq->curr) {
		sl_resched_cpu(sim, rq); /* the idle task is preempted by anything */
		return;
	}
	if (!POL(sim)->check_preempt)
		return;
	plugin_update_curr(sim, rq);
	if (POL(sim)->check_preempt(S(sim), rq->id, T(rq->curr), T(p)))
		sl_resched_cpu(sim, rq);
}

static void plugin_yield_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	plugin_update_curr(sim, rq);
	if (POL(sim)->yield)
		POL(sim)->yield(S(sim), rq->id, T(rq->curr));
}

static void plugin_set_task_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	if (p->se.on_rq)
		move_queued(sim, p, cpu);
	else
		sl_task_move_cpu(sim, p, cpu);
}

static int plugin_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu,
				 unsigned sd_flag, int wake_flags)
{
	bool fork = sd_flag & SD_BALANCE_FORK;
	int def = fork ? (this_cpu >= 0 ? this_cpu : 0) : p->cpu;

	(void)wake_flags;
	if (!POL(sim)->select_cpu)
		return def;
	int cpu = POL(sim)->select_cpu(S(sim), T(p), this_cpu,
				       fork ? SCHEDLAB_SELECT_FORK : SCHEDLAB_SELECT_WAKE);

	if (cpu < 0 || cpu >= sim->ncpu) {
		sl_plugin_fail(sim, "select_cpu(pid %d) returned CPU %d of a machine of %d", p->pid,
			       cpu, sim->ncpu);
		return def;
	}
	return cpu;
}

static void plugin_tick_balance(struct sl_sim *sim, struct sl_cpu *rq)
{
	if (POL(sim)->balance)
		POL(sim)->balance(S(sim), rq->id, SCHEDLAB_BALANCE_TICK);
}

static void plugin_newidle_balance(struct sl_sim *sim, struct sl_cpu *rq)
{
	if (POL(sim)->balance)
		POL(sim)->balance(S(sim), rq->id, SCHEDLAB_BALANCE_IDLE);
}

int sl_plugin_migrate(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	if (cpu < 0 || cpu >= sim->ncpu || p->sched_class != &sl_plugin_class || !p->se.on_rq ||
	    p->on_cpu || !sl_cpu_allowed(p, cpu))
		return -1;
	if (cpu == p->cpu)
		return 0;
	POL(sim)->dequeue(S(sim), p->cpu, T(p), SCHEDLAB_DEQ_MIGRATE);
	move_queued(sim, p, cpu);
	POL(sim)->enqueue(S(sim), cpu, T(p), SCHEDLAB_ENQ_MIGRATE);
	sl_check_preempt_curr(sim, &sim->cpus[cpu], p, 0);
	return 0;
}

const struct sl_sched_class sl_plugin_class = {
	.name = "plugin",
	.init_sim = plugin_init_sim,
	.exit_sim = plugin_exit_sim,
	.init_task = plugin_init_task,
	.task_fork = plugin_task_fork,
	.wake_up_new = plugin_wake_up_new,
	.enqueue_task = plugin_enqueue_task,
	.dequeue_task = plugin_dequeue_task,
	.pick_next_task = plugin_pick_next_task,
	.put_prev_task = plugin_put_prev_task,
	.task_tick = plugin_task_tick,
	.check_preempt_curr = plugin_check_preempt_curr,
	.yield_task = plugin_yield_task,
	.update_curr = plugin_update_curr,
	.set_task_cpu = plugin_set_task_cpu,
	.select_task_rq = plugin_select_task_rq,
	.tick_balance = plugin_tick_balance,
	.newidle_balance = plugin_newidle_balance,
};
