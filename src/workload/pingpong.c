/*
 * pingpong: pairs of tasks that wake each other `count` times, like a client and the X server
 * over a pipe: each side runs `run`, wakes its peer (a pipe write: a sync wake-up, since the
 * writer is about to read and sleep) and waits for the answer.
 */
#include "workload/workload.h"

struct pingpong_args {
	long pairs, count, nice;
	bool sync;
	struct sl_dist run, think;
};

#define A struct pingpong_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("pairs", A, pairs, 1, 100000, "1", "number of client/server pairs"),
	SL_WL_KEY_INT("count", A, count, 1, 1000000000, "10000", "round trips, then both exit"),
	SL_WL_KEY_DIST("run", A, run, "20us", "CPU time each side spends per message"),
	SL_WL_KEY_DIST("think", A, think, "0s",
		       "client's CPU time after waking the server, before it waits"),
	SL_WL_KEY_BOOL("sync", A, sync, "1",
		       "1: sync wake-ups (pipe_write's wake_up_interruptible_sync), 0: plain"),
	SL_WL_KEY_INT("nice", A, nice, -20, 19, "0", "nice value of both sides"),
};
#undef A

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct pingpong_args *a = args;
	const struct sl_pair_spec ps = {
		.client_comm = "client",
		.server_comm = "server",
		.nice = (int)a->nice,
		.client = a->run,
		.server = a->run,
		.think = a->think,
		.sync = (int)a->sync,
		.count = a->count,
		.pairs = a->pairs,
		.server_exit_cost = true,
		.server_uid = -1,
	};

	return sl_spawn_pairs(sim, g, &ps);
}

/* every task it creates over the run (a client and a server per pair): checked against SL_MAX_TASKS
 * first */
static u64 max_tasks(const void *args)
{
	const struct pingpong_args *a = args;

	return 2 * (u64)a->pairs;
}

const struct sl_workload_ops sl_wl_pingpong = {
	.name = "pingpong",
	.help = "two tasks that wake each other N times (client and X server)",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct pingpong_args),
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = sl_wl_always_finite,
};
