/* Indexed binary heap of timers; see timerq.h for why. */
#include "core/timerq.h"

#include <stdlib.h>
#ifdef SL_TIMERQ_CHECK_PERCPU
#include <stdio.h>
#endif

/*
 * Children per node of the main heap: 2 << (q->wide), i.e. 2 or 4. Every level a timer moves
 * writes that timer's idx, a cache miss once the heap is large; four children's keys share two
 * cache lines, and a 4-ary heap is half as deep, so a sift writes half as many timers. With few
 * timers everything is in the cache and the binary heap's fewer comparisons win (the 64-CPU
 * make ran ~5% slower 4-ary): the heap turns 4-ary when it grows past SL_TIMERQ_WIDE_AT timers
 * and binary again below a quarter of that, rebuilt in place each time (O(n), rare). The order
 * (expiry, then sequence) is total, so the shape never changes which timer comes first.
 */
#define SL_TIMERQ_WIDE_AT 8192

static bool before(const struct sl_heapent *a, const struct sl_heapent *b)
{
	if (a->expires != b->expires)
		return a->expires < b->expires;
	return a->seq < b->seq;
}

static void place(struct sl_timerq *q, int i, struct sl_heapent e)
{
	q->heap[i] = e;
	e.t->idx = i;
}

static void sift_up(struct sl_timerq *q, int i)
{
	struct sl_heapent e = q->heap[i];

	while (i > 0) {
		int p = (i - 1) >> (1 + q->wide);

		if (!before(&e, &q->heap[p]))
			break;
		place(q, i, q->heap[p]);
		i = p;
	}
	place(q, i, e);
}

static void sift_down(struct sl_timerq *q, int i)
{
	struct sl_heapent e = q->heap[i];
	/* slots as unsigned: a heap holds at most INT_MAX timers, so nothing wraps */
	unsigned n = (unsigned)q->n, at = (unsigned)i;

	for (;;) {
		unsigned c = (at << (1 + q->wide)) + 1, end = c + (2U << q->wide);

		if (c >= n)
			break;
		if (end > n)
			end = n;
		for (unsigned k = c + 1; k < end; k++)
			if (before(&q->heap[k], &q->heap[c]))
				c = k;
		if (!before(&q->heap[c], &e))
			break;
		place(q, (int)at, q->heap[c]);
		at = c;
	}
	place(q, (int)at, e);
}

/* the heap rebuilt with 2 << wide children per node */
static void set_wide(struct sl_timerq *q, int wide)
{
	q->wide = wide;
	for (int i = q->n > 1 ? (q->n - 2) >> (1 + wide) : -1; i >= 0; i--)
		sift_down(q, i);
}

/* ---- batches ---- */

/*
 * A timer in a batch has idx BATCH_IDX + 2 pos + batch (so sl_timer_armed holds); a batch
 * longer than BATCH_MAX_POS entries sends further timers to the heap.
 */
#define BATCH_IDX     (1 << 30)
#define BATCH_MAX_POS (1 << 28)
/* a timer in the ring has idx RING_IDX + its slot, below 2^31 (the ring's cap <= RING_MAX) */
#define RING_IDX (BATCH_IDX + (1 << 29))
#define RING_MAX (1U << 28)

static bool in_batch(const struct sl_timer *t)
{
	return t->idx >= BATCH_IDX && t->idx < RING_IDX;
}

static bool in_ring(const struct sl_timer *t)
{
	return t->idx >= RING_IDX;
}

static int batch_no(const struct sl_timer *t)
{
	return (t->idx - BATCH_IDX) & 1;
}

static int batch_pos(const struct sl_timer *t)
{
	return (t->idx - BATCH_IDX) >> 1;
}

/*
 * The batch a timer armed for `expires` goes to, or -1 for the heap: an open batch of that
 * expiry, or (when open_new) a closed one opened for it if one of the two last distinct
 * expiries armed was the same (one lone timer opens none: a batch only pays when several share
 * an expiry; the one before the last too, because 6.18's tasks going to sleep each arm their
 * sleep timer and then a short one, so two sleep timers never came in a row and all 100k
 * went to the heap). Where a timer is kept never changes which comes first (peek compares
 * the heap with the batches).
 */
