/*
 * The old menu governor (2.6.27-2.6.31) against values worked by hand from docs/model/cpuidle.md
 * §1.1 and §1.2, on the Nehalem table of docs/model/cpuidle.md §7.1 (µs: exit/target):
 *   0 POLL 0/0 (POLL|TIME_VALID), 1 C1 3/6, 2 C1E 10/20, 3 C3 20/80, 4 C6 200/800.
 * START = 1, so the loop tests C1E, C3, C6 and stops at the first whose target residency
 * exceeds expected_us or predicted_us, or whose exit latency exceeds the QoS limit.
 * One idle period is: next_timer_ns set, select() (which blends the prediction and records
 * expected_us), the measured residency, reflect(). dev.predicted_ns is predicted_us * 1000.
 * Notation in comments: pred' = (pred*50 + 50*cur) / 100 in u32; cur = max(measured,
 * last_measured); "break" when last_idle + 4 < expected - exit_latency (u32).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpuidle/cpuidle.h"
#include "gov_fixture.h"

#include <string.h>

extern const struct sl_cpuidle_governor sl_gov_menu_2_6_31;

#define US 1000ULL

static struct sl_gov_params gp;

static struct sl_cpuidle_dev dev;

static int setup(void **state)
{
	(void)state;
	gov_dev_init(&dev, &gp);
	return sl_gov_menu_2_6_31.enable(&dev, &test_nehalem);
}

static int teardown(void **state)
{
	(void)state;
	sl_gov_menu_2_6_31.disable(&dev);
	assert_null(dev.gov_data);
	return 0;
}

/* One idle period on drv with the sleep length next_ns; res_us measured. Returns the state,
 * and the prediction select used (in µs) through *pred_us. */
static int period_on(const struct sl_cpuidle_driver *drv, u64 next_ns, u64 res_us, u64 *pred_us)
{
	int idx;

	dev.next_timer_ns = next_ns;
	idx = sl_gov_menu_2_6_31.select(&dev, drv);
	if (pred_us)
		*pred_us = dev.predicted_ns / US;
	assert_int_equal(dev.predicted_ns % US, 0);
	dev.last_residency_ns = res_us * US;
	sl_gov_menu_2_6_31.reflect(&dev, drv, idx);
	return idx;
}

static int period(u64 next_ns, u64 res_us, u64 *pred_us)
{
	return period_on(&test_nehalem, next_ns, res_us, pred_us);
}

#define MS10 (10000 * US) /* a 10 ms timer */

static void test_identity(void **state)
{
	(void)state;
	assert_string_equal(sl_gov_menu_2_6_31.name, "menu-2.6.31");
	assert_int_equal(sl_gov_menu_2_6_31.rating, 20);
	assert_non_null(dev.gov_data);
}

/* Timer wake-ups (the residency is the whole 10 ms to the timer) are not break events:
 * 10000 + 4 < 10000 - exit is false, so elapsed keeps growing and the prediction with it.
 *   P1 pred 0 -> C1 (C1E's 20 > 0).    measured 10000, cur 10000, elapsed 10000
 *   P2 pred (0 + 500000)/100 = 5000 -> C6. measured 20000, cur 20000, elapsed 20000
 *   P3 pred (250000 + 1000000)/100 = 12500. measured 30000, elapsed 30000
 *   P4 pred (625000 + 1500000)/100 = 21250. Now an interrupt at 1000 µs:
 *      measured 31000, cur 31000; 1004 < 10000 - 200: break, last_measured 31000, elapsed 0
 *   P5 pred (1062500 + 1550000)/100 = 26125. timer again: measured 0 + 10000 (the reset),
 *      cur max(10000, 31000) = 31000, elapsed 10000
 *   P6 pred (1306250 + 1550000)/100 = 28562; without the reset, measured would have been
 *      41000 and the prediction (1306250 + 2050000)/100 = 33562. */
