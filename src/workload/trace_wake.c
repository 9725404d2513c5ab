/*
 * The recording machine's wake-up of an idle CPU, measured in the trace it recorded
 * (docs/workloads.md, "Waking a halted vCPU"): from sched_waking to the wakee's switch-in on
 * the CPU its sched_wakeup landed on, when that CPU had been idle since before the wake-up.
 * Onto another CPU (remote: in a VM the IPI exits to the host, which kicks the halted vCPU's
 * thread) and by the idle CPU's own interrupt (local). A replay takes them as the machine's
 * wake_remote and wake_local (machine.c, sl_wake_path) where the recorded machine.conf and
 * --param say nothing: without them a simulated remote wake-up is answered in the model's 1-2
 * us, where the recording took 30-40, and a pipe's waker no longer blocks before the reply.
 */
#include "workload/trace.h"
#include "machine/params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sl_tw_lat_push(struct sl_tw_lat_acc *a, u64 ns)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 1024;
		u64 *v = realloc(a->v, sizeof(*v) * cap);

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n++] = ns;
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	u64 a = *(const u64 *)x, b = *(const u64 *)y;

	return a < b ? -1 : a > b;
}

void sl_tw_lat_finish(struct sl_tw_lat_acc *a, struct sl_tw_wake_lat *w)
{
	memset(w, 0, sizeof(*w));
	w->n = a->n;
	if (a->n >= SL_TW_WAKE_MIN) {
		qsort(a->v, a->n, sizeof(*a->v), cmp_u64);
		/* the median and half the 16th-84th percentile spread: calibrate's figures of
		 * the same path (calibrate.c, spread), robust to the few wake-ups delayed by
		 * another task's run */
		w->p50 = a->v[a->n / 2];
		w->sd = (a->v[a->n * 84 / 100] - a->v[a->n * 16 / 100]) / 2;
	}
	free(a->v);
	memset(a, 0, sizeof(*a));
}

bool sl_tw_costs_sets(const struct sl_tw_costs *c, const char *name)
{
	size_t n = strlen(name);

	for (int k = 0; c && k < c->n; k++)
		if (!strncmp(c->param[k], name, n) && c->param[k][n] == '=')
			return true;
	return false;
}

/* name=v with unit ("ns", or "" for a count) */
static int set_unit(struct sl_params *p, const char *name, u64 v, const char *unit, char *err,
		    size_t errlen)
{
	char a[96];

	snprintf(a, sizeof(a), "%s=%llu%s", name, (unsigned long long)v, unit);
	return sl_params_set(p, a, err, errlen);
}

static int set(struct sl_params *p, const char *name, u64 ns, char *err, size_t errlen)
{
	return set_unit(p, name, ns, "ns", err, errlen);
}

u64 sl_tw_irq_pack_rate(u64 n, u64 stayed)
{
	return n >= SL_TW_WAKE_MIN ? stayed * 1000 / n : 0;
}

int sl_tw_wake_apply(struct sl_params *p, const struct sl_tw_costs *c, unsigned set_mask, u64 known,
		     char *err, size_t errlen)
{
	if (!(set_mask & SL_TW_SET_REMOTE) && c->remote.n >= SL_TW_WAKE_MIN &&
	    (set(p, "wake_remote", c->remote.p50 > known ? c->remote.p50 - known : 0, err,
		 errlen) ||
	     (!(set_mask & SL_TW_SET_REMOTE_SD) &&
	      set(p, "wake_remote_sd", c->remote.sd, err, errlen))))
		return -1;
	/* woken by its own interrupt: the model charges the exit before the handler, which is
	 * before sched_waking in the trace too, so nothing is taken off */
	if (!(set_mask & SL_TW_SET_LOCAL) && c->local.n >= SL_TW_WAKE_MIN &&
	    (set(p, "wake_local", c->local.p50, err, errlen) ||
	     (!(set_mask & SL_TW_SET_LOCAL_SD) &&
	      set(p, "wake_local_sd", c->local.sd, err, errlen))))
		return -1;
	/* the machine's placement of an interrupt's wake-up, as the recording shows it (trace.c,
	 * pack_waking) */
	if (!(set_mask & SL_TW_SET_IRQ_PACK) && c->irq_pack_n >= SL_TW_WAKE_MIN &&
	    set_unit(p, "vcpu_pack_irq", sl_tw_irq_pack_rate(c->irq_pack_n, c->irq_pack_stay), "",
		     err, errlen))
		return -1;
	return 0;
}
