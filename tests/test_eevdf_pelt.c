/*
 * PELT, util_est and SIS_UTIL of 6.18 (docs/model/eevdf.md §5.6, §5.7), values worked by hand
 * from the kernel's integer rules: y^k is the table floor((2^32 - 1) 2^(-k/32)) (y^1 =
 * 0xfa83b2da = 4202935002), decay_load(v, n) = (v >> n / 32) y^(n % 32) >> 32, the divider
 * 47742 - 1024 + period_contrib.
 */
#include "eevdf_helpers.h"

#define PERIOD_NS (1024ULL * 1024ULL)
#define MIN_DIV	  46718ULL /* LOAD_AVG_MAX - 1024 */

/*
 * decay_load by hand:
 * - 1000000 after 32 periods: >> 1 = 500000, x 0xffffffff >> 32 = 500000 - 1 = 499999.
 * - 1024 after 1: 1024 x 4202935002 / 2^32 = 1002.06: 1002.
 * - 47742 after 1: 47742 x 4202935002 / 2^32 = 46718.6: 46718 (LOAD_AVG_MAX y = LOAD_AVG_MAX -
 *   1024, the fact the divider rests on).
 * - anything after more than 63 x 32 = 2016 periods: 0.
 */
static void test_decay_load(void **state)
{
	(void)state;
	assert_int_equal(sl_pelt_decay_load(1000000, 32), 499999);
	assert_int_equal(sl_pelt_decay_load(1024, 1), 1002);
	assert_int_equal(sl_pelt_decay_load(47742, 1), 46718);
	assert_int_equal(sl_pelt_decay_load(1ULL << 40, 2017), 0);
}

/*
 * A task running alone from 0 (on_rq, its cfs_rq's curr, nice 0: weight 1024):
 * - at 1 ms: delta = 1000000 >> 10 = 976 units, no period crossed: the sums grow (util_sum =
 *   976 << 10 = 999424, load_sum 976), period_contrib 976, last_update_time 976 x 1024 =
 *   999424, and the averages are not recomputed: util_avg 0.
 * - at 2 ms: delta = (2000000 - 999424) >> 10 = 977; 977 + 976 = 1953 = one period and 929.
 *   The old sums decay once: util_sum 999424 -> 978008, load_sum 976 -> 955. The new part:
 *   d1 = 1024 - 976 = 48 decayed once = 46, no whole period between (c2 = 47742 - 46718 -
 *   1024 = 0), d3 = 929: 975. util_sum = 978008 + 975 x 1024 = 1976408; divider 46718 + 929 =
 *   47647; util_avg = 41; load_sum 955 + 975 = 1930, load_avg = 1024 x 1930 / 47647 = 41.
 */
static void test_running_task(void **state)
{
	struct eevdf_rq cfs = {0};
	struct sl_task *p = ee_task(0, 0, 0);
	struct sl_pelt_avg *sa = &ee_se(&p->se)->avg;

	(void)state;
	p->se.on_rq = 1;
	cfs.curr = &p->se;
	assert_int_equal(sl_pelt_update_se(1000000, &cfs, &p->se), 0);
	assert_int_equal(sa->util_sum, 999424);
	assert_int_equal(sa->load_sum, 976);
	assert_int_equal(sa->period_contrib, 976);
	assert_int_equal(sa->last_update_time, 999424);
	assert_int_equal(sa->util_avg, 0);
	assert_int_equal(sl_pelt_update_se(2000000, &cfs, &p->se), 1);
	assert_int_equal(sa->util_sum, 1976408);
	assert_int_equal(sa->period_contrib, 929);
	assert_int_equal(sa->util_avg, 41);
	assert_int_equal(sa->load_sum, 1930);
	assert_int_equal(sa->load_avg, 41);
	assert_int_equal(sa->runnable_avg, 41);
	/* queued but not running (another task is curr): util stops growing, runnable not */
	cfs.curr = NULL;
	sl_pelt_update_se(2000000 + 32 * PERIOD_NS, &cfs, &p->se);
	assert_true(sa->runnable_avg > 500);
	assert_true(sa->util_avg < 41);
	free(p);
}

