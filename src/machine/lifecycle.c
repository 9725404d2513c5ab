/* The simulation's life: build a machine from its description, run the event loop, free it. */
#include "machine/machine.h"
#include "machine/sleep_timers.h"
#include "machine/wake_rules.h"
#include "sched/class.h"
#include "sched/release.h"
#include "sched/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A timer that was waiting for its CPU's C-state exit no longer is (the engine calls this when
 * a timer is moved or cancelled). */
static void undelay(struct sl_engine *e, struct sl_timer *t)
{
	if (t->exit_delayed) {
		struct sl_sim *sim = sl_container_of(e, struct sl_sim, eng);

		t->exit_delayed = false;
		if (t->cpu >= 0)
			sl_mcpu(sim, t->cpu)->irq_busy--;
	}
}

/*
 * The tick_phase parameters: where the jiffy grid lies against the run's start. A real run
 * starts at an arbitrary point of its kernel's tick period, so its periodic timers (rt-app's,
 * started with it) fall at an arbitrary phase of the tick; the model's grid starting with the
 * run puts a 6 ms timer 82 us after every other tick of a 4 ms grid, every run (docs/validate.md,
 * the slow five per cent). tick_phase_random draws the phase from the seed (its own splitmix
 * step, so the scheduler's stream of numbers is unchanged), uniform over one tick.
 */
static u64 tick_phase(const struct sl_params *p, u64 tick_ns, u64 seed)
{
	u64 z = seed + 0x9e3779b97f4a7c15ULL + 0x7469636bULL; /* "tick" */

	if (!p->tick_phase_random)
		return p->tick_phase_ns % tick_ns;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) % tick_ns;
}

int sl_sim_set_governor(struct sl_sim *sim, const struct sl_cpuidle_governor *gov)
{
	struct sl_machine *m = sl_machine_of(sim);

	for (int c = 0; c < sim->ncpu; c++) {
		struct sl_cpuidle_dev *dev = &sl_mcpu(sim, c)->idle_dev;

		if (m->idle_gov->disable)
			m->idle_gov->disable(dev);
		dev->gov_data = NULL;
	}
	m->idle_gov = gov;
	for (int c = 0; c < sim->ncpu; c++)
		if (gov->enable && gov->enable(&sl_mcpu(sim, c)->idle_dev, m->idle_drv))
			return -1;
	return 0;
}

struct sl_sim *sl_machine_new(const struct sl_machine_desc *d)
{
	struct sl_machine *m = calloc(1, sizeof(*m));
	struct sl_params *p = malloc(sizeof(*p));
	struct sl_sim *sim;

	if (!m || !p) {
		free(m);
		free(p);
		return NULL;
	}
	sim = &m->sim;
	*p = *d->params;
	m->p = p;
	sl_wake_rules_init(sim);
	if (sl_engine_init(&sim->eng, d->seed))
		goto fail;
	sim->on_rearm = undelay;
	sim->mops = &sl_machine_ops;
	sl_rng_seed(&sim->sched_rng, d->seed ^ 0x6eedf6eedfULL);
	sl_rng_seed(&sim->ni_rng, d->seed ^ 0x6e1d1e6e1d1eULL);
	sim->tun = *d->tun;
	sim->ni_ratio_start = (unsigned)p->newidle_ratio;
	sim->ni_cost = p->newidle_cost_ns;
	sim->ni_tail = p->newidle_tail_ns;
	sim->features = d->features;
	sim->feat_read = d->feat_read;
	sim->rel = d->rel;
	/* the RT class above every release's fair class (release.c) */
	sim->nclasses = sl_release_classes(d->rel, sim->classes);
	sim->hz = p->hz;
	sim->tick_ns = NSEC_PER_SEC / p->hz;
	sim->tick_phase_ns = tick_phase(p, sim->tick_ns, d->seed);
	m->irq_bg_seed = d->seed;
	sim->group_sched = (int)p->group_sched;
	sim->tg_root_shares = p->group_root_shares;
	sim->tg_user_shares = p->group_user_shares;
	m->idle_drv = d->drv;
	m->idle_gov = d->gov;
	m->pm_qos_latency_ns = d->pm_qos_ns;
	m->gov_params = *d->gp;
	m->irq_affinity = d->irq_affinity;
	sim->this_cpu = -1;
	sim->nohz_balancer = -1;
	sim->progress = d->progress;
	sim->ncpu = d->ncpu;
	sim->cpus = calloc((size_t)d->ncpu, sizeof(*sim->cpus));
	m->cpus = calloc((size_t)d->ncpu, sizeof(*m->cpus));
	if (!sim->cpus || !m->cpus || sl_class_rq_alloc(sim))
		goto fail;
	sim->lvl_words = (d->ncpu + 63) / 64;
	for (int c = 0; c < d->ncpu; c++) {
		struct sl_cpu *rq = &sim->cpus[c];
		int per_thread = d->sockets * d->cores;

		sl_machine_init_cpu(sim, rq, c);
		/* Linux's x86 numbering: first threads of every core, then their siblings */
		sl_mcpu(sim, rq->id)->thread = c / per_thread;
		rq->socket = (c % per_thread) / d->cores;
		rq->core = (c % per_thread) % d->cores;
	}
	for (int c = 0; c < d->ncpu; c++) {
		struct sl_cpuidle_dev *dev = &sl_mcpu(sim, c)->idle_dev;

		dev->cpu = c;
		dev->gp = &m->gov_params;
		dev->tick_ns = sim->tick_ns;
		memcpy(dev->disabled, d->disabled, sizeof(dev->disabled));
		if (m->idle_gov->enable && m->idle_gov->enable(dev, m->idle_drv))
			goto fail;
	}
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->init_sim && sim->classes[i]->init_sim(sim))
			goto fail;
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->build_domains)
			sim->classes[i]->build_domains(sim);
	if (sim->oom)
		goto fail;
	return sim;
