/*
 * Load figures and load balancing (kernel/sched.c of 2.6.31/2.6.32; the balancing functions are
 * the same text in both, the releases differ in the domains' flags and indices).
 *
 * Modelled: sched domains built from the topology with the kernel's degeneration rule, cpu_load[]
 * as update_cpu_load computes it, fork placement (find_idlest_group / find_idlest_cpu), periodic
 * rebalance_domains with balance intervals and busy_factor, find_busiest_group with
 * calculate_imbalance and fix_small_imbalance, find_busiest_queue, move_tasks with
 * can_migrate_task and task_hot, active balancing, new-idle balancing where SD_BALANCE_NEWIDLE is
 * set, and the NO_HZ idle load balancer (one idle CPU keeps its tick and balances for the others).
 * Simplified: no cpusets or affinity masks (every task may run anywhere); cpu_power is static
 * (no RT time, so scale_rt_power is 1024); the migration thread that carries out an active
 * balance costs nothing; no SD_SERIALIZE lock (no NUMA level); CONFIG_PREEMPT is off.
 */
#include "sched/cfs/cfs.h"
#include "sched/class.h"

#include <stdlib.h>
#include <string.h>
#ifdef SL_LB_CHECK_CACHE
#include <stdio.h>
#endif

#define SCHED_LOAD_SCALE 1024ULL
#define NR_CPUS_CONFIG	 64 /* CONFIG_NR_CPUS of an x86_64 distribution kernel of 2009 */

void sl_update_cpu_load(struct sl_cpu *rq)
{
	u64 this_load = rq->load.weight;
	bool changed = false;

	for (int i = 0; i < 5; i++) {
		u64 scale = 1ULL << i, old = rq->cpu_load[i], new = this_load;

		/* round up while rising so the average reaches the load */
		if (new > old)
			new += scale - 1;
		rq->cpu_load[i] = (old * (scale - 1) + new) >> i;
		changed |= rq->cpu_load[i] != old;
	}
	/* a steady load is a fixed point of every average (two hogs a CPU: each tick leaves
	 * cpu_load[] as it was): the balance's kept sums still hold */
	if (changed)
		sl_lb_touch(rq);
}

static u64 weighted_cpuload(struct sl_sim *sim, int cpu)
{
	return sim->cpus[cpu].load.weight;
}

u64 sl_source_load(struct sl_sim *sim, int cpu, int type)
{
	u64 total = weighted_cpuload(sim, cpu);

	/* LB_BIAS read only where it changes the figure (a sweep's memo: see cfs.c wakeup_gran) */
	if (type == 0 || sim->cpus[cpu].cpu_load[type - 1] >= total || !sched_feat(sim, F_LB_BIAS))
		return total;
	return sim->cpus[cpu].cpu_load[type - 1];
}

u64 sl_target_load(struct sl_sim *sim, int cpu, int type)
{
	u64 total = weighted_cpuload(sim, cpu);

	if (type == 0 || sim->cpus[cpu].cpu_load[type - 1] <= total || !sched_feat(sim, F_LB_BIAS))
		return total;
	return sim->cpus[cpu].cpu_load[type - 1];
}

u64 sl_cpu_avg_load_per_task(struct sl_sim *sim, int cpu)
{
	struct sl_cpu *rq = &sim->cpus[cpu];

	return rq->nr_running ? rq->load.weight / rq->nr_running : 0;
}

/*
 * The end of wake_affine, the same in both releases: a sync wake-up that keeps the pair balanced
 * goes affine at once; otherwise it does if balanced, or if the waking CPU is no busier than
 * prev_cpu and would, with prev_cpu's load added, still hold no more than one average task.
 */
int sl_wake_affine_verdict(struct sl_sim *sim, int sync, bool balanced, int this_cpu, int prev_cpu,
			   int idx, u64 this_load, u64 load)
{
	if (sync && balanced)
		return 1;
	u64 tl_per_task = sl_cpu_avg_load_per_task(sim, this_cpu);

	return balanced ||
	       (this_load <= load && this_load + sl_target_load(sim, prev_cpu, idx) <= tl_per_task);
}

/* Divide a load * SCHED_LOAD_SCALE by a group's power, as each release does. */
static u64 div_power(struct sl_sim *sim, const struct sl_sched_group *g, u64 x)
{
	if (cfs_ops(sim)->power_is_sum)
		return x / g->cpu_power;
	/* 2.6.31 sg_div_cpu_power: reciprocal_divide((u32)x, reciprocal_value(power)), the
	 * reciprocal taken when the group was built */
	return ((u64)(u32)x * g->reciprocal_power) >> 32;
}

/* ---- building the domains ---- */

/* A key shared exactly by the CPUs that share `level` with a CPU: its SMT siblings (same socket
 * and core), its socket, or the whole machine. */
static int span_key(const struct sl_cpu *a, int level, int ncores)
{
	switch (level) {
	case SL_SD_SMT:
		return a->socket * ncores + a->core;
	case SL_SD_MC:
		return a->socket;
	default:
		return 0;
	}
}

static void fill_domain_params(struct sl_sim *sim, struct sl_sched_domain *sd, int level)
{
	const struct sl_sd_params *pp = &cfs_ops(sim)->sd[level];

	memset(sd, 0, sizeof(*sd));
	sd->level = level;
	sd->flags = pp->flags;
	sd->min_interval = pp->min_interval;
	sd->max_interval = pp->max_interval;
	sd->busy_factor = pp->busy_factor;
	sd->imbalance_pct = pp->imbalance_pct;
	sd->cache_nice_tries = pp->cache_nice_tries;
	sd->busy_idx = pp->busy_idx;
	sd->idle_idx = pp->idle_idx;
	sd->newidle_idx = pp->newidle_idx;
	sd->wake_idx = pp->wake_idx;
	sd->forkexec_idx = pp->forkexec_idx;
	sd->balance_interval = 1;
}

