#ifndef SCHEDLAB_CONFIG_INTERNAL_H
#define SCHEDLAB_CONFIG_INTERNAL_H

#include <schedlab/config.h>
#include "core/sim.h"
#include "workload/workload.h"

/*
 * The longest simulated run: 10^6 s (11.6 days; the first second of a busy desktop is ~10^6
 * events, so this is already weeks of wall time). It keeps every sum of times (--at, start=,
 * periods) far below 2^64 ns (584 years).
 */
#define SL_MAX_DURATION (1000000ULL * NSEC_PER_SEC)

struct sl_config {
	const struct sl_cfs_release *rel;
	int ncpu, sockets, cores, threads;
	u64 duration;
	bool duration_set;
	u64 seed;
	struct sl_params params;
	struct sl_tunables tun; /* after boot scaling and the sysctl writes */
	u64 features;
	struct sl_at_change at[SL_MAX_LIST];
	int nat;
	struct sl_workload_inst wl[SL_MAX_LIST];
	int nwl;
	bool progress;
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

/* Builds cfg from the user's words; on error returns -1 with a message naming the problem. */
int sl_config_build(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen);
void sl_config_free(struct sl_config *cfg);
/* The cpuidle part (idle_config.c). */
int sl_config_build_idle(struct sl_config *cfg, const struct sl_args *a, char *err, size_t errlen);
/* Apply one --at change to live knobs (also used to validate it at parse time). */
int sl_knob_apply(const struct sl_cfs_release *rel, struct sl_tunables *t, u64 *features, char kind,
		  const char *text, char *err, size_t errlen);

#endif
