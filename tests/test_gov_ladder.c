/*
 * The ladder governor against values worked by hand from docs/model/cpuidle.md §3 (modern form,
 * signed int µs residencies), on the Nehalem table of docs/model/cpuidle.md §7.1 with x86's poll at
 * index 0:
 *   0 POLL 0/0 µs (POLL|TIME_VALID), 1 C1 3/6, 2 C1E 10/20, 3 C3 20/80, 4 C6 200/800.
 * START = 1. Thresholds (µs): promotion_time = exit latency for 1..3 (3, 10, 20), none for C6;
 * demotion_time = exit latency for 2..4 (10, 20, 200), none for START.
 * Each idle period below is select(), then the measured residency, then reflect(index): the
 * next select() judges that residency.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpuidle/cpuidle.h"
#include "gov_fixture.h"

#include <string.h>

extern const struct sl_cpuidle_governor sl_gov_ladder;

#define US 1000ULL

static struct sl_gov_params gp;

static struct sl_cpuidle_dev dev;

static int setup(void **state)
{
	(void)state;
	gov_dev_init(&dev, &gp);
	dev.next_timer_ns = 1000000;
	return sl_gov_ladder.enable(&dev, &test_nehalem);
}

static int teardown(void **state)
{
	(void)state;
	sl_gov_ladder.disable(&dev);
	assert_null(dev.gov_data);
	return 0;
}

/* One idle period on drv: select, then a residency of res_us, then reflect. */
static int idle_on(const struct sl_cpuidle_driver *drv, u64 res_us)
{
	int idx = sl_gov_ladder.select(&dev, drv);

	dev.last_residency_ns = res_us * US;
	sl_gov_ladder.reflect(&dev, drv, idx);
	return idx;
}

static int idle(u64 res_us)
{
	return idle_on(&test_nehalem, res_us);
}

/* From a fresh enable, 1000 µs periods climb one step per 4: the first select sees the
 * zeroed residency (0 - 3 = -3, not long), so 4 more reach C1E, 4 more C3, 4 more C6. */
static void climb_to_c6(void)
{
	assert_int_equal(idle(1000), 1);
	for (int step = 1; step <= 3; step++) {
		for (int k = 0; k < 3; k++)
			assert_int_equal(idle(1000), step);
		assert_int_equal(idle(1000), step + 1);
	}
}

static void test_identity(void **state)
{
	(void)state;
	assert_string_equal(sl_gov_ladder.name, "ladder");
	assert_int_equal(sl_gov_ladder.rating, 10);
	assert_non_null(dev.gov_data);
}

/* START is C1. Each 100 µs period gives 100 - 3 = 97 > promotion_time 3: counts 1, 2, 3 keep
 * C1, the 4th (>= PROMOTION_COUNT) moves to C1E. The initial select judges residency 0:
 * 0 - 3 = -3 is not > 3, so it does not count. */
static void test_promotion_after_four_long(void **state)
{
	(void)state;
	assert_int_equal(idle(100), 1); /* judges 0 µs: no count */
	assert_int_equal(idle(100), 1); /* count 1 */
	assert_int_equal(idle(100), 1); /* count 2 */
	assert_int_equal(idle(100), 1); /* count 3 */
	assert_int_equal(idle(100), 2); /* count 4: promote */
	/* the count restarts in C1E: 100 - 10 = 90 > 10 three times stays, the 4th climbs */
	assert_int_equal(idle(100), 2);
	assert_int_equal(idle(100), 2);
	assert_int_equal(idle(100), 2);
	assert_int_equal(idle(100), 3);
}

/* Strictly longer: 6 µs in C1 gives 6 - 3 = 3, not > 3, so it does not count; at START there
 * is no demotion either, so the count of 3 stands and the next long period promotes. */
static void test_promotion_is_strict(void **state)
{
	(void)state;
	assert_int_equal(idle(100), 1); /* judges 0 */
	assert_int_equal(idle(100), 1); /* 1 */
	assert_int_equal(idle(100), 1); /* 2 */
	assert_int_equal(idle(6), 1);	/* 3; this period (6 µs) will not count */
	assert_int_equal(idle(100), 1); /* judges 6 µs: count stays 3 */
	assert_int_equal(idle(100), 2); /* judges 100: count 4 */
}