static void test_timer_wakeups_accumulate_break_resets(void **state)
{
	u64 p;

	(void)state;
	assert_int_equal(period(MS10, 10000, &p), 1);
	assert_int_equal(p, 0);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 5000);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 12500);
	assert_int_equal(period(MS10, 1000, &p), 4);
	assert_int_equal(p, 21250);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 26125);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 28562);
}

/* BREAK_FUZZ (4 µs): "clearly before the timer" means last_idle + 4 < expected - exit. In C6
 * before a 10 ms timer the limit is 10000 - 200 = 9800:
 *   P1 C1, 10000: elapsed 10000, cur 10000
 *   P2 pred 5000, C6, woken at 9797: 9801 < 9800 false, a timer wake-up; elapsed 19797
 *   P3 pred (250000 + 989850)/100 = 12398, woken at 9795: 9799 < 9800, a break;
 *      measured 29592, last_measured 29592, elapsed 0
 *   P4 pred (619900 + 1479600)/100 = 20995, 10000: measured 10000, cur 29592
 *   P5 pred (1049750 + 1479600)/100 = 25293.
 * Without the fuzz P2 would be a break (P4 16097); had P3 not reset, P5 would be 30293. */
static void test_break_fuzz(void **state)
{
	static const u64 res[] = {10000, 9797, 9795, 10000, 10000};
	static const u64 pred[] = {0, 5000, 12398, 20995, 25293};
	u64 p;

	(void)state;
	for (int k = 0; k < 5; k++) {
		period(MS10, res[k], &p);
		assert_int_equal(p, pred[k]);
	}
}

/* reflect judges the state the governor chose, not the one the driver entered. Chosen C6,
 * entered C1 (index 1), woken at 9797 before a 10 ms timer: with C6's exit 200 that is a
 * timer wake-up (9801 < 9800 false), elapsed 19797; with C1's exit 3 it would be a break.
 *   P3 pred 12398 as above; 10000 more: measured 29797
 *   P4 pred (619900 + 1489850)/100 = 21097 (a break at P2 would give 16097). */
static void test_reflect_uses_chosen_state(void **state)
{
	u64 p;
	int idx;

	(void)state;
	period(MS10, 10000, &p);
	dev.next_timer_ns = MS10;
	idx = sl_gov_menu_2_6_31.select(&dev, &test_nehalem);
	assert_int_equal(idx, 4);
	dev.last_residency_ns = 9797 * US;
	sl_gov_menu_2_6_31.reflect(&dev, &test_nehalem, 1);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 12398);
	period(MS10, 10000, &p);
	assert_int_equal(p, 21097);
}

/* The 50/50 blend, with interrupts every 100 µs before a 10 ms timer (every one a break:
 * 104 < 10000 - exit), so cur = 100 each time, and integer division truncating:
 *   P1 0 -> C1; P2 (0 + 5000)/100 = 50 -> C1E (C3's 80 > 50); P3 (2500 + 5000)/100 = 75
 *   -> C1E; P4 (3750 + 5000)/100 = 87 (87.5 truncated) -> C3; P5 (4350 + 5000)/100 = 93.
 * Then the interrupts come every 20 µs. The max() with last_measured lags one period:
 *   reflect P6: measured 20, cur max(20, 100) = 100, last_measured 20
 *   P6 (4650 + 5000)/100 = 96 (judged with P5's cur 100); P7 (4800 + 5000)/100 = 98,
 *   reflect P7: cur max(20, 20) = 20; P8 (4900 + 1000)/100 = 59 -> C1E. */
static void test_blend_50_50(void **state)
{
	static const u64 pred[] = {0, 50, 75, 87, 93, 96, 98, 59};
	static const int idx[] = {1, 2, 2, 3, 3, 3, 3, 2};
	u64 p;

	(void)state;
	for (int k = 0; k < 8; k++) {
		assert_int_equal(period(MS10, k < 5 ? 100 : 20, &p), idx[k]);
		assert_int_equal(p, pred[k]);
	}
}

