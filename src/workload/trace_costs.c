/*
 * The switch and cache costs of the machine a trace was recorded on (docs/workloads.md, "Costs
 * counted once"): a recorded burst already holds them, so a replay charges only what the
 * simulated schedule adds or removes, and both sides of that difference must be the recording
 * machine's. They are the `param` lines of a `schedlab calibrate` machine.conf: given with
 * calibration=DIR, or T.machine.conf beside the trace (`schedlab record --calibration DIR`
 * writes it).
 */
#include "workload/trace.h"
#include "machine/params.h"
#include "core/parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* The parameters the reconciliation of recorded and simulated switch-ins (and of wake-ups onto
 * another, idle CPU: wake_ipi) reads, and the machine's wake-up path of an idle CPU (wake_*:
 * else the trace's own measure of it, trace_wake.c). */
static const char *const cost_params[] = {
	"ctx_switch",	      "cache_refill", "migrate_smt",	"migrate_core",
	"migrate_socket",     "timer_slack",  "wake_ipi",	"wake_local",
	"wake_local_sd",      "wake_remote",  "wake_remote_sd", "wake_local_decade",
	"wake_remote_decade",
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

static int load(struct sl_tw_costs *c, FILE *f, char *err, size_t errlen)
{
	char line[512];
	int ln = 0;

	while (fgets(line, sizeof(line), f)) {
		char *p = line, e[256];
		struct sl_params scratch;

		ln++;
		line[strcspn(line, "\r\n")] = 0;
		/* the machine that was recorded: a replay without --kernel and --cpus runs as it */
		if (!strncmp(p, "kernel_release ", 15)) {
			snprintf(c->release, sizeof(c->release), "%s", p + 15);
			continue;
		}
		/* and its idle: a halted vCPU needs an IPI to wake, a polling one does not */
		if (!strncmp(p, "cpuidle_driver ", 15)) {
			snprintf(c->idle, sizeof(c->idle), "%s", p + 15);
			continue;
		}
		if (!strncmp(p, "cpus ", 5)) {
			s64 n;

			if (sl_parse_s64(p + 5, &n, e, sizeof(e)) || n < 1 || n > 4096) {
				snprintf(err, errlen, "%s:%d: cpus '%s': expected 1..4096", c->path,
					 ln, p + 5);
				return -1;
			}
			c->cpus = (int)n;
			continue;
		}
		if (strncmp(p, "param ", 6))
			continue;
		p += 6;
		while (*p == ' ')
			p++;
		if (!is_cost(p))
			continue;
		sl_params_default(&scratch);
		if (sl_params_set(&scratch, p, e, sizeof(e))) {
			snprintf(err, errlen, "%s:%d: %s", c->path, ln, e);
			return -1;
		}
		if (c->n == SL_TW_MAX_COSTS || strlen(p) >= sizeof(c->param[0])) {
			snprintf(err, errlen, "%s:%d: more cost parameters than the %d expected",
				 c->path, ln, SL_TW_MAX_COSTS);
			return -1;
		}
		snprintf(c->param[c->n++], sizeof(c->param[0]), "%s", p);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", c->path);
		return -1;
	}
	return 0;
}

int sl_tw_costs_load(struct sl_tw_costs *c, const char *trace, const char *calibration, char *err,
		     size_t errlen)
{
	struct stat st;
	FILE *f;
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
	f = fopen(c->path, "r");
	if (!f) {
		snprintf(err, errlen,
			 "calibration: %s: %s (expected a `schedlab calibrate` "
			 "directory or its machine.conf)",
			 c->path, strerror(errno));
		return -1;
	}
	rc = load(c, f, err, errlen);
	fclose(f);
	if (!rc && !c->n) {
		snprintf(err, errlen,
			 "%s: no cost parameter (param ctx_switch=..., cache_refill=..., "
			 "migrate_core=...): not a calibration",
			 c->path);
		return -1;
	}
	return rc;
}
