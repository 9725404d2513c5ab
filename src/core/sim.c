/* The simulation's life: build it from a configuration, run the event loop, free it. */
#include "core/sim.h"
#include "core/interrupt.h"
#include "config/config.h"
#include "machine/machine.h"
#include "sched/cfs.h"
#include "sched/class.h"
#include "cpuidle/cpuidle.h"
#include "machine/blockdev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* When neither --duration nor a finite workload ends the run. */
#define DEFAULT_DURATION (10 * NSEC_PER_SEC)
/* A run of finite workloads without --duration stops here at the latest. */
#define FINITE_CAP (3600 * NSEC_PER_SEC)

void sl_emit(struct sl_sim *sim, struct sl_event *ev)
{
	ev->time = sim->now;
	for (int i = 0; i < sim->nsubs; i++)
		sim->subs[i].fn(sim->subs[i].ctx, ev);
}

/* A timer that was waiting for its CPU's C-state exit no longer is. */
static void undelay(struct sl_sim *sim, struct sl_timer *t)
{
	if (t->exit_delayed) {
		t->exit_delayed = false;
		if (t->cpu >= 0)
			sim->cpus[t->cpu].irq_busy--;
	}
}

void sl_arm(struct sl_sim *sim, struct sl_timer *t, u64 expires)
{
	undelay(sim, t);
	if (sl_timerq_arm(&sim->q, t, expires))
		sim->oom = true;
}

void sl_cancel(struct sl_sim *sim, struct sl_timer *t)
{
	undelay(sim, t);
	sl_timerq_cancel(&sim->q, t);
}

int sl_sim_subscribe(struct sl_sim *sim, sl_event_fn fn, void *ctx)
{
	if (sim->nsubs == (int)SL_ARRAY_SIZE(sim->subs))
		return -1;
	sim->subs[sim->nsubs].fn = fn;
	sim->subs[sim->nsubs].ctx = ctx;
	sim->nsubs++;
	return 0;
}

static void knob_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_knob_change *c = sl_container_of(t, struct sl_knob_change, timer);
	char err[512];

	/* validated when parsed; a failure here would be a bug, so it stops the run loudly */
	if (sl_knob_apply(sim->rel, &sim->tun, &sim->features, c->kind, c->text, err, sizeof(err)))
		snprintf(sim->error, sizeof(sim->error), "--at: %s", err);
}

static void start_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_group *g = sl_container_of(t, struct sl_group, start_timer);

	sim->this_cpu = -1;
	g->start = sim->now;
	g->spawned = true;
	if (g->wl->ops->spawn(sim, g, g->wl->args) && !sim->error[0])
		snprintf(sim->error, sizeof(sim->error), "workload %s: cannot create its tasks",
			 g->name);
}

int sl_sim_set_governor(struct sl_sim *sim, const struct sl_cpuidle_governor *gov)
{
	for (int c = 0; c < sim->ncpu; c++) {
		struct sl_cpuidle_dev *dev = &sim->cpus[c].idle_dev;

		if (sim->idle_gov->disable)
			sim->idle_gov->disable(dev);
		dev->gov_data = NULL;
	}
	sim->idle_gov = gov;
	for (int c = 0; c < sim->ncpu; c++)
		if (gov->enable && gov->enable(&sim->cpus[c].idle_dev, sim->idle_drv))
			return -1;
	return 0;
}

void sl_group_name(const struct sl_config *cfg, int i, char *buf, size_t len)
{
	int same = 0;

	for (int k = 0; k < i; k++)
		same += cfg->wl[k].ops == cfg->wl[i].ops;
	if (same)
		snprintf(buf, len, "%s#%d", cfg->wl[i].ops->name, same + 1);
	else
		snprintf(buf, len, "%s", cfg->wl[i].ops->name);
}

struct sl_sim *sl_sim_new(const struct sl_config *cfg)
{
	struct sl_sim *sim = calloc(1, sizeof(*sim));

