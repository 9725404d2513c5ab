/*
 * EEVDF time accounting and choice (docs/model/eevdf.md §4): update_curr and update_deadline, slice
 * protection (RUN_TO_PARITY), place_entity with lag, and __pick_eevdf.
 *
 * __pick_eevdf here walks the deadline tree in order and takes the first eligible entity; the
 * kernel descends a tree augmented with subtree min_vruntime. Both return the eligible entity
 * with the earliest deadline (ties: the earlier insertion), so the choice is the same; ours is
 * O(n), which is fine for the few tasks a run holds.
 */
#include "sched/eevdf/eevdf.h"
#include "sched/common.h"
#include "sched/class.h"

/* A new request when the current one is used up: d = v + vslice, from the current v. */
bool sl_eevdf_update_deadline(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se)
{
	if ((s64)(se->vruntime - ee_se(se)->deadline) < 0)
		return false;
	if (!se->custom_slice)
		ee_se(se)->slice = sim->tun.sched_base_slice;
	ee_se(se)->deadline = se->vruntime + sl_eevdf_calc_delta_fair(ee_se(se)->slice, se);
	sl_eevdf_avg_vruntime(cfs);
	return true;
}

bool sl_eevdf_protect_slice(const struct sched_entity *se)
{
	return (s64)(ee_se(se)->vprot - se->vruntime) > 0;
}

/*
 * At a real pick (not a re-pick of prev): curr may run until vprot before anyone else is
 * considered. RUN_TO_PARITY: the smallest slice queued (the tree, se removed), else 0.7 ms.
 */
void sl_eevdf_set_protect_slice(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se)
{
	u64 slice =
		sched_feat(sim, F_RUN_TO_PARITY) ? sl_eevdf_min_slice(cfs) : EEVDF_NORMALIZED_SLICE;

	if (ee_se(se)->slice < slice)
		slice = ee_se(se)->slice;
	ee_se(se)->vprot = ee_se(se)->deadline;
	if (slice != ee_se(se)->slice)
		ee_se(se)->vprot = min_vruntime(ee_se(se)->deadline,
						se->vruntime + sl_eevdf_calc_delta_fair(slice, se));
}

/* A shorter-slice wakee did not preempt: curr's protection shrinks to that slice. */
void sl_eevdf_update_protect_slice(struct eevdf_rq *cfs, struct sched_entity *se)
{
	u64 slice = sl_eevdf_min_slice(cfs);

	if (ee_se(se)->slice < slice)
		slice = ee_se(se)->slice;
	ee_se(se)->vprot =
		min_vruntime(ee_se(se)->vprot, se->vruntime + sl_eevdf_calc_delta_fair(slice, se));
}

void sl_eevdf_cancel_protect_slice(struct sched_entity *se)
{
	if (sl_eevdf_protect_slice(se))
		ee_se(se)->vprot = se->vruntime;
}

void sl_eevdf_clear_buddies(struct eevdf_rq *cfs, struct sched_entity *se)
{
	if (cfs->next == se) {
		cfs->next = NULL;
		cfs->next_forced = false;
	}
}

/*
 * update_curr: charge the run time, move v, renew the deadline when it is reached. A reached
 * deadline or an expired protection asks for a reschedule (taken at the next return to user:
 * the tick for a CPU hog, hence 4 ms turns at HZ=250 whatever the 1.4 ms slice).
 */
void sl_eevdf_update_curr(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sched_entity *curr = cfs->curr;
	s64 delta;
	bool resched;

	if (!curr)
		return;
	delta = (s64)(sim->now - curr->exec_start);
	if (delta <= 0)
		return;
	curr->exec_start = sim->now;
	curr->sum_exec_runtime += (u64)delta;
	curr->vruntime += sl_eevdf_calc_delta_fair((u64)delta, curr);
	resched = sl_eevdf_update_deadline(sim, cfs, curr);
	if (cfs->nr_queued == 1)
		return;
	if (resched || !sl_eevdf_protect_slice(curr)) {
		sl_resched_cpu(sim, rq);
		sl_eevdf_clear_buddies(cfs, curr);
	}
}

/*
 * place_entity: start at V minus the saved lag, inflated by (W + w) / W so that adding the
 * entity leaves its lag intact; the deadline is a relative one carried over (migration) or a
 * new request (half of it for a fork with PLACE_DEADLINE_INITIAL).
 */