/*
 * The span of sd (the CPUs whose key[] is key[c]) and its groups: the child domain's spans
 * (single CPUs at the lowest level, child NULL), in the order of their first CPUs, each group's
 * CPUs ascending. gidx is scratch of ncpu ints. O(ncpu) time, O(span) memory.
 */
static int build_span_groups(struct sl_sim *sim, struct sl_sched_domain *sd, const int *key,
			     const int *child_lead, const int *threads, int c, int span,
			     const struct sl_sched_domain *child, int *gidx)
{
	int *members;

	sd->owner = true;
	sd->span = calloc((size_t)span, sizeof(int));
	members = calloc((size_t)span, sizeof(int));
	if (!sd->span || !members) {
		free(members);
		return -1;
	}
	for (int o = 0; o < sim->ncpu; o++)
		if (key[o] == key[c])
			sd->span[sd->nspan++] = o;
	/* one group per distinct child leader, numbered in span order */
	for (int m = 0; m < sd->nspan; m++)
		gidx[child ? child_lead[sd->span[m]] : sd->span[m]] = -1;
	for (int m = 0; m < sd->nspan; m++) {
		int l = child ? child_lead[sd->span[m]] : sd->span[m];

		if (gidx[l] < 0)
			gidx[l] = sd->ngroups++;
	}
	/* c is in its own span: one group at least (said for the analyzer, which cannot see it) */
	sd->groups = sd->ngroups ? calloc((size_t)sd->ngroups, sizeof(*sd->groups)) : NULL;
	if (!sd->groups) {
		free(members);
		return -1;
	}
	sd->stats = calloc(6, sizeof(*sd->stats)); /* by load_idx, 0..5 */
	if (!sd->stats) {
		free(members);
		return -1;
	}
	sd->groups[0].cpus = members; /* the first group's cpus own the array (freed with it) */
	sd->groups[0].span_epoch = 1; /* stats[].epoch 0: none taken yet */
	for (int m = 0; m < sd->nspan; m++)
		sd->groups[gidx[child ? child_lead[sd->span[m]] : sd->span[m]]].ncpus++;
	for (int g = 0, off = 0; g < sd->ngroups; g++) {
		sd->groups[g].cpus = members + off;
		off += sd->groups[g].ncpus;
		sd->groups[g].ncpus = 0;
	}
	for (int m = 0; m < sd->nspan; m++) {
		struct sl_sched_group *g =
			&sd->groups[gidx[child ? child_lead[sd->span[m]] : sd->span[m]]];

		g->cpus[g->ncpus++] = sd->span[m];
	}
	for (int g = 0; g < sd->ngroups; g++) {
		struct sl_sched_group *gr = &sd->groups[g];

		gr->epoch = 1; /* sums[].epoch 0: none taken yet */
		if (cfs_ops(sim)->power_is_sum) {
			/* 2.6.32: SMT threads share smt_gain = 1178 */
			u64 per = 1024;
			int t = threads[gr->cpus[0]];

			if (t > 1)
				per = 1178 / (u64)t;
			gr->cpu_power = per * (u64)gr->ncpus;
		} else if (!child ||
			   (child->flags & (SD_SHARE_CPUPOWER | SD_SHARE_PKG_RESOURCES))) {
			gr->cpu_power = SCHED_LOAD_SCALE;
		} else {
			gr->cpu_power = SCHED_LOAD_SCALE * (u64)gr->ncpus;
		}
		/* reciprocal_value(cpu_power) */
		gr->reciprocal_power =
			gr->cpu_power ? (u32)(((1ULL << 32) + gr->cpu_power - 1) / gr->cpu_power)
				      : 0;
	}
	return 0;
}

/*
 * The domains of every CPU, with the kernel's degeneration rule. A span and its groups are built
 * once, by the span's first CPU, and shared by the others: O(ncpu) work and memory per distinct
 * span, O(ncpu^2) time at worst (ncpu SMT spans of one scan each), O(ncpu) memory per level.
 */
void sl_build_domains(struct sl_sim *sim)
{
	int n = sim->ncpu, ncores = 0;
	int *key = calloc((size_t)n * SL_SD_NLEVELS, sizeof(int));
	int *lead = calloc((size_t)n * SL_SD_NLEVELS, sizeof(int));
	int *count = calloc((size_t)n * SL_SD_NLEVELS, sizeof(int));
	int *gidx = calloc((size_t)n, sizeof(int)), *first = NULL;

	if (!key || !lead || !count || !gidx) {
		sim->oom = true;
		goto out;
	}
	for (int c = 0; c < n; c++)
		if (sim->cpus[c].core + 1 > ncores)
			ncores = sim->cpus[c].core + 1;
	for (int level = 0; level < SL_SD_NLEVELS; level++) {
		int *k = key + (size_t)level * n, *l = lead + (size_t)level * n,
		    *cnt = count + (size_t)level * n;
		int nkeys = 0;

		for (int c = 0; c < n; c++) {
			k[c] = span_key(&sim->cpus[c], level, ncores);
			if (k[c] + 1 > nkeys)
				nkeys = k[c] + 1;
		}
		free(first);
		first = malloc((size_t)(nkeys ? nkeys : 1) * sizeof(int)); /* n >= 1: nkeys too */
		if (!first) {
			sim->oom = true;
			goto out;
		}
		for (int i = 0; i < nkeys; i++)
			first[i] = -1;
		for (int c = 0; c < n; c++) {
			/* k[c] < nkeys by the loop above, which the analyzer cannot see */
			// NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
			if (first[k[c]] < 0)
				first[k[c]] = c;
			l[c] = first[k[c]];
			cnt[l[c]]++;
		}
		for (int c = 0; c < n; c++)
			cnt[c] = cnt[l[c]]; /* the span's size, for every CPU */
	}
	for (int c = 0; c < n; c++) {
		struct sl_cpu *rq = &sim->cpus[c];
		int prev_span = 1, child_level = -1;

		rq->nsd = 0;
		rq->idle_next_balance = 0;
		for (int level = 0; level < SL_SD_NLEVELS; level++) {
			int span = count[(size_t)level * n + c];
			int ld = lead[(size_t)level * n + c];

			/* sd_degenerate / sd_parent_degenerate: a domain of one CPU, or one that
			 * spans no more than its child, is dropped */
			if (span <= prev_span)
				continue;
			struct sl_sched_domain *sd = &rq->sd[rq->nsd];
			struct sl_sched_domain *child = rq->nsd ? &rq->sd[rq->nsd - 1] : NULL;
			const struct sl_sched_domain *shared = NULL;

			fill_domain_params(sim, sd, level);
			if (ld != c) {
				/* the span's first CPU built it: share it when its child level is
				 * the same (always, with a regular topology) */
				const struct sl_cpu *lr = &sim->cpus[ld];

				for (int i = 0; i < lr->nsd; i++)
					if (lr->sd[i].level == level &&
					    (i ? lr->sd[i - 1].level : -1) == child_level)
						shared = &lr->sd[i];
			}
			if (shared) {
				sd->span = shared->span;
				sd->nspan = shared->nspan;
				sd->groups = shared->groups;
				sd->stats = shared->stats;
				sd->ngroups = shared->ngroups;
			} else if (build_span_groups(sim, sd, key + (size_t)level * n,
						     child ? lead + (size_t)child_level * n : NULL,
						     count, c, span, child, gidx)) {
				rq->nsd++;
				sim->oom = true;
				goto out;
			}
			/* the group holding c */
			sd->local = -1;
			for (int g = 0; g < sd->ngroups && sd->local < 0; g++) {
				const struct sl_sched_group *gr = &sd->groups[g];

				if (c < gr->cpus[0] || c > gr->cpus[gr->ncpus - 1])
					continue;
				for (int i = 0; i < gr->ncpus; i++)
					if (gr->cpus[i] == c)
						sd->local = g;
			}
			rq->nsd++;
			prev_span = span;
			child_level = level;
		}
	}
out:
	free(key);
	free(lead);
	free(count);
	free(gidx);
	free(first);
}

