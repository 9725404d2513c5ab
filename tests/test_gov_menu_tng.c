/*
 * menu-tng, the 2.6.32 menu governor, driven directly through select()/reflect() on the
 * Nehalem table of docs/model/cpuidle.md §7.1. Every expected value is worked by hand from
 * docs/model/cpuidle.md §2 (and the 2.6.32 source it summarises): RESOLUTION 1024, DECAY 4, so
 * unity is 4096 and an update is cf * 3 / 4 + 1024 * measured / expected in integers.
 *
 * A trick used throughout: with expected_us = 4096 (bucket 3, 1000..9999 us),
 * predicted_us = DIV_ROUND_CLOSEST(4096 * cf, 4096) = cf, so predicted_ns = cf * 1000 shows the
 * correction factor itself.
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

extern const struct sl_cpuidle_governor sl_gov_menu_tng;

enum { POLL, C1, C1E, C3, C6 };

struct ctx {
	struct sl_gov_params gp;
	struct sl_cpuidle_dev dev;
};

static void set_quirks(struct ctx *c, u64 v)
{
	char err[128];

	assert_int_equal(sl_gov_param_set(&c->gp, "menu_tng_quirks", v, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	gov_dev_init(&c->dev, &c->gp); /* menu_tng_quirks=1 */
	c->dev.next_tick_ns = 1000000;
	c->dev.tick_stopped = true;
	c->dev.next_timer_ns = 4096000;
	assert_int_equal(sl_gov_menu_tng.enable(&c->dev, &test_nehalem), 0);
	assert_non_null(c->dev.gov_data);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;

	sl_gov_menu_tng.disable(&c->dev);
	assert_null(c->dev.gov_data);
	free(c);
	return 0;
}

static int sel(struct ctx *c, u64 next_timer_ns)
{
	c->dev.next_timer_ns = next_timer_ns;
	return sl_gov_menu_tng.select(&c->dev, &test_nehalem);
}

/* the CPU was idle residency_ns in state idx; what the framework does on wake-up */
static void wake(struct ctx *c, int idx, u64 residency_ns)
{
	c->dev.last_state_idx = idx;
	c->dev.last_residency_ns = residency_ns;
	sl_gov_menu_tng.reflect(&c->dev, &test_nehalem, idx);
}

static void test_identity(void **state)
{
	(void)state;
	assert_string_equal(sl_gov_menu_tng.name, "menu-tng");
	assert_int_equal(sl_gov_menu_tng.rating, 20);
}

/*
 * Every wake-up comes 1024 us into a 4096 us expected sleep (ratio 1/4). 2.6.32 order (quirk
 * Q2): the update runs after select reset exit_us to 0, so measured = 1024 and each update adds
 * 1024 * 1024 / 4096 = 256: 4096 (lazy unity), 4096*3/4 + 256 = 3328, 3328*3/4 + 256 = 2752,
 * 2752*3/4 + 256 = 2320, 2320*3/4 + 256 = 1996, 1996*3/4 = 1497 (5988/4) + 256 = 1753,
 * 1753*3/4 = 1314 (5259/4 truncated) + 256 = 1570. Every prediction is >= 800 us and >= the
 * C6 exit latency (multiplier 1), so C6 each time.
 */
static void test_cf_sequence(void **state)
{
	struct ctx *c = *state;
	static const u64 cf[] = {4096, 3328, 2752, 2320, 1996, 1753, 1570};

	for (size_t i = 0; i < SL_ARRAY_SIZE(cf); i++) {
		assert_int_equal(sel(c, 4096000), C6);
		assert_int_equal(c->dev.predicted_ns, cf[i] * 1000);
		wake(c, C6, 1024000);
	}
	/* the update is deferred to the next select, and runs once */
	assert_int_equal(sel(c, 4096000), C6);
	assert_int_equal(c->dev.predicted_ns, (1570 * 3 / 4 + 256) * 1000); /* 1433 */
	assert_int_equal(sel(c, 4096000), C6);
	assert_int_equal(c->dev.predicted_ns, 1433000);
}

/*
 * Quirk Q2 switched off: the update uses the state entered and subtracts its exit latency,
 * measured = 1024 - 200 = 824, adding 1024 * 824 / 4096 = 206 (206.0): 4096, 3072 + 206 = 3278,
 * 3278*3/4 = 2458 + 206 = 2664, 2664*3/4 = 1998 + 206 = 2204, 2204*3/4 = 1653 + 206 = 1859.
 */
static void test_cf_sequence_corrected(void **state)
{
	struct ctx *c = *state;
	static const u64 cf[] = {4096, 3278, 2664, 2204, 1859};

	set_quirks(c, 0);
	for (size_t i = 0; i < SL_ARRAY_SIZE(cf); i++) {
		assert_int_equal(sel(c, 4096000), C6);
		assert_int_equal(c->dev.predicted_ns, cf[i] * 1000);
		wake(c, C6, 1024000);
	}
}

