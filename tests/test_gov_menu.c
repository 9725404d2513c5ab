/*
 * The modern menu governor (docs/model/cpuidle.md §4, ns form), driven directly through select()
 * and reflect() on the Nehalem table of docs/model/cpuidle.md §7.1. Values are worked by hand from
 * docs/model/cpuidle.md: RESOLUTION 1024, DECAY 8 (unity 8192, set by enable), predicted_us =
 * (next_timer_ns * cf + 4096000) / 8192000, the typical interval of the last 8 measured idles
 * (us), the multiplier 1 + 10 * nr_iowait applied as latency_req = predicted_ns / mult while
 * the tick runs, TICK_NSEC = 1 ms.
 *
 * A fresh device has 8 zero intervals, so the detector first "finds" 0 (variance 0 <= 400):
 * with the tick running the prediction is 0, latency_req becomes 0 and the CPU polls; the
 * intervals fill with what the wake-ups measure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpuidle/cpuidle.h"
#include "gov_fixture.h"

#include <stdlib.h>
#include <string.h>

extern const struct sl_cpuidle_governor sl_gov_menu;

enum { POLL, C1, C1E, C3, C6 };

struct ctx {
	struct sl_gov_params gp;
	struct sl_cpuidle_dev dev;
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	gov_dev_init(&c->dev, &c->gp); /* menu_tng_quirks=1 */
	assert_int_equal(sl_gov_menu.enable(&c->dev, &test_nehalem), 0);
	assert_non_null(c->dev.gov_data);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	sl_gov_menu.disable(&c->dev);
	assert_null(c->dev.gov_data);
	free(c);
	return 0;
}

/* select as the framework calls it: outputs reset first */
static int sel(struct ctx *c, u64 next_timer_ns, u64 next_tick_ns, bool tick_stopped)
{
	c->dev.next_timer_ns = next_timer_ns;
	c->dev.next_tick_ns = next_tick_ns;
	c->dev.tick_stopped = tick_stopped;
	c->dev.stop_tick = true;
	c->dev.poll_limit_ns = 0;
	c->dev.predicted_ns = 0;
	return sl_gov_menu.select(&c->dev, &test_nehalem);
}

/* the wake-up event came event_ns after entry; the measured residency includes the exit */
static void wake(struct ctx *c, int idx, u64 event_ns, bool poll_time_limit)
{
	c->dev.last_state_idx = idx;
	c->dev.last_residency_ns = event_ns + test_nehalem.states[idx].exit_latency_ns;
	c->dev.poll_time_limit = poll_time_limit;
	c->dev.tick_wakeup = false;
	c->dev.timer_wakeup = false;
	sl_gov_menu.reflect(&c->dev, &test_nehalem, idx);
}

/* n idle periods with the tick running and the timer (the tick) 1 ms away */
static void train(struct ctx *c, const u64 *event_us, int n)
{
	for (int i = 0; i < n; i++) {
		int idx = sel(c, 1000000, 1000000, false);

		wake(c, idx, event_us[i] * 1000, false);
	}
}

static void test_identity(void **state)
{
	(void)state;
	assert_string_equal(sl_gov_menu.name, "menu");
	assert_int_equal(sl_gov_menu.rating, 20);
}

/*
 * A repeating 50 us interval. Each measured value is exactly 50 us (the residency is 50 us plus
 * the exit latency, deducted because 50 > the exit latency of every state chosen). After 8
 * wake-ups: mean 50, variance 0 <= 400, so the typical interval is 50 us, smaller than the
 * factor's prediction (>= 50 us, whatever it became). predicted = 50 us: C1E (20 us fits,
 * C3's 80 does not; exit 10 us <= 50000 / 1); below a tick, so the tick is kept.
 */
static void test_detector_regular(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {50, 50, 50, 50, 50, 50, 50, 50};

	/* fresh: the zero intervals give 0, latency_req 0, poll, with the tick kept */
	assert_int_equal(sel(c, 1000000, 1000000, false), POLL);
	assert_false(c->dev.stop_tick);
	assert_int_equal(c->dev.poll_limit_ns, 6000); /* cpuidle_poll_time: C1's residency */
	wake(c, POLL, 50000, false);
	train(c, ev, 7);
	assert_int_equal(sel(c, 1000000, 1000000, false), C1E);
	assert_int_equal(c->dev.predicted_ns, 50000);
	assert_false(c->dev.stop_tick);
	assert_int_equal(c->dev.poll_limit_ns, 0);
}

/*
 * One outlier among the 8: 50 x 7 and 900. First pass: mean 1250/8 = 156, variance
 * (7 * 106^2 + 744^2) / 8 = 632188 / 8 = 79023 > 400 and 156^2 = 24336 < 36 * 79023: rejected;
 * 8 samples > 6, so drop the largest (thresh 899). Second pass: 50 x 7, variance 0: 50 us.
 */