static int batch_for(struct sl_timerq *q, u64 expires, bool open_new)
{
	int free_b = -1, nfree = 0;

	for (int b = 0; b < SL_TIMERQ_BATCHES; b++) {
		struct sl_tbatch *bt = &q->batch[b];

		if (bt->head < bt->tail && bt->expires == expires)
			return bt->tail < BATCH_MAX_POS ? b : -1;
		if (bt->head == bt->tail && nfree++ == 0)
			free_b = b;
	}
	/* the one before the last opens a batch only while another stays free for the last's
	 * kind: taking the last free one for it sent the 4096 ticks of two hogs a CPU on a
	 * flat socket, armed in a row, to the heap (1.8x the cost per event) */
	if (free_b < 0 || (expires != q->last_expires && (expires != q->prev_expires || nfree < 2)))
		return -1;
	/* opened by the batch_add that follows (a closed batch has head == tail == 0) */
	if (open_new)
		q->batch[free_b].expires = expires;
	return free_b;
}

static void set_last_expires(struct sl_timerq *q, u64 expires)
{
	if (expires != q->last_expires)
		q->prev_expires = q->last_expires;
	q->last_expires = expires;
}

static int batch_add(struct sl_timerq *q, int b, struct sl_timer *t)
{
	struct sl_tbatch *bt = &q->batch[b];

	if (bt->tail == bt->cap) {
		int cap = bt->cap ? bt->cap * 2 : 64;
		struct sl_timer **e = realloc(bt->e, sizeof(*e) * (size_t)cap);

		if (!e)
			return -1;
		bt->e = e;
		bt->cap = cap;
	}
	bt->e[bt->tail] = t;
	t->idx = BATCH_IDX + 2 * bt->tail + b;
	bt->tail++;
	q->nb++;
	return 0;
}

/* t out of its batch; the head moves past cancelled entries, an empty batch closes */
static void batch_del(struct sl_timerq *q, struct sl_timer *t)
{
	struct sl_tbatch *bt = &q->batch[batch_no(t)];

	bt->e[batch_pos(t)] = NULL;
	t->idx = -1;
	q->nb--;
	while (bt->head < bt->tail && !bt->e[bt->head])
		bt->head++;
	if (bt->head == bt->tail)
		bt->head = bt->tail = 0;
}

/* ---- the ring ---- */

/* expires is the delta after now that the (open) ring takes, or (open_new) a closed ring is
 * opened for it: the previous arm had the same delta (a lone arm opens none) */
static bool ring_for(struct sl_timerq *q, u64 expires, bool open_new)
{
	struct sl_tring *r = &q->ring;
	u64 d = expires - q->now;

	if (expires < q->now)
		return false;
	if (r->head < r->tail)
		return d == r->delta && expires >= r->last && r->tail - r->head < RING_MAX;
	if (d != q->last_delta || !d)
		return false;
	if (open_new)
		r->delta = d;
	return true;
}

static int ring_add(struct sl_timerq *q, struct sl_timer *t)
{
	struct sl_tring *r = &q->ring;

	if (r->tail - r->head == r->cap) {
		u32 cap = r->cap ? r->cap * 2 : 64;
		struct sl_timer **e = calloc(cap, sizeof(*e));

		if (!e)
			return -1;
		/* every slot again at its position modulo the new size */
		for (u64 pos = r->head; pos < r->tail; pos++) {
			struct sl_timer *x = r->e[pos & (r->cap - 1)];

			e[pos & (cap - 1)] = x;
			if (x)
				x->idx = RING_IDX + (int)(pos & (cap - 1));
		}
		free(r->e);
		r->e = e;
		r->cap = cap;
	}
	r->e[r->tail & (r->cap - 1)] = t;
	t->idx = RING_IDX + (int)(r->tail & (r->cap - 1));
	r->tail++;
	r->last = t->expires;
	q->nb++;
	return 0;
}

