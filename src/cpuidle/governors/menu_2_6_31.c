/*
 * The old menu governor (Adam Belay), as in Linux 2.6.27 ... 2.6.31 (docs/model/cpuidle.md §1.1,
 * §1.2), rating 20. It predicts the time to the next "break event" (a wake-up that is not the
 * CPU's own timer) as the larger of the last two break-to-break idle totals, low-pass filtered
 * 50/50 with the previous prediction, and picks the deepest state whose target residency fits
 * both that prediction and the time to the next timer, within the PM QoS limit. Timer wake-ups
 * do not reset the accumulated idle time, so periodic timers make the prediction grow: this
 * is the governor that sent Nehalem servers into C6 under disk I/O in 2009 (docs/model/cpuidle.md
 * §8).
 *
 * Kept here because it is the 2.6.31 baseline the 2.6.32 rework is measured against, and
 * because its integer behaviour is part of the story. Reproduced exactly:
 * - all per-CPU fields are unsigned int (u32), zeroed by enable();
 * - expected_us = (u32)next_timer_ns / 1000: the nanosecond sleep length is truncated to 32
 *   bits FIRST, so it wraps every 4.294967296 s (UINT64_MAX, "no timer", gives 4294967 µs);
 * - the blend (predicted*50 + 50*current)/100 is u32 and wraps once a term passes 2^32;
 * - measured = elapsed + last_idle saturates at 0xFFFFFFFF instead of wrapping;
 * - the break test (last_idle + BREAK_FUZZ < expected - exit_latency) is u32, so an expected
 *   time below the exit latency underflows to a huge value and forces the break branch;
 * - the state compared in reflect is the one the governor chose (its last_state_idx), and a
 *   state without CPUIDLE_FLAG_TIME_VALID counts as one tick, USEC_PER_SEC/HZ = tick_ns/1000;
 * - the measured residency is the int µs the driver returned: last_residency_ns / 1000,
 *   clamped to INT_MAX;
 * - the QoS limit is the int µs of pm_qos_requirement() (latency_req_ns / 1000, clamped to
 *   INT_MAX), compared unsigned with the u32 exit latencies; 0 means poll. State times are
 *   the driver's ns values / 1000 (exact for the µs tables of the era).
 * The shallowest result is START (1 when state 0 is the x86 poll loop, else 0); poll is
 * chosen only for a zero QoS limit.
 *
 * Beyond 2.6.31 (which had no sysfs disable): a disabled state is skipped in the loop (as
 * 3.x menu did, `continue`), and a final guard walks a choice that is disabled or slower to
 * leave than latency_req_ns (only START can be) down to a usable one, poll as the last resort.
 * dev->predicted_ns reports the prediction used, predicted_us * 1000 (0 on the QoS-0 path,
 * which returns before predicting). The governor does not touch dev->stop_tick: 2.6.31 stopped
 * the tick before select.
 */
#include "cpuidle/cpuidle.h"

#include <limits.h>
#include <stdlib.h>

#define BREAK_FUZZ	 4  /* µs */
#define PRED_HISTORY_PCT 50 /* percent */

struct menu_2_6_31_data {
	u32 last_state_idx;
	u32 expected_us;
	u32 predicted_us;
	u32 current_predicted_us;
	u32 last_measured_us;
	u32 elapsed_us;
};

static u32 ns_to_us32(u64 ns)
{
	u64 us = ns / NSEC_PER_USEC;

	return us > UINT32_MAX ? UINT32_MAX : (u32)us;
}

static int menu_start(const struct sl_cpuidle_driver *drv)
{
	return (drv->states[0].flags & CPUIDLE_FLAG_POLL) ? 1 : 0;
}

static int menu_enable(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)drv;
	dev->gov_data = calloc(1, sizeof(struct menu_2_6_31_data));
	return dev->gov_data ? 0 : -1;
}

static int menu_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct menu_2_6_31_data *data = dev->gov_data;
	u64 req_us64 = dev->latency_req_ns / NSEC_PER_USEC;
	int latency_req = req_us64 > INT_MAX ? INT_MAX : (int)req_us64;
	int start, best, i;

	dev->predicted_ns = 0;
	if (!data || drv->state_count <= 0)
		return 0;
	if (latency_req == 0) {
		data->last_state_idx = 0;
		return 0;
	}
	start = menu_start(drv);
	if (drv->state_count <= start) {
		data->last_state_idx = 0;
		return 0;
	}

	/* the cast binds before the division: the ns sleep length wraps at 2^32 */
	data->expected_us = (u32)dev->next_timer_ns / 1000;
	data->predicted_us = (data->predicted_us * PRED_HISTORY_PCT +
			      (100 - PRED_HISTORY_PCT) * data->current_predicted_us) /
			     100;
	dev->predicted_ns = (u64)data->predicted_us * NSEC_PER_USEC;

	best = start;
	for (i = start + 1; i < drv->state_count; i++) {
		const struct sl_idle_state *s = &drv->states[i];
		u32 target_us = ns_to_us32(s->target_residency_ns);
		u32 exit_latency = ns_to_us32(s->exit_latency_ns);

		if (dev->disabled[i])
			continue;
		if (target_us > data->expected_us)
			break;
		if (target_us > data->predicted_us)
			break;
		if (exit_latency > (unsigned)latency_req)
			break;
		best = i;
	}
	/* the guard (beyond 2.6.31): START may be disabled or beyond the QoS limit */
	while (best > 0 &&
	       (dev->disabled[best] || drv->states[best].exit_latency_ns > dev->latency_req_ns))
		best--;
	data->last_state_idx = (u32)best;
	return best;
}

static void menu_reflect(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int index)
{
	struct menu_2_6_31_data *data = dev->gov_data;
	const struct sl_idle_state *target;
	u64 res_us64 = dev->last_residency_ns / NSEC_PER_USEC;
	u32 last_idle_us, measured_us;

	(void)index; /* the governor's own choice is the reference, as in 2.6.31 */
	if (!data || data->last_state_idx >= (u32)drv->state_count)
		return;
	target = &drv->states[data->last_state_idx];
	last_idle_us = res_us64 > INT_MAX ? INT_MAX : (u32)res_us64;
	if (!(target->flags & CPUIDLE_FLAG_TIME_VALID))
		last_idle_us = (u32)(dev->tick_ns / NSEC_PER_USEC); /* USEC_PER_SEC / HZ */

	/* idle time accumulated since the last break event, saturating */
	if (data->elapsed_us <= data->elapsed_us + last_idle_us)
		measured_us = data->elapsed_us + last_idle_us;
	else
		measured_us = UINT32_MAX;

	data->current_predicted_us =
		measured_us > data->last_measured_us ? measured_us : data->last_measured_us;

	/* u32 on both sides: expected - exit_latency underflows when expected is smaller */
	if (last_idle_us + BREAK_FUZZ < data->expected_us - ns_to_us32(target->exit_latency_ns)) {
		/* woke clearly before the timer: a break event */
		data->last_measured_us = measured_us;
		data->elapsed_us = 0;
	} else {
		/* the timer (or something at its time) woke it: keep accumulating */
		data->elapsed_us = measured_us;
	}
}

const struct sl_cpuidle_governor sl_gov_menu_2_6_31 = {
	.name = "menu-2.6.31",
	.help = "the old menu (2.6.27-2.6.31): break-event prediction, 50/50 blend, u32 quirks",
	.rating = 20,
	.enable = menu_enable,
	.disable = sl_gov_free_data,
	.select = menu_select,
	.reflect = menu_reflect,
};