void sl_free_domains(struct sl_sim *sim)
{
	for (int c = 0; c < sim->ncpu; c++) {
		struct sl_cpu *rq = &sim->cpus[c];

		for (int i = 0; i < rq->nsd; i++) {
			if (!rq->sd[i].owner)
				continue;
			if (rq->sd[i].groups)
				free(rq->sd[i].groups[0].cpus);
			free(rq->sd[i].groups);
			free(rq->sd[i].stats);
			free(rq->sd[i].span);
		}
		rq->nsd = 0;
	}
}

/* ---- fork placement: find_idlest_group / find_idlest_cpu ---- */

static const struct sl_group_sums *group_sums(struct sl_sim *sim, struct sl_sched_group *g,
					      int load_idx);

/* sd is this CPU's: its first group (sl_sd_group 0) is the local one */
static struct sl_sched_group *find_idlest_group(struct sl_sim *sim, struct sl_sched_domain *sd,
						int load_idx)
{
	struct sl_sched_group *idlest = NULL;
	u64 min_load = UINT64_MAX, this_load = 0;
	u64 imbalance = 100 + (u64)(sd->imbalance_pct - 100) / 2;

	for (int gi = 0; gi < sd->ngroups; gi++) {
		struct sl_sched_group *g = sl_sd_group(sd, gi);
		bool local = gi == 0; /* groups are disjoint: only the first holds this_cpu */
		/* the sums find_busiest_group keeps, taken again only after a CPU changed */
		const struct sl_group_sums *gs = group_sums(sim, g, load_idx);
		u64 avg_load = local ? gs->sum_src : gs->sum_tgt;

		avg_load = div_power(sim, g, avg_load * SCHED_LOAD_SCALE);
		if (local)
			this_load = avg_load;
		else if (avg_load < min_load) {
			min_load = avg_load;
			idlest = g;
		}
	}
	if (!idlest || 100 * this_load < imbalance * min_load)
		return NULL;
	return idlest;
}

static int find_idlest_cpu(struct sl_sim *sim, struct sl_sched_group *g, int this_cpu)
{
	u64 min_load = UINT64_MAX;
	int idlest = -1;

	for (int i = 0; i < g->ncpus; i++) {
		int c = g->cpus[i];
		u64 load = weighted_cpuload(sim, c);

		if (load < min_load || (load == min_load && c == this_cpu)) {
			min_load = load;
			idlest = c;
		}
	}
	return idlest;
}

int sl_find_idlest_cpu_fork(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	struct sl_sched_domain *sd = NULL;
	struct sl_cpu *rq;

	(void)p;
	if (cpu < 0)
		cpu = 0;
	rq = &sim->cpus[cpu];
	for (int i = 0; i < rq->nsd; i++)
		if (rq->sd[i].flags & SD_BALANCE_FORK)
			sd = &rq->sd[i];
	/* sched_balance_self: update_shares over the widest such domain */
	if (sd)
		sl_update_shares(sim, sd, cpu, (int)(sd - rq->sd));
	while (sd) {
		rq = &sim->cpus[cpu];
		int idx = (int)(sd - rq->sd);
		struct sl_sched_domain *child = idx > 0 ? &rq->sd[idx - 1] : NULL;

		if (!(sd->flags & SD_BALANCE_FORK)) {
			sd = child;
			continue;
		}
		struct sl_sched_group *g = find_idlest_group(sim, sd, sd->forkexec_idx);

		if (!g) {
			sd = child;
			continue;
		}
		int new_cpu = find_idlest_cpu(sim, g, cpu);

		if (new_cpu < 0 || new_cpu == cpu) {
			sd = child;
			continue;
		}
		int weight = sd->nspan;

		cpu = new_cpu;
		sd = NULL;
		rq = &sim->cpus[cpu];
		for (int i = 0; i < rq->nsd; i++) {
			if (weight <= rq->sd[i].nspan)
				break;
			if (rq->sd[i].flags & SD_BALANCE_FORK)
				sd = &rq->sd[i];
		}
	}
	return cpu;
}

