/*
 * CFS arithmetic against values worked by hand from docs/model/cfs.md §3 (the integer formulas of
 * calc_delta_mine, with SRR rounding), and the boot-time granularity scaling of §2.
 */
#include "helpers.h"
#include "sched/cfs/cfs_releases.h"

/* A runqueue's inverse is 1 + (2^32 - w/2) / (w + 1): for w = 1024 that is 4190212, not
 * the task table's 4194304 (docs/model/cfs.md §3). */
static void test_runqueue_inverse(void **state)
{
	struct sl_load_weight lw = {1024, 0};

	(void)state;
	sl_calc_delta_mine(1000, 1024, &lw);
	assert_int_equal(lw.inv_weight, 4190212);
	lw.weight = 2048;
	lw.inv_weight = 0;
	sl_calc_delta_mine(1000, 1024, &lw);
	assert_int_equal(lw.inv_weight, 2096129);
	lw.weight = 1359; /* nice 0 + nice 5 */
	lw.inv_weight = 0;
	sl_calc_delta_mine(1000, 1024, &lw);
	assert_int_equal(lw.inv_weight, 3158064);
}

static void test_calc_delta_mine(void **state)
{
	(void)state;
	/* 20 ms over two nice-0 tasks: tmp = 2.048e10 > 2^32, so
	 * SRR(SRR(tmp, 16) * 2096129, 16) = SRR(312500 * 2096129, 16) = 9995122 */
	struct sl_load_weight lw = {2048, 0};

	assert_int_equal(sl_calc_delta_mine(20000000, 1024, &lw), 9995122);
	/* small: tmp = 1024000 < 2^32: SRR(1024000 * 2096129, 32) = 500 */
	assert_int_equal(sl_calc_delta_mine(1000, 1024, &lw), 500);
	/* one nice-0 task alone is not given exactly the period: 19980488 */
	struct sl_load_weight one = {1024, 0};

	assert_int_equal(sl_calc_delta_mine(20000000, 1024, &one), 19980488);
	/* nice 0 against nice 5 (1024 + 335): 15058823 and 4926476 */
	struct sl_load_weight mix = {1359, 0};

	assert_int_equal(sl_calc_delta_mine(20000000, 1024, &mix), 15058823);
	assert_int_equal(sl_calc_delta_mine(20000000, 335, &mix), 4926476);
}

static void test_calc_delta_fair(void **state)
{
	struct sched_entity se;

	(void)state;
	memset(&se, 0, sizeof(se));
	se.load.weight = 1024;
	se.load.inv_weight = 4194304;
	assert_int_equal(sl_calc_delta_fair(1234567, &se), 1234567);
	/* nice 5: 1 ms of runtime is 1e6 * 1024 / 335 with the table inverse 12820798 */
	se.load.weight = 335;
	se.load.inv_weight = 12820798;
	assert_int_equal(sl_calc_delta_fair(1000000, &se), 3056716);
	assert_int_equal(sl_calc_delta_fair(20000000, &se), 61134329);
	/* nice -5 (3121, inverse 1376151) */
	se.load.weight = 3121;
	se.load.inv_weight = 1376151;
	assert_int_equal(sl_calc_delta_fair(20000000, &se), 6561999);
}

static void test_weights(void **state)
{
	struct sl_task *p = bare_task(0, SL_SCHED_NORMAL, 0);

	(void)state;
	assert_int_equal(p->se.load.weight, 1024);
	assert_int_equal(p->se.load.inv_weight, 4194304);
	p->nice = -20;
	sl_set_load_weight(p);
	assert_int_equal(p->se.load.weight, 88761);
	assert_int_equal(p->se.load.inv_weight, 48388);
	p->nice = 19;
	sl_set_load_weight(p);
	assert_int_equal(p->se.load.weight, 15);
	assert_int_equal(p->se.load.inv_weight, 286331153);
	p->policy = SL_SCHED_IDLE;
	sl_set_load_weight(p);
	assert_int_equal(p->se.load.weight, 3);
	assert_int_equal(p->se.load.inv_weight, 1431655765);
	free(p);
}

