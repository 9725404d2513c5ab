/*
 * video: a player that must decode a frame every 1/fps: it wakes at each frame boundary (an
 * absolute timer), decodes for `decode` of CPU, and sleeps to the next boundary. A frame is
 * late when its decode ends after the next boundary; the report counts late frames and by how
 * much, what a user sees as stutter.
 */
#include "workload/workload.h"

struct video_args {
	long fps, frames, nice;
	struct sl_dist decode;
};

#define A struct video_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("fps", A, fps, 1, 1000, "25", "frames per second"),
	SL_WL_KEY_DIST("decode", A, decode, "8ms", "CPU time to decode a frame"),
	SL_WL_KEY_INT("frames", A, frames, 0, 100000000, "0",
		      "frames, then it exits (0: for ever)"),
	SL_WL_KEY_INT("nice", A, nice, -20, 19, "0", "nice value"),
};
#undef A

static bool finite(const void *args)
{
	return ((const struct video_args *)args)->frames > 0;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct video_args *a = args;
	struct sl_prog *p = sl_prog_new(sim, g, "mplayer", (int)a->nice, SL_SCHED_NORMAL);
	struct sl_dist period = sl_dist_fixed(NSEC_PER_SEC / (u64)a->fps), z = sl_dist_fixed(0);

	if (!p || sl_prog_run(sim, p, a->decode) ||
	    sl_prog_add(sim, p, OP_SLEEP_PERIOD, period, 0, 0, NULL) ||
	    sl_prog_add(sim, p, OP_LOOP, z, 0, (int)a->frames, NULL))
		return -1;
	if (a->frames && sl_prog_exit(sim, p))
		return -1;
	return sl_spawn(sim, g, p) ? 0 : -1;
}

/* every task it creates over the run (the player): checked against SL_MAX_TASKS first */
static u64 max_tasks(const void *args)
{
	(void)args;
	return 1;
}

const struct sl_workload_ops sl_wl_video = {
	.name = "video",
	.help = "a video player: decode a frame every 1/fps; counts late frames",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct video_args),
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
};
