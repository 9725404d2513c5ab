/*
 * The scheduler's sysctls (kernel/sysctl.c of 2.6.31 and 2.6.32), taken as `sysctl -w` takes
 * them: "kernel.NAME=VALUE", the value a decimal integer. Bounds are the kernel's: latency and
 * min_granularity in [100000, 1000000000] (proc_dointvec_minmax with min/max_sched_granularity_ns),
 * wakeup_granularity in [0, 1000000000], shares_thresh >= 0; the others are plain proc_dointvec
 * on an unsigned int (a negative write wraps, as it does in the kernel). A write of latency or
 * min_granularity recomputes sched_nr_latency = DIV_ROUND_UP(latency, min_granularity), as
 * sched_nr_latency_handler does. `kernel.sched_features` takes the kernel's bit mask.
 *
 * Linux 6.18 has none of these in /proc/sys/kernel: its fair-class tunables are debugfs files
 * in /sys/kernel/debug/sched/, written here by their file names: base_slice_ns, migration_cost_ns,
 * nr_migrate (u32 files) and tunable_scaling (0 none, 1 log, 2 linear; a write re-derives the
 * normalized slice = base_slice / factor, as sched_update_scaling does). Each entry says which
 * releases have it; a write of another release's name is refused with the list of valid ones.
 *
 * kernel.sched_rt_period_us (>= 1) and kernel.sched_rt_runtime_us (-1 = no limit) are ints;
 * a write that would make the runtime exceed the period is refused, as sched_rt_handler's
 * validation does (6.x sched_rt_global_validate).
 */
#ifndef SCHEDLAB_SYSCTL_H
#define SCHEDLAB_SYSCTL_H

#include "sched/release.h"

struct sl_sysctl_desc {
	const char *name;
	size_t offset; /* in struct sl_tunables; (size_t)-1 for sched_features */
	s64 min, max;
	bool nr_latency_handler;
	bool acts;	      /* false: group scheduling only */
	unsigned kernels;     /* SL_SYSCTL_* of the releases that have it */
	bool scaling_handler; /* tunable_scaling: re-derive the normalized slice */
	bool is_int;	      /* a signed int (printed as such): the RT bandwidth's -1 */
};
/* The rows rel has, in the order `sysctl` prints them: the shared table's rows of its
 * SL_SYSCTL_* mask, then its own (struct sl_release's own_sysctls). */
int sl_sysctl_count(const struct sl_release *rel);
const struct sl_sysctl_desc *sl_sysctl_nth(const struct sl_release *rel, int k);
/* does rel have this sysctl? */
bool sl_sysctl_exists(const struct sl_release *rel, const struct sl_sysctl_desc *d);
/* the name as the run report prints it: "kernel." dropped */
const char *sl_sysctl_short(const struct sl_sysctl_desc *d);

/* the rows the releases share (2.6.3x's kernel.sched_*, 6.18's debugfs files, RT bandwidth) */
extern const struct sl_sysctl_desc sl_sysctls[];
extern const int sl_nsysctls;

int sl_sysctl_write(const struct sl_release *rel, struct sl_tunables *t, u64 *features,
		    const char *assignment, char *err, size_t errlen);
/* The value as `sysctl NAME` prints it. */
s64 sl_sysctl_read(const struct sl_release *rel, const struct sl_tunables *t, u64 features,
		   const struct sl_sysctl_desc *d);

#endif