static struct sl_timer *ring_first(const struct sl_timerq *q)
{
	const struct sl_tring *r = &q->ring;

	return r->head < r->tail ? r->e[r->head & (r->cap - 1)] : NULL;
}

/* t out of the ring; the head moves past cancelled entries, an empty ring closes */
static void ring_del(struct sl_timerq *q, struct sl_timer *t)
{
	struct sl_tring *r = &q->ring;

	r->e[t->idx - RING_IDX] = NULL;
	t->idx = -1;
	q->nb--;
	while (r->head < r->tail && !r->e[r->head & (r->cap - 1)])
		r->head++;
	if (r->head == r->tail)
		r->head = r->tail = 0;
}

/* ---- the per-CPU heaps ---- */

/* Up to this many armed timers a query scans them; beyond, the per-CPU heaps are built and kept
 * (both give the same minima; the heaps cost a sift per arm, the scan one pass per query). */
#define SL_TIMERQ_SCAN_MAX 256

static void pplace(struct sl_cpuheap *h, int i, struct sl_cpuent e)
{
	h->h[i] = e;
	e.t->pidx = i;
}

static void psift_up(struct sl_cpuheap *h, int i)
{
	struct sl_cpuent e = h->h[i];

	while (i > 0) {
		int p = (i - 1) / 2;

		if (h->h[p].expires <= e.expires)
			break;
		pplace(h, i, h->h[p]);
		i = p;
	}
	pplace(h, i, e);
}

static void psift_down(struct sl_cpuheap *h, int i)
{
	struct sl_cpuent e = h->h[i];

	for (;;) {
		int c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->h[c + 1].expires < h->h[c].expires)
			c++;
		if (h->h[c].expires >= e.expires)
			break;
		pplace(h, i, h->h[c]);
		i = c;
	}
	pplace(h, i, e);
}

/* a pidx at or above this is slot pidx - PRUN_IDX of the CPU's run (a heap has fewer slots) */
#define PRUN_IDX (1 << 30)

/* the earliest expiry of the CPU's heap and run (UINT64_MAX: none) */
static u64 pfirst(const struct sl_cpuheap *h)
{
	u64 m = h->n ? h->h[0].expires : UINT64_MAX;

	if (h->fhead < h->ftail && h->f[h->fhead].expires < m)
		m = h->f[h->fhead].expires;
	return m;
}

/* t at the run's tail (its expiry no earlier than the run's last arm); -1: out of memory */
static int prun_add(struct sl_cpuheap *h, struct sl_timer *t)
{
	if (h->ftail == h->fcap) {
		if (h->fcap && h->flive <= h->fcap / 2) {
			/* the holes squeezed out: at least fcap / 2 appends before the next, so a
			 * timer is moved O(1) times per arm, amortized */
			int n = 0;

			for (int i = h->fhead; i < h->ftail; i++)
				if (h->f[i].t) {
					h->f[n] = h->f[i];
					h->f[n].t->pidx = PRUN_IDX + n;
					n++;
				}
			h->fhead = 0;
			h->ftail = n;
		} else {
			int cap = h->fcap ? h->fcap * 2 : 16;
			struct sl_cpuent *a;

			if (cap >= PRUN_IDX || !(a = realloc(h->f, sizeof(*a) * (size_t)cap)))
				return -1;
			h->f = a;
			h->fcap = cap;
		}
	}
	h->f[h->ftail] = (struct sl_cpuent){t->expires, t};
	t->pidx = PRUN_IDX + h->ftail++;
	h->flive++;
	h->flast = t->expires;
	return 0;
}

static void prun_del(struct sl_cpuheap *h, struct sl_timer *t)
{
	h->f[t->pidx - PRUN_IDX].t = NULL;
	h->flive--;
	while (h->fhead < h->ftail && !h->f[h->fhead].t)
		h->fhead++;
	if (h->fhead == h->ftail)
		h->fhead = h->ftail = 0;
}