/* ---- find_busiest_group and friends ---- */

struct lb_stats {
	struct sl_sched_group *this, *busiest;
	u64 total_load, total_pwr, avg_load;
	u64 this_load, this_nr_running, this_load_per_task;
	u64 max_load, busiest_nr_running, busiest_load_per_task;
	bool group_imb;
};

static u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

static void fix_small_imbalance(struct sl_sim *sim, struct lb_stats *s, int this_cpu, u64 *imb)
{
	u64 tmp, pwr_now = 0, pwr_move = 0;
	u64 imbn = 2;

	if (s->this_nr_running) {
		s->this_load_per_task /= s->this_nr_running;
		if (s->busiest_load_per_task > s->this_load_per_task)
			imbn = 1;
	} else {
		s->this_load_per_task = sl_cpu_avg_load_per_task(sim, this_cpu);
	}
	if (s->max_load - s->this_load + s->busiest_load_per_task >=
	    s->busiest_load_per_task * imbn) {
		*imb = s->busiest_load_per_task;
		return;
	}
	/* would moving one task raise the throughput (power used) of the pair? */
	pwr_now += s->busiest->cpu_power * min_u64(s->busiest_load_per_task, s->max_load);
	pwr_now += s->this->cpu_power * min_u64(s->this_load_per_task, s->this_load);
	pwr_now /= SCHED_LOAD_SCALE;
	tmp = div_power(sim, s->busiest, s->busiest_load_per_task * SCHED_LOAD_SCALE);
	if (s->max_load > tmp)
		pwr_move += s->busiest->cpu_power *
			    min_u64(s->busiest_load_per_task, s->max_load - tmp);
	if (s->max_load * s->busiest->cpu_power < s->busiest_load_per_task * SCHED_LOAD_SCALE)
		tmp = div_power(sim, s->this, s->max_load * s->busiest->cpu_power);
	else
		tmp = div_power(sim, s->this, s->busiest_load_per_task * SCHED_LOAD_SCALE);
	pwr_move += s->this->cpu_power * min_u64(s->this_load_per_task, s->this_load + tmp);
	pwr_move /= SCHED_LOAD_SCALE;
	if (pwr_move > pwr_now)
		*imb = s->busiest_load_per_task;
}

static void calculate_imbalance(struct sl_sim *sim, struct lb_stats *s, int this_cpu, u64 *imb)
{
	if (s->max_load < s->avg_load) {
		*imb = 0;
		fix_small_imbalance(sim, s, this_cpu, imb);
		return;
	}
	u64 max_pull = min_u64(s->max_load - s->avg_load, s->max_load - s->busiest_load_per_task);

	*imb = min_u64(max_pull * s->busiest->cpu_power,
		       (s->avg_load - s->this_load) * s->this->cpu_power) /
	       SCHED_LOAD_SCALE;
	if (*imb < s->busiest_load_per_task)
		fix_small_imbalance(sim, s, this_cpu, imb);
}

/*
 * A group's sums at load_idx: both the source and the target loads (the group is the local one
 * for its own CPUs, a remote one for the others), their max and min over the CPUs. Taken once and
 * kept while no member CPU changes (the group's epoch) and the features are the same: every CPU of
 * the domain that balances reads them, where each used to sum them again. Sums of integers, so the
 * order of the additions does not matter.
 */
static void group_sums_take(struct sl_sim *sim, const struct sl_sched_group *g, int load_idx,
			    struct sl_group_sums *s)
{
	s->sum_src = s->sum_tgt = s->sum_nr = s->sum_wl = s->sum_alpt = 0;
	s->max_src = 0;
	s->min_src = UINT64_MAX;
	for (int i = 0; i < g->ncpus; i++) {
		int c = g->cpus[i];
		struct sl_cpu *rq = &sim->cpus[c];
		u64 src = sl_source_load(sim, c, load_idx), tgt = sl_target_load(sim, c, load_idx);

		s->sum_src += src;
		s->sum_tgt += tgt;
		if (src > s->max_src)
			s->max_src = src;
		if (src < s->min_src)
			s->min_src = src;
		s->sum_nr += rq->nr_running;
		s->sum_wl += weighted_cpuload(sim, c);
		s->sum_alpt += sl_cpu_avg_load_per_task(sim, c);
	}
}

#ifdef SL_LB_CHECK_CACHE
/* -DSL_LB_CHECK_CACHE: every kept figure is taken again and compared; a difference aborts */
static void lb_check_failed(const char *what)
{
	fprintf(stderr, "schedlab: SL_LB_CHECK_CACHE: kept %s differs from its walk\n", what);
	abort();
}
#endif

static const struct sl_group_sums *group_sums(struct sl_sim *sim, struct sl_sched_group *g,
					      int load_idx)
{
	struct sl_group_sums *s = &g->sums[load_idx];

	if (s->epoch == g->epoch && s->features == sim->features) {
#ifdef SL_LB_CHECK_CACHE
		struct sl_group_sums f = *s;

		group_sums_take(sim, g, load_idx, &f);
		if (memcmp(&f, s, sizeof(f)))
			lb_check_failed("group sums");
#endif
		return s;
	}
	s->epoch = g->epoch;
	s->features = sim->features;
	group_sums_take(sim, g, load_idx, s);
	return s;
}

/* The group's first CPU with nothing to run, else its first CPU: the one that balances it */
static int first_idle_cpu_take(struct sl_sim *sim, const struct sl_sched_group *g)
{
	for (int i = 0; i < g->ncpus; i++) {
		const struct sl_cpu *rq = &sim->cpus[g->cpus[i]];

		if (sl_rq_idle(rq))
			return g->cpus[i];
	}
	return g->cpus[0];
}

