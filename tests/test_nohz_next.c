/*
 * The sims' bookkeeping that replaced walks of every CPU, against those walks: the NO_HZ tree of
 * 6.18 (nohz_next.c: the first CPU from a given one that is tickless and due to balance) and the
 * idle bitmap of BFS and 6.18 (sched.h free_bits: the CPUs with no task and no pending
 * reschedule).
 */
#include "helpers.h"
#include "sched/sched.h"
#include "sched/eevdf/eevdf.h"

/* the first CPU >= from with its tick stopped and next_balance <= now, as the tick's scan */
static int scan_due(const struct sl_sim *sim, int from, u64 now)
{
	for (int c = from; c < sim->ncpu; c++)
		if (sim->cpus[c].tick_stopped && ee_rq_of(sim, &sim->cpus[c])->next_balance <= now)
			return c;
	return -1;
}

static u64 next(u64 *r)
{
	*r = *r * 6364136223846793005ULL + 1442695040888963407ULL;
	return *r >> 33;
}

/* 100 CPUs (not a power of two: the tree's last leaves are empty), random tick stops and
 * starts and next_balance values, every CPU asked at every step */
static void test_nohz_next_matches_scan(void **state)
{
	struct fixture *f = fixture_new("6.18", "100", NULL);
	struct sl_sim *sim = f->sim;
	u64 r = 99;

	(void)state;
	assert_non_null(sim->nohz_next);
	/* every CPU starts tickless with next_balance 0: due at once */
	assert_int_equal(sl_nohz_next_due(sim, 0, 0), 0);
	assert_int_equal(sl_nohz_next_due(sim, 99, 0), 99);
	assert_int_equal(sl_nohz_next_due(sim, 100, 0), -1);
	for (int step = 0; step < 5000; step++) {
		struct sl_cpu *rq = &sim->cpus[next(&r) % 100];
		u64 x = next(&r);

		if (x % 3) {
			struct eevdf_rq *ee = ee_rq_of(sim, rq);

			ee->next_balance = 1000 + (x >> 4) % 200;
			sl_nohz_next_set(sim, rq->id, ee->next_balance);
		} else {
			sl_set_tick_stopped(sim, rq, (x >> 4) % 2);
		}
		u64 now = 1000 + next(&r) % 220;

		for (int from = 0; from <= 100; from += 1 + (int)(x % 7))
			assert_int_equal(sl_nohz_next_due(sim, from, now),
					 scan_due(sim, from, now));
	}
	fixture_free(f);
}

/* BFS and 6.18 (its NO_HZ stats kick) keep the bitmap, 2.6.3x not; its bits follow curr and
 * need_resched through the helpers */
static void test_free_bits(void **state)
{
	struct fixture *f = fixture_new("2.6.31-bfs", "70", NULL),
		       *g = fixture_new("2.6.32", "4", NULL), *e = fixture_new("6.18", "4", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task t;
	u64 r = 5;

	(void)state;
	assert_null(g->sim->free_bits);
	assert_non_null(e->sim->free_bits);
	assert_int_equal(e->sim->nr_free, 4);
	assert_true(e->sim->free_bits[0] == 0xf);
	assert_non_null(sim->free_bits);
	/* every CPU starts idle: 64 bits in the first word, 6 in the second */
	assert_int_equal(sim->nr_free, 70);
	assert_true(sim->free_bits[0] == ~0ULL);
	assert_true(sim->free_bits[1] == 0x3f);
	memset(&t, 0, sizeof(t));
	for (int step = 0; step < 5000; step++) {
		struct sl_cpu *rq = &sim->cpus[next(&r) % 70];
		u64 x = next(&r);
		int n = 0;

		if (x % 2)
			sl_set_curr(sim, rq, (x >> 1) % 2 ? &t : NULL);
		else
			sl_set_need_resched(sim, rq, (x >> 1) % 2);
		for (int c = 0; c < 70; c++) {
			bool free = !sim->cpus[c].curr && !sim->cpus[c].need_resched;

			assert_int_equal(!!(sim->free_bits[c / 64] & (1ULL << (c % 64))), free);
			n += free;
		}
		assert_int_equal(sim->nr_free, n);
	}
	for (int c = 0; c < 70; c++) {
		sl_set_curr(sim, &sim->cpus[c], NULL);
		sl_set_need_resched(sim, &sim->cpus[c], false);
	}
	fixture_free(f);
	fixture_free(g);
	fixture_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nohz_next_matches_scan),
		cmocka_unit_test(test_free_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