static void percpu_add(struct sl_timerq *q, struct sl_timer *t)
{
	int k;
	struct sl_cpuheap *h;

	if (!q->percpu || t->cpu < 0)
		return;
	if (t->cpu > SL_TIMER_MAX_CPU) {
		q->oom = true; /* cannot happen: the configuration allows 4096 CPUs */
		return;
	}
	k = 2 * t->cpu + (t->irq ? 1 : 0);
	if (k >= q->nper) {
		int n = q->nper ? q->nper : 16;

		while (n <= k)
			n *= 2;
		struct sl_cpuheap *p = realloc(q->per, sizeof(*p) * (size_t)n);

		if (!p) {
			q->oom = true;
			return;
		}
		for (int i = q->nper; i < n; i++)
			p[i] = (struct sl_cpuheap){0};
		q->per = p;
		q->nper = n;
	}
	h = &q->per[k];
	t->pq = (uint16_t)(k + 1);
	if (h->fhead == h->ftail || t->expires >= h->flast) {
		if (prun_add(h, t)) {
			t->pq = 0;
			q->oom = true;
		}
		return;
	}
	if (h->n == h->cap) {
		int cap = h->cap ? h->cap * 2 : 16;
		struct sl_cpuent *a = realloc(h->h, sizeof(*a) * (size_t)cap);

		if (!a) {
			t->pq = 0;
			q->oom = true;
			return;
		}
		h->h = a;
		h->cap = cap;
	}
	pplace(h, h->n++, (struct sl_cpuent){t->expires, t});
	psift_up(h, h->n - 1);
}

static void percpu_del(struct sl_timerq *q, struct sl_timer *t)
{
	struct sl_cpuheap *h;
	int i = t->pidx;

	if (!t->pq)
		return;
	h = &q->per[t->pq - 1];
	t->pq = 0;
	if (i >= PRUN_IDX) {
		prun_del(h, t);
		return;
	}
	h->n--;
	if (i == h->n)
		return;
	struct sl_timer *moved = h->h[h->n].t;

	pplace(h, i, h->h[h->n]);
	psift_down(h, i);
	psift_up(h, moved->pidx);
}

/* the scan's step: timer x (NULL: a cancelled slot) if it is cpu's, into the earliest of any
 * kind (*w) and the earliest but the interrupts' (*t) */
static inline void scan_one(const struct sl_timer *x, int cpu, u64 *w, u64 *t)
{
	if (!x || x->cpu != cpu)
		return;
	if (x->expires < *w)
		*w = x->expires;
	if (!x->irq && x->expires < *t)
		*t = x->expires;
}

/* every armed timer of the heap, the batches and the ring taken by scan_one */
static void scan_cpu(const struct sl_timerq *q, int cpu, u64 *w, u64 *t)
{
	*w = *t = UINT64_MAX;
	for (int i = 0; i < q->n; i++)
		scan_one(q->heap[i].t, cpu, w, t);
	for (int b = 0; b < SL_TIMERQ_BATCHES; b++) {
		const struct sl_tbatch *bt = &q->batch[b];

		for (int i = bt->head; i < bt->tail; i++)
			scan_one(bt->e[i], cpu, w, t);
	}
	for (u64 pos = q->ring.head; pos < q->ring.tail; pos++)
		scan_one(q->ring.e[pos & (q->ring.cap - 1)], cpu, w, t);
}

