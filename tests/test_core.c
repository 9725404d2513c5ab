/*
 * Core building blocks: the timer queue (against a reference model), the PRNG (against an
 * independent implementation of the published algorithms), duration distributions, the strict
 * number parsers, the log-linear histogram and the number formatting of core/fmt.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/fmt.h"
#include "core/parse.h"
#include "core/rng.h"
#include "core/arena.h"
#include "core/timerq.h"
#include "core/hist.h"

/* ---- timerq ---- */

#define NT 16

static void timers_init(struct sl_timer *t, int n)
{
	for (int i = 0; i < n; i++)
		sl_timer_init(&t[i], NULL, i);
}

static void test_timerq_order(void **state)
{
	static const u64 when[NT] = {50, 10, 70, 30, 90, 20, 60, 80, 40, 100, 5, 95, 15, 65, 35, 1};
	struct sl_timer t[NT];
	struct sl_timerq q;
	u64 last = 0;

	(void)state;
	assert_int_equal(sl_timerq_init(&q), 0);
	timers_init(t, NT);
	assert_null(sl_timerq_peek(&q));
	assert_null(sl_timerq_pop(&q));
	for (int i = 0; i < NT; i++) {
		assert_false(sl_timer_armed(&t[i]));
		assert_int_equal(sl_timerq_arm(&q, &t[i], when[i]), 0);
		assert_true(sl_timer_armed(&t[i]));
	}
	for (int i = 0; i < NT; i++) {
		struct sl_timer *p = sl_timerq_peek(&q);
		struct sl_timer *x = sl_timerq_pop(&q);

		assert_non_null(x);
		assert_ptr_equal(p, x);
		assert_false(sl_timer_armed(x));
		assert_true(x->expires >= last);
		last = x->expires;
	}
	assert_int_equal(last, 100);
	assert_null(sl_timerq_pop(&q));
	sl_timerq_free(&q);
}

static void test_timerq_fifo(void **state)
{
	struct sl_timer t[NT];
	struct sl_timerq q;

	(void)state;
	assert_int_equal(sl_timerq_init(&q), 0);
	timers_init(t, NT);
	/* Arm in a scrambled index order, all at the same time, plus an earlier and a later one. */
	static const int order[NT - 2] = {7, 3, 11, 0, 13, 5, 9, 1, 12, 2, 8, 4, 10, 6};

	assert_int_equal(sl_timerq_arm(&q, &t[14], 1000), 0);
	for (int i = 0; i < NT - 2; i++)
		assert_int_equal(sl_timerq_arm(&q, &t[order[i]], 500), 0);
	assert_int_equal(sl_timerq_arm(&q, &t[15], 100), 0);
	assert_ptr_equal(sl_timerq_pop(&q), &t[15]);
	for (int i = 0; i < NT - 2; i++)
		assert_ptr_equal(sl_timerq_pop(&q), &t[order[i]]);
	assert_ptr_equal(sl_timerq_pop(&q), &t[14]);
	assert_null(sl_timerq_pop(&q));

	/* Re-arming at the same time puts the timer at the back of its tie group. */
	for (int i = 0; i < 4; i++)
		assert_int_equal(sl_timerq_arm(&q, &t[i], 7), 0);
	assert_int_equal(sl_timerq_arm(&q, &t[0], 7), 0);
	assert_ptr_equal(sl_timerq_pop(&q), &t[1]);
	assert_ptr_equal(sl_timerq_pop(&q), &t[2]);
	assert_ptr_equal(sl_timerq_pop(&q), &t[3]);
	assert_ptr_equal(sl_timerq_pop(&q), &t[0]);
	assert_null(sl_timerq_pop(&q));
	sl_timerq_free(&q);
}

static void test_timerq_cancel(void **state)
{
	struct sl_timer t[NT];
	struct sl_timerq q;

	(void)state;
	assert_int_equal(sl_timerq_init(&q), 0);
	timers_init(t, NT);
	for (int i = 0; i < NT; i++)
		assert_int_equal(sl_timerq_arm(&q, &t[i], (u64)(i + 1) * 10), 0);

	/* the last heap slot */
	struct sl_timer *last = sl_timerq_at(&q, q.n - 1);

	sl_timerq_cancel(&q, last);
	assert_false(sl_timer_armed(last));
	assert_int_equal(q.n, NT - 1);
	/* a slot in the middle */
	struct sl_timer *mid = sl_timerq_at(&q, q.n / 2);

	sl_timerq_cancel(&q, mid);
	assert_false(sl_timer_armed(mid));
	assert_int_equal(q.n, NT - 2);
	/* the root */
	struct sl_timer *root = sl_timerq_at(&q, 0);

	assert_ptr_equal(root, &t[0]);
	sl_timerq_cancel(&q, root);
	assert_false(sl_timer_armed(root));
	/* cancelling an unarmed timer does nothing */
	sl_timerq_cancel(&q, root);
	sl_timerq_cancel(&q, mid);
	assert_int_equal(q.n, NT - 3);

	/* every index is consistent */
	for (int i = 0; i < q.n; i++)
		assert_int_equal(sl_timerq_at(&q, i)->idx, i);

	u64 prev = 0;
	int popped = 0;
	struct sl_timer *x;

	while ((x = sl_timerq_pop(&q))) {
		assert_ptr_not_equal(x, last);
		assert_ptr_not_equal(x, mid);
		assert_ptr_not_equal(x, root);
		assert_true(x->expires > prev);
		prev = x->expires;
		popped++;
	}
	assert_int_equal(popped, NT - 3);
	sl_timerq_free(&q);
}