/*
 * Blocked (asleep), the sums only decay: a task at util_avg 600 with util_sum 600 x 46718 =
 * 28030800 at period_contrib 0; 32 periods later util_sum = (28030800 >> 1) x 0xffffffff >>
 * 32 = 14015400 - 1 = 14015399, divider 46718: util_avg = 299 (299.99): halved, rounded down.
 */
static void test_blocked_halves(void **state)
{
	struct sl_task *p = ee_task(0, 0, 0);
	struct sl_pelt_avg *sa = &ee_se(&p->se)->avg;

	(void)state;
	sa->last_update_time = PERIOD_NS;
	sa->util_avg = 600;
	sa->util_sum = 600 * MIN_DIV;
	sa->load_sum = 600 * MIN_DIV / 1024; /* 27373 */
	assert_int_equal(sl_pelt_update_blocked_se(PERIOD_NS + 32 * PERIOD_NS, &p->se), 1);
	assert_int_equal(sa->util_sum, 14015399);
	assert_int_equal(sa->util_avg, 299);
	/* load: 27373 >> 1 = 13686, x 0xffffffff >> 32 = 13685; x 1024 / 46718 = 299 */
	assert_int_equal(sa->load_avg, 299);
	free(p);
}

/*
 * post_init_entity_util_avg: half the spare capacity, or the cfs_rq's util per unit of load
 * times the task's weight when it has any, capped at that half:
 * - an idle CPU (util 0): (1024 - 0) / 2 = 512.
 * - util 400, load_avg 1023: 400 x 1024 / 1024 = 400 > (1024 - 400) / 2 = 312: 312.
 * - util 200, load_avg 2047: 200 x 1024 / 2048 = 100 < 412: 100.
 * runnable_avg starts equal.
 */
static void test_post_init(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_cpu *rq = &f->sim->cpus[0];
	struct eevdf_rq *cfs = ee_rq_of(f->sim, rq);
	struct sl_task *p = ee_task(0, 0, 0);
	const u64 want[3] = {512, 312, 100}, util[3] = {0, 400, 200}, load[3] = {0, 1023, 2047};

	(void)state;
	for (int i = 0; i < 3; i++) {
		sl_eevdf_pelt_init(&p->se);
		assert_int_equal(ee_se(&p->se)->avg.load_avg, 1024);
		cfs->avg.util_avg = util[i];
		cfs->avg.load_avg = load[i];
		sl_eevdf_pelt_post_init(f->sim, rq, &p->se);
		assert_int_equal(ee_se(&p->se)->avg.util_avg, want[i]);
		assert_int_equal(ee_se(&p->se)->avg.runnable_avg, want[i]);
	}
	fixture_free(f);
	free(p);
}

/*
 * A sleeping task woken on the other CPU (migrate_task_rq_fair, then the enqueue's attach):
 * CPU0's cfs_rq at util 300 (sums 300 x 46718, period_contrib 0) holds the task's 200 (sums 200
 * x 46718), all at 1 period. At the move its 200 is queued for removal; CPU0 still shows 300
 * until its next update, then 100 (util_sum max(100 x 46718, 100 x 46718)). CPU1's empty
 * cfs_rq attaches it: util 200, util_sum 200 x 46718. A balancer's detach takes it at once.
 */
