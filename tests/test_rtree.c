/*
 * The range tree of rtree.c (the balancer's busiest CPU and the fork's idlest CPU,
 * eevdf_balance.c): its tie rules by hand, a max tree keeping the first and the last CPU of equal
 * keys and a min tree the first, the first CPU within a bound (nohz_next.c's question), and its
 * range queries against a scan of random keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/rng.h"
#include "sched/rtree.h"

static void set_all(struct sl_rtree *t, const u64 *key, int n)
{
	for (int c = 0; c < n; c++)
		sl_rtree_set(t, c, key[c]);
}

/* the greatest key wins; of equals the first CPU in the range's order and the last */
static void test_rtree_max_first_and_last(void **state)
{
	/* CPUs 0..6: the greatest key 5 at 1, 3 and 4 */
	static const u64 key[7] = {3, 5, 1, 5, 5, 2, 0};
	struct sl_rtree t;
	struct sl_rtree_node r;

	(void)state;
	assert_int_equal(sl_rtree_init(&t, 7, true), 0);
	/* no key yet: the empty range, key 0 */
	r = sl_rtree_range(&t, 0, 7);
	assert_true(r.key == 0);
	assert_int_equal(r.first, -1);
	assert_int_equal(r.last, -1);
	set_all(&t, key, 7);
	r = sl_rtree_range(&t, 0, 7);
	assert_true(r.key == 5);
	assert_int_equal(r.first, 1);
	assert_int_equal(r.last, 4);
	r = sl_rtree_range(&t, 2, 4); /* 1, 5 */
	assert_true(r.key == 5);
	assert_int_equal(r.first, 3);
	assert_int_equal(r.last, 3);
	/* after CPU 3: 4, 5, 6, 0, 1, 2: 5 at 4 then at 1 */
	r = sl_rtree_after(&t, 3, 7);
	assert_true(r.key == 5);
	assert_int_equal(r.first, 4);
	assert_int_equal(r.last, 1);
	/* after CPU 4: 5, 6, 0, 1, 2, 3: 5 at 1 then at 3 */
	r = sl_rtree_after(&t, 4, 7);
	assert_int_equal(r.first, 1);
	assert_int_equal(r.last, 3);
	/* CPU 1 down to 0: after 6, 0..5, 5 at 3 and 4 */
	sl_rtree_set(&t, 1, 0);
	r = sl_rtree_after(&t, 6, 7);
	assert_int_equal(r.first, 3);
	assert_int_equal(r.last, 4);
	assert_true(sl_rtree_key(&t, 1) == 0);
	sl_rtree_free(&t);
}

/* the least key wins; of equals the first CPU in the range's order */
static void test_rtree_min_first(void **state)
{
	/* CPUs 0..5: the least key 2 at 1, 3 and 4 */
	static const u64 key[6] = {4, 2, 7, 2, 2, 9};
	struct sl_rtree t;
	struct sl_rtree_node r;

	(void)state;
	assert_int_equal(sl_rtree_init(&t, 6, false), 0);
	r = sl_rtree_after(&t, 0, 6);
	assert_true(r.key == ~0ULL);
	assert_int_equal(r.first, -1);
	for (int c = 0; c < 6; c++)
		sl_rtree_put(&t, c, key[c]);
	sl_rtree_build(&t);
	r = sl_rtree_range(&t, 0, 6);
	assert_true(r.key == 2);
	assert_int_equal(r.first, 1);
	/* after CPU 1: 2, 3, 4, 5, 0: 2 at 3 first */
	r = sl_rtree_after(&t, 1, 6);
	assert_true(r.key == 2);
	assert_int_equal(r.first, 3);
	/* after CPU 4: 5, 0, 1, 2, 3: 2 at 1 first */
	r = sl_rtree_after(&t, 4, 6);
	assert_int_equal(r.first, 1);
	/* after CPU 5: 0, 1, ...: 1 */
	assert_int_equal(sl_rtree_after(&t, 5, 6).first, 1);
	sl_rtree_set(&t, 0, 2);
	assert_int_equal(sl_rtree_after(&t, 5, 6).first, 0);
	assert_int_equal(sl_rtree_range(&t, 1, 6).first, 1);
	sl_rtree_free(&t);
}

/* the first CPU from lo, in CPU order, within a bound: not the best key's CPU; of equal keys
 * the first; no wrap past the last CPU */