static void test_timerq_rearm(void **state)
{
	struct sl_timer t[NT];
	struct sl_timerq q;

	(void)state;
	assert_int_equal(sl_timerq_init(&q), 0);
	timers_init(t, NT);
	for (int i = 0; i < NT; i++)
		assert_int_equal(sl_timerq_arm(&q, &t[i], (u64)(i + 1) * 10), 0);
	/* move the earliest to the end, and the latest to the front */
	assert_int_equal(sl_timerq_arm(&q, &t[0], 1000), 0);
	assert_int_equal(sl_timerq_arm(&q, &t[NT - 1], 1), 0);
	/* move one from the middle a little */
	assert_int_equal(sl_timerq_arm(&q, &t[5], 15), 0);
	assert_int_equal(q.n, NT);
	assert_ptr_equal(sl_timerq_pop(&q), &t[NT - 1]);
	assert_ptr_equal(sl_timerq_pop(&q), &t[5]);
	assert_int_equal(t[5].expires, 15);
	assert_ptr_equal(sl_timerq_pop(&q), &t[1]);
	for (int i = 2; i < NT - 1; i++) {
		if (i == 5)
			continue;
		assert_ptr_equal(sl_timerq_pop(&q), &t[i]);
	}
	assert_ptr_equal(sl_timerq_pop(&q), &t[0]);
	assert_int_equal(t[0].expires, 1000);
	assert_null(sl_timerq_pop(&q));
	sl_timerq_free(&q);
}

/* Reference model: armed flag, expiry and arm order per timer; min found by scanning. */
#define RT   200
#define ROPS 20000

struct ref {
	bool armed;
	u64 expires, order;
};

static u64 lcg_state;

static u64 lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return lcg_state >> 33;
}

static int ref_min(const struct ref *r)
{
	int best = -1;

	for (int i = 0; i < RT; i++) {
		if (!r[i].armed)
			continue;
		if (best < 0 || r[i].expires < r[best].expires ||
		    (r[i].expires == r[best].expires && r[i].order < r[best].order))
			best = i;
	}
	return best;
}

/*
 * The heap turns 4-ary past 8192 armed timers and binary again below 2048 (timerq.c): arm
 * 10000 (each expiry drawn from a small range, so ties are frequent), cancel down to 1000, arm
 * back to 9000, then pop them all. Every step keeps idx pointing at the timer's slot, and the
 * pops come out by expiry, equal expiries in arming order, whatever the heap's shape was.
 */
#define WT 10000

static void check_slots(const struct sl_timerq *q)
{
	for (int i = 0; i < q->n; i++)
		assert_int_equal(sl_timerq_at(q, i)->idx, i);
}

static void test_timerq_wide(void **state)
{
	static struct sl_timer t[WT];
	static u64 armed_at[WT];
	struct sl_timerq q;
	u64 seq = 0, last_exp = 0, last_seq = 0;
	int n = 0;

	(void)state;
	lcg_state = 777;
	assert_int_equal(sl_timerq_init(&q), 0);
	timers_init(t, WT);
	for (int i = 0; i < WT; i++) {
		assert_int_equal(sl_timerq_arm(&q, &t[i], 1 + lcg() % 500), 0);
		armed_at[i] = seq++;
	}
	assert_int_equal(q.wide, 1);
	check_slots(&q);
	for (int i = 0; i < WT - 1000; i++)
		sl_timerq_cancel(&q, &t[i]);
	assert_int_equal(q.n + q.nb, 1000);
	assert_int_equal(q.wide, 0);
	check_slots(&q);
	for (int i = 0; i < 8000; i++) {
		assert_int_equal(sl_timerq_arm(&q, &t[i], 1 + lcg() % 500), 0);
		armed_at[i] = seq++;
	}
	assert_int_equal(q.n + q.nb, 9000);
	assert_int_equal(q.wide, 1);
	check_slots(&q);
	for (struct sl_timer *x; (x = sl_timerq_pop(&q)); n++) {
		u64 a = armed_at[x - t];

		assert_true(x->expires > last_exp || (x->expires == last_exp && a > last_seq));
		last_exp = x->expires;
		last_seq = a;
	}
	assert_int_equal(n, 9000);
	sl_timerq_free(&q);
}

/*
 * The arena (core/arena.c): zeroed 64-byte aligned pieces handed out in order from one span
 * reserved at the first call (here room for 3 MB, rounded up to two 2 MB pages: 4 MB); a piece
 * that does not fit is refused, and after sl_arena_free the arena starts again.
 */
static void test_arena(void **state)
{
	struct sl_arena a = {0};
	char *p, *q;

	(void)state;
	p = sl_arena_zalloc(&a, 100, 3UL << 20);
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % SL_ARENA_HUGE, 0); /* the span starts on a huge page */
	for (int i = 0; i < 100; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0xff, 100);
	q = sl_arena_zalloc(&a, 1000, 0);
	assert_ptr_equal(q, p + 128); /* 100 rounded up to 128 */
	assert_int_equal(q[0], 0);
	assert_int_equal(a.size, 4UL << 20);
	assert_null(sl_arena_zalloc(&a, 4UL << 20, 0)); /* 128 + 1024 already used */
	assert_non_null(sl_arena_zalloc(&a, (4UL << 20) - 1152, 0));
	assert_null(sl_arena_zalloc(&a, 1, 0));
	sl_arena_free(&a);
	assert_null(a.map);
	assert_int_equal(a.used, 0);
	p = sl_arena_zalloc(&a, 64, 1);
	assert_non_null(p);
	assert_int_equal(a.size, 2UL << 20);
	sl_arena_free(&a);
}

