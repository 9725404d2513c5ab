/*
 * BFS for 2.6.31 (v0.304) as a release: the BFS class, no sched_features, and its two
 * sysctls, kernel.rr_interval (ms, 1..5000, boot 6) and kernel.iso_cpu (percent, 0..100,
 * boot 70), kept in struct sl_tunables' policy[] (docs/model/bfs.md).
 */
#include "sched/bfs/bfs.h"
#include "sched/class.h"
#include "sched/release.h"
#include "sched/sysctl.h"

#include <stddef.h>

static const struct sl_sysctl_desc bfs_sysctls[] = {
	{"kernel.rr_interval", offsetof(struct sl_tunables, policy[BFS_TUN_RR_INTERVAL]), 1, 5000,
	 false, true, 0, false, false},
	{"kernel.iso_cpu", offsetof(struct sl_tunables, policy[BFS_TUN_ISO_CPU]), 0, 100, false,
	 true, 0, false, false},
};

/*
 * Boot: sched_init_smp (v0.302-0.304, read in the patch) scales rr_interval by the online
 * CPUs, rr_interval *= 1 + ilog2(num_online_cpus()): 6 ms on one CPU, 12 on 2 or 3, 18 on
 * 4..7, 24 on 8..15. BFS has no RT bandwidth limit (no kernel.sched_rt_* sysctls): the RT
 * class runs unthrottled, RUNTIME_INF.
 */
static void bfs_init_granularity(struct sl_tunables *t, int ncpu)
{
	int log = 0;

	while (ncpu >> (log + 1))
		log++;
	t->policy[BFS_TUN_RR_INTERVAL] *= (u64)(1 + log);
	t->sched_rt_runtime_us = (u32)-1;
}

/* SCHED_ISO: sched_setscheduler refuses it in every other release */
static const struct sl_task_policy bfs_policies[] = {{SL_SCHED_ISO, "iso", "BFS's SCHED_ISO"}};

const struct sl_release sl_bfs_2_6_31 = {
	.name = "2.6.31-bfs",
	.fair = &sl_bfs_class,
	.init_granularity = bfs_init_granularity,
	/* the menu governor of 2.6.31, which BFS leaves alone */
	.idle_governor = "menu-2.6.31",
	.sysctls = 0,
	.own_sysctls = bfs_sysctls,
	.nown_sysctls = (int)SL_ARRAY_SIZE(bfs_sysctls),
	.sysctl_hint = " (BFS has no kernel.sched_* tunables and no sched_features; its own are "
		       "rr_interval and iso_cpu)",
	.own_policies = bfs_policies,
	.nown_policies = (int)SL_ARRAY_SIZE(bfs_policies),
	.ftrace_2_6 = true,
	.feats = {NULL, 0},
	.defaults =
		{
			.policy = {[BFS_TUN_RR_INTERVAL] = BFS_RR_INTERVAL_MS,
				   [BFS_TUN_ISO_CPU] = BFS_ISO_CPU},
		},
};