static void test_rtree_first_from(void **state)
{
	/* CPUs 0..5 of 8 leaves */
	static const u64 key[6] = {9, 6, 3, 3, 8, 5};
	struct sl_rtree t, m;

	(void)state;
	assert_int_equal(sl_rtree_init(&t, 6, false), 0);
	assert_int_equal(sl_rtree_init(&m, 6, true), 0);
	assert_int_equal(sl_rtree_first_from(&t, 0, 100), -1); /* no key yet */
	set_all(&t, key, 6);
	set_all(&m, key, 6);
	/* min tree: <= 6 from 0 is CPU 1, not the least key's CPU 2 */
	assert_int_equal(sl_rtree_first_from(&t, 0, 6), 1);
	assert_int_equal(sl_rtree_first_from(&t, 0, 3), 2);
	assert_int_equal(sl_rtree_first_from(&t, 3, 3), 3);
	assert_int_equal(sl_rtree_first_from(&t, 4, 3), -1);
	assert_int_equal(sl_rtree_first_from(&t, 4, 5), 5);
	assert_int_equal(sl_rtree_first_from(&t, 0, 2), -1);
	assert_int_equal(sl_rtree_first_from(&t, 6, 100), -1); /* empty leaves: no key */
	assert_int_equal(sl_rtree_first_from(&t, 8, 100), -1);
	/* max tree: >= 8 from 1 is CPU 4, not the greatest key's CPU 0 (before 1) */
	assert_int_equal(sl_rtree_first_from(&m, 0, 8), 0);
	assert_int_equal(sl_rtree_first_from(&m, 1, 8), 4);
	assert_int_equal(sl_rtree_first_from(&m, 1, 6), 1);
	assert_int_equal(sl_rtree_first_from(&m, 5, 6), -1);
	assert_int_equal(sl_rtree_first_from(&m, 0, 10), -1);
	sl_rtree_set(&t, 1, ~0ULL);
	assert_int_equal(sl_rtree_first_from(&t, 0, 6), 2);
	sl_rtree_free(&t);
	sl_rtree_free(&m);
}

/* a scan of CPUs lo..hi - 1 (wrapping past n - 1 to 0 when hi <= lo, the walk's order) */
static struct sl_rtree_node scan(const u64 *key, bool max, int lo, int hi, int n)
{
	struct sl_rtree_node r = {max ? 0 : ~0ULL, -1, -1};
	int len = hi > lo ? hi - lo : hi + n - lo;

	for (int k = 0; k < len; k++) {
		int c = (lo + k) % n;

		if (r.first < 0 || (max ? key[c] > r.key : key[c] < r.key)) {
			r = (struct sl_rtree_node){key[c], c, c};
		} else if (key[c] == r.key) {
			r.last = c;
		}
	}
	return r;
}

/* the tree's answer as the scan's; a max tree's key 0 is no key (no CPU to report) */
static void check(struct sl_rtree_node a, struct sl_rtree_node b, bool max)
{
	assert_true(a.key == b.key);
	if (max && !a.key)
		return;
	assert_int_equal(a.first, b.first);
	if (max)
		assert_int_equal(a.last, b.last);
}

/* random sizes, keys (few distinct values: ties are common) and changes, by path and by
 * rebuild; every range and every walk from a CPU against the scan; seeds 641-660 */
static void test_rtree_matches_scan(void **state)
{
	(void)state;
	for (u64 seed = 641; seed <= 660; seed++) {
		struct sl_rng rng;
		int n;
		bool max = seed % 2;
		struct sl_rtree t;
		u64 key[100];

		sl_rng_seed(&rng, seed);
		n = 1 + (int)(sl_rng_next(&rng) % 100);
		assert_int_equal(sl_rtree_init(&t, n, max), 0);
		for (int c = 0; c < n; c++)
			key[c] = max ? 0 : ~0ULL;
		for (int step = 0; step < 200; step++) {
			if (step % 50 == 0) {
				for (int c = 0; c < n; c++) {
					key[c] = sl_rng_next(&rng) % 4;
					sl_rtree_put(&t, c, key[c]);
				}
				sl_rtree_build(&t);
			} else {
				int c = (int)(sl_rng_next(&rng) % (u64)n);

				key[c] = sl_rng_next(&rng) % 4;
				sl_rtree_set(&t, c, key[c]);
			}
			for (int lo = 0; lo < n; lo++) {
				int hi = lo + 1 + (int)(sl_rng_next(&rng) % (u64)(n - lo));
				struct sl_rtree_node a = sl_rtree_range(&t, lo, hi),
						     b = scan(key, max, lo, hi, n);

				check(a, b, max);
				if (n > 1)
					check(sl_rtree_after(&t, lo, n),
					      scan(key, max, (lo + 1) % n, lo, n), max);
				/* the first CPU from lo within a bound that is a key's value
				 * (ties common) */
				u64 bound = sl_rng_next(&rng) % 5;
				int first = -1;

				for (int c = lo; c < n && first < 0; c++)
					if (max ? key[c] >= bound : key[c] <= bound)
						first = c;
				if (!max || bound)
					assert_int_equal(sl_rtree_first_from(&t, lo, bound), first);
			}
		}
		sl_rtree_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtree_max_first_and_last),
		cmocka_unit_test(test_rtree_min_first),
		cmocka_unit_test(test_rtree_first_from),
		cmocka_unit_test(test_rtree_matches_scan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
