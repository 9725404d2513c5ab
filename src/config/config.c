/* The one place where the kernel's words (features, sysctls, --at) become a configuration. */
#include "config/config.h"
#include "cpuidle/profiles.h"
#include "workload/trace.h"
#include "sched/sysctl.h"
#include "core/parse.h"
#include "sched/release.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sl_knob_apply(const struct sl_release *rel, struct sl_tunables *t, u64 *features, char kind,
		  const char *text, char *err, size_t errlen)
{
	if (kind == 'f')
		return sl_feat_write_list(&rel->feats, features, text, err, errlen);
	return sl_sysctl_write(rel, t, features, text, err, errlen);
}

static int parse_at(const struct sl_config *cfg, const char *s, struct sl_at_change *c, char *err,
		    size_t errlen)
{
	const struct sl_release *rel = cfg->rel;
	const char *colon = strchr(s, ':');
	char tbuf[64], e[1400];

	if (!colon || (size_t)(colon - s) >= sizeof(tbuf)) {
		snprintf(err, errlen,
			 "--at '%s': expected TIME:sched-features=WORDS or TIME:sysctl=NAME=VALUE",
			 s);
		return -1;
	}
	memcpy(tbuf, s, (size_t)(colon - s));
	tbuf[colon - s] = '\0';
	if (sl_parse_duration(tbuf, &c->time, e, sizeof(e))) {
		snprintf(err, errlen, "--at '%s': %s", s, e);
		return -1;
	}
	const char *knob = colon + 1;

	if (!strncmp(knob, "sched-features=", 15)) {
		c->kind = 'f';
		knob += 15;
	} else if (!strncmp(knob, "sysctl=", 7)) {
		c->kind = 's';
		knob += 7;
	} else {
		snprintf(err, errlen,
			 "--at '%s': the knob must be sched-features=... or sysctl=...", s);
		return -1;
	}
	if (strlen(knob) >= sizeof(c->text)) {
		snprintf(err, errlen, "--at '%s': too long", s);
		return -1;
	}
	snprintf(c->text, sizeof(c->text), "%s", knob);
	/* validate now, on scratch knobs: a bad change is an error before the run, not during
	 * it. Each write alone here (syntax, range); the RT runtime-period relation depends on
	 * the earlier writes: check_at_sequence */
	struct sl_tunables t = cfg->tun;
	u64 f = cfg->features;

	t.sched_rt_runtime_us = (u32)-1; /* RUNTIME_INF: no relation to check */
	t.sched_rt_period_us = INT32_MAX;

	if (sl_knob_apply(rel, &t, &f, c->kind, c->text, e, sizeof(e))) {
		snprintf(err, errlen, "--at %s: %s", tbuf, e);
		return -1;
	}
	return 0;
}

/*
 * The changes as the run makes them, by time (equal times in the given order, as their timers
 * fire), from the boot values: a write valid alone may be refused after an earlier one (the RT
 * runtime above the period), and must be refused here, before the run.
 */
static int check_at_sequence(const struct sl_config *cfg, const struct sl_args *a, char *err,
			     size_t errlen)
{
	struct sl_tunables t = cfg->tun;
	u64 f = cfg->features;
	bool done[SL_MAX_LIST] = {false};
	char e[1400];

	for (int k = 0; k < cfg->nat; k++) {
		int b = -1;

		for (int i = 0; i < cfg->nat; i++)
			if (!done[i] && (b < 0 || cfg->at[i].time < cfg->at[b].time))
				b = i;
		done[b] = true;
		if (sl_knob_apply(cfg->rel, &t, &f, cfg->at[b].kind, cfg->at[b].text, e,
				  sizeof(e))) {
			snprintf(err, errlen, "--at '%s' (after the changes before it): %s",
				 a->ats[b], e);
			return -1;
		}
	}
	return 0;
}

