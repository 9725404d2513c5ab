/* The cpuidle framework glue: governor registry, idle entry and exit bookkeeping. */
#include "cpuidle/cpuidle.h"
#include "core/sim.h"

#include <string.h>

static const struct sl_cpuidle_governor *const governors[] = {
	&sl_gov_poll,
};

const struct sl_cpuidle_driver sl_cpuidle_poll_driver = {
	.name = "poll",
	.state_count = 1,
	.states = {{"POLL", 0, 0, 0, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID}},
};

const struct sl_cpuidle_governor *sl_cpuidle_find_governor(const char *name)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(governors); i++)
		if (!strcmp(governors[i]->name, name))
			return governors[i];
	return NULL;
}

int sl_cpuidle_enter(struct sl_sim *sim, struct sl_cpu *rq)
{
	const struct sl_cpuidle_driver *drv = &sl_cpuidle_poll_driver;
	int idx = sl_gov_poll.select(NULL, drv);
	struct sl_event ev = {.type = SL_EV_IDLE, .cpu = rq->id, .state = idx};

	rq->idle = true;
	rq->idle_enter = sim->now;
	rq->idle_state = idx;
	sl_emit(sim, &ev);
	return idx;
}

u64 sl_cpuidle_exit(struct sl_sim *sim, struct sl_cpu *rq)
{
	const struct sl_cpuidle_driver *drv = &sl_cpuidle_poll_driver;
	struct sl_event ev = {.type = SL_EV_IDLE, .cpu = rq->id, .state = -1};

	if (!rq->idle)
		return 0;
	rq->idle = false;
	sl_emit(sim, &ev);
	return drv->states[rq->idle_state].exit_latency_ns;
}