/*
 * A factor never reaches 0: idles of 0 us take 4096 down by 3/4 each time (4096, 3072, 2304,
 * ... 3, 2, 1); then 1 * 3 / 4 + 0 = 0, which 2.6.32 turns into 1 (otherwise the lazy init
 * would make it unity again). After 40 wake-ups cf = 1: predicted (4096 + 2048) / 4096 = 1 us.
 */
static void test_cf_floor(void **state)
{
	struct ctx *c = *state;

	for (int i = 0; i < 40; i++)
		wake(c, sel(c, 4096000), 0);
	sel(c, 4096000);
	assert_int_equal(c->dev.predicted_ns, 1000);
}

/* Corrected mode keeps the rounding up of the sleep length: 2199.001 us is 2200 us. */
static void test_round_up_corrected(void **state)
{
	struct ctx *c = *state;

	set_quirks(c, 0);
	c->dev.nr_iowait = 1;
	assert_int_equal(sel(c, 2199000), C3);
	assert_int_equal(sel(c, 2199001), C6);
	assert_int_equal(c->dev.predicted_ns, 2200000);
}

/*
 * Separate factors for iowait: bucket 3 (no iowait) and bucket 9 (= 6 + 3, iowait) at the same
 * 4096 us. One wake-up in bucket 3 takes it to 3328; bucket 9 is still fresh (4096) until its
 * own wake-up; a 512 us sleep is bucket 2, fresh too.
 */
static void test_buckets_iowait(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(sel(c, 4096000), C6);
	assert_int_equal(c->dev.predicted_ns, 4096000);
	wake(c, C6, 1024000); /* bucket 3 -> 3328 at the next select */

	c->dev.nr_iowait = 1;
	/* bucket 9, unity; multiplier 11: C6 needs 2200 us, 4096 passes */
	assert_int_equal(sel(c, 4096000), C6);
	assert_int_equal(c->dev.predicted_ns, 4096000);
	wake(c, C6, 1024000); /* bucket 9 -> 3328 */

	c->dev.nr_iowait = 0;
	assert_int_equal(sel(c, 4096000), C6);
	assert_int_equal(c->dev.predicted_ns, 3328000); /* bucket 3 trained once */

	c->dev.nr_iowait = 1; /* no wake-up in between: no update */
	assert_int_equal(sel(c, 4096000), C6);
	assert_int_equal(c->dev.predicted_ns, 3328000); /* bucket 9 trained once */

	c->dev.nr_iowait = 0;
	assert_int_equal(sel(c, 512000), C3); /* bucket 2, fresh: 512 us */
	assert_int_equal(c->dev.predicted_ns, 512000);
}

/*
 * The multiplier 1 + 2*loadavg + 10*iowait. Fresh buckets, no updates: predicted = expected.
 * One iowaiter, no load: 11. C6 needs 200*11 = 2200 us, C3 20*11 = 220 us, C1E 110 us.
 */
static void test_multiplier_iowait(void **state)
{
	struct ctx *c = *state;

	c->dev.nr_iowait = 1;
	assert_int_equal(sel(c, 2199000), C3);
	assert_int_equal(sel(c, 2200000), C6);
	/* the sleep length is rounded up: 2199.001 us is 2200 */
	assert_int_equal(sel(c, 2199001), C6);
	assert_int_equal(sel(c, 219000), C1E);
	assert_int_equal(sel(c, 220000), C3);
	/* without the iowaiter the same sleeps reach C6 (>= 800 us) and C3 */
	c->dev.nr_iowait = 0;
	assert_int_equal(sel(c, 2199000), C6);
	assert_int_equal(sel(c, 219000), C3);
	/* two iowaiters: 21, C3 needs 420 us */
	c->dev.nr_iowait = 2;
	assert_int_equal(sel(c, 419000), C1E);
	assert_int_equal(sel(c, 420000), C3);
}

/*
 * The load term: get_loadavg() reads cpu_load[0] as FSHIFT-11 fixed point, in tenths.
 * cpu_load0 = 1024 (one nice-0 task): 0*10 + ((1024*100) >> 11)/10 = 50/10 = 5, mult 11 (the
 * same as one iowaiter). 2048: 1*10 + 0 = 10, mult 21. 1023: (102300 >> 11) = 49, /10 = 4,
 * mult 9: C6 needs 1800 us.
 */
static void test_multiplier_load(void **state)
{
	struct ctx *c = *state;

	c->dev.cpu_load0 = 1024;
	assert_int_equal(sel(c, 2199000), C3);
	assert_int_equal(sel(c, 2200000), C6);
	c->dev.cpu_load0 = 2048;
	assert_int_equal(sel(c, 4199000), C3);
	assert_int_equal(sel(c, 4200000), C6);
	c->dev.cpu_load0 = 1023;
	assert_int_equal(sel(c, 1799000), C3);
	assert_int_equal(sel(c, 1800000), C6);
	/* load and iowait add: 1 + 10 + 10 = 21 */
	c->dev.cpu_load0 = 1024;
	c->dev.nr_iowait = 1;
	assert_int_equal(sel(c, 4199000), C3);
	assert_int_equal(sel(c, 4200000), C6);
}

