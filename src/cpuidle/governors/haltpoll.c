/*
 * The haltpoll governor (rating 9), for KVM guests with the cpuidle-haltpoll driver: state 0
 * polls for at most dev->poll_limit_ns, state 1 halts (a VM exit, expensive to wake from).
 * Polling a little before halting saves the exit/entry round trip when the wake-up comes
 * soon; the window adapts to how long the guest's halts turn out to be
 * (docs/model/cpuidle.md §6; Linux 5.4+ drivers/cpuidle/governors/haltpoll.c).
 *
 * select: a zero QoS limit polls; no window yet (poll_limit_ns == 0) halts; after a poll that
 * ran out its window without an event (dev->poll_time_limit) it halts, otherwise it polls
 * again; after a halt it polls. Every poll keeps the tick (dev->stop_tick = false); a halt
 * leaves the caller's default (dev->stop_tick = true, set here since the simulator does not
 * reset it between idles).
 *
 * reflect records the entered index and, only after a halt, adapts the window with the
 * halt's length block_ns = dev->last_residency_ns:
 * - limit < block_ns <= guest_halt_poll_ns: grow, limit * grow, at least grow_start, at most
 *   guest_halt_poll_ns (so 0 -> 50 µs -> 100 -> 200 with the defaults);
 * - block_ns > guest_halt_poll_ns with allow_shrink: limit / shrink (0 when shrink is 0).
 * Units: all nanoseconds, u64 as the 5.x code (u64 val, unsigned module parameters widened);
 * the parameters come from dev->gp (the kernel's defaults 200000/2/2/50000/true when gp is
 * NULL). The governor's window lives in gov_data and is copied to dev->poll_limit_ns at enable,
 * select and reflect, so nothing else writing that field can lose it.
 *
 * Beyond the kernel (which checks neither): a halt that is disabled or slower to leave than
 * latency_req_ns is replaced by poll, and a disabled poll by halt when halt is usable.
 */
#include "cpuidle/cpuidle.h"

#include <stdlib.h>

extern const struct sl_cpuidle_governor sl_gov_haltpoll;

struct haltpoll_data {
	int last_state_idx;
	u64 poll_limit_ns;
};

/* the cpuidle-haltpoll module parameters' defaults (drivers/cpuidle/governors/haltpoll.c) */
#define HALTPOLL_POLL_NS       200000 /* guest_halt_poll_ns */
#define HALTPOLL_SHRINK	       2      /* guest_halt_poll_shrink */
#define HALTPOLL_GROW	       2      /* guest_halt_poll_grow */
#define HALTPOLL_GROW_START_NS 50000  /* guest_halt_poll_grow_start */
#define HALTPOLL_ALLOW_SHRINK  1      /* guest_halt_poll_allow_shrink */

/* the module parameters, each a row of haltpoll_params (below) */
struct haltpoll_tunables {
	u64 poll_ns;	   /* guest_halt_poll_ns */
	u64 shrink;	   /* guest_halt_poll_shrink */
	u64 grow;	   /* guest_halt_poll_grow */
	u64 grow_start_ns; /* guest_halt_poll_grow_start */
	u64 allow_shrink;  /* guest_halt_poll_allow_shrink */
};

static bool usable(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int i)
{
	return i < drv->state_count && !dev->disabled[i] &&
	       drv->states[i].exit_latency_ns <= dev->latency_req_ns;
}

static int haltpoll_enable(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct haltpoll_data *hd = calloc(1, sizeof(*hd));

	(void)drv;
	if (!hd)
		return -1;
	dev->gov_data = hd;
	dev->poll_limit_ns = 0; /* the first idles halt */
	return 0;
}

/* The kernel's choice: 0 poll (keeping the tick) or 1 halt. */
static int haltpoll_decide(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			   const struct haltpoll_data *hd)
{
	if (drv->state_count <= 0 || dev->latency_req_ns == 0) {
		dev->stop_tick = false;
		return 0;
	}
	if (hd->poll_limit_ns == 0)
		return 1;
	if (hd->last_state_idx == 0) {
		/* the poll window expired with nothing to do: halt this time */
		if (dev->poll_time_limit)
			return 1;
		dev->stop_tick = false;
		return 0;
	}
	dev->stop_tick = false;
	return 0;
}

static int haltpoll_select(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	struct haltpoll_data *hd = dev->gov_data;
	int idx;

	dev->stop_tick = true;
	dev->predicted_ns = 0;
	if (!hd)
		return 0;
	dev->poll_limit_ns = hd->poll_limit_ns;
	idx = haltpoll_decide(dev, drv, hd);
	if (idx == 1 && !usable(dev, drv, 1))
		idx = 0;
	else if (idx == 0 && dev->disabled[0] && usable(dev, drv, 1))
		idx = 1;
	return idx;
}

static void haltpoll_adjust(const struct haltpoll_tunables *t, struct haltpoll_data *hd,
			    u64 block_ns)
{
	u64 val;

	if (block_ns > hd->poll_limit_ns && block_ns <= t->poll_ns) {
		val = hd->poll_limit_ns * t->grow;
		if (val < t->grow_start_ns)
			val = t->grow_start_ns;
		if (val > t->poll_ns)
			val = t->poll_ns;
		hd->poll_limit_ns = val;
	} else if (block_ns > t->poll_ns && t->allow_shrink) {
		if (t->shrink == 0)
			hd->poll_limit_ns = 0;
		else
			hd->poll_limit_ns /= t->shrink;
	}
}

static void haltpoll_reflect(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv,
			     int index)
{
	struct haltpoll_data *hd = dev->gov_data;
	struct haltpoll_tunables def;

	(void)drv;
	if (!hd)
		return;
	hd->last_state_idx = index;
	if (index != 0)
		haltpoll_adjust(sl_gov_tunables(dev, &sl_gov_haltpoll, &def), hd,
				dev->last_residency_ns);
	dev->poll_limit_ns = hd->poll_limit_ns;
}

/* --cpuidle-param's names for the module parameters; the unsigned int ones at most UINT_MAX */
#define HP(f) offsetof(struct haltpoll_tunables, f)
static const struct sl_gov_param haltpoll_params[] = {
	{"haltpoll_poll_ns", HP(poll_ns), HALTPOLL_POLL_NS, UINT64_MAX},
	{"haltpoll_grow", HP(grow), HALTPOLL_GROW, UINT32_MAX},
	{"haltpoll_shrink", HP(shrink), HALTPOLL_SHRINK, UINT32_MAX},
	{"haltpoll_grow_start_ns", HP(grow_start_ns), HALTPOLL_GROW_START_NS, UINT64_MAX},
	{"haltpoll_allow_shrink", HP(allow_shrink), HALTPOLL_ALLOW_SHRINK, 1},
};

const struct sl_cpuidle_governor sl_gov_haltpoll = {
	.name = "haltpoll",
	.help = "KVM guests: poll an adaptive window (grows on short halts), then halt",
	.rating = 9,
	.enable = haltpoll_enable,
	.disable = sl_gov_free_data,
	.select = haltpoll_select,
	.reflect = haltpoll_reflect,
	.tunables_size = sizeof(struct haltpoll_tunables),
	.params = haltpoll_params,
	.nparams = (int)SL_ARRAY_SIZE(haltpoll_params),
};
