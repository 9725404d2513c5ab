/*
 * menu-tng: the 2009 rework of the menu governor by Arjan van de Ven, posted as "cpuidle: A new
 * variant of the menu governor to boost IO performance" (menu-tng.c, rating 30, beside the old
 * menu) and merged for Linux 2.6.32 as commit 69d25870f20c, where it replaced menu.c (name
 * "menu", rating 20). Why: on Nehalem servers the old governor sent CPUs with outstanding disk
 * I/O into deep C-states, and the exit latency on every completion cut fio throughput nearly in
 * half (docs/model/cpuidle.md §8). This file reproduces the 2.6.32 code; it is registered as
 * "menu-tng", rating 20, so that it can sit beside the modern "menu".
 *
 * The algorithm (docs/model/cpuidle.md §2):
 *  - expected_us: the time to the next timer event, rounded up to microseconds;
 *  - one of 12 correction factors (6 magnitude buckets x {no iowait, iowait}) scales it into
 *    predicted_us; a factor is an EWMA of measured/expected in units of RESOLUTION*DECAY
 *    (= 4096 = ratio 1.0), forgetting 3/4 per sample (DECAY 4 in 2.6.32, 8 from 2.6.35);
 *  - performance multiplier 1 + 2*get_loadavg() + 10*nr_iowait, where get_loadavg() is
 *    this_cpu_load() = cpu_load[0] (NICE_0_LOAD 1024 per nice-0 task) read as a FSHIFT = 11
 *    fixed-point number and returned in tenths: cpu_load0 = 1024 gives 5, i.e. 2*5 = 10 added;
 *  - the deepest state, scanning up from C1 and stopping at the first failure, whose target
 *    residency <= predicted_us, exit latency <= the PM QoS limit, and exit latency * multiplier
 *    <= predicted_us; C1 is the default unless the next timer is <= 5 us away;
 *  - reflect only sets needs_update; the update of the factor runs at the next select.
 *
 * Units and integer types, as 2.6.32: times are microseconds; expected_us, measured_us, exit_us,
 * bucket and the states' latency/residency are unsigned int (u32), predicted_us and the factors
 * u64, latency_req and the multiplier int. predicted_us = DIV_ROUND_CLOSEST(expected_us * cf,
 * 4096) in u64; the factor update is cf * 3 / 4 (u64) + 1024 * measured_us / expected_us, the
 * latter in u32. The driver table is in ns: exit latencies and residencies are converted to us
 * rounding up and the QoS limit rounding down, which is exact for a table in whole
 * microseconds (every table of that era) and never lets a state exceed the limit otherwise.
 * The measured residency is last_residency_ns / 1000 truncated to u32 (the driver's int us).
 *
 * the menu_tng_quirks tunable (1, the default, is 2.6.32 exactly; 0 corrects what later kernels
 * corrected). Checked against the pristine tree sndrzt/linux-2.6.32 (commit "linux-2.6.32
 * original source code", Makefile 2.6.32), drivers/cpuidle/governors/menu.c: all four are there,
 * which settles the UNVERIFIED items 3 and 4 of docs/model/cpuidle.md §10.1 (the deferred
 * needs_update scheme is in 2.6.32 itself, with the reset-before-update order, and so is the
 * data->measured_us bug):
 *  Q1 the sleep length is truncated to u32 ns before DIV_ROUND_UP (in u32 too), so timers
 *     beyond 4.29 s wrap. Corrected: 64-bit, clamped to UINT_MAX us.
 *  Q2 select resets last_state_idx = 0 and exit_us = 0 *before* the deferred update, so the
 *     update tests TIME_VALID on state 0 (poll) and subtracts no exit latency. Corrected: the
 *     state entered (the index reflect received) and its exit latency, as 2.6.35 intended.
 *  Q3 the MAX_INTERESTING test reads the struct field measured_us, never written (0), so the
 *     "an idle >= 50 ms is a perfect prediction" clause never fires. Corrected: the local value.
 *  Q4 RESOLUTION * measured_us is u32 and wraps for measured_us >= 4194304 us. Corrected: u64.
 * Not quirks (the 2.6.32 design, the same in both modes): no clamp of measured to expected (a
 * factor may exceed unity), break on the first failing state, DECAY 4, lazy factor init.
 *
 * Deviations forced by the simulator's contract (both modes): disabled states (sysfs disable,
 * which 2.6.32 lacked) are skipped with `continue`, as 3.x did; the C1 default and every other
 * fallback honour latency_req (2.6.32 used C1 whenever the timer was > 5 us away even under a
 * tighter QoS limit; 3.x added that test); a sleep length of UINT64_MAX ("no timer armed", which
 * the kernel's tick code never returned: its sleep length was bounded by the programmed
 * clock event) becomes the longest 2.6.32 could see, 4294967 us, in quirk mode.
 *
 * Correction factors (docs/model/cpuidle.md §2.6): enable zeroes them as 2.6.32's memset did;
 * select sets a zero factor to RESOLUTION*DECAY (unity) lazily, the "correction-factor-init" of v2
 * of the patch.
 */
#include "cpuidle/cpuidle.h"

