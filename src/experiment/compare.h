/*
 * `schedlab compare`: one set of workloads under several configurations (kernels, cpuidle
 * governors, sched_features, sysctls, machines, parameters) and seeds, side by side: a row per
 * task of a trace workload (its recorded pid and comm, with the trace's own figures as
 * "recorded") and per comm of another workload group, each configuration's figures as mean
 * [min, max] over the seeds, a total row, a table or one JSON object, and an SVG plot.
 */
#ifndef SCHEDLAB_COMPARE_H
#define SCHEDLAB_COMPARE_H

#include <stdio.h>

#include "config/config.h"
#include "experiment/spread.h"

#define SL_COMPARE_MAX_CONF SL_MAX_LIST

/* One configuration: the user's words but the workloads and the seed, and its name. */
struct sl_compare_conf {
	char label[48];
	struct sl_args a;
};

struct sl_compare_opts {
	const char *workloads[SL_MAX_LIST];
	int nworkloads;
	const struct sl_compare_conf *conf;
	int nconf;
	int nseeds;	  /* 1..SL_SPREAD_MAX: seeds seed, seed + 1, ... */
	const char *plot; /* an SVG file, or NULL */
	bool json;
	bool progress; /* a line on stderr per run (a terminal's, without --no-progress) */
};

/* Exit statuses besides 0: SL_COMPARE_EINPUT (bad input or an empty result: exit 2), 1 (an
 * output could not be written) and 130 (interrupted); err says what. */
#define SL_COMPARE_EINPUT 2
int sl_compare(const struct sl_compare_opts *o, FILE *out, char *err, size_t errlen);

#endif
