/* The event engine (engine.h): arm, cancel, emit and the loop. */
#include "core/engine.h"
#include "core/interrupt.h"

#include <stdio.h>
#include <string.h>

int sl_engine_init(struct sl_engine *e, u64 seed)
{
	if (sl_timerq_init(&e->q))
		return -1;
	sl_rng_seed(&e->rng, seed);
	return 0;
}

void sl_engine_free(struct sl_engine *e)
{
	sl_timerq_free(&e->q);
}

void sl_engine_emit(struct sl_engine *e, struct sl_event *ev)
{
	ev->time = e->now;
	for (int i = 0; i < e->nsubs; i++)
		e->subs[i].fn(e->subs[i].ctx, ev);
}

void sl_engine_arm(struct sl_engine *e, struct sl_timer *t, u64 expires)
{
	if (e->on_rearm)
		e->on_rearm(e, t);
	if (sl_timerq_arm(&e->q, t, expires))
		e->oom = true;
}

void sl_engine_cancel(struct sl_engine *e, struct sl_timer *t)
{
	if (e->on_rearm)
		e->on_rearm(e, t);
	sl_timerq_cancel(&e->q, t);
}

int sl_engine_subscribe(struct sl_engine *e, sl_event_fn fn, void *ctx)
{
	if (e->nsubs == SL_ENGINE_MAX_SUBS)
		return -1;
	e->subs[e->nsubs].fn = fn;
	e->subs[e->nsubs].ctx = ctx;
	e->nsubs++;
	return 0;
}

void sl_engine_run(struct sl_engine *e, struct sl_sim *owner,
		   void (*dispatch)(struct sl_sim *owner, struct sl_timer *t),
		   bool (*done)(const struct sl_sim *owner))
{
	struct sl_timer *t;
	u64 next_progress = 1 << 20;

	while ((t = sl_timerq_peek(&e->q)) && t->expires <= e->end) {
		sl_timerq_take(&e->q, t); /* the pop of the timer just peeked, found once */
		e->now = t->expires;
		e->nr_events++;
		dispatch(owner, t);
		if (e->oom || e->error[0])
			break;
		/* a volatile load per event: SIGINT stops a run within one event's work */
		if (sl_interrupted) {
			e->interrupted = true;
			snprintf(e->error, sizeof(e->error), "interrupted");
			break;
		}
		if (done(owner))
			break;
		if (e->progress && e->nr_events >= next_progress) {
			next_progress += 1 << 20;
			fprintf(stderr, "\rschedlab: %.3f s of %.3f s simulated, %llu events",
				(double)e->now / 1e9, (double)e->end / 1e9,
				(unsigned long long)e->nr_events);
		}
	}
	if (e->progress && next_progress > (1 << 20))
		fprintf(stderr, "\n");
}

void sl_engine_next_for_cpu(struct sl_engine *e, int cpu, u64 *any, u64 *timer)
{
	/* per-CPU heaps (timerq.c): O(1), where a scan of every armed timer was O(timers) */
	sl_timerq_next_for_cpu(&e->q, cpu, any, timer);
	if (e->q.oom)
		e->oom = true;
}