static void test_migration_moves_util(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *c0 = &sim->cpus[0], *c1 = &sim->cpus[1];
	struct eevdf_rq *q0 = ee_rq_of(sim, c0), *q1 = ee_rq_of(sim, c1);
	struct sl_task *p = ee_task(0, 0, 0);
	struct sl_pelt_avg *sa = &ee_se(&p->se)->avg;

	(void)state;
	sim->now = 0; /* the PELT clock is one period then (SL_PELT_CLOCK_START) */
	q0->avg.last_update_time = q1->avg.last_update_time = PERIOD_NS;
	q0->avg.util_avg = 300;
	q0->avg.util_sum = 300 * MIN_DIV;
	*sa = (struct sl_pelt_avg){
		.last_update_time = PERIOD_NS, .util_avg = 200, .util_sum = 200 * MIN_DIV};
	p->state = TS_SLEEPING;
	sl_eevdf_class.set_task_cpu(sim, p, 1);
	assert_int_equal(p->cpu, 1);
	assert_int_equal(sa->last_update_time, 0);
	assert_int_equal(q0->removed_util, 200);
	assert_int_equal(q0->avg.util_avg, 300);
	sl_eevdf_pelt_update(sim, c0, NULL, 0);
	assert_int_equal(q0->avg.util_avg, 100);
	assert_int_equal(q0->avg.util_sum, 100 * MIN_DIV);
	assert_int_equal(q0->removed_nr, 0);
	sl_eevdf_pelt_update(sim, c1, &p->se, EE_DO_ATTACH);
	assert_int_equal(q1->avg.util_avg, 200);
	assert_int_equal(q1->avg.util_sum, 200 * MIN_DIV);
	assert_int_equal(sa->last_update_time, PERIOD_NS);
	/* a balancer's move detaches at once */
	sl_pelt_detach(q1, &p->se);
	assert_int_equal(q1->avg.util_avg, 0);
	assert_int_equal(q1->avg.util_sum, 0);
	fixture_free(f);
	free(p);
}

/*
 * A task born at the model's time 0 is attached once: its first enqueue attaches post_init's
 * 512 (an empty CPU: (1024 - 0) / 2) and takes the cfs_rq's last_update_time, which is one
 * period (1048576 ns: the PELT clock starts there, SL_PELT_CLOCK_START), not 0, the mark of a
 * detached entity; a sleep and a wake-up 500 ns later leave the CPU's util at 512 (with a PELT
 * clock starting at 0 it would be attached again: 1024).
 */
static void test_attach_at_time_zero(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *p = ee_task(0, 0, 0);

	(void)state;
	sl_eevdf_pelt_init(&p->se);
	sl_eevdf_class.wake_up_new(sim, rq, p, false);
	assert_int_equal(ee_rq_of(sim, rq)->avg.util_avg, 512);
	assert_int_equal(ee_se(&p->se)->avg.last_update_time, PERIOD_NS);
	p->state = TS_SLEEPING;
	sl_eevdf_class.dequeue_task(sim, rq, p, 1);
	sim->now = 500;
	p->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, rq, p, 1);
	assert_int_equal(ee_rq_of(sim, rq)->avg.util_avg, 512);
	fixture_free(f);
	free(p);
}

/*
 * util_est at a sleep (UTIL_EST_WEIGHT_SHIFT 2, margin 1024 / 100 = 10):
 * - first sleep at util 300: the estimate jumps up to 300 (and is marked unchanged);
 * - a second sleep before util_avg changed: not sampled;
 * - util 200, runnable 200: down a quarter of the way: (4 x 300 - 100) >> 2 = 275;
 * - util 250, runnable 270 (> 250 + 10: it waited): kept at 275;
 * - util 270: 275 - 270 = 5 < 10: kept.
 * The cfs_rq's sum: enqueue adds 275, dequeue takes it (never below 0).
 */
