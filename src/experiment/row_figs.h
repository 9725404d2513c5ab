/*
 * A report row's figures under one setting, over the seeds: what `compare` prints for each task
 * row and `repro EXP --workload` for each workload or comm row, from run's own statistics
 * (row_stats.h), so that both commands give a figure the same name and the same arithmetic.
 */
#ifndef SCHEDLAB_ROW_FIGS_H
#define SCHEDLAB_ROW_FIGS_H

#include "experiment/spread.h"
#include "stats/sched_stats.h"

#include <json-c/json.h>
#include <stdbool.h>

struct sl_row_figs {
	struct sl_spread tasks, cpu_ms, switches, wakeups, p50_ms, p95_ms, max_ms, comp_ms;
	struct sl_spread share; /* percent of the run's span: compare's only */
	bool unfinished;	/* in some seed not every task exited */
};

/* The figures with a JSON key (completion_ms apart: null when unfinished), in no set order. */
enum sl_row_fig {
	SL_FIG_TASKS,
	SL_FIG_CPU_MS,
	SL_FIG_SHARE,
	SL_FIG_SWITCHES,
	SL_FIG_WAKEUPS,
	SL_FIG_P50,
	SL_FIG_P95,
	SL_FIG_MAX,
};

/* adds one seed's CPU time, switches, wake-ups and wake-up latencies of group g of st */
void sl_row_figs_add(struct sl_row_figs *f, const struct sl_stats *st, int g);
/* adds the n figures of `which` to o under their keys in that order, then completion_ms */
void sl_row_figs_json(json_object *o, const struct sl_row_figs *f, const enum sl_row_fig *which,
		      int n);

#endif