void sl_eevdf_place_entity(struct sl_sim *sim, struct eevdf_rq *cfs, struct sched_entity *se,
			   int flags)
{
	u64 vruntime = sl_eevdf_avg_vruntime(cfs), vslice;
	s64 lag = 0;

	if (!se->custom_slice)
		ee_se(se)->slice = sim->tun.sched_base_slice;
	vslice = sl_eevdf_calc_delta_fair(ee_se(se)->slice, se);
	if (sched_feat(sim, F_PLACE_LAG) && cfs->nr_queued && ee_se(se)->vlag) {
		struct sched_entity *curr = cfs->curr;
		s64 load = (s64)cfs->sum_weight;

		lag = ee_se(se)->vlag;
		if (curr && curr->on_rq)
			load += (s64)scale_load_down(curr->load.weight);
		lag *= load + (s64)scale_load_down(se->load.weight);
		if (!load)
			load = 1;
		lag /= load; /* div_s64: truncates toward zero */
	}
	se->vruntime = vruntime - (u64)lag;
	if (sched_feat(sim, F_PLACE_REL_DEADLINE) && se->rel_deadline) {
		ee_se(se)->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	if (sched_feat(sim, F_PLACE_DEADLINE_INITIAL) && (flags & EE_ENQUEUE_INITIAL))
		vslice /= 2;
	ee_se(se)->deadline = se->vruntime + vslice;
}

/*
 * __pick_eevdf. curr is the running entity: outside the tree (cfs->curr, the kernel's case), or
 * put back into it by the model's put_prev (pick_next_task passes it so that its protection
 * still counts; in the tree it competes like the kernel's curr, since it was inserted last and
 * loses deadline ties as curr does).
 */
struct sched_entity *sl_eevdf_pick_eevdf(struct sl_sim *sim, struct eevdf_rq *cfs,
					 struct sched_entity *curr, bool protect)
{
	struct sched_entity *best = NULL, *outside = cfs->curr;

	(void)sim;
	if (cfs->nr_queued == 1)
		return outside && outside->on_rq ? outside : sl_eevdf_first(cfs);
	if (curr && (!curr->on_rq || !sl_eevdf_entity_eligible(cfs, curr)))
		curr = NULL;
	if (curr && protect && sl_eevdf_protect_slice(curr))
		return curr;
	best = sl_eevdf_first_eligible(cfs);
	if (curr && curr == outside &&
	    (!best || (s64)(ee_se(curr)->deadline - ee_se(best)->deadline) < 0))
		best = curr;
	return best ? best : sl_eevdf_first(cfs);
}

/*
 * The machine's wake_skip_delayed (WF_SKIP_DELAYED): the pick above among the runnable entities
 * only, a delayed one (asleep, left queued by DELAY_DEQUEUE) passed over; curr's protection
 * counts as there, and curr wins only with a deadline strictly earlier. A scan of the queue,
 * made only where the pick returned a delayed entity; of equal deadlines the one queued
 * first, as the tree's leftmost.
 */
struct sched_entity *sl_eevdf_pick_runnable(struct eevdf_rq *cfs, bool protect)
{
	struct sched_entity *curr = cfs->curr, *best = NULL, *e;

	if (curr && (!curr->on_rq || !sl_eevdf_entity_eligible(cfs, curr)))
		curr = NULL;
	if (curr && protect && sl_eevdf_protect_slice(curr))
		return curr;
	for (e = TAILQ_FIRST(&cfs->tasks); e; e = TAILQ_NEXT(e, group_node))
		if (e != cfs->curr && !e->sched_delayed && sl_eevdf_entity_eligible(cfs, e) &&
		    (!best || (s64)(ee_se(e)->deadline - ee_se(best)->deadline) <= 0))
			best = e;
	if (curr && (!best || (s64)(ee_se(curr)->deadline - ee_se(best)->deadline) < 0))
		best = curr;
	return best;
}

struct sched_entity *sl_eevdf_pick_next_entity(struct sl_sim *sim, struct eevdf_rq *cfs,
					       struct sched_entity *curr)
{
	if (sched_feat(sim, F_PICK_BUDDY) && cfs->next &&
	    (cfs->next_forced || sl_eevdf_entity_eligible(cfs, cfs->next)))
		return cfs->next;
	return sl_eevdf_pick_eevdf(sim, cfs, curr, true);
}
