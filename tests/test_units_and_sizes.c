/*
 * The parsers and formatters of src/core/ that tests/test_core.c leaves out: fio sizes (powers
 * of 1024), durations printed back in their largest exact unit, distributions printed back and
 * their means, the bounded appender of the error messages, and draws that cannot wrap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/parse.h"
#include "core/rng.h"

static u64 size_ok(const char *s)
{
	char err[256];
	u64 v = 0;

	if (sl_parse_size(s, &v, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
	return v;
}

static void size_bad(const char *s)
{
	char err[256] = "";
	u64 v = 7;

	assert_int_equal(sl_parse_size(s, &v, err, sizeof(err)), -1);
	assert_int_equal(v, 7); /* untouched on error */
	assert_non_null(strstr(err, "is not a size (expected a number with k, m or g"));
	char quoted[160];

	snprintf(quoted, sizeof(quoted), "'%s'", s);
	assert_non_null(strstr(err, quoted));
}

/* fio's units: k = 2^10, m = 2^20, g = 2^30, either case; nothing else after the number. */
static void test_parse_size(void **state)
{
	(void)state;
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("512"), 512);
	assert_int_equal(size_ok("4k"), 4096);
	assert_int_equal(size_ok("128K"), 131072);
	assert_int_equal(size_ok("1m"), 1048576);
	assert_int_equal(size_ok("3M"), 3145728);
	assert_int_equal(size_ok("2g"), 2147483648ULL);
	assert_int_equal(size_ok("16G"), 17179869184ULL);
	/* the largest that fits: (2^64 - 1) / 2^30 = 2^34 - 1 g */
	assert_int_equal(size_ok("17179869183g"), 17179869183ULL << 30);
	size_bad("");
	size_bad("k");
	size_bad("-4k");
	size_bad("+4k");
	size_bad("4kb");
	size_bad("4t");
	size_bad("4 k");
	size_bad("17179869184g");	  /* 2^64: one too many */
	size_bad("99999999999999999999"); /* above 2^64 - 1 before any unit */
}

