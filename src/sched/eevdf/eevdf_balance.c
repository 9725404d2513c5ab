/*
 * Where 6.18 runs a task on a 2-CPU machine with one LLC (docs/model/eevdf.md §5): the wake-up CPU
 * choice (wake_wide, wake_affine with WA_IDLE/WA_WEIGHT/WA_BIAS, select_idle_sibling), the fork
 * CPU (idlest), periodic balancing with the NO_HZ kick, and newidle balancing with NI_RANDOM.
 *
 * Simplifications, each a documented model choice:
 * - One scheduling domain holding every CPU (the target's single MC domain, one LLC): other
 *   topologies are balanced as if they were one LLC; groups are single CPUs.
 * - Loads are PELT's (eevdf_pelt.c: the CPUs' load_avg and the tasks', as last updated):
 *   wake_affine_weight's (the wakee's blocked load still on prev) and the balancer's
 *   (update_sg_lb_stats' group_load, detach_tasks' task_h_load). The balancer classifies each
 *   one-CPU group as 6.18 does from PELT's group_util (cpu_util_cfs) and group_runnable against
 *   capacity 1024 and imbalance_pct 117 (overloaded, fully busy, has spare); no group is ever
 *   misfit (no capacity pressure), SMT, asym or imbalanced (no parent domain), and the domain
 *   shares its LLC, so migrate_util and migrate_misfit never arise: an idle destination with
 *   spare capacity takes half the task difference (migrate_task), a busy one only from an
 *   overloaded group and only when itself fully busy or overloaded (migrate_load by avg_load).
 * - detach_tasks moves no delayed task, where 6.18 may under migrate_load [a simplification:
 *   a delayed task's migration is not modelled]; an all-pinned source counts as a failure.
 * - Balancing costs no simulated time by default, so max_newidle_lb_cost is 0 and the avg_idle
 *   cut-offs never stop a newidle pull. With the machine's newidle_cost (newidle_tail) a newidle
 *   balance that runs examines the other queues that long after its decision (and switches a
 *   pulled task in that much later), and 6.18's cost rules are live: the domain cost kept in
 *   max_newidle_lb_cost (decayed 253/256 a second), avg_idle updated at each wake-up onto the
 *   idle CPU, the gates, a task woken meanwhile counted as pulled (docs/model/eevdf.md §5.5).
 *   Periodic and idle balances still cost no time.
 * - No active balancing: a CPU-bound task that is running is never pushed; the waiting tasks
 *   are moved instead (on 2 CPUs there is always a waiting one when one CPU has >= 2).
 * - The target's private sched_vcpu_pack patch (vcpu_pack_room, CPU choice) has no source; it
 *   is not modelled [UNVERIFIED]: its effect must be measured on the target.
 * - SIS_UTIL: each periodic (not newidle) balance sets the LLC's idle-scan budget from the
 *   sum of its CPUs' cpu_util_cfs (PELT, eevdf_pelt.c), and select_idle_cpu looks at that
 *   many CPUs at most. With 2 CPUs the budget is one CPU below a mean of 619/1024 and none
 *   above it, where the wakee stays on its busy target (docs/model/eevdf.md, 5.6). The model's
 *   one domain is balanced as the LLC: the sum is over dst's LLC.
 * - Speed, not the model (docs/model/eevdf.md §5.8): on 64 CPUs or more the balancer keeps
 *   each CPU's group statistics, its sums and its busiest group between balances, taken again
 *   only for the CPUs whose inputs changed; the same integers as a walk of every CPU. A fork
 *   reads its idlest CPU from a tree over them (the walk's CPU and ties); the busiest and the
 *   idlest CPU are two trees of one kind (sched/rtree.c).
 */
#include "sched/eevdf/eevdf.h"
#include "sched/rtree.h"
#include "sched/class.h"
#include "sched/common.h"

#include <stdio.h>
#include <stdlib.h>

#define EE_IMBALANCE_PCT    117
#define EE_CACHE_NICE_TRIES 1
#define EE_BUSY_FACTOR	    16
#define EE_MIN_INTERVAL	    2 /* ms */
#define EE_MAX_INTERVAL	    4 /* ms */
#define EE_LB_MIN_LOAD	    16

/* the kept group statistics (below, "The group statistics kept between balances") */
#ifndef EE_LBC_MIN_CPUS
#define EE_LBC_MIN_CPUS 64 /* a check build may set it (1: every machine) */
#endif

struct ee_lbc {
	struct ee_sg_stats *sgs; /* each CPU's, as last taken */
	/* each CPU's busiest key (0: no runnable task), the greatest first (sched/rtree.c) */
	struct sl_rtree tree;
	u64 total_load; /* the sum of every CPU's group_load */
	int nr_over;	/* CPUs with nr_running + nr_delayed > 1 */
	u64 *llc_util;	/* per socket (LLC): the sum of its CPUs' group_util */
	s64 *llc_scan;	/* per socket: the nr_idle_scan its CPUs were last given, -1: none */
	bool util_est;	/* UTIL_EST as the statistics were taken */
	/* the fork's idlest CPU (below, "The idlest CPU kept for forks"): each CPU's idlest key,
	 * the least first; the CPUs whose statistics were taken since it was last brought up to
	 * date */
	struct sl_rtree itree;
	unsigned char *idirty;
	int *idirty_list, nidirty;
};

static bool share_cache(struct sl_sim *sim, int a, int b)
{
	return sim->cpus[a].socket == sim->cpus[b].socket;
}

/* available_idle_cpu: the idle task runs, nothing queued, no wake-up pending */
static bool idle_cpu(struct sl_sim *sim, int cpu)
{
	const struct sl_cpu *rq = &sim->cpus[cpu];

	return sl_rq_idle(rq) && !rq->need_resched;
}

/* sched_idle_cpu: every runnable task is SCHED_IDLE */
static bool sched_idle_cpu(struct sl_sim *sim, int cpu)
{
	struct sl_cpu *rq = &sim->cpus[cpu];
	struct sched_entity *se;

	if (!rq->nr_running)
		return false;
	TAILQ_FOREACH(se, &ee_rq_of(sim, rq)->tasks, group_node)
	{
		if (!se->sched_delayed && sl_task_of(se)->policy != SL_SCHED_IDLE)
			return false;
	}
	return true;
}

static bool idle_or_sched_idle(struct sl_sim *sim, int cpu)
{
	return idle_cpu(sim, cpu) || sched_idle_cpu(sim, cpu);
}

/* detach_tasks' load of a task: task_h_load (flat: its load_avg), at least 1 */
static s64 task_load(const struct sl_task *p)
{
	s64 l = (s64)ee_se(&p->se)->avg.load_avg;

	return l > 1 ? l : 1;
}

/* ---- wake-up ---- */

/* record_wakee: the waker's flips, halved once a second */
static void record_wakee(struct sl_sim *sim, struct sl_task *waker, struct sl_task *p)
{
	if (sim->now > ee_se(&waker->se)->wakee_flip_decay_ts + NSEC_PER_SEC) {
		ee_se(&waker->se)->wakee_flips >>= 1;
		ee_se(&waker->se)->wakee_flip_decay_ts = sim->now;
	}
	if (ee_se(&waker->se)->last_wakee != p) {
		ee_se(&waker->se)->last_wakee = p;
		ee_se(&waker->se)->wakee_flips++;
	}
}

/* wake_wide: a 1:N waker relation wider than the LLC spreads instead of pulling */
static bool wake_wide(struct sl_sim *sim, struct sl_task *waker, struct sl_task *p)
{
	unsigned master = ee_se(&waker->se)->wakee_flips, slave = ee_se(&p->se)->wakee_flips;
	unsigned factor = (unsigned)sim->cpus[p->cpu].llc_size; /* sd_llc_size */

	if (master < slave) {
		unsigned t = master;

		master = slave;
		slave = t;
	}
	return !(slave < factor || master < slave * factor);
}