static void test_timerq_random(void **state)
{
	static struct sl_timer t[RT];
	static struct ref r[RT];
	struct sl_timerq q;
	u64 order = 0, now = 0;
	int armed = 0, pops = 0;

	(void)state;
	lcg_state = 12345;
	assert_int_equal(sl_timerq_init(&q), 0);
	timers_init(t, RT);
	memset(r, 0, sizeof(r));
	for (int op = 0; op < ROPS; op++) {
		u64 k = lcg() % 100;
		int i = (int)(lcg() % RT);

		if (k < 45) {
			/* arm or re-arm; a small range of times so ties are frequent */
			u64 e = now + lcg() % 64;

			if (r[i].armed)
				armed--;
			assert_int_equal(sl_timerq_arm(&q, &t[i], e), 0);
			r[i].armed = true;
			r[i].expires = e;
			r[i].order = order++;
			armed++;
		} else if (k < 60) {
			sl_timerq_cancel(&q, &t[i]);
			if (r[i].armed)
				armed--;
			r[i].armed = false;
		} else {
			int want = ref_min(r);
			struct sl_timer *x = sl_timerq_pop(&q);

			if (want < 0) {
				assert_null(x);
				continue;
			}
			assert_non_null(x);
			assert_ptr_equal(x, &t[want]);
			assert_int_equal(x->expires, r[want].expires);
			r[want].armed = false;
			armed--;
			now = x->expires;
			pops++;
		}
		assert_int_equal(q.n + q.nb, armed);
		for (int j = 0; j < RT; j++)
			assert_int_equal(sl_timer_armed(&t[j]), r[j].armed);
	}
	/* drain */
	for (;;) {
		int want = ref_min(r);
		struct sl_timer *x = sl_timerq_pop(&q);

		if (want < 0) {
			assert_null(x);
			break;
		}
		assert_ptr_equal(x, &t[want]);
		r[want].armed = false;
	}
	assert_true(pops > 1000);
	sl_timerq_free(&q);
}

/* ---- rng ---- */

/*
 * Batches (timerq.c): ticks of 64 CPUs re-armed one jiffy (1000) ahead each time they fire, as
 * busy CPUs' ticks are, with 64 other timers at random expiries, some equal to a tick's. Every
 * pop must be the reference's least (expiry, arming order); some ticks are cancelled (a CPU
 * going idle) and re-armed later; and each CPU's next expiry must equal a scan of the armed
 * timers, with the queue's scan (few timers) and with its per-CPU heaps (past 256 armed).
 */
#define BT 128

static void check_next(struct sl_timerq *q, const struct sl_timer *t, const bool *armed)
{
	for (int cpu = 0; cpu < 8; cpu++) {
		u64 want = UINT64_MAX, any, timer;

		for (int i = 0; i < BT; i++)
			if (armed[i] && t[i].cpu == cpu && t[i].expires < want)
				want = t[i].expires;
		sl_timerq_next_for_cpu(q, cpu, &any, &timer);
		assert_int_equal(any, want);
		assert_int_equal(timer, want);
	}
}

static void test_timerq_batches(void **state)
{
	static struct sl_timer t[BT], extra[200];
	bool armed[BT] = {false};
	u64 order[BT] = {0}, seq = 0, now = 0;
	struct sl_timerq q;
	int pops = 0;

	(void)state;
	lcg_state = 4242;
	assert_int_equal(sl_timerq_init(&q), 0);
	for (int i = 0; i < BT; i++)
		sl_timer_init(&t[i], NULL, i % 8);
	for (int i = 0; i < BT; i++) {
		assert_int_equal(sl_timerq_arm(&q, &t[i], i < 64 ? 1000 : 1 + lcg() % 3000), 0);
		armed[i] = true;
		order[i] = seq++;
	}
	assert_true(q.nb > 0); /* the ticks went to a batch */
	check_next(&q, t, armed);
	for (int round = 0; round < 3000; round++) {
		int want = -1;

		for (int i = 0; i < BT; i++)
			if (armed[i] &&
			    (want < 0 || t[i].expires < t[want].expires ||
			     (t[i].expires == t[want].expires && order[i] < order[want])))
				want = i;
		struct sl_timer *x = sl_timerq_pop(&q);

		assert_ptr_equal(x, &t[want]);
		armed[want] = false;
		now = x->expires;
		pops++;
		u64 k = lcg() % 10;

		if (want < 64 && k < 8) {
			/* the tick again, one jiffy on */
			assert_int_equal(sl_timerq_arm(&q, x, now + 1000), 0);
		} else if (want < 64) {
			/* the CPU went idle; another's tick is stopped too, and restarted later */
			int other = (int)(lcg() % 64);

			sl_timerq_cancel(&q, &t[other]);
			armed[other] = false;
			continue;
		} else {
			/* a task's timer: anywhere, often on the tick grid */
			u64 e = k < 5 ? (now / 1000 + 1 + lcg() % 2) * 1000
				      : now + 1 + lcg() % 3000;

			assert_int_equal(sl_timerq_arm(&q, x, e), 0);
		}
		armed[want] = true;
		order[want] = seq++;
		if (lcg() % 16 == 0) {
			int i = (int)(lcg() % 64);

			assert_int_equal(sl_timerq_arm(&q, &t[i], (now / 1000 + 1) * 1000), 0);
			armed[i] = true;
			order[i] = seq++;
		}
		if (round % 97 == 0)
			check_next(&q, t, armed);
		if (round == 1500) {
			/* past the scan's 256 timers: the per-CPU heaps take over */
			for (int i = 0; i < 200; i++) {
				sl_timer_init(&extra[i], NULL, 100);
				assert_int_equal(sl_timerq_arm(&q, &extra[i], UINT64_MAX - 1), 0);
				seq++;
			}
			check_next(&q, t, armed);
			assert_true(q.percpu);
		}
	}
	assert_int_equal(pops, 3000);
	sl_timerq_free(&q);
	for (int i = 0; i < BT; i++)
		assert_false(sl_timer_armed(&t[i]));
}