static int parse_topology(struct sl_config *cfg, const char *s, char *err, size_t errlen)
{
	long v[3];
	char *end;
	const char *p = s;

	for (int i = 0; i < 3; i++) {
		v[i] = strtol(p, &end, 10);
		if (end == p || v[i] < 1 || v[i] > 1024 || (i < 2 && *end != 'x') ||
		    (i == 2 && *end)) {
			snprintf(err, errlen,
				 "--topology '%s': expected SOCKETSxCORESxTHREADS, e.g. 2x4x2", s);
			return -1;
		}
		p = end + 1;
	}
	cfg->sockets = (int)v[0];
	cfg->cores = (int)v[1];
	cfg->threads = (int)v[2];
	if ((long)cfg->sockets * cfg->cores * cfg->threads > 4096) {
		snprintf(err, errlen, "--topology '%s': at most 4096 CPUs", s);
		return -1;
	}
	return 0;
}

/* sched_setscheduler is -EINVAL for a policy the release does not have (SCHED_ISO but in BFS) */
static int check_policy(const struct sl_config *cfg, const struct sl_workload_inst *w, char *err,
			size_t errlen)
{
	unsigned asked = w->ops->policies ? w->ops->policies(w->args) : 0;

	for (int p = 0; asked >> p; p++) {
		const struct sl_task_policy *d = NULL;
		const struct sl_release *has;

		if (!(asked & SL_POLICY_BIT(p)) || sl_release_has_policy(cfg->rel, p))
			continue;
		has = sl_release_offering(p, &d);
		if (!has)
			snprintf(err, errlen, "--workload '%s': Linux %s has no task policy %d",
				 w->spec, cfg->rel->name, p);
		else
			snprintf(err, errlen,
				 "--workload '%s': policy=%s is %s; Linux %s has no such policy "
				 "(use --kernel %s)",
				 w->spec, d->key, d->what, cfg->rel->name, has->name);
		return -1;
	}
	return 0;
}

static bool has_group_sched(const struct sl_release *rel)
{
	return rel->group_sched;
}

/* the workloads' tasks over the whole run, refused beyond SL_MAX_TASKS before any is made */
static int check_tasks(const struct sl_config *cfg, char *err, size_t errlen)
{
	u64 ntasks = 0;

	for (int i = 0; i < cfg->nwl; i++)
		if (cfg->wl[i].ops->max_tasks)
			ntasks += cfg->wl[i].ops->max_tasks(cfg->wl[i].args);
	if (ntasks <= SL_MAX_TASKS)
		return 0;
	snprintf(err, errlen,
		 "--workload: the workloads create up to %llu tasks; the limit is %d "
		 "(SL_MAX_TASKS, about 0.65 KB each)",
		 (unsigned long long)ntasks, SL_MAX_TASKS);
	return -1;
}

/* the machine workload w was recorded on (its ops' recorded), NULL: none */
static const struct sl_tw_costs *recorded(const struct sl_workload_inst *w)
{
	return w->ops->recorded ? w->ops->recorded(w->args) : NULL;
}

/* whether --param sets the parameter named by name's first n bytes (name=...) */
static bool param_given(const struct sl_args *a, const char *name, size_t n)
{
	for (int j = 0; j < a->nparams; j++)
		if (!strncmp(a->params[j], name, n) && a->params[j][n] == '=')
			return true;
	return false;
}

/* which of the idle wake-up parameters --param or the recorded machine.conf c sets */
static unsigned wake_set(const struct sl_args *a, const struct sl_tw_costs *c)
{
	static const struct {
		const char *name;
		unsigned bit;
	} w[] = {{"wake_remote", SL_TW_SET_REMOTE},
		 {"wake_remote_sd", SL_TW_SET_REMOTE_SD},
		 {"wake_local", SL_TW_SET_LOCAL},
		 {"wake_local_sd", SL_TW_SET_LOCAL_SD},
		 {"vcpu_pack_irq", SL_TW_SET_IRQ_PACK}};
	unsigned m = 0;

	for (size_t i = 0; i < SL_ARRAY_SIZE(w); i++)
		if (param_given(a, w[i].name, strlen(w[i].name)) || sl_tw_costs_sets(c, w[i].name))
			m |= w[i].bit;
	return m;
}