static void test_detector_outlier(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {50, 50, 50, 50, 50, 50, 50, 900};

	train(c, ev, 8);
	assert_int_equal(sel(c, 1000000, 1000000, false), C1E);
	assert_int_equal(c->dev.predicted_ns, 50000);
}

/*
 * No pattern: 10 200 30 400 50 600 70 800 (measured as such: every event exceeds the exit
 * latency of the state chosen for it). 8 samples: mean 270, rejected; 7 (800 dropped): mean
 * 194, rejected; 6 (600 dropped): mean 126, variance 112136 / 6 = 18689, 126^2 < 36 * 18689:
 * rejected, and 6 samples is the floor: no typical interval. The factor decides. Bucket 3
 * (1 ms), 1024 * measured / 1000000 added after cf - cf/8 each time:
 * 8192 - 1024 + 10 = 7178; 7178 - 897 + 204 = 6485; 6485 - 810 + 30 = 5705;
 * 5705 - 713 + 409 = 5401; 5401 - 675 + 51 = 4777; 4777 - 597 + 614 = 4794;
 * 4794 - 599 + 71 = 4266; 4266 - 533 + 819 = 4552.
 * predicted_us = (1000000 * 4552 + 4096000) / 8192000 = 556: C3 (80 us; C6 needs 800).
 */
static void test_detector_irregular(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {10, 200, 30, 400, 50, 600, 70, 800};

	train(c, ev, 8);
	assert_int_equal(sel(c, 1000000, 1000000, false), C3);
	assert_int_equal(c->dev.predicted_ns, 556000);
	assert_false(c->dev.stop_tick); /* 556 us < one tick */
}

/*
 * The two acceptance rules. 40 80 40 80 ...: mean 60, variance 400 (every sample 20 away):
 * stddev <= 20 us accepts it (60^2 = 3600 is not > 36 * 400); without that rule the 80s would
 * be trimmed and 40 found. 300 350 ...: mean 325, variance 625 > 400, but 325^2 = 105625 >
 * 36 * 625 = 22500 with 8 samples: 325 us. (The events exceed twice every exit latency, so the
 * intervals are the events.)
 */
static void test_detector_rules(void **state)
{
	struct ctx *c = *state;
	static const u64 narrow[8] = {40, 80, 40, 80, 40, 80, 40, 80};
	static const u64 relative[8] = {300, 350, 300, 350, 300, 350, 300, 350};

	train(c, narrow, 8);
	assert_int_equal(sel(c, 1000000, 1000000, false), C1E);
	assert_int_equal(c->dev.predicted_ns, 60000);
	sl_gov_menu.disable(&c->dev);
	assert_int_equal(sl_gov_menu.enable(&c->dev, &test_nehalem), 0);
	train(c, relative, 8);
	assert_int_equal(sel(c, 1000000, 1000000, false), C3);
	assert_int_equal(c->dev.predicted_ns, 325000);
}

/*
 * The factors never exceed unity: 2 ms idles against a 1 ms sleep length (the timer was
 * cancelled while the CPU slept) are clamped to 1 ms, so the factor stays 8192 and every
 * interval is 1000 us, not below the prediction: no pattern. predicted_us = (1000000 * 8192 +
 * 4096000) / 8192000 = 1000: not below a tick, so the tick may stop; C6.
 */
static void test_clamp(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {2000, 2000, 2000, 2000, 2000, 2000, 2000, 2000};

	train(c, ev, 8);
	assert_int_equal(sel(c, 1000000, 1000000, false), C6);
	assert_int_equal(c->dev.predicted_ns, 1000000);
	assert_true(c->dev.stop_tick);
}

/*
 * The iowait buckets: after the irregular training bucket 3 holds 4552, bucket 9 is still at
 * unity: predicted 1000 us; the multiplier 11 gives latency_req 1000000 / 11 = 90909 ns, C6's
 * 200 us exit is too slow: C3. A prediction of one tick lets the tick stop.
 */
static void test_iowait_bucket(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {10, 200, 30, 400, 50, 600, 70, 800};

	train(c, ev, 8);
	c->dev.nr_iowait = 1;
	assert_int_equal(sel(c, 1000000, 1000000, false), C3);
	assert_int_equal(c->dev.predicted_ns, 1000000);
	assert_true(c->dev.stop_tick);
}

/*
 * The iowait multiplier (only while the tick runs). With the 50 us pattern, one iowaiter
 * (bucket 9, also unity, but the intervals are shared): latency_req = 50000 / 11 = 4545 ns,
 * C1E's 10 us exit is too slow: C1.
 */
static void test_multiplier(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {50, 50, 50, 50, 50, 50, 50, 50};

	train(c, ev, 8);
	c->dev.nr_iowait = 1;
	assert_int_equal(sel(c, 1000000, 1000000, false), C1);
	assert_int_equal(c->dev.predicted_ns, 50000);
	assert_false(c->dev.stop_tick);
}