#include <limits.h>
#include <stdlib.h>

#define BUCKETS		12
#define RESOLUTION	1024
#define DECAY		4
#define MAX_INTERESTING 50000
#define FSHIFT		11
#define FIXED_1		(1UL << FSHIFT)
#define LOAD_INT(x)	((x) >> FSHIFT)
#define LOAD_FRAC(x)	LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

struct menu_tng {
	int last_state_idx;
	int needs_update;
	unsigned int expected_us;
	u64 predicted_us;
	unsigned int measured_us; /* never written, as in 2.6.32 (quirk Q3 reads it) */
	unsigned int exit_us;
	unsigned int bucket;
	u64 correction_factor[BUCKETS];
	int entered; /* the index reflect received (the corrected update uses it) */
};

/* the tunable, a row of menu_tng_params (below) */
struct menu_tng_tunables {
	u64 quirks;
};

extern const struct sl_cpuidle_governor sl_gov_menu_tng;

static int quirks(const struct sl_cpuidle_dev *dev)
{
	struct menu_tng_tunables def;
	const struct menu_tng_tunables *t = sl_gov_tunables(dev, &sl_gov_menu_tng, &def);

	return (int)t->quirks;
}

/* ns table values to 2.6.32's unsigned int us: round up (exact for whole-us tables) */
static unsigned int to_us_up(u64 ns)
{
	u64 us = ns / 1000 + (ns % 1000 != 0);

	return us > UINT_MAX ? UINT_MAX : (unsigned int)us;
}

static unsigned int exit_us_of(const struct sl_cpuidle_driver *drv, int i)
{
	return to_us_up(drv->states[i].exit_latency_ns);
}

static unsigned int residency_us_of(const struct sl_cpuidle_driver *drv, int i)
{
	return to_us_up(drv->states[i].target_residency_ns);
}

/* pm_qos_requirement(): an int of us; rounding down keeps the limit honoured */
static int latency_req_us(const struct sl_cpuidle_dev *dev)
{
	u64 us = dev->latency_req_ns / 1000;

	return us > INT_MAX ? INT_MAX : (int)us;
}

/* tick_nohz_get_sleep_length() in us, as 2.6.32 rounded it (quirk Q1) or corrected */
static unsigned int expected_us_of(const struct sl_cpuidle_dev *dev)
{
	if (quirks(dev)) {
		/* DIV_ROUND_UP((u32)ns, 1000): the truncation and the +999 are both u32 */
		u32 ns = dev->next_timer_ns == UINT64_MAX ? UINT32_MAX - 999
							  : (u32)dev->next_timer_ns;

		return (u32)(ns + 1000 - 1) / 1000;
	}
	if (dev->next_timer_ns >= (u64)UINT_MAX * 1000)
		return UINT_MAX;
	return (unsigned int)((dev->next_timer_ns + 999) / 1000);
}

/* LOAD_INT * 10 + LOAD_FRAC / 10 on the unsigned long cpu_load[0]: load in tenths */
static int get_loadavg(const struct sl_cpuidle_dev *dev)
{
	unsigned long x = (unsigned long)dev->cpu_load0;

	return (int)(LOAD_INT(x) * 10 + LOAD_FRAC(x) / 10);
}

static unsigned int which_bucket(const struct sl_cpuidle_dev *dev, unsigned int duration)
{
	unsigned int bucket = dev->nr_iowait > 0 ? BUCKETS / 2 : 0;

	if (duration < 10)
		return bucket;
	if (duration < 100)
		return bucket + 1;
	if (duration < 1000)
		return bucket + 2;
	if (duration < 10000)
		return bucket + 3;
	if (duration < 100000)
		return bucket + 4;
	return bucket + 5;
}

/* 1 + 2 * loadavg(tenths) + 10 * nr_iowait: int in the kernel; wrap-around kept defined here */
static int performance_multiplier(const struct sl_cpuidle_dev *dev)
{
	u32 mult = 1;

	mult += 2u * (u32)get_loadavg(dev);
	mult += 10u * (u32)(dev->nr_iowait > 0 ? dev->nr_iowait : 0);
	return (int)mult;
}

static bool usable(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int i,
		   int latency_req)
{
	return !dev->disabled[i] && exit_us_of(drv, i) <= (unsigned int)latency_req;
}

/*
 * The state used when the scan finds nothing: `preferred` (C1, or poll when the timer is close)
 * if it is enabled and within the limit, else poll as 3.x did, else the shallowest enabled
 * state within the limit; with none within it, the shallowest enabled one (or 0).
 */
static int fallback(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
		    int preferred, int latency_req)
{
	if (preferred < drv->state_count && usable(dev, drv, preferred, latency_req))
		return preferred;
	for (int i = 0; i < drv->state_count; i++)
		if (usable(dev, drv, i, latency_req))
			return i;
	for (int i = 0; i < drv->state_count; i++)
		if (!dev->disabled[i])
			return i;
	return 0;
}