/* In C1E one period shorter than its exit latency drops a step: 15 µs gives
 * 15 - 10 = 5 < demotion_time 10. The raw 15 µs is above 10: the exit latency is subtracted
 * first. 25 µs gives 15 > 10 (a promotion count, stays). */
static void test_demotion_after_one_short(void **state)
{
	(void)state;
	assert_int_equal(idle(100), 1);
	assert_int_equal(idle(100), 1);
	assert_int_equal(idle(100), 1);
	assert_int_equal(idle(100), 1);
	assert_int_equal(idle(25), 2);	/* promoted; this C1E period lasts 25 µs */
	assert_int_equal(idle(15), 2);	/* 25 - 10 = 15 > 10: promotion count 1, stay */
	assert_int_equal(idle(100), 1); /* 15 - 10 = 5 < 10: demotion count 1 >= 1 */
	/* back in C1 the counts were zeroed on the way down: 4 long periods again */
	assert_int_equal(idle(100), 1); /* 97 > 3: count 1 (C1's count was zeroed at promotion) */
	assert_int_equal(idle(100), 1); /* 2 */
	assert_int_equal(idle(100), 1); /* 3 */
	assert_int_equal(idle(100), 2); /* 4 */
}

/* A period shorter than the exit latency is negative (signed int): 4 µs in C1E gives -6,
 * which is short (demote), not a huge unsigned "long" one. */
static void test_negative_residency_is_short(void **state)
{
	(void)state;
	for (int k = 0; k < 4; k++)
		idle(100);
	assert_int_equal(idle(4), 2);
	assert_int_equal(idle(100), 1);
}

/* Forced demotion: in C6 a 50 µs QoS limit excludes C6 (200 µs exit): the deepest state below
 * within the limit is C3 (20 µs), reached in one select. A 5 µs limit from C3 excludes C3 and
 * C1E; the search stops above START, so START (C1) is returned; C1 itself (3 µs) fits. */
static void test_forced_demotion_qos(void **state)
{
	(void)state;
	climb_to_c6();
	dev.latency_req_ns = 50 * US;
	assert_int_equal(idle(1000), 3);
	dev.latency_req_ns = 5 * US;
	assert_int_equal(idle(1000), 1);
	/* and C1 cannot climb while C1E's 10 µs exceeds the limit */
	for (int k = 0; k < 6; k++)
		assert_int_equal(idle(1000), 1);
	/* with the limit lifted, those periods start counting: 4 to climb */
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	for (int k = 0; k < 3; k++)
		assert_int_equal(idle(1000), 1);
	assert_int_equal(idle(1000), 2);
}

/* Forced demotion for a disabled state: C6 disabled from C6 gives C3 at once; C3 then never
 * climbs into the disabled C6 however long the periods, and they do not even count; disabling
 * C3 as well gives C1E. */
static void test_forced_demotion_disabled(void **state)
{
	(void)state;
	climb_to_c6();
	dev.disabled[4] = true;
	assert_int_equal(idle(1000), 3);
	for (int k = 0; k < 6; k++)
		assert_int_equal(idle(1000), 3);
	/* those periods did not count (promotion needs C6 enabled): 4 more to climb */
	dev.disabled[4] = false;
	for (int k = 0; k < 3; k++)
		assert_int_equal(idle(1000), 3);
	assert_int_equal(idle(1000), 4);
	dev.disabled[4] = true;
	assert_int_equal(idle(1000), 3);
	dev.disabled[3] = true;
	assert_int_equal(idle(1000), 2);
}

/* The guard beyond the kernel: a disabled START is never returned; the choice walks down to
 * poll, and the ladder moves there. The kernel would have returned C1 (no forced demotion at
 * START). */
static void test_disabled_start_gives_poll(void **state)
{
	(void)state;
	dev.disabled[1] = true;
	assert_int_equal(idle(0), 0);
	/* the ladder is now at poll: with C1 enabled again, a 0 µs poll period (0 > 0 false)
	 * stays in poll; had the guard not moved the ladder, it would still be at C1 */
	dev.disabled[1] = false;
	assert_int_equal(idle(0), 0);
}

/* latency_req 0 gives poll at once, from any state. With the limit lifted, the ladder is at
 * poll, whose thresholds were never set (the kernel sets them from START up): promotion_time
 * 0 and promotion count threshold 0, so one period of 50 µs (50 > 0) climbs back to C1. */
