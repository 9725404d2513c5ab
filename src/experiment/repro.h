/* The experiments that reproduce the 2009 results. */
#ifndef SCHEDLAB_REPRO_H
#define SCHEDLAB_REPRO_H

#include <stdio.h>
#include <schedlab/types.h>

struct sl_repro_opts {
	const char *kernel, *duration, *seed;
	int disks[16];
	int ndisks;
	const char *governors[16];
	int ngovernors;
	bool json;
	int nseeds; /* sleepers, fork: seeds 1..n (default 5) */
	/* fio: the mechanisms, the same for every run (--param, --cpuidle-param, --irq-affinity,
	 * --idle-driver; NULL/0: the release's defaults) */
	const char *params[16];
	int nparams;
	const char *cpuidle_params[16];
	int ncpuidle_params;
	const char *irq_affinity, *idle_driver;
};

int sl_repro_fio(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
int sl_repro_sleepers(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
int sl_repro_fork(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);

#endif