/*
 * What the model charges from a wake-up by another CPU to the switch on a CPU halted in the
 * run's deepest enabled idle state (resched_cpu, resched_fn): the IPI and that state's exit
 * latency; nothing when that state polls (no IPI, no exit). A trace's measured remote wake-up
 * is taken as wake_remote less this (as calibrate takes it: sl_calibrate_derive).
 */
static u64 halt_known(const struct sl_config *cfg)
{
	for (int k = cfg->drv.state_count - 1; k >= 0; k--) {
		if (cfg->disabled[k])
			continue;
		if (cfg->drv.states[k].flags & CPUIDLE_FLAG_POLL)
			return 0;
		return cfg->params.ipi_ns + cfg->drv.states[k].exit_latency_ns;
	}
	return 0;
}

/*
 * A trace workload's recording machine's switch and cache costs (workload/trace.h), for every
 * one the user did not set with --param: the replay charges the difference between its
 * schedule and the recorded one at the recording machine's prices (docs/workloads.md).
 */
static int trace_costs(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen)
{
	for (int i = 0; i < cfg->nwl; i++) {
		const struct sl_tw_costs *c = recorded(&cfg->wl[i]);

		for (int k = 0; c && k < c->n; k++)
			if (!param_given(a, c->param[k], strcspn(c->param[k], "=")) &&
			    sl_params_set(&cfg->params, c->param[k], err, errlen))
				return -1;
		/* the calibration's or --param's ctx_switch_bare prices a replay's switches
		 * (sl_tw_bare_price), unless --param ctx_switch says otherwise */
		if (cfg->wl[i].ops->recorded && !param_given(a, "ctx_switch", 10))
			sl_tw_bare_price(&cfg->params);
		if (c &&
		    sl_tw_wake_apply(&cfg->params, c, wake_set(a, c), halt_known(cfg), err, errlen))
			return -1;
	}
	return 0;
}

/*
 * The machine a replay was recorded on, when it says (its machine.conf: calibration= or
 * T.machine.conf beside the trace, which `record --calibration` writes): a replay without
 * --kernel runs under the model of the kernel that was recorded, and without --cpus or
 * --topology on as many CPUs, so that `run --workload trace:file=T` first answers "what does
 * the model make of my recording" and a what-if is one --kernel away. NULL: no trace workload
 * says, or two say different things (the defaults stay then).
 */
static const struct sl_tw_costs *recorded_machine(const struct sl_workload_inst *wl, int n)
{
	const struct sl_tw_costs *r = NULL;

	for (int i = 0; i < n; i++) {
		const struct sl_tw_costs *c = recorded(&wl[i]);

		if (!c || !c->release[0] || !sl_release_of_uname(c->release))
			continue;
		if (r && (sl_release_of_uname(r->release) != sl_release_of_uname(c->release) ||
			  r->cpus != c->cpus || strcmp(r->idle, c->idle)))
			return NULL;
		r = c;
	}
	return r;
}

/*
 * b: a with what it leaves unsaid taken from the machine the trace workloads wl[0..n) were
 * recorded on (recorded_machine): --kernel, the CPUs without --cpus or --topology, and
 * without --machine or --idle the cpuidle profile of its driver (a halted vCPU needs an IPI
 * to wake, a polling one does not). Every command that builds a configuration around a trace
 * (run, compare, sweep, repro) takes its defaults here, so that one trace replays on one
 * machine whichever command runs it. cpus (16 bytes) holds b's --cpus text. Returns the
 * recorded machine, NULL when none says (b = a then).
 */
static const struct sl_tw_costs *as_recorded(const struct sl_args *a,
					     const struct sl_workload_inst *wl, int n,
					     struct sl_args *b, char cpus[16])
{
	const struct sl_tw_costs *rm = recorded_machine(wl, n);
	const struct sl_idle_profile *idle;