static void test_util_est(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *p = ee_task(0, 0, 0);
	struct sl_pelt_avg *sa = &ee_se(&p->se)->avg;

	(void)state;
	sa->util_avg = 300;
	sl_eevdf_util_est_update(sim, &p->se, true);
	assert_int_equal(sa->util_est, 300 | SL_UTIL_AVG_UNCHANGED);
	sa->util_avg = 200;
	sa->runnable_avg = 200;
	sl_eevdf_util_est_update(sim, &p->se, true);
	assert_int_equal(sa->util_est & ~SL_UTIL_AVG_UNCHANGED, 300);
	sa->util_est &= ~SL_UTIL_AVG_UNCHANGED; /* what a PELT update crossing a period does */
	sl_eevdf_util_est_update(sim, &p->se, false); /* not a sleep: no sample */
	assert_int_equal(sa->util_est, 300);
	sl_eevdf_util_est_update(sim, &p->se, true);
	assert_int_equal(sa->util_est, 275 | SL_UTIL_AVG_UNCHANGED);
	sa->util_est &= ~SL_UTIL_AVG_UNCHANGED;
	sa->util_avg = 250;
	sa->runnable_avg = 270;
	sl_eevdf_util_est_update(sim, &p->se, true);
	assert_int_equal(sa->util_est, 275 | SL_UTIL_AVG_UNCHANGED);
	sa->util_est &= ~SL_UTIL_AVG_UNCHANGED;
	sa->util_avg = 270;
	sa->runnable_avg = 270;
	sl_eevdf_util_est_update(sim, &p->se, true);
	assert_int_equal(sa->util_est, 275 | SL_UTIL_AVG_UNCHANGED);
	sl_eevdf_util_est_enqueue(sim, rq, &p->se);
	assert_int_equal(ee_rq_of(sim, rq)->avg.util_est, 275);
	/* cpu_util_cfs: max(util_avg 100, util_est 275) */
	ee_rq_of(sim, rq)->avg.util_avg = 100;
	assert_int_equal(sl_eevdf_cpu_util(sim, rq), 275);
	sl_eevdf_util_est_dequeue(sim, rq, &p->se);
	sl_eevdf_util_est_dequeue(sim, rq, &p->se);
	assert_int_equal(ee_rq_of(sim, rq)->avg.util_est, 0);
	assert_int_equal(sl_eevdf_cpu_util(sim, rq), 100);
	fixture_free(f);
	free(p);

	/* NO_UTIL_EST: no sampling, no sum, cpu_util_cfs is util_avg */
	f = fixture_new("6.18", "2", "NO_UTIL_EST");
	p = ee_task(0, 0, 0);
	ee_se(&p->se)->avg.util_avg = 300;
	sl_eevdf_util_est_update(f->sim, &p->se, true);
	assert_int_equal(ee_se(&p->se)->avg.util_est, 0);
	fixture_free(f);
	free(p);
}

/*
 * update_idle_cpu_scan's budget, by hand (pct 117: pct^2 = 13689; divisor 10000 x 1024 =
 * 10240000; x = sum / llc; tmp = x^2 x 13689 / 10240000 capped at 1024; y = (1024 - tmp) x
 * llc / 1024):
 * - llc 2, x 619: 383161 x 13689 = 5245090929, / 10240000 = 512; (512 x 2) / 1024 = 1.
 * - llc 2, x 620: 384400 x 13689 = 5262051600, / 10240000 = 513; (511 x 2) / 1024 = 0.
 * - llc 2, x 0: y = 2; x 1024: tmp capped at 1024, y = 0.
 * - llc 4, x 400: 160000 x 13689 = 2190240000, / 10240000 = 213; (811 x 4) / 1024 = 3.
 * - llc 2, sum 1239 (x = 619, the odd unit dropped): 1.
 */
static void test_sis_util_formula(void **state)
{
	(void)state;
	assert_int_equal(sl_eevdf_idle_scan(2 * 619, 2, 117), 1);
	assert_int_equal(sl_eevdf_idle_scan(2 * 620, 2, 117), 0);
	assert_int_equal(sl_eevdf_idle_scan(0, 2, 117), 2);
	assert_int_equal(sl_eevdf_idle_scan(2048, 2, 117), 0);
	assert_int_equal(sl_eevdf_idle_scan(4 * 400, 4, 117), 3);
	assert_int_equal(sl_eevdf_idle_scan(1239, 2, 117), 1);
}

