/*
 * TEO, the "timer events oriented" governor (Rafael Wysocki, 5.1; rating 19), in the form of
 * its latest variant (about 6.12 to 6.19, docs/model/cpuidle.md §5.3). Written from those facts, in
 * nanoseconds throughout.
 *
 * Idea. The time to the next timer (the sleep length) is an upper bound of the idle duration;
 * the only question is how often something else (an interrupt, a remote wake-up) ends the idle
 * earlier. The governor keeps, per idle state i, a bin for durations [tr(i), tr(i+1)) with two
 * decaying counters: "hits" (woken in the bin of the sleep length: the timer was the wake-up)
 * and "intercepts" (woken in an earlier bin than the timer's). Every update decays every
 * counter by 1/8 (DECAY_SHIFT 3; a value whose eighth is 0 collapses to 0) and adds one PULSE
 * (1024) to one of them, so the sum of all counters ("total") tends to 8 * PULSE.
 *
 * select():
 *   1. Start from the deepest enabled state, with no regard to the sleep length yet. While
 *      scanning, sum the intercepts and hits of the bins below each candidate, and note the
 *      deepest enabled state whose exit latency meets the PM QoS limit (constraint_idx).
 *   2. If the intercepts below the candidate outweigh what is at or above it
 *      (2 * intercepts_below > total - hits_below), walk down to the deepest enabled state i
 *      where the intercepts of bins i .. candidate-1 are more than half of intercepts_below.
 *      With the tick already stopped, the walk does not go below the shallowest state whose
 *      target residency reaches a tick (the idle may well last beyond the tick then).
 *   3. Clamp to constraint_idx.
 *   4. If the candidate is state 0 or shallower than RESIDENCY_THRESHOLD (15 us), and either
 *      short idles are the majority (2 * short_idles >= total) or the QoS limit is below
 *      LATENCY_THRESHOLD (7.5 us), return it and keep the tick without asking for the sleep
 *      length: the sleep length stays "infinite", so the wake-up will count as an intercept.
 *   5. Otherwise take the sleep length; if the candidate's target residency exceeds it, move
 *      to the deepest shallower enabled state that fits.
 *   6. If the candidate is shallower than a tick and intercepts within a tick dominate
 *      (3 * tick_intercepts > 2 * total: the 2025 change to 2/3; it was 5/8 before), plan for
 *      half a tick so that the tick is kept.
 *   7. The tick decision: stop it only for a non-polling state with a planned duration of at
 *      least a tick, or when it is stopped already. If it is kept and the candidate's target
 *      residency exceeds the time to the next tick, move to a shallower state that fits.
 *
 * update (here in reflect; the kernel runs it at the start of the next select, which sees
 * exactly the same values):
 *   - measured = residency - exit_latency/2, or residency/2 when the residency is shorter than
 *     the exit latency; a measured value below 15 us (or the halved case) is a short idle.
 *     A poll time limit expiry is a safety net, not a genuine wake-up: measured = infinity.
 *   - Decay every counter; total = the decayed sum + PULSE.
 *   - A tick wake-up adds PULSE to total_tick; when tick wake-ups dominate
 *     (3 * total_tick > 2 * total) it counts as a hit on the deepest state, to favour stopping
 *     the tick, and nothing else is recorded.
 *   - Otherwise the bin of the sleep length (idx_timer) and of the measured value
 *     (idx_duration, among bins not beyond idx_timer) decide: a hit on idx_timer when they are
 *     equal, else an intercept on idx_duration, which also counts as a tick intercept when
 *     measured <= TICK_NSEC (the 6.19 fix of an inverted condition).
 *
 * Simulator choices (not kernel facts):
 *   - The sleep length is dev->next_timer_ns (the sim's 2.6.3x order stops the tick before
 *     select, so it excludes the tick exactly when the tick is stopped; while the tick runs it
 *     includes it, unlike tick_nohz_get_sleep_length). delta_tick is dev->next_tick_ns.
 *   - TIME_VALID: for a state without the flag the residency is unknown, so the governor
 *     assumes it slept its whole sleep length (the 2.6.32 menu's rule); no short idle is
 *     counted. Modern kernels have no such states, so this only matters for ACPI C1 (HLT).
 *   - The PM QoS limit wins over sysfs disable: when no enabled state meets the limit, state 0
 *     is used, as the kernel's constraint_idx starts at 0 (and latency_req 0 means "poll").
 *   - When state 0 is a polling state, poll_limit_ns is set as the modern core's
 *     cpuidle_poll_time would: the target residency of the first enabled deeper state, at most
 *     a tick.
 *   - predicted_ns: the duration used for the tick decision (the sleep length, half a tick, or
 *     the lone state's target residency), capped by the next tick when the tick is kept; the
 *     candidate's target residency on the early (no sleep length) return; 0 when there is no
 *     choice at all.
 *   - dev->tick_ns of 0 (not set by the machine) is taken as HZ=250, 4 ms.
 */