	*b = *a;
	if (!rm)
		return NULL;
	if (!b->kernel)
		b->kernel = sl_release_of_uname(rm->release)->name;
	if (!b->cpus && !b->topology && rm->cpus) {
		snprintf(cpus, 16, "%d", rm->cpus);
		b->cpus = cpus;
	}
	idle = sl_idle_profile_for_driver(rm->idle);
	if (!b->machine && !b->idle && idle) {
		b->machine = idle->name;
		if (idle->no_poll && b->ncpuidle_disable < SL_MAX_LIST)
			b->cpuidle_disable[b->ncpuidle_disable++] = "POLL";
	}
	return rm;
}

bool sl_args_as_recorded(const struct sl_args *a, const struct sl_workload_inst *wl, int n,
			 struct sl_args *b, char cpus[16])
{
	return as_recorded(a, wl, n < SL_MAX_LIST ? n : SL_MAX_LIST, b, cpus) != NULL;
}

/* sl_config_build_shared of a as given, with no recorded defaults taken */
static int build_with(struct sl_config *cfg, const struct sl_args *a,
		      const struct sl_workload_inst *wl, int n, char *err, size_t errlen)
{
	struct sl_args b = *a;

	if (n > SL_MAX_LIST) {
		snprintf(err, errlen, "--workload: at most %d", SL_MAX_LIST);
		return -1;
	}
	b.nworkloads = 0;
	if (sl_config_build(cfg, &b, err, errlen))
		return -1;
	cfg->wl_shared = true;
	for (int i = 0; i < n; i++) {
		cfg->wl[cfg->nwl] = wl[i];
		if (check_policy(cfg, &cfg->wl[cfg->nwl++], err, errlen)) {
			sl_config_free(cfg);
			return -1;
		}
	}
	if (trace_costs(cfg, a, err, errlen) || check_tasks(cfg, err, errlen)) {
		sl_config_free(cfg);
		return -1;
	}
	return 0;
}

/* cfg built again around its parsed workloads, as the recorded machine rm (as_recorded: b) */
static int build_as_recorded(struct sl_config *cfg, const struct sl_args *b,
			     const struct sl_tw_costs *rm, char *err, size_t errlen)
{
	struct sl_workload_inst wl[SL_MAX_LIST];
	int n = cfg->nwl;

	fprintf(stderr,
		"schedlab: %s: recorded on Linux %s with %d CPUs: replayed with --kernel %s "
		"--cpus %s%s%s (give --kernel, --cpus or --machine to choose)\n",
		rm->path, rm->release, rm->cpus, b->kernel, b->cpus ? b->cpus : "(topology)",
		b->machine ? " --machine " : "", b->machine ? b->machine : "");
	memcpy(wl, cfg->wl, (size_t)n * sizeof(wl[0]));
	cfg->nwl = 0;
	if (build_with(cfg, b, wl, n, err, errlen)) {
		for (int i = 0; i < n; i++)
			sl_workload_inst_free(&wl[i]);
		return -1;
	}
	cfg->wl_shared = false; /* parsed for this configuration: its own to free */
	return 0;
}

/*
 * sl_config_build's knobs, cpuidle, --at changes and the checks of its parsed workloads, with
 * cfg's release, CPUs and workloads already set; -1 with err (the caller frees)
 */