static int wake_affine_idle(struct sl_sim *sim, int this_cpu, int prev, bool sync)
{
	if (idle_cpu(sim, this_cpu) && share_cache(sim, this_cpu, prev))
		return idle_cpu(sim, prev) ? prev : this_cpu;
	if (sync && sim->cpus[this_cpu].nr_running == 1)
		return this_cpu;
	if (idle_cpu(sim, prev))
		return prev;
	return -1;
}

/* PELT's cpu_load (the cfs_rq's load_avg) and task_h_load (flat: the task's load_avg), both as
 * last updated: select_task_rq_fair syncs neither on a machine without EAS */
static s64 pelt_cpu_load(struct sl_sim *sim, int cpu)
{
	return (s64)ee_rq_of(sim, &sim->cpus[cpu])->avg.load_avg;
}

static s64 pelt_task_load(const struct sl_task *p)
{
	return (s64)ee_se(&p->se)->avg.load_avg;
}

static int wake_affine_weight(struct sl_sim *sim, struct sl_task *p, int this_cpu, int prev,
			      bool sync)
{
	s64 this_eff = pelt_cpu_load(sim, this_cpu), prev_eff, tl = pelt_task_load(p);
	const s64 cap = 1024; /* capacity_of: no irq/steal time in the model */

	if (sync) {
		struct sl_task *curr = sim->cpus[this_cpu].curr;
		s64 cl = curr && curr->sched_class == &sl_eevdf_class ? pelt_task_load(curr) : 0;

		if (cl > this_eff)
			return this_cpu;
		this_eff -= cl;
	}
	this_eff += tl;
	if (sched_feat(sim, F_WA_BIAS))
		this_eff *= 100;
	this_eff *= cap;
	/* p is still attached to prev, its blocked load decaying there: load(prev) - load(p) */
	prev_eff = pelt_cpu_load(sim, prev) - tl;
	if (sched_feat(sim, F_WA_BIAS))
		prev_eff *= 100 + (EE_IMBALANCE_PCT - 100) / 2;
	prev_eff *= cap;
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff ? this_cpu : -1;
}

static int wake_affine(struct sl_sim *sim, struct sl_task *p, int this_cpu, int prev, bool sync)
{
	int target = -1;

	if (sched_feat(sim, F_WA_IDLE))
		target = wake_affine_idle(sim, this_cpu, prev, sync);
	if (target < 0 && sched_feat(sim, F_WA_WEIGHT))
		target = wake_affine_weight(sim, p, this_cpu, prev, sync);
	return target == this_cpu ? this_cpu : prev;
}

static int select_idle_sibling(struct sl_sim *sim, struct sl_task *p, int prev, int target)
{
	int recent;

	if (idle_or_sched_idle(sim, target))
		return target;
	if (prev != target && share_cache(sim, prev, target) && idle_or_sched_idle(sim, prev))
		return prev;
	recent = ee_se(&p->se)->recent_used_cpu;
	ee_se(&p->se)->recent_used_cpu = prev;
	if (recent >= 0 && recent != prev && recent != target && share_cache(sim, recent, target) &&
	    idle_or_sched_idle(sim, recent))
		return recent;
	/* select_idle_cpu: the LLC from target + 1, wrapping (the kernel's for_each_cpu_wrap over
	 * the LLC's mask): each CPU's next of its LLC in that order is kept, so the walk visits
	 * the LLC's CPUs only, not every CPU of the machine */
	const int *llc_next = sim->class_state;
	/* SIS_UTIL: nr_idle_scan + 1, decremented before each CPU is looked at; 1 is no scan */
	int nr = sim->cpus[target].llc_size;

	if (sched_feat(sim, F_SIS_UTIL)) {
		nr = (int)ee_rq_of(sim, &sim->cpus[target])->nr_idle_scan + 1;
		if (nr == 1)
			return target;
	}
	for (int k = 1, c = llc_next[target]; k < sim->cpus[target].llc_size;
	     k++, c = llc_next[c]) {
		if (--nr <= 0)
			return target;
		if (idle_cpu(sim, c))
			return c;
	}
	return target;
}

static void sg_stats(struct sl_sim *sim, int c, struct ee_sg_stats *sgs);
static struct ee_lbc *lbc_take(struct sl_sim *sim);
static int lbc_idlest(struct ee_lbc *l, int ncpu, int this_cpu);
static int lbc_new(struct sl_sim *sim, int nsock);
static void lbc_free(struct sl_sim *sim);
#ifdef SL_EEVDF_CHECK_LBC
static void lbc_check_cpu(struct sl_sim *sim, int c);
#endif

/* update_pick_idlest: a lower type; among overloaded or fully busy groups the lower avg_load,
 * among groups with spare capacity the more idle CPUs, then the lower util (the first of equals) */
static bool pick_idlest(const struct ee_sg_stats *idlest, const struct ee_sg_stats *sgs)
{
	if (sgs->group_type != idlest->group_type)
		return sgs->group_type < idlest->group_type;
	if (sgs->group_type != EE_GROUP_HAS_SPARE)
		return idlest->avg_load > sgs->avg_load;
	if (idlest->idle_cpus != sgs->idle_cpus)
		return sgs->idle_cpus > idlest->idle_cpus;
	return idlest->group_util > sgs->group_util;
}

/*
 * The fork's sched_balance_find_dst_cpu over the one domain of one-CPU groups (6.18's
 * sched_balance_find_dst_group with update_sg_wakeup_stats: a new task has no PELT share on any
 * CPU to leave out): the idlest allowed group by type (group_classify, as the balancer's), then
 * avg_load (computed for fully busy groups too) or idle CPUs and util; the local CPU is kept
 * unless that group is of a lower type, or of the same type and clearly idler: more idle CPUs,
 * or an avg_load below the local one by 1024 x (117 - 100) / 100 = 174 and by the 117% rule.
 */
static int idlest_choose(const struct ee_sg_stats *local, const struct ee_sg_stats *idlest,
			 bool have_local, int best, int this_cpu)
{
	u64 imb = 1024 * (EE_IMBALANCE_PCT - 100) / 100;

	if (best < 0)
		return this_cpu;
	if (!have_local || local->group_type > idlest->group_type)
		return best;
	if (local->group_type < idlest->group_type)
		return this_cpu;
	if (local->group_type != EE_GROUP_HAS_SPARE) {
		if (idlest->avg_load >= local->avg_load + imb ||
		    100 * local->avg_load <= EE_IMBALANCE_PCT * idlest->avg_load)
			return this_cpu;
		return best;
	}
	return local->idle_cpus >= idlest->idle_cpus ? this_cpu : best;
}

/* a CPU's kept statistics as find_idlest_cpu reads them */
static struct ee_sg_stats idlest_sgs(const struct ee_lbc *l, int c)
{
	struct ee_sg_stats sgs = l->sgs[c];

	if (sgs.group_type == EE_GROUP_FULLY_BUSY)
		sgs.avg_load = sgs.group_load * 1024 / sgs.group_capacity;
	return sgs;
}

static int find_idlest_cpu(struct sl_sim *sim, struct sl_task *p, int this_cpu, bool walk)
{
	struct ee_sg_stats local = {0}, idlest = {0}, sgs;
	bool have_local = false;
	int best = -1;

	struct ee_lbc *l = sim->lbc ? lbc_take(sim) : NULL;

	if (this_cpu < 0)
		this_cpu = 0;
	if (l && !walk && !p->cpus_allowed) {
		/* every CPU allowed: the kept tree's idlest after this_cpu in the walk's order */
		(void)sched_feat(sim, F_UTIL_EST); /* the walk's cpu_util read it */
		best = lbc_idlest(l, sim->ncpu, this_cpu);
		local = idlest_sgs(l, this_cpu);
		if (best >= 0)
			idlest = idlest_sgs(l, best);
		return idlest_choose(&local, &idlest, true, best, this_cpu);
	}
	for (int k = 0; k < sim->ncpu; k++) {
		int c = (this_cpu + k) % sim->ncpu;

		if (!sl_cpu_allowed(p, c))
			continue;
		if (l) {
			/* the kept statistics, UTIL_EST recorded as the walk's cpu_util read it */
			sgs = l->sgs[c];
			(void)sched_feat(sim, F_UTIL_EST);
#ifdef SL_EEVDF_CHECK_LBC
			lbc_check_cpu(sim, c);
#endif
		} else {
			sg_stats(sim, c, &sgs);
		}
		if (sgs.group_type == EE_GROUP_FULLY_BUSY)
			sgs.avg_load = sgs.group_load * 1024 / sgs.group_capacity;
		if (!k) {
			local = sgs;
			have_local = true;
		} else if (best < 0 || pick_idlest(&idlest, &sgs)) {
			idlest = sgs;
			best = c;
		}
	}
	return idlest_choose(&local, &idlest, have_local, best, this_cpu);
}

