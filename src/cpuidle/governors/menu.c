/*
 * menu: the modern menu governor (Linux 5.x / 6.x, docs/model/cpuidle.md §4), the descendant of the
 * 2.6.32 rework (menu_tng.c) after the 2.6.35 repeating-pattern detector (commit 1f85f87d,
 * DECAY 4 -> 8), the 4.x removal of the load term from the performance multiplier, the 4.17
 * tick-stop decision (select decides whether the idle loop stops the scheduler tick) and the
 * 5.7 conversion to nanoseconds. Why it is here: it is what a current kernel runs by default on
 * a tickless x86 machine, the baseline the 2009 governors are compared against.
 *
 * Reproduced (the ns form of about 5.7 ... 6.x, before the 2025 get_typical_interval rework and
 * before "cpuidle: menu: Remove iowait influence"; docs/model/cpuidle.md §4 pseudo-code):
 *  - 12 correction factors (unsigned int, unity RESOLUTION*DECAY = 8192, set eagerly by
 *    enable), 6 magnitude buckets of the sleep length (10 us ... 100 ms, compared in ns) times
 *    {no iowait, iowait}; update: cf - cf/8 + 1024*measured_ns/next_timer_ns (u64 division),
 *    measured clamped to the sleep length so a factor never exceeds unity, >= 50 ms counts as
 *    perfect;
 *  - predicted_us = round(next_timer_ns * cf / (8192 * 1000)) as unsigned int, then the
 *    typical interval of the last 8 measured idles (unsigned int microseconds, as the kernel
 *    stores ktime_to_us(measured_ns)): mean and variance in u64, accepted when variance <= 400
 *    us^2 or mean^2 > 36 variance with >= 6 samples, else the largest samples are dropped down
 *    to 6; predicted_ns = min(predicted_us, typical) * 1000;
 *  - the performance multiplier 1 + 10 * nr_iowait, as latency_req = min(latency_req,
 *    predicted_ns / multiplier), only while the tick runs;
 *  - the state scan, the "use a physical state, not polling, if the timer is far enough" rule,
 *    and the tick decision recorded in dev->stop_tick: keep the tick (false) when the state is
 *    a polling one or the prediction is shorter than a tick, then step back to a state whose
 *    target residency fits before the next tick;
 *  - update at the next select (reflect sets needs_update): a tick wake-up while the sleep
 *    length exceeded a tick counts as 45 ms (9/10 of MAX_INTERESTING); a poll that hit its time
 *    limit counts as the whole sleep length; otherwise the residency less the exit latency (or
 *    half of it when it is below twice the exit latency).
 *  - dev->poll_limit_ns when state 0 polls: cpuidle_poll_time() of the 5.x core, the target
 *    residency of the first enabled state after 0, or TICK_NSEC (6.x later bounded it to
 *    [10 us, TICK_NSEC/16]; not reproduced).
 * dev->predicted_ns reports the prediction the state scan starts from (after the tick-stopped
 * substitution), not the residency the scan may substitute when it keeps the tick.
 *
 * Verified: the select() body against a 6.x copy of drivers/cpuidle/governors/menu.c found with
 * the code search (ns units, delta_tick, the same order of the tests as docs/model/cpuidle.md §4);
 * cpuidle_poll_time() against drivers/cpuidle/cpuidle.c copies (5.x form, and the later
 * CPUIDLE_POLL_MIN/MAX patch, which is not used here).
 *
 * Mapping to the simulator's device: the sleep length is dev->next_timer_ns; delta_next (to the
 * next event, the tick included) is min(next_timer_ns, next_tick_ns) while the tick runs and the
 * sleep length when dev->tick_stopped (tick_nohz_tick_stopped()). A sleep length of UINT64_MAX
 * (no timer) is clamped to UINT_MAX us, the largest predicted_us can hold. Modern kernels have
 * no TIME_VALID flag (every state is measured), so the residency is always used.
 *
 * Deviations forced by the simulator's contract: in the tick-stopped branch of the scan the
 * 5.x kernel may take a deeper state without testing its exit latency against the limit; here
 * it must pass it. The fast path to state 0 is not taken when state 0 is disabled, even for
 * latency_req == 0 (the kernel returned 0 regardless).
 */
#include "cpuidle/cpuidle.h"

#include <limits.h>
#include <stdlib.h>

#define BUCKETS		12
#define INTERVAL_SHIFT	3
#define INTERVALS	(1 << INTERVAL_SHIFT)
#define RESOLUTION	1024
#define DECAY		8
#define MAX_INTERESTING (50000 * NSEC_PER_USEC)
#define SLEEP_MAX_NS	((u64)UINT_MAX * NSEC_PER_USEC)

struct menu {
	int needs_update;
	int tick_wakeup;
	u64 next_timer_ns;
	unsigned int bucket;
	unsigned int correction_factor[BUCKETS];
	unsigned int intervals[INTERVALS];
	int interval_ptr;
	int last_state_idx;
};