#include "cpuidle/governors/teo.h"

#include <stdlib.h>

static unsigned teo_decay(unsigned m)
{
	unsigned d = m >> SL_TEO_DECAY_SHIFT;

	return d ? m - d : 0;
}

static u64 teo_tick_ns(const struct sl_cpuidle_dev *dev)
{
	return dev->tick_ns ? dev->tick_ns : 4 * NSEC_PER_MSEC;
}

static u64 tr_ns(const struct sl_cpuidle_driver *drv, int i)
{
	return drv->states[i].target_residency_ns;
}

static int teo_enable(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct sl_teo_cpu *t = calloc(1, sizeof(*t));

	(void)drv;
	if (!t)
		return -1;
	t->sleep_length_ns = SL_TEO_INF;
	dev->gov_data = t;
	dev->last_state_idx = -1;
	return 0;
}

/* The deepest enabled state shallower than idx whose target residency fits in span; idx when
 * none is enabled. Walking down, each enabled state replaces the answer until one fits. */
static int teo_find_shallower(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			      int idx, u64 span)
{
	int ret = idx;

	for (int i = idx - 1; i >= 0; i--) {
		if (dev->disabled[i])
			continue;
		ret = i;
		if (tr_ns(drv, i) <= span)
			break;
	}
	return ret;
}

/* cpuidle_poll_time: how long the poll state may spin before it gives the governor a chance */
static u64 teo_poll_limit(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	u64 limit = teo_tick_ns(dev);

	for (int i = 1; i < drv->state_count; i++) {
		if (dev->disabled[i])
			continue;
		if (tr_ns(drv, i) < limit)
			limit = tr_ns(drv, i);
		break;
	}
	return limit;
}

static int teo_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct sl_teo_cpu *t = dev->gov_data;
	u64 latency_req = dev->latency_req_ns;
	u64 tick = teo_tick_ns(dev);
	unsigned intercept_sum = 0, hit_sum = 0, idx_intercept_sum = 0, idx_hit_sum = 0;
	int constraint_idx = 0, idx0 = 0, idx = -1;
	u64 duration;

	dev->stop_tick = true;
	dev->poll_limit_ns = 0;
	dev->predicted_ns = 0;
	t->sleep_length_ns = SL_TEO_INF;

	if (drv->state_count < 2) {
		idx = 0;
		goto keep_tick;
	}
	if (!dev->disabled[0])
		idx = 0;

	/* 1. the deepest enabled state, the sums of the bins below it, the QoS bound */
	for (int i = 1; i < drv->state_count; i++) {
		intercept_sum += t->bins[i - 1].intercepts;
		hit_sum += t->bins[i - 1].hits;
		if (dev->disabled[i])
			continue;
		if (idx < 0)
			idx0 = i;
		idx = i;
		if (drv->states[i].exit_latency_ns <= latency_req)
			constraint_idx = i;
		idx_intercept_sum = intercept_sum;
		idx_hit_sum = hit_sum;
	}
	if (idx < 0) {
		idx = 0; /* nothing enabled: state 0 it must be */
		goto keep_tick;
	}
	if (idx == idx0) {
		/* a single enabled state: use it, and plan for its target residency */
		duration = tr_ns(drv, idx);
		goto tick_decision;
	}

	/* 2. intercepts below the candidate dominate: look for a shallower state */
	if (2 * idx_intercept_sum > t->total - idx_hit_sum) {
		int min_idx = idx0;
		unsigned sum = 0;

		if (dev->tick_stopped)
			while (min_idx < idx && tr_ns(drv, min_idx) < tick)
				min_idx++;
		for (int i = idx - 1; i >= min_idx; i--) {
			sum += t->bins[i].intercepts;
			if (dev->disabled[i])
				continue;
			idx = i;
			if (2 * sum > idx_intercept_sum)
				break;
		}
	}

	/* 3. the latency constraint */
	if (idx > constraint_idx)
		idx = constraint_idx;

	/* 4. shallow anyway: skip the sleep length when short idles or the QoS limit rule */
	if ((idx == 0 || tr_ns(drv, idx) < SL_TEO_RESIDENCY_THRESHOLD_NS) &&
	    (2 * t->short_idles >= t->total || latency_req < SL_TEO_LATENCY_THRESHOLD_NS)) {
		dev->predicted_ns = tr_ns(drv, idx);
		goto keep_tick;
	}

	/* 5. the sleep length bounds the candidate */
	duration = dev->next_timer_ns < SL_TEO_INF ? dev->next_timer_ns : SL_TEO_INF;
	t->sleep_length_ns = duration;
	if (tr_ns(drv, idx) > duration)
		idx = teo_find_shallower(dev, drv, idx, duration);

	/* 6. intercepts within a tick dominate: plan to keep the tick */
	if (tr_ns(drv, idx) < tick && 3ull * t->tick_intercepts > 2ull * t->total)
		duration = tick / 2;

