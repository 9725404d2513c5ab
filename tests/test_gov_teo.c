/*
 * The TEO governor (latest variant, docs/model/cpuidle.md §5.3) driven by hand on a Nehalem table:
 * the hits and intercepts arithmetic (exact integers: decay by m>>3, small values collapse to 0,
 * PULSE 1024), a run of short intercepts taking it to a shallower state than the sleep length
 * allows and hits bringing it back, the short-idle shortcut, the tick decision, tick wake-ups,
 * the poll time limit, PM QoS and disabled states.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "cpuidle/cpuidle.h"
#include "gov_fixture.h"

#include <string.h>

#include "cpuidle/governors/teo.h"

extern const struct sl_cpuidle_governor sl_gov_teo;

#define US(x) ((u64)(x)*NSEC_PER_USEC)
#define MS(x) ((u64)(x)*NSEC_PER_MSEC)
#define TV    CPUIDLE_FLAG_TIME_VALID

static struct sl_cpuidle_dev dev;

static struct sl_teo_cpu *teo(void)
{
	return dev.gov_data;
}

static int setup(void **state)
{
	(void)state;
	memset(&dev, 0, sizeof(dev));
	dev.tick_ns = MS(4); /* HZ=250 */
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	dev.next_tick_ns = MS(3);
	dev.tick_stopped = false;
	return sl_gov_teo.enable(&dev, &test_nehalem);
}

static int teardown(void **state)
{
	(void)state;
	sl_gov_teo.disable(&dev);
	assert_null(dev.gov_data);
	return 0;
}

static int sel(u64 sleep)
{
	dev.next_timer_ns = sleep;
	return sl_gov_teo.select(&dev, &test_nehalem);
}

/* An idle of residency ns in state idx, then reflect. */
static void wake(int idx, u64 residency, bool tick)
{
	dev.last_residency_ns = residency;
	dev.tick_wakeup = tick;
	dev.poll_time_limit = false;
	sl_gov_teo.reflect(&dev, &test_nehalem, idx);
}

static void assert_bins(const unsigned *hits, const unsigned *intercepts)
{
	for (int i = 0; i < test_nehalem.state_count; i++) {
		assert_int_equal(teo()->bins[i].hits, hits[i]);
		assert_int_equal(teo()->bins[i].intercepts, intercepts[i]);
	}
}

static void test_identity(void **state)
{
	(void)state;
	assert_string_equal(sl_gov_teo.name, "teo");
	assert_int_equal(sl_gov_teo.rating, 19);
	assert_non_null(teo());
	assert_int_equal(teo()->total, 0);
	assert_true(teo()->sleep_length_ns == SL_TEO_INF);
}

/* Timer wake-ups at the sleep length: hits on the C6 bin, decayed by 1/8 before each pulse. */
static void test_hits_accumulate(void **state)
{
	static const unsigned none[5] = {0};
	/* 1024; 1024 - 128 + 1024 = 1920; 1920 - 240 + 1024 = 2704; 2704 - 338 + 1024 = 3390 */
	static const unsigned expect[4] = {1024, 1920, 2704, 3390};

	(void)state;
	for (int k = 0; k < 4; k++) {
		unsigned hits[5] = {0, 0, 0, 0, expect[k]};

		/* no history against it: the deepest state, the tick stopped for a 10 ms sleep */
		assert_int_equal(sel(MS(10)), 4);
		assert_true(dev.stop_tick);
		assert_true(dev.predicted_ns == MS(10));
		assert_true(teo()->sleep_length_ns == MS(10));
		/* measured = 10 ms - 200/2 us = 9.9 ms: the bin of the sleep length, a hit */
		wake(4, MS(10), false);
		assert_true(teo()->measured_ns == MS(10) - US(100));
		assert_bins(hits, none);
		assert_int_equal(teo()->total, expect[k]);
		assert_int_equal(teo()->tick_intercepts, 0);
		assert_int_equal(teo()->short_idles, 0);
	}
}

