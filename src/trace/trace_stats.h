/*
 * `schedlab trace-stats`: read a real trace, count its events, feed its scheduling events to the
 * sched_stats subscriber (pids as in the trace, group -1: a real trace has no workload groups),
 * and report per task run time, context switches and wake-up latency (perf sched latency: from
 * sched_wakeup to the sched_switch that runs the task), per CPU busy time and idle intervals
 * (cpu_idle entry to exit, per CPU and state), block I/O latency (block_rq_issue to the
 * block_rq_complete of the same dev+sector), lost and skipped lines.
 */
#ifndef SCHEDLAB_TRACE_STATS_H
#define SCHEDLAB_TRACE_STATS_H

#include <stdio.h>

#include "core/hist.h"
#include "stats/sched_stats.h"
#include "trace/format.h"

#define SL_TRACE_MAX_STATES 10
/*
 * Block requests issued and not yet completed that are kept for matching: far above any queue
 * (nr_requests is 128 to a few thousand), low enough that the linear match stays cheap.
 */
#define SL_TRACE_MAX_INFLIGHT 16384

struct sl_trace_task {
	int pid;
	char comm[SL_TRACE_COMM_LEN]; /* the last seen */
	bool seen, waking;
	bool running; /* switched in and not yet out: a wake-up of a running task is no wait */
	bool dead;    /* switched out dead: its pid, seen again, is a new task */
	u64 wake_ts;
	u64 lat_n, lat_sum, lat_max;
};

/*
 * One C-state of one CPU as idlestat 0.8 counts it (idlestat.c: store_data, cstate_end):
 * durations in us as doubles, avg the running mean avg + (d - avg) / hits; over: shorter than
 * the state's target residency; under: at least the next deeper state's (seen so far).
 */
struct sl_trace_istate {
	u64 hits, over, under;
	double min, max, avg, total;
};

/* One idlestat unit (a CPU, a core, a cluster): its current state (-1: not idle), the deepest
 * it has entered (-1: none), the entry time, and its states. */
struct sl_trace_iacct {
	int cur, max;
	u64 begin;
	struct sl_trace_istate is[SL_TRACE_MAX_CSTATES];
};

/*
 * A cluster or a core of several CPUs as idlestat 0.8 counts them (idlestat.c: store_data;
 * topology.c: cluster_get_least_cstate, core_get_least_cstate, create_states): idle while all
 * its CPUs are, in the shallowest of their states, with the names and target residencies of
 * its first CPU (the lowest-numbered CPU of its lowest-numbered core).
 */
struct sl_trace_igroup {
	bool cluster; /* else a core */
	int id;	      /* cluster: the letter - 'A'; core: its number */
	int cluster_id;
	int first_cpu;
	int ncpu;
	const int *cpus; /* in sl_trace_summary.imember */
	int target_us[SL_TRACE_MAX_CSTATES];
	struct sl_trace_iacct acct;
};

struct sl_trace_cpu {
	int idle_state; /* -2: unknown, -1: not idle */
	u64 idle_since;
	struct sl_hist idle; /* all states; its buckets made at the first interval (b NULL) */
	struct sl_hist *state_idle[SL_TRACE_MAX_STATES];
	struct sl_trace_iacct is; /* idlestat's view */
	int is_cluster, is_core;  /* its groups in sl_trace_summary.igroup (-1: none) */
};

struct sl_trace_blk_pending {
	unsigned dev;
	u64 sector, t;
};

/* The order of the task table, as perf sched latency's --sort: keys compared in turn. */
enum sl_trace_sort_key {
	SL_TRACE_SORT_PID,     /* ascending */
	SL_TRACE_SORT_RUNTIME, /* the rest descending */
	SL_TRACE_SORT_SWITCH,
	SL_TRACE_SORT_AVG, /* average run-queue delay */
	SL_TRACE_SORT_MAX, /* longest run-queue delay */
	SL_TRACE_SORT_NR
};

struct sl_trace_sort {
	int n;
	enum sl_trace_sort_key key[SL_TRACE_SORT_NR];
};

/* "runtime,max" into sort: 0, or -1 with err naming the bad key. */
int sl_trace_sort_parse(const char *spec, struct sl_trace_sort *sort, char *err, size_t errlen);

struct sl_trace_summary {
	struct sl_trace_reader rd; /* its counters (lines, unknown, lost, header) */
	u64 count[SL_TR_NR_KINDS];
	u64 first, last;
	int ncpu; /* as used: #P or the highest CPU seen + 1 */
	int maxcpu;
	struct sl_stats st;
	bool st_init;
	/*
	 * Tasks by a dense id (1, 2, ... in order of appearance; 0 is none), which the scheduling
	 * statistics are fed as well: pids reach 4194304 on a 64-bit kernel, and tables indexed
	 * by pid cost hundreds of MB for one such task. pidmap[pid] is the id of pid (0: none),
	 * for pids below npidmap (a power of two up to SL_TRACE_MAX_PID + 1): 4 bytes a pid, and
	 * the map is grown without touching its new part, so only the pages of the pids seen are
	 * in memory (16 MiB at most). Entries of task[] from nused on are not initialised.
	 */
	struct sl_trace_task *task; /* may move when it grows */
	int ntask, nused;	    /* allocated entries; ids in use + 1 */
	int *pidmap;
	int npidmap;
	struct sl_trace_cpu *cpu;
	struct sl_hist blk;
	struct sl_trace_blk_pending *pend;
	size_t npend, cap_pend;
	u64 blk_unmatched; /* completes without an issue */
	u64 blk_untracked; /* issues beyond SL_TRACE_MAX_INFLIGHT outstanding: not matched */
	/* woken tasks seen running with no sched_switch into them in the trace: no latency
	 * sample is taken for those */
	u64 missed_switch_in;
	bool oom;
	struct sl_trace_sort sort; /* n == 0: by pid */
	/* idlestat's header (a copy of the reader's): when set, trace-stats prints the idle
	 * states per CPU as idlestat's report does */
	struct sl_trace_cstates *cstates;
	int cstates_ncpu;
	/* idlestat's clusters and cores of several CPUs; its report's order of lines: group
	 * (>= 0: igroup[g]) or CPU (-1 - cpu) */
	struct sl_trace_igroup *igroup;
	int nigroup;
	int *imember; /* the CPUs in topology order: each group's a run of them */
	int *iorder;
	int niorder;
};

/* 0, or -1 with err (file:line: what). The summary must be freed either way. */
int sl_trace_summarize(struct sl_trace_summary *s, const char *path, bool lenient, char *err,
		       size_t errlen);
/* The same from an open stream (not closed here), `name` standing for it in messages. */
int sl_trace_summarize_stream(struct sl_trace_summary *s, FILE *f, const char *name, bool lenient,
			      char *err, size_t errlen);
/* The id of `pid` in task[] and in st.pid[] (0: not in the trace). */
int sl_trace_summary_id(const struct sl_trace_summary *s, int pid);
void sl_trace_summary_print(const struct sl_trace_summary *s, bool json, FILE *out);
void sl_trace_summary_free(struct sl_trace_summary *s);

/* All of it (sort NULL: by pid): 0, or -1 with err. */
int sl_trace_stats(const char *path, bool lenient, const struct sl_trace_sort *sort, bool json,
		   FILE *out, char *err, size_t errlen);

#endif
