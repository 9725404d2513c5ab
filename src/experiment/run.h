/* `schedlab run`: one simulation from a configuration, with its statistics and report. */
#ifndef SCHEDLAB_RUN_H
#define SCHEDLAB_RUN_H

#include <stdio.h>
#include "config/config.h"
#include "stats/sched_stats.h"

struct sl_run {
	struct sl_sim *sim;
	struct sl_stats stats;
	u64 wall_ns;
};

/*
 * Returns 0; -1 with err set (a run-time failure of the model); SL_RUN_EIO with err naming the
 * file (an output could not be written: exit status 1); or SL_RUN_EINTR with err saying when the
 * run stopped (SIGINT/SIGTERM: exit status 130). In the last two cases no file was written.
 */
#define SL_RUN_EIO   1
#define SL_RUN_EINTR 130
int sl_run(const struct sl_config *cfg, struct sl_run *r, char *err, size_t errlen);
/* The same, with attach(ctx, sim) called once the simulation is built and before it runs (to
 * subscribe more statistics to its event stream; non-zero: out of memory). */
int sl_run_with(const struct sl_config *cfg, struct sl_run *r,
		int (*attach)(void *ctx, struct sl_sim *sim), void *ctx, char *err, size_t errlen);
void sl_run_free(struct sl_run *r);
/*
 * sl_config_build of a, then sl_run: 0 with cfg and r to free (sl_run_free, sl_config_free), or
 * -1 with err and nothing to free. The experiments' runs, each from its own words.
 */
int sl_run_args(const struct sl_args *a, struct sl_config *cfg, struct sl_run *r, char *err,
		size_t errlen);
void sl_report_table(FILE *f, const struct sl_config *cfg, const struct sl_run *r);
/* Writes the JSON object; returns -1 when out of memory. */
int sl_report_json(FILE *f, const struct sl_config *cfg, const struct sl_run *r);

#endif