/* Without pulses a counter decays to 0: 1024, 896, 784, ... 9, 8, 7, then 0 (7 >> 3 == 0). */
static void test_decay_collapses(void **state)
{
	static const unsigned seq[] = {1024, 896, 784, 686, 601, 526, 461, 404, 354, 310, 272,
				       238,  209, 183, 161, 141, 124, 109, 96,	84,  74,  65,
				       57,   50,  44,  39,  35,	 31,  28,  25,	22,  20,  18,
				       16,   14,  13,  12,  11,	 10,  9,   8,	7,   0};

	(void)state;
	/* one intercept in the C1E bin: woken after 50 us in C6, measured = 50 / 2 = 25 us */
	assert_int_equal(sel(MS(10)), 4);
	wake(4, US(50), false);
	assert_int_equal(teo()->bins[2].intercepts, 1024);
	/* then timer wake-ups that only decay it (each a hit on C6) */
	for (size_t k = 1; k < SL_ARRAY_SIZE(seq); k++) {
		int idx = sel(MS(10));

		wake(idx, MS(10), false);
		assert_int_equal(teo()->bins[2].intercepts, seq[k]);
	}
}

/*
 * A run of wake-ups 50 us into a 10 ms sleep: intercepts in the C1E bin take the governor from
 * C6 to C1E (the sleep length would allow C6), and keep the tick; then timer wake-ups (hits
 * on C6) bring it back once the hits outweigh the intercepts.
 */
static void test_intercepts_then_hits(void **state)
{
	static const unsigned none[5] = {0};
	/* intercepts[C1E] after each short wake-up: 1024, 896 + 1024, ... */
	static const unsigned ints[5] = {1024, 1920, 2704, 3390, 3991};
	static const unsigned shorts[5] = {1024, 896, 784, 686, 601};
	int idx;

	(void)state;
	/* 1: C6 (nothing known), woken after 50 us: below C6's 200 us exit latency, so measured =
	 * 50 / 2 = 25 us, in the C1E bin [20, 80) us, a short idle; the timer's bin is C6's: an
	 * intercept, and one within a tick */
	assert_int_equal(sel(MS(10)), 4);
	assert_true(dev.stop_tick);
	wake(4, US(50), false);
	{
		unsigned i1[5] = {0, 0, 1024, 0, 0};

		assert_bins(none, i1);
	}
	assert_int_equal(teo()->total, 1024);
	assert_int_equal(teo()->tick_intercepts, 1024);
	assert_int_equal(teo()->short_idles, 1024);

	/* 2..5: intercepts below C6 = 1024 > total - hits below = 1024 / 2: walk down: C3's bin
	 * has none, C1E's has all of them: C1E. Tick intercepts 3 x 1024 > 2 x 1024: plan for half
	 * a tick, keep the tick. In C1E (10 us), 50 us measure 45 us: an intercept, not short. */
	for (int k = 1; k < 5; k++) {
		unsigned i[5] = {0, 0, ints[k], 0, 0};

		idx = sel(MS(10));
		assert_int_equal(idx, 2);
		assert_false(dev.stop_tick);
		assert_true(dev.predicted_ns == MS(2));
		wake(idx, US(50), false);
		assert_true(teo()->measured_ns == US(45));
		assert_bins(none, i);
		assert_int_equal(teo()->total, ints[k]);
		assert_int_equal(teo()->tick_intercepts, ints[k]);
		assert_int_equal(teo()->short_idles, shorts[k]);
	}

	/* Hits: timer wake-ups at 10 ms. Intercepts I decay, hits H on C6 grow; C1E stays while
	 * 2I > I + H, i.e. I > H:
	 *   hit 1: I = 3991 - 498 = 3493, H = 1024, total 4517, TI 3493 (3 x TI > 2 x total)
	 *   hit 2: I = 3057, H = 1920, total 4977, TI 3057 (9171 < 9954: the tick may stop now)
	 *   hit 3: I = 2675, H = 2704, total 5379: 2 x 2675 = 5350 <= 5379, C6 again. */
	static const struct {
		int idx;
		bool stop_tick;
		unsigned h, i, total;
	} back[] = {
		{2, false, 1024, 3493, 4517},
		{2, false, 1920, 3057, 4977},
		{2, true, 2704, 2675, 5379},
		{4, true, 3390, 2341, 5731},
	};
	for (size_t k = 0; k < SL_ARRAY_SIZE(back); k++) {
		unsigned h[5] = {0, 0, 0, 0, back[k].h}, i[5] = {0, 0, back[k].i, 0, 0};

		idx = sel(MS(10));
		assert_int_equal(idx, back[k].idx);
		assert_int_equal(dev.stop_tick, back[k].stop_tick);
		wake(idx, MS(10), false);
		assert_bins(h, i);
		assert_int_equal(teo()->total, back[k].total);
	}
	assert_int_equal(sel(MS(10)), 4);
}

