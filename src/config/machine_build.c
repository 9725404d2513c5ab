/*
 * A configuration becomes a simulation: the machine from its description, one group per
 * --workload with its start timer, and the --at changes of the kernel's knobs.
 */
#include "config/config.h"
#include "sched/sysctl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* When neither --duration nor a finite workload ends the run. */
#define DEFAULT_DURATION (10 * NSEC_PER_SEC)
/* A run of finite workloads without --duration stops here at the latest. */
#define FINITE_CAP (3600 * NSEC_PER_SEC)

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
	struct sl_machine_desc d = {
		.rel = cfg->rel,
		.ncpu = cfg->ncpu,
		.sockets = cfg->sockets,
		.cores = cfg->cores,
		.seed = cfg->seed,
		.params = &cfg->params,
		.tun = &cfg->tun,
		.features = cfg->features,
		.feat_read = cfg->feat_read,
		.drv = &cfg->drv,
		.gov = cfg->gov,
		.pm_qos_ns = cfg->pm_qos_ns,
		.disabled = cfg->disabled,
		.gp = &cfg->gp,
		.irq_affinity = cfg->irq_affinity,
		.progress = cfg->progress,
	};
	struct sl_sim *sim = sl_machine_new(&d);
	struct sl_machine *m;

	if (!sim)
		return NULL;
	m = sl_machine_of(sim);
	if (sl_machine_alloc_groups(sim, cfg->nwl))
		goto fail;
	for (int i = 0; i < cfg->nwl; i++) {
		struct sl_group *g = &m->groups[m->ngroups++];

		g->id = i;
		sl_group_name(cfg, i, g->name, sizeof(g->name));
		snprintf(g->spec, sizeof(g->spec), "%s", cfg->wl[i].spec);
		g->finite = cfg->wl[i].ops->finite(cfg->wl[i].args);
		g->uid = cfg->wl[i].uid;
		g->wl = &cfg->wl[i];
		sl_timer_init(&g->start_timer, start_fn, -1);
	}
	m->changes = calloc((size_t)(cfg->nat ? cfg->nat : 1), sizeof(*m->changes));
	if (!m->changes)
		goto fail;
	for (int i = 0; i < cfg->nat; i++) {
		struct sl_knob_change *c = &m->changes[m->nchanges++];

		sl_timer_init(&c->timer, knob_fn, -1);
		c->kind = cfg->at[i].kind;
		memcpy(c->text, cfg->at[i].text, sizeof(c->text));
	}
	/* the run's end */
	bool all_finite = cfg->nwl > 0;

	for (int i = 0; i < m->ngroups; i++)
		all_finite &= m->groups[i].finite;
	m->duration_set = cfg->duration_set;
	sim->end = cfg->duration_set ? cfg->duration : all_finite ? FINITE_CAP : DEFAULT_DURATION;
	/* arm starts and knob changes */
	for (int i = 0; i < m->ngroups; i++)
		sl_arm(sim, &m->groups[i].start_timer, cfg->wl[i].start);
	for (int i = 0; i < m->nchanges; i++)
		sl_arm(sim, &m->changes[i].timer, cfg->at[i].time);
	if (sim->oom)
		goto fail;
	return sim;
fail:
	sl_sim_free(sim);
	return NULL;
}
