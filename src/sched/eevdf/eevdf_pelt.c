/*
 * PELT for 6.18 (docs/model/eevdf.md §5.7): per-entity load tracking of tasks and of each CPU's
 * cfs_rq with the kernel's integer arithmetic, util_est, and the SIS_UTIL idle-scan budget that
 * a periodic balance derives from it (§5.6).
 *
 * The rules, from the facts of §5.7 (kernel/sched/pelt.c, pelt.h, fair.c of 6.18):
 * - Time is counted in units of 1024 ns and periods of 1024 units; a period's history weighs
 *   y = 2^(-1/32) times the one after it. decay_load multiplies by y^n with a 32-entry table
 *   of floor((2^32 - 1) y^k) and a shift per 32 periods; an update splits the elapsed time into
 *   the rest of the open period (d1), whole periods and the part of the current one (d3).
 * - A sum becomes an average by dividing by the divider LOAD_AVG_MAX - 1024 + period_contrib
 *   (how far into the current period the sum is).
 * - A task's load_sum counts time on the runqueue (delayed included), runnable_sum time
 *   runnable (delayed not), util_sum time running; a cfs_rq's the sums of its attached
 *   entities, updated with its own state (load weight, runnable count, a current entity).
 * - Attach (enqueue after a migration or at the first enqueue) adds the task's averages to the
 *   cfs_rq, detach (a balancer's move) subtracts them at once, remove (a sleeping task woken
 *   elsewhere, an exit) queues them for subtraction at the cfs_rq's next update.
 * Model choices, said plainly:
 * - Flat: the autogroup level is not modelled (eevdf.h), so the task entities are attached to
 *   the CPU's root cfs_rq; the kernel's root holds the group entity, whose util follows its
 *   group cfs_rq's (propagation), so util is the same signal up to the propagation's rounding;
 *   load is not (the group entity's weight is the group's share).
 * - A vCPU of capacity 1024 with no frequency scaling: clock_pelt is the task clock and no
 *   idle time is ever lost (the lost_idle_time correction is 0); rt/dl/irq averages are 0.
 * - migrate_se_pelt_lag's estimate of an idle source's clock is the exact time (now).
 * - The PELT clock is the model's time plus one period (SL_PELT_CLOCK_START): the kernel's
 *   clock_pelt is far from 0 when a workload starts, and a last_update_time of 0 means
 *   "detached"; a cfs_rq updated within the model's first 1024 ns would keep 0, and the tasks
 *   attached to it then would be attached again at their next enqueue (counted twice).
 */
#include "sched/eevdf/eevdf.h"
#include "sched/common.h"

#define LOAD_AVG_PERIOD	 32
#define LOAD_AVG_MAX	 47742 /* the fixed point of v = floor(v y + 1024) */
#define PELT_MIN_DIVIDER (LOAD_AVG_MAX - 1024)
#define CAPACITY_SHIFT	 10
#define CAPACITY_SCALE	 (1ULL << CAPACITY_SHIFT)