tick_decision:
	/* 7. stop the tick only for a non-polling state planned for a tick or more */
	dev->predicted_ns = duration;
	if ((!(drv->states[idx].flags & CPUIDLE_FLAG_POLL) && duration >= tick) ||
	    dev->tick_stopped)
		goto out;
	if (dev->next_tick_ns < duration)
		dev->predicted_ns = dev->next_tick_ns;
	if (idx > idx0 && tr_ns(drv, idx) > dev->next_tick_ns)
		idx = teo_find_shallower(dev, drv, idx, dev->next_tick_ns);
keep_tick:
	dev->stop_tick = false;
out:
	if (drv->states[idx].flags & CPUIDLE_FLAG_POLL)
		dev->poll_limit_ns = teo_poll_limit(dev, drv);
	return idx;
}

static void teo_update(struct sl_teo_cpu *t, const struct sl_cpuidle_dev *dev,
		       const struct sl_cpuidle_driver *drv, int index)
{
	const struct sl_idle_state *st = &drv->states[index];
	int idx_timer = 0, idx_duration = 0;
	unsigned sum = 0;
	u64 measured;

	t->short_idles = teo_decay(t->short_idles);
	if (t->artificial_wakeup) {
		measured = SL_TEO_INF;
	} else if (!(st->flags & CPUIDLE_FLAG_TIME_VALID)) {
		measured = t->sleep_length_ns;
	} else if (dev->last_residency_ns >= st->exit_latency_ns) {
		/* the wake-up is rarely worst case: take half the exit latency as its cost */
		measured = dev->last_residency_ns - st->exit_latency_ns / 2;
		if (measured < SL_TEO_RESIDENCY_THRESHOLD_NS)
			t->short_idles += SL_TEO_PULSE;
	} else {
		measured = dev->last_residency_ns / 2;
		t->short_idles += SL_TEO_PULSE;
	}
	t->measured_ns = measured;

	for (int i = 0; i < drv->state_count; i++) {
		struct sl_teo_bin *b = &t->bins[i];

		b->hits = teo_decay(b->hits);
		b->intercepts = teo_decay(b->intercepts);
		sum += b->hits + b->intercepts;
		if (tr_ns(drv, i) <= t->sleep_length_ns) {
			idx_timer = i;
			if (tr_ns(drv, i) <= measured)
				idx_duration = i;
		}
	}
	t->total = sum + SL_TEO_PULSE;
	t->tick_intercepts = teo_decay(t->tick_intercepts);
	t->total_tick = teo_decay(t->total_tick);

	if (t->tick_wakeup) {
		t->total_tick += SL_TEO_PULSE;
		if (3ull * t->total_tick > 2ull * t->total) {
			/* tick wake-ups dominate: favour the deepest state, and stopping the tick
			 */
			t->bins[drv->state_count - 1].hits += SL_TEO_PULSE;
			return;
		}
	}
	if (idx_timer == idx_duration) {
		t->bins[idx_timer].hits += SL_TEO_PULSE;
	} else {
		t->bins[idx_duration].intercepts += SL_TEO_PULSE;
		if (measured <= teo_tick_ns(dev))
			t->tick_intercepts += SL_TEO_PULSE;
	}
}

static void teo_reflect(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int index)
{
	struct sl_teo_cpu *t = dev->gov_data;

	t->tick_wakeup = dev->tick_wakeup;
	t->artificial_wakeup = dev->poll_time_limit;
	dev->last_state_idx = index;
	if (index < 0 || index >= drv->state_count)
		return; /* rejected: nothing was measured */
	teo_update(t, dev, drv, index);
}

const struct sl_cpuidle_governor sl_gov_teo = {
	.name = "teo",
	.help = "timer events oriented (latest, 6.12+): hits and intercepts per state bin",
	.rating = 19,
	.enable = teo_enable,
	.disable = sl_gov_free_data,
	.select = teo_select,
	.reflect = teo_reflect,
};