static void test_latency_zero_gives_poll(void **state)
{
	(void)state;
	climb_to_c6();
	dev.latency_req_ns = 0;
	assert_int_equal(idle(50), 0);
	assert_int_equal(idle(50), 0);
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	assert_int_equal(idle(50), 1);
}

/* A 0 µs poll period (0 - 0 = 0, not > 0) stays in poll: no promotion and no demotion. */
static void test_poll_zero_residency_stays(void **state)
{
	(void)state;
	dev.latency_req_ns = 0;
	assert_int_equal(idle(0), 0);
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	assert_int_equal(idle(0), 0);
	assert_int_equal(idle(1), 0);
	assert_int_equal(idle(1), 1); /* judges 1 µs: 1 > 0 */
}

/* reflect records the index entered, unless it is poll (index 0). */
static void test_reflect_records_entered_index(void **state)
{
	(void)state;
	climb_to_c6();
	assert_int_equal(idle(1000), 4);
	/* the driver entered poll instead: not remembered, the ladder stays at C6 */
	int idx = sl_gov_ladder.select(&dev, &test_nehalem);

	assert_int_equal(idx, 4);
	dev.last_residency_ns = 1000 * US;
	sl_gov_ladder.reflect(&dev, &test_nehalem, 0);
	assert_int_equal(idle(1000), 4);
	/* the driver demoted to C1E: the next select starts from C1E (1000 - 10 > 10, stay) */
	idx = sl_gov_ladder.select(&dev, &test_nehalem);
	assert_int_equal(idx, 4);
	dev.last_residency_ns = 1000 * US;
	sl_gov_ladder.reflect(&dev, &test_nehalem, 2);
	assert_int_equal(idle(1000), 2);
}

/* A state without TIME_VALID reports no usable time: the period counts as long
 * (promotion_time + 1 = 4 > 3). So even the initial select, with residency 0, counts:
 * the 4th select already climbs (the TIME_VALID table needs a 5th, see above). */
static void test_time_invalid_assumed_long(void **state)
{
	struct sl_cpuidle_driver drv = test_nehalem;

	(void)state;
	drv.states[1].flags = 0;
	assert_int_equal(idle_on(&drv, 0), 1); /* count 1 */
	assert_int_equal(idle_on(&drv, 0), 1); /* 2 */
	assert_int_equal(idle_on(&drv, 0), 1); /* 3 */
	assert_int_equal(idle_on(&drv, 0), 2); /* 4 */
}

/* Without a poll state at index 0, START is 0: the ladder starts in state 0 and climbs from
 * there (here a two-state table: C1 3/6, C3 20/80). */
static void test_no_poll_start_is_zero(void **state)
{
	static const struct sl_cpuidle_driver nopoll = {
		.name = "nopoll",
		.state_count = 2,
		.states = {{"C1", 3 * US, 6 * US, 0, CPUIDLE_FLAG_TIME_VALID, 0},
			   {"C3", 20 * US, 80 * US, 0, CPUIDLE_FLAG_TIME_VALID, 0}},
	};

	(void)state;
	sl_gov_ladder.disable(&dev);
	assert_int_equal(sl_gov_ladder.enable(&dev, &nopoll), 0);
	assert_int_equal(idle_on(&nopoll, 100), 0); /* judges 0 - 3 = -3 */
	assert_int_equal(idle_on(&nopoll, 100), 0);
	assert_int_equal(idle_on(&nopoll, 100), 0);
	assert_int_equal(idle_on(&nopoll, 100), 0);
	assert_int_equal(idle_on(&nopoll, 10), 1);  /* 4th count: climb to C3 */
	assert_int_equal(idle_on(&nopoll, 100), 0); /* 10 - 20 = -10 < 20: demote to START 0 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_promotion_after_four_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_promotion_is_strict, setup, teardown),
		cmocka_unit_test_setup_teardown(test_demotion_after_one_short, setup, teardown),
		cmocka_unit_test_setup_teardown(test_negative_residency_is_short, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forced_demotion_qos, setup, teardown),
		cmocka_unit_test_setup_teardown(test_forced_demotion_disabled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disabled_start_gives_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latency_zero_gives_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_zero_residency_stays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reflect_records_entered_index, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_time_invalid_assumed_long, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_poll_start_is_zero, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