/* floor((2^32 - 1) x 2^(-k/32)), k = 0..31: the kernel's generated table (facts, computed) */
static const u32 y_inv[LOAD_AVG_PERIOD] = {
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6, 0xe0ccdeeb,
	0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85, 0xc5672a10, 0xc12c4cc9,
	0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581, 0xad583ee9, 0xa9a15ab4, 0xa5fed6a9,
	0xa2704302, 0x9ef5325f, 0x9b8d39b9, 0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a,
	0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

/* floor(val x mul / 2^32) without 128-bit arithmetic */
static u64 mul_shr32(u64 val, u32 mul)
{
	u64 lo = (val & 0xffffffffULL) * mul, hi = (val >> 32) * mul;

	return hi + (lo >> 32);
}

u64 sl_pelt_decay_load(u64 val, u64 n)
{
	if (n > LOAD_AVG_PERIOD * 63)
		return 0;
	if (n >= LOAD_AVG_PERIOD) {
		val >>= n / LOAD_AVG_PERIOD;
		n %= LOAD_AVG_PERIOD;
	}
	return mul_shr32(val, y_inv[n]);
}

/* d1 y^p + 1024 (y + ... + y^(p-1)) + d3 */
static u32 accumulate_segments(u64 periods, u32 d1, u32 d3)
{
	u32 c1 = (u32)sl_pelt_decay_load(d1, periods);
	u32 c2 = (u32)(LOAD_AVG_MAX - sl_pelt_decay_load(LOAD_AVG_MAX, periods) - 1024);

	return c1 + c2 + d3;
}

static u64 sub_pos(u64 a, u64 b)
{
	return a > b ? a - b : 0;
}

static u64 max_u32(u64 a, u64 b)
{
	/* the kernel's max_t(u32, ...): both sides cut to 32 bits */
	u32 x = (u32)a, y = (u32)b;

	return x > y ? x : y;
}

static u64 accumulate_sum(u64 delta, struct sl_pelt_avg *sa, u64 load, u64 runnable, int running)
{
	u32 contrib = (u32)delta; /* no period crossed: delta < 1024 */
	u64 periods;

	delta += sa->period_contrib;
	periods = delta / 1024;
	if (periods) {
		sa->load_sum = sl_pelt_decay_load(sa->load_sum, periods);
		sa->runnable_sum = sl_pelt_decay_load(sa->runnable_sum, periods);
		sa->util_sum = (u32)sl_pelt_decay_load(sa->util_sum, periods);
		delta %= 1024;
		/* with no load, runnable and running are 0 too: contrib is unused */
		if (load)
			contrib =
				accumulate_segments(periods, 1024 - sa->period_contrib, (u32)delta);
	}
	sa->period_contrib = (u32)delta;
	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += runnable * contrib << CAPACITY_SHIFT;
	if (running)
		sa->util_sum += contrib << CAPACITY_SHIFT;
	return periods;
}

/* ___update_load_sum: 1 if a period boundary was crossed (the averages are due) */
static int update_load_sum(u64 now, struct sl_pelt_avg *sa, u64 load, u64 runnable, int running)
{
	u64 delta = now - sa->last_update_time;

	if ((s64)delta < 0) {
		sa->last_update_time = now;
		return 0;
	}
	delta >>= 10;
	if (!delta)
		return 0;
	sa->last_update_time += delta << 10;
	if (!load)
		runnable = running = 0;
	return accumulate_sum(delta, sa, load, runnable, running) ? 1 : 0;
}

static u32 divider(const struct sl_pelt_avg *sa)
{
	return PELT_MIN_DIVIDER + sa->period_contrib;
}

static void update_load_avg_(struct sl_pelt_avg *sa, u64 load)
{
	u32 d = divider(sa);

	sa->load_avg = load * sa->load_sum / d;
	sa->runnable_avg = sa->runnable_sum / d;
	sa->util_avg = sa->util_sum / d;
}

static u64 se_weight(const struct sched_entity *se)
{
	return scale_load_down(se->load.weight);
}

/* se_runnable: a delayed task is on the runqueue but not runnable */
static u64 se_runnable(const struct sched_entity *se)
{
	return se->sched_delayed ? 0 : se->on_rq ? 1 : 0;
}

int sl_pelt_update_se(u64 now, const struct eevdf_rq *cfs, struct sched_entity *se)
{
	struct sl_pelt_avg *sa = &ee_se(se)->avg;

	if (!update_load_sum(now, sa, se->on_rq ? 1 : 0, se_runnable(se), cfs->curr == se))
		return 0;
	update_load_avg_(sa, se_weight(se));
	/* cfs_se_util_change: util_avg moved since util_est was last sampled */
	sa->util_est &= ~SL_UTIL_AVG_UNCHANGED;
	return 1;
}

int sl_pelt_update_blocked_se(u64 now, struct sched_entity *se)
{
	struct sl_pelt_avg *sa = &ee_se(se)->avg;

	if (!update_load_sum(now, sa, 0, 0, 0))
		return 0;
	update_load_avg_(sa, se_weight(se));
	return 1;
}

/* update_cfs_rq_load_avg: the removed averages leave, then the cfs_rq's own sums to now */
int sl_pelt_update_cfs(u64 now, struct eevdf_rq *cfs, u64 h_nr_runnable)
{
	struct sl_pelt_avg *sa = &cfs->avg;
	int decayed = 0;

	if (cfs->removed_nr) {
		u64 d = divider(sa);

		sa->load_avg = sub_pos(sa->load_avg, cfs->removed_load);
		sa->load_sum = sub_pos(sa->load_sum, cfs->removed_load * d);
		sa->load_sum = max_u32(sa->load_sum, sa->load_avg * PELT_MIN_DIVIDER);
		sa->util_avg = sub_pos(sa->util_avg, cfs->removed_util);
		sa->util_sum = (u32)sub_pos(sa->util_sum, cfs->removed_util * d);
		sa->util_sum = (u32)max_u32(sa->util_sum, sa->util_avg * PELT_MIN_DIVIDER);
		sa->runnable_avg = sub_pos(sa->runnable_avg, cfs->removed_runnable);
		sa->runnable_sum = sub_pos(sa->runnable_sum, cfs->removed_runnable * d);
		sa->runnable_sum = max_u32(sa->runnable_sum, sa->runnable_avg * PELT_MIN_DIVIDER);
		cfs->removed_nr = 0;
		cfs->removed_load = cfs->removed_util = cfs->removed_runnable = 0;
		decayed = 1;
	}
	if (update_load_sum(now, sa, scale_load_down(cfs->load), h_nr_runnable,
			    cfs->curr != NULL)) {
		update_load_avg_(sa, 1);
		decayed = 1;
	}
	return decayed;
}

void sl_pelt_attach(struct eevdf_rq *cfs, struct sched_entity *se)
{
	struct sl_pelt_avg *sa = &ee_se(se)->avg, *c = &cfs->avg;
	u32 d = divider(c);
	u64 w = se_weight(se);

	/* the entity takes the cfs_rq's position in the period, and sums that give its
	 * averages with that divider */
	sa->last_update_time = c->last_update_time;
	sa->period_contrib = c->period_contrib;
	sa->util_sum = (u32)(sa->util_avg * d);
	sa->runnable_sum = sa->runnable_avg * d;
	sa->load_sum = sa->load_avg * d;
	sa->load_sum = w && w < sa->load_sum ? sa->load_sum / w : 1;
	c->load_avg += sa->load_avg;
	c->load_sum += w * sa->load_sum;
	c->util_avg += sa->util_avg;
	c->util_sum += sa->util_sum;
	c->runnable_avg += sa->runnable_avg;
	c->runnable_sum += sa->runnable_sum;
}

void sl_pelt_detach(struct eevdf_rq *cfs, struct sched_entity *se)
{
	struct sl_pelt_avg *sa = &ee_se(se)->avg, *c = &cfs->avg;

	c->load_avg = sub_pos(c->load_avg, sa->load_avg);
	c->load_sum = sub_pos(c->load_sum, se_weight(se) * sa->load_sum);
	c->load_sum = max_u32(c->load_sum, c->load_avg * PELT_MIN_DIVIDER);
	c->util_avg = sub_pos(c->util_avg, sa->util_avg);
	c->util_sum = (u32)sub_pos(c->util_sum, sa->util_sum);
	c->util_sum = (u32)max_u32(c->util_sum, c->util_avg * PELT_MIN_DIVIDER);
	c->runnable_avg = sub_pos(c->runnable_avg, sa->runnable_avg);
	c->runnable_sum = sub_pos(c->runnable_sum, sa->runnable_sum);
	c->runnable_sum = max_u32(c->runnable_sum, c->runnable_avg * PELT_MIN_DIVIDER);
}

static u64 h_nr_runnable(const struct sl_cpu *rq, const struct eevdf_rq *cfs)
{
	return cfs->nr_queued - rq->nr_delayed;
}

void sl_eevdf_pelt_update(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se, int flags)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	u64 now = sl_pelt_clock(sim);

	sl_lb_mark(sim, rq->id);
	if (se && ee_se(se)->avg.last_update_time && !(flags & EE_SKIP_AGE_LOAD))
		sl_pelt_update_se(now, cfs, se);
	sl_pelt_update_cfs(now, cfs, h_nr_runnable(rq, cfs));
	if (!se)
		return;
	if (!ee_se(se)->avg.last_update_time && (flags & EE_DO_ATTACH))
		sl_pelt_attach(cfs, se);
	else if (flags & EE_DO_DETACH)
		sl_pelt_detach(cfs, se);
}