int sl_eevdf_find_idlest_cpu(struct sl_sim *sim, struct sl_task *p, int this_cpu, bool walk)
{
	return find_idlest_cpu(sim, p, this_cpu, walk);
}

int sl_eevdf_idle_scan_of(struct sl_sim *sim, int cpu)
{
	if (!sched_feat(sim, F_SIS_UTIL))
		return -1;
	return (int)ee_rq_of(sim, &sim->cpus[cpu])->nr_idle_scan;
}

int sl_eevdf_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			    int wake_flags)
{
	int prev = p->cpu, target = prev;
	struct sl_task *waker;

	/* ttwu_runnable: a delayed task is requeued where it is */
	if (p->se.sched_delayed)
		return prev;
	if (sd_flag & SD_BALANCE_FORK) {
#ifdef SL_EEVDF_CHECK_LBC
		int w = find_idlest_cpu(sim, p, this_cpu, true);

		if (w != find_idlest_cpu(sim, p, this_cpu, false)) {
			fprintf(stderr,
				"lbc: the fork's idlest CPU differs from the walk at %llu\n",
				(unsigned long long)sim->now);
			abort();
		}
#endif
		return find_idlest_cpu(sim, p, this_cpu, false);
	}
	if (this_cpu < 0)
		return select_idle_sibling(sim, p, prev, prev);
	waker = sim->cpus[this_cpu].curr;
	if (waker && waker != p)
		record_wakee(sim, waker, p);
	if (waker && waker != p && wake_wide(sim, waker, p))
		return select_idle_sibling(sim, p, prev, prev);
	if (this_cpu != prev)
		target = wake_affine(sim, p, this_cpu, prev, wake_flags & WF_SYNC);
	return select_idle_sibling(sim, p, prev, target);
}

/* one domain of all CPUs: only the LLC sizes (sd_llc_size), counted once per socket, and each
 * CPU's next CPU of its LLC by id, wrapping (sim->class_state, select_idle_sibling's walk) */
void sl_eevdf_build_domains(struct sl_sim *sim)
{
	int nsock = 0;
	int *n, *first, *last, *llc_next;

	for (int c = 0; c < sim->ncpu; c++)
		if (sim->cpus[c].socket + 1 > nsock)
			nsock = sim->cpus[c].socket + 1;
	n = calloc((size_t)(nsock ? nsock : 1), sizeof(int)); /* ncpu >= 1: nsock too */
	if (!n) {
		sim->oom = true;
		return;
	}
	for (int c = 0; c < sim->ncpu; c++)
		n[sim->cpus[c].socket]++;
	for (int c = 0; c < sim->ncpu; c++)
		sim->cpus[c].llc_size = n[sim->cpus[c].socket];
	free(n);
	first = malloc((size_t)(nsock ? nsock : 1) * sizeof(int));
	last = malloc((size_t)(nsock ? nsock : 1) * sizeof(int));
	llc_next = malloc((size_t)sim->ncpu * sizeof(int));
	if (!first || !last || !llc_next) {
		free(first);
		free(last);
		free(llc_next);
		sim->oom = true;
		return;
	}
	for (int s = 0; s < nsock; s++)
		first[s] = last[s] = -1;
	for (int c = 0; c < sim->ncpu; c++) {
		int s = sim->cpus[c].socket;

		if (last[s] < 0)
			first[s] = c;
		else
			llc_next[last[s]] = c;
		last[s] = c;
	}
	for (int s = 0; s < nsock; s++)
		if (last[s] >= 0)
			llc_next[last[s]] = first[s];
	free(first);
	free(last);
	sim->class_state = llc_next;
	/* the CPUs with no task and no reschedule pending, kept by sl_set_curr and
	 * sl_set_need_resched (sched.h): the NO_HZ stats kick's idle CPUs are among them */
	if (!sim->free_bits) {
		sim->free_bits = calloc((size_t)sim->lvl_words, sizeof(u64));
		if (!sim->free_bits) {
			sim->oom = true;
			return;
		}
		for (int c = 0; c < sim->ncpu; c++)
			sl_cpu_free_update(sim, &sim->cpus[c]);
	}
	if (sim->ncpu >= EE_LBC_MIN_CPUS && !sim->lbc && lbc_new(sim, nsock)) {
		sim->oom = true;
		return;
	}
	/* the tickless CPUs' next balance for the tick's NO_HZ kick (nohz_next.c), 6.18's only */
	if (!sim->nohz_due) {
		if (sl_nohz_next_init(sim)) {
			sim->oom = true;
			return;
		}
		for (int c = 0; c < sim->ncpu; c++)
			sl_nohz_next_set(sim, c, ee_rq_of(sim, &sim->cpus[c])->next_balance);
	}
}

void sl_eevdf_free_domains(struct sl_sim *sim)
{
	free(sim->class_state);
	sim->class_state = NULL;
	lbc_free(sim);
}

/*
 * NO_HZ_IDLE (tick_nohz_next_event): an idle CPU stops its tick unless its next timer event
 * falls within the tick period after the last jiffy, i.e. by the next tick: the timer wheel's
 * next timer (a wheel timer expires on a jiffy, so the coming tick would run it anyway), the
 * hrtimers being left out in high-resolution mode. Only a running tick is kept so; a stopped
 * one is re-programmed instead, and here the timer itself wakes the CPU. RCU, irq_work and the
 * architecture also keep the tick in the kernel; they are not modelled. Busy CPUs kick (below).
 */
bool sl_eevdf_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	if (!stop || rq->tick_stopped) {
		cfs->tick_kept = false;
		return false;
	}
	/* the wheel timer it was kept for runs from the coming tick (the model's fires on its
	 * own, maybe before): kept until that tick has run (sl_eevdf_tick_balance) */
	if (cfs->tick_kept)
		return true;
	cfs->tick_kept = sl_next_wheel_timer(sim, rq->id) <= sl_tick_next(sim);
	return cfs->tick_kept;
}

/* ---- moving tasks ---- */

static bool ee_task_hot(struct sl_sim *sim, struct sl_task *p, struct sl_cpu *src,
			struct sl_cpu *dst)
{
	if (sched_feat(sim, F_CACHE_HOT_BUDDY) && dst->nr_running &&
	    ee_rq_of(sim, src)->next == &p->se)
		return true;
	if (sim->tun.sched_migration_cost == (u64)(unsigned)-1)
		return true;
	if (!sim->tun.sched_migration_cost || !p->se.exec_start)
		return false;
	return (s64)(sim->now - p->se.exec_start) < (s64)sim->tun.sched_migration_cost;
}

static bool can_migrate(struct sl_sim *sim, struct sl_task *p, struct sl_cpu *src,
			struct sl_cpu *dst)
{
	if (src->curr == p || p->se.sched_delayed || p->se.on_rq != 1 ||
	    !sl_cpu_allowed(p, dst->id))
		return false;
	int failed = ee_rq_of(sim, dst)->nr_balance_failed;

	if (!failed && dst->nr_running && !sl_eevdf_entity_eligible(ee_rq_of(sim, src), &p->se))
		return false;
	if (failed <= EE_CACHE_NICE_TRIES && ee_task_hot(sim, p, src, dst))
		return false;
	return true;
}