static bool polling(const struct sl_cpuidle_driver *drv, int i)
{
	return drv->states[i].flags & CPUIDLE_FLAG_POLL;
}

static unsigned int which_bucket(u64 duration_ns, int nr_iowaiters)
{
	unsigned int bucket = nr_iowaiters > 0 ? BUCKETS / 2 : 0;

	if (duration_ns < 10ULL * NSEC_PER_USEC)
		return bucket;
	if (duration_ns < 100ULL * NSEC_PER_USEC)
		return bucket + 1;
	if (duration_ns < 1000ULL * NSEC_PER_USEC)
		return bucket + 2;
	if (duration_ns < 10000ULL * NSEC_PER_USEC)
		return bucket + 3;
	if (duration_ns < 100000ULL * NSEC_PER_USEC)
		return bucket + 4;
	return bucket + 5;
}

static u64 performance_multiplier(int nr_iowaiters)
{
	return 1 + 10 * (u64)(nr_iowaiters > 0 ? nr_iowaiters : 0);
}

/*
 * The repeating-pattern detector: the mean of the last 8 idles when they are regular enough,
 * trimming the largest as outliers down to 6 samples; UINT_MAX when there is no pattern or when
 * it could not beat predicted_us anyway.
 */
static unsigned int get_typical_interval(const struct menu *data, unsigned int predicted_us)
{
	unsigned int thresh = INT_MAX, min, max, avg;
	u64 sum, variance;
	int i, divisor;

	for (;;) {
		min = UINT_MAX;
		max = 0;
		sum = 0;
		divisor = 0;
		for (i = 0; i < INTERVALS; i++) {
			unsigned int value = data->intervals[i];

			if (value <= thresh) {
				sum += value;
				divisor++;
				if (value > max)
					max = value;
				if (value < min)
					min = value;
			}
		}
		if (min >= predicted_us)
			return UINT_MAX;
		if (divisor == INTERVALS)
			avg = (unsigned int)(sum >> INTERVAL_SHIFT);
		else
			avg = (unsigned int)(sum / (u64)divisor);

		variance = 0;
		for (i = 0; i < INTERVALS; i++) {
			unsigned int value = data->intervals[i];

			if (value <= thresh) {
				s64 diff = (s64)value - avg;

				variance += (u64)(diff * diff);
			}
		}
		if (divisor == INTERVALS)
			variance >>= INTERVAL_SHIFT;
		else
			variance /= (u64)divisor;

		/* stddev <= 20 us, or stddev < avg / 6 with at least 6 samples */
		if (variance <= UINT64_MAX / 36) {
			if (((u64)avg * avg > variance * 36 && divisor * 4 >= INTERVALS * 3) ||
			    variance <= 400)
				return avg;
		}
		/* down to the bottom 3/4 of the samples: give up */
		if (divisor * 4 <= INTERVALS * 3)
			return UINT_MAX;
		thresh = max - 1;
	}
}

/* cpuidle_poll_time() of the 5.x core */
static u64 poll_time(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	for (int i = 1; i < drv->state_count; i++)
		if (!dev->disabled[i])
			return drv->states[i].target_residency_ns;
	return dev->tick_ns;
}

static void menu_update(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			struct menu *data)
{
	int last_idx = data->last_state_idx;
	const struct sl_idle_state *target;
	u64 measured_ns, new_factor;

	if (last_idx < 0 || last_idx >= drv->state_count)
		last_idx = 0;
	target = &drv->states[last_idx];
	if (data->tick_wakeup && data->next_timer_ns > dev->tick_ns) {
		/* the tick woke a CPU the predictor expected to sleep longer: it could have */
		measured_ns = 9 * MAX_INTERESTING / 10;
	} else if ((target->flags & CPUIDLE_FLAG_POLL) && dev->poll_time_limit) {
		/* the poll gave up: a better prediction would have slept until the timer */
		measured_ns = data->next_timer_ns;
	} else {
		measured_ns = dev->last_residency_ns;
		if (measured_ns > 2 * target->exit_latency_ns)
			measured_ns -= target->exit_latency_ns;
		else
			measured_ns /= 2;
	}
	/* the factors never exceed unity */
	if (measured_ns > data->next_timer_ns)
		measured_ns = data->next_timer_ns;

	new_factor = data->correction_factor[data->bucket];
	new_factor -= new_factor / DECAY;
	if (data->next_timer_ns > 0 && measured_ns < MAX_INTERESTING)
		new_factor += RESOLUTION * measured_ns / data->next_timer_ns;
	else
		new_factor += RESOLUTION;
	data->correction_factor[data->bucket] = (unsigned int)new_factor;

	data->intervals[data->interval_ptr++] = (unsigned int)(measured_ns / NSEC_PER_USEC);
	if (data->interval_ptr >= INTERVALS)
		data->interval_ptr = 0;
}

