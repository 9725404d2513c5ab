/*
 * vtime: weighted virtual time, a queue per CPU -- the simplest fair policy, as a schedlab policy
 * plug-in (docs/policy-api.md walks through this file).
 *
 * Each task's virtual time advances by its run time scaled by 1024 / weight, the weight of its
 * nice level from the kernel's table (host->task_weight: 1024 at nice 0, 335 at nice 5); each CPU
 * runs the queued task with the least virtual time. Two tasks always runnable on one CPU then
 * share it as their weights: nice 0 against nice 5 is 1024 : 335, 75.35% : 24.65%.
 *
 * A waking task is placed at its queue's minimum virtual time (WAKE_PLACE_MIN), so a long sleep
 * earns no credit; a wake-up preempts when the wakee is behind the running task by more than the
 * granularity (WAKEUP_PREEMPT); the tick preempts a task ahead of the least queued one by more
 * than the granularity (vtime.granularity_ns). Wake-ups go to an idle CPU when there is one; a
 * CPU that runs out of tasks pulls one from the busiest CPU.
 *
 * Build: cc -shared -fPIC -I include -o vtime.so examples/policy/vtime.c
 * Run:   schedlab run --policy ./vtime.so --cpus 1 --workload hog --workload hog:nice=5
 */
#include <schedlab/policy.h>

/* the features and sysctls, by index */
enum { F_WAKE_PLACE_MIN, F_WAKEUP_PREEMPT };
enum { S_GRANULARITY };

struct vt_task {
	struct schedlab_task *self;
	struct vt_task *next, *prev; /* in its CPU's queue, by vruntime (FIFO among equals) */
	uint64_t vruntime;
	bool queued;
};

struct vt_cpu {
	struct vt_task *head;  /* the least vruntime */
	struct vt_task *curr;  /* running (not in the queue) */
	uint64_t min_vruntime; /* never goes back: where wake-ups are placed */
};

static const struct schedlab_host *H;

static struct vt_task *task(struct schedlab_sched *s, struct schedlab_task *t)
{
	return H->task_data(s, t);
}

static struct vt_cpu *cpu_q(struct schedlab_sched *s, int cpu)
{
	return H->cpu_data(s, cpu);
}

/* a < b in virtual time, wrapping as the kernel compares it */
static bool before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static void update_min(struct vt_cpu *c)
{
	uint64_t v = c->min_vruntime;
	bool any = false;

	if (c->curr) {
		v = c->curr->vruntime;
		any = true;
	}
	if (c->head && (!any || before(c->head->vruntime, v)))
		v = c->head->vruntime;
	if (before(c->min_vruntime, v))
		c->min_vruntime = v;
}

static void insert(struct vt_cpu *c, struct vt_task *a)
{
	struct vt_task **pp = &c->head, *prev = NULL;

	while (*pp && !before(a->vruntime, (*pp)->vruntime)) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	a->next = *pp;
	a->prev = prev;
	if (*pp)
		(*pp)->prev = a;
	*pp = a;
	a->queued = true;
}

static void unlink_task(struct vt_cpu *c, struct vt_task *a)
{
	if (a->prev)
		a->prev->next = a->next;
	else
		c->head = a->next;
	if (a->next)
		a->next->prev = a->prev;
	a->next = a->prev = NULL;
	a->queued = false;
}

static void vt_task_fork(struct schedlab_sched *s, struct schedlab_task *t,
			 struct schedlab_task *parent)
{
	(void)parent;
	task(s, t)->self = t;
}

static void vt_enqueue(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned flags)
{
	struct vt_cpu *c = cpu_q(s, cpu);
	struct vt_task *a = task(s, t);

	if (flags & SCHEDLAB_ENQ_NEW)
		a->vruntime = c->min_vruntime;
	else if (flags & SCHEDLAB_ENQ_MIGRATE)
		a->vruntime += c->min_vruntime; /* relative to the old queue's minimum (dequeue) */
	else if ((flags & SCHEDLAB_ENQ_WAKEUP) && H->feature(s, F_WAKE_PLACE_MIN) &&
		 before(a->vruntime, c->min_vruntime))
		a->vruntime = c->min_vruntime;
	insert(c, a);
	update_min(c);
}

static void vt_dequeue(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned flags)
{
	struct vt_cpu *c = cpu_q(s, cpu);
	struct vt_task *a = task(s, t);

	if (a->queued)
		unlink_task(c, a);
	update_min(c);
	if (flags & SCHEDLAB_DEQ_MIGRATE)
		a->vruntime -= c->min_vruntime;
}

static struct schedlab_task *vt_pick_next(struct schedlab_sched *s, int cpu)
{
	struct vt_cpu *c = cpu_q(s, cpu);
	struct vt_task *a = c->head;

	if (!a)
		return NULL;
	unlink_task(c, a);
	c->curr = a;
	return a->self;
}

