/*
 * Group scheduling of 2.6.31 as distributions shipped it: CONFIG_FAIR_GROUP_SCHED with
 * CONFIG_USER_SCHED (docs/model/cfs.md §7). One task group per uid, each a child of the root
 * group: on every CPU a group has an entity queued on the CPU's root runqueue (cfs_rq_of_cpu)
 * and a runqueue of its own holding the uid's tasks there. uid 0's group (init_task_group)
 * starts with 2 x NICE_0_LOAD, the others with NICE_0_LOAD. The per-CPU weight of a group's entity
 * is its share of tg->shares, recomputed by update_shares() (rate-limited by
 * sched_shares_ratelimit, changed only beyond sched_shares_thresh) from the weights of the group's
 * runqueues over a domain (tg_shares_up / update_group_shares_cpu of kernel/sched.c).
 * effective_load() (the 2.6.31 kernel/sched_fair.c one) gives wake_affine the load change a wake-up
 * would make as the root runqueue sees it.
 */
#include "sched/cfs/cfs.h"

#include <stdlib.h>

static struct sl_tg *tg_new(struct sl_sim *sim, int uid, u64 shares)
{
	struct sl_tg *tg = calloc(1, sizeof(*tg));

	if (!tg)
		return NULL;
	tg->se = calloc((size_t)sim->ncpu, sizeof(*tg->se));
	tg->cfs_rq = calloc((size_t)sim->ncpu, sizeof(*tg->cfs_rq));
	if (!tg->se || !tg->cfs_rq) {
		free(tg->se);
		free(tg->cfs_rq);
		free(tg);
		return NULL;
	}
	tg->uid = uid;
	/* sched_group_set_shares' clamp (a --param outside it is taken as the kernel would) */
	tg->shares = shares < SL_MIN_SHARES   ? SL_MIN_SHARES
		     : shares > SL_MAX_SHARES ? SL_MAX_SHARES
					      : shares;
	for (int c = 0; c < sim->ncpu; c++) {
		/* init_tg_cfs_entry: the runqueue zeroed but for init_cfs_rq, its shares 0; the
		 * entity zeroed (vruntime 0, avg_wakeup 0) with the group's whole shares as weight
		 */
		sl_cfs_rq_init(&tg->cfs_rq[c]);
		tg->cfs_rq[c].tg = tg;
		tg->cfs_rq[c].cpu = c;
		tg->se[c].my_q = &tg->cfs_rq[c];
		tg->se[c].load.weight = tg->shares;
		tg->se[c].load.inv_weight = 0;
	}
	return tg;
}

static int tg_add(struct sl_sim *sim, int uid, u64 shares)
{
	if (sim->ntgs == sim->captgs) {
		int cap = sim->captgs ? 2 * sim->captgs : 4;
		struct sl_tg **n = realloc(sim->tgs, (size_t)cap * sizeof(*n));

		if (!n)
			return -1;
		sim->tgs = n;
		sim->captgs = cap;
	}
	struct sl_tg *tg = tg_new(sim, uid, shares);

	if (!tg)
		return -1;
	sim->tgs[sim->ntgs++] = tg;
	return 0;
}

struct sl_tg *sl_tg_of_uid(struct sl_sim *sim, int uid)
{
	/* init_task_group (uid 0) exists from boot: it is the oldest group */
	if (!sim->ntgs && tg_add(sim, 0, sim->tg_root_shares))
		return NULL;
	for (int i = 0; i < sim->ntgs; i++)
		if (sim->tgs[i]->uid == uid)
			return sim->tgs[i];
	/* sched_create_user on the uid's first task: NICE_0_LOAD */
	if (tg_add(sim, uid, sim->tg_user_shares))
		return NULL;
	return sim->tgs[sim->ntgs - 1];
}

void sl_tg_free_all(struct sl_sim *sim)
{
	for (int i = 0; i < sim->ntgs; i++) {
		free(sim->tgs[i]->se);
		free(sim->tgs[i]->cfs_rq);
		free(sim->tgs[i]);
	}
	free(sim->tgs);
	sim->tgs = NULL;
	sim->ntgs = sim->captgs = 0;
}

/* __set_se_shares: a queued entity is dequeued and enqueued again around the change */
static void set_se_shares(struct sl_sim *sim, struct sched_entity *se, u64 shares)
{
	struct cfs_rq *cfs = cfs_rq_of_cpu(&sim->cpus[se->my_q->cpu]);
	int on_rq = se->on_rq;

	if (on_rq)
		sl_dequeue_entity(sim, cfs, se);
	se->load.weight = shares;
	se->load.inv_weight = 0;
	if (on_rq)
		sl_enqueue_entity(sim, cfs, se, 0);
}

