/*
 * global: one run queue for every CPU, first in first out, with a round-robin slice -- a schedlab
 * policy plug-in (docs/policy-api.md), the counterpart of vtime.c's queue per CPU.
 *
 * A CPU that schedules takes the oldest queued task it may run (the host moves the task to that
 * CPU); a task that used up its slice (global.slice_ns of run time) while another waits goes to
 * the tail. Nice levels are ignored: every task gets the same slice. A task that becomes runnable
 * while a CPU idles wakes that CPU, so no CPU idles while a task it may run waits.
 *
 * Build: cc -shared -fPIC -I include -o global.so examples/policy/global.c
 */
#include <schedlab/policy.h>

enum { S_SLICE };

struct g_task {
	struct schedlab_task *self;
	struct g_task *next, *prev;
	uint64_t picked_runtime; /* its run time when it was last picked */
	bool queued;
};

struct g_queue {
	struct g_task *head, *tail;
};

static const struct schedlab_host *H;

static struct g_task *task(struct schedlab_sched *s, struct schedlab_task *t)
{
	return H->task_data(s, t);
}

static struct g_queue *queue(struct schedlab_sched *s)
{
	return H->global(s);
}

static void kick_idle(struct schedlab_sched *s, struct schedlab_task *t)
{
	for (int c = 0; c < H->nr_cpus(s); c++)
		if (H->task_allowed(s, t, c) && H->cpu_idle(s, c)) {
			H->resched_cpu(s, c);
			return;
		}
}

static void append(struct schedlab_sched *s, struct g_task *a)
{
	struct g_queue *q = queue(s);

	a->next = NULL;
	a->prev = q->tail;
	if (q->tail)
		q->tail->next = a;
	else
		q->head = a;
	q->tail = a;
	a->queued = true;
	kick_idle(s, a->self);
}

static void unlink_task(struct schedlab_sched *s, struct g_task *a)
{
	struct g_queue *q = queue(s);

	if (a->prev)
		a->prev->next = a->next;
	else
		q->head = a->next;
	if (a->next)
		a->next->prev = a->prev;
	else
		q->tail = a->prev;
	a->next = a->prev = NULL;
	a->queued = false;
}

static void g_task_fork(struct schedlab_sched *s, struct schedlab_task *t,
			struct schedlab_task *parent)
{
	(void)parent;
	task(s, t)->self = t;
}

static void g_enqueue(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned flags)
{
	(void)cpu;
	(void)flags;
	append(s, task(s, t));
}

static void g_dequeue(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned flags)
{
	struct g_task *a = task(s, t);

	(void)cpu;
	(void)flags;
	if (a->queued)
		unlink_task(s, a);
}

static struct schedlab_task *g_pick_next(struct schedlab_sched *s, int cpu)
{
	for (struct g_task *a = queue(s)->head; a; a = a->next)
		if (H->task_allowed(s, a->self, cpu)) {
			unlink_task(s, a);
			a->picked_runtime = H->task_runtime(s, a->self);
			return a->self;
		}
	return NULL;
}

static void g_put_prev(struct schedlab_sched *s, int cpu, struct schedlab_task *t, bool runnable)
{
	(void)cpu;
	if (runnable)
		append(s, task(s, t));
}

static void g_task_tick(struct schedlab_sched *s, int cpu, struct schedlab_task *t)
{
	uint64_t ran = H->task_runtime(s, t) - task(s, t)->picked_runtime;

	if (queue(s)->head && ran >= (uint64_t)H->sysctl(s, S_SLICE))
		H->resched_cpu(s, cpu);
}

/* a wake-up goes to an idle CPU it may run on if there is one, else stays where it was */
static int g_select_cpu(struct schedlab_sched *s, struct schedlab_task *t, int this_cpu,
			unsigned reason)
{
	int prev = reason == SCHEDLAB_SELECT_FORK ? this_cpu : H->task_cpu(s, t);

	if (prev < 0)
		prev = 0;
	for (int c = 0; c < H->nr_cpus(s); c++)
		if (H->task_allowed(s, t, c) && H->cpu_idle(s, c))
			return c;
	return prev;
}

static const struct schedlab_sysctl g_sysctls[] = {
	[S_SLICE] = {"global.slice_ns", 4000000, 100000, 1000000000, "ns",
		     "the run time after which a task goes behind the waiting ones"},
};

static const struct schedlab_policy global = {
	.abi = SCHEDLAB_POLICY_ABI,
	.name = "global",
	.description = "one FIFO run queue for all CPUs, round robin",
	.task_size = sizeof(struct g_task),
	.global_size = sizeof(struct g_queue),
	.sysctls = g_sysctls,
	.nr_sysctls = 1,
	.task_fork = g_task_fork,
	.enqueue = g_enqueue,
	.dequeue = g_dequeue,
	.pick_next = g_pick_next,
	.put_prev = g_put_prev,
	.task_tick = g_task_tick,
	.select_cpu = g_select_cpu,
};

const struct schedlab_policy *schedlab_policy_register(const struct schedlab_host *host)
{
	H = host;
	return &global;
}