	if (!sim)
		return NULL;
	if (sl_timerq_init(&sim->q))
		goto fail;
	sl_rng_seed(&sim->rng, cfg->seed);
	sl_rng_seed(&sim->sched_rng, cfg->seed ^ 0x6eedf6eedfULL);
	sim->p = cfg->params;
	sim->tun = cfg->tun;
	sim->features = cfg->features;
	sim->rel = cfg->rel;
	/* the RT class above every release's fair class (rt.c) */
	sim->classes[sim->nclasses++] = &sl_rt_class;
	sim->classes[sim->nclasses++] = cfg->rel->fair;
	sim->tick_ns = NSEC_PER_SEC / sim->p.hz;
	sim->idle_drv = &cfg->drv;
	sim->idle_gov = cfg->gov;
	sim->pm_qos_latency_ns = cfg->pm_qos_ns;
	sim->gov_params = cfg->gp;
	sim->irq_affinity = cfg->irq_affinity;
	sim->this_cpu = -1;
	sim->nohz_balancer = -1;
	sim->progress = cfg->progress;
	sim->ncpu = cfg->ncpu;
	sim->cpus = calloc((size_t)cfg->ncpu, sizeof(*sim->cpus));
	if (!sim->cpus)
		goto fail;
	for (int c = 0; c < cfg->ncpu; c++) {
		struct sl_cpu *rq = &sim->cpus[c];
		int per_thread = cfg->sockets * cfg->cores;

		sl_machine_init_cpu(sim, rq, c);
		/* Linux's x86 numbering: first threads of every core, then their siblings */
		rq->thread = c / per_thread;
		rq->socket = (c % per_thread) / cfg->cores;
		rq->core = (c % per_thread) % cfg->cores;
	}
	for (int c = 0; c < cfg->ncpu; c++) {
		struct sl_cpuidle_dev *dev = &sim->cpus[c].idle_dev;

		dev->cpu = c;
		dev->gp = &sim->gov_params;
		dev->tick_ns = sim->tick_ns;
		memcpy(dev->disabled, cfg->disabled, sizeof(dev->disabled));
		if (sim->idle_gov->enable && sim->idle_gov->enable(dev, sim->idle_drv))
			goto fail;
	}
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->build_domains)
			sim->classes[i]->build_domains(sim);
	if (sim->oom)
		goto fail;
	sim->groups = calloc((size_t)(cfg->nwl ? cfg->nwl : 1), sizeof(*sim->groups));
	if (!sim->groups)
		goto fail;
	for (int i = 0; i < cfg->nwl; i++) {
		struct sl_group *g = &sim->groups[sim->ngroups++];

		g->id = i;
		sl_group_name(cfg, i, g->name, sizeof(g->name));
		snprintf(g->spec, sizeof(g->spec), "%s", cfg->wl[i].spec);
		g->finite = cfg->wl[i].ops->finite(cfg->wl[i].args);
		g->wl = &cfg->wl[i];
		sl_timer_init(&g->start_timer, start_fn, -1);
	}
	sim->changes = calloc((size_t)(cfg->nat ? cfg->nat : 1), sizeof(*sim->changes));
	if (!sim->changes)
		goto fail;
	for (int i = 0; i < cfg->nat; i++) {
		struct sl_knob_change *c = &sim->changes[sim->nchanges++];

		sl_timer_init(&c->timer, knob_fn, -1);
		c->kind = cfg->at[i].kind;
		memcpy(c->text, cfg->at[i].text, sizeof(c->text));
	}
	/* the run's end */
	bool all_finite = cfg->nwl > 0;

	for (int i = 0; i < sim->ngroups; i++)
		all_finite &= sim->groups[i].finite;
	sim->duration_set = cfg->duration_set;
	sim->end = cfg->duration_set ? cfg->duration : all_finite ? FINITE_CAP : DEFAULT_DURATION;
	/* arm starts and knob changes */
	for (int i = 0; i < sim->ngroups; i++)
		sl_arm(sim, &sim->groups[i].start_timer, cfg->wl[i].start);
	for (int i = 0; i < sim->nchanges; i++)
		sl_arm(sim, &sim->changes[i].timer, cfg->at[i].time);
	if (sim->oom)
		goto fail;
	return sim;
