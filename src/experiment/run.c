#include "experiment/run.h"
#include "machine/machine.h"
#include "trace/export.h"
#include "core/outfile.h"

#include <string.h>
#include <time.h>

static u64 wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

/*
 * An --at change or a workload's start= at or after end never takes effect: refused (before the
 * run against its set end; after a run that ended when its finite workloads did, against that
 * instant). A group that never started would report as an empty row.
 */
static int at_past_end(const struct sl_config *cfg, u64 end, bool after, const char *what,
		       char *err, size_t errlen)
{
	for (int i = 0; i < cfg->nwl; i++)
		if (cfg->wl[i].start > end || (!after && cfg->wl[i].start == end)) {
			snprintf(err, errlen,
				 "workload %s: start=%.9gs is not before %s (%.9gs): its tasks "
				 "would never be created",
				 cfg->wl[i].spec, (double)cfg->wl[i].start / 1e9, what,
				 (double)end / 1e9);
			return -1;
		}
	for (int i = 0; i < cfg->nat; i++)
		if (cfg->at[i].time > end || (!after && cfg->at[i].time == end)) {
			snprintf(err, errlen,
				 "--at %.9gs:%s=%s: not before %s (%.9gs): the change would "
				 "never take effect",
				 (double)cfg->at[i].time / 1e9,
				 cfg->at[i].kind == 'f' ? "sched-features" : "sysctl",
				 cfg->at[i].text, what, (double)end / 1e9);
			return -1;
		}
	return 0;
}

int sl_run(const struct sl_config *cfg, struct sl_run *r, char *err, size_t errlen)
{
	return sl_run_with(cfg, r, NULL, NULL, err, errlen);
}

int sl_run_args(const struct sl_args *a, struct sl_config *cfg, struct sl_run *r, char *err,
		size_t errlen)
{
	if (sl_config_build(cfg, a, err, errlen))
		return -1;
	if (sl_run(cfg, r, err, errlen)) {
		sl_run_free(r);
		sl_config_free(cfg);
		return -1;
	}
	return 0;
}

int sl_run_with(const struct sl_config *cfg, struct sl_run *r,
		int (*attach)(void *ctx, struct sl_sim *sim), void *ctx, char *err, size_t errlen)
{
	u64 t0 = wall_now();

	memset(r, 0, sizeof(*r));
	r->sim = sl_sim_new(cfg);
	if (!r->sim || sl_stats_init(&r->stats, cfg->nwl, cfg->ncpu) ||
	    sl_sim_subscribe(r->sim, sl_stats_on_event, &r->stats) ||
	    (attach && attach(ctx, r->sim))) {
		snprintf(err, errlen, "out of memory building the simulation");
		return -1;
	}
	struct sl_exporter *x = NULL;

	if (cfg->trace_out) {
		/* an empty name is bad input; a file that cannot be made is an output error
		 * (exit status 1, as for -o), found before the run */
		if (!cfg->trace_out[0]) {
			snprintf(err, errlen, "--trace-out: an empty file name");
			return -1;
		}
		if (!strcmp(cfg->trace_out, "-")) {
			snprintf(err, errlen,
				 "--trace-out -: the report goes to standard output (expected a "
				 "file for the trace)");
			return -1;
		}
		if (sl_outfile_is_input(cfg->trace_out)) {
			snprintf(err, errlen,
				 "--trace-out %s: an input of this run (expected another file: the "
				 "trace would replace it)",
				 cfg->trace_out);
			return -1;
		}
		x = sl_export_open(cfg->trace_out, r->sim, err, errlen);
		if (!x)
			return SL_RUN_EIO;
		if (sl_sim_subscribe(r->sim, sl_export_event, x)) {
			sl_export_close(x, false, err, 0);
			snprintf(err, errlen, "out of memory building the simulation");
			return -1;
		}
	}
	/* a change that cannot take effect is refused, not silently dropped */
	if (at_past_end(cfg, r->sim->end, false, "the run's end", err, errlen)) {
		sl_export_close(x, false, err + strlen(err), 0);
		return -1;
	}
	if (sl_sim_run(r->sim)) {
		if (sl_export_failed(x)) {
			sl_export_close(x, true, err, errlen); /* names the file, removes it */
			return SL_RUN_EIO;
		}
		sl_export_close(x, false, err, 0);
		if (r->sim->interrupted) {
			snprintf(err, errlen,
				 "interrupted at simulated t=%.6f s of %.6f s; no output written "
				 "(the report%s written only for a complete run)",
				 (double)r->sim->now / 1e9, (double)r->sim->end / 1e9,
				 cfg->trace_out ? " and --trace-out are" : " is");
			return SL_RUN_EINTR;
		}
		if (r->sim->eio) {
			snprintf(err, errlen, "%s", r->sim->error);
			return SL_RUN_EIO;
		}
		snprintf(err, errlen, "run failed at %llu ns: %s", (unsigned long long)r->sim->now,
			 r->sim->error);
		return -1;
	}
	if (at_past_end(cfg, r->sim->now, true, "the end of the run (its workloads finished)", err,
			errlen)) {
		sl_export_close(x, false, err + strlen(err), 0);
		return -1;
	}
	if (sl_export_close(x, true, err, errlen))
		return SL_RUN_EIO;
	sl_stats_finish(&r->stats, r->sim->now);
	if (r->stats.oom) {
		snprintf(err, errlen, "out of memory in the statistics");
		return -1;
	}
	r->wall_ns = wall_now() - t0;
	return 0;
}

void sl_run_free(struct sl_run *r)
{
	sl_sim_free(r->sim);
	sl_stats_free(&r->stats);
	r->sim = NULL;
}
