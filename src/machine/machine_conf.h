/*
 * A machine description for `validate`, `calibrate` and the trace replay (the recording
 * machine's costs, workload/trace.h): what a real run's machine was (CPU count, kernel release,
 * cpuidle driver and governor) and how to model it (the scheduler release, an idle table,
 * disabled states, model parameters measured once by `calibrate`).
 * One directive a line, '#' starts a comment:
 *
 *   cpus 2
 *   kernel_release 6.18.44-fc-v1252
 *   cpuidle_driver none
 *   cpuidle_governor menu
 *   idle_profile machine.profile     (docs/idle-profile-format.md; relative to this file)
 *   cpuidle_disable POLL             (a state name, as --cpuidle-disable)
 *   param ctx_switch=3000ns          (as --param)
 *   background_rate 48               (validate: the machine's own wake-ups per second and CPU,
 *   background_run 20us               each this long: kworkers, RCU, timers; 0 or absent: none)
 */
#ifndef SCHEDLAB_MACHINE_CONF_H
#define SCHEDLAB_MACHINE_CONF_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <schedlab/types.h>

#define SL_MC_MAX_PARAMS  64
#define SL_MC_MAX_DISABLE 10
#define SL_MC_MAX_BG_RUNS 32

/* the machine's background activity (machine.conf background_* lines; validate writes it) */
struct sl_mc_background {
	unsigned long rate; /* background wake-ups per second and CPU (0: none) */
	u64 run_ns;	    /* CPU time of each */
	/* the long foreign runs of the recordings (docs/validate.md, "The background's shape
	 * (issue 28, step 16)"): a second pinned task per CPU, per second and CPU (0: none) */
	unsigned long long_rate;
	u64 long_run_ns; /* CPU time of each */
	bool long_free;	 /* background_long_free 1: the long tasks not pinned */
	/* background_pinned N: the short background's pinned share per 1000, the rest free */
	bool pinned_set;
	unsigned pinned;
	/* background_phase_random 1: each CPU's background timer at its own phase, drawn from the
	 * run's seed (docs/validate.md, "The background's phases (issue 28, step 16)") */
	bool phase_random;
	/* background_runs: the background's runs in turn, in place of run_ns (0: not given) */
	int nruns;
	u64 runs_ns[SL_MC_MAX_BG_RUNS];
};

struct sl_machine_conf {
	int cpus;
	char kernel_release[128];
	char cpuidle_driver[64];
	char cpuidle_governor[32]; /* as the real machine named it */
	char idle_profile[PATH_MAX];
	int nparams;
	char param[SL_MC_MAX_PARAMS][96];
	int ndisable;
	char disable[SL_MC_MAX_DISABLE][16];
	/* the background lines, one value: calibrate_over takes them from the calibration as a
	 * whole, and validate writes the background file from it */
	struct sl_mc_background bg;

	/* derived: the model of it */
	char model_kernel[16];	  /* "6.18", "2.6.31", "2.6.32" */
	const char *governor;	  /* the model's governor */
	char builtin_profile[32]; /* when no idle_profile */
};

/*
 * path's lines as they stand, every one checked, none required and nothing derived (a trace
 * replay's calibration may be its param lines alone): 0, or -1 with err ("FILE:LINE: what was
 * expected").
 */
int sl_machine_conf_read(struct sl_machine_conf *mc, const char *path, char *err, size_t errlen);
/* A whole description (cpus, kernel_release, cpuidle_driver) and its model: 0, or -1 with err. */
int sl_machine_conf_load(struct sl_machine_conf *mc, const char *path, char *err, size_t errlen);
/* This machine as it is (no model parameters): 0, or -1 with err. */
int sl_machine_conf_live(struct sl_machine_conf *mc, char *err, size_t errlen);
/* Writes mc as a file load() reads back; the idle profile's path is written as given. */
int sl_machine_conf_print(FILE *f, const struct sl_machine_conf *mc);
/* mc into path through the atomic writer (core/outfile.h): 0, or -1 with err. */
int sl_machine_conf_write(const char *path, const struct sl_machine_conf *mc, char *err,
			  size_t errlen);
/*
 * 0 when the calibration cal (read from path) describes mc's machine: its CPUs and kernel
 * release. Else -1 with err naming both: "PATH describes N CPUs running R; WHOSE N running R:
 * ADVICE" (whose: "this machine has", "the real run had").
 */
int sl_machine_conf_same_machine(const struct sl_machine_conf *cal, const char *path,
				 const struct sl_machine_conf *mc, const char *whose,
				 const char *advice, char *err, size_t errlen);
/*
 * This machine's description with the model parameters of calib_dir's machine.conf (a
 * calibration of this machine: its CPUs and kernel release must be this machine's), for
 * `record --calibration DIR` to write beside its trace: 0, or -1 with err.
 */
int sl_machine_conf_for_trace(struct sl_machine_conf *mc, const char *calib_dir, char *err,
			      size_t errlen);
/* This machine's description, into path (and its idle table beside, when needed). */
int sl_machine_conf_write_live(const char *path, char *err, size_t errlen);

#endif
