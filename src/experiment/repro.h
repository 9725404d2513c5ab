/* The experiments that reproduce the 2009 results. */
#ifndef SCHEDLAB_REPRO_H
#define SCHEDLAB_REPRO_H

#include <stdio.h>
#include <schedlab/types.h>
#include "config/config.h"

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
	/* --workload: the experiment's settings run with these instead of its own workloads */
	const char *workloads[SL_MAX_LIST];
	int nworkloads;
};

/*
 * One setting of an experiment: the words of its runs but their workloads and seed (kernel,
 * flags, sysctls, params, CPUs, machine, governor, duration), and its label. Each experiment
 * fills its settings with the function its own runs start from.
 */
struct sl_repro_setting {
	char label[96];
	struct sl_args a;
	char buf[3][64]; /* strings of a that the setting wrote */
};

/*
 * `repro EXP --workload SPEC...` (repro_wl.c): every setting run with o->workloads, seeds
 * 1..nseeds (nseeds 1: o->seed, default 1), reporting per workload group, and per comm of a
 * trace workload's tasks, CPU time, wake-ups, wake-up latency p50/p95/max, switches and
 * completion, each as mean [min, max] over the seeds.
 */
int sl_repro_workloads(const char *exp, const struct sl_repro_opts *o,
		       const struct sl_repro_setting *set, int nset, int nseeds, FILE *out,
		       char *err, size_t errlen);

int sl_repro_fio(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
int sl_repro_sleepers(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
int sl_repro_fork(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
/* CFS 2.6.31/2.6.32, BFS and EEVDF: desktop latency under make, build time, nice shares */
int sl_repro_bfs(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);

/*
 * One run of each experiment, its figures (the demo's). sleepers: 2.6.31 with NEW_FAIR_SLEEPERS
 * on (nfs) or off; fork: 2.6.31 on cpus CPUs, sched_child_runs_first 1 or 0; fio: the
 * Nehalem server with that many disks under gov ("poll": idle=poll), 2 s, and the 2009 figure.
 */
struct sl_sleepers_one {
	double xmodmap_ms;  /* the xmodmap-like client's completion time */
	double wake_p99_ms; /* p99 wake-up latency of the client and the video */
	double wait_max_ms; /* the longest runqueue wait of any task */
	double make_s;	    /* the niced make's completion */
};
int sl_repro_sleepers_one(bool nfs, u64 seed, struct sl_sleepers_one *res, char *err,
			  size_t errlen);
int sl_repro_fork_one(int cpus, int child_first, u64 seed, double *build_s, double *switches,
		      char *err, size_t errlen);
int sl_repro_fio_one(int disks, const char *gov, const char *seed, double *mbps, double *power_w,
		     double *seed_mbps, char *err, size_t errlen);

/* `schedlab demo`: the three results in one screen, or one JSON object. */
int sl_demo(u64 seed, bool json, FILE *out, char *err, size_t errlen);

#endif