/*
 * The ring (timerq.c): 300 ticks of their own phases (expiries 1 + 3 i, no two equal, so no
 * batch), each re-armed one period (1000) after it fires as a busy CPU's tick is, with 40 other
 * timers at random expiries; some ticks are cancelled (a CPU going idle) and restarted off the
 * period, some re-armed while armed. Every pop must be the reference's least (expiry, arming
 * order), the ring must hold most ticks, and each CPU's next expiry must equal a scan of the
 * armed timers, by the queue's scan and past 256 armed timers by its per-CPU heaps.
 */
#define RG 340

static void test_timerq_ring(void **state)
{
	static struct sl_timer t[RG];
	bool armed[RG] = {false};
	u64 order[RG] = {0}, seq = 0;
	struct sl_timerq q;
	int in_ring_max = 0, pops = 0;

	(void)state;
	lcg_state = 777;
	assert_int_equal(sl_timerq_init(&q), 0);
	for (int i = 0; i < RG; i++)
		sl_timer_init(&t[i], NULL, i % 8);
	for (int i = 0; i < RG; i++) {
		assert_int_equal(sl_timerq_arm(&q, &t[i], i < 300 ? 1 + 3 * (u64)i : lcg() % 2000),
				 0);
		armed[i] = true;
		order[i] = seq++;
	}
	for (int round = 0; round < 20000; round++) {
		int want = -1;

		for (int i = 0; i < RG; i++)
			if (armed[i] &&
			    (want < 0 || t[i].expires < t[want].expires ||
			     (t[i].expires == t[want].expires && order[i] < order[want])))
				want = i;
		struct sl_timer *x = sl_timerq_pop(&q);

		assert_ptr_equal(x, &t[want]);
		armed[want] = false;
		pops++;
		u64 now = x->expires, k = lcg() % 100;
		int i = want;

		if (want < 300 && k < 95) {
			assert_int_equal(sl_timerq_arm(&q, x, now + 1000), 0);
		} else if (want < 300) {
			/* another tick stops (an idle CPU) and this one restarts off the period */
			int other = (int)(lcg() % 300);

			sl_timerq_cancel(&q, &t[other]);
			armed[other] = false;
			assert_int_equal(sl_timerq_arm(&q, x, now + 1 + lcg() % 1500), 0);
		} else {
			assert_int_equal(sl_timerq_arm(&q, x, now + lcg() % 3000), 0);
		}
		armed[i] = true;
		order[i] = seq++;
		if (k == 50) {
			/* a stopped tick restarts, or an armed one moves */
			int j = (int)(lcg() % 300);

			assert_int_equal(sl_timerq_arm(&q, &t[j], now + lcg() % 1000), 0);
			armed[j] = true;
			order[j] = seq++;
		}
		int n = 0;

		for (int j = 0; j < RG; j++)
			n += armed[j];
		assert_int_equal(q.n + q.nb, n);
		if (q.nb > in_ring_max)
			in_ring_max = q.nb;
		if (round >= 310 &&
		    round % 211 == 99) { /* the first finds every tick in the ring */
			for (int cpu = 0; cpu < 8; cpu++) {
				u64 w = UINT64_MAX, any, timer;

				for (int j = 0; j < RG; j++)
					if (armed[j] && t[j].cpu == cpu && t[j].expires < w)
						w = t[j].expires;
				sl_timerq_next_for_cpu(&q, cpu, &any, &timer);
				assert_int_equal(any, w);
				assert_int_equal(timer, w);
			}
		}
	}
	/* the ticks ran in the ring, not the heap; the queries went to the per-CPU heaps */
	assert_true(in_ring_max > 200);
	assert_true(q.percpu);
	assert_int_equal(pops, 20000);
	sl_timerq_free(&q);
	for (int i = 0; i < RG; i++)
		assert_false(sl_timer_armed(&t[i]));
}

/*
 * A CPU's run (timerq.c's per-CPU heaps): 400 sleep timers of CPU 0 armed in rising expiry
 * (100, 101, ... as a period's), so each is appended to the run; 300 of them cancelled from the
 * middle (holes), then 400 more appended, which fills the run and squeezes the holes out
 * (moving the timers left); a timer armed earlier than the run's last goes to the heap. After
 * each step the CPU's next expiry is the least armed one, worked out by hand, and a cancel of a
 * moved timer must take out that timer and not its old slot's.
 */
