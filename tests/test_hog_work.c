/*
 * hog:work= (CPU time, then exit) end to end on one CPU of 2.6.31, against the times worked by
 * hand from the defaults (ctx_switch 2 us, exit 30 us) and place_entity's START_DEBIT
 * (docs/model/cfs.md §4.4): a task forked onto the runqueue starts one sched_vslice after
 * min_vruntime, the slice taken over nr_running + 1 tasks. sched_latency on 1 CPU is 20 ms (factor
 * 1 + ilog2(1) = 1).
 */
#include "helpers.h"
#include "experiment/run.h"

static void run(struct sl_config *cfg, struct sl_run *r, const char *wl, const char *features)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.workloads[a.nworkloads++] = wl;
	if (features)
		a.features[a.nfeatures++] = features;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	if (sl_run(cfg, r, err, sizeof(err)))
		fail_msg("%s", err);
}

/* One hog: a 2 us switch in, 5 ms of work, 30 us of exit: done at 5032000 ns, all of it CPU. */
static void test_one_hog_runs_its_work_and_exits(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	run(&cfg, &r, "hog:work=5ms,policy=batch", NULL);
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

	assert_true(g->finite);
	assert_int_equal(g->live, 0);
	assert_int_equal(g->end, 5032000);
	assert_int_equal(r.stats.g[0].cpu_ns, 5032000);
	assert_int_equal(r.sim->now, 5032000); /* a finite run ends with its last workload */
	assert_int_equal(sl_sim_task(r.sim, 0)->policy, SL_SCHED_BATCH);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/*
 * Two 5 ms hogs created at once. With START_DEBIT the first is placed at 0 + 20 ms (the slice of
 * 1 task over 20 ms) and the second at 0 + 10 ms (half of 20 ms for 2 tasks): the second runs
 * first, and as 5 ms is under its 10 ms slice nothing preempts it; the first waits its 5032000
 * ns, and the pair ends at 2 x 5032000. With NO_START_DEBIT both start at min_vruntime and the
 * tie goes to the first queued (FIFO): the second waits.
 */
static void test_start_debit_orders_two_hogs(void **state)
{
	static const struct {
		const char *features;
		u64 wait1, wait2;
	} cases[] = {
		{NULL, 5032000, 0},
		{"NO_START_DEBIT", 0, 5032000},
	};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		struct sl_config cfg;
		struct sl_run r;

		run(&cfg, &r, "hog:work=5ms,tasks=2", cases[i].features);
		const struct sl_stats *s = &r.stats;

		assert_int_equal(sl_machine_of(r.sim)->groups[0].end, 2 * 5032000);
		assert_true(s->npid > 2);
		assert_int_equal(s->pid[1].cpu_ns, 5032000);
		assert_int_equal(s->pid[2].cpu_ns, 5032000);
		assert_int_equal(s->pid[1].wait_max, cases[i].wait1);
		assert_int_equal(s->pid[2].wait_max, cases[i].wait2);
		assert_int_equal(s->pid[1].switches + s->pid[2].switches, 2);
		sl_run_free(&r);
		sl_config_free(&cfg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_hog_runs_its_work_and_exits),
		cmocka_unit_test(test_start_debit_orders_two_hogs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
