/*
 * The haltpoll governor against values worked by hand from docs/model/cpuidle.md §6, on the
 * cpuidle-haltpoll driver's two states: 0 POLL (0/0, POLL|TIME_VALID), 1 halt (1/1 µs), and
 * the default module parameters: guest_halt_poll_ns 200000, shrink 2, grow 2, grow_start
 * 50000 ns, allow_shrink true. One idle period is select(), then the measured block time and
 * whether the poll ran out its window (poll_time_limit), then reflect(index).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpuidle/cpuidle.h"
#include "gov_fixture.h"

#include <string.h>

extern const struct sl_cpuidle_governor sl_gov_haltpoll;

#define US 1000ULL

static const struct sl_cpuidle_driver haltpoll_drv = {
	.name = "haltpoll",
	.state_count = 2,
	.states = {{"POLL", 0, 0, 0, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID, 0},
		   {"haltpoll", 1 * US, 1 * US, 0, CPUIDLE_FLAG_TIME_VALID, 0}},
};

static struct sl_gov_params gp;
static struct sl_cpuidle_dev dev;

static void set(const char *name, u64 v)
{
	char err[128];

	assert_int_equal(sl_gov_param_set(&gp, name, v, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	(void)state;
	gov_dev_init(&dev, &gp); /* the module's: 200 us, shrink 2, grow 2, 50 us, on */
	dev.next_timer_ns = 1000000;
	dev.poll_limit_ns = 12345; /* enable must reset it */
	return sl_gov_haltpoll.enable(&dev, &haltpoll_drv);
}

static int teardown(void **state)
{
	(void)state;
	sl_gov_haltpoll.disable(&dev);
	assert_null(dev.gov_data);
	return 0;
}

static int select_idx(void)
{
	dev.stop_tick = true;
	return sl_gov_haltpoll.select(&dev, &haltpoll_drv);
}

static void wake(int idx, u64 block_us, bool window_expired)
{
	dev.last_residency_ns = block_us * US;
	dev.poll_time_limit = window_expired;
	sl_gov_haltpoll.reflect(&dev, &haltpoll_drv, idx);
}

/* A halt period: select must choose halt (and leave the tick to be stopped). */
static void halt_for(u64 block_us)
{
	assert_int_equal(select_idx(), 1);
	assert_true(dev.stop_tick);
	wake(1, block_us, false);
}

/* A poll period after a halt: select must poll, keep the tick, and give the window. */
static void poll_expect(u64 limit_ns, u64 block_us, bool expired)
{
	assert_int_equal(select_idx(), 0);
	assert_false(dev.stop_tick);
	assert_int_equal(dev.poll_limit_ns, limit_ns);
	wake(0, block_us, expired);
}

static void test_identity(void **state)
{
	(void)state;
	assert_string_equal(sl_gov_haltpoll.name, "haltpoll");
	assert_int_equal(sl_gov_haltpoll.rating, 9);
	assert_non_null(dev.gov_data);
	assert_int_equal(dev.poll_limit_ns, 0);
}

/* Growth. The window starts at 0, so the first idle halts. Each halt shorter than 200 µs and
 * longer than the window grows it: 0 * 2 = 0, raised to grow_start 50000; 50000 * 2 =
 * 100000; 100000 * 2 = 200000 (= guest_halt_poll_ns). After each halt the next idle polls;
 * the poll runs out its window (poll_time_limit), so the one after halts again. A 150 µs halt
 * with the window at 200 µs neither grows (150000 > 200000 is false) nor shrinks. */
static void test_window_grows_0_50_100_200(void **state)
{
	(void)state;
	halt_for(30);
	assert_int_equal(dev.poll_limit_ns, 50000);
	poll_expect(50000, 50, true);
	halt_for(80);
	assert_int_equal(dev.poll_limit_ns, 100000);
	poll_expect(100000, 100, true);
	halt_for(150);
	assert_int_equal(dev.poll_limit_ns, 200000);
	poll_expect(200000, 200, true);
	halt_for(150);
	assert_int_equal(dev.poll_limit_ns, 200000);
}

/* A halt no longer than the window does not grow it: at 50 µs, a 40 µs halt leaves 50 µs; a
 * 50 µs halt (50000 > 50000 is false) too. */
