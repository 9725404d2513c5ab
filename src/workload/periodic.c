/*
 * periodic: run R every P, like a video player or an audio thread: each period it wakes on a
 * timer at the period boundary, runs, and sleeps to the next boundary. Its wake-up latency is
 * the figure of interactivity.
 */
#include "workload/workload.h"
#include "sched/release.h"

#include <stdio.h>
#include <stdlib.h>

struct periodic_args {
	long tasks, nice, count;
	int policy, rtprio;
	u64 runtime;
	struct sl_dist run, period;
};

static const struct sl_wl_key keys[] = {
	{"tasks", "1", "number of tasks"},
	{"run", "2ms", "CPU time per period"},
	{"period", "16ms", "period (absolute: the next boundary since the task started)"},
	{"count", "0", "periods, then exit (0: for ever)"},
	{"nice", "0", "nice value, -20..19"},
	{"policy", "normal", "normal, batch, idle, fifo or rr (SCHED_*)"},
	{"rtprio", "0", "SCHED_FIFO / SCHED_RR priority, 1..99 (policy=fifo or rr only)"},
	{"runtime", "0s",
	 "sched_setattr sched_runtime: the 6.18 custom slice (clamped to 0.1-100 ms; 0s: the base "
	 "slice); 2.6.3x ignore it"},
};

static void *parse(const struct sl_kv *kv, char *err, size_t errlen)
{
	struct periodic_args *a = calloc(1, sizeof(*a));

	if (!a || sl_kv_int(kv, "tasks", 1, 100000, &a->tasks, err, errlen) ||
	    sl_kv_dist(kv, "run", &a->run, err, errlen) ||
	    sl_kv_dist(kv, "period", &a->period, err, errlen) ||
	    sl_kv_int(kv, "count", 0, 1000000000, &a->count, err, errlen) ||
	    sl_kv_int(kv, "nice", -20, 19, &a->nice, err, errlen) ||
	    sl_kv_policy(kv, "policy", &a->policy, err, errlen) ||
	    sl_kv_rt_priority(kv, "rtprio", a->policy, &a->rtprio, err, errlen) ||
	    sl_kv_fixed(kv, "runtime", &a->runtime, err, errlen)) {
		free(a);
		return NULL;
	}
	if (a->period.kind == SL_DIST_FIXED && a->period.a == 0) {
		snprintf(err, errlen, "period must be above 0");
		free(a);
		return NULL;
	}
	return a;
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
		p->rt_priority = a->rtprio;
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
	.parse = parse,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
	.policies = policies,
};