static int first_idle_cpu(struct sl_sim *sim, struct sl_sched_group *g)
{
	if (g->idle_epoch == g->epoch) {
#ifdef SL_LB_CHECK_CACHE
		if (first_idle_cpu_take(sim, g) != g->idle_cpu)
			lb_check_failed("first idle CPU");
#endif
		return g->idle_cpu;
	}
	g->idle_epoch = g->epoch;
	g->idle_cpu = first_idle_cpu_take(sim, g);
	return g->idle_cpu;
}

/* a group's figures as find_busiest_group reads a remote group: its average load, whether it
 * is imbalanced within, whether it may be the busiest */
struct remote_group {
	u64 avg_load;
	bool imb, candidate;
};

static struct remote_group remote_group(struct sl_sim *sim, const struct sl_sched_group *g,
					const struct sl_group_sums *gs)
{
	struct remote_group r;
	u64 avg_lpt = div_power(sim, g, gs->sum_alpt * SCHED_LOAD_SCALE);

	r.avg_load = div_power(sim, g, gs->sum_src * SCHED_LOAD_SCALE);
	r.imb = gs->max_src - gs->min_src > 2 * avg_lpt;
	r.candidate = gs->sum_nr > g->cpu_power / SCHED_LOAD_SCALE || r.imb;
	return r;
}

/*
 * The domain's figures at load_idx that every CPU of the span shares (struct sl_sd_stats),
 * taken again only after a CPU of the span changed (its span_epoch) or the features did: the
 * balancing CPUs of a flat socket of N CPUs each walked its N groups. A CPU's busiest group is
 * the first of the greatest average load among the candidates other than its own group (the
 * kernel's order puts its own first, the others in groups[] order, and a later equal load
 * does not win): cand[0] when that is not its own group, else cand[1], the first of the
 * greatest among the rest. Sums of integers, so the order of the additions does not matter.
 */
static const struct sl_sd_stats *domain_stats(struct sl_sim *sim, struct sl_sched_domain *sd,
					      int load_idx)
{
	struct sl_sd_stats *ds = &sd->stats[load_idx];
	u64 epoch = sd->groups[0].span_epoch;

	if (ds->epoch == epoch && ds->features == sim->features)
		return ds;
	ds->epoch = epoch;
	ds->features = sim->features;
	ds->total_src = ds->total_pwr = 0;
	for (int k = 0; k < 2; k++)
		ds->cand[k] = (struct sl_sd_cand){.group = -1};
	for (int gi = 0; gi < sd->ngroups; gi++) {
		struct sl_sched_group *g = &sd->groups[gi];
		const struct sl_group_sums *gs = group_sums(sim, g, load_idx);
		struct remote_group r = remote_group(sim, g, gs);
		struct sl_sd_cand c = {gi, r.imb, r.avg_load, gs->sum_nr, gs->sum_wl};

		ds->total_src += gs->sum_src;
		ds->total_pwr += g->cpu_power;
		/* max_load starts at 0: a group of no load is never the busiest */
		if (!r.candidate || r.avg_load <= ds->cand[1].avg_load)
			continue;
		if (r.avg_load > ds->cand[0].avg_load) {
			ds->cand[1] = ds->cand[0];
			ds->cand[0] = c;
		} else {
			ds->cand[1] = c;
		}
	}
	return ds;
}

/* the statistics of find_busiest_group's walk of the groups, from the domain's kept figures */
static void lb_stats_kept(struct sl_sim *sim, struct sl_sched_domain *sd, int load_idx,
			  struct lb_stats *s)
{
	const struct sl_sd_stats *ds = domain_stats(sim, sd, load_idx);
	struct sl_sched_group *lg = &sd->groups[sd->local];
	const struct sl_group_sums *ls = group_sums(sim, lg, load_idx);
	const struct sl_sd_cand *c = &ds->cand[ds->cand[0].group == sd->local];

	memset(s, 0, sizeof(*s));
	/* the local group counts its target load, the others their source loads */
	s->total_load = ds->total_src - ls->sum_src + ls->sum_tgt;
	s->total_pwr = ds->total_pwr;
	s->this = lg;
	s->this_load = div_power(sim, lg, ls->sum_tgt * SCHED_LOAD_SCALE);
	s->this_nr_running = ls->sum_nr;
	s->this_load_per_task = ls->sum_wl;
	if (c->group >= 0) {
		s->busiest = &sd->groups[c->group];
		s->max_load = c->avg_load;
		s->busiest_nr_running = c->nr_running;
		s->busiest_load_per_task = c->load;
		s->group_imb = c->imb;
	}
}

#ifdef SL_LB_CHECK_CACHE
/* the same statistics as the kernel walks the groups (the local one first), the sums taken
 * afresh */
static void lb_stats_walk(struct sl_sim *sim, struct sl_sched_domain *sd, int load_idx,
			  struct lb_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (int gi = 0; gi < sd->ngroups; gi++) {
		struct sl_sched_group *g = sl_sd_group(sd, gi);
		struct sl_group_sums gs;

		group_sums_take(sim, g, load_idx, &gs);
		s->total_pwr += g->cpu_power;
		if (gi == 0) { /* groups are disjoint: only the first holds this_cpu */
			s->total_load += gs.sum_tgt;
			s->this_load = div_power(sim, g, gs.sum_tgt * SCHED_LOAD_SCALE);
			s->this = g;
			s->this_nr_running = gs.sum_nr;
			s->this_load_per_task = gs.sum_wl;
			continue;
		}
		struct remote_group r = remote_group(sim, g, &gs);

		s->total_load += gs.sum_src;
		if (r.avg_load > s->max_load && r.candidate) {
			s->max_load = r.avg_load;
			s->busiest = g;
			s->busiest_nr_running = gs.sum_nr;
			s->busiest_load_per_task = gs.sum_wl;
			s->group_imb = r.imb;
		}
	}
}

