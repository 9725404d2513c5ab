/*
 * The sims' bookkeeping that replaced walks of every CPU, against those walks: the NO_HZ tree of
 * 6.18 (nohz_next.c: the first CPU from a given one that is tickless and due to balance) and the
 * idle bitmap of BFS and 6.18 (sched.h free_bits: the CPUs with no task and no pending
 * reschedule), and 6.18's kept balancer statistics (eevdf_balance.c, docs/model/eevdf.md §5.8)
 * with the fork's idlest CPU read from them.
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
	assert_non_null(sim->nohz_due);
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

/* CPU c tickless or not, due at due (as EEVDF gives its next_balance) */
static void nohz_set(struct sl_sim *sim, int c, bool tickless, u64 due)
{
	ee_rq_of(sim, &sim->cpus[c])->next_balance = due;
	sl_nohz_next_set(sim, c, due);
	sl_set_tick_stopped(sim, &sim->cpus[c], tickless);
}

/* by hand, 6 CPUs (two of the tree's 8 leaves empty): the first due CPU from a given one in CPU
 * order, not the soonest due one; of equal due times the first; none past the last CPU (the
 * kick walks on from the CPU after the one it was given, no wrap to CPU 0) */
static void test_nohz_next_by_hand(void **state)
{
	struct fixture *f = fixture_new("6.18", "6", NULL);
	struct sl_sim *sim = f->sim;

	(void)state;
	/* 0 ticking (due 100), 1 due 300, 2 and 3 due 200, 4 ticking (due 50), 5 due 250 */
	nohz_set(sim, 0, false, 100);
	nohz_set(sim, 1, true, 300);
	nohz_set(sim, 2, true, 200);
	nohz_set(sim, 3, true, 200);
	nohz_set(sim, 4, false, 50);
	nohz_set(sim, 5, true, 250);
	/* at 300 every tickless CPU is due: CPU 1 first, though 2 and 3 are due sooner */
	assert_int_equal(sl_nohz_next_due(sim, 0, 300), 1);
	assert_int_equal(sl_nohz_next_due(sim, 2, 300), 2);
	assert_int_equal(sl_nohz_next_due(sim, 3, 300), 3);
	assert_int_equal(sl_nohz_next_due(sim, 4, 300), 5);
	assert_int_equal(sl_nohz_next_due(sim, 6, 300), -1);
	/* at 250: 2 (of 2 and 3, the first), then 3, then 5 */
	assert_int_equal(sl_nohz_next_due(sim, 0, 250), 2);
	assert_int_equal(sl_nohz_next_due(sim, 3, 250), 3);
	assert_int_equal(sl_nohz_next_due(sim, 4, 250), 5);
	/* at 200: 2, 3, none after them (5 not yet due; the walk does not wrap to 2) */
	assert_int_equal(sl_nohz_next_due(sim, 0, 200), 2);
	assert_int_equal(sl_nohz_next_due(sim, 3, 200), 3);
	assert_int_equal(sl_nohz_next_due(sim, 4, 200), -1);
	assert_int_equal(sl_nohz_next_due(sim, 0, 199), -1);
	/* CPU 2's tick runs again: 3 is the first at 200; 4's stops (due 50): 4 first at 60 */
	sl_set_tick_stopped(sim, &sim->cpus[2], false);
	assert_int_equal(sl_nohz_next_due(sim, 0, 200), 3);
	sl_set_tick_stopped(sim, &sim->cpus[4], true);
	assert_int_equal(sl_nohz_next_due(sim, 0, 60), 4);
	assert_int_equal(sl_nohz_next_due(sim, 0, 49), -1);
	/* 2 stops again with its due time kept (200): first at 200 */
	sl_set_tick_stopped(sim, &sim->cpus[2], true);
	assert_int_equal(sl_nohz_next_due(sim, 0, 200), 2);
	assert_int_equal(sl_nohz_next_due(sim, 5, 200), -1);
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

/* CPU c with n runnable and d delayed tasks, PELT load l, util u and runnable r: the fields the
 * balancer's statistics read, set by hand and marked as the kernel paths mark them */
static void lb_set(struct sl_sim *sim, int c, unsigned n, unsigned d, u64 l, u64 u, u64 r)
{
	struct sl_cpu *rq = &sim->cpus[c];
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	rq->nr_running = n;
	rq->nr_delayed = d;
	cfs->nr_queued = n + d;
	cfs->avg.load_avg = l;
	cfs->avg.util_avg = u;
	cfs->avg.runnable_avg = r;
	cfs->avg.util_est = 0;
	sl_lb_mark(sim, c);
}

/* one task of util 1000: fully busy (1024 x 100 <= 1000 x 117); two of util 1024: overloaded
 * (1024 x 100 < 1024 x 117), avg_load its load; n tasks of util 100 in all: spare capacity */
#define LB_FULL(sim, c)	    lb_set(sim, c, 1, 0, 1024, 1000, 1000)
#define LB_OVER(sim, c, l)  lb_set(sim, c, 2, 0, l, 1024, 2048)
#define LB_SPARE(sim, c, n) lb_set(sim, c, n, 0, 100 * (n), 100, 100)

static int busiest(struct sl_sim *sim, int dst, bool walk)
{
	struct ee_sd_stats sds = {0};
	struct sl_cpu *src = sl_eevdf_lb_stats(sim, &sim->cpus[dst], EE_CPU_IDLE, &sds, walk);

	return src ? src->id : -1;
}

/* 64 CPUs keep the statistics (40 to 63 idle): the busiest in the walk's order from dst + 1,
 * by hand */
static void test_lb_kept_by_hand(void **state)
{
	struct fixture *f = fixture_new("6.18", "64", NULL);
	struct sl_sim *sim = f->sim;
	struct ee_sd_stats sds = {0};

	(void)state;
	assert_non_null(sim->lbc);
	/* fully busy 5, 17, 30 (avg_load 0 alike: the last in the walk's order wins); 2 has two
	 * tasks with spare capacity (a lower type), which sets rd->overloaded */
	LB_FULL(sim, 5);
	LB_FULL(sim, 17);
	LB_FULL(sim, 30);
	LB_SPARE(sim, 2, 2);
	assert_int_equal(busiest(sim, 20, false), 17); /* 21..63, 0..19: 30, 5, 17 */
	assert_int_equal(busiest(sim, 10, false), 5);  /* 11..63, 0..9: 17, 30, 5 */
	assert_int_equal(busiest(sim, 17, false), 5);  /* 18..63, 0..16: 30, 5 */
	/* overloaded 8 and 33 of equal load (the first in the order wins), then 12 above them */
	LB_OVER(sim, 8, 3000);
	LB_OVER(sim, 33, 3000);
	assert_int_equal(busiest(sim, 20, false), 33);
	assert_int_equal(busiest(sim, 35, false), 8);
	LB_OVER(sim, 12, 3500);
	assert_int_equal(busiest(sim, 20, false), 12);
	assert_int_equal(busiest(sim, 12, false), 33);
	/* the total load: 3 x 1024 + 200 + 3000 + 3000 + 3500 */
	sl_eevdf_lb_stats(sim, &sim->cpus[0], EE_CPU_IDLE, &sds, false);
	assert_true(sds.total_load == 3 * 1024 + 200 + 3000 + 3000 + 3500);
	assert_true(sds.total_capacity == 64 * 1024);
	/* back to spare capacity only: the most tasks, the first of equals */
	for (int c = 0; c < 64; c++)
		lb_set(sim, c, 0, 0, 0, 0, 0);
	LB_SPARE(sim, 3, 2);
	LB_SPARE(sim, 25, 2);
	LB_SPARE(sim, 9, 1);
	assert_int_equal(busiest(sim, 20, false), 25);
	assert_int_equal(busiest(sim, 30, false), 3);
	/* nothing with two queued tasks: rd->overloaded cleared, no busiest */
	LB_SPARE(sim, 3, 1);
	LB_SPARE(sim, 25, 1);
	assert_int_equal(busiest(sim, 20, false), -1);
	assert_false(sim->rd_overloaded);
	/* a delayed task counts for rd->overloaded, not as runnable */
	lb_set(sim, 25, 1, 1, 1024, 1000, 1000);
	assert_int_equal(busiest(sim, 20, false), 25);
	assert_true(sim->rd_overloaded);
	fixture_free(f);
}

/* random changes of a few CPUs between balances: the kept statistics as a walk's, every dst */
static void test_lb_kept_matches_walk(void **state)
{
	struct fixture *f = fixture_new("6.18", "70", NULL);
	struct sl_sim *sim = f->sim;
	u64 r = 11;

	(void)state;
	for (int step = 0; step < 3000; step++) {
		int c = (int)(next(&r) % 70), k = (int)(next(&r) % 6);

		/* few distinct states, so that ties are common */
		if (k == 0)
			lb_set(sim, c, 0, 0, 0, 0, 0);
		else if (k == 1)
			LB_FULL(sim, c);
		else if (k == 2)
			LB_OVER(sim, c, 2000 + 500 * (next(&r) % 3));
		else if (k == 3)
			LB_SPARE(sim, c, 1 + next(&r) % 3);
		else if (k == 4)
			lb_set(sim, c, 1, 1, 900, 500, 400);
		else
			lb_set(sim, c, 1, 0, 500 + next(&r) % 3, 300, 300);
		if (step % 7)
			continue;
		for (int dst = 0; dst < 70; dst++) {
			struct ee_sd_stats a = {0}, b = {0};
			enum ee_idle idle = (enum ee_idle)(next(&r) % 3);
			struct sl_cpu *x = sl_eevdf_lb_stats(sim, &sim->cpus[dst], idle, &a, false);
			bool over = sim->rd_overloaded;
			struct sl_cpu *y = sl_eevdf_lb_stats(sim, &sim->cpus[dst], idle, &b, true);

			assert_ptr_equal(x, y);
			assert_int_equal(over, sim->rd_overloaded);
			assert_true(a.total_load == b.total_load);
			assert_true(a.busiest.group_load == b.busiest.group_load);
			assert_int_equal(a.busiest.group_type, b.busiest.group_type);
			assert_int_equal(a.local.sum_nr_running, b.local.sum_nr_running);
		}
	}
	fixture_free(f);
}

/* the fork's find_idlest_cpu from the kept tree (or the walk) for a task allowed every CPU */
static int idlest(struct sl_sim *sim, int this_cpu, bool walk)
{
	static struct sl_task t; /* cpus_allowed 0: every CPU */

	return sl_eevdf_find_idlest_cpu(sim, &t, this_cpu, walk);
}

/* 64 CPUs keep the statistics: the fork's idlest CPU in the walk's order from this_cpu + 1, by
 * hand (a busier local CPU, so that the idlest other one is taken) */
static void test_idlest_kept_by_hand(void **state)
{
	struct fixture *f = fixture_new("6.18", "64", NULL);
	struct sl_sim *sim = f->sim;

	(void)state;
	assert_non_null(sim->lbc);
	/* every other CPU idle: the first after 10; then the first idle after 11 */
	LB_FULL(sim, 10);
	assert_int_equal(idlest(sim, 10, false), 11);
	LB_SPARE(sim, 11, 1);
	assert_int_equal(idlest(sim, 10, false), 12);
	/* wrapping: 61..63 fully busy, 0 idle */
	for (int c = 60; c < 64; c++)
		LB_FULL(sim, c);
	assert_int_equal(idlest(sim, 60, false), 0);
	/* none idle: the lowest util (util 100 each, 50 on 7 and 40), the first in the order */
	for (int c = 0; c < 64; c++)
		LB_SPARE(sim, c, 1);
	LB_FULL(sim, 10);
	LB_FULL(sim, 45);
	lb_set(sim, 7, 1, 0, 100, 50, 50);
	lb_set(sim, 40, 1, 0, 100, 50, 50);
	assert_int_equal(idlest(sim, 10, false), 40); /* 11..63, 0..9 */
	assert_int_equal(idlest(sim, 45, false), 7);  /* 46..63, 0..44 */
	/* every CPU overloaded (load 3000, 2000 on 5 and 50): the lowest avg_load, the first of
	 * equals, taken as 3000 > 2000 x 117% and 2000 < 3000 - 174 */
	for (int c = 0; c < 64; c++)
		LB_OVER(sim, c, 3000);
	LB_OVER(sim, 5, 2000);
	LB_OVER(sim, 50, 2000);
	assert_int_equal(idlest(sim, 10, false), 50);
	assert_int_equal(idlest(sim, 55, false), 5);
	/* a fully busy CPU is a lower type than any overloaded one, whatever its avg_load */
	LB_FULL(sim, 20);
	assert_int_equal(idlest(sim, 10, false), 20);
	/* a local CPU idler than the rest stays */
	LB_SPARE(sim, 10, 1);
	assert_int_equal(idlest(sim, 10, false), 10);
	fixture_free(f);
}

/* random changes of a few CPUs between forks: the kept tree's CPU as the walk's, every CPU */
static void test_idlest_kept_matches_walk(void **state)
{
	struct fixture *f = fixture_new("6.18", "70", NULL);
	struct sl_sim *sim = f->sim;
	u64 r = 12;

	(void)state;
	for (int step = 0; step < 3000; step++) {
		/* sometimes many changes at once (the tree rebuilt whole) */
		int n = step % 50 ? 1 : 40;

		for (int i = 0; i < n; i++) {
			int c = (int)(next(&r) % 70), k = (int)(next(&r) % 6);

			/* few distinct states, so that ties are common */
			if (k == 0)
				lb_set(sim, c, 0, 0, 0, 0, 0);
			else if (k == 1)
				LB_FULL(sim, c);
			else if (k == 2)
				LB_OVER(sim, c, 2000 + 500 * (next(&r) % 3));
			else if (k == 3)
				LB_SPARE(sim, c, 1 + next(&r) % 3);
			else if (k == 4)
				lb_set(sim, c, 1, 1, 900, 500, 400);
			else
				lb_set(sim, c, 1, 0, 500 + next(&r) % 3, 300 + next(&r) % 2, 300);
		}
		if (step % 5)
			continue;
		for (int c = 0; c < 70; c++)
			assert_int_equal(idlest(sim, c, false), idlest(sim, c, true));
	}
	fixture_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nohz_next_by_hand),
		cmocka_unit_test(test_nohz_next_matches_scan),
		cmocka_unit_test(test_free_bits),
		cmocka_unit_test(test_lb_kept_by_hand),
		cmocka_unit_test(test_lb_kept_matches_walk),
		cmocka_unit_test(test_idlest_kept_by_hand),
		cmocka_unit_test(test_idlest_kept_matches_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