static void test_period_and_slice(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct cfs_rq *cfs = cfs_rq_of_cpu(&sim->cpus[0]);
	struct sl_task *a = bare_task(0, SL_SCHED_NORMAL, 0), *b = bare_task(0, SL_SCHED_NORMAL, 0);

	(void)state;
	/* 1 CPU: factor 1, latency 20 ms, min_granularity 4 ms, nr_latency 5 */
	assert_int_equal(sl_sched_period(sim, 1), 20000000);
	assert_int_equal(sl_sched_period(sim, 5), 20000000);
	assert_int_equal(sl_sched_period(sim, 6), 24000000);
	sl_cfs_enqueue_task(sim, &sim->cpus[0], a, 0);
	/* a new task's slice counts it as queued: period(2) over 1024 + 1024 */
	assert_int_equal(sl_sched_slice(sim, cfs, &b->se), 9995122);
	sl_cfs_enqueue_task(sim, &sim->cpus[0], b, 0);
	assert_int_equal(sl_sched_slice(sim, cfs, &a->se), 9995122);
	fixture_free(f);
	free(a);
	free(b);
}

static void test_init_granularity(void **state)
{
	static const struct {
		int ncpu;
		u64 factor;
	} cases[] = {{1, 1}, {2, 2}, {3, 2}, {4, 3}, {8, 4}, {16, 5}, {64, 7}};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		struct sl_tunables t = sl_cfs_2_6_31.defaults;

		sl_init_granularity(&t, cases[i].ncpu);
		assert_int_equal(t.sched_latency, 20000000 * cases[i].factor);
		assert_int_equal(t.sched_min_granularity, 4000000 * cases[i].factor);
		assert_int_equal(t.sched_wakeup_granularity, 5000000 * cases[i].factor);
		assert_int_equal(t.sched_shares_ratelimit, 250000 * cases[i].factor);
		assert_int_equal(t.sched_migration_cost, 500000);
		assert_int_equal(t.sched_nr_latency, 5);
	}
	/* 4096 CPUs: factor 13, latency 260 ms clamped to 200 ms, min_gran 52 ms, wakeup 65 ms */
	struct sl_tunables t = sl_cfs_2_6_31.defaults;

	sl_init_granularity(&t, 4096);
	assert_int_equal(t.sched_latency, 200000000);
	assert_int_equal(t.sched_min_granularity, 52000000);
	assert_int_equal(t.sched_wakeup_granularity, 65000000);
	/* 2.6.32 on 4 CPUs: 15 / 3 / 3 ms */
	t = sl_cfs_2_6_32.defaults;
	sl_init_granularity(&t, 4);
	assert_int_equal(t.sched_latency, 15000000);
	assert_int_equal(t.sched_min_granularity, 3000000);
	assert_int_equal(t.sched_wakeup_granularity, 3000000);
	assert_int_equal(t.sched_child_runs_first, 0);
}

static void test_update_avg_and_wrap(void **state)
{
	u64 avg = 800;

	(void)state;
	sl_update_avg(&avg, 1600); /* +800 >> 3 = +100 */
	assert_int_equal(avg, 900);
	sl_update_avg(&avg, 0); /* -900 >> 3 = -113 (arithmetic shift rounds down) */
	assert_int_equal(avg, 787);
	avg = 0;
	sl_update_avg(&avg, 0);
	assert_int_equal(avg, 0);
	sl_update_avg(&avg, 7); /* 7 >> 3 = 0 */
	assert_int_equal(avg, 0);

	struct sched_entity a, b;

	a.vruntime = UINT64_MAX - 10; /* just before the wrap */
	b.vruntime = 5;		      /* just after it */
	assert_true(entity_before(&a, &b));
	assert_false(entity_before(&b, &a));
	assert_int_equal(max_vruntime(a.vruntime, b.vruntime), 5);
	assert_int_equal(min_vruntime(a.vruntime, b.vruntime), UINT64_MAX - 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runqueue_inverse),    cmocka_unit_test(test_calc_delta_mine),
		cmocka_unit_test(test_calc_delta_fair),	    cmocka_unit_test(test_weights),
		cmocka_unit_test(test_period_and_slice),    cmocka_unit_test(test_init_granularity),
		cmocka_unit_test(test_update_avg_and_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
