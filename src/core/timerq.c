/* Indexed binary heap of timers; see timerq.h for why. */
#include "core/timerq.h"

#include <stdlib.h>

static bool before(const struct sl_timer *a, const struct sl_timer *b)
{
	if (a->expires != b->expires)
		return a->expires < b->expires;
	return a->seq < b->seq;
}

static void place(struct sl_timerq *q, int i, struct sl_timer *t)
{
	q->heap[i] = t;
	t->idx = i;
}

static void sift_up(struct sl_timerq *q, int i)
{
	struct sl_timer *t = q->heap[i];

	while (i > 0) {
		int p = (i - 1) / 2;

		if (!before(t, q->heap[p]))
			break;
		place(q, i, q->heap[p]);
		i = p;
	}
	place(q, i, t);
}

static void sift_down(struct sl_timerq *q, int i)
{
	struct sl_timer *t = q->heap[i];

	for (;;) {
		int c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && before(q->heap[c + 1], q->heap[c]))
			c++;
		if (!before(q->heap[c], t))
			break;
		place(q, i, q->heap[c]);
		i = c;
	}
	place(q, i, t);
}

void sl_timer_init(struct sl_timer *t, sl_timer_fn fn, int cpu)
{
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
	q->cap = 64;
	q->seq = 0;
	q->heap = malloc(sizeof(*q->heap) * (size_t)q->cap);
	return q->heap ? 0 : -1;
}

void sl_timerq_free(struct sl_timerq *q)
{
	for (int i = 0; i < q->n; i++)
		q->heap[i]->idx = -1;
	free(q->heap);
	q->heap = NULL;
	q->n = q->cap = 0;
}

void sl_timerq_cancel(struct sl_timerq *q, struct sl_timer *t)
{
	int i = t->idx;

	if (i < 0)
		return;
	t->idx = -1;
	q->n--;
	if (i == q->n)
		return;
	struct sl_timer *moved = q->heap[q->n];

	place(q, i, moved);
	sift_down(q, i);
	sift_up(q, moved->idx);
}

int sl_timerq_arm(struct sl_timerq *q, struct sl_timer *t, u64 expires)
{
	sl_timerq_cancel(q, t);
	if (q->n == q->cap) {
		int cap = q->cap * 2;
		struct sl_timer **h = realloc(q->heap, sizeof(*h) * (size_t)cap);

		if (!h)
			return -1;
		q->heap = h;
		q->cap = cap;
	}
	t->expires = expires;
	t->seq = q->seq++;
	place(q, q->n, t);
	q->n++;
	sift_up(q, q->n - 1);
	return 0;
}

struct sl_timer *sl_timerq_peek(const struct sl_timerq *q)
{
	return q->n ? q->heap[0] : NULL;
}

struct sl_timer *sl_timerq_pop(struct sl_timerq *q)
{
	struct sl_timer *t = sl_timerq_peek(q);

	if (t)
		sl_timerq_cancel(q, t);
	return t;
}