static void fmt(u64 ns, const char *want)
{
	char buf[32];

	sl_format_duration(ns, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* The largest unit that divides the value exactly, so that parsing it back gives the value. */
static void test_format_duration(void **state)
{
	static const u64 values[] = {
		0, 7, 1500, 100000, 1500000000ULL, 2000000000ULL, 999999999999ULL};
	char buf[32], err[256];
	u64 back;

	(void)state;
	fmt(0, "0ns");
	fmt(7, "7ns");
	fmt(1500, "1500ns");
	fmt(100000, "100us");
	fmt(2500000, "2500us");
	fmt(16000000, "16ms");
	fmt(1500000000ULL, "1500ms");
	fmt(2000000000ULL, "2s");
	fmt(3600ULL * 1000000000ULL, "3600s");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		sl_format_duration(values[i], buf, sizeof(buf));
		assert_int_equal(sl_parse_duration(buf, &back, err, sizeof(err)), 0);
		assert_int_equal(back, values[i]);
	}
}

/* A whole number of seconds above (2^64 - 1) / 2 ns is refused as too large, not wrapped. */
static void test_duration_too_large(void **state)
{
	char err[256] = "";
	u64 v;

	(void)state;
	/* 9223372036 s = 9.223372036e18 ns is just under 2^63 */
	assert_int_equal(sl_parse_duration("9223372036s", &v, err, sizeof(err)), 0);
	assert_int_equal(v, 9223372036000000000ULL);
	assert_int_equal(sl_parse_duration("10000000000s", &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "duration '10000000000s' is too large"));
	assert_int_equal(sl_parse_duration("20000000000000ms", &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "is too large"));
}

static struct sl_dist dist(const char *s)
{
	struct sl_dist d;
	char err[256];

	if (sl_dist_parse(s, &d, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
	return d;
}

/* A distribution prints back as the text it came from (in canonical units); its mean is the
 * fixed value, the midpoint of a uniform range (rounded down: integer ns), the exponential's or
 * the normal's first parameter. */
static void test_dist_format_and_mean(void **state)
{
	static const char *const texts[] = {
		"10ms",	     "uniform:1ms:5ms", "exp:10ms", "normal:10ms:2ms", "uniform:1ns:4ns",
		"exp:1500us"};
	static const u64 means[] = {10000000, 3000000, 10000000, 10000000, 2, 1500000};
	char buf[96];

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct sl_dist d = dist(texts[i]);

		sl_dist_format(&d, buf, sizeof(buf));
		assert_string_equal(buf, texts[i]);
		assert_int_equal(sl_dist_mean(&d), means[i]);
	}
	struct sl_dist d = dist("uniform:0.5s:2s");

	sl_dist_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "uniform:500ms:2s");
	assert_int_equal(sl_dist_mean(&d), 1250000000ULL);
	d = sl_dist_fixed(0);
	sl_dist_format(&d, buf, sizeof(buf));
	assert_string_equal(buf, "0ns");
}

static void test_dist_too_long(void **state)
{
	char s[200], err[256] = "";
	struct sl_dist d;

	(void)state;
	memset(s, '1', sizeof(s) - 1);
	s[sizeof(s) - 1] = '\0';
	assert_int_equal(sl_dist_parse(s, &d, err, sizeof(err)), -1);
	/* the text is quoted cut to 40 characters */
	assert_non_null(strstr(err,
			       "distribution '1111111111111111111111111111111111111111...' is too "
			       "long"));
}

/*
 * Draws are clamped into u64, never wrapped: an exponential with a mean of 9e18 ns goes past
 * 1.8e19 whenever -ln(1 - u) > 2 (u > 0.865, about 13.5% of draws), and those draws give
 * UINT64_MAX; a normal with a 1 ns mean and a 1 s deviation is below 0 half the time, which
 * gives 0 (docs/workloads.md: negative draws are 0), and never more than a few seconds.
 */
static void test_draws_saturate(void **state)
{
	struct sl_dist e = dist("exp:9000000000s"), n = dist("normal:1ns:1s");
	struct sl_rng r;
	int top = 0, zero = 0;

	(void)state;
	sl_rng_seed(&r, 1);
	for (int i = 0; i < 2000; i++) {
		u64 v = sl_dist_draw(&e, &r);

		if (v == UINT64_MAX)
			top++;
		else
			assert_true(v <= 18000000000000000000ULL);
	}
	assert_in_range(top, 200, 340); /* 13.5% of 2000 = 271 */
	for (int i = 0; i < 2000; i++) {
		u64 v = sl_dist_draw(&n, &r);

		if (v == 0)
			zero++;
		assert_true(v < 10000000000ULL);
	}
	assert_in_range(zero, 900, 1100);
}

/* sl_append: never past the buffer, always terminated, the offset stuck at len - 1 once full. */
static void test_append_bounded(void **state)
{
	char buf[8];
	size_t off = 0;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	sl_append(buf, sizeof(buf), &off, "%s", "abc");
	assert_string_equal(buf, "abc");
	assert_int_equal(off, 3);
	sl_append(buf, sizeof(buf), &off, "%d-%d", 12, 34);
	assert_string_equal(buf, "abc12-3");
	assert_int_equal(off, 7);
	sl_append(buf, sizeof(buf), &off, "more");
	assert_string_equal(buf, "abc12-3");
	assert_int_equal(off, 7);
	/* a zero-length buffer is left alone */
	off = 0;
	sl_append(buf, 0, &off, "zzz");
	assert_int_equal(off, 0);
	assert_string_equal(buf, "abc12-3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_format_duration),
		cmocka_unit_test(test_duration_too_large),
		cmocka_unit_test(test_dist_format_and_mean),
		cmocka_unit_test(test_dist_too_long),
		cmocka_unit_test(test_draws_saturate),
		cmocka_unit_test(test_append_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