static void move_task(struct sl_sim *sim, struct sl_task *p, struct sl_cpu *src, struct sl_cpu *dst,
		      bool preempt)
{
	/* detach: a non-sleep dequeue keeps the lag and a relative deadline; PELT detaches the
	 * averages at once (DO_DETACH), and migrate_task_rq_fair of a migrating task only marks
	 * it for attaching on dst (last_update_time 0) */
	sl_eevdf_util_est_dequeue(sim, src, &p->se);
	sl_eevdf_dequeue_entity(sim, src, &p->se, EE_DEQUEUE_MIGRATE);
	sl_nr_running_dec(sim, src);
	ee_se(&p->se)->avg.last_update_time = 0;
	sl_eevdf_class.set_task_cpu(sim, p, dst->id);
	sl_eevdf_util_est_enqueue(sim, dst, &p->se);
	sl_eevdf_enqueue_entity(sim, dst, &p->se, 0);
	sl_nr_running_inc(sim, dst);
	if (preempt && (!dst->curr || dst->curr->sched_class == &sl_eevdf_class))
		sl_eevdf_class.check_preempt_curr(sim, dst, p, 0);
}

/* ---- the balancer's statistics and decisions (6.18's update_sg_lb_stats, group_classify,
 * update_sd_pick_busiest, sched_balance_find_src_group, calculate_imbalance) ---- */

#define EE_CAPACITY_SCALE 1024 /* capacity_of: no irq/steal, rt or dl pressure in the model */

/* more tasks than CPUs, and util or runnable beyond capacity by imbalance_pct */
bool sl_eevdf_group_is_overloaded(unsigned pct, const struct ee_sg_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;
	if (sgs->group_capacity * 100 < sgs->group_util * pct)
		return true;
	return sgs->group_capacity * pct < sgs->group_runnable * 100;
}

/* fewer tasks than CPUs, or runnable within capacity by imbalance_pct and util below it */
bool sl_eevdf_group_has_capacity(unsigned pct, const struct ee_sg_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;
	if (sgs->group_capacity * pct < sgs->group_runnable * 100)
		return false;
	return sgs->group_capacity * 100 > sgs->group_util * pct;
}

void sl_eevdf_group_classify(unsigned pct, struct ee_sg_stats *sgs)
{
	if (sl_eevdf_group_is_overloaded(pct, sgs))
		sgs->group_type = EE_GROUP_OVERLOADED;
	else if (!sl_eevdf_group_has_capacity(pct, sgs))
		sgs->group_type = EE_GROUP_FULLY_BUSY;
	else
		sgs->group_type = EE_GROUP_HAS_SPARE;
	/* avg_load is computed for an overloaded group only */
	sgs->avg_load = sgs->group_type == EE_GROUP_OVERLOADED
				? sgs->group_load * EE_CAPACITY_SCALE / sgs->group_capacity
				: 0;
}

/* update_sg_lb_stats for CPU c's one-CPU group, each value as last updated, UTIL_EST given */
static void sg_stats_ue(struct sl_sim *sim, int c, struct ee_sg_stats *sgs, bool util_est)
{
	const struct sl_cpu *rq = &sim->cpus[c];
	const struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	unsigned nr = (unsigned)(rq->nr_running + rq->nr_delayed);

	*sgs = (struct ee_sg_stats){
		.group_load = cfs->avg.load_avg,
		.group_util = sl_eevdf_cpu_util_ue(sim, rq, util_est),
		.group_runnable = cfs->avg.runnable_avg,
		.sum_h_nr_running = (unsigned)(cfs->nr_queued - rq->nr_delayed),
		.sum_nr_running = nr,
		.idle_cpus = !nr && idle_cpu(sim, c),
		.group_capacity = EE_CAPACITY_SCALE,
		.group_weight = 1,
	};
	sl_eevdf_group_classify(EE_IMBALANCE_PCT, sgs);
}

static void sg_stats(struct sl_sim *sim, int c, struct ee_sg_stats *sgs)
{
	sg_stats_ue(sim, c, sgs, sched_feat(sim, F_UTIL_EST));
}

/* no SMT, asym or misfit groups: a higher type; the highest avg_load among overloaded ones
 * (the first of equals); the last of fully busy ones (their avg_load is 0 alike); among groups
 * with spare capacity the fewest idle CPUs, then the most tasks (the first of equals) */
bool sl_eevdf_pick_busiest(const struct ee_sd_stats *sds, const struct ee_sg_stats *sgs)
{
	const struct ee_sg_stats *busiest = &sds->busiest;
	unsigned b_idle = sds->has_busiest ? busiest->idle_cpus : ~0u;

	if (!sgs->sum_h_nr_running)
		return false;
	if (sgs->group_type != busiest->group_type)
		return sgs->group_type > busiest->group_type;
	switch (sgs->group_type) {
	case EE_GROUP_OVERLOADED:
		return sgs->avg_load > busiest->avg_load;
	case EE_GROUP_FULLY_BUSY:
		return sgs->avg_load >= busiest->avg_load;
	default:
		if (sgs->idle_cpus > b_idle)
			return false;
		return sgs->idle_cpus < b_idle || sgs->sum_nr_running > busiest->sum_nr_running;
	}
}

/*
 * The group statistics kept between balances (docs/model/eevdf.md §5.8), on machines of
 * EE_LBC_MIN_CPUS CPUs or more (below that a walk of the CPUs costs less than keeping them).
 * A balance needs of the other groups only their total load, whether any CPU has two queued
 * tasks (rd->overloaded), its LLC's summed utilization (SIS_UTIL) and the busiest group in the
 * walk's order; each is kept: every CPU's statistics as last taken, taken again at the next
 * balance for the CPUs marked since (sl_lb_mark: every change of an input marks its CPU), the
 * integer sums adjusted by the difference, and a tree over the CPUs of the greatest busiest
 * key (below) of each range with the first and last CPU holding it. The walk from dst + 1,
 * wrapping, is the range after dst then the range before it, so the busiest is the first of
 * the greatest keys in that order (update_sd_pick_busiest keeps the first of equals) or, for
 * fully busy groups (>=), the last. The same integers as the walk: -DSL_EEVDF_CHECK_LBC
 * compares every balance's figures and every kept CPU with a fresh walk and aborts on a
 * difference.
 */
/*
 * update_sd_pick_busiest as one order: a group with no runnable task is never picked (0); a
 * higher type; for overloaded and fully busy groups the higher avg_load; among groups with
 * spare capacity fewer idle CPUs (0 or 1 here), then more tasks. load_avg is at most the sum
 * of the weights, far below 2^56.
 */
static u64 busiest_key(const struct ee_sg_stats *s)
{
	u64 sec;

	if (!s->sum_h_nr_running)
		return 0;
	if (s->group_type == EE_GROUP_OVERLOADED || s->group_type == EE_GROUP_FULLY_BUSY)
		sec = s->avg_load;
	else
		sec = (u64)(s->idle_cpus ? 0 : 1) << 32 | s->sum_nr_running;
	return (u64)(s->group_type + 1) << 56 | sec;
}

/*
 * The idlest CPU kept for forks: find_idlest_cpu's order (pick_idlest) as one key, the lower
 * the idler: the type; for a group without spare capacity its avg_load (a fully busy group's
 * computed as find_idlest_cpu does); with spare capacity more idle CPUs (0 or 1 here), then the
 * lower util. avg_load stays far below 2^56 (see busiest_key), util below 2^32.
 */
static u64 idlest_key(const struct ee_sg_stats *s)
{
	u64 sec;

	if (s->group_type == EE_GROUP_HAS_SPARE)
		sec = (u64)(s->idle_cpus ? 0 : 1) << 32 | s->group_util;
	else if (s->group_type == EE_GROUP_FULLY_BUSY)
		sec = s->group_load * 1024 / s->group_capacity;
	else
		sec = s->avg_load;
	return (u64)s->group_type << 56 | sec;
}

/* the keys of the CPUs taken since written into the tree: each changed one's path, or every
 * node when that costs less */
static void lbc_min_update(struct ee_lbc *l, int ncpu)
{
	int depth = 0;

	for (int n = l->itree.leaves; n > 1; n /= 2)
		depth++;
	if ((u64)l->nidirty * (u64)depth >= (u64)l->itree.leaves) {
		for (int c = 0; c < ncpu; c++)
			sl_rtree_put(&l->itree, c, idlest_key(&l->sgs[c]));
		sl_rtree_build(&l->itree);
	} else {
		for (int i = 0; i < l->nidirty; i++) {
			int c = l->idirty_list[i];
			u64 key = idlest_key(&l->sgs[c]);

			if (key != sl_rtree_key(&l->itree, c))
				sl_rtree_set(&l->itree, c, key);
		}
	}
	for (int i = 0; i < l->nidirty; i++)
		l->idirty[l->idirty_list[i]] = 0;
	l->nidirty = 0;
}

