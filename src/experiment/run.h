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

/* Returns 0, or -1 with err set (a run-time failure). */
int sl_run(const struct sl_config *cfg, struct sl_run *r, char *err, size_t errlen);
void sl_run_free(struct sl_run *r);
void sl_report_table(FILE *f, const struct sl_config *cfg, const struct sl_run *r);
/* Writes the JSON object; returns -1 when out of memory. */
int sl_report_json(FILE *f, const struct sl_config *cfg, const struct sl_run *r);

#endif
