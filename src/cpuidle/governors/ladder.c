/*
 * The ladder governor (rating 10), meant for periodic-tick systems: it walks one state at a
 * time. After PROMOTION_COUNT (4) consecutive idle periods longer than the current state's
 * exit latency it climbs one step; after DEMOTION_COUNT (1) period shorter than that it drops
 * one step; a PM QoS limit or a disabled state forces it down at once (docs/model/cpuidle.md §3).
 *
 * Variant: the modern form (drivers/cpuidle/governors/ladder.c of the 4.16+ kernels), i.e. the
 * state index is the governor's own last_state_idx, a reflect() records the index the driver
 * actually entered when it is not poll (index > 0), and the first state the ladder uses is
 * START = 1 when state 0 is the x86 poll loop (CPUIDLE_FLAG_POLL), else 0. The index is kept
 * in gov_data rather than dev->last_state_idx, because the framework stores every entered
 * index there (poll included), and the ladder must not remember poll.
 *
 * Units and integer types, as the µs-era kernels (before the 5.8 nanosecond conversion):
 * - last_residency is a signed int in microseconds: (int)(last_residency_ns / 1000), the
 *   measured time clamped to INT_MAX as the core did, minus the state's exit latency in µs;
 *   it goes negative when an idle period was shorter than the exit latency.
 * - promotion_time / demotion_time are the state's exit latency in µs, compared signed with
 *   last_residency (a negative residency is "short"). This follows docs/model/cpuidle.md §3's
 *   "signed int" and today's kernel; the kernels from 2.6.x until late 2022 compared against
 *   unsigned thresholds, which turned a negative residency into a huge "long" one.
 * - Thresholds are set for the states from START up only, as the kernel's enable did: the
 *   poll state below START keeps zeroed thresholds, so from poll one period longer than 0 µs
 *   climbs straight back to START (promotion count threshold 0).
 * - The TIME_VALID rule is applied here: a state without the flag reports no usable time, so
 *   the period is taken as long (promotion_time + 1).
 * - The QoS limit is compared in nanoseconds (exit_latency_ns <= latency_req_ns), as the
 *   modern governor does; latency_req_ns == 0 means poll now.
 *
 * Beyond the kernel: its forced demotion and plain demotion may land on a disabled state or
 * (at START) on one deeper than the QoS limit. A final guard walks such a choice down to the
 * deepest usable state below it, poll as the last resort, so select() always honours
 * latency_req_ns and dev->disabled[].
 */
#include "cpuidle/cpuidle.h"

#include <limits.h>
#include <stdlib.h>

#define PROMOTION_COUNT 4
#define DEMOTION_COUNT	1

struct ladder_state {
	/* thresholds */
	unsigned promotion_count_th;
	unsigned demotion_count_th;
	int promotion_time_us;
	int demotion_time_us;
	/* statistics */
	int promotion_count;
	int demotion_count;
};

struct ladder_data {
	int last_state_idx;
	struct ladder_state states[SL_CPUIDLE_MAX_STATES];
};

static int ladder_start(const struct sl_cpuidle_driver *drv)
{
	return (drv->state_count > 0 && (drv->states[0].flags & CPUIDLE_FLAG_POLL)) ? 1 : 0;
}

static int exit_us(const struct sl_cpuidle_driver *drv, int i)
{
	u64 us = drv->states[i].exit_latency_ns / NSEC_PER_USEC;

	return us > INT_MAX ? INT_MAX : (int)us;
}

static bool usable(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int i)
{
	return !dev->disabled[i] && drv->states[i].exit_latency_ns <= dev->latency_req_ns;
}

/* Move from old_idx to new_idx: the old state's counters start again. */
static void ladder_do_selection(struct ladder_data *ld, int old_idx, int new_idx)
{
	ld->states[old_idx].promotion_count = 0;
	ld->states[old_idx].demotion_count = 0;
	ld->last_state_idx = new_idx;
}