/*
 * Tick already stopped: a prediction below one tick is replaced by the time to the next
 * event, so the 50 us pattern does not hold a tickless CPU shallow. Next timer 5 ms: predicted
 * 5 ms, no multiplier, C6; stop_tick left as it was (true).
 */
static void test_tick_stopped(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {50, 50, 50, 50, 50, 50, 50, 50};

	train(c, ev, 8);
	assert_int_equal(sel(c, 5000000, 1000000, true), C6);
	assert_int_equal(c->dev.predicted_ns, 5000000);
	assert_true(c->dev.stop_tick);
}

/*
 * "A physical state, not polling". A 5 us pattern: predicted 5 us, latency_req 5000 ns. The
 * scan stops at C1 (6 us > 5 us) with poll selected, but C1's exit (3 us) is within the limit
 * and its residency within the 1 ms to the timer: C1, and the tick is kept (6 us < a tick).
 * With a QoS limit of 2999 ns (below C1's exit) the fast path returns poll; with one iowaiter
 * latency_req = 5000 / 11 = 454 ns: the clause fails, poll. Polling: the tick is kept and the
 * poll limit is C1's residency, or C1E's when C1 is disabled.
 */
static void test_poll_decisions(void **state)
{
	struct ctx *c = *state;
	static const u64 ev[8] = {5, 5, 5, 5, 5, 5, 5, 5};

	train(c, ev, 8);
	assert_int_equal(sel(c, 1000000, 1000000, false), C1);
	assert_false(c->dev.stop_tick);
	assert_int_equal(c->dev.poll_limit_ns, 0);

	c->dev.latency_req_ns = 2999;
	assert_int_equal(sel(c, 1000000, 1000000, false), POLL);
	assert_false(c->dev.stop_tick);
	assert_int_equal(c->dev.poll_limit_ns, 6000);
	c->dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;

	c->dev.nr_iowait = 1;
	assert_int_equal(sel(c, 1000000, 1000000, false), POLL);
	assert_int_equal(c->dev.predicted_ns, 5000);
	assert_false(c->dev.stop_tick);
	assert_int_equal(c->dev.poll_limit_ns, 6000);
	c->dev.disabled[C1] = true;
	assert_int_equal(sel(c, 1000000, 1000000, false), POLL);
	assert_int_equal(c->dev.poll_limit_ns, 20000);
}

/*
 * Fast path: a timer closer than C1's residency (5 us < 6 us) or latency_req 0: poll, tick
 * kept. With poll disabled the scan runs instead: prediction 0 (zero intervals), C1 is the
 * first enabled state, and the walk back to fit before the 5 us event finds nothing enabled.
 */
static void test_fast_path(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(sel(c, 5000, 5000, true), POLL);
	assert_false(c->dev.stop_tick);
	assert_int_equal(c->dev.poll_limit_ns, 6000);
	c->dev.latency_req_ns = 0;
	assert_int_equal(sel(c, 5000000, 1000000, true), POLL);
	assert_false(c->dev.stop_tick);
	c->dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	c->dev.disabled[POLL] = true;
	assert_int_equal(sel(c, 5000, 5000, false), C1);
	assert_false(c->dev.stop_tick);
}

/*
 * The tick decision's walk back, and the poll time limit in the update. Training: 8 polls
 * (every prediction is 0: the zero intervals, or after trimming the 900s, the zeros, have a
 * variance <= 400) that each hit the poll limit after 6 us: each counts as the whole 900 us
 * sleep (had the poll limit been ignored, 6 us would be recorded). The factor stays at unity:
 * 8192 - 1024 + 1024 * 900/900. Then: intervals all 900 >= predicted (900 us): no pattern;
 * predicted 900 us, latency_req 900 us, C6 fits (800 us). But 900 us < a tick, the tick is
 * kept, and the tick comes in 500 us: C6's 800 us do not fit, back to C3 (80 us). With the
 * tick already stopped: delta_next is the 900 us timer, C6.
 */
static void test_tick_walk_back(void **state)
{
	struct ctx *c = *state;

	for (int i = 0; i < 8; i++) {
		assert_int_equal(sel(c, 900000, 900000, false), POLL);
		assert_int_equal(c->dev.poll_limit_ns, 6000);
		wake(c, POLL, 6000, true);
	}
	assert_int_equal(sel(c, 900000, 500000, false), C3);
	assert_int_equal(c->dev.predicted_ns, 900000);
	assert_false(c->dev.stop_tick);
	/* the tick in 50 us: C3's 80 us do not fit either, back to C1E (20 us) */
	assert_int_equal(sel(c, 900000, 50000, false), C1E);
	assert_false(c->dev.stop_tick);
	assert_int_equal(sel(c, 900000, 500000, true), C6);
	assert_true(c->dev.stop_tick);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test_setup_teardown(test_detector_regular, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detector_outlier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detector_irregular, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detector_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_iowait_bucket, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiplier, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_decisions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fast_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tick_walk_back, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