static void lb_stats_check(struct sl_sim *sim, struct sl_sched_domain *sd, int load_idx,
			   const struct lb_stats *k)
{
	struct lb_stats w;

	lb_stats_walk(sim, sd, load_idx, &w);
	if (w.this != k->this || w.busiest != k->busiest || w.total_load != k->total_load ||
	    w.total_pwr != k->total_pwr || w.this_load != k->this_load ||
	    w.this_nr_running != k->this_nr_running ||
	    w.this_load_per_task != k->this_load_per_task || w.max_load != k->max_load ||
	    w.busiest_nr_running != k->busiest_nr_running ||
	    w.busiest_load_per_task != k->busiest_load_per_task || w.group_imb != k->group_imb)
		lb_check_failed("domain statistics");
}
#endif

static struct sl_sched_group *find_busiest_group(struct sl_sim *sim, struct sl_sched_domain *sd,
						 int this_cpu, u64 *imb, enum sl_idle_type idle,
						 int *balance)
{
	struct lb_stats s;
	int load_idx = idle == CPU_NOT_IDLE	? sd->busy_idx
		       : idle == CPU_NEWLY_IDLE ? sd->newidle_idx
						: sd->idle_idx;

	*imb = 0;
	/* only the local group's first idle CPU (else its first CPU) balances it at this level:
	 * the other CPUs stop here, before the sums, which they would not use */
	struct sl_sched_group *lg = sl_sd_group(sd, 0);

	if (idle != CPU_NEWLY_IDLE && balance && lg->ncpus > 1 &&
	    first_idle_cpu(sim, lg) != this_cpu) {
		*balance = 0;
		return NULL;
	}
	lb_stats_kept(sim, sd, load_idx, &s);
#ifdef SL_LB_CHECK_CACHE
	lb_stats_check(sim, sd, load_idx, &s);
#endif
	if (!s.busiest || !s.busiest_nr_running || !s.this)
		return NULL;
	if (s.this_load >= s.max_load)
		return NULL;
	/* total_pwr >= 1: every group has power (its domain_stats sum, which the analyzer
	 * cannot see) */
	// NOLINTNEXTLINE(clang-analyzer-core.DivideZero)
	s.avg_load = SCHED_LOAD_SCALE * s.total_load / s.total_pwr;
	if (s.this_load >= s.avg_load)
		return NULL;
	if (100 * s.max_load <= (u64)sd->imbalance_pct * s.this_load)
		return NULL;
	s.busiest_load_per_task /= s.busiest_nr_running;
	if (s.group_imb)
		s.busiest_load_per_task = min_u64(s.busiest_load_per_task, s.avg_load);
	if (s.max_load <= s.busiest_load_per_task)
		return NULL;
	calculate_imbalance(sim, &s, this_cpu, imb);
	return s.busiest;
}

static int find_busiest_queue(struct sl_sim *sim, struct sl_sched_group *g, u64 imb)
{
	u64 max_load = 0;
	int busiest = -1;

	for (int i = 0; i < g->ncpus; i++) {
		struct sl_cpu *rq = &sim->cpus[g->cpus[i]];
		u64 wl = weighted_cpuload(sim, g->cpus[i]);

		if (rq->nr_running == 1 && wl > imb)
			continue;
		if (wl > max_load) {
			max_load = wl;
			busiest = g->cpus[i];
		}
	}
	return busiest;
}

static bool can_migrate_task(struct sl_sim *sim, struct sl_task *p, int this_cpu,
			     struct sl_sched_domain *sd)
{
	if (p->on_cpu || !sl_cpu_allowed(p, this_cpu))
		return false;
	return !sl_task_hot(sim, p) || sd->nr_balance_failed > sd->cache_nice_tries;
}

/* pull_task: deactivate, set_task_cpu, activate (no placement), check preemption */
static void pull_task(struct sl_sim *sim, struct sl_task *p, int this_cpu)
{
	struct sl_cpu *src = &sim->cpus[p->cpu], *dst = &sim->cpus[this_cpu];

	sl_cfs_dequeue_task(sim, src, p, 0);
	sl_cfs_set_task_cpu(sim, p, this_cpu);
	sl_cfs_enqueue_task(sim, dst, p, 0);
	/* the core check: an RT task running there is not the fair class's to preempt */
	sl_check_preempt_curr(sim, dst, p, 0);
}

/* balance_tasks over one runqueue's task list */
static u64 balance_tasks(struct sl_sim *sim, int this_cpu, struct cfs_rq *cfs, u64 max_load_move,
			 struct sl_sched_domain *sd)
{
	s64 rem = (s64)max_load_move;
	u64 moved = 0, loops = 0;
	struct sched_entity *se, *nx;

	if (!max_load_move)
		return 0;
	for (se = TAILQ_FIRST(&cfs->tasks); se && rem > 0; se = nx) {
		struct sl_task *p = sl_task_of(se);

		nx = TAILQ_NEXT(se, group_node);
		if (loops++ > sim->tun.sched_nr_migrate)
			break;
		if ((s64)(se->load.weight >> 1) > rem || !can_migrate_task(sim, p, this_cpu, sd))
			continue;
		pull_task(sim, p, this_cpu);
		rem -= (s64)se->load.weight;
		moved += se->load.weight;
	}
	return moved;
}

/*
 * load_balance_fair. Without groups: balance_tasks over the CPU's runqueue. With groups: over
 * each group's runqueue on the busiest CPU (task_groups order, the newest first), the load to
 * move converted into the group's own weights by its h_load and back.
 */
static u64 move_tasks(struct sl_sim *sim, int this_cpu, int busiest, u64 max_load_move,
		      struct sl_sched_domain *sd)
{
	s64 rem;

	if (!sim->group_sched)
		return balance_tasks(sim, this_cpu, cfs_rq_of_cpu(&sim->cpus[busiest]),
				     max_load_move, sd);
	rem = (s64)max_load_move;
	sl_update_h_load(sim, busiest);
	for (int i = sim->ntgs - 1; i >= 0; i--) {
		struct cfs_rq *cfs = &sim->tgs[i]->cfs_rq[busiest];
		u64 h_load = cfs->h_load, weight = cfs->load.weight, moved;

		if (!cfs->task_weight)
			continue;
		moved = balance_tasks(sim, this_cpu, cfs, (u64)rem * weight / (h_load + 1), sd);
		if (!moved)
			continue;
		rem -= (s64)(moved * h_load / (weight + 1));
		if (rem < 0)
			break;
	}
	return (u64)((s64)max_load_move - rem);
}