void sl_timerq_next_for_cpu(struct sl_timerq *q, int cpu, u64 *any, u64 *timer)
{
	u64 t = UINT64_MAX, w;

	if (!q->percpu && q->n + q->nb <= SL_TIMERQ_SCAN_MAX) {
		/* few timers: a scan is cheaper than keeping the per-CPU heaps at every arm */
		scan_cpu(q, cpu, any, timer);
		return;
	}
	if (!q->percpu) {
		q->percpu = true;
		for (int i = 0; i < q->n; i++)
			percpu_add(q, q->heap[i].t);
		for (int b = 0; b < SL_TIMERQ_BATCHES; b++)
			for (int i = q->batch[b].head; i < q->batch[b].tail; i++)
				if (q->batch[b].e[i])
					percpu_add(q, q->batch[b].e[i]);
		for (u64 pos = q->ring.head; pos < q->ring.tail; pos++)
			if (q->ring.e[pos & (q->ring.cap - 1)])
				percpu_add(q, q->ring.e[pos & (q->ring.cap - 1)]);
	}
	if (2 * cpu + 1 < q->nper) {
		const struct sl_cpuheap *ht = &q->per[2 * cpu], *hi = &q->per[2 * cpu + 1];

		t = pfirst(ht);
		w = pfirst(hi);
		if (t < w)
			w = t;
	} else {
		w = UINT64_MAX;
	}
#ifdef SL_TIMERQ_CHECK_PERCPU
	/* the kept heaps and runs against a scan of every armed timer */
	u64 cw, ct;

	scan_cpu(q, cpu, &cw, &ct);
	if (!q->oom && (cw != w || ct != t)) {
		fprintf(stderr, "timerq: CPU %d's kept next timer %llu/%llu, a scan %llu/%llu\n",
			cpu, (unsigned long long)w, (unsigned long long)t, (unsigned long long)cw,
			(unsigned long long)ct);
		abort();
	}
#endif
	*any = w;
	*timer = t;
}

void sl_timer_init(struct sl_timer *t, sl_timer_fn fn, int cpu)
{
	t->pq = 0;
	t->pidx = -1;
	t->expires = 0;
	t->seq = 0;
	t->idx = -1;
	t->cpu = cpu;
	t->irq = false;
	t->exit_delayed = false;
	t->fn = fn;
}

int sl_timerq_init(struct sl_timerq *q)
{
	q->n = 0;
	q->wide = 0;
	q->cap = 64;
	q->seq = 0;
	q->per = NULL;
	q->nper = 0;
	q->percpu = false;
	q->oom = false;
	q->nb = 0;
	q->last_expires = q->prev_expires = UINT64_MAX;
	for (int b = 0; b < SL_TIMERQ_BATCHES; b++)
		q->batch[b] = (struct sl_tbatch){0};
	q->ring = (struct sl_tring){0};
	q->now = 0;
	q->last_delta = UINT64_MAX;
	q->heap = malloc(sizeof(*q->heap) * (size_t)q->cap);
	return q->heap ? 0 : -1;
}

void sl_timerq_free(struct sl_timerq *q)
{
	for (int i = 0; i < q->n; i++) {
		q->heap[i].t->idx = -1;
		q->heap[i].t->pq = 0;
	}
	for (int b = 0; b < SL_TIMERQ_BATCHES; b++) {
		struct sl_tbatch *bt = &q->batch[b];

		for (int i = bt->head; i < bt->tail; i++)
			if (bt->e[i]) {
				bt->e[i]->idx = -1;
				bt->e[i]->pq = 0;
			}
		free(bt->e);
		*bt = (struct sl_tbatch){0};
	}
	for (u64 pos = q->ring.head; pos < q->ring.tail; pos++) {
		struct sl_timer *x = q->ring.e[pos & (q->ring.cap - 1)];

		if (x) {
			x->idx = -1;
			x->pq = 0;
		}
	}
	free(q->ring.e);
	q->ring = (struct sl_tring){0};
	q->nb = 0;
	for (int i = 0; i < q->nper; i++) {
		free(q->per[i].h);
		free(q->per[i].f);
	}
	free(q->per);
	q->per = NULL;
	q->nper = 0;
	q->percpu = false;
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
	q->wide = 0;
}

/* t out of the main heap (its per-CPU entry already gone) */
static void heap_del(struct sl_timerq *q, struct sl_timer *t)
{
	int i = t->idx;

	t->idx = -1;
	q->n--;
	if (q->wide && q->n < SL_TIMERQ_WIDE_AT / 4 && q->n > 0 && i != q->n) {
		/* the slot i is refilled first, then the whole heap rebuilt binary */
		q->heap[i] = q->heap[q->n];
		q->heap[i].t->idx = i;
		set_wide(q, 0);
		return;
	}
	if (i == q->n)
		return;
	struct sl_timer *moved = q->heap[q->n].t;

	place(q, i, q->heap[q->n]);
	sift_down(q, i);
	sift_up(q, moved->idx);
}