/* With the tick already stopped the walk may not go below states reaching a tick: on Nehalem
 * (every target residency < 4 ms) the intercepts cannot move it off C6. */
static void test_tick_stopped_limits_walk(void **state)
{
	(void)state;
	assert_int_equal(sel(MS(10)), 4);
	wake(4, US(50), false);
	dev.tick_stopped = true;
	assert_int_equal(sel(MS(10)), 4);
	assert_true(dev.stop_tick);
	dev.tick_stopped = false;
	assert_int_equal(sel(MS(10)), 2);
}

/* Short idles dominate and the candidate is below 15 us: no sleep length, keep the tick. */
static void test_short_idles_shortcut(void **state)
{
	(void)state;
	/* 14 us in C6: measured 7 us, the C1 bin [6, 20) us, short */
	assert_int_equal(sel(MS(10)), 4);
	wake(4, US(14), false);
	assert_int_equal(teo()->bins[1].intercepts, 1024);
	assert_int_equal(teo()->short_idles, 1024);
	/* the walk gives C1 (6 us < 15 us) and 2 x 1024 >= total 1024: return at once */
	assert_int_equal(sel(MS(10)), 1);
	assert_false(dev.stop_tick);
	assert_true(teo()->sleep_length_ns == SL_TEO_INF);
	assert_true(dev.predicted_ns == US(6));
	/* the sleep length stayed unknown, so the next wake-up is an intercept again (the timer's
	 * bin is the last one): 14 us in C1 measure 14 - 1.5 = 12.5 us */
	wake(1, US(14), false);
	assert_true(teo()->measured_ns == US(14) - 1500);
	assert_int_equal(teo()->bins[1].intercepts, 896 + 1024);
	assert_int_equal(teo()->bins[4].hits, 0);
	assert_int_equal(teo()->short_idles, 896 + 1024);
}

static void test_tick_decision(void **state)
{
	(void)state;
	/* a 2 ms sleep: C6 fits (800 us), but 2 ms < a tick: keep the tick, and C6's 800 us are
	 * beyond the next tick 500 us away, so the deepest state fitting before it: C3 (80 us) */
	dev.next_tick_ns = US(500);
	assert_int_equal(sel(MS(2)), 3);
	assert_false(dev.stop_tick);
	assert_true(dev.predicted_ns == US(500));
	/* the next tick 1 ms away: C6 fits before it */
	dev.next_tick_ns = MS(1);
	assert_int_equal(sel(MS(2)), 4);
	assert_false(dev.stop_tick);
	/* the tick already stopped: it stays stopped whatever the duration */
	dev.tick_stopped = true;
	dev.next_tick_ns = US(500);
	assert_int_equal(sel(MS(2)), 4);
	assert_true(dev.stop_tick);
	assert_true(dev.predicted_ns == MS(2));
	dev.tick_stopped = false;
	/* a sleep of a tick or more: stop it */
	assert_int_equal(sel(MS(4)), 4);
	assert_true(dev.stop_tick);
	/* the sleep length caps the state: 50 us allows C1E (20 us), not C3 (80 us) */
	assert_int_equal(sel(US(50)), 2);
	assert_false(dev.stop_tick);
	/* no timer at all */
	assert_int_equal(sel(UINT64_MAX), 4);
	assert_true(dev.stop_tick);
}

/* Tick wake-ups dominate (3 x total_tick > 2 x total): a hit on the deepest state, whatever
 * the measured duration. */
