/*
 * rt-app's per-thread log files, read back. rt-app 1.0 writes one file per thread instance,
 * <logdir>/<log_basename>-<task>-<instance>.log: a "# Policy : ..." line, a "#idx perf run
 * period start end rel_st slack c_duration c_period wu_lat" header, then one line per loop of
 * the task's events that ends a period (a timer, or the end of the task's event list), every
 * time in microseconds. Reading the simulated logs with the same code as the real ones is what
 * makes `validate` compare like with like.
 */
#ifndef SCHEDLAB_RTAPP_LOG_H
#define SCHEDLAB_RTAPP_LOG_H

#include <stddef.h>
#include <schedlab/types.h>

enum sl_rtlog_col {
	SL_RTLOG_IDX,
	SL_RTLOG_PERF,
	SL_RTLOG_RUN,
	SL_RTLOG_PERIOD,
	SL_RTLOG_START,
	SL_RTLOG_END,
	SL_RTLOG_REL_ST,
	SL_RTLOG_SLACK,
	SL_RTLOG_C_DURATION,
	SL_RTLOG_C_PERIOD,
	SL_RTLOG_WU_LAT,
	SL_RTLOG_NCOLS
};

extern const char *const sl_rtlog_col_name[SL_RTLOG_NCOLS];

struct sl_rtlog {
	char task[64]; /* from the file name: <basename>-<task>-<instance>.log */
	int instance;
	size_t n, cap;
	s64 (*row)[SL_RTLOG_NCOLS];
};

/*
 * Reads one log. `basename` (may be NULL) is stripped from the file name's front to find the
 * task's name. 0, or -1 with err ("FILE:LINE: what was expected").
 */
int sl_rtlog_read(struct sl_rtlog *l, const char *path, const char *basename, char *err,
		  size_t errlen);
void sl_rtlog_free(struct sl_rtlog *l);

/* Mean and nearest-rank percentile of a column over a set of rows (several logs). */
struct sl_rtlog_col_stat {
	size_t n;
	double mean;
	s64 p95;
};
int sl_rtlog_col_stats(const struct sl_rtlog *const *logs, int nlogs, enum sl_rtlog_col col,
		       struct sl_rtlog_col_stat *out);

#endif
