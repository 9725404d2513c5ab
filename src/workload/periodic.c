/*
 * periodic: run R every P, like a video player or an audio thread: each period it wakes on a
 * timer at the period boundary, runs, and sleeps to the next boundary. Its wake-up latency is
 * the figure of interactivity.
 */
#include "workload/workload.h"
#include "sched/release.h"

#include <stdio.h>

struct periodic_args {
	long tasks, nice, count, rtprio;
	int policy;
	u64 runtime;
	struct sl_dist run, period;
};

#define A struct periodic_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("tasks", A, tasks, 1, 100000, "1", "number of tasks"),
	SL_WL_KEY_DIST("run", A, run, "2ms", "CPU time per period"),
	SL_WL_KEY_DIST("period", A, period, "16ms",
		       "period (absolute: the next boundary since the task started)"),
	SL_WL_KEY_INT("count", A, count, 0, 1000000000, "0", "periods, then exit (0: for ever)"),
	SL_WL_TASK_POLICY_KEYS(A),
};
#undef A

static int check(void *args, char *err, size_t errlen)
{
	const struct periodic_args *a = args;

	if (sl_wl_check_rtprio(a->policy, a->rtprio, err, errlen))
		return -1;
	if (a->period.kind == SL_DIST_FIXED && a->period.a == 0) {
		snprintf(err, errlen, "period must be above 0");
		return -1;
	}
	return 0;
}

static bool finite(const void *args)
{
	return ((const struct periodic_args *)args)->count > 0;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct periodic_args *a = args;
	struct sl_prog *p = sl_prog_new(sim, g, "periodic", (int)a->nice, a->policy);

	if (p) {
		p->rt_priority = (int)a->rtprio;
		p->sched_runtime = a->runtime;
	}
	if (!p || sl_prog_run(sim, p, a->run) ||
	    sl_prog_add(sim, p, OP_SLEEP_PERIOD, a->period, 0, 0, NULL) ||
	    sl_prog_add(sim, p, OP_LOOP, sl_dist_fixed(0), 0, (int)a->count, NULL))
		return -1;
	if (a->count && sl_prog_exit(sim, p))
		return -1;
	for (long i = 0; i < a->tasks; i++)
		if (!sl_spawn(sim, g, p))
			return -1;
	return 0;
}

/* every task it creates over the run (one task each): checked against SL_MAX_TASKS first */
static u64 max_tasks(const void *args)
{
	const struct periodic_args *a = args;

	return (u64)a->tasks;
}

static unsigned policies(const void *args)
{
	return SL_POLICY_BIT(((const struct periodic_args *)args)->policy);
}

const struct sl_workload_ops sl_wl_periodic = {
	.name = "periodic",
	.help = "run R every period P (a video player)",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct periodic_args),
	.check = check,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
	.policies = policies,
};