/* update_group_shares_cpu */
static void update_group_shares_cpu(struct sl_sim *sim, struct sl_tg *tg, int cpu, u64 sd_shares,
				    u64 sd_rq_weight)
{
	struct cfs_rq *cfs = &tg->cfs_rq[cpu];
	struct sched_entity *se = &tg->se[cpu];
	u64 shares;
	int diff;

	if (!sd_rq_weight) /* never: every CPU counts at least NICE_0_LOAD */
		return;
	shares = sd_shares * cfs->rq_weight / sd_rq_weight;

	if (shares < SL_MIN_SHARES)
		shares = SL_MIN_SHARES;
	if (shares > SL_MAX_SHARES)
		shares = SL_MAX_SHARES;
	/* the kernel's abs() of 2.6.31 goes through an int */
	diff = (int)(shares - se->load.weight);
	if (diff < 0)
		diff = -diff;
	if ((u64)diff > sim->tun.sched_shares_thresh) {
		cfs->shares = shares;
		set_se_shares(sim, se, shares);
	}
}

void sl_tg_shares_up(struct sl_sim *sim, struct sl_tg *tg, const int *span, int nspan, bool top)
{
	u64 rq_weight = 0, shares = 0;

	for (int k = 0; k < nspan; k++) {
		struct cfs_rq *cfs = &tg->cfs_rq[span[k]];
		/* an empty runqueue counts as one nice-0 task, so a task arriving there is not
		 * starved by a near-zero share */
		u64 w = cfs->load.weight ? cfs->load.weight : NICE_0_LOAD;

		cfs->rq_weight = w;
		rq_weight += w;
		shares += cfs->shares;
	}
	if ((!shares && rq_weight) || shares > tg->shares)
		shares = tg->shares;
	if (top)
		shares = tg->shares;
	for (int k = 0; k < nspan; k++)
		update_group_shares_cpu(sim, tg, span[k], shares, rq_weight);
}

void sl_update_shares(struct sl_sim *sim, struct sl_sched_domain *sd, int cpu, int level)
{
	struct sl_cpu *rq = &sim->cpus[cpu];
	bool top;

	if (!sim->group_sched || !sim->ntgs)
		return;
	if ((s64)(sim->now - sd->shares_update) < (s64)sim->tun.sched_shares_ratelimit)
		return;
	sd->shares_update = sim->now;
	top = level + 1 >= rq->nsd || !(rq->sd[level + 1].flags & SD_LOAD_BALANCE);
	/* walk_tg_tree(tg_nop, tg_shares_up): the children in list order (the newest first,
	 * list_add_rcu puts a new group at the head), then the root, whose tg_shares_up does
	 * nothing (it has no entities) */
	for (int i = sim->ntgs - 1; i >= 0; i--)
		sl_tg_shares_up(sim, sim->tgs[i], sd->span, sd->nspan, top);
}

void sl_update_h_load(struct sl_sim *sim, int cpu)
{
	struct cfs_rq *root = cfs_rq_of_cpu(&sim->cpus[cpu]);

	/* tg_load_down: the root's h_load is the CPU's load; a child's, its share of it */
	root->h_load = sim->cpus[cpu].load.weight;
	for (int i = sim->ntgs - 1; i >= 0; i--) {
		struct cfs_rq *cfs = &sim->tgs[i]->cfs_rq[cpu];

		cfs->h_load = root->h_load * cfs->shares / (root->load.weight + 1);
	}
}

s64 sl_effective_load(struct sl_sim *sim, struct sl_tg *tg, int cpu, s64 wl, s64 wg)
{
	struct sched_entity *se;

	/* the root group (no task of the model's is in it): the change itself */
	if (!tg)
		return wl;
	se = &tg->se[cpu];
	if (!wl && sched_feat(sim, F_ASYM_EFF_LOAD))
		return wl;
	for (; se; se = sl_parent_entity(se)) {
		struct cfs_rq *q = se->my_q;
		/* the weight queued since the shares were last computed */
		s64 more_w = (s64)(q->load.weight - q->rq_weight);
		s64 S, s, rw, a, b;

		wl += more_w;
		wg += more_w;
		S = (s64)tg->shares;
		s = (s64)q->shares;
		rw = (s64)q->rq_weight;
		a = S * (rw + wl);
		b = S * rw + s * wg;
		wl = s * (a - b);
		if (b)
			wl /= b;
		wg = 0;
	}
	return wl;
}

void sl_tg_set_shares(struct sl_sim *sim, struct sl_tg *tg, u64 shares)
{
	if (shares < SL_MIN_SHARES)
		shares = SL_MIN_SHARES;
	else if (shares > SL_MAX_SHARES)
		shares = SL_MAX_SHARES;
	if (tg->shares == shares)
		return;
	tg->shares = shares;
	for (int c = 0; c < sim->ncpu; c++) {
		tg->cfs_rq[c].shares = 0; /* "force a rebalance" */
		set_se_shares(sim, &tg->se[c], shares);
	}
}