/*
 * migrate_task_rq_fair for a task that is not on a runqueue (a wake-up elsewhere): its
 * averages, decayed to the old cfs_rq's last update (or to now when that CPU is idle, where
 * the kernel estimates the idle CPU's clock), are queued for removal there. Either way it is
 * attached again at its next enqueue.
 */
void sl_eevdf_pelt_migrate(struct sl_sim *sim, struct sl_task *p)
{
	struct sched_entity *se = &p->se;
	struct sl_cpu *src = &sim->cpus[p->cpu];

	if (!ee_se(se)->avg.last_update_time)
		return; /* a new task, or one detached by a balancer's move */
	sl_eevdf_pelt_remove(sim, src, se);
	if (!src->curr)
		sl_pelt_update_blocked_se(sl_pelt_clock(sim), se);
	ee_se(se)->avg.last_update_time = 0;
}

void sl_eevdf_pelt_remove(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sl_pelt_avg *sa = &ee_se(se)->avg;

	sl_pelt_update_blocked_se(cfs->avg.last_update_time, se);
	cfs->removed_nr++;
	cfs->removed_util += sa->util_avg;
	cfs->removed_load += sa->load_avg;
	cfs->removed_runnable += sa->runnable_avg;
}

/* init_entity_runnable_average (fork): all zero but load_avg, a task's weight */
void sl_eevdf_pelt_init(struct sched_entity *se)
{
	ee_se(se)->avg = (struct sl_pelt_avg){.load_avg = se_weight(se)};
}

