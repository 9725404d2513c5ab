/*
 * EEVDF arithmetic and bookkeeping (docs/model/eevdf.md §3, §4): 1024<<10 weights, the truncating
 * __calc_delta, the deadline-ordered tree with its sums S and W kept around zero_vruntime, the
 * weighted average V, eligibility and lag. Integer arithmetic is the kernel's, rounding
 * included: V is a floor division, lag scaling and __calc_delta truncate.
 */
#include "sched/eevdf/eevdf.h"
#include "sched/common.h"
#include "sched/rb_augment.h"

#include <stdlib.h>

#define WMULT_CONST_6 0xffffffffULL /* ~0U */

void sl_eevdf_set_load_weight(struct sl_task *p)
{
	if (p->policy == SL_SCHED_IDLE) {
		p->se.load.weight = scale_load(WEIGHT_IDLEPRIO);
		p->se.load.inv_weight = WMULT_IDLEPRIO;
		return;
	}
	/* the 2.6.3x tables, unchanged; only the weight is scaled */
	p->se.load.weight = scale_load(sl_prio_to_weight[p->nice + 20]);
	p->se.load.inv_weight = sl_prio_to_wmult[p->nice + 20];
}

static int fls64(u64 x)
{
	int n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

/* A weight set without a table value gets its inverse lazily (never for a task). */
static void update_inv_weight(struct sl_load_weight *lw)
{
	u64 w = scale_load_down(lw->weight);

	if (w >= WMULT_CONST_6)
		lw->inv_weight = 1;
	else if (!w)
		lw->inv_weight = WMULT_CONST_6;
	else
		lw->inv_weight = WMULT_CONST_6 / w;
}

/*
 * delta * weight / lw.weight as the kernel computes it: a 32-bit fixed-point factor from the
 * inverse weight, renormalised by fls so it fits 32 bits, then a 128-bit product shifted right:
 * truncation, no rounding term (2.6.32 rounded).
 */
u64 sl_eevdf_calc_delta(u64 delta, u64 weight, struct sl_load_weight *lw)
{
	u64 fact = scale_load_down(weight);
	int shift = 32;

	if (!lw->inv_weight)
		update_inv_weight(lw);
	if (fact >> 32) {
		int s = fls64(fact >> 32);

		shift -= s;
		fact >>= s;
	}
	fact = (u64)(u32)fact * lw->inv_weight;
	if (fact >> 32) {
		int s = fls64(fact >> 32);

		shift -= s;
		fact >>= s;
	}
	return (u64)(((unsigned __int128)delta * fact) >> shift);
}

u64 sl_eevdf_calc_delta_fair(u64 delta, const struct sched_entity *se)
{
	struct sl_load_weight lw = se->load;

	if (se->load.weight == EEVDF_NICE_0_LOAD)
		return delta;
	return sl_eevdf_calc_delta(delta, EEVDF_NICE_0_LOAD, &lw);
}

/* get_update_sysctl_factor: NONE 1, LOG 1 + ilog2(min(n, 8)), LINEAR min(n, 8) */
u64 sl_eevdf_scaling_factor(u64 scaling, int ncpu)
{
	/* online CPUs, at least 1 (tunables that were never boot-scaled say 0; the kernel's
	 * count always includes the boot CPU) */
	u64 n = ncpu < 1 ? 1 : ncpu < 8 ? (u64)ncpu : 8;

	switch (scaling) {
	case 0:
		return 1;
	case 2:
		return n;
	default:
		return 1 + (u64)sl_ilog2(n);
	}
}

/* sched_init_granularity: base_slice = factor x normalized (2 CPUs, log: 2 x 0.7 ms) */
void sl_eevdf_init_granularity(struct sl_tunables *t, int ncpu)
{
	t->ncpu_online = (u64)ncpu;
	t->sched_base_slice = sl_eevdf_scaling_factor(t->sched_tunable_scaling, ncpu) *
			      t->sched_normalized_base_slice;
}

/* sched_update_scaling, after a write of tunable_scaling: normalized = base / factor */
void sl_eevdf_update_scaling(struct sl_tunables *t)
{
	t->sched_normalized_base_slice =
		t->sched_base_slice /
		sl_eevdf_scaling_factor(t->sched_tunable_scaling, (int)t->ncpu_online);
}

/* ---- the tree: by deadline, equal deadlines go right (FIFO) ---- */

static int ee_cmp(struct sched_entity *a, struct sched_entity *b)
{
	s64 d = (s64)(ee_se(a)->deadline - ee_se(b)->deadline);

	if (d < 0)
		return -1;
	if (d > 0)
		return 1;
	return a->rb_seq < b->rb_seq ? -1 : (a->rb_seq > b->rb_seq);
}

/*
 * The augmentation: each node keeps the least and greatest slice and the least vruntime of its
 * subtree (the kernel keeps min_slice and min_vruntime the same way), so the tree's min and max
 * slice are the root's and the pick descends to the first eligible entity.
 * tree.h calls RB_AUGMENT on the nodes a rotation moves; enqueue and dequeue below bring the
 * path they change up to date.
 */
static void ee_augment(struct sched_entity *se)
{
	struct sched_entity *l, *r;
	u64 mn, mx;

	if (!se)
		return;
	u64 mv;

	l = RB_LEFT(se, run_node);
	r = RB_RIGHT(se, run_node);
	mn = mx = ee_se(se)->slice;
	mv = se->vruntime;
	if (l) {
		mn = ee_se(l)->min_slice < mn ? ee_se(l)->min_slice : mn;
		mx = ee_se(l)->max_slice > mx ? ee_se(l)->max_slice : mx;
		mv = (s64)(ee_se(l)->min_vruntime - mv) < 0 ? ee_se(l)->min_vruntime : mv;
	}
	if (r) {
		mn = ee_se(r)->min_slice < mn ? ee_se(r)->min_slice : mn;
		mx = ee_se(r)->max_slice > mx ? ee_se(r)->max_slice : mx;
		mv = (s64)(ee_se(r)->min_vruntime - mv) < 0 ? ee_se(r)->min_vruntime : mv;
	}
	ee_se(se)->min_slice = mn;
	ee_se(se)->max_slice = mx;
	ee_se(se)->min_vruntime = mv;
}

#undef RB_AUGMENT
#define RB_AUGMENT(x) ee_augment(x)

RB_PROTOTYPE(sl_eevdf_tree, sched_entity, run_node, ee_cmp);
RB_GENERATE(sl_eevdf_tree, sched_entity, run_node, ee_cmp)
SL_RB_GENERATE_REMOVE_AUGMENTED(sl_eevdf_tree, sched_entity, run_node, ee_augment)

void sl_eevdf_rq_init(struct eevdf_rq *cfs)
{
	RB_INIT(&cfs->timeline);
	TAILQ_INIT(&cfs->tasks);
	cfs->seq = 0;
	/* init_cfs_rq: never-run tasks show vruntime -1.048576 ms */
	cfs->zero_vruntime = (u64)(-(1LL << 20));
	cfs->sum_w_vruntime = 0;
	cfs->sum_weight = 0;
	cfs->load = 0;
	cfs->curr = cfs->next = cfs->last_put = NULL;
	cfs->next_forced = false;
	cfs->nr_queued = 0;
}

static s64 entity_key(const struct eevdf_rq *cfs, const struct sched_entity *se)
{
	return (s64)(se->vruntime - cfs->zero_vruntime);
}

void sl_eevdf_enqueue_tree(struct eevdf_rq *cfs, struct sched_entity *se)
{
	u64 w = scale_load_down(se->load.weight);

	se->rb_seq = cfs->seq++;
	/* the insertion path (RB_INSERT's own descent) gains se's slice before the rotations of
	 * the rebalancing recompute the nodes they move */
	ee_se(se)->min_slice = ee_se(se)->max_slice = ee_se(se)->slice;
	ee_se(se)->min_vruntime = se->vruntime;
	for (struct sched_entity *n = RB_ROOT(&cfs->timeline); n;
	     n = ee_cmp(se, n) < 0 ? RB_LEFT(n, run_node) : RB_RIGHT(n, run_node)) {
		if (ee_se(se)->slice < ee_se(n)->min_slice)
			ee_se(n)->min_slice = ee_se(se)->slice;
		if (ee_se(se)->slice > ee_se(n)->max_slice)
			ee_se(n)->max_slice = ee_se(se)->slice;
		if ((s64)(se->vruntime - ee_se(n)->min_vruntime) < 0)
			ee_se(n)->min_vruntime = se->vruntime;
	}
	RB_INSERT(sl_eevdf_tree, &cfs->timeline, se);
	cfs->sum_w_vruntime += entity_key(cfs, se) * (s64)w;
	cfs->sum_weight += w;
}

void sl_eevdf_dequeue_tree(struct eevdf_rq *cfs, struct sched_entity *se)
{
	u64 w = scale_load_down(se->load.weight);

	sl_eevdf_tree_remove_augmented(&cfs->timeline, se);
	cfs->sum_w_vruntime -= entity_key(cfs, se) * (s64)w;
	cfs->sum_weight -= w;
}

struct sched_entity *sl_eevdf_first(struct eevdf_rq *cfs)
{
	return RB_MIN(sl_eevdf_tree, &cfs->timeline);
}

struct sched_entity *sl_eevdf_next(struct sched_entity *se)
{
	return RB_NEXT(sl_eevdf_tree, NULL, se);
}

/* The augmented subtree minimum/maximum of the root (exact, as after 09cd469c7330). */
u64 sl_eevdf_min_slice(struct eevdf_rq *cfs)
{
	struct sched_entity *root = RB_ROOT(&cfs->timeline);

#ifdef SL_EEVDF_CHECK_AUGMENT
	u64 m = ~0ULL;

	for (struct sched_entity *se = sl_eevdf_first(cfs); se; se = sl_eevdf_next(se))
		if (ee_se(se)->slice < m)
			m = ee_se(se)->slice;
	if (m != (root ? ee_se(root)->min_slice : ~0ULL))
		abort();
#endif
	return root ? ee_se(root)->min_slice : ~0ULL;
}

u64 sl_eevdf_max_slice(struct eevdf_rq *cfs)
{
	struct sched_entity *root = RB_ROOT(&cfs->timeline);

#ifdef SL_EEVDF_CHECK_AUGMENT
	u64 m = 0;

	for (struct sched_entity *se = sl_eevdf_first(cfs); se; se = sl_eevdf_next(se))
		if (ee_se(se)->slice > m)
			m = ee_se(se)->slice;
	if (m != (root ? ee_se(root)->max_slice : 0))
		abort();
#endif
	return root ? ee_se(root)->max_slice : 0;
}

static struct sched_entity *queued_curr(const struct eevdf_rq *cfs)
{
	return cfs->curr && cfs->curr->on_rq ? cfs->curr : NULL;
}

/* R = S (+ curr's key x w), T = W (+ w_curr): V's numerator and denominator, curr included */
static void sums_with_curr(const struct eevdf_rq *cfs, s64 *r, s64 *t)
{
	struct sched_entity *curr = queued_curr(cfs);

	*r = cfs->sum_w_vruntime;
	*t = (s64)cfs->sum_weight;
	if (curr) {
		s64 w = (s64)scale_load_down(curr->load.weight);

		*r += entity_key(cfs, curr) * w;
		*t += w;
	}
}

/*
 * V (6.18.17+ form): delta = floor(R / T), or curr's key alone when the tree is empty; then
 * zero_vruntime moves by delta and S follows, so the keys stay small. A call changes state, so
 * it is made only where the kernel makes it.
 */
u64 sl_eevdf_avg_vruntime(struct eevdf_rq *cfs)
{
	struct sched_entity *curr = queued_curr(cfs);
	s64 delta = 0;

	if (cfs->sum_weight) {
		s64 r, t;

		sums_with_curr(cfs, &r, &t);
		if (r < 0)
			r -= t - 1; /* C division truncates: this makes it a floor */
		delta = r / t;
	} else if (curr) {
		delta = entity_key(cfs, curr);
	}
	cfs->sum_w_vruntime -= (s64)cfs->sum_weight * delta;
	cfs->zero_vruntime += (u64)delta;
	return cfs->zero_vruntime;
}

/* Eligible iff lag >= 0, i.e. v <= V, tested without the division: R >= (v - z) * T. */
bool sl_eevdf_vruntime_eligible(const struct eevdf_rq *cfs, u64 vruntime)
{
	s64 r, t;

	sums_with_curr(cfs, &r, &t);
	return r >= (s64)(vruntime - cfs->zero_vruntime) * t;
}

bool sl_eevdf_entity_eligible(const struct eevdf_rq *cfs, const struct sched_entity *se)
{
	return sl_eevdf_vruntime_eligible(cfs, se->vruntime);
}

/*
 * The entity of the earliest deadline among the eligible ones (NULL: none), as an in-order walk
 * would find it: eligibility is monotone in vruntime, so a subtree holds an eligible entity iff
 * its least vruntime is eligible; descend left while the left subtree does (__pick_eevdf's
 * descent). O(log n).
 */
struct sched_entity *sl_eevdf_first_eligible(struct eevdf_rq *cfs)
{
	struct sched_entity *node = RB_ROOT(&cfs->timeline), *best = NULL;

	while (node) {
		struct sched_entity *l = RB_LEFT(node, run_node);

		if (l && sl_eevdf_vruntime_eligible(cfs, ee_se(l)->min_vruntime)) {
			node = l;
			continue;
		}
		if (sl_eevdf_entity_eligible(cfs, node)) {
			best = node;
			break;
		}
		node = RB_RIGHT(node, run_node);
	}
#ifdef SL_EEVDF_CHECK_AUGMENT
	struct sched_entity *walk = NULL;

	for (struct sched_entity *se = sl_eevdf_first(cfs); se; se = sl_eevdf_next(se))
		if (sl_eevdf_entity_eligible(cfs, se)) {
			walk = se;
			break;
		}
	if (walk != best)
		abort();
#endif
	return best;
}

/*
 * lag = V - v clamped to +-L, L = calc_delta_fair(max_slice + TICK_NSEC) with max_slice over
 * curr and the tree (the "Fix lag clamp" form in 6.18.y by 2026-04).
 */
s64 sl_eevdf_entity_lag(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se,
			u64 avruntime)
{
	struct sched_entity *curr = queued_curr(cfs);
	u64 max_slice = sl_eevdf_max_slice(cfs);
	s64 vlag = (s64)(avruntime - se->vruntime), limit;

	if (curr && ee_se(curr)->slice > max_slice)
		max_slice = ee_se(curr)->slice;
	limit = (s64)sl_eevdf_calc_delta_fair(max_slice + sim->tick_ns, se);
	if (vlag > limit)
		vlag = limit;
	if (vlag < -limit)
		vlag = -limit;
	return vlag;
}

void sl_eevdf_update_entity_lag(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se)
{
	ee_se(se)->vlag = sl_eevdf_entity_lag(sim, cfs, se, sl_eevdf_avg_vruntime(cfs));
}
