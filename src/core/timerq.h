/*
 * The event queue: an indexed binary min-heap of timers.
 *
 * Why a heap of embedded timers (as the kernel's hrtimers are embedded in their owners): no
 * allocation per event, O(log n) arm, cancel and re-arm, and cancellation is exact instead of
 * lazy, so the queue never fills with dead entries. Ties on the expiry time are broken by a
 * sequence number taken when the timer is armed: equal times fire in the order they were armed,
 * which makes the simulation deterministic and FIFO at equal times.
 */
#ifndef SCHEDLAB_TIMERQ_H
#define SCHEDLAB_TIMERQ_H

#include <schedlab/types.h>

struct sl_sim;
struct sl_timer;
typedef void (*sl_timer_fn)(struct sl_sim *sim, struct sl_timer *t);

struct sl_timer {
	u64 expires;
	u64 seq;
	int idx;  /* position in the heap, -1 when not armed */
	int cpu;  /* CPU whose timer this is, or whose interrupt (-1: none, the experiment) */
	bool irq; /* a device's interrupt routed to cpu: not a timer the governors can see */
	bool exit_delayed; /* re-armed to run after its CPU's C-state exit */
	sl_timer_fn fn;
};

struct sl_timerq {
	struct sl_timer **heap;
	int n, cap;
	u64 seq;
};

void sl_timer_init(struct sl_timer *t, sl_timer_fn fn, int cpu);
static inline bool sl_timer_armed(const struct sl_timer *t)
{
	return t->idx >= 0;
}
int sl_timerq_init(struct sl_timerq *q);
void sl_timerq_free(struct sl_timerq *q);
/* Arm (or re-arm) t to expire at `expires`. Returns -1 only when memory runs out. */
int sl_timerq_arm(struct sl_timerq *q, struct sl_timer *t, u64 expires);
void sl_timerq_cancel(struct sl_timerq *q, struct sl_timer *t);
struct sl_timer *sl_timerq_peek(const struct sl_timerq *q);
struct sl_timer *sl_timerq_pop(struct sl_timerq *q);

#endif