static void test_tick_wakeups(void **state)
{
	(void)state;
	assert_int_equal(sel(MS(10)), 4);
	/* woken by the tick after 50 us (measured 25 us): total 1024, total_tick 1024 */
	wake(4, US(50), true);
	assert_int_equal(teo()->total_tick, 1024);
	assert_int_equal(teo()->bins[4].hits, 1024);
	assert_int_equal(teo()->bins[2].intercepts, 0);
	assert_int_equal(teo()->tick_intercepts, 0);
	/* the same idle not from the tick: an intercept; total_tick only decays */
	assert_int_equal(sel(MS(10)), 4);
	wake(4, US(50), false);
	assert_int_equal(teo()->total_tick, 896);
	assert_int_equal(teo()->bins[4].hits, 896);
	assert_int_equal(teo()->bins[2].intercepts, 1024);
	assert_int_equal(teo()->tick_intercepts, 1024);
	assert_int_equal(teo()->total, 1920);
	/* a tick wake-up now: total_tick 784 + 1024 = 1808, 3 x 1808 = 5424 > 2 x total
	 * (784 + 896 + 1024 = 2704): dominant still, a hit on C6 */
	assert_int_equal(sel(MS(10)), 2);
	wake(2, US(50), true);
	assert_int_equal(teo()->total_tick, 1808);
	assert_int_equal(teo()->bins[4].hits, 784 + 1024);
	assert_int_equal(teo()->bins[2].intercepts, 896);
}

/* PM QoS: the deepest state within the limit; below 7.5 us the sleep length is not asked. */
static void test_latency_req(void **state)
{
	(void)state;
	dev.latency_req_ns = US(50);
	assert_int_equal(sel(MS(10)), 3);
	dev.latency_req_ns = US(20);
	assert_int_equal(sel(MS(10)), 3);
	dev.latency_req_ns = US(19);
	assert_int_equal(sel(MS(10)), 2);
	dev.latency_req_ns = US(5);
	assert_int_equal(sel(MS(10)), 1);
	assert_false(dev.stop_tick);
	assert_true(teo()->sleep_length_ns == SL_TEO_INF);
	/* 0: poll, with the poll time limit of the first deeper state's target residency */
	dev.latency_req_ns = 0;
	assert_int_equal(sel(MS(10)), 0);
	assert_false(dev.stop_tick);
	assert_true(dev.poll_limit_ns == US(6));
}

/* The poll time limit expired: a safety net, measured = infinity, so a hit (the timer bin is
 * the last one, the sleep length not having been asked). */
static void test_poll_time_limit(void **state)
{
	(void)state;
	dev.latency_req_ns = 0;
	assert_int_equal(sel(MS(10)), 0);
	dev.last_residency_ns = US(6);
	dev.tick_wakeup = false;
	dev.poll_time_limit = true;
	sl_gov_teo.reflect(&dev, &test_nehalem, 0);
	assert_int_equal(teo()->bins[4].hits, 1024);
	assert_int_equal(teo()->short_idles, 0);
	assert_true(teo()->measured_ns == SL_TEO_INF);
}

static void test_disabled_states(void **state)
{
	(void)state;
	dev.disabled[4] = true;
	assert_int_equal(sel(MS(10)), 3);
	assert_true(dev.stop_tick);
	/* only C1E enabled: it, planned for its target residency, the tick kept */
	dev.disabled[0] = dev.disabled[1] = dev.disabled[3] = true;
	assert_int_equal(sel(MS(10)), 2);
	assert_false(dev.stop_tick);
	assert_true(dev.predicted_ns == US(20));
	/* shallower than the sleep length needs: skip the disabled ones (C1E, not C1 or POLL) */
	dev.disabled[3] = false;
	assert_int_equal(sel(US(50)), 2);
	/* intercepts pointing at a disabled state: the walk passes over it */
	memset(dev.disabled, 0, sizeof(dev.disabled));
	assert_int_equal(sel(MS(10)), 4);
	wake(4, US(50), false); /* an intercept in the C1E bin */
	dev.disabled[2] = true;
	assert_int_equal(sel(MS(10)), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hits_accumulate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_decay_collapses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_intercepts_then_hits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_stopped_limits_walk, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_idles_shortcut, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_decision, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_wakeups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latency_req, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_time_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disabled_states, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
