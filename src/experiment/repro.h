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
};

int sl_repro_fio(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
int sl_repro_sleepers(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
int sl_repro_fork(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
/* CFS 2.6.31/2.6.32, BFS and EEVDF: desktop latency under make, build time, nice shares */
int sl_repro_bfs(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);

#endif