/* expected_us = (u32)next_timer_ns / 1000: the ns value is cut to 32 bits first.
 * A sleep length of 2^32 + 500000 ns (4.2955 s) becomes 500000 ns = 500 µs, so C6 (target
 * 800) is excluded even though the prediction (12500, after two timer periods as above)
 * would take it; converting to µs first would give 4295467 µs and C6. */
static void test_sleep_length_truncated_to_u32(void **state)
{
	u64 p;

	(void)state;
	assert_int_equal(period(MS10, 10000, &p), 1);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(period(4294967296ULL + 500000, 10000, &p), 3);
	assert_int_equal(p, 12500);
}

/* A 5 s sleep length: (u32)5000000000 = 5000000000 - 4294967296 = 705032704 ns, so
 * expected_us = 705032. An interrupt at 800 ms is then not "clearly before the timer"
 * (800004 < 705032 - exit is false): it counts as a timer wake-up and accumulates.
 *   P1 pred 0 -> C1; measured 800000, cur 800000, elapsed 800000
 *   P2 pred (0 + 40000000)/100 = 400000 -> C6; measured 1600000, cur 1600000
 *   P3 pred (20000000 + 80000000)/100 = 1000000.
 * With an untruncated 5000000 µs each would be a break (cur stays 800000) and P3 would
 * predict (20000000 + 40000000)/100 = 600000. */
static void test_five_second_sleep_wraps(void **state)
{
	u64 p;

	(void)state;
	assert_int_equal(period(5 * NSEC_PER_SEC, 800000, &p), 1);
	assert_int_equal(p, 0);
	assert_int_equal(period(5 * NSEC_PER_SEC, 800000, &p), 4);
	assert_int_equal(p, 400000);
	period(5 * NSEC_PER_SEC, 800000, &p);
	assert_int_equal(p, 1000000);
}

/* expected < exit latency: a 2 µs timer gives expected 2; C1E (20) does not fit, so C1
 * (exit 3). It wakes at its timer after 2 µs, but 2 - 3 underflows to 0xFFFFFFFF, so
 * 2 + 4 < 0xFFFFFFFF: the break branch, which resets the accumulation.
 *   P1 10 ms timer, 10000: C1, elapsed 10000, cur 10000
 *   P2 2 µs timer, 2: pred 5000, C1; measured 10002, cur 10002; break: last_measured 10002,
 *      elapsed 0
 *   P3 10 ms, 10000: pred (250000 + 500100)/100 = 7501 -> C6; measured 0 + 10000,
 *      cur max(10000, 10002) = 10002
 *   P4 pred (375050 + 500100)/100 = 8751.
 * Signed arithmetic (6 < -1 false) would keep accumulating: P3 measured 20002, P4 13751. */
static void test_expected_below_exit_latency_underflows(void **state)
{
	u64 p;

	(void)state;
	assert_int_equal(period(MS10, 10000, &p), 1);
	assert_int_equal(period(2 * US, 2, &p), 1);
	assert_int_equal(p, 5000);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 7501);
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 8751);
}

/* A state without TIME_VALID reports one tick, USEC_PER_SEC/HZ = tick_ns / 1000, whatever
 * was measured. C1 without the flag, an interrupt after 100 µs of a 10 ms timer:
 *   tick 1 ms: last_idle 1000, measured 1000 (break: 1004 < 9997), P2 pred 50000/100 = 500
 *   -> C3 (C6's 800 > 500). With the measured 100 it would be 50 -> C1E.
 *   tick 4 ms (HZ=250): last_idle 4000, P2 pred 2000 -> C6. */
static void test_time_invalid_counts_one_tick(void **state)
{
	struct sl_cpuidle_driver drv = test_nehalem;
	u64 p;

	(void)state;
	drv.states[1].flags = 0;
	assert_int_equal(period_on(&drv, MS10, 100, &p), 1);
	assert_int_equal(period_on(&drv, MS10, 100, &p), 3);
	assert_int_equal(p, 500);

	sl_gov_menu_2_6_31.disable(&dev);
	assert_int_equal(sl_gov_menu_2_6_31.enable(&dev, &drv), 0);
	dev.tick_ns = 4000000;
	assert_int_equal(period_on(&drv, MS10, 100, &p), 1);
	assert_int_equal(period_on(&drv, MS10, 100, &p), 4);
	assert_int_equal(p, 2000);
}