/* The migration thread's part of an active balance, run from schedule() on the busiest CPU once
 * its running task has been put back: move the first movable task to push_cpu. */
void sl_active_load_balance(struct sl_sim *sim, struct sl_cpu *busiest, int push_cpu)
{
	struct sched_entity *se;

	busiest->active_balance = false;
	/* nr_running counts the migration thread in the kernel: <= 1 there is 0 here */
	if (busiest->nr_running < 1)
		return;
	/* move_one_task_fair: the leaf runqueues in order (with groups the newest group's first) */
	for (int i = sim->group_sched ? sim->ntgs - 1 : 0; i >= 0; i--) {
		struct cfs_rq *cfs = sim->group_sched ? &sim->tgs[i]->cfs_rq[busiest->id]
						      : cfs_rq_of_cpu(busiest);

		TAILQ_FOREACH(se, &cfs->tasks, group_node)
		{
			struct sl_task *p = sl_task_of(se);

			if (!p->on_cpu && sl_cpu_allowed(p, push_cpu)) {
				pull_task(sim, p, push_cpu);
				return;
			}
		}
	}
}

static int load_balance(struct sl_sim *sim, int this_cpu, struct sl_sched_domain *sd,
			enum sl_idle_type idle, int *balance)
{
	u64 imb, ld_moved = 0;
	struct sl_sched_group *g;

	/* update_shares before find_busiest_group (the one after a move is always inside the
	 * rate limit: the same instant) */
	if (sim->group_sched)
		sl_update_shares(sim, sd, this_cpu, (int)(sd - sim->cpus[this_cpu].sd));
	/* find_busiest_group reads only the span's CPUs (nr_running, load, cpu_load[], curr as
	 * idle or not: what bumps a group's epoch), the features and the domain's constants: with
	 * none changed since it last found nothing here, it finds nothing again */
	u64 epoch = sd->groups[0].span_epoch;

	if (sd->nobusy_valid && sd->nobusy_epoch == epoch && sd->nobusy_idle == (int)idle &&
	    sd->nobusy_features == sim->features) {
		imb = 0;
		g = NULL;
#ifdef SL_LB_CHECK_CACHE
		int b = 1;

		if (find_busiest_group(sim, sd, this_cpu, &imb, idle, &b) || !b != sd->nobusy_stop)
			lb_check_failed("balanced domain");
		imb = 0;
#endif
		if (sd->nobusy_stop)
			*balance = 0;
	} else {
		g = find_busiest_group(sim, sd, this_cpu, &imb, idle, balance);
		sd->nobusy_valid = !g;
		sd->nobusy_stop = !*balance;
		sd->nobusy_idle = (int)idle;
		sd->nobusy_epoch = epoch;
		sd->nobusy_features = sim->features;
	}
	int busiest;
	bool active = false;

