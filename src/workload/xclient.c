/*
 * xclient: an xmodmap-like X client making `rounds` request/response round trips to an X server
 * task over a socket (sync wake-ups: the writer goes on to read and sleep), with a small CPU
 * burst on each side. The group's completion time is the command's wall time, as `time
 * xmodmap` gives it; the client's CPU time and context switches are perf stat's figures. The
 * seed's xmodmap: 9 ms of CPU and 18 context switches (so ~9 round trips of ~1 ms).
 */
#include "workload/workload.h"

#include <stdlib.h>

struct xclient_args {
	long rounds, nice, server_uid;
	struct sl_dist client, server;
};

static const struct sl_wl_key keys[] = {
	{"rounds", "9", "request/response round trips"},
	{"client", "1ms", "the client's CPU time per request"},
	{"server", "200us", "the X server's CPU time per reply"},
	{"nice", "0", "nice value of client and server"},
	{"server_uid", "0",
	 "the X server's user id (2009's Xorg ran as root; the client is the uid key's)"},
};

static void *parse(const struct sl_kv *kv, char *err, size_t errlen)
{
	struct xclient_args *a = calloc(1, sizeof(*a));

	if (!a || sl_kv_int(kv, "rounds", 1, 100000000, &a->rounds, err, errlen) ||
	    sl_kv_dist(kv, "client", &a->client, err, errlen) ||
	    sl_kv_dist(kv, "server", &a->server, err, errlen) ||
	    sl_kv_int(kv, "nice", -20, 19, &a->nice, err, errlen) ||
	    sl_kv_int(kv, "server_uid", 0, 2147483647L, &a->server_uid, err, errlen)) {
		free(a);
		return NULL;
	}
	return a;
}

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
	.parse = parse,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = sl_wl_always_finite,
};
