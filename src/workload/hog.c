/*
 * hog: CPU-bound tasks. With work=0 they run for ever (the run ends at --duration); otherwise
 * each burns `work` of CPU time and exits, and the group reports its completion time.
 */
#include "workload/workload.h"
#include "sched/release.h"

struct hog_args {
	long tasks, nice, rtprio;
	int policy;
	u64 runtime;
	struct sl_dist work, yield;
};

#define A struct hog_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("tasks", A, tasks, 1, 100000, "1", "number of tasks"),
	SL_WL_TASK_POLICY_KEYS(A),
	SL_WL_KEY_DIST("work", A, work, "0s",
		       "CPU time each task needs, then exits (0s: for ever)"),
	SL_WL_KEY_DIST("yield", A, yield, "0s",
		       "call sched_yield() after each such stretch of CPU time (0s: never)"),
};
#undef A

static int check(void *args, char *err, size_t errlen)
{
	const struct hog_args *a = args;

	return sl_wl_check_rtprio(a->policy, a->rtprio, err, errlen);
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
	p->rt_priority = (int)a->rtprio;
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
	.args_size = sizeof(struct hog_args),
	.check = check,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
	.policies = policies,
};