/* the idlest CPU but this_cpu in the walk's order (this_cpu + 1 on, wrapping), -1: none */
static int lbc_idlest(struct ee_lbc *l, int ncpu, int this_cpu)
{
	lbc_min_update(l, ncpu);
	return sl_rtree_after(&l->itree, this_cpu, ncpu).first;
}

/* the busiest CPU but dst in the walk's order (dst + 1 on, wrapping), -1: none */
static int lbc_busiest(const struct ee_lbc *l, int ncpu, int dst)
{
	struct sl_rtree_node n = sl_rtree_after(&l->tree, dst, ncpu);

	if (!n.key)
		return -1;
	return (n.key >> 56) - 1 == EE_GROUP_FULLY_BUSY ? n.last : n.first;
}

/* the marked CPUs' statistics taken again (every CPU's when UTIL_EST changed) */
static struct ee_lbc *lbc_take(struct sl_sim *sim)
{
	struct ee_lbc *l = sim->lbc;
	bool ue = sim->features & (1ULL << F_UTIL_EST); /* not recorded: see sg_stats */

	if (ue != l->util_est) {
		l->util_est = ue;
		for (int c = 0; c < sim->ncpu; c++)
			sl_lb_mark(sim, c);
	}
	for (int i = 0; i < sim->lb_nmarked; i++) {
		int c = sim->lb_marked[i];
		struct ee_sg_stats *old = &l->sgs[c], now;
		u64 key;

		sg_stats_ue(sim, c, &now, ue);
		l->total_load += now.group_load - old->group_load;
		l->nr_over += (now.sum_nr_running > 1) - (old->sum_nr_running > 1);
		l->llc_util[sim->cpus[c].socket] += now.group_util - old->group_util;
		if (!l->idirty[c]) { /* its idlest key read again at the next fork */
			l->idirty[c] = 1;
			l->idirty_list[l->nidirty++] = c;
		}
		key = busiest_key(&now);
		if (key != busiest_key(old))
			sl_rtree_set(&l->tree, c, key);
		*old = now;
		sim->lb_mark[c] = 0;
	}
	sim->lb_nmarked = 0;
	return l;
}

/* rd->overloaded as a balance would find it, without taking the marked CPUs' statistics: the
 * kept count corrected by the marked CPUs' queued tasks now */
static bool lbc_overloaded(const struct sl_sim *sim, const struct ee_lbc *l)
{
	int n = l->nr_over;

	for (int i = 0; i < sim->lb_nmarked; i++) {
		int c = sim->lb_marked[i];
		unsigned now = (unsigned)(sim->cpus[c].nr_running + sim->cpus[c].nr_delayed);

		n += (now > 1) - (l->sgs[c].sum_nr_running > 1);
	}
	return n > 0;
}

/* sl_eevdf_update_idle_scan from the kept sum; the LLC's CPUs written only when it changed */
static void lbc_idle_scan(struct sl_sim *sim, struct ee_lbc *l, struct sl_cpu *dst)
{
	const int *llc_next = sim->class_state;
	int s = dst->socket, n = dst->llc_size, c = dst->id;
	unsigned y;

	if (!sched_feat(sim, F_SIS_UTIL) || !llc_next)
		return;
	(void)sched_feat(sim, F_UTIL_EST); /* the walk's cpu_util read it */
	y = sl_eevdf_idle_scan(l->llc_util[s], (unsigned)n, EE_IMBALANCE_PCT);
	if (l->llc_scan[s] == (s64)y)
		return;
	l->llc_scan[s] = (s64)y;
	for (int k = 0; k < n; k++, c = llc_next[c])
		ee_rq_of(sim, &sim->cpus[c])->nr_idle_scan = y;
}

static int lbc_new(struct sl_sim *sim, int nsock)
{
	struct ee_lbc *l = calloc(1, sizeof(*l));
	int n = sim->ncpu;

	if (!l)
		return -1;
	sim->lbc = l;
	l->sgs = calloc((size_t)n, sizeof(*l->sgs));
	l->llc_util = calloc((size_t)nsock, sizeof(*l->llc_util));
	l->llc_scan = malloc((size_t)nsock * sizeof(*l->llc_scan));
	l->idirty = calloc((size_t)n, 1);
	l->idirty_list = malloc((size_t)n * sizeof(int));
	sim->lb_mark = calloc((size_t)n, 1);
	sim->lb_marked = malloc((size_t)n * sizeof(int));
	if (sl_rtree_init(&l->tree, n, true) || sl_rtree_init(&l->itree, n, false) || !l->sgs ||
	    !l->llc_util || !l->llc_scan || !sim->lb_mark || !sim->lb_marked || !l->idirty ||
	    !l->idirty_list)
		return -1;
	/* the statistics as kept (zero until taken): busiest key 0 (no CPU in the tree); every
	 * CPU's idlest key written at the first fork */
	for (int c = 0; c < n; c++) {
		l->idirty[c] = 1;
		l->idirty_list[l->nidirty++] = c;
	}
	for (int s = 0; s < nsock; s++)
		l->llc_scan[s] = -1;
	for (int c = 0; c < n; c++)
		sl_lb_mark(sim, c);
	return 0;
}

static void lbc_free(struct sl_sim *sim)
{
	if (sim->lbc) {
		free(sim->lbc->sgs);
		sl_rtree_free(&sim->lbc->tree);
		free(sim->lbc->llc_util);
		free(sim->lbc->llc_scan);
		sl_rtree_free(&sim->lbc->itree);
		free(sim->lbc->idirty);
		free(sim->lbc->idirty_list);
		free(sim->lbc);
	}
	free(sim->lb_mark);
	free(sim->lb_marked);
	sim->lbc = NULL;
	sim->lb_mark = NULL;
	sim->lb_marked = NULL;
	sim->lb_nmarked = 0;
}

/* sibling_imbalance for two groups of one core each: the busiest's tasks over the local's, 0 for
 * a busy destination */
static s64 sibling_imbalance(enum ee_idle idle, const struct ee_sd_stats *sds)
{
	if (idle == EE_CPU_NOT_IDLE || !sds->busiest.sum_nr_running)
		return 0;
	if (sds->busiest.sum_nr_running <= sds->local.sum_nr_running)
		return 0;
	return (s64)(sds->busiest.sum_nr_running - sds->local.sum_nr_running);
}

/* calculate_imbalance for the types that arise (the domain shares its LLC, so migrate_util
 * never applies; one-CPU groups take sibling_imbalance) */
static void calculate_imbalance(enum ee_idle idle, struct ee_sd_stats *sds,
				enum ee_migration_type *type, s64 *imbalance)
{
	struct ee_sg_stats *local = &sds->local, *busiest = &sds->busiest;
	u64 a, b;

	if (local->group_type == EE_GROUP_HAS_SPARE) {
		*type = EE_MIGRATE_TASK;
		*imbalance = sibling_imbalance(idle, sds) >> 1;
		return;
	}
	if (local->group_type < EE_GROUP_OVERLOADED) {
		local->avg_load = local->group_load * EE_CAPACITY_SCALE / local->group_capacity;
		if (local->avg_load >= busiest->avg_load) {
			*imbalance = 0;
			return;
		}
		sds->avg_load = sds->total_load * EE_CAPACITY_SCALE / sds->total_capacity;
		if (local->avg_load >= sds->avg_load) {
			*imbalance = 0;
			return;
		}
	}
	/* unsigned as the kernel's: a difference below 0 wraps and loses the min */
	a = (busiest->avg_load - sds->avg_load) * busiest->group_capacity;
	b = (sds->avg_load - local->avg_load) * local->group_capacity;
	*type = EE_MIGRATE_LOAD;
	*imbalance = (s64)((a < b ? a : b) / EE_CAPACITY_SCALE);
}