/*
 * post_init_entity_util_avg (the first enqueue): half the CPU's spare capacity at most; the
 * cfs_rq's utilization per unit of its load, times the task's weight, when the cfs_rq has any.
 */
void sl_eevdf_pelt_post_init(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se)
{
	struct sl_pelt_avg *sa = &ee_se(se)->avg, *c = &ee_rq_of(sim, rq)->avg;
	s64 cap = ((s64)CAPACITY_SCALE - (s64)c->util_avg) / 2;

	if (cap > 0) {
		if (c->util_avg) {
			sa->util_avg = c->util_avg * se_weight(se) / (c->load_avg + 1);
			if (sa->util_avg > (u64)cap)
				sa->util_avg = (u64)cap;
		} else {
			sa->util_avg = (u64)cap;
		}
	}
	sa->runnable_avg = sa->util_avg;
}

/* ---- util_est ---- */

#define UTIL_EST_WEIGHT_SHIFT 2
#define UTIL_EST_MARGIN	      (CAPACITY_SCALE / 100)

static u32 task_util_est_(const struct sched_entity *se)
{
	return ee_se(se)->avg.util_est & ~SL_UTIL_AVG_UNCHANGED;
}

void sl_eevdf_util_est_enqueue(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se)
{
	sl_lb_mark(sim, rq->id);
	if (sched_feat(sim, F_UTIL_EST))
		ee_rq_of(sim, rq)->avg.util_est += task_util_est_(se);
}