static int build_rest(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen)
{
	char e[1400];

	if (a->duration) {
		if (sl_parse_duration(a->duration, &cfg->duration, e, sizeof(e))) {
			snprintf(err, errlen, "--duration: %s", e);
			return -1;
		}
		if (!cfg->duration) {
			snprintf(err, errlen, "--duration must be above 0");
			return -1;
		}
		if (cfg->duration > SL_MAX_DURATION) {
			snprintf(err, errlen,
				 "--duration %s: the limit is %llu s of simulated time "
				 "(SL_MAX_DURATION)",
				 a->duration, (unsigned long long)(SL_MAX_DURATION / NSEC_PER_SEC));
			return -1;
		}
		cfg->duration_set = true;
	}
	cfg->seed = 1;
	if (a->seed && sl_parse_u64(a->seed, &cfg->seed, e, sizeof(e))) {
		snprintf(err, errlen, "--seed: %s", e);
		return -1;
	}
	sl_params_default(&cfg->params);
	/* the release's own CONFIG_HZ (6.18: the target's 250) unless --param hz= says otherwise */
	if (cfg->rel->hz)
		cfg->params.hz = cfg->rel->hz;
	for (int i = 0; i < a->nparams; i++)
		if (sl_params_set(&cfg->params, a->params[i], err, errlen))
			return -1;
	if (sl_params_check(&cfg->params, err, errlen))
		return -1;
	/* USER_SCHED: modelled where the release says so (2.6.31's sources, cfs.md section 7) */
	if (cfg->params.group_sched && !cfg->rel->group_sched) {
		char names[256];

		sl_release_names_if(names, sizeof(names), has_group_sched);
		snprintf(
			err, errlen,
			"--param group_sched=1: group scheduling is modelled for --kernel %s only, "
			"not %s",
			names, cfg->rel->name);
		return -1;
	}
	/* boot: the release's defaults, scaled by sched_init_granularity, then the sysctl
	 * writes and debugfs writes of the administrator, in order */
	sl_release_boot_tunables(cfg->rel, &cfg->tun, cfg->ncpu);
	cfg->features = sl_feat_defaults(&cfg->rel->feats);
	for (int i = 0; i < a->nsysctls; i++)
		if (sl_sysctl_write(cfg->rel, &cfg->tun, &cfg->features, a->sysctls[i], err,
				    errlen))
			return -1;
	for (int i = 0; i < a->nfeatures; i++) {
		if (sl_feat_write_list(&cfg->rel->feats, &cfg->features, a->features[i], e,
				       sizeof(e))) {
			snprintf(err, errlen, "--sched-features: %s", e);
			return -1;
		}
	}
	if (sl_config_build_idle(cfg, a, err, errlen))
		return -1;
	cfg->trace_out = a->trace_out;
	/* 2.6.3x completed a request where the controller's interrupt went (blockio.md §3) */
	cfg->irq_affinity = cfg->rel->irq_per_controller ? SL_IRQ_BALANCE : SL_IRQ_ISSUER;
	if (a->irq_affinity) {
		s64 c;

		if (!strcmp(a->irq_affinity, "issuer")) {
			cfg->irq_affinity = SL_IRQ_ISSUER;
		} else if (!strcmp(a->irq_affinity, "spread")) {
			cfg->irq_affinity = SL_IRQ_SPREAD;
		} else if (!strcmp(a->irq_affinity, "bios")) {
			cfg->irq_affinity = SL_IRQ_BIOS;
		} else if (!strcmp(a->irq_affinity, "irqbalance")) {
			cfg->irq_affinity = SL_IRQ_BALANCE;
		} else if (!sl_parse_s64(a->irq_affinity, &c, e, sizeof(e)) && c >= 0 &&
			   c < cfg->ncpu) {
			cfg->irq_affinity = (int)c;
		} else {
			snprintf(
				err, errlen,
				"--irq-affinity '%s': expected issuer, spread, bios, irqbalance or "
				"a CPU 0..%d",
				a->irq_affinity, cfg->ncpu - 1);
			return -1;
		}
	}
	for (int i = 0; i < a->nats; i++)
		if (parse_at(cfg, a->ats[i], &cfg->at[cfg->nat++], err, errlen))
			return -1;
	if (check_at_sequence(cfg, a, err, errlen))
		return -1;
	for (int i = 0; i < cfg->nwl; i++)
		if (check_policy(cfg, &cfg->wl[i], err, errlen))
			return -1;
	return trace_costs(cfg, a, err, errlen) || check_tasks(cfg, err, errlen) ? -1 : 0;
}

