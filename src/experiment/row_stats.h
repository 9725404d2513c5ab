/*
 * Scheduling statistics by row of a report: a second struct sl_stats (stats/sched_stats.c, the
 * code `run` reports from) fed the same events with each task's workload group replaced by the
 * row a classifier puts it in, asked once per pid. repro --workload's rows per comm of a trace
 * group and compare's rows per recorded task are made so, with run's own rules for every figure.
 */
#ifndef SCHEDLAB_ROW_STATS_H
#define SCHEDLAB_ROW_STATS_H

#include "sched/sched.h"
#include "stats/sched_stats.h"

/* The row of a task (0..nrows-1), or -1 when it is in none; asked at the pid's first event. */
typedef int (*sl_row_of_fn)(void *ctx, const struct sl_task *p);

struct sl_row_stats {
	struct sl_stats st; /* its group k is row k */
	const struct sl_sim *sim;
	sl_row_of_fn row_of;
	void *ctx;
	int nrows;
	int *pid_row; /* by pid: 0 not asked yet, 1 in no row, k + 2 row k */
	int npid;
	u64 *first, *last; /* a row's first event, its tasks' last exit */
	int *exits, *tasks;
	bool oom;
};

/* 0, or non-zero when out of memory (sl_row_stats_free is harmless then). */
int sl_row_stats_init(struct sl_row_stats *rs, int nrows, int ncpu, sl_row_of_fn row_of, void *ctx);
void sl_row_stats_free(struct sl_row_stats *rs);
/* Subscribes rs (a struct sl_row_stats *) to sim's events: sl_run_with's attach. */
int sl_row_stats_attach(void *rs, struct sl_sim *sim);
/* The context switches (switch-outs) of the tasks of statistics group g. */
u64 sl_row_stats_switches(const struct sl_stats *s, int g);

#endif