fail:
	sl_sim_free(sim);
	return NULL;
}

static bool all_done(const struct sl_sim *sim)
{
	if (sim->duration_set || !sim->ngroups)
		return false;
	for (int i = 0; i < sim->ngroups; i++) {
		const struct sl_group *g = &sim->groups[i];

		if (!g->finite || !g->spawned || g->live)
			return false;
	}
	return true;
}

int sl_sim_run(struct sl_sim *sim)
{
	struct sl_timer *t;
	u64 next_progress = 1 << 20;

	sl_machine_start(sim);
	while ((t = sl_timerq_peek(&sim->q)) && t->expires <= sim->end) {
		sl_timerq_pop(&sim->q);
		sim->now = t->expires;
		sim->nr_events++;
		sl_machine_dispatch(sim, t);
		if (sim->oom || sim->error[0])
			break;
		/* a volatile load per event: SIGINT stops a run within one event's work */
		if (sl_interrupted) {
			sim->interrupted = true;
			snprintf(sim->error, sizeof(sim->error), "interrupted");
			break;
		}
		if (all_done(sim))
			break;
		if (sim->progress && sim->nr_events >= next_progress) {
			next_progress += 1 << 20;
			fprintf(stderr, "\rschedlab: %.3f s of %.3f s simulated, %llu events",
				(double)sim->now / 1e9, (double)sim->end / 1e9,
				(unsigned long long)sim->nr_events);
		}
	}
	if (sim->progress && next_progress > (1 << 20))
		fprintf(stderr, "\n");
	if (!all_done(sim) && !sim->error[0] && !sim->oom)
		sim->now = sim->end;
	sl_machine_finish(sim);
	for (int i = 0; i < sim->ngroups && !sim->oom && !sim->error[0]; i++)
		if (sim->groups[i].finish && sim->groups[i].finish(sim, &sim->groups[i]) &&
		    !sim->error[0] && !sim->oom)
			snprintf(sim->error, sizeof(sim->error), "workload %s: cannot finish",
				 sim->groups[i].name);
	if (sim->oom) {
		snprintf(sim->error, sizeof(sim->error), "out of memory");
		return -1;
	}
	return sim->error[0] ? -1 : 0;
}

void sl_sim_free(struct sl_sim *sim)
{
	if (!sim)
		return;
	sl_timerq_free(&sim->q);
	for (int i = 0; i < sim->ntasks; i++)
		sl_task_free(sim->tasks[i]);
	free(sim->tasks);
	for (int i = 0; i < sim->ngroups; i++) {
		struct sl_group *g = &sim->groups[i];

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
		for (int k = 0; k < g->nconds; k++)
			free(g->conds[k].w);
		free(g->conds);
		for (int k = 0; k < g->nbarriers; k++)
			free(g->barriers[k].q.w);
		free(g->barriers);
		free(g->timers);
		if (g->state_free)
			g->state_free(g->state);
	}
	for (int i = 0; i < sim->ngroups; i++) {
		if (sim->groups[i].clat)
			sl_hist_free(sim->groups[i].clat);
		free(sim->groups[i].clat);
	}
	free(sim->groups);
	sl_disks_free(sim);
	free(sim->changes);
	if (sim->cpus) {
		for (int i = 0; i < sim->nclasses; i++)
			if (sim->classes[i]->free_domains)
				sim->classes[i]->free_domains(sim);
		for (int c = 0; c < sim->ncpu && sim->idle_gov; c++)
			if (sim->idle_gov->disable)
				sim->idle_gov->disable(&sim->cpus[c].idle_dev);
	}
	free(sim->cpus);
	free(sim);
}