static void menu_tng_update(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			    struct menu_tng *data)
{
	int q = quirks(dev);
	/* Q2: after the reset, last_state_idx is 0 and exit_us 0 */
	int last_idx = q ? data->last_state_idx : data->entered;
	unsigned int exit_us = q ? data->exit_us : exit_us_of(drv, last_idx);
	unsigned int last_idle_us = (unsigned int)(dev->last_residency_ns / 1000);
	unsigned int measured_us;
	u64 new_factor;

	if (last_idx < 0 || last_idx >= drv->state_count)
		last_idx = 0;
	/* no residency measurement: assume the whole expected time was slept */
	if (!(drv->states[last_idx].flags & CPUIDLE_FLAG_TIME_VALID))
		last_idle_us = data->expected_us;
	measured_us = last_idle_us;
	/* the wake-up event came before the exit latency was paid */
	if (measured_us > exit_us)
		measured_us -= exit_us;

	new_factor = data->correction_factor[data->bucket] * (DECAY - 1) / DECAY;
	/* Q3: 2.6.32 tests the never-written field */
	if (data->expected_us > 0 && (q ? data->measured_us : measured_us) < MAX_INTERESTING) {
		if (q) /* Q4: unsigned int product */
			new_factor += (u32)(RESOLUTION * measured_us) / data->expected_us;
		else
			new_factor += (u64)RESOLUTION * measured_us / data->expected_us;
	} else {
		new_factor += RESOLUTION; /* so long an idle counts as a perfect prediction */
	}
	if (new_factor == 0)
		new_factor = 1;
	data->correction_factor[data->bucket] = new_factor;
}

static int menu_tng_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct menu_tng *data = dev->gov_data;
	int latency_req = latency_req_us(dev);
	int start = (drv->states[0].flags & CPUIDLE_FLAG_POLL) ? 1 : 0; /* DRIVER_STATE_START */
	int multiplier, i;

	dev->predicted_ns = 0;
	if (!data)
		return fallback(dev, drv, 0, latency_req);
	if (quirks(dev)) { /* Q2: the 2.6.32 order */
		data->last_state_idx = 0;
		data->exit_us = 0;
	}
	if (data->needs_update) {
		menu_tng_update(dev, drv, data);
		data->needs_update = 0;
	}
	data->last_state_idx = 0;
	data->exit_us = 0;

	/* a very strict latency requirement */
	if (latency_req == 0)
		return fallback(dev, drv, 0, 0);

	data->expected_us = expected_us_of(dev);
	data->bucket = which_bucket(dev, data->expected_us);
	multiplier = performance_multiplier(dev);
	/* first use of a bucket: start at unity */
	if (data->correction_factor[data->bucket] == 0)
		data->correction_factor[data->bucket] = RESOLUTION * DECAY;
	/* DIV_ROUND_CLOSEST, u64 */
	data->predicted_us = ((u64)data->expected_us * data->correction_factor[data->bucket] +
			      RESOLUTION * DECAY / 2) /
			     (RESOLUTION * DECAY);
	dev->predicted_ns = data->predicted_us * 1000;

	/* default to C1 (hlt), not to busy polling, unless the timer is really soon */
	data->last_state_idx = fallback(dev, drv, data->expected_us > 5 ? start : 0, latency_req);

	/* the deepest state meeting the three constraints; stop at the first that fails */
	for (i = start; i < drv->state_count; i++) {
		unsigned int exit_us = exit_us_of(drv, i);

		if (dev->disabled[i])
			continue;
		if (residency_us_of(drv, i) > data->predicted_us)
			break;
		if (exit_us > (unsigned int)latency_req)
			break;
		if ((u64)(u32)(exit_us * (unsigned int)multiplier) > data->predicted_us)
			break;
		data->exit_us = exit_us;
		data->last_state_idx = i;
	}
	return data->last_state_idx;
}

/* 2.6.32 reflect: only note that the next select must update the factors */
static void menu_tng_reflect(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			     int index)
{
	struct menu_tng *data = dev->gov_data;

	(void)drv;
	if (!data)
		return;
	data->entered = index;
	data->needs_update = 1;
}

static int menu_tng_enable(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)drv;
	/* zeroed, as 2.6.32's memset: the factors start at 0 and become unity on first use */
	dev->gov_data = calloc(1, sizeof(struct menu_tng));
	return dev->gov_data ? 0 : -1;
}

static const struct sl_gov_param menu_tng_params[] = {
	/* 1: 2.6.32's integer arithmetic with its quirks, exactly; 0: the corrected one */
	{"menu_tng_quirks", offsetof(struct menu_tng_tunables, quirks), 1, 1},
};

const struct sl_cpuidle_governor sl_gov_menu_tng = {
	.name = "menu-tng",
	.help = "the 2.6.32 menu (2009 rework): per-magnitude/iowait correction factors and a "
		"load and iowait performance multiplier",
	.rating = 20,
	.enable = menu_tng_enable,
	.disable = sl_gov_free_data,
	.select = menu_tng_select,
	.reflect = menu_tng_reflect,
	.tunables_size = sizeof(struct menu_tng_tunables),
	.params = menu_tng_params,
	.nparams = (int)SL_ARRAY_SIZE(menu_tng_params),
};
