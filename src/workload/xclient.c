/*
 * xclient: an xmodmap-like X client making `rounds` request/response round trips to an X server
 * task over a socket (sync wake-ups: the writer goes on to read and sleep), with a small CPU
 * burst on each side. The group's completion time is the command's wall time, as `time
 * xmodmap` gives it; the client's CPU time and context switches are perf stat's figures. The
 * seed's xmodmap: 9 ms of CPU and 18 context switches (so ~9 round trips of ~1 ms).
 */
#include "workload/workload.h"

struct xclient_args {
	long rounds, nice, server_uid;
	struct sl_dist client, server;
};

#define A struct xclient_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("rounds", A, rounds, 1, 100000000, "9", "request/response round trips"),
	SL_WL_KEY_DIST("client", A, client, "1ms", "the client's CPU time per request"),
	SL_WL_KEY_DIST("server", A, server, "200us", "the X server's CPU time per reply"),
	SL_WL_KEY_INT("nice", A, nice, -20, 19, "0", "nice value of client and server"),
	SL_WL_KEY_INT("server_uid", A, server_uid, 0, 2147483647L, "0",
		      "the X server's user id (2009's Xorg ran as root; the client is the uid "
		      "key's)"),
};
#undef A

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct xclient_args *a = args;
	/* the X server's loop ends with the client's last request: it exits at no cost */
	const struct sl_pair_spec ps = {
		.client_comm = "xmodmap",
		.server_comm = "Xorg",
		.nice = (int)a->nice,
		.client = a->client,
		.server = a->server,
		.think = sl_dist_fixed(0),
		.sync = 1,
		.count = a->rounds,
		.pairs = 1,
		.server_exit_cost = false,
		.server_uid = (int)a->server_uid,
	};

	return sl_spawn_pairs(sim, g, &ps);
}

/* every task it creates over the run (the client and the X server): checked against SL_MAX_TASKS
 * first */
static u64 max_tasks(const void *args)
{
	(void)args;
	return 2;
}

const struct sl_workload_ops sl_wl_xclient = {
	.name = "xclient",
	.help = "an xmodmap-like client: N round trips to an X server task",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct xclient_args),
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = sl_wl_always_finite,
};
