/*
 * A run's configuration, built once from the kernel's own words (sched_features strings, sysctl
 * names, --at changes) by one module that the CLI, the experiments and the tests all call.
 */
#ifndef SCHEDLAB_CONFIG_H
#define SCHEDLAB_CONFIG_H

#include <schedlab/types.h>

struct sl_cfs_release;
struct sl_workload_inst;

#define SL_MAX_LIST 64

/* The user's words, as typed. */
struct sl_args {
	const char *kernel;   /* "2.6.31" (default) or "2.6.32" */
	const char *cpus;     /* N */
	const char *topology; /* SOCKETSxCORESxTHREADS */
	const char *duration;
	const char *seed;
	const char *features[SL_MAX_LIST];
	int nfeatures;
	const char *sysctls[SL_MAX_LIST];
	int nsysctls;
	const char *ats[SL_MAX_LIST];
	int nats;
	const char *workloads[SL_MAX_LIST];
	int nworkloads;
	const char *params[SL_MAX_LIST];
	int nparams;
	/* cpuidle */
	const char *machine;   /* an idle profile, "file:PATH" or "sysfs[:ROOT]" (default: poll) */
	const char *governor;  /* --cpuidle-governor */
	const char *idle;      /* the idle= boot parameter: "poll" */
	const char *pm_qos_us; /* --pm-qos-latency-us */
	const char *cpuidle_disable[SL_MAX_LIST];
	int ncpuidle_disable;
	const char *cpuidle_params[SL_MAX_LIST];
	int ncpuidle_params;
	const char *irq_affinity; /* issuer (default), spread, or a CPU number */
	const char *trace_out;	  /* --trace-out: ftrace text, or Chrome JSON for *.json */
};

struct sl_at_change {
	u64 time;
	char kind; /* 'f': sched-features, 's': sysctl */
	char text[256];
};

#endif
