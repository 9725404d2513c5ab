/*
 * hog: CPU-bound tasks. With work=0 they run for ever (the run ends at --duration); otherwise
 * each burns `work` of CPU time and exits, and the group reports its completion time.
 */
#include "workload/workload.h"
#include "sched/release.h"

#include <stdlib.h>

struct hog_args {
	long tasks, nice;
	int policy, rtprio;
	u64 runtime;
	struct sl_dist work, yield;
};

static const struct sl_wl_key keys[] = {
	{"tasks", "1", "number of tasks"},
	{"nice", "0", "nice value, -20..19"},
	{"policy", "normal", "normal, batch, idle, fifo or rr (SCHED_*)"},
	{"rtprio", "0", "SCHED_FIFO / SCHED_RR priority, 1..99 (policy=fifo or rr only)"},
	{"runtime", "0s",
	 "sched_setattr sched_runtime: the 6.18 custom slice (clamped to 0.1-100 ms; 0s: the base "
	 "slice); 2.6.3x ignore it"},
	{"work", "0s", "CPU time each task needs, then exits (0s: for ever)"},
	{"yield", "0s", "call sched_yield() after each such stretch of CPU time (0s: never)"},
};

static void *parse(const struct sl_kv *kv, char *err, size_t errlen)
{
	struct hog_args *a = calloc(1, sizeof(*a));

	if (!a || sl_kv_int(kv, "tasks", 1, 100000, &a->tasks, err, errlen) ||
	    sl_kv_int(kv, "nice", -20, 19, &a->nice, err, errlen) ||
	    sl_kv_policy(kv, "policy", &a->policy, err, errlen) ||
	    sl_kv_rt_priority(kv, "rtprio", a->policy, &a->rtprio, err, errlen) ||
	    sl_kv_fixed(kv, "runtime", &a->runtime, err, errlen) ||
	    sl_kv_dist(kv, "work", &a->work, err, errlen) ||
	    sl_kv_dist(kv, "yield", &a->yield, err, errlen)) {
		free(a);
		return NULL;
	}
	return a;
}

static bool finite(const void *args)
{
	const struct hog_args *a = args;

	return a->work.kind != SL_DIST_FIXED || a->work.a != 0;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct hog_args *a = args;
	struct sl_prog *p = sl_prog_new(sim, g, "hog", (int)a->nice, a->policy);

	if (!p)
		return -1;
	p->rt_priority = a->rtprio;
	p->sched_runtime = a->runtime;
	bool yields = a->yield.kind != SL_DIST_FIXED || a->yield.a != 0;

	if (finite(a)) {
		if (sl_prog_run(sim, p, a->work) || sl_prog_exit(sim, p))
			return -1;
	} else if (yields) {
		/* run, sched_yield(), again: a spinning user-space lock or a polite worker */
		if (sl_prog_run(sim, p, a->yield) ||
		    sl_prog_add(sim, p, OP_YIELD, sl_dist_fixed(0), 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_LOOP, sl_dist_fixed(0), 0, 0, NULL))
			return -1;
	} else {
		/* a second of CPU, again and again: the program never blocks */
		if (sl_prog_run(sim, p, sl_dist_fixed(NSEC_PER_SEC)) ||
		    sl_prog_add(sim, p, OP_LOOP, sl_dist_fixed(0), 0, 0, NULL))
			return -1;
	}
	for (long i = 0; i < a->tasks; i++)
		if (!sl_spawn(sim, g, p))
			return -1;
	return 0;
}

/* every task it creates over the run (one task each): checked against SL_MAX_TASKS first */
static u64 max_tasks(const void *args)
{
	const struct hog_args *a = args;

	return (u64)a->tasks;
}

static unsigned policies(const void *args)
{
	return SL_POLICY_BIT(((const struct hog_args *)args)->policy);
}

const struct sl_workload_ops sl_wl_hog = {
	.name = "hog",
	.help = "CPU-bound tasks",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.parse = parse,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
	.policies = policies,
};