bool sl_eevdf_find_src_group(enum ee_idle idle, unsigned pct, struct ee_sd_stats *sds,
			     enum ee_migration_type *type, s64 *imbalance)
{
	struct ee_sg_stats *local = &sds->local, *busiest = &sds->busiest;

	*imbalance = 0;
	*type = EE_MIGRATE_LOAD;
	if (!sds->has_busiest || local->group_type > busiest->group_type)
		return false;
	if (local->group_type == EE_GROUP_OVERLOADED) {
		if (local->avg_load >= busiest->avg_load)
			return false;
		sds->avg_load = sds->total_load * EE_CAPACITY_SCALE / sds->total_capacity;
		if (local->avg_load >= sds->avg_load)
			return false;
		if (100 * busiest->avg_load <= pct * local->avg_load)
			return false;
	}
	/* no prefer_sibling: the one-CPU groups have no child domain */
	if (busiest->group_type != EE_GROUP_OVERLOADED) {
		/* a busy CPU leaves a group that is not overloaded to an idle one; the idle_cpus
		 * test is for groups of two CPUs or more */
		if (idle == EE_CPU_NOT_IDLE || busiest->sum_h_nr_running == 1)
			return false;
	}
	calculate_imbalance(idle, sds, type, imbalance);
	return *imbalance > 0;
}

/*
 * update_sd_lb_stats over the one domain by a walk: the LLC's idle-scan budget, rd->overloaded,
 * and, when it is set, the local group, the totals and the busiest group (its CPU returned,
 * NULL: none)
 */
static struct sl_cpu *walk_stats(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle,
				 struct ee_sd_stats *sds)
{
	struct ee_sg_stats sgs;
	struct sl_cpu *src = NULL;

	/* update_sd_lb_stats ends with update_idle_cpu_scan on the LLC's domain, newidle
	 * balances left out (the model's one domain is balanced as the LLC, see above) */
	if (idle != EE_CPU_NEWLY_IDLE)
		sl_eevdf_update_idle_scan(sim, dst, EE_IMBALANCE_PCT);
	/* update_sd_lb_stats at the root domain (the only one) rewrites rd->overloaded: a CPU
	 * with two queued tasks, delayed ones counted (update_sg_lb_stats reads rq->nr_running) */
	sim->rd_overloaded = false;
	for (int c = 0; c < sim->ncpu && !sim->rd_overloaded; c++)
		if (sim->cpus[c].nr_running + sim->cpus[c].nr_delayed > 1)
			sim->rd_overloaded = true;
	/* no CPU with two queued tasks: no group is overloaded nor has two runnable tasks, so
	 * every outcome is "balanced" */
	if (!sim->rd_overloaded)
		return NULL;
	/* the groups in the kernel's order: the local one, then the CPUs after dst, wrapping */
	sg_stats(sim, dst->id, &sds->local);
	sds->total_load = sds->local.group_load;
	sds->total_capacity = sds->local.group_capacity;
	for (int k = 1; k < sim->ncpu; k++) {
		int c = (dst->id + k) % sim->ncpu;

		sg_stats(sim, c, &sgs);
		if (sl_eevdf_pick_busiest(sds, &sgs)) {
			sds->busiest = sgs;
			sds->has_busiest = true;
			src = &sim->cpus[c];
		}
		sds->total_load += sgs.group_load;
		sds->total_capacity += sgs.group_capacity;
	}
	return src;
}

/* the same figures from the kept statistics */
static struct sl_cpu *lbc_stats(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle,
				struct ee_sd_stats *sds)
{
	struct ee_lbc *l = sim->lbc;
	int b;

	/* a newidle balance (no idle-scan budget) on a machine with no CPU of two queued tasks
	 * needs no statistics: the marked CPUs are left for a later balance */
	if (idle == EE_CPU_NEWLY_IDLE && !lbc_overloaded(sim, l)) {
		sim->rd_overloaded = false;
		return NULL;
	}
	lbc_take(sim);
	if (idle != EE_CPU_NEWLY_IDLE)
		lbc_idle_scan(sim, l, dst);
	sim->rd_overloaded = l->nr_over > 0;
	if (!sim->rd_overloaded)
		return NULL;
	sg_stats(sim, dst->id, &sds->local);
	sds->total_load = l->total_load;
	sds->total_capacity = (u64)sim->ncpu * EE_CAPACITY_SCALE;
	b = lbc_busiest(l, sim->ncpu, dst->id);
	if (b < 0)
		return NULL;
	sds->busiest = l->sgs[b];
	sds->has_busiest = true;
	return &sim->cpus[b];
}

struct sl_cpu *sl_eevdf_lb_stats(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle,
				 struct ee_sd_stats *sds, bool walk)
{
	return sim->lbc && !walk ? lbc_stats(sim, dst, idle, sds) : walk_stats(sim, dst, idle, sds);
}

#ifdef SL_EEVDF_CHECK_LBC
static bool sgs_differ(const struct ee_sg_stats *a, const struct ee_sg_stats *b)
{
	return a->avg_load != b->avg_load || a->group_load != b->group_load ||
	       a->group_capacity != b->group_capacity || a->group_util != b->group_util ||
	       a->group_runnable != b->group_runnable || a->sum_nr_running != b->sum_nr_running ||
	       a->sum_h_nr_running != b->sum_h_nr_running || a->idle_cpus != b->idle_cpus ||
	       a->group_weight != b->group_weight || a->group_type != b->group_type;
}

static void lbc_check_cpu(struct sl_sim *sim, int c)
{
	struct ee_sg_stats now;

	sg_stats(sim, c, &now);
	if (sgs_differ(&now, &sim->lbc->sgs[c])) {
		fprintf(stderr, "lbc: CPU %d's kept statistics differ at %llu\n", c,
			(unsigned long long)sim->now);
		abort();
	}
}

/* the kept figures against a walk (run after them: the walk rewrites what they wrote alike) */
static void lbc_check(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle,
		      const struct ee_sd_stats *kept, struct sl_cpu *ksrc)
{
	struct ee_sd_stats w = {0};
	bool kover = sim->rd_overloaded;
	unsigned scan = ee_rq_of(sim, dst)->nr_idle_scan;
	struct sl_cpu *wsrc = walk_stats(sim, dst, idle, &w);

	for (int c = 0; c < sim->ncpu; c++)
		if (!sim->lb_mark[c]) /* a marked CPU's are not yet taken again */
			lbc_check_cpu(sim, c);
	if (kover != sim->rd_overloaded || wsrc != ksrc ||
	    scan != ee_rq_of(sim, dst)->nr_idle_scan ||
	    (kover &&
	     (w.total_load != kept->total_load || w.total_capacity != kept->total_capacity ||
	      sgs_differ(&w.local, &kept->local) ||
	      (wsrc && sgs_differ(&w.busiest, &kept->busiest))))) {
		fprintf(stderr, "lbc: CPU %d's balance differs from the walk at %llu\n", dst->id,
			(unsigned long long)sim->now);
		abort();
	}
}
#endif

/*
 * sched_balance_rq for dst over the one domain of one-CPU groups (docs/model/eevdf.md §5.4): -1
 * balanced, else the number of tasks moved. The groups are classified by PELT (group_util,
 * group_runnable against capacity and imbalance_pct); a destination with spare capacity takes
 * half the task difference (an idle one only), else load moves by avg_load.
 */
