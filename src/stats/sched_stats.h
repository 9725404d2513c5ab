/*
 * The scheduling statistics, a subscriber of the event stream (so a real trace read into the
 * same events gives the same figures): per workload group the CPU time, wake-up latency
 * (sched_wakeup to the sched_switch that runs the task) and runqueue wait (runnable but not
 * running: after a wake-up or a preemption); per CPU the utilisation and context switches.
 * A wake-up or wait still open at the end counts with the time waited so far, so a starved
 * task shows.
 */
#ifndef SCHEDLAB_SCHED_STATS_H
#define SCHEDLAB_SCHED_STATS_H

#include <schedlab/event.h>
#include "core/hist.h"

struct sl_pid_stat {
	int group;
	bool waking, runnable, running;
	u64 wake_ts, runnable_since, run_since;
	u64 cpu_ns, wait_total, wait_max;
	u64 switches; /* times switched out, voluntarily or not (perf's context-switches) */
};

struct sl_group_stat {
	struct sl_hist lat;
	u64 cpu_ns, wait_total, wait_max, wakeups;
};

struct sl_cpu_stat {
	bool busy;
	u64 busy_since, busy_ns, switches;
};

struct sl_stats {
	int ngroups, ncpu;
	struct sl_group_stat *g;
	struct sl_cpu_stat *c;
	struct sl_pid_stat *pid;
	int npid;
	u64 migrations, switches;
	/* wake-ups delayed by an idle CPU's exit latency, and by how much */
	u64 delayed_wakeups;
	struct sl_hist wake_delay;
	/* |predicted - measured| of each idle period with a prediction */
	struct sl_hist pred_err;
	bool oom;
	bool finished;
};

int sl_stats_init(struct sl_stats *s, int ngroups, int ncpu);
void sl_stats_free(struct sl_stats *s);
void sl_stats_on_event(void *ctx, const struct sl_event *ev);
/* Close what is open at time `end`. */
void sl_stats_finish(struct sl_stats *s, u64 end);

#endif
