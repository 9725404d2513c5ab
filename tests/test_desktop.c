/*
 * The desktop experiment's pieces: a video player's late frames, the xclient's round trips, and
 * repro fork's direction (parent-runs-first builds faster, with fewer switches).
 */
#include "helpers.h"
#include "experiment/run.h"
#include "experiment/repro.h"

#include "json_helpers.h"

static struct sl_run run1(struct sl_config *cfg, const char *cpus, const char *wl)
{
	struct sl_args a;
	struct sl_run r;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.workloads[a.nworkloads++] = wl;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	if (sl_run(cfg, &r, err, sizeof(err)))
		fail_msg("%s", err);
	return r;
}

/* 25 fps is a 40 ms period; a 50 ms decode misses every frame. Frame 0 starts at 0 (2 us
 * switch), ends at 50.002 ms, due at 40: 10.002 ms late; the player sleeps to the 80 ms
 * boundary, its next frame is due at 120 and ends at 130.002 (the switch again): every frame is
 * 10.002 ms late. */
static void test_video_late_frames(void **state)
{
	struct sl_config cfg;
	struct sl_run r = run1(&cfg, "1", "video:fps=25,decode=50ms,frames=10");
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

	(void)state;
	assert_int_equal(g->frames, 10);
	assert_int_equal(g->frames_late, 10);
	assert_int_equal(g->late_max, 10002000);
	assert_int_equal(g->late_sum, 10 * 10002000ULL);
	sl_run_free(&r);
	sl_config_free(&cfg);
	/* 8 ms at 25 fps always fits */
	r = run1(&cfg, "1", "video:fps=25,decode=8ms,frames=10");
	assert_int_equal(sl_machine_of(r.sim)->groups[0].frames, 10);
	assert_int_equal(sl_machine_of(r.sim)->groups[0].frames_late, 0);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/* Alone on one CPU, 9 round trips of 1 ms + 200 us take 10.8 ms of CPU plus switches (2 us,
 * and a 10 us cache refill when the other ran last) and the client's 30 us exit; the client is
 * switched out 10 times: 9 reads that sleep, and its exit. */
static void test_xclient(void **state)
{
	struct sl_config cfg;
	struct sl_run r = run1(&cfg, "1", "xclient:rounds=9,client=1ms,server=200us");
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];
	u64 t = g->end - g->start;

	(void)state;
	assert_true(t > 10800000 + 30000 && t < 10800000 + 30000 + 18 * 12000 + 12000);
	assert_int_equal(r.stats.pid[1].switches, 10);
	assert_int_equal(r.stats.pid[1].cpu_ns >= 9000000, 1);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_repro_fork_direction(void **state)
{
	struct sl_repro_opts o;
	char *buf = NULL, err[1024];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	memset(&o, 0, sizeof(o));
	o.nseeds = 2;
	o.json = true;
	assert_non_null(f);
	assert_int_equal(sl_repro_fork(&o, f, err, sizeof(err)), 0);
	fclose(f);
	json_object *root = json_tokener_parse(buf), *runs = get(root, "runs");

	assert_int_equal(json_object_array_length(runs), 3);
	for (size_t i = 0; i < 3; i++) {
		json_object *r = json_object_array_get_idx(runs, i);

		assert_true(json_object_get_double(get(r, "build_ratio_child_over_parent")) > 1.0);
		assert_true(json_object_get_double(
				    get(get(r, "context_switches_child_first"), "mean")) >
			    json_object_get_double(
				    get(get(r, "context_switches_parent_first"), "mean")));
	}
	json_object_put(root);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_video_late_frames),
		cmocka_unit_test(test_xclient),
		cmocka_unit_test(test_repro_fork_direction),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