void sl_eevdf_util_est_dequeue(struct sl_sim *sim, struct sl_cpu *rq, struct sched_entity *se)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	u32 t = task_util_est_(se);

	sl_lb_mark(sim, rq->id);
	if (sched_feat(sim, F_UTIL_EST))
		cfs->avg.util_est -= cfs->avg.util_est < t ? cfs->avg.util_est : t;
}

/*
 * util_est_update at a sleep: the estimate jumps up to util_avg, and moves down a quarter of
 * the way when the drop is 1% of the scale or more and the task was not kept waiting (runnable
 * more than 1% above util); sampled once per change of util_avg.
 */
void sl_eevdf_util_est_update(struct sl_sim *sim, struct sched_entity *se, bool sleep)
{
	struct sl_pelt_avg *sa = &ee_se(se)->avg;
	u32 ewma = sa->util_est, dequeued, diff;

	if (!sched_feat(sim, F_UTIL_EST) || !sleep || (ewma & SL_UTIL_AVG_UNCHANGED))
		return;
	dequeued = (u32)sa->util_avg;
	if (ewma <= dequeued) {
		ewma = dequeued;
		goto done;
	}
	diff = ewma - dequeued;
	if (diff < UTIL_EST_MARGIN)
		goto done;
	if (dequeued > CAPACITY_SCALE)
		return;
	if (dequeued + UTIL_EST_MARGIN < sa->runnable_avg)
		goto done;
	ewma <<= UTIL_EST_WEIGHT_SHIFT;
	ewma -= diff;
	ewma >>= UTIL_EST_WEIGHT_SHIFT;
done:
	sa->util_est = ewma | SL_UTIL_AVG_UNCHANGED;
}

/* cpu_util_cfs: the cfs_rq's util_avg as last updated, raised to its util_est, capped */
u64 sl_eevdf_cpu_util(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	return sl_eevdf_cpu_util_ue(sim, rq, sched_feat(sim, F_UTIL_EST));
}

/* the same with UTIL_EST given (the balancer's kept statistics read the flag without
 * recording it, where the walk would not have read it) */
u64 sl_eevdf_cpu_util_ue(const struct sl_sim *sim, const struct sl_cpu *rq, bool util_est)
{
	const struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	u64 util = cfs->avg.util_avg;

	if (util_est && cfs->avg.util_est > util)
		util = cfs->avg.util_est;
	return util < CAPACITY_SCALE ? util : CAPACITY_SCALE;
}

/* ---- SIS_UTIL ---- */

unsigned sl_eevdf_idle_scan(u64 sum_util, unsigned llc_weight, unsigned pct)
{
	u64 x, tmp, y;

	if (!llc_weight)
		return 0;
	/* the LLC's mean utilization x; the budget y = llc (1 - x^2 pct^2 / (10000 x 1024^2)),
	 * which reaches 0 at x = 1024 x 100 / pct (875 for 117: the overloaded threshold) */
	x = sum_util / llc_weight;
	tmp = x * x * pct * pct / (10000ULL * CAPACITY_SCALE);
	if (tmp > CAPACITY_SCALE)
		tmp = CAPACITY_SCALE;
	y = (CAPACITY_SCALE - tmp) * llc_weight / CAPACITY_SCALE;
	return (unsigned)y;
}

void sl_eevdf_update_idle_scan(struct sl_sim *sim, struct sl_cpu *dst, unsigned pct)
{
	const int *llc_next = sim->class_state;
	int n = dst->llc_size, c = dst->id;
	u64 sum = 0;
	unsigned y;

	if (!sched_feat(sim, F_SIS_UTIL) || !llc_next)
		return;
	for (int k = 0; k < n; k++, c = llc_next[c])
		sum += sl_eevdf_cpu_util(sim, &sim->cpus[c]);
	y = sl_eevdf_idle_scan(sum, (unsigned)n, pct);
	for (int k = 0; k < n; k++, c = llc_next[c])
		ee_rq_of(sim, &sim->cpus[c])->nr_idle_scan = y;
}