static int ladder_enable(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct ladder_data *ld = calloc(1, sizeof(*ld));
	int start = ladder_start(drv);

	if (!ld)
		return -1;
	ld->last_state_idx = start;
	for (int i = start; i < drv->state_count && i < SL_CPUIDLE_MAX_STATES; i++) {
		struct ladder_state *ls = &ld->states[i];

		ls->promotion_count_th = PROMOTION_COUNT;
		ls->demotion_count_th = DEMOTION_COUNT;
		if (i < drv->state_count - 1)
			ls->promotion_time_us = exit_us(drv, i);
		if (i > start)
			ls->demotion_time_us = exit_us(drv, i);
	}
	dev->gov_data = ld;
	return 0;
}

/* The kernel's decision; returns the index, with last_state_idx and the counters updated. */
static int ladder_decide(struct ladder_data *ld, const struct sl_cpuidle_dev *dev,
			 const struct sl_cpuidle_driver *drv)
{
	int last_idx = ld->last_state_idx;
	int start = ladder_start(drv);
	u64 latency_req = dev->latency_req_ns;
	struct ladder_state *ls;
	int last_residency;

	if (latency_req == 0) {
		ladder_do_selection(ld, last_idx, 0);
		return 0;
	}
	ls = &ld->states[last_idx];
	if (drv->states[last_idx].flags & CPUIDLE_FLAG_TIME_VALID) {
		u64 us = dev->last_residency_ns / NSEC_PER_USEC;
		int res_us = us > INT_MAX ? INT_MAX : (int)us;

		last_residency = res_us - exit_us(drv, last_idx);
	} else {
		last_residency = ls->promotion_time_us + 1;
	}

	/* promotion: a period longer than this state's exit latency */
	if (last_idx < drv->state_count - 1 && !dev->disabled[last_idx + 1] &&
	    last_residency > ls->promotion_time_us &&
	    drv->states[last_idx + 1].exit_latency_ns <= latency_req) {
		ls->promotion_count++;
		ls->demotion_count = 0;
		if ((unsigned)ls->promotion_count >= ls->promotion_count_th) {
			ladder_do_selection(ld, last_idx, last_idx + 1);
			return last_idx + 1;
		}
	}

	/* forced demotion: this state is disabled or too slow to leave for the QoS limit */
	if (last_idx > start &&
	    (dev->disabled[last_idx] || drv->states[last_idx].exit_latency_ns > latency_req)) {
		int i;

		for (i = last_idx - 1; i > start; i--)
			if (drv->states[i].exit_latency_ns <= latency_req)
				break;
		ladder_do_selection(ld, last_idx, i);
		return i;
	}

	/* demotion: a period shorter than this state's exit latency */
	if (last_idx > start && last_residency < ls->demotion_time_us) {
		ls->demotion_count++;
		ls->promotion_count = 0;
		if ((unsigned)ls->demotion_count >= ls->demotion_count_th) {
			ladder_do_selection(ld, last_idx, last_idx - 1);
			return last_idx - 1;
		}
	}
	return last_idx;
}

static int ladder_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct ladder_data *ld = dev->gov_data;
	int idx, safe;

	dev->predicted_ns = 0; /* the ladder predicts nothing */
	if (!ld || drv->state_count <= 0)
		return 0;
	if (ld->last_state_idx < 0 || ld->last_state_idx >= drv->state_count)
		ld->last_state_idx = ladder_start(drv) < drv->state_count ? ladder_start(drv) : 0;
	idx = ladder_decide(ld, dev, drv);
	/* the guard: never a disabled state nor one beyond the QoS limit */
	for (safe = idx; safe > 0 && !usable(dev, drv, safe); safe--)
		;
	if (safe != idx)
		ladder_do_selection(ld, idx, safe);
	return safe;
}

static void ladder_reflect(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			   int index)
{
	struct ladder_data *ld = dev->gov_data;

	if (ld && index > 0 && index < drv->state_count)
		ld->last_state_idx = index;
}

const struct sl_cpuidle_governor sl_gov_ladder = {
	.name = "ladder",
	.help = "one step at a time: up after 4 long idles, down after 1 short one (periodic tick)",
	.rating = 10,
	.enable = ladder_enable,
	.disable = sl_gov_free_data,
	.select = ladder_select,
	.reflect = ladder_reflect,
};