/*
 * Two CPUs: CPU0 runs hog A; CPU1 is idle with the utilization `util` (util_avg) and `est`
 * (util_est) CPU0 has too. P, last on CPU0, wakes from a timer (prev = target = CPU0, busy).
 * The budget starts at 0 (zeroed, no balance yet): P stays on CPU0 whatever the utilization.
 * CPU0's periodic balance then sets it from the sum (a newidle balance does not):
 * - util 900: x = 900 > 619, budget 0: P stays on CPU0; NO_SIS_UTIL: the walk finds CPU1.
 * - util 584: tmp = 341056 x 13689 / 10240000 = 455, budget (569 x 2) / 1024 = 1: CPU1.
 * - util 500, est 700: cpu_util_cfs 700 each, budget 0: CPU0; NO_UTIL_EST: 500, tmp = 250000
 *   x 13689 / 10240000 = 334, budget (690 x 2) / 1024 = 1: CPU1.
 * Returns P's CPU; *scan the budget after the balance.
 */
static int sis_wake(const char *feats, u64 util, u64 est, unsigned *scan)
{
	struct fixture *f = fixture_new("6.18", "2", feats);
	struct sl_sim *sim = f->sim;
	struct sl_task *a = ee_task(0, 0, 0), *p = ee_task(0, 0, 0);
	int cpu, before;

	ee_set_curr(sim, &sim->cpus[0], a, 0, 1400000, 1400000);
	for (int c = 0; c < 2; c++) {
		ee_rq_of(sim, &sim->cpus[c])->avg.util_avg = util;
		ee_rq_of(sim, &sim->cpus[c])->avg.util_est = (u32)est;
	}
	sl_nr_levels_rebuild(sim);
	p->state = TS_SLEEPING;
	before = sl_eevdf_select_task_rq(sim, p, -1, SD_BALANCE_WAKE, 0);
	sl_eevdf_load_balance(sim, &sim->cpus[1], EE_CPU_NEWLY_IDLE);
	assert_int_equal(ee_rq_of(sim, &sim->cpus[0])->nr_idle_scan, 0);
	sl_eevdf_load_balance(sim, &sim->cpus[0], EE_CPU_NOT_IDLE);
	*scan = ee_rq_of(sim, &sim->cpus[1])->nr_idle_scan;
	cpu = sl_eevdf_select_task_rq(sim, p, -1, SD_BALANCE_WAKE, 0);
	fixture_free(f);
	free(a);
	free(p);
	return before * 10 + cpu;
}

static void test_sis_util_wake(void **state)
{
	unsigned scan;

	(void)state;
	assert_int_equal(sis_wake(NULL, 900, 0, &scan), 0);
	assert_int_equal(scan, 0);
	/* NO_SIS_UTIL: the budget is neither set nor read: CPU1 both times */
	assert_int_equal(sis_wake("NO_SIS_UTIL", 900, 0, &scan), 11);
	assert_int_equal(scan, 0);
	assert_int_equal(sis_wake(NULL, 584, 0, &scan), 1);
	assert_int_equal(scan, 1);
	assert_int_equal(sis_wake(NULL, 500, 700, &scan), 0);
	assert_int_equal(scan, 0);
	assert_int_equal(sis_wake("NO_UTIL_EST", 500, 700, &scan), 1);
	assert_int_equal(scan, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_load),
		cmocka_unit_test(test_running_task),
		cmocka_unit_test(test_blocked_halves),
		cmocka_unit_test(test_post_init),
		cmocka_unit_test(test_migration_moves_util),
		cmocka_unit_test(test_attach_at_time_zero),
		cmocka_unit_test(test_util_est),
		cmocka_unit_test(test_sis_util_formula),
		cmocka_unit_test(test_sis_util_wake),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