void sl_timerq_cancel(struct sl_timerq *q, struct sl_timer *t)
{
	if (t->idx < 0)
		return;
	percpu_del(q, t);
	if (in_ring(t))
		ring_del(q, t);
	else if (in_batch(t))
		batch_del(q, t);
	else
		heap_del(q, t);
}

int sl_timerq_arm(struct sl_timerq *q, struct sl_timer *t, u64 expires)
{
	u64 delta = expires - q->now;

	if (t->idx >= 0) {
		if (!in_batch(t) && !in_ring(t) && batch_for(q, expires, false) < 0 &&
		    !ring_for(q, expires, false)) {
			/* a re-arm moves t where it is: the order (expiry, then arming sequence)
			 * is total, so the heap's shape does not change which timer comes
			 * first */
			percpu_del(q, t);
			t->expires = expires;
			t->seq = q->seq++;
			q->heap[t->idx].expires = t->expires;
			q->heap[t->idx].seq = t->seq;
			sift_up(q, t->idx);
			sift_down(q, t->idx);
			set_last_expires(q, expires);
			q->last_delta = delta;
			percpu_add(q, t);
			return q->oom ? -1 : 0;
		}
		sl_timerq_cancel(q, t);
	}
	int b = batch_for(q, expires, true);
	bool ring = b < 0 && ring_for(q, expires, true);

	set_last_expires(q, expires);
	q->last_delta = delta;
	t->expires = expires;
	t->seq = q->seq++;
	if (b >= 0 || ring) {
		if (ring ? ring_add(q, t) : batch_add(q, b, t))
			return -1;
		percpu_add(q, t);
		return q->oom ? -1 : 0;
	}
	if (q->n == q->cap) {
		int cap = q->cap * 2;
		struct sl_heapent *h = realloc(q->heap, sizeof(*h) * (size_t)cap);

		if (!h)
			return -1;
		q->heap = h;
		q->cap = cap;
	}
	place(q, q->n, (struct sl_heapent){t->expires, t->seq, t});
	q->n++;
	if (!q->wide && q->n > SL_TIMERQ_WIDE_AT) {
		set_wide(q, 1);
		percpu_add(q, t);
		return q->oom ? -1 : 0;
	}
	sift_up(q, q->n - 1);
	percpu_add(q, t);
	return q->oom ? -1 : 0;
}

struct sl_timer *sl_timerq_peek(const struct sl_timerq *q)
{
	struct sl_timer *best = q->n ? q->heap[0].t : NULL;

	/* the heap's first against each batch's: the same total order as one heap */
	for (int b = 0; b < SL_TIMERQ_BATCHES; b++) {
		const struct sl_tbatch *bt = &q->batch[b];

		if (bt->head == bt->tail)
			continue;
		struct sl_timer *h = bt->e[bt->head];

		if (!best || h->expires < best->expires ||
		    (h->expires == best->expires && h->seq < best->seq))
			best = h;
	}
	struct sl_timer *h = ring_first(q);

	if (h && (!best || h->expires < best->expires ||
		  (h->expires == best->expires && h->seq < best->seq)))
		best = h;
	return best;
}

void sl_timerq_moved(struct sl_timerq *q, struct sl_timer *t)
{
	if (t->idx < 0)
		return;
	if (in_ring(t))
		q->ring.e[t->idx - RING_IDX] = t;
	else if (in_batch(t))
		q->batch[batch_no(t)].e[batch_pos(t)] = t;
	else
		q->heap[t->idx].t = t;
	if (t->pq)
		q->per[t->pq - 1].h[t->pidx].t = t;
}

struct sl_timer *sl_timerq_pop(struct sl_timerq *q)
{
	struct sl_timer *t = sl_timerq_peek(q);

	if (t)
		sl_timerq_take(q, t);
	return t;
}

void sl_timerq_take(struct sl_timerq *q, struct sl_timer *t)
{
	sl_timerq_cancel(q, t);
	q->now = t->expires;
}