static void test_timerq_cpu_run(void **state)
{
	static struct sl_timer t[800], early, other[300];
	struct sl_timerq q;
	u64 any, timer;

	(void)state;
	assert_int_equal(sl_timerq_init(&q), 0);
	/* past 256 armed timers the first query builds the per-CPU heaps */
	for (int i = 0; i < 300; i++) {
		sl_timer_init(&other[i], NULL, 1);
		assert_int_equal(sl_timerq_arm(&q, &other[i], 50000 + (u64)i), 0);
	}
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(any, UINT64_MAX);
	assert_true(q.percpu);
	for (int i = 0; i < 400; i++) {
		sl_timer_init(&t[i], NULL, 0);
		assert_int_equal(sl_timerq_arm(&q, &t[i], 100 + (u64)i), 0);
	}
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(timer, 100);
	/* holes: every timer but 0..9 and 310..399 */
	for (int i = 10; i < 310; i++)
		sl_timerq_cancel(&q, &t[i]);
	/* the head goes: the next is the first after the holes' start */
	for (int i = 0; i < 10; i++)
		sl_timerq_cancel(&q, &t[i]);
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(timer, 410);
	/* 400 more from 1000 on: the run fills and its 90 + k timers move down */
	for (int i = 400; i < 800; i++) {
		sl_timer_init(&t[i], NULL, 0);
		assert_int_equal(sl_timerq_arm(&q, &t[i], 1000 + (u64)i), 0);
	}
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(timer, 410);
	/* the moved timers are found where they went: 310..398 out, 399 (expiry 499) first */
	for (int i = 310; i < 399; i++)
		sl_timerq_cancel(&q, &t[i]);
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(timer, 499);
	/* earlier than the run's last (1799): into the heap, and it is the least */
	sl_timer_init(&early, NULL, 0);
	assert_int_equal(sl_timerq_arm(&q, &early, 450), 0);
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(timer, 450);
	sl_timerq_cancel(&q, &t[399]);
	sl_timerq_cancel(&q, &early);
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(timer, 1400);
	for (int i = 400; i < 800; i++)
		sl_timerq_cancel(&q, &t[i]);
	sl_timerq_next_for_cpu(&q, 0, &any, &timer);
	assert_int_equal(any, UINT64_MAX);
	sl_timerq_next_for_cpu(&q, 1, &any, &timer);
	assert_int_equal(timer, 50000);
	sl_timerq_free(&q);
}

/*
 * Sleep timers of one expiry armed between short timers of other expiries (6.18's tasks going
 * to sleep): the second sleep arm opens a batch although the arm just before it was another
 * expiry's, and every later one joins it; the pops still come in (expiry, arming) order.
 */
static void test_timerq_batch_between(void **state)
{
	static struct sl_timer sleep[100], shortt[100];
	struct sl_timerq q;

	(void)state;
	assert_int_equal(sl_timerq_init(&q), 0);
	for (int i = 0; i < 100; i++) {
		sl_timer_init(&sleep[i], NULL, -1);
		sl_timer_init(&shortt[i], NULL, -1);
		assert_int_equal(sl_timerq_arm(&q, &sleep[i], 1000000), 0);
		assert_int_equal(sl_timerq_arm(&q, &shortt[i], 1000 + 7 * (u64)i), 0);
	}
	/* the first sleep timer stays in the heap, with the short ones; 99 are in the batch */
	assert_int_equal(q.nb, 99);
	assert_int_equal(q.n, 101);
	for (int i = 0; i < 100; i++)
		assert_ptr_equal(sl_timerq_pop(&q), &shortt[i]);
	for (int i = 0; i < 100; i++)
		assert_ptr_equal(sl_timerq_pop(&q), &sleep[i]);
	assert_null(sl_timerq_pop(&q));
	sl_timerq_free(&q);
}

static void test_rng_reference(void **state)
{
	/*
	 * Computed with an independent Python re-implementation of the published algorithms:
	 * splitmix64 (x += 0x9e3779b97f4a7c15; z = (z ^ z>>30) * 0xbf58476d1ce4e5b9;
	 * z = (z ^ z>>27) * 0x94d049bb133111eb; z ^ z>>31) run four times from seed 1 to fill
	 * s[0..3], then xoshiro256** (result = rotl(s[1] * 5, 7) * 9; t = s[1] << 17;
	 * s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 45)), all mod 2^64.
	 */
	static const u64 want[3] = {0xb3f2af6d0fc710c5ULL, 0x853b559647364ceaULL,
				    0x92f89756082a4514ULL};
	struct sl_rng r;

	(void)state;
	sl_rng_seed(&r, 1);
	for (int i = 0; i < 3; i++)
		assert_int_equal(sl_rng_next(&r), want[i]);
}

static void test_rng_determinism(void **state)
{
	struct sl_rng a, b, c;
	int differ = 0;

	(void)state;
	sl_rng_seed(&a, 42);
	sl_rng_seed(&b, 42);
	sl_rng_seed(&c, 43);
	for (int i = 0; i < 1000; i++) {
		u64 x = sl_rng_next(&a), y = sl_rng_next(&b), z = sl_rng_next(&c);

		assert_int_equal(x, y);
		if (x != z)
			differ++;
	}
	assert_true(differ > 990);
}

static void test_rng_double(void **state)
{
	struct sl_rng r;
	double sum = 0;

	(void)state;
	sl_rng_seed(&r, 7);
	for (int i = 0; i < 100000; i++) {
		double d = sl_rng_double(&r);

		assert_true(d >= 0.0);
		assert_true(d < 1.0);
		sum += d;
	}
	assert_true(fabs(sum / 100000 - 0.5) < 0.01);
}

