/*
 * `schedlab validate F.json`: the same rt-app file run for real (rt-app under `record`, on this
 * machine, as root) and simulated (the rt-app workload on a model of the machine: its CPU count,
 * its idle states, the live kernel's scheduler and cpuidle governor), then the figures both
 * give, side by side: per task the mean and p95 of run, period and slack from rt-app's logs and
 * the wake-up latency percentiles from the trace; per CPU the idle entries and residency per
 * state; the tasks' context switches and migrations per second. `--real DIR` takes an earlier
 * real run (the JSON, rt-app's logs and a trace in DIR), so validation also works where rt-app
 * cannot run. Both sides go through the same readers (rtapp_log_read.c, vtrace.c).
 */
#ifndef SCHEDLAB_VALIDATE_H
#define SCHEDLAB_VALIDATE_H

#include <stdbool.h>
#include <stdio.h>
#include <schedlab/types.h>

struct sl_mc_background; /* machine/machine_conf.h */

struct sl_validate_opts {
	const char *json;	 /* the rt-app file */
	const char *real_dir;	 /* --real DIR: an earlier real run */
	const char *out_dir;	 /* --out DIR: where a live run keeps its real side */
	const char *sim_out;	 /* --sim-out DIR: keep the simulated side (logs, sim.trace) */
	const char *calibration; /* a `calibrate` directory: its model parameters */
	const char *kernel;	 /* the model's policy; default: from the real machine */
	const char *machine;	 /* idle profile; default: from DIR/machine.conf or this machine */
	const char *governor;
	const char *seed;
	const char *duration; /* for a file without "duration": how long both sides run */
	bool json_out;
};

/*
 * 0: the table is printed; -1 with err (exit 2 for bad input, the message says), or
 * SL_VALIDATE_EOUTPUT with err when an output directory cannot be made (exit 1).
 */
#define SL_VALIDATE_EOUTPUT (-3)
int sl_validate(const struct sl_validate_opts *o, FILE *out, char *err, size_t errlen);
/* The rt-app file of a machine's background (machine.conf background_*; validate.c). */
int sl_validate_background_json(FILE *f, int cpus, unsigned long rate, u64 run_ns);
/* the same with the runs in turn (background_runs: nruns of runs, 0: run_ns) and the long
 * runs (background_long_rate/run; long_rate 0: none); neither given: the above's file */
int sl_validate_background_json2(FILE *f, int cpus, const struct sl_mc_background *bg,
				 u64 phase_seed);

#endif