static void test_short_halt_keeps_window(void **state)
{
	(void)state;
	halt_for(30);
	poll_expect(50000, 50, true);
	halt_for(40);
	assert_int_equal(dev.poll_limit_ns, 50000);
	poll_expect(50000, 50, true);
	halt_for(50);
	assert_int_equal(dev.poll_limit_ns, 50000);
}

/* Poll again versus halt: after a poll that ended with an event (window not expired) the
 * governor polls again; after one that ran out its window it halts. A poll never changes
 * the window, however long it lasted. */
static void test_poll_again_or_halt(void **state)
{
	(void)state;
	halt_for(30);
	poll_expect(50000, 10, false);
	poll_expect(50000, 10, false);
	poll_expect(50000, 5000, false); /* reflect after poll: no adjustment */
	poll_expect(50000, 50, true);
	halt_for(80);
	assert_int_equal(dev.poll_limit_ns, 100000);
}

/* Shrink on a long block: a halt over 200 µs divides the window by 2: 200000 -> 100000 ->
 * 50000 -> 25000 -> 12500. A 20 µs halt then grows it: 12500 * 2 = 25000, below grow_start,
 * so 50000. */
static void test_window_shrinks_on_long_block(void **state)
{
	(void)state;
	halt_for(30);
	poll_expect(50000, 50, true);
	halt_for(80);
	poll_expect(100000, 100, true);
	halt_for(150);
	assert_int_equal(dev.poll_limit_ns, 200000);
	poll_expect(200000, 200, true);
	halt_for(300);
	assert_int_equal(dev.poll_limit_ns, 100000);
	poll_expect(100000, 100, true);
	halt_for(1000);
	assert_int_equal(dev.poll_limit_ns, 50000);
	poll_expect(50000, 50, true);
	halt_for(201);
	assert_int_equal(dev.poll_limit_ns, 25000);
	poll_expect(25000, 25, true);
	halt_for(100000);
	assert_int_equal(dev.poll_limit_ns, 12500);
	poll_expect(12500, 13, true);
	halt_for(20);
	assert_int_equal(dev.poll_limit_ns, 50000);
}

/* allow_shrink false keeps the window on a long block; shrink 0 sets it to 0, after which
 * the governor halts directly again (no window to poll in). */
static void test_shrink_parameters(void **state)
{
	(void)state;
	halt_for(30);
	poll_expect(50000, 50, true);
	set("haltpoll_allow_shrink", 0);
	halt_for(500);
	assert_int_equal(dev.poll_limit_ns, 50000);
	poll_expect(50000, 50, true);
	set("haltpoll_allow_shrink", 1);
	set("haltpoll_shrink", 0);
	halt_for(500);
	assert_int_equal(dev.poll_limit_ns, 0);
	halt_for(30); /* window 0: halt, then grow to grow_start again */
	assert_int_equal(dev.poll_limit_ns, 50000);
}

/* The ceiling: with grow 3, 50000 * 3 = 150000, then 150000 * 3 = 450000 capped at 200000. */
static void test_growth_capped(void **state)
{
	(void)state;
	set("haltpoll_grow", 3);
	halt_for(30);
	assert_int_equal(dev.poll_limit_ns, 50000);
	poll_expect(50000, 50, true);
	halt_for(60);
	assert_int_equal(dev.poll_limit_ns, 150000);
	poll_expect(150000, 150, true);
	halt_for(160);
	assert_int_equal(dev.poll_limit_ns, 200000);
}

/* latency_req 0 polls and keeps the tick, even with no window yet. */
static void test_latency_zero_polls(void **state)
{
	(void)state;
	dev.latency_req_ns = 0;
	assert_int_equal(select_idx(), 0);
	assert_false(dev.stop_tick);
}

/* Beyond the kernel: a halt that is disabled, or slower to leave (1 µs) than a 500 ns QoS
 * limit, is replaced by poll; a disabled poll after a halt gives halt. */
static void test_disabled_and_qos_honoured(void **state)
{
	(void)state;
	dev.disabled[1] = true;
	assert_int_equal(select_idx(), 0);
	dev.disabled[1] = false;
	dev.latency_req_ns = 500;
	assert_int_equal(select_idx(), 0);
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	halt_for(30);
	dev.disabled[0] = true;
	assert_int_equal(select_idx(), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window_grows_0_50_100_200, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_halt_keeps_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_poll_again_or_halt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_window_shrinks_on_long_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shrink_parameters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_growth_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_latency_zero_polls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_disabled_and_qos_honoured, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