int sl_config_build(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen)
{
	char e[1400];

	memset(cfg, 0, sizeof(*cfg));
	cfg->rel = a->kernel ? sl_release_find(a->kernel) : sl_release_default();
	if (!cfg->rel) {
		char names[256];

		sl_release_names(names, sizeof(names));
		snprintf(err, errlen, "--kernel '%s': unknown release (valid: %s)", a->kernel,
			 names);
		return -1;
	}
	cfg->sockets = 1;
	cfg->cores = 2;
	cfg->threads = 1;
	if (a->topology && parse_topology(cfg, a->topology, err, errlen))
		return -1;
	if (a->cpus) {
		s64 n;

		if (sl_parse_s64(a->cpus, &n, e, sizeof(e)) || n < 1 || n > 4096) {
			snprintf(err, errlen, "--cpus '%s': expected a number of CPUs, 1..4096",
				 a->cpus);
			return -1;
		}
		if (a->topology && n != (s64)cfg->sockets * cfg->cores * cfg->threads) {
			snprintf(err, errlen, "--cpus %s disagrees with --topology %s", a->cpus,
				 a->topology);
			return -1;
		}
		if (!a->topology)
			cfg->cores = (int)n;
	}
	cfg->ncpu = cfg->sockets * cfg->cores * cfg->threads;
	/* the workloads first: a trace's recorded machine decides the release that the knobs
	 * are checked against (a 6.18 sysctl on a 6.18 recording without --kernel) */
	for (int i = 0; i < a->nworkloads; i++) {
		if (sl_workload_parse(a->workloads[i], &cfg->wl[cfg->nwl], err, errlen)) {
			sl_config_free(cfg);
			return -1;
		}
		cfg->nwl++;
	}
	/* built again, and said, where the recorded machine changes what a alone gave */
	if (!a->kernel || (!a->cpus && !a->topology) || (!a->machine && !a->idle)) {
		struct sl_args b;
		char cpus[16];
		const struct sl_tw_costs *rm = as_recorded(a, cfg->wl, cfg->nwl, &b, cpus);

		if (rm && (sl_release_find(b.kernel) != cfg->rel ||
			   (b.cpus != a->cpus && rm->cpus != cfg->ncpu) || b.machine != a->machine))
			return build_as_recorded(cfg, &b, rm, err, errlen);
	}
	/* a recording of a kernel the model has no scheduler of replays under the default: said,
	 * as the replay as recorded is (it was silent) */
	for (int i = 0; !a->kernel && i < cfg->nwl; i++) {
		const struct sl_tw_costs *c = recorded(&cfg->wl[i]);

		if (c && c->release[0] && !sl_release_of_uname(c->release)) {
			fprintf(stderr,
				"schedlab: %s: recorded on Linux %s, which the model has no "
				"scheduler of (2.6.31, 2.6.32, and 6.18 for 6.6 and later): "
				"replayed "
				"under --kernel %s (give --kernel to choose)\n",
				c->path, c->release, cfg->rel->name);
			break;
		}
	}
	if (build_rest(cfg, a, err, errlen)) {
		sl_config_free(cfg);
		return -1;
	}
	return 0;
}

int sl_config_build_shared(struct sl_config *cfg, const struct sl_args *a,
			   const struct sl_workload_inst *wl, int n, char *err, size_t errlen)
{
	struct sl_args b;
	char cpus[16];

	as_recorded(a, wl, n < SL_MAX_LIST ? n : SL_MAX_LIST, &b, cpus);
	return build_with(cfg, &b, wl, n, err, errlen);
}

void sl_config_rtapp_duration(struct sl_config *cfg)
{
	long d = -1;

	if (cfg->duration_set)
		return;
	for (int i = 0; i < cfg->nwl; i++)
		if (cfg->wl[i].ops->duration_s && cfg->wl[i].ops->duration_s(cfg->wl[i].args) > d)
			d = cfg->wl[i].ops->duration_s(cfg->wl[i].args);
	if (d > 0) {
		cfg->duration = (u64)d * NSEC_PER_SEC;
		cfg->duration_set = true;
	}
}

void sl_config_free(struct sl_config *cfg)
{
	for (int i = 0; i < cfg->nwl && !cfg->wl_shared; i++)
		sl_workload_inst_free(&cfg->wl[i]);
	cfg->nwl = 0;
}
