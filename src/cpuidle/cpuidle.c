/* The cpuidle framework: governor registry, idle entry and exit as the kernel's core does them. */
#include "cpuidle/cpuidle.h"
#include "core/sim.h"

#include <string.h>

static const struct sl_cpuidle_governor *const governors[] = {
	&sl_gov_poll,
};

/* x86 of 2009: index 0 is the poll loop, exit latency 0, POLL | TIME_VALID */
const struct sl_cpuidle_driver sl_cpuidle_poll_driver = {
	.name = "poll",
	.state_count = 1,
	.states = {{"POLL", 0, 0, 0, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID, 0}},
};

const struct sl_cpuidle_governor *sl_cpuidle_find_governor(const char *name)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(governors); i++)
		if (!strcmp(governors[i]->name, name))
			return governors[i];
	return NULL;
}

/* The time to the CPU's next timer event: the earliest armed timer owned by this CPU. */
static u64 next_timer_ns(const struct sl_sim *sim, int cpu)
{
	u64 best = UINT64_MAX;

	/* a scan of the heap: small in the foundation's workloads; a per-CPU timer heap is the
	 * cpuidle issue's to add when governors make this hot */
	for (int i = 0; i < sim->q.n; i++) {
		const struct sl_timer *t = sim->q.heap[i];

		if (t->cpu == cpu && t->expires < best)
			best = t->expires;
	}
	return best == UINT64_MAX ? UINT64_MAX : best - sim->now;
}

int sl_cpuidle_enter(struct sl_sim *sim, struct sl_cpu *rq)
{
	const struct sl_cpuidle_driver *drv = sim->idle_drv;
	struct sl_cpuidle_dev *dev = &rq->idle_dev;
	int idx;

	dev->cpu = rq->id;
	dev->next_timer_ns = next_timer_ns(sim, rq->id);
	dev->latency_req_ns = sim->pm_qos_latency_ns;
	dev->cpu_load0 = rq->cpu_load[0];
	dev->nr_iowait = rq->nr_iowait;
	idx = sim->idle_gov->select(dev, drv);
	if (idx < 0 || idx >= drv->state_count)
		idx = 0;
	dev->in_idle = true;
	dev->entered = idx;
	dev->enter_time = sim->now;
	rq->idle = true;
	rq->idle_enter = sim->now;
	rq->idle_state = idx;
	struct sl_event ev = {.type = SL_EV_IDLE, .cpu = rq->id, .state = idx};

	sl_emit(sim, &ev);
	return idx;
}

u64 sl_cpuidle_exit(struct sl_sim *sim, struct sl_cpu *rq)
{
	const struct sl_cpuidle_driver *drv = sim->idle_drv;
	struct sl_cpuidle_dev *dev = &rq->idle_dev;
	const struct sl_idle_state *st;
	u64 diff;

	if (!rq->idle)
		return 0;
	st = &drv->states[dev->entered];
	diff = sim->now - dev->enter_time;
	rq->idle = false;
	dev->in_idle = false;
	dev->last_state_idx = dev->entered;
	dev->last_residency_ns = (st->flags & CPUIDLE_FLAG_TIME_VALID) ? diff : 0;
	dev->usage[dev->entered]++;
	dev->time_ns[dev->entered] += diff;
	struct sl_event ev = {.type = SL_EV_IDLE, .cpu = rq->id, .state = -1};

	sl_emit(sim, &ev);
	if (sim->idle_gov->reflect)
		sim->idle_gov->reflect(dev, drv, dev->entered);
	return st->exit_latency_ns;
}

bool sl_cpuidle_polling(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	return rq->idle && (sim->idle_drv->states[rq->idle_state].flags & CPUIDLE_FLAG_POLL);
}
