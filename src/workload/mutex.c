/*
 * mutex: tasks contending for one kernel mutex (think time, then a critical section). The
 * workload OWNER_SPIN acts on: a contender spins while the owner runs on another CPU instead of
 * sleeping at once.
 */
#include "workload/workload.h"

struct mutex_args {
	long tasks, count, nice;
	struct sl_dist cs, think;
};

#define A struct mutex_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("tasks", A, tasks, 1, 100000, "4", "contending tasks"),
	SL_WL_KEY_INT("count", A, count, 1, 1000000000, "10000", "lock/unlock rounds per task"),
	SL_WL_KEY_DIST("cs", A, cs, "10us", "CPU time holding the lock"),
	SL_WL_KEY_DIST("think", A, think, "50us", "CPU time between critical sections"),
	SL_WL_KEY_INT("nice", A, nice, -20, 19, "0", "nice value"),
};
#undef A

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct mutex_args *a = args;
	struct sl_prog *p = sl_prog_new(sim, g, "locker", (int)a->nice, SL_SCHED_NORMAL);
	struct sl_dist z = sl_dist_fixed(0);

	if (!p || sl_group_mutexes(sim, g, 1))
		return -1;
	if (sl_prog_run(sim, p, a->think) || sl_prog_add(sim, p, OP_LOCK, z, 0, 0, NULL) ||
	    sl_prog_run(sim, p, a->cs) || sl_prog_add(sim, p, OP_UNLOCK, z, 0, 0, NULL) ||
	    sl_prog_add(sim, p, OP_LOOP, z, 0, (int)a->count, NULL) || sl_prog_exit(sim, p))
		return -1;
	for (long i = 0; i < a->tasks; i++)
		if (!sl_spawn(sim, g, p))
			return -1;
	return 0;
}

/* every task it creates over the run (one task each): checked against SL_MAX_TASKS first */
static u64 max_tasks(const void *args)
{
	const struct mutex_args *a = args;

	return (u64)a->tasks;
}

const struct sl_workload_ops sl_wl_mutex = {
	.name = "mutex",
	.help = "tasks contending for one mutex (where OWNER_SPIN acts)",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct mutex_args),
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = sl_wl_always_finite,
};
