/*
 * The event queue: an indexed binary min-heap of timers.
 *
 * Why a heap of embedded timers (as the kernel's hrtimers are embedded in their owners): no
 * allocation per event, O(log n) arm, cancel and re-arm, and cancellation is exact instead of
 * lazy, so the queue never fills with dead entries. Ties on the expiry time are broken by a
 * sequence number taken when the timer is armed: equal times fire in the order they were armed,
 * which makes the simulation deterministic and FIFO at equal times.
 *
 * Each heap slot holds a copy of its timer's key (expiry and sequence) next to the pointer, so
 * a sift compares slots of one contiguous array instead of loading every timer it passes: with
 * tens of thousands of armed timers those loads missed the cache at every level (the timer is
 * still written once per level moved, for its idx).
 */
#ifndef SCHEDLAB_TIMERQ_H
#define SCHEDLAB_TIMERQ_H

#include <schedlab/types.h>

struct sl_sim;
struct sl_timer;
typedef void (*sl_timer_fn)(struct sl_sim *sim, struct sl_timer *t);

/*
 * 40 bytes, no hole (every task holds one): pq is 1 + 2 cpu + irq, at most 8193 with the
 * configuration's 4096 CPUs (config.c), so 16 bits hold it (sl_timerq_arm refuses a CPU past
 * SL_TIMER_MAX_CPU rather than wrap it).
 */
struct sl_timer {
	u64 expires;
	u64 seq;
	sl_timer_fn fn;
	int idx;     /* position in the heap, -1 when not armed */
	int cpu;     /* CPU whose timer this is, or whose interrupt (-1: none, the experiment) */
	int pidx;    /* its position in its per-CPU heap (or run: timerq.c's PRUN_IDX) */
	uint16_t pq; /* 1 + its per-CPU heap (2 cpu + irq); 0: none */
	bool irq;    /* a device's interrupt routed to cpu: not a timer the governors can see */
	bool exit_delayed; /* re-armed to run after its CPU's C-state exit */
};

/* the largest CPU number a per-CPU heap can be kept for (pq's 16 bits) */
#define SL_TIMER_MAX_CPU ((UINT16_MAX - 2) / 2)

/* a slot of the main heap: the timer and its key, (expires, seq), copied from it when armed */
struct sl_heapent {
	u64 expires;
	u64 seq;
	struct sl_timer *t;
};

/* a slot of a per-CPU heap: the timer and its expiry */
struct sl_cpuent {
	u64 expires;
	struct sl_timer *t;
};

/*
 * A batch: timers of one expiry in arming order (so in sequence order), outside the heap. The
 * tick of every busy CPU is re-armed to the same next jiffy; kept here those arms and their pops
 * cost O(1) instead of a sift each. Cancelled entries are NULL until the head passes them.
 */
struct sl_tbatch {
	u64 expires;
	struct sl_timer **e;
	int head, tail, cap; /* open while head < tail; a closed batch has head == tail == 0 */
};

#define SL_TIMERQ_BATCHES 2

/*
 * The ring: timers each armed one same delta after the expiry last taken from the queue, in
 * arming order, outside the heap. That order is their (expiry, sequence) order (the taken
 * expiries only rise), so the head is the least. The ticks of busy CPUs whose phases differ (no
 * batch: each has its own expiry) are re-armed one period after they fire: kept here, a pop and
 * its re-arm cost O(1) instead of a sift through a heap of every CPU's tick. Cancelled entries
 * are NULL until the head passes them. Positions only grow; slot pos & (cap - 1).
 */
struct sl_tring {
	struct sl_timer **e;
	u64 head, tail; /* open while head < tail */
	u64 delta;	/* expires - the taken expiry, of every timer in it */
	u64 last;	/* the expiry of its last arm */
	u32 cap;	/* a power of two, or 0 */
};

/*
 * One CPU's timers (or its interrupts), by expiry only: a heap, and beside it a run of timers
 * armed in nondecreasing expiry order, f[fhead..ftail) (NULL: one taken out). A timer armed no
 * earlier than the run's last arm is appended, and taken out with no other timer moved: a sift
 * writes the pidx of every timer it moves, a cache miss each when they are the sleep timers of
 * 100k tasks (1560 a CPU), each armed a period after the one before (docs/performance.md).
 */
struct sl_cpuheap {
	struct sl_cpuent *h;
	int n, cap;
	struct sl_cpuent *f;
	int fhead, ftail, fcap, flive; /* flive: the run's timers (ftail - fhead less the holes) */
	u64 flast;		       /* the expiry of the run's last arm */
};

struct sl_timerq {
	struct sl_heapent *heap;
	int n, cap;
	int wide; /* 0: binary, 1: 4-ary (timerq.c, SL_TIMERQ_WIDE_AT) */
	u64 seq;
	/*
	 * Per-CPU heaps, built at the first sl_timerq_next_for_cpu that finds more than
	 * SL_TIMERQ_SCAN_MAX (timerq.c) armed timers, and kept from then on (a run that never asks,
	 * or always has few timers, pays nothing): per[2 cpu] holds cpu's timers, per[2 cpu + 1]
	 * the interrupts routed to it, each timer by the cpu and irq it had when armed.
	 */
	struct sl_cpuheap *per;
	int nper;
	bool percpu;
	bool oom; /* a per-CPU heap could not grow */
	/* timers outside the heap, in batches of one expiry (timerq.c); nb of them armed */
	struct sl_tbatch batch[SL_TIMERQ_BATCHES];
	int nb;		  /* and in the ring */
	u64 last_expires; /* the expiry of the last arm: a second arm of it opens a batch */
	u64 prev_expires; /* the last other expiry armed before it: so does an arm of it */
	struct sl_tring ring;
	u64 now;	/* the expiry of the timer last taken (sl_timerq_take) */
	u64 last_delta; /* the last arm's expires - now: a second arm of it opens the ring */
};

void sl_timer_init(struct sl_timer *t, sl_timer_fn fn, int cpu);
static inline bool sl_timer_armed(const struct sl_timer *t)
{
	return t->idx >= 0;
}
/* the timer in heap slot i (0 <= i < q->n; the batches' timers are not in the heap) */
static inline struct sl_timer *sl_timerq_at(const struct sl_timerq *q, int i)
{
	return q->heap[i].t;
}
int sl_timerq_init(struct sl_timerq *q);
void sl_timerq_free(struct sl_timerq *q);
/* Arm (or re-arm) t to expire at `expires`. Returns -1 only when memory runs out. */
int sl_timerq_arm(struct sl_timerq *q, struct sl_timer *t, u64 expires);
void sl_timerq_cancel(struct sl_timerq *q, struct sl_timer *t);
struct sl_timer *sl_timerq_peek(const struct sl_timerq *q);
/* t, armed, was moved in memory (its owner realloc'd): the queue points at its new place */
void sl_timerq_moved(struct sl_timerq *q, struct sl_timer *t);
struct sl_timer *sl_timerq_pop(struct sl_timerq *q);
/* the pop of t, the timer sl_timerq_peek just gave: out of the queue, and its expiry is now */
void sl_timerq_take(struct sl_timerq *q, struct sl_timer *t);
/* the earliest expiry among cpu's armed timers and interrupts (any) and among its timers alone
 * (timer); UINT64_MAX when there is none. A scan while few timers are armed, then O(1). */
void sl_timerq_next_for_cpu(struct sl_timerq *q, int cpu, u64 *any, u64 *timer);

#endif