static void vt_put_prev(struct schedlab_sched *s, int cpu, struct schedlab_task *t, bool runnable)
{
	struct vt_cpu *c = cpu_q(s, cpu);

	c->curr = NULL;
	if (runnable)
		insert(c, task(s, t));
	update_min(c);
}

static void vt_update_curr(struct schedlab_sched *s, int cpu, struct schedlab_task *t,
			   uint64_t delta_ns)
{
	task(s, t)->vruntime += delta_ns * 1024 / H->task_weight(s, t);
	update_min(cpu_q(s, cpu));
}

static void vt_task_tick(struct schedlab_sched *s, int cpu, struct schedlab_task *t)
{
	struct vt_cpu *c = cpu_q(s, cpu);
	uint64_t gran = (uint64_t)H->sysctl(s, S_GRANULARITY);

	if (c->head && before(c->head->vruntime + gran, task(s, t)->vruntime))
		H->resched_cpu(s, cpu);
}

static bool vt_check_preempt(struct schedlab_sched *s, int cpu, struct schedlab_task *curr,
			     struct schedlab_task *t)
{
	uint64_t gran = (uint64_t)H->sysctl(s, S_GRANULARITY);

	(void)cpu;
	return H->feature(s, F_WAKEUP_PREEMPT) &&
	       before(task(s, t)->vruntime + gran, task(s, curr)->vruntime);
}

static void vt_yield(struct schedlab_sched *s, int cpu, struct schedlab_task *t)
{
	struct vt_cpu *c = cpu_q(s, cpu);

	/* behind the last queued task: the others run first */
	for (struct vt_task *q = c->head; q; q = q->next)
		if (!q->next && before(task(s, t)->vruntime, q->vruntime))
			task(s, t)->vruntime = q->vruntime;
}

/* an idle CPU the task may run on, from prev on; else the least loaded one (prev on ties) */
static int vt_select_cpu(struct schedlab_sched *s, struct schedlab_task *t, int this_cpu,
			 unsigned reason)
{
	int n = H->nr_cpus(s), prev = reason == SCHEDLAB_SELECT_FORK ? this_cpu : H->task_cpu(s, t);
	int best = -1;

	if (prev < 0)
		prev = 0;
	for (int k = 0; k < n; k++) {
		int c = (prev + k) % n;

		if (!H->task_allowed(s, t, c))
			continue;
		if (H->cpu_idle(s, c))
			return c;
		if (best < 0 || H->cpu_nr_running(s, c) < H->cpu_nr_running(s, best))
			best = c;
	}
	return best < 0 ? prev : best;
}

/* a CPU with nothing to run takes the last queued task of the busiest CPU */
static void vt_balance(struct schedlab_sched *s, int cpu, int reason)
{
	int n = H->nr_cpus(s), busiest = -1;

	if (reason != SCHEDLAB_BALANCE_IDLE)
		return;
	for (int c = 0; c < n; c++)
		if (c != cpu && H->cpu_nr_running(s, c) >= 2 &&
		    (busiest < 0 || H->cpu_nr_running(s, c) > H->cpu_nr_running(s, busiest)))
			busiest = c;
	if (busiest < 0)
		return;
	struct vt_task *last = cpu_q(s, busiest)->head;

	while (last && last->next)
		last = last->next;
	for (; last; last = last->prev)
		if (H->task_allowed(s, last->self, cpu) && !H->migrate(s, last->self, cpu))
			return;
}

static const struct schedlab_feature vt_features[] = {
	[F_WAKE_PLACE_MIN] = {"WAKE_PLACE_MIN", true,
			      "a waking task starts no earlier than its queue's minimum virtual "
			      "time (off: a sleeper keeps its old virtual time, and its credit)"},
	[F_WAKEUP_PREEMPT] = {"WAKEUP_PREEMPT", true,
			      "a wakee behind the running task by more than the granularity "
			      "preempts it"},
};

static const struct schedlab_sysctl vt_sysctls[] = {
	[S_GRANULARITY] = {"vtime.granularity_ns", 1000000, 0, 1000000000, "ns",
			   "the virtual-time lead that preempts, at the tick or a wake-up"},
};

static const struct schedlab_policy vtime = {
	.abi = SCHEDLAB_POLICY_ABI,
	.name = "vtime",
	.description = "weighted virtual time, a queue per CPU",
	.task_size = sizeof(struct vt_task),
	.cpu_size = sizeof(struct vt_cpu),
	.features = vt_features,
	.nr_features = 2,
	.sysctls = vt_sysctls,
	.nr_sysctls = 1,
	.task_fork = vt_task_fork,
	.enqueue = vt_enqueue,
	.dequeue = vt_dequeue,
	.pick_next = vt_pick_next,
	.put_prev = vt_put_prev,
	.update_curr = vt_update_curr,
	.task_tick = vt_task_tick,
	.select_cpu = vt_select_cpu,
	.check_preempt = vt_check_preempt,
	.yield = vt_yield,
	.balance = vt_balance,
};

const struct schedlab_policy *schedlab_policy_register(const struct schedlab_host *host)
{
	H = host;
	return &vtime;
}
