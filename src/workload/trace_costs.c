/*
 * The switch and cache costs of the machine a trace was recorded on (docs/workloads.md, "Costs
 * counted once"): a recorded burst already holds them, so a replay charges only what the
 * simulated schedule adds or removes, and both sides of that difference must be the recording
 * machine's. They are the `param` lines of a `schedlab calibrate` machine.conf: given with
 * calibration=DIR, or T.machine.conf beside the trace (`schedlab record --calibration DIR`
 * writes it).
 */
#include "workload/trace.h"
#include "machine/machine_conf.h"
#include "machine/params.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The parameters the reconciliation of recorded and simulated switch-ins (and of wake-ups onto
 * another, idle CPU: wake_ipi) reads, and the machine's wake-up path of an idle CPU (wake_*:
 * else the trace's own measure of it, trace_wake.c). */
static const char *const cost_params[] = {
	"ctx_switch",		"ctx_switch_bare",    "cache_refill",	       "migrate_smt",
	"migrate_core",		"migrate_socket",     "timer_slack",	       "wake_ipi",
	"wake_local",		"wake_local_sd",      "wake_remote",	       "wake_remote_sd",
	"wake_local_decade",	"wake_remote_decade", "vcpu_pack_irq",	       "wake_local_tail",
	"wake_local_tail_mean", "wake_remote_tail",   "wake_remote_tail_mean",
};

static bool is_cost(const char *assignment)
{
	size_t n = strcspn(assignment, "=");

	for (size_t i = 0; i < SL_ARRAY_SIZE(cost_params); i++)
		if (strlen(cost_params[i]) == n && !strncmp(cost_params[i], assignment, n))
			return true;
	return false;
}

void sl_tw_costs_path(char *buf, size_t len, const char *trace)
{
	size_t n = strlen(trace);

	if (n > 3 && (!strcmp(trace + n - 3, ".xz") || !strcmp(trace + n - 3, ".gz")))
		n -= 3;
	snprintf(buf, len, "%.*s.machine.conf", (int)n, trace);
}

/*
 * A recorded burst holds the system calls around its switch, which a machine's ctx_switch (a
 * whole pipe hand-off, for workloads that have no system calls) covers too: a replay would give
 * back more than the switch cost the burst. When the switch alone was measured (ctx_switch_bare,
 * from the calibration or --param), that is the recording machine's switch price for a replay,
 * on both sides of the difference. The one place this rule is applied: the run's parameters
 * (config.c) and the report's (sl_tw_cost_report).
 */
void sl_tw_bare_price(struct sl_params *p)
{
	if (p->ctx_switch_bare_ns)
		p->ctx_switch_ns = p->ctx_switch_bare_ns;
}

/* The recording machine and its cost parameters, as validate and calibrate read a machine.conf. */
static int load(struct sl_tw_costs *c, char *err, size_t errlen)
{
	struct sl_machine_conf mc;
	char e[1400];

	if (sl_machine_conf_read(&mc, c->path, e, sizeof(e))) {
		snprintf(err, errlen,
			 "calibration: %s: not a calibration (expected a `schedlab calibrate` "
			 "directory or its machine.conf)",
			 e);
		return -1;
	}
	/* the machine that was recorded: a replay without --kernel and --cpus runs as it; and
	 * its idle: a halted vCPU needs an IPI to wake, a polling one does not */
	snprintf(c->release, sizeof(c->release), "%s", mc.kernel_release);
	snprintf(c->idle, sizeof(c->idle), "%s", mc.cpuidle_driver);
	c->cpus = mc.cpus;
	for (int i = 0; i < mc.nparams; i++) {
		if (!is_cost(mc.param[i]))
			continue;
		if (c->n == SL_TW_MAX_COSTS) {
			snprintf(err, errlen, "%s: more cost parameters than the %d expected",
				 c->path, SL_TW_MAX_COSTS);
			return -1;
		}
		snprintf(c->param[c->n++], sizeof(c->param[0]), "%s", mc.param[i]);
	}
	return 0;
}

int sl_tw_costs_load(struct sl_tw_costs *c, const char *trace, const char *calibration, char *err,
		     size_t errlen)
{
	struct stat st;
	int rc;

	memset(c, 0, sizeof(*c));
	if (!strcmp(calibration, "none"))
		return 0;
	if (!calibration[0]) {
		sl_tw_costs_path(c->path, sizeof(c->path), trace);
		if (stat(c->path, &st)) {
			c->path[0] = 0;
			return 0; /* none recorded beside: the caller warns */
		}
	} else if (!stat(calibration, &st) && S_ISDIR(st.st_mode)) {
		snprintf(c->path, sizeof(c->path), "%s/machine.conf", calibration);
	} else {
		snprintf(c->path, sizeof(c->path), "%s", calibration);
	}
	if (stat(c->path, &st)) {
		snprintf(err, errlen,
			 "calibration: %s: %s (expected a `schedlab calibrate` "
			 "directory or its machine.conf)",
			 c->path, strerror(errno));
		return -1;
	}
	rc = load(c, err, errlen);
	if (!rc && !c->n) {
		snprintf(err, errlen,
			 "%s: no cost parameter (param ctx_switch=..., cache_refill=..., "
			 "migrate_core=...): not a calibration",
			 c->path);
		return -1;
	}
	return rc;
}
