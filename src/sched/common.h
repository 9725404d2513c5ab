/*
 * What every scheduling class and the machine share, whichever release runs: the load weights
 * of the nice levels, the wake-up flags, the sched_domain flags (select_task_rq's sd_flag among
 * them), the wrapping vruntime compares and a few helpers. CFS's own rules are in cfs.h,
 * EEVDF's in eevdf.h, BFS's in bfs/bfs.h, the RT class's in rt.h.
 */
#ifndef SCHEDLAB_SCHED_COMMON_H
#define SCHEDLAB_SCHED_COMMON_H

#include "sched/sched.h"

#define NICE_0_LOAD	1024ULL
#define WMULT_CONST	(1ULL << 32)
#define WMULT_IDLEPRIO	1431655765ULL
#define WEIGHT_IDLEPRIO 3ULL

/* the kernel's prio_to_weight[] and prio_to_wmult[], by nice + 20 */
extern const u64 sl_prio_to_weight[40];
extern const u64 sl_prio_to_wmult[40];

/* Wake flags (2.6.32 names; 2.6.31 passes only `sync`). */
#define WF_SYNC 0x01
#define WF_FORK 0x02
/* the machine's irq_wake_unprotected: the wake-up check ignores the slice protection of the
 * running task (EEVDF's PREEMPT_SHORT path); no kernel flag */
#define WF_UNPROTECTED 0x100
/* the machine's wake_skip_delayed: the wake-up check's pick passes over delayed entities (EEVDF
 * 6.18's DELAY_DEQUEUE); no kernel flag */
#define WF_SKIP_DELAYED 0x200

/* sched_domain flags (the kernel's SD_* meanings; our own values). */
#define SD_LOAD_BALANCE	       0x001
#define SD_BALANCE_NEWIDLE     0x002
#define SD_BALANCE_EXEC	       0x004
#define SD_BALANCE_FORK	       0x008
#define SD_BALANCE_WAKE	       0x010
#define SD_WAKE_AFFINE	       0x020
#define SD_WAKE_BALANCE	       0x040 /* 2.6.31 passive balancing */
#define SD_SHARE_CPUPOWER      0x080
#define SD_SHARE_PKG_RESOURCES 0x200

/* avg += (sample - avg) / 8, the kernel's update_avg */
void sl_update_avg(u64 *avg, u64 sample);
int sl_ilog2(u64 v);
/* the task whose entity se is */
struct sl_task *sl_task_of(struct sched_entity *se);

static inline u64 max_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) > 0 ? b : a;
}
static inline u64 min_vruntime(u64 a, u64 b)
{
	return (s64)(b - a) < 0 ? b : a;
}

#endif
