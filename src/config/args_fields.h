/*
 * The options that land in struct sl_args, one line each: the option's key (its row in the
 * command table, src/cli/cli_table.c), the field, for a list its count, and whether `sweep
 * --vary KEY=...` sets it. The parser of the schedlab command and the sweep's --vary are both
 * made from these lines, so an option is mapped to its field once.
 *
 * SL_ARGS_FIELDS(S, L) calls S(key, field, vary) for a single value (a later one replaces it)
 * and L(key, field, count, vary) for a list (each value adds one), in this order.
 */
#ifndef SCHEDLAB_ARGS_FIELDS_H
#define SCHEDLAB_ARGS_FIELDS_H

#include "config/config.h"

#define SL_ARGS_FIELDS(S, L)                                                                       \
	S("kernel", kernel, true)                                                                  \
	S("cpus", cpus, true)                                                                      \
	S("topology", topology, true)                                                              \
	S("duration", duration, true)                                                              \
	S("seed", seed, true)                                                                      \
	L("sched-features", features, nfeatures, true)                                             \
	L("sysctl", sysctls, nsysctls, false)                                                      \
	L("at", ats, nats, false)                                                                  \
	L("workload", workloads, nworkloads, false)                                                \
	L("param", params, nparams, false)                                                         \
	S("machine", machine, true)                                                                \
	S("cpuidle-governor", governor, true)                                                      \
	S("idle", idle, true)                                                                      \
	S("idle-driver", idle_driver, false)                                                       \
	S("pm-qos-latency-us", pm_qos_us, true)                                                    \
	L("cpuidle-disable", cpuidle_disable, ncpuidle_disable, false)                             \
	L("cpuidle-param", cpuidle_params, ncpuidle_params, false)                                 \
	S("irq-affinity", irq_affinity, true)                                                      \
	S("trace-out", trace_out, false)

#endif