int sl_eevdf_load_balance(struct sl_sim *sim, struct sl_cpu *dst, enum ee_idle idle)
{
	struct ee_sd_stats sds = {0};
	enum ee_migration_type type;
	struct sl_cpu *src;
	s64 imbalance;
	int moved = 0, examined = 0;

	if (sim->lbc) {
		src = lbc_stats(sim, dst, idle, &sds);
#ifdef SL_EEVDF_CHECK_LBC
		lbc_check(sim, dst, idle, &sds, src);
#endif
	} else {
		src = walk_stats(sim, dst, idle, &sds);
	}
	if (!sim->rd_overloaded)
		return -1;
	/* no busiest group (src NULL), or balanced */
	if (!src || !sl_eevdf_find_src_group(idle, EE_IMBALANCE_PCT, &sds, &type, &imbalance))
		return -1;
	/* sched_balance_find_src_rq in the one-CPU group: migrate_load leaves a CPU whose one
	 * runnable task would overshoot the imbalance (its capacity is never reduced here) */
	if (type == EE_MIGRATE_LOAD && sds.busiest.sum_h_nr_running == 1 &&
	    sds.busiest.group_load > (u64)imbalance)
		return -1;
	if (src->nr_running + src->nr_delayed <= 1)
		return 0;
	/* from the tail of cfs_tasks: the least recently run first */
	struct sched_entity *se = TAILQ_LAST(&ee_rq_of(sim, src)->tasks, eevdf_tasks_head),
			    *prev_se;

	for (; se && imbalance > 0; se = prev_se) {
		struct sl_task *p = sl_task_of(se);
		s64 load = task_load(p);

		prev_se = TAILQ_PREV(se, eevdf_tasks_head, group_node);
		/* an idle destination never takes the source's last task */
		if (idle != EE_CPU_NOT_IDLE && src->nr_running + src->nr_delayed <= 1)
			break;
		if ((u64)++examined > sim->tun.sched_nr_migrate)
			break;
		if (!can_migrate(sim, p, src, dst))
			continue;
		if (type == EE_MIGRATE_LOAD) {
			int f = ee_rq_of(sim, dst)->nr_balance_failed;

			if (sched_feat(sim, F_LB_MIN) && load < EE_LB_MIN_LOAD && !f)
				continue;
			if ((f < 63 ? load >> f : 0) > imbalance)
				continue;
		}
		move_task(sim, p, src, dst, idle != EE_CPU_NEWLY_IDLE);
		moved++;
		imbalance -= type == EE_MIGRATE_LOAD ? load : 1;
		/* detach_tasks under CONFIG_PREEMPTION (PREEMPT_DYNAMIC builds have it): a newidle
		 * balance stops at its first task, to keep the critical section short */
		if (idle == EE_CPU_NEWLY_IDLE)
			break;
	}
	return moved;
}

static u64 msecs_to_jiffies(struct sl_sim *sim, u64 ms)
{
	return (ms * sim->hz + 999) / 1000;
}

/* get_sd_balance_interval: busy x16 minus one jiffy, clamped to [1, HZ*ncpus/10] jiffies */
static u64 interval_j(struct sl_sim *sim, struct sl_cpu *rq, bool busy)
{
	u64 j = msecs_to_jiffies(sim,
				 ee_rq_of(sim, rq)->balance_interval * (busy ? EE_BUSY_FACTOR : 1));
	u64 max = sim->hz * (u64)sim->ncpu / 10;

	if (busy && j)
		j--;
	if (j < 1)
		j = 1;
	if (max >= 1 && j > max)
		j = max;
	return j;
}

/* jiffies + 1 at now (never wraps before the grid's first boundary), and the time jiffy value
 * j (so counted) begins */
static u64 jiffy_of(struct sl_sim *sim)
{
	return (sim->now + sim->tick_ns - sim->tick_phase_ns) / sim->tick_ns;
}

static u64 jiffy_start(struct sl_sim *sim, u64 j)
{
	return (j - 1) * sim->tick_ns + sim->tick_phase_ns;
}

static void set_next_balance(struct sl_sim *sim, struct sl_cpu *rq, u64 j)
{
	ee_rq_of(sim, rq)->next_balance = jiffy_start(sim, j);
	sl_nohz_next_set(sim, rq->id, ee_rq_of(sim, rq)->next_balance);
}

/*
 * sched_balance_domains for the one domain, run once rq->next_balance is due: the domain is
 * balanced only when its own interval (for the CPU's state now) has passed since its
 * last_balance, since a newidle entry may have brought next_balance forward to the idle
 * interval; a balance that moved a task reads the CPU's state again (a CPU_IDLE balance that
 * pulled makes the CPU busy); next_balance is last_balance + the interval after the balance,
 * which reads the balance_interval the balance left.
 */
static bool newidle_cost(struct sl_sim *sim, struct eevdf_rq *cfs, u64 cost);

static void periodic_balance(struct sl_sim *sim, struct sl_cpu *rq, bool busy)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	u64 now_j = jiffy_of(sim);
	int r;

	/* the balance softirq (or the NO_HZ balance for an idle CPU) first brings the CPU's
	 * blocked averages to now */
	sl_eevdf_pelt_update(sim, rq, NULL, 0);
	/* the newidle cost's decay: max_idle_balance_cost follows it, at least the migration cost
	 */
	if (newidle_cost(sim, cfs, 0))
		cfs->max_idle_balance_cost =
			cfs->max_newidle_lb_cost > sim->tun.sched_migration_cost
				? cfs->max_newidle_lb_cost
				: sim->tun.sched_migration_cost;
	if (now_j >= cfs->last_balance + interval_j(sim, rq, busy)) {
		r = sl_eevdf_load_balance(sim, rq, busy ? EE_CPU_NOT_IDLE : EE_CPU_IDLE);
		if (r > 0) {
			cfs->nr_balance_failed = 0;
			cfs->balance_interval = EE_MIN_INTERVAL;
			busy = !idle_cpu(sim, rq->id);
		} else if (r == 0) {
			cfs->nr_balance_failed++;
			cfs->balance_interval = EE_MIN_INTERVAL;
		} else {
			cfs->nr_balance_failed = 0;
			if (cfs->balance_interval < EE_MAX_INTERVAL)
				cfs->balance_interval *= 2;
		}
		cfs->last_balance = now_j;
	}
	set_next_balance(sim, rq, cfs->last_balance + interval_j(sim, rq, busy));
}

/*
 * The tick's sched_balance_trigger: this CPU's own periodic balance when due, and
 * nohz_balancer_kick: a CPU with two tasks on its runqueue, delayed-dequeue ones counted (6.18's
 * rq->nr_running keeps them), makes a tickless idle CPU that is due balance; the balance runs
 * there, so the pulled task's preemption is that CPU's own (its idle exit and local path).
 */
/*
 * NOHZ_STATS_KICK: a busy CPU's tick asks an idle CPU to bring the tickless idle CPUs' blocked
 * averages to now, at most once per LOAD_AVG_PERIOD (32 ms), while one has some left to decay
 * (nohz.has_blocked; nohz.next_blocked is machine-wide, kept in CPU 0's area). Without it an
 * idle CPU's utilization would stay as it was when it went idle, and SIS_UTIL read it so. The
 * kick's IPI, which takes the idle CPU out of idle, is not modelled (nor the balance kick's).
 */
static void nohz_stats_kick(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *g = ee_rq_of(sim, &sim->cpus[0]);
	bool kicked = false;

	if (!rq->curr || sim->now <= g->nohz_next_blocked)
		return;
	/* the idle CPUs are among those with no task and no reschedule pending (free_bits):
	 * only those are looked at, in CPU order as a walk of every CPU */
	for (int w = 0; w < sim->lvl_words; w++) {
		for (u64 x = sim->free_bits[w]; x; x &= x - 1) {
			int c = w * 64 + __builtin_ctzll(x);
			const struct sl_pelt_avg *a = &ee_rq_of(sim, &sim->cpus[c])->avg;

			if (c == rq->id || !idle_cpu(sim, c) ||
			    !(a->load_sum || a->util_sum || a->runnable_sum))
				continue;
			sl_eevdf_pelt_update(sim, &sim->cpus[c], NULL, 0);
			kicked = true;
		}
	}
	if (kicked)
		g->nohz_next_blocked = sim->now + msecs_to_jiffies(sim, 32) * sim->tick_ns;
}