	if ((balance && !*balance) || !g)
		goto out_balanced;
	busiest = find_busiest_queue(sim, g, imb);
	if (busiest < 0)
		goto out_balanced;
	if (sim->cpus[busiest].nr_running > 1) {
		ld_moved = move_tasks(sim, this_cpu, busiest, imb, sd);
		if (ld_moved && this_cpu != sim->this_cpu)
			sl_resched_cpu(sim, &sim->cpus[this_cpu]);
	}
	if (!ld_moved) {
		sd->nr_balance_failed++;
		if (sd->nr_balance_failed > sd->cache_nice_tries + 2) {
			struct sl_cpu *b = &sim->cpus[busiest];

			if (!b->active_balance && b->curr) {
				b->active_balance = true;
				b->push_cpu = this_cpu;
				active = true;
				sl_resched_cpu(sim, b);
			}
			sd->nr_balance_failed = sd->cache_nice_tries + 1;
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	if (!active)
		sd->balance_interval = (u64)sd->min_interval;
	else if (sd->balance_interval < (u64)sd->max_interval)
		sd->balance_interval *= 2;
	return ld_moved != 0;

out_balanced:
	sd->nr_balance_failed = 0;
	if (sd->balance_interval < (u64)sd->max_interval)
		sd->balance_interval *= 2;
	return 0;
}

static u64 msecs_to_jiffies(struct sl_sim *sim, u64 ms)
{
	return (ms * sim->hz + 999) / 1000;
}

static u64 jiffies(struct sl_sim *sim)
{
	return sl_jiffies(sim);
}

/* a domain's balance interval in jiffies (CPU_NOT_IDLE: times busy_factor), clamped as the
 * kernel does */
static u64 balance_jiffies(struct sl_sim *sim, struct sl_sched_domain *sd, enum sl_idle_type idle)
{
	/* both figures kept for the balance_interval they were taken at (it changes only when
	 * the domain balances; HZ never) */
	if (sd->interval_ms != sd->balance_interval) {
		sd->interval_ms = sd->balance_interval;
		for (int busy = 0; busy < 2; busy++) {
			u64 interval = sd->balance_interval;

			if (busy)
				interval *= (u64)sd->busy_factor;
			interval = msecs_to_jiffies(sim, interval);
			if (!interval)
				interval = 1;
			if (interval > sim->hz * NR_CPUS_CONFIG / 10)
				interval = sim->hz * NR_CPUS_CONFIG / 10;
			sd->interval_j[busy] = interval;
		}
	}
	return sd->interval_j[idle != CPU_IDLE];
}

static void rebalance_domains(struct sl_sim *sim, int cpu, enum sl_idle_type idle)
{
	struct sl_cpu *rq = &sim->cpus[cpu];
	u64 j = jiffies(sim), next_balance = j + 60 * sim->hz;
	int balance = 1;
	bool was_idle = idle == CPU_IDLE;

	/* an idle CPU none of whose domains is due (the NO_HZ balancer calls this for every
	 * tickless CPU at each of its ticks): the loop below would balance nothing and set
	 * next_balance to the least last_balance + interval, which is idle_next_balance */
	if (was_idle && rq->idle_next_balance && j < rq->idle_next_balance) {
		rq->next_balance = min_u64(next_balance, rq->idle_next_balance);
		return;
	}
	for (int i = 0; i < rq->nsd; i++) {
		struct sl_sched_domain *sd = &rq->sd[i];
		u64 interval = balance_jiffies(sim, sd, idle);

		if (j >= sd->last_balance + interval) {
			if (load_balance(sim, cpu, sd, idle, &balance))
				idle = CPU_NOT_IDLE;
			sd->last_balance = j;
		}
		if (sd->last_balance + interval < next_balance)
			next_balance = sd->last_balance + interval;
		if (!balance)
			break;
	}
	rq->next_balance = next_balance;
	/* when a CPU_IDLE walk finds a domain due next, as the domains are now (only
	 * load_balance, called from here, changes their last_balance and balance_interval);
	 * taken after a CPU_IDLE walk only: a busy CPU's walks leave it unknown */
	u64 idle_min = UINT64_MAX;

	if (!was_idle) {
		rq->idle_next_balance = 0;
		return;
	}
	for (int i = 0; i < rq->nsd; i++) {
		u64 t = rq->sd[i].last_balance + balance_jiffies(sim, &rq->sd[i], CPU_IDLE);

		if (t < idle_min)
			idle_min = t;
	}
	rq->idle_next_balance = idle_min;
}

static int first_nohz_cpu(struct sl_sim *sim)
{
	for (int c = 0; c < sim->ncpu; c++)
		if (sim->cpus[c].in_nohz_mask)
			return c;
	return -1;
}

/* scheduler_tick's trigger_load_balance, with the NO_HZ idle load balancer, then the softirq. */
void sl_rebalance_tick(struct sl_sim *sim, struct sl_cpu *rq)
{
	int cpu = rq->id;

	if (rq->in_nohz_recently && !rq->idle_at_tick) {
		rq->in_nohz_recently = false;
		if (sim->nohz_balancer == cpu) {
			if (rq->in_nohz_mask) {
				rq->in_nohz_mask = false;
				sim->nohz_count--;
			}
			sim->nohz_balancer = -1;
		}
		if (sim->nohz_balancer == -1) {
			int ilb = first_nohz_cpu(sim);

			if (ilb >= 0)
				sl_resched_cpu(sim, &sim->cpus[ilb]);
		}
	}
	if (rq->idle_at_tick && sim->nohz_balancer == cpu && sim->nohz_count == sim->ncpu) {
		sl_resched_cpu(sim, rq);
		return;
	}
	if (rq->idle_at_tick && sim->nohz_balancer != cpu && rq->in_nohz_mask)
		return;
	if (jiffies(sim) < rq->next_balance || !rq->nsd)
		return;
	/* run_rebalance_domains */
	rebalance_domains(sim, cpu, rq->idle_at_tick ? CPU_IDLE : CPU_NOT_IDLE);
	if (rq->idle_at_tick && sim->nohz_balancer == cpu) {
		for (int c = 0; c < sim->ncpu; c++) {
			if (c == cpu || !sim->cpus[c].in_nohz_mask)
				continue;
			if (rq->need_resched)
				break;
			rebalance_domains(sim, c, CPU_IDLE);
			if (sim->cpus[c].next_balance < rq->next_balance)
				rq->next_balance = sim->cpus[c].next_balance;
		}
	}
}

/* select_nohz_load_balancer(stop_tick): returns true when this CPU must keep its tick. */
bool sl_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop)
{
	int cpu = rq->id;

	if (!stop) {
		if (rq->in_nohz_mask) {
			rq->in_nohz_mask = false;
			sim->nohz_count--;
		}
		if (sim->nohz_balancer == cpu)
			sim->nohz_balancer = -1;
		return false;
	}
	rq->in_nohz_recently = true;
	if (!rq->in_nohz_mask) {
		rq->in_nohz_mask = true;
		sim->nohz_count++;
	}
	if (sim->nohz_count == sim->ncpu) {
		if (sim->nohz_balancer == cpu)
			sim->nohz_balancer = -1;
		return false;
	}
	if (sim->nohz_balancer == -1) {
		sim->nohz_balancer = cpu;
		return true;
	}
	return sim->nohz_balancer == cpu;
}

/* idle_balance: a CPU about to go idle pulls work where SD_BALANCE_NEWIDLE is set. */
void sl_idle_balance(struct sl_sim *sim, struct sl_cpu *rq)
{
	u64 next_balance = jiffies(sim) + sim->hz;
	int pulled = 0;

	for (int i = 0; i < rq->nsd; i++) {
		struct sl_sched_domain *sd = &rq->sd[i];

		if (sd->flags & SD_BALANCE_NEWIDLE) {
			u64 imb;

			sl_update_shares(sim, sd, rq->id, i); /* update_shares_locked */
			struct sl_sched_group *g =
				find_busiest_group(sim, sd, rq->id, &imb, CPU_NEWLY_IDLE, NULL);
			int busiest = g ? find_busiest_queue(sim, g, imb) : -1;

			if (!g || busiest < 0) {
				sd->nr_balance_failed = 0;
			} else {
				u64 moved = 0;

				if (sim->cpus[busiest].nr_running > 1)
					moved = move_tasks(sim, rq->id, busiest, imb, sd);
				/* load_balance_newidle returns -1 on no move (power savings < 2):
				 * non-zero, so the walk stops */
				pulled = moved ? 1 : -1;
				if (moved)
					sd->nr_balance_failed = 0;
			}
		}
		u64 nb = sd->last_balance + msecs_to_jiffies(sim, sd->balance_interval);

		if (nb < next_balance)
			next_balance = nb;
		if (pulled)
			break;
	}
	if (pulled || jiffies(sim) > rq->next_balance)
		rq->next_balance = next_balance;
}