/*
 * Quirk Q3 (2.6.32 tests the never-written data->measured_us against MAX_INTERESTING): a
 * 61440 us idle of an expected 102400 us (bucket 5; predicted = 25 * cf). 2.6.32: ratio,
 * 3072 + 1024*61440/102400 = 3072 + 614 = 3686, predicted 25 * 3686 = 92150 us. Corrected:
 * 61440 - 200 >= 50000 us counts as perfect, 3072 + 1024 = 4096, predicted 102400 us.
 */
static void test_quirk_max_interesting(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(sel(c, 102400000), C6);
	assert_int_equal(c->dev.predicted_ns, 102400000);
	wake(c, C6, 61440000);
	assert_int_equal(sel(c, 102400000), C6);
	assert_int_equal(c->dev.predicted_ns, 92150000);

	set_quirks(c, 0);
	sl_gov_menu_tng.disable(&c->dev);
	assert_int_equal(sl_gov_menu_tng.enable(&c->dev, &test_nehalem), 0);
	assert_int_equal(sel(c, 102400000), C6);
	wake(c, C6, 61440000);
	assert_int_equal(sel(c, 102400000), C6);
	assert_int_equal(c->dev.predicted_ns, 102400000);
}

/*
 * Quirk Q1: (u32) of the sleep length in ns. 5 s = 5000000000 ns, mod 2^32 = 705032704 ns, so
 * expected_us = 705033 and predicted 705033000 ns; corrected, 5000000 us. Quirk Q4: with
 * expected 4294000 us (4294000000 ns fits u32) and a 4200000 us idle, 1024 * 4200000 mod 2^32
 * = 5832704, / 4294000 = 1: cf = 3072 + 1 = 3073, predicted (4294000*3073 + 2048)/4096 =
 * 3221548 us. Corrected: >= 50 ms is perfect, 4096, predicted 4294000 us.
 */
static void test_quirk_u32(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(sel(c, 5000000000ULL), C6);
	assert_int_equal(c->dev.predicted_ns, 705033000ULL);
	set_quirks(c, 0);
	assert_int_equal(sel(c, 5000000000ULL), C6);
	assert_int_equal(c->dev.predicted_ns, 5000000000ULL);

	set_quirks(c, 1);
	assert_int_equal(sel(c, 4294000000ULL), C6);
	assert_int_equal(c->dev.predicted_ns, 4294000000ULL);
	wake(c, C6, 4200000000ULL);
	assert_int_equal(sel(c, 4294000000ULL), C6);
	assert_int_equal(c->dev.predicted_ns, 3221548000ULL);
	set_quirks(c, 0);
	wake(c, C6, 4200000000ULL);
	assert_int_equal(sel(c, 4294000000ULL), C6);
	/* 3073 * 3 / 4 = 2304 + 1024 = 3328: (4294000 * 3328 + 2048) / 4096 = 3488875 */
	assert_int_equal(c->dev.predicted_ns, 3488875000ULL);
}

/* The PM QoS limit and sysfs disable: fresh buckets, 4096 us predicted (C6 unconstrained). */
static void test_latency_and_disabled(void **state)
{
	struct ctx *c = *state;

	c->dev.latency_req_ns = 20000; /* 20 us: C3 (20) passes, C6 (200) not */
	assert_int_equal(sel(c, 4096000), C3);
	c->dev.latency_req_ns = 19999; /* 19 us: C3 fails, C1E (10) */
	assert_int_equal(sel(c, 4096000), C1E);
	c->dev.latency_req_ns = 2999; /* below C1's 3 us: the C1 default yields to poll */
	assert_int_equal(sel(c, 4096000), POLL);
	c->dev.latency_req_ns = 0;
	assert_int_equal(sel(c, 4096000), POLL);
	assert_int_equal(c->dev.predicted_ns, 0);
	c->dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;

	c->dev.disabled[C6] = true; /* the deepest left */
	assert_int_equal(sel(c, 4096000), C3);
	c->dev.disabled[C6] = false;
	c->dev.disabled[C3] = true; /* skipped, the scan goes on */
	assert_int_equal(sel(c, 4096000), C6);
	c->dev.disabled[C3] = false;
	/* 3 us to the timer: not above 5, poll; with poll disabled, C1 */
	assert_int_equal(sel(c, 3000), POLL);
	c->dev.disabled[POLL] = true;
	assert_int_equal(sel(c, 3000), C1);
	/* 6 us: C1 (residency 6 <= 6); with C1 disabled the default falls back to poll, as 3.x */
	c->dev.disabled[POLL] = false;
	assert_int_equal(sel(c, 6000), C1);
	c->dev.disabled[C1] = true;
	assert_int_equal(sel(c, 6000), POLL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identity),
		cmocka_unit_test_setup_teardown(test_cf_sequence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cf_sequence_corrected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cf_floor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_round_up_corrected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_buckets_iowait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiplier_iowait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multiplier_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quirk_max_interesting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quirk_u32, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latency_and_disabled, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
