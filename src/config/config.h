/*
 * A run's configuration, built once from the kernel's own words (sched_features strings, sysctl
 * names, --at changes) by one module that the CLI, the experiments and the tests all call, and
 * turned into a simulation (machine_build.c).
 */
#ifndef SCHEDLAB_CONFIG_H
#define SCHEDLAB_CONFIG_H

#include "machine/machine.h"
#include "sched/release.h"
#include "workload/workload.h"

#define SL_MAX_LIST 64

/* The user's words, as typed. */
struct sl_args {
	const char *kernel;   /* a release of the registry (sched/release.h); NULL: the default */
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
	const char *machine;  /* an idle profile, "file:PATH" or "sysfs[:ROOT]" (default: poll) */
	const char *governor; /* --cpuidle-governor */
	const char *idle;     /* the idle= boot parameter: "poll" */
	/* --idle-driver: acpi_idle or intel_idle for `--machine nehalem` (default: the release's,
	 * acpi_idle before 2.6.35) */
	const char *idle_driver;
	const char *pm_qos_us; /* --pm-qos-latency-us */
	const char *cpuidle_disable[SL_MAX_LIST];
	int ncpuidle_disable;
	const char *cpuidle_params[SL_MAX_LIST];
	int ncpuidle_params;
	/* issuer, spread, bios, irqbalance or a CPU number (default: the release's) */
	const char *irq_affinity;
	const char *trace_out; /* --trace-out: ftrace text, or Chrome JSON for *.json */
};

struct sl_at_change {
	u64 time;
	char kind; /* 'f': sched-features, 's': sysctl */
	char text[256];
};

/*
 * The longest simulated run: 10^6 s (11.6 days; the first second of a busy desktop is ~10^6
 * events, so this is already weeks of wall time). It keeps every sum of times (--at, start=,
 * periods) far below 2^64 ns (584 years).
 */
#define SL_MAX_DURATION (1000000ULL * NSEC_PER_SEC)

struct sl_config {
	const struct sl_release *rel;
	int ncpu, sockets, cores, threads;
	u64 duration;
	bool duration_set;
	u64 seed;
	struct sl_params params;
	struct sl_tunables tun; /* after boot scaling and the sysctl writes */
	u64 features;
	/* NULL, or where the run records the feature bits it reads (sched/sched.h feat_read) */
	u64 *feat_read;
	struct sl_at_change at[SL_MAX_LIST];
	int nat;
	struct sl_workload_inst wl[SL_MAX_LIST];
	int nwl;
	bool wl_shared; /* wl[] belongs to the caller of sl_config_build_shared */
	bool progress;
	bool per_task; /* the report lists every task of a group (run --per-task) */
	/* cpuidle: the machine's state table (the simulation points at it: the config outlives
	 * the runs built from it), the governor, the QoS limit, per-state disable, tunables */
	struct sl_cpuidle_driver drv;
	const struct sl_cpuidle_governor *gov;
	u64 pm_qos_ns;
	bool disabled[SL_CPUIDLE_MAX_STATES];
	struct sl_gov_params gp;
	int irq_affinity;
	const char *trace_out;
};

/* A --at change, armed in the simulation */
struct sl_knob_change {
	struct sl_timer timer;
	char kind; /* 'f' features, 's' sysctl */
	char text[256];
};

/* The simulation cfg describes, its groups' start and its --at changes armed (machine_build.c);
 * NULL when out of memory. */
struct sl_sim *sl_sim_new(const struct sl_config *cfg);
/* The name of workload group i: the workload's name, numbered from its second occurrence
 * ("make", "make#2"); the sweep names its columns with it. */
void sl_group_name(const struct sl_config *cfg, int i, char *buf, size_t len);

/* Builds cfg from the user's words; on error returns -1 with a message naming the problem. */
int sl_config_build(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen);
/*
 * sl_config_build of a with the workloads wl[0..n), already parsed by sl_workload_parse, in
 * place of a's own (not read), with the checks and the recorded machine's defaults (a trace's
 * kernel, CPUs, cpuidle) sl_config_build takes for its own: so that many runs replay one parsed
 * workload (a trace read once), as run would. wl stays the caller's, to free after cfg; -1
 * with err.
 */
int sl_config_build_shared(struct sl_config *cfg, const struct sl_args *a,
			   const struct sl_workload_inst *wl, int n, char *err, size_t errlen);
/*
 * b: a with what it leaves unsaid (--kernel, --cpus, --machine) taken from the machine the trace
 * workloads wl[0..n) were recorded on, as every build of a configuration takes it; cpus (16
 * bytes) holds b's --cpus text. false: none says (b = a).
 */
bool sl_args_as_recorded(const struct sl_args *a, const struct sl_workload_inst *wl, int n,
			 struct sl_args *b, char cpus[16]);
/*
 * The words of a as options of `schedlab run` (--kernel first, with the release that ran, then
 * the machine, the duration, the flags, the sysctls and the parameters); not its workloads, seed
 * or --at changes.
 */
void sl_args_words(const struct sl_args *a, const char *kernel, char *buf, size_t len);
/* rt-app's global "duration" ends the run, unless a duration was given (run, repro). */
void sl_config_rtapp_duration(struct sl_config *cfg);
void sl_config_free(struct sl_config *cfg);
/* The cpuidle part (idle_config.c). */
int sl_config_build_idle(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen);
/* Apply one --at change to live knobs (also used to validate it at parse time). */
int sl_knob_apply(const struct sl_release *rel, struct sl_tunables *t, u64 *features, char kind,
		  const char *text, char *err, size_t errlen);

#endif