/* The sums are u32. Timer periods of 2000 s (2e9 µs) with no timer armed (UINT64_MAX: (u32)
 * gives 0xFFFFFFFF ns, expected 4294967 µs, never a break):
 *   P1 0 -> C1; elapsed 2e9
 *   P2 50 * 2e9 = 1e11 mod 2^32 = 1215752192, / 100 = 12157521 (not 1e9); elapsed 4e9
 *   P3 (607876050 + (2e11 mod 2^32 = 2431504384)) / 100 = 30393804; then 4e9 + 2e9 wraps,
 *      so measured saturates at 0xFFFFFFFF
 *   P4 (1519690200 + 50 * 0xFFFFFFFF mod 2^32 = 4294967246) mod 2^32 = 1519690150,
 *      / 100 = 15196901: the "infinite" measurement lowers the prediction. */
static void test_u32_blend_wraps_and_measured_saturates(void **state)
{
	static const u64 pred[] = {0, 12157521, 30393804, 15196901};
	u64 p;

	(void)state;
	for (int k = 0; k < 4; k++) {
		period(UINT64_MAX, 2000000000ULL, &p);
		assert_int_equal(p, pred[k]);
	}
}

/* The QoS limit. 0 gives poll before any prediction (predicted_ns 0, expected_us left at
 * 0): reflect judges poll (exit 0) and 10004 < 0 - 0 is false, so elapsed 10000, cur 10000.
 *   P2 50 µs: pred 5000, the loop stops at C6 (exit 200 > 50) -> C3; elapsed 20000
 *   P3 2 µs: pred (250000 + 1000000)/100 = 12500, C1E's exit 10 > 2 leaves C1 (exit 3),
 *      which the guard replaces by poll; elapsed 30000
 *   P4 no limit: pred (625000 + 1500000)/100 = 21250 -> C6. */
static void test_latency_limit(void **state)
{
	u64 p;

	(void)state;
	dev.latency_req_ns = 0;
	assert_int_equal(period(MS10, 10000, &p), 0);
	assert_int_equal(p, 0);
	dev.latency_req_ns = 50 * US;
	assert_int_equal(period(MS10, 10000, &p), 3);
	assert_int_equal(p, 5000);
	dev.latency_req_ns = 2 * US;
	assert_int_equal(period(MS10, 10000, &p), 0);
	assert_int_equal(p, 12500);
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 21250);
}

/* Disabled states are skipped. With C1 disabled and a prediction of 0 nothing deeper fits
 * and the guard gives poll; reflect then judges poll (exit 0): 10004 < 10000 is false, so
 * elapsed 10000. With C6 disabled, pred 5000, the deepest fit is C3 (elapsed 20000); with C3
 * disabled, pred 12500, the loop goes on past C3 and takes C6. */
static void test_disabled_states_skipped(void **state)
{
	u64 p;

	(void)state;
	dev.disabled[1] = true;
	assert_int_equal(period(MS10, 10000, &p), 0);
	dev.disabled[1] = false;
	dev.disabled[4] = true;
	assert_int_equal(period(MS10, 10000, &p), 3);
	assert_int_equal(p, 5000);
	dev.disabled[4] = false;
	dev.disabled[3] = true;
	assert_int_equal(period(MS10, 10000, &p), 4);
	assert_int_equal(p, 12500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer_wakeups_accumulate_break_resets, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_break_fuzz, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reflect_uses_chosen_state, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blend_50_50, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sleep_length_truncated_to_u32, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_five_second_sleep_wraps, setup, teardown),
		cmocka_unit_test_setup_teardown(test_expected_below_exit_latency_underflows, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_time_invalid_counts_one_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_u32_blend_wraps_and_measured_saturates, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_latency_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disabled_states_skipped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