void sl_eevdf_tick_balance(struct sl_sim *sim, struct sl_cpu *rq)
{
	ee_rq_of(sim, rq)->tick_kept = false; /* the tick it was kept for has come */
	nohz_stats_kick(sim, rq);
	/* the first CPU in CPU order but rq that is tickless, idle and due (nohz_next.c finds
	 * the tickless and due ones) */
	if (rq->nr_running + rq->nr_delayed >= 2) {
		for (int c = sl_nohz_next_due(sim, 0, sim->now); c >= 0;
		     c = sl_nohz_next_due(sim, c + 1, sim->now)) {
			int self = sim->this_cpu;

			if (c == rq->id || !idle_cpu(sim, c))
				continue;
			/* kick_ilb's IPI runs the balance on the kicked CPU (nohz_csd_func raises
			 * its SCHED_SOFTIRQ): a pulled task's preemption there is its own, local
			 * one */
			sim->this_cpu = c;
			periodic_balance(sim, &sim->cpus[c], false);
			sim->this_cpu = self;
			break;
		}
	}
	if (sim->now >= ee_rq_of(sim, rq)->next_balance)
		periodic_balance(sim, rq, rq->curr != NULL);
}

/*
 * sched_balance_rq's bookkeeping after a newidle balance: a pull, or a balance that finds nothing
 * to do, clears the failure count that failed periodic balances built up (so a hot task loses
 * the pass those failures gave it); a newidle failure does not add one, so newidle balances,
 * frequent as they are, do not make hot tasks movable.
 */
static void newidle_done(struct eevdf_rq *cfs, int r)
{
	if (r != 0)
		cfs->nr_balance_failed = 0;
}

/*
 * update_newidle_stats: NI_RANDOM's count of calls and weighted successes; every 1024 calls the
 * ratio becomes the successes and both counts are halved
 */
static void ni_stats(struct eevdf_rq *cfs, unsigned success)
{
	cfs->ni_call++;
	cfs->ni_success += success;
	if (cfs->ni_call >= 1024) {
		cfs->ni_ratio = cfs->ni_success;
		cfs->ni_call /= 2;
		cfs->ni_success /= 2;
	}
}

/*
 * update_newidle_cost's cost part: the domain's max_newidle_lb_cost takes a dearer balance's
 * cost at once, and otherwise decays by 253/256 at most once a second (HZ jiffies after its
 * last change or decay); true when it decayed. A periodic balance calls it with 0.
 */
static bool newidle_cost(struct sl_sim *sim, struct eevdf_rq *cfs, u64 cost)
{
	u64 j = jiffy_of(sim);

	if (cost > cfs->max_newidle_lb_cost) {
		cfs->max_newidle_lb_cost = cost;
		cfs->last_decay_max_lb_cost = j;
	} else if (j > cfs->last_decay_max_lb_cost + sim->hz) {
		cfs->max_newidle_lb_cost = cfs->max_newidle_lb_cost * 253 / 256;
		cfs->last_decay_max_lb_cost = j;
		return true;
	}
	return false;
}

/*
 * ttwu_do_activate's idle time: a wake-up onto a CPU whose last newidle balance left its
 * idle_stamp (no pull) folds the time since into avg_idle by update_avg (an eighth of the
 * difference, truncated toward zero), capped at twice max_idle_balance_cost, and clears it
 */
void sl_eevdf_update_avg_idle(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	s64 diff;

	if (!cfs->idle_stamp)
		return;
	diff = (s64)(sim->now - cfs->idle_stamp) - (s64)cfs->avg_idle;
	cfs->avg_idle = (u64)((s64)cfs->avg_idle + diff / 8);
	if (cfs->avg_idle > 2 * cfs->max_idle_balance_cost)
		cfs->avg_idle = 2 * cfs->max_idle_balance_cost;
	cfs->idle_stamp = 0;
}

/*
 * sched_balance_newidle, as 6.18 orders it: idle_stamp is set; the balance returns at once
 * when the root domain's overloaded flag is clear (sim->rd_overloaded: set when a CPU's queued
 * tasks reach two, delayed ones counted, and cleared only by the statistics of a balance that
 * finds no such CPU, so it outlives the overload; a call made on a stale flag fails and lowers
 * the ratio) or avg_idle is below the domain's max_newidle_lb_cost; else the blocked averages
 * are brought to now and, for the one domain, the balance stops when avg_idle is below the
 * cost so far plus max_newidle_lb_cost; NI_RANDOM runs it with probability (2 + ratio) / 1024
 * (a draw of 0..1023 above 1 + ratio skips it) and weights a success by the inverse, so ratio
 * tracks the success rate. The balance's time (sim->ni_cost, machine param newidle_cost) is
 * its domain cost: with it the examination of the other queues (sched_balance_rq) comes that
 * long after the decision (sl_eevdf_newidle_resume), and the CPU waits meanwhile. With no
 * time, max_newidle_lb_cost stays 0 and the avg_idle cut-offs never stop a balance.
 */
bool sl_eevdf_newidle_balance(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	unsigned w = 1 + cfs->ni_ratio;
	int r;

	cfs->idle_stamp = sim->now;
	/* update_next_balance on every path: next_balance no later than last_balance + the idle
	 * interval, so a CPU that leaves its busy interval for idle is due at its idle one */
	if (cfs->next_balance > jiffy_start(sim, cfs->last_balance + interval_j(sim, rq, false)))
		set_next_balance(sim, rq, cfs->last_balance + interval_j(sim, rq, false));
	if (!sim->rd_overloaded || cfs->avg_idle < cfs->max_newidle_lb_cost)
		return false;
	sl_eevdf_pelt_update(sim, rq, NULL, 0); /* sched_balance_update_blocked_averages */
	/* the domain loop's cut-off, the cost so far 0 */
	if (cfs->avg_idle < cfs->max_newidle_lb_cost)
		return false;
	if (sched_feat(sim, F_NI_RANDOM) && (unsigned)(sl_rng_next(&sim->ni_rng) % 1024) > w) {
		ni_stats(cfs, 0); /* skipped: a call with no success */
		return false;
	}
	if (sim->ni_cost) {
		/* the examination is due after the balance's time; the CPU is in schedule() */
		cfs->ni_pending = true;
		rq->in_newidle = true;
		sl_set_need_resched(sim, rq, true);
		sl_arm(sim, &rq->resched, sim->now + sim->ni_cost);
		return false;
	}
	r = sl_eevdf_load_balance(sim, rq, EE_CPU_NEWLY_IDLE);
	newidle_done(cfs, r);
	if (sched_feat(sim, F_NI_RANDOM))
		ni_stats(cfs, r > 0 ? (1024 + w / 2) / w : 0);
	newidle_cost(sim, cfs, 0);
	if (r > 0)
		cfs->idle_stamp = 0;
	return r > 0;
}

/*
 * The next step of a newidle balance with a cost, at rq->resched: the examination
 * (sched_balance_rq against the queues as they are now: a task the other CPU has picked
 * meanwhile is running there and cannot move), the domain cost kept (max_newidle_lb_cost,
 * max_idle_balance_cost) and NI_RANDOM's count; a task woken onto this CPU meanwhile counts
 * as pulled. After a pull with sim->ni_tail the pulled task's switch-in waits that long.
 * Returns 1: wait (rq->resched armed), 0: pick what is queued, -1: no pull.
 */
int sl_eevdf_newidle_resume(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	unsigned w = 1 + cfs->ni_ratio;
	int r;

	rq->in_newidle = false;
	if (cfs->ni_tail) {
		cfs->ni_tail = false;
		return 0;
	}
	cfs->ni_pending = false;
	r = sl_eevdf_load_balance(sim, rq, EE_CPU_NEWLY_IDLE);
	newidle_done(cfs, r);
	if (sched_feat(sim, F_NI_RANDOM))
		ni_stats(cfs, r > 0 ? (1024 + w / 2) / w : 0);
	newidle_cost(sim, cfs, sim->ni_cost);
	if (sim->ni_cost > cfs->max_idle_balance_cost)
		cfs->max_idle_balance_cost = sim->ni_cost;
	if (r > 0 || cfs->nr_queued)
		cfs->idle_stamp = 0;
	if (r > 0 && sim->ni_tail) {
		cfs->ni_tail = true;
		rq->in_newidle = true;
		sl_set_need_resched(sim, rq, true);
		sl_arm(sim, &rq->resched, sim->now + sim->ni_tail);
		return 1;
	}
	return r > 0 || cfs->nr_queued ? 0 : -1;
}
