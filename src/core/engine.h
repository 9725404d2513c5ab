/*
 * The event engine: a clock, the timer queue, the event stream and the loop. It is the bottom
 * layer of schedlab and knows nothing of CPUs, tasks or schedulers: its owner (struct sl_sim,
 * sched/sched.h) embeds it and hands the loop a dispatch callback, so the engine can run any
 * model whose events are timers.
 *
 * Why the members are spelled once in a macro: struct sl_sim embeds them as an anonymous
 * struct beside a named `struct sl_engine eng` (the kernel's struct_group pattern), so the
 * model keeps writing sim->now while the engine's functions take &sim->eng.
 */
#ifndef SCHEDLAB_ENGINE_H
#define SCHEDLAB_ENGINE_H

#include <schedlab/types.h>
#include <schedlab/event.h>

#include "core/rng.h"
#include "core/timerq.h"

struct sl_subscriber {
	sl_event_fn fn;
	void *ctx;
};

#define SL_ENGINE_MAX_SUBS 8

#define SL_ENGINE_MEMBERS                                                                          \
	u64 now;                                                                                   \
	u64 end;                                                                                   \
	struct sl_timerq q;                                                                        \
	struct sl_rng rng; /* the workloads' draws */                                              \
	struct sl_subscriber subs[SL_ENGINE_MAX_SUBS];                                             \
	int nsubs;                                                                                 \
	u64 nr_events;                                                                             \
	bool oom;                                                                                  \
	bool interrupted; /* stopped by SIGINT/SIGTERM (core/interrupt.h) */                       \
	bool eio;	  /* error names an output that could not be written (exit status 1) */    \
	bool progress;	  /* progress lines on stderr */                                           \
	char error[2048]; /* a run-time failure (a program that makes no progress, a deadlock) */  \
	/* called when an armed timer is moved or cancelled (the owner's bookkeeping of timers     \
	 * it delayed); NULL: nothing */                                                           \
	void (*on_rearm)(struct sl_engine * e, struct sl_timer * t);

struct sl_engine {
	SL_ENGINE_MEMBERS
};

int sl_engine_init(struct sl_engine *e, u64 seed);
void sl_engine_free(struct sl_engine *e);
void sl_engine_emit(struct sl_engine *e, struct sl_event *ev);
void sl_engine_arm(struct sl_engine *e, struct sl_timer *t, u64 expires);
void sl_engine_cancel(struct sl_engine *e, struct sl_timer *t);
int sl_engine_subscribe(struct sl_engine *e, sl_event_fn fn, void *ctx);
/*
 * Run timers in time order until none is left before e->end, dispatch() fails the run (oom or
 * error set), SIGINT arrives or done(owner) says the model has finished. Each timer is handed
 * to dispatch(owner, t), which normally calls t->fn(owner, t).
 */
void sl_engine_run(struct sl_engine *e, struct sl_sim *owner,
		   void (*dispatch)(struct sl_sim *owner, struct sl_timer *t),
		   bool (*done)(const struct sl_sim *owner));
/* The earliest expiry of an armed timer of cpu (all, and non-interrupt ones only): O(1). */
void sl_engine_next_for_cpu(struct sl_engine *e, int cpu, u64 *any, u64 *timer);

#endif