static int menu_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct menu *data = dev->gov_data;
	u64 latency_req = dev->latency_req_ns;
	u64 tick = dev->tick_ns;
	bool stopped = dev->tick_stopped;
	u64 sleep, delta_next, predicted_ns, interactivity_req;
	unsigned int predicted_us, typical;
	int i, idx;

	dev->predicted_ns = 0;
	if (!data)
		return 0;
	if (data->needs_update) {
		menu_update(dev, drv, data);
		data->needs_update = 0;
	}

	sleep = dev->next_timer_ns > SLEEP_MAX_NS ? SLEEP_MAX_NS : dev->next_timer_ns;
	delta_next = sleep;
	if (!stopped && dev->next_tick_ns && dev->next_tick_ns < delta_next)
		delta_next = dev->next_tick_ns;
	data->next_timer_ns = sleep;
	data->bucket = which_bucket(sleep, dev->nr_iowait);

	if ((drv->state_count <= 1 || latency_req == 0 ||
	     sleep < drv->states[1].target_residency_ns ||
	     latency_req < drv->states[1].exit_latency_ns) &&
	    !dev->disabled[0]) {
		/* state 0 whatever the prediction: keep the tick if it polls */
		dev->stop_tick = !polling(drv, 0);
		if (polling(drv, 0))
			dev->poll_limit_ns = poll_time(dev, drv);
		return 0;
	}

	/* round half a microsecond up */
	predicted_us = (unsigned int)((sleep * data->correction_factor[data->bucket] +
				       (RESOLUTION * DECAY * NSEC_PER_USEC) / 2) /
				      (RESOLUTION * DECAY * NSEC_PER_USEC));
	typical = get_typical_interval(data, predicted_us);
	predicted_ns = (u64)(predicted_us < typical ? predicted_us : typical) * NSEC_PER_USEC;

	if (stopped) {
		/* no tick to rescue a short misprediction: use the real timer distance */
		if (predicted_ns < tick)
			predicted_ns = delta_next;
	} else {
		interactivity_req = predicted_ns / performance_multiplier(dev->nr_iowait);
		if (latency_req > interactivity_req)
			latency_req = interactivity_req;
	}
	dev->predicted_ns = predicted_ns;

	idx = -1;
	for (i = 0; i < drv->state_count; i++) {
		const struct sl_idle_state *s = &drv->states[i];

		if (dev->disabled[i])
			continue;
		if (idx == -1)
			idx = i; /* the first enabled state */
		if (s->target_residency_ns > predicted_ns) {
			/* a physical state, not polling, when the timer is far enough */
			if (polling(drv, idx) && s->exit_latency_ns <= latency_req &&
			    s->target_residency_ns <= sleep) {
				predicted_ns = s->target_residency_ns;
				idx = i;
				break;
			}
			if (predicted_ns < tick)
				break;
			if (!stopped) {
				/* shallow enough to be woken by the tick: retain it */
				predicted_ns = drv->states[idx].target_residency_ns;
				break;
			}
			/* tick stopped: do not get stuck shallow when the timer allows deeper */
			if (drv->states[idx].target_residency_ns < tick &&
			    s->target_residency_ns <= delta_next &&
			    s->exit_latency_ns <= latency_req)
				idx = i;
			goto out;
		}
		if (s->exit_latency_ns > latency_req)
			break;
		idx = i;
	}
	if (idx == -1)
		idx = 0; /* no state enabled */

	/* keep the tick for a polling state or a prediction shorter than a tick */
	if ((polling(drv, idx) || predicted_ns < tick) && !stopped) {
		dev->stop_tick = false;
		if (idx > 0 && drv->states[idx].target_residency_ns > delta_next) {
			/* the tick will wake the CPU first: a state that fits before it */
			for (i = idx - 1; i >= 0; i--) {
				if (dev->disabled[i])
					continue;
				idx = i;
				if (drv->states[i].target_residency_ns <= delta_next)
					break;
			}
		}
	}
out:
	if (polling(drv, idx))
		dev->poll_limit_ns = poll_time(dev, drv);
	return idx;
}

static void menu_reflect(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int index)
{
	struct menu *data = dev->gov_data;

	(void)drv;
	if (!data)
		return;
	data->last_state_idx = index;
	data->needs_update = 1;
	data->tick_wakeup = dev->tick_wakeup;
}

static int menu_enable(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct menu *data = calloc(1, sizeof(*data));

	(void)drv;
	if (!data)
		return -1;
	/* eager, as modern kernels: every factor at unity */
	for (int i = 0; i < BUCKETS; i++)
		data->correction_factor[i] = RESOLUTION * DECAY;
	dev->gov_data = data;
	return 0;
}

const struct sl_cpuidle_governor sl_gov_menu = {
	.name = "menu",
	.help = "the modern menu (5.x/6.x, ns): correction factors, the repeating-interval "
		"detector, the iowait multiplier and the tick-stop decision",
	.rating = 20,
	.enable = menu_enable,
	.disable = sl_gov_free_data,
	.select = menu_select,
	.reflect = menu_reflect,
};
