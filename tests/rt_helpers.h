/* The RT tests' shared start: a run of some workloads with a probe on the event stream. */
#ifndef SCHEDLAB_RT_HELPERS_H
#define SCHEDLAB_RT_HELPERS_H

#include "helpers.h"

#define RT_MAXEV 4096

struct rt_probe {
	struct sl_event ev[RT_MAXEV];
	int n;
	bool overflow;
};

static inline void rt_probe_fn(void *ctx, const struct sl_event *ev)
{
	struct rt_probe *p = ctx;

	if (ev->type == SL_EV_IDLE)
		return;
	if (p->n == RT_MAXEV) {
		p->overflow = true;
		return;
	}
	p->ev[p->n++] = *ev;
}

/* Runs the NULL-terminated workloads on cpus for duration; knobs: "kernel.*" are sysctls, the
 * others model parameters (NAME=VALUE); NULL-terminated, or NULL. Returns the probe (freed by
 * the caller). */
static inline struct rt_probe *rt_run(const char *cpus, const char *duration, const char *const *wl,
				      const char *const *knobs)
{
	struct sl_args a;
	struct sl_config cfg;
	char err[2048];
	struct rt_probe *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.duration = duration;
	for (int i = 0; wl[i]; i++)
		a.workloads[a.nworkloads++] = wl[i];
	for (int i = 0; knobs && knobs[i]; i++) {
		if (!strncmp(knobs[i], "kernel.", 7))
			a.sysctls[a.nsysctls++] = knobs[i];
		else
			a.params[a.nparams++] = knobs[i];
	}
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	sl_sim_subscribe(sim, rt_probe_fn, p);
	assert_int_equal(sl_sim_run(sim), 0);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	assert_false(p->overflow);
	return p;
}

/* CPU time of pid from the switches (until `end`) */
static inline u64 rt_cpu_ns(const struct rt_probe *p, int pid, u64 end)
{
	u64 t = 0, since = 0;
	bool on = false;

	for (int i = 0; i < p->n; i++) {
		const struct sl_event *e = &p->ev[i];

		if (e->type != SL_EV_SWITCH)
			continue;
		if (e->pid == pid && on) {
			t += e->time - since;
			on = false;
		}
		if (e->next_pid == pid) {
			since = e->time;
			on = true;
		}
	}
	return on ? t + end - since : t;
}

#endif
