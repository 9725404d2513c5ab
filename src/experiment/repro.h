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
	/* fio --explore: the unknowns to vary (NULL: all not fixed by an option), workers */
	bool explore;
	const char *unknowns;
	int jobs;
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
/*
 * `repro fio --explore` (explore_fio.c): the unknowns of the 2009 machine, each a named
 * parameter with its range, run in every combination through the sweep machinery; which
 * reproduce the whole seed table, with every combination's residuals, sorted.
 */
int sl_repro_fio_explore(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen);
/* The seed table's MB/s for disks under gov ("poll", "menu-2.6.31", "menu-tng"); 0: none. */
double sl_fio_seed(int disks, const char *gov);
/*
 * The fio machine of 2.6.31 (repro_fio.c): the --param and --cpuidle-param words every fio run
 * starts from, and its interrupt routing. The values are the best-supported combination of
 * --explore (docs/experiments-2009.md).
 */
#define SL_FIO_MACHINE_PARAMS                                                                      \
	"core_power=1", "tick_grid=1", "ctrl_disks=16", "hba_mbps=595", "bg_wakeup=100ms"
#define SL_FIO_MACHINE_CPUIDLE_PARAMS "bm_check=0"
/* the fio job's part of it: the readers away from the HBA's vector, one CPU each */
#define SL_FIO_MACHINE_JOB ",cpus_allowed=1-15,cpus_allowed_policy=split"
#define SL_FIO_MACHINE_IRQ "irqbalance"
/* The fio machine's idle table is acpi_idle's (its cpuidle params apply): the release's driver
 * for `--machine nehalem`, or the one named. */
bool sl_fio_acpi_table(const char *kernel, const char *idle_driver);
/*
 * The fio machine in a: the 2009 Nehalem-EP server (2x4x2, `--machine nehalem`), its machine
 * and cpuidle parameters then the user's (o's), its interrupts and idle driver unless o names
 * them. The duration, seed and workload are the caller's. repro fio and --explore both start
 * from it, so the two run the same machine.
 */
void sl_fio_machine_args(struct sl_args *a, const struct sl_repro_opts *o);
extern const char *const sl_fio_machine_params[];
extern const int sl_fio_nmachine_params;
extern const char *const sl_fio_machine_cpuidle_params[];
extern const int sl_fio_nmachine_cpuidle_params;
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