fail:
	sl_sim_free(sim);
	return NULL;
}

int sl_machine_alloc_groups(struct sl_sim *sim, int n)
{
	struct sl_machine *m = sl_machine_of(sim);

	m->groups = calloc((size_t)(n ? n : 1), sizeof(*m->groups));
	return m->groups ? 0 : -1;
}

static bool all_done(const struct sl_sim *sim)
{
	const struct sl_machine *m = sl_machine_of(sim);

	if (m->duration_set || !m->ngroups)
		return false;
	for (int i = 0; i < m->ngroups; i++) {
		const struct sl_group *g = &m->groups[i];

		if (!g->finite || !g->spawned || g->live)
			return false;
	}
	return true;
}

int sl_sim_run(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);

	sl_machine_start(sim);
	sl_engine_run(&sim->eng, sim, sl_machine_dispatch, all_done);
	if (!all_done(sim) && !sim->error[0] && !sim->oom)
		sim->now = sim->end;
	sl_machine_finish(sim);
	for (int i = 0; i < m->ngroups && !sim->oom && !sim->error[0]; i++)
		if (m->groups[i].finish && m->groups[i].finish(sim, &m->groups[i]) &&
		    !sim->error[0] && !sim->oom)
			snprintf(sim->error, sizeof(sim->error), "workload %s: cannot finish",
				 m->groups[i].name);
	if (sim->oom) {
		snprintf(sim->error, sizeof(sim->error), "out of memory");
		return -1;
	}
	return sim->error[0] ? -1 : 0;
}

static void group_free(struct sl_group *g)
{
	for (int k = 0; k < g->nprogs; k++) {
		free(g->progs[k]->steps);
		free(g->progs[k]);
	}
	free(g->progs);
	for (int k = 0; k < g->nmutex; k++) {
		free(g->mutexes[k].waiters);
		free(g->mutexes[k].spinners);
	}
	free(g->mutexes);
	for (int k = 0; k < g->nconds; k++) {
		free(g->conds[k].q.w);
		free(g->conds[k].quiesce.w);
	}
	free(g->conds);
	for (int k = 0; k < g->nsems; k++)
		free(g->sems[k].q.w);
	free(g->sems);
	free(g->handoffs.h);
	free(g->barriers);
	free(g->timers);
	if (g->state_free)
		g->state_free(g->state);
}

void sl_sim_free(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);

	if (!sim)
		return;
	sl_engine_free(&sim->eng);
	for (int i = 0; i < m->ntasks; i++)
		sl_task_free(sl_sim_task(sim, i));
	sl_task_chunks_free(sim);
	for (int i = 0; i < m->ngroups; i++)
		group_free(&m->groups[i]);
	for (int i = 0; i < m->ngroups; i++) {
		if (m->groups[i].clat)
			sl_hist_free(m->groups[i].clat);
		free(m->groups[i].clat);
	}
	free(m->groups);
	sl_disks_free(sim);
	free(m->bcast_busy);
	/* the --at changes are the configuration's (config/machine_build.c), allocated whole */
	free(m->changes);
	if (sim->cpus) {
		for (int i = 0; i < sim->nclasses; i++)
			if (sim->classes[i]->free_domains)
				sim->classes[i]->free_domains(sim);
		for (int i = 0; i < sim->nclasses; i++)
			if (sim->classes[i]->exit_sim)
				sim->classes[i]->exit_sim(sim);
		for (int c = 0; c < sim->ncpu && m->idle_gov && m->cpus; c++)
			if (m->idle_gov->disable)
				m->idle_gov->disable(&sl_mcpu(sim, c)->idle_dev);
	}
	free(sim->cpus);
	sl_class_rq_free(sim);
	sl_sleep_timers_free(sim);
	free(m->runnable);
	free(m->cpus);
	sl_nohz_next_free(sim);
	free(sim->free_bits);
	free((void *)m->p);
	free(m);
}
