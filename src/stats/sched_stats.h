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

/*
 * 80 bytes: the group and the CPU in 16 bits each, which sl_stats_init guarantees (it refuses
 * more than SL_STATS_MAX groups or CPUs; the simulator has at most 4096 CPUs, the trace readers
 * 8192).
 */
#define SL_STATS_MAX INT16_MAX

struct sl_pid_stat {
	int16_t group1;	 /* the workload group + 1; 0: none (so a zeroed entry is a pid not seen) */
	int16_t run_cpu; /* while running: the CPU (-1: not known) */
	bool waking, runnable, running;
	u64 wake_ts, runnable_since, run_since;
	u64 cpu_ns, wait_total, wait_max;
	/*
	 * Run-queue waits (perf sched latency's "delay": from a wake-up, or from a switch-out
	 * in state R, to the switch-in): how many, and when the longest ended (its switch-in,
	 * or the end of the run for one still waiting then).
	 */
	u64 wait_n, wait_max_at;
	u64 switches; /* times switched out, voluntarily or not (perf's context-switches) */
};

struct sl_group_stat {
	struct sl_hist lat;
	u64 cpu_ns, wait_total, wait_max, wakeups;
};

/*
 * A CPU's view: what runs there. Run time is charged from it, so a CPU's next sched_switch
 * ends whatever ran there whether or not the switch names it (a trace can miss a switch: lost
 * events, the start of a buffer). cur is the pid running (0: idle), -1 when not known (the
 * start of a trace, or after the running task was seen on another CPU); seen is the last time
 * cur was known to run there. When another task shows up without a traced switch, cur's run
 * ends at `seen` and the time up to the new task's first sighting is charged to nobody
 * (unattributed_ns, lost_switches).
 */
struct sl_cpu_stat {
	int cur;
	bool lost; /* cur is -1 because a switch was missed (not the start) */
	u64 seen;
	u64 busy_ns, switches;
	u64 lost_switches, unattributed_ns;
};

struct sl_stats {
	int ngroups, ncpu;
	struct sl_group_stat *g;
	struct sl_cpu_stat *c;
	struct sl_pid_stat *pid;
	int npid;   /* entries (a power of two, or the pid limit): pids 0..npid-1 */
	int maxpid; /* the highest pid looked up (0: none); the entries above it are zero */
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
/*
 * A trace's evidence that `pid` (0: idle) runs on `cpu` at `t`: every trace line is written
 * in the context of the task running on its CPU. A task other than the CPU's current one
 * means a switch was not traced (see struct sl_cpu_stat).
 */
void sl_stats_seen(struct sl_stats *s, int cpu, int pid, u64 t);
/* Close what is open at time `end`. */
void sl_stats_finish(struct sl_stats *s, u64 end);

#endif
