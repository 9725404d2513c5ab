/*
 * The figures `validate` takes from a trace, real or simulated, computed by the same code for
 * both: per rt-app task (all its instances, matched by comm as the kernel truncates it to 15
 * characters) the wake-up latency from sched_waking to the sched_switch that runs it (as perf
 * sched latency and rt-app's own wu_lat mean it), switches out and migrations; per CPU the idle
 * entries and time per state (cpu_idle). Everything is counted inside one window: from the first
 * event of any task thread to the last one, since rt-app calibrates and sets up before its
 * threads start and tears down after they stop.
 */
#ifndef SCHEDLAB_VTRACE_H
#define SCHEDLAB_VTRACE_H

#include <stddef.h>
#include "core/hist.h"

#define SL_VT_MAX_TASKS	 256
#define SL_VT_MAX_PIDS	 4096
#define SL_VT_MAX_CPUS	 256
#define SL_VT_MAX_STATES 10
#define SL_VT_COMM	 16 /* TASK_COMM_LEN: 15 characters and the NUL */

struct sl_vt_task {
	char comm[SL_VT_COMM];
	struct sl_hist lat;
	u64 switches, migrations;
	int npids;
};

struct sl_vt_cpu {
	u64 entries[SL_VT_MAX_STATES];
	u64 time[SL_VT_MAX_STATES];
	int state; /* -1: not idle (or unknown) */
	u64 since;
	bool other; /* a task other than the followed ones runs there: other_pid since other_since
		     */
	int other_pid;
	u64 other_since;
};

struct sl_vtrace {
	int ntasks;
	struct sl_vt_task task[SL_VT_MAX_TASKS];
	int ncpu;
	struct sl_vt_cpu cpu[SL_VT_MAX_CPUS];
	int nstates;	/* highest state index seen + 1 */
	u64 start, end; /* the window, trace clock ns */
	u64 last_any;	/* the trace's last event */
	int alive;	/* task threads with no sched_process_exit in the trace */
	u64 lost;	/* lost events (an overflowed buffer makes every figure a lower bound) */
	/* the run time, inside the window, of tasks other than the followed ones and the idle
	 * task: what else loaded the machine (set-up threads still named rt-app count too) */
	u64 other_ns;
	int nother; /* their distinct pids (at most SL_VT_MAX_PIDS counted) */
};

/*
 * Reads `path` twice (the window first, then the figures) for the tasks named in
 * names[0..n). The window is `span` ns from the first event (0: to the last one): rt-app stops its
 * threads `duration` after they start, a simulation stops at its end with them still alive, and
 * both sides must count over the same time. 0, or -1 with err naming the file and line.
 */
int sl_vtrace_read(struct sl_vtrace *v, const char *path, const char *const *names, int n, u64 span,
		   char *err, size_t errlen);

/* sl_vtrace_read, each record of its second pass (every record of the trace, in order, unless
 * the read fails) also given to each(record, arg) for a caller's own figures from the same read */
struct sl_trace_record;
typedef void (*sl_vt_each)(const struct sl_trace_record *r, void *arg);
int sl_vtrace_read_each(struct sl_vtrace *v, const char *path, const char *const *names, int n,
			u64 span, sl_vt_each each, void *arg, char *err, size_t errlen);
void sl_vtrace_free(struct sl_vtrace *v);

#endif
