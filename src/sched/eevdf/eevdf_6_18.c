/*
 * Linux 6.18 (target 6.18.44) as a release: the EEVDF fair class, kernel/sched/features.h's 27
 * flags in file order with the target's defaults (mask 0x5F0E7DF = 99674079), the tunables
 * and HZ=250 of the target machine.
 *
 * A flag with acts = false is accepted, printed and kept, but changes nothing in the model
 * (the 2.6.3x tables' convention), because what it governs is not modelled:
 * HRTICK_DL (deadline class), NONTASK_CAPACITY (no irq/steal time lowers capacity), TTWU_QUEUE
 * (a remote wake-up is enqueued at once; the IPI's delay is the resched IPI's),
 * WARN_DOUBLE_CLOCK and LATENCY_WARN (debug), RT_PUSH_IPI and RT_RUNTIME_SHARE (no RT class
 * yet), ATTACH_AGE_LOAD (PELT ageing at a class or group change, neither modelled).
 * SIS_UTIL and UTIL_EST act through eevdf_pelt.c.
 */
#include "sched/eevdf/eevdf.h"
#include "sched/class.h"
#include "sched/common.h"
#include "sched/release.h"

static const struct sl_feat_desc feats_6_18[] = {
	{F_PLACE_LAG, "PLACE_LAG", true, true},
	{F_PLACE_DEADLINE_INITIAL, "PLACE_DEADLINE_INITIAL", true, true},
	{F_PLACE_REL_DEADLINE, "PLACE_REL_DEADLINE", true, true},
	{F_RUN_TO_PARITY, "RUN_TO_PARITY", true, true},
	{F_PREEMPT_SHORT, "PREEMPT_SHORT", true, true},
	/* 6.19 turned NEXT_BUDDY on; 6.18.y keeps it off */
	{F_NEXT_BUDDY, "NEXT_BUDDY", false, true},
	{F_PICK_BUDDY, "PICK_BUDDY", true, true},
	{F_CACHE_HOT_BUDDY, "CACHE_HOT_BUDDY", true, true},
	{F_DELAY_DEQUEUE, "DELAY_DEQUEUE", true, true},
	{F_DELAY_ZERO, "DELAY_ZERO", true, true},
	{F_WAKEUP_PREEMPTION, "WAKEUP_PREEMPTION", true, true},
	{F_HRTICK, "HRTICK", false, true},
	{F_HRTICK_DL, "HRTICK_DL", false, false},
	{F_NONTASK_CAPACITY, "NONTASK_CAPACITY", true, false},
	{F_TTWU_QUEUE, "TTWU_QUEUE", true, false},
	{F_SIS_UTIL, "SIS_UTIL", true, true},
	{F_WARN_DOUBLE_CLOCK, "WARN_DOUBLE_CLOCK", false, false},
	/* mainline 1; the 6.18.y backport: 1 only on PREEMPT_RT; the target shows 0 */
	{F_RT_PUSH_IPI, "RT_PUSH_IPI", false, false},
	{F_RT_RUNTIME_SHARE, "RT_RUNTIME_SHARE", false, false},
	{F_LB_MIN, "LB_MIN", false, true},
	{F_ATTACH_AGE_LOAD, "ATTACH_AGE_LOAD", true, false},
	{F_WA_IDLE, "WA_IDLE", true, true},
	{F_WA_WEIGHT, "WA_WEIGHT", true, true},
	{F_WA_BIAS, "WA_BIAS", true, true},
	{F_UTIL_EST, "UTIL_EST", true, true},
	{F_LATENCY_WARN, "LATENCY_WARN", false, false},
	{F_NI_RANDOM, "NI_RANDOM", true, true},
};

const struct sl_release sl_eevdf_6_18 = {
	.name = "6.18",
	.fair = &sl_eevdf_class,
	.hz = 250, /* the target's CONFIG_HZ; --param hz=N still sets it */
	.init_granularity = sl_eevdf_init_granularity,
	.update_scaling = sl_eevdf_update_scaling,
	.sysctls = SL_SYSCTL_EEVDF,
	.sysctl_hint = " (EEVDF removed sched_latency, min/wakeup granularity and "
		       "child_runs_first; features are set with --sched-features)",
	.idle_governor = "menu", /* the modern menu is 6.18's highest-rated built-in */
	.feats = {feats_6_18, (int)SL_ARRAY_SIZE(feats_6_18)},
	.defaults =
		{
			.sched_migration_cost = 500000,
			.sched_nr_migrate = 32,
			.sched_normalized_base_slice = EEVDF_NORMALIZED_SLICE,
			.sched_base_slice = EEVDF_NORMALIZED_SLICE,
			.sched_tunable_scaling = 1, /* SCHED_TUNABLESCALING_LOG */
		},
};
