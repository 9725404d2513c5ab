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
	long rounds, nice;
	struct sl_dist client, server;
};

static const struct sl_wl_key keys[] = {
	{"rounds", "9", "request/response round trips"},
	{"client", "1ms", "the client's CPU time per request"},
	{"server", "200us", "the X server's CPU time per reply"},
	{"nice", "0", "nice value of client and server"},
};

static void *parse(const struct sl_kv *kv, char *err, size_t errlen)
{
	struct xclient_args *a = calloc(1, sizeof(*a));

	if (!a || sl_kv_int(kv, "rounds", 1, 100000000, &a->rounds, err, errlen) ||
	    sl_kv_dist(kv, "client", &a->client, err, errlen) ||
	    sl_kv_dist(kv, "server", &a->server, err, errlen) ||
	    sl_kv_int(kv, "nice", -20, 19, &a->nice, err, errlen)) {
		free(a);
		return NULL;
	}
	return a;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct xclient_args *a = args;
	struct sl_prog *c = sl_prog_new(sim, g, "xmodmap", (int)a->nice, SL_SCHED_NORMAL);
	struct sl_prog *s = sl_prog_new(sim, g, "Xorg", (int)a->nice, SL_SCHED_NORMAL);
	struct sl_dist z = sl_dist_fixed(0);

	if (!c || !s)
		return -1;
	if (sl_prog_run(sim, c, a->client) || sl_prog_add(sim, c, OP_WAKE, z, 1, 0, NULL) ||
	    sl_prog_add(sim, c, OP_WAIT, z, 0, 0, NULL) ||
	    sl_prog_add(sim, c, OP_LOOP, z, 0, (int)a->rounds, NULL) || sl_prog_exit(sim, c))
		return -1;
	if (sl_prog_add(sim, s, OP_WAIT, z, 0, 0, NULL) || sl_prog_run(sim, s, a->server) ||
	    sl_prog_add(sim, s, OP_WAKE, z, 1, 0, NULL) ||
	    sl_prog_add(sim, s, OP_LOOP, z, 0, (int)a->rounds, NULL))
		return -1;
	struct sl_task *ct = sl_spawn(sim, g, c), *st = sl_spawn(sim, g, s);

	if (!ct || !st)
		return -1;
	ct->peer = st;
	st->peer = ct;
	return 0;
}

const struct sl_workload_ops sl_wl_xclient = {
	.name = "xclient",
	.help = "an xmodmap-like client: N round trips to an X server task",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.parse = parse,
	.spawn = spawn,
	.finite = sl_wl_always_finite,
};