static void parse_dist_ok(const char *s, struct sl_dist *d)
{
	char err[256] = "";

	if (sl_dist_parse(s, d, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
}

static void test_dist_uniform(void **state)
{
	struct sl_dist d;
	struct sl_rng r;
	bool lo = false, hi = false, mid = false;

	(void)state;
	sl_rng_seed(&r, 3);
	parse_dist_ok("uniform:1ms:5ms", &d);
	assert_int_equal(d.kind, SL_DIST_UNIFORM);
	for (int i = 0; i < 10000; i++) {
		u64 v = sl_dist_draw(&d, &r);

		assert_true(v >= 1000000);
		assert_true(v <= 5000000);
	}
	parse_dist_ok("uniform:1ns:3ns", &d);
	for (int i = 0; i < 10000; i++) {
		u64 v = sl_dist_draw(&d, &r);

		assert_true(v >= 1 && v <= 3);
		lo |= v == 1;
		mid |= v == 2;
		hi |= v == 3;
	}
	assert_true(lo);
	assert_true(mid);
	assert_true(hi);
	/* a degenerate range */
	parse_dist_ok("uniform:2ms:2ms", &d);
	for (int i = 0; i < 100; i++)
		assert_int_equal(sl_dist_draw(&d, &r), 2000000);
}

static void test_dist_exp(void **state)
{
	struct sl_dist d;
	struct sl_rng r;
	double sum = 0;
	const int n = 200000;

	(void)state;
	sl_rng_seed(&r, 11);
	parse_dist_ok("exp:1ms", &d);
	assert_int_equal(d.kind, SL_DIST_EXP);
	assert_int_equal(d.a, 1000000);
	for (int i = 0; i < n; i++)
		sum += (double)sl_dist_draw(&d, &r);
	assert_true(fabs(sum / n - 1e6) < 0.03 * 1e6);
}

static void test_dist_normal(void **state)
{
	struct sl_dist d;
	struct sl_rng r;
	double sum = 0;
	const int n = 200000;
	int zeros = 0;

	(void)state;
	sl_rng_seed(&r, 13);
	parse_dist_ok("normal:10ms:1ms", &d);
	assert_int_equal(d.kind, SL_DIST_NORMAL);
	for (int i = 0; i < n; i++) {
		u64 v = sl_dist_draw(&d, &r);

		/* 10 sd either side is far beyond what 200000 draws reach */
		assert_true(v < 20000000);
		sum += (double)v;
	}
	assert_true(fabs(sum / n - 1e7) < 0.02 * 1e7);

	/* mean 1ms, sd 10ms: about half the draws would be negative; they must clamp to 0, not
	 * wrap around to huge u64 values */
	parse_dist_ok("normal:1ms:10ms", &d);
	for (int i = 0; i < 10000; i++) {
		u64 v = sl_dist_draw(&d, &r);

		assert_true(v < 1000000 + 10 * 10000000ULL);
		zeros += v == 0;
	}
	assert_true(zeros > 3000);
}

static void test_dist_fixed(void **state)
{
	struct sl_dist d;
	struct sl_rng r;

	(void)state;
	sl_rng_seed(&r, 1);
	parse_dist_ok("10ms", &d);
	assert_int_equal(d.kind, SL_DIST_FIXED);
	for (int i = 0; i < 10; i++)
		assert_int_equal(sl_dist_draw(&d, &r), 10000000);
	parse_dist_ok("fixed:250us", &d);
	assert_int_equal(d.kind, SL_DIST_FIXED);
	assert_int_equal(sl_dist_draw(&d, &r), 250000);
	d = sl_dist_fixed(12345);
	assert_int_equal(sl_dist_draw(&d, &r), 12345);
}

static void dist_bad(const char *s, const char *needle)
{
	struct sl_dist d;
	char err[256] = "";

	if (!sl_dist_parse(s, &d, err, sizeof(err)))
		fail_msg("'%s' was accepted", s);
	assert_true(strlen(err) > 0);
	if (needle && !strstr(err, needle))
		fail_msg("'%s': message '%s' lacks '%s'", s, err, needle);
}

static void test_dist_parse(void **state)
{
	struct sl_dist d;

	(void)state;
	dist_bad("uniform:5ms:1ms", "MAX below MIN");
	dist_bad("exp:1ms:2ms", NULL);
	dist_bad("gauss:1ms", "gauss");
	dist_bad("normal:10ms", NULL);
	dist_bad("uniform:1ms", NULL);
	dist_bad("uniform:1ms:2ms:3ms", NULL);
	dist_bad("uniform:1ms:abc", NULL);
	dist_bad("", NULL);
	parse_dist_ok("normal:10ms:2ms", &d);
	assert_int_equal(d.kind, SL_DIST_NORMAL);
	assert_int_equal(d.a, 10000000);
	assert_int_equal(d.b, 2000000);
	parse_dist_ok("uniform:1ms:5ms", &d);
	assert_int_equal(d.a, 1000000);
	assert_int_equal(d.b, 5000000);
}

/* ---- parse ---- */

static u64 dur_ok(const char *s)
{
	char err[256] = "";
	u64 v = 0;

	if (sl_parse_duration(s, &v, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
	return v;
}

static void dur_bad(const char *s, const char *needle)
{
	char err[256] = "";
	u64 v = 777;

	if (!sl_parse_duration(s, &v, err, sizeof(err)))
		fail_msg("'%s' was accepted as %llu", s, (unsigned long long)v);
	assert_true(strlen(err) > 0);
	if (needle && !strstr(err, needle))
		fail_msg("'%s': message '%s' lacks '%s'", s, err, needle);
}

static void test_parse_duration(void **state)
{
	(void)state;
	assert_int_equal(dur_ok("2s"), 2000000000ULL);
	assert_int_equal(dur_ok("1.5ms"), 1500000);
	assert_int_equal(dur_ok("100us"), 100000);
	assert_int_equal(dur_ok("250ns"), 250);
	assert_int_equal(dur_ok("0.000000001s"), 1);
	assert_int_equal(dur_ok("0s"), 0);
	assert_int_equal(dur_ok("1.25s"), 1250000000ULL);
	dur_bad("", NULL);
	dur_bad("10", NULL);
	dur_bad("-1s", "negative");
	dur_bad("1.5", NULL);
	dur_bad("abc", NULL);
	dur_bad("1msx", NULL);
	dur_bad("1e3ms", NULL);
	dur_bad("1.ms", NULL);
	dur_bad(" 1ms", NULL);
	dur_bad("1 ms", NULL);
	dur_bad("99999999999999999999s", NULL);
}

static void test_parse_ints(void **state)
{
	char err[256];
	s64 s = 0;
	u64 u = 0;

	(void)state;
	assert_int_equal(sl_parse_s64("-5", &s, err, sizeof(err)), 0);
	assert_int_equal(s, -5);
	assert_int_equal(sl_parse_s64("42", &s, err, sizeof(err)), 0);
	assert_int_equal(s, 42);
	err[0] = '\0';
	assert_int_equal(sl_parse_s64("12abc", &s, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	assert_int_equal(sl_parse_s64(" 1", &s, err, sizeof(err)), -1);
	assert_int_equal(sl_parse_s64("", &s, err, sizeof(err)), -1);
	/* beyond 64 bits: SL_PARSE_RANGE, and the message names the limit */
	assert_int_equal(sl_parse_s64("99999999999999999999", &s, err, sizeof(err)),
			 SL_PARSE_RANGE);
	assert_string_equal(err, "'99999999999999999999' is out of range (the limit is "
				 "-9223372036854775808..9223372036854775807)");

	assert_int_equal(sl_parse_u64("18446744073709551615", &u, err, sizeof(err)), 0);
	assert_int_equal(u, UINT64_MAX);
	assert_int_equal(sl_parse_u64("0", &u, err, sizeof(err)), 0);
	assert_int_equal(u, 0);
	err[0] = '\0';
	assert_int_equal(sl_parse_u64("-1", &u, err, sizeof(err)), -1);
	assert_true(strlen(err) > 0);
	assert_int_equal(sl_parse_u64("", &u, err, sizeof(err)), -1);
	assert_int_equal(sl_parse_u64("+1", &u, err, sizeof(err)), -1);
	assert_int_equal(sl_parse_u64("1x", &u, err, sizeof(err)), -1);
	assert_int_equal(sl_parse_u64("18446744073709551616", &u, err, sizeof(err)),
			 SL_PARSE_RANGE);
	assert_string_equal(err, "'18446744073709551616' is out of range (the limit is "
				 "18446744073709551615)");
}

/* ---- hist ---- */

static void test_hist_small_exact(void **state)
{
	struct sl_hist h;

	(void)state;
	assert_int_equal(sl_hist_init(&h), 0);
	assert_int_equal(sl_hist_percentile(&h, 50), 0);
	assert_int_equal(sl_hist_percentile(&h, 100), 0);
	for (u64 v = 1; v <= 100; v++)
		sl_hist_add(&h, v);
	assert_int_equal(h.count, 100);
	assert_int_equal(h.max, 100);
	assert_int_equal(sl_hist_percentile(&h, 50), 50);
	assert_int_equal(sl_hist_percentile(&h, 99), 99);
	assert_int_equal(sl_hist_percentile(&h, 100), 100);
	assert_int_equal(sl_hist_percentile(&h, 1), 1);
	assert_int_equal(sl_hist_percentile(&h, 0.5), 1);
	sl_hist_free(&h);
}

static void test_hist_large(void **state)
{
	static const double ps[] = {50, 95, 99};
	struct sl_hist h;
	const u64 n = 100000;

	(void)state;
	assert_int_equal(sl_hist_init(&h), 0);
	for (u64 i = 1; i <= n; i++)
		sl_hist_add(&h, i * 1000);
	assert_int_equal(h.max, n * 1000);
	for (size_t i = 0; i < SL_ARRAY_SIZE(ps); i++) {
		u64 rank = (u64)ceil(ps[i] / 100.0 * (double)n);
		double exact = (double)(rank * 1000);
		double got = (double)sl_hist_percentile(&h, ps[i]);

		if (fabs(got - exact) > 0.01 * exact)
			fail_msg("p%g: got %.0f, exact %.0f", ps[i], got, exact);
	}
	assert_true(sl_hist_percentile(&h, 100) <= h.max);
	assert_true(fabs((double)sl_hist_percentile(&h, 100) - 1e8) <= 0.01 * 1e8);
	sl_hist_free(&h);
}

static void test_hist_never_above_max(void **state)
{
	static const u64 vals[] = {256, 300, 1000, 1024, 4096, 1000000, 123456789, 1ULL << 40};
	struct sl_hist h;

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(vals); i++) {
		assert_int_equal(sl_hist_init(&h), 0);
		sl_hist_add(&h, vals[i]);
		assert_int_equal(h.max, vals[i]);
		assert_true(sl_hist_percentile(&h, 50) <= vals[i]);
		assert_true(sl_hist_percentile(&h, 100) <= vals[i]);
		assert_true(fabs((double)sl_hist_percentile(&h, 100) - (double)vals[i]) <=
			    0.01 * (double)vals[i]);
		sl_hist_free(&h);
	}
}

/* ---- fmt ---- */

static void fmt_check(const char *want, char *end, char *buf)
{
	*end = '\0';
	assert_string_equal(buf, want);
}

static void test_fmt_u64(void **state)
{
	char b[64];

	(void)state;
	fmt_check("0", sl_fmt_u64(b, 0, 0), b);
	fmt_check("   42", sl_fmt_u64(b, 42, 5), b);
	fmt_check("123456", sl_fmt_u64(b, 123456, 3), b); /* wider than asked: all of it */
	fmt_check("18446744073709551615", sl_fmt_u64(b, UINT64_MAX, 20), b);
}

/*
 * sl_fmt_ratio(n, div, d, w) prints "%w.df" of (double)n / div. By hand: 1234567 ns in ms is
 * 1234.567 thousandths, 567 of 1000 is past half: 1.235; 1234499: 1.234; 12345678901 ns in s
 * to 6 decimals is 12345678.901 millionths: 12.345679. Ties (the remainder half the unit) are
 * printf's, decided by the double: 1234500 / 1e6 is 1.2344999999999999307 as a double, 1.234;
 * 1500 / 1e6 is 0.0015000000000000000312, 0.002; 250 / 1e3 = 0.25 exactly, to even: 0.2;
 * 150 / 1e3 is 0.14999999999999999445, 0.1; 999950 / 1e3 is 999.95000000000004547, 1000.0.
 * From 2^52 the double may be on the other side: (2^64 - 1) / 1e6 is 18446744073709.551615
 * but its double is 18446744073709.55078125, printed 18446744073709.551 (not .552).
 */
static void test_fmt_ratio(void **state)
{
	char b[64], w[64];
	u64 x = 88172645463325252ULL;

	(void)state;
	fmt_check("       1.235", sl_fmt_ratio(b, 1234567, 1000000, 3, 12), b);
	fmt_check("1.234", sl_fmt_ratio(b, 1234499, 1000000, 3, 0), b);
	fmt_check("       12.345679", sl_fmt_ratio(b, 12345678901ULL, 1000000000, 6, 16), b);
	fmt_check("         0.0", sl_fmt_ratio(b, 0, 1000, 1, 12), b);
	fmt_check("1.234", sl_fmt_ratio(b, 1234500, 1000000, 3, 0), b);
	fmt_check("0.002", sl_fmt_ratio(b, 1500, 1000000, 3, 0), b);
	fmt_check("0.2", sl_fmt_ratio(b, 250, 1000, 1, 0), b);
	fmt_check("0.1", sl_fmt_ratio(b, 150, 1000, 1, 0), b);
	fmt_check("1000.0", sl_fmt_ratio(b, 999950, 1000, 1, 0), b);
	fmt_check("18446744073709.551", sl_fmt_ratio(b, UINT64_MAX, 1000000, 3, 0), b);
	fmt_check("10000.000", sl_fmt_ratio(b, 9999999999ULL, 1000000, 3, 6), b);
	/* and printf itself on many others: below and above 2^52, next to ties */
	for (int i = 0; i < 300000; i++) {
		static const u64 divs[3] = {1000, 1000000, 1000000000};
		static const int decs[3] = {1, 3, 6};
		int k = i % 3, width = i % 17;
		u64 m = divs[k] / (k == 0 ? 10 : 1000), n;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		switch (i / 3 % 4) {
		case 0:
			n = x >> (x % 64);
			break;
		case 1:
			n = (x >> 24) / m * m + m / 2 + x % 3 - 1;
			break;
		case 2:
			n = (1ULL << 52) - x % 2000 + 1000;
			break;
		default:
			n = (u64)i;
			break;
		}
		snprintf(w, sizeof(w), "%*.*f", width, decs[k], (double)n / (double)divs[k]);
		fmt_check(w, sl_fmt_ratio(b, n, divs[k], decs[k], width), b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timerq_order),
		cmocka_unit_test(test_timerq_fifo),
		cmocka_unit_test(test_timerq_cancel),
		cmocka_unit_test(test_timerq_rearm),
		cmocka_unit_test(test_timerq_random),
		cmocka_unit_test(test_arena),
		cmocka_unit_test(test_timerq_batches),
		cmocka_unit_test(test_timerq_ring),
		cmocka_unit_test(test_timerq_wide),
		cmocka_unit_test(test_timerq_cpu_run),
		cmocka_unit_test(test_timerq_batch_between),
		cmocka_unit_test(test_rng_reference),
		cmocka_unit_test(test_rng_determinism),
		cmocka_unit_test(test_rng_double),
		cmocka_unit_test(test_dist_uniform),
		cmocka_unit_test(test_dist_exp),
		cmocka_unit_test(test_dist_normal),
		cmocka_unit_test(test_dist_fixed),
		cmocka_unit_test(test_dist_parse),
		cmocka_unit_test(test_parse_duration),
		cmocka_unit_test(test_parse_ints),
		cmocka_unit_test(test_hist_small_exact),
		cmocka_unit_test(test_hist_large),
		cmocka_unit_test(test_hist_never_above_max),
		cmocka_unit_test(test_fmt_u64),
		cmocka_unit_test(test_fmt_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
