/*
 * rt-app JSON workloads: the file's description once parsed (rtapp_parse.c), before any
 * simulation exists. spawn (rtapp.c) turns it into task programs; the log writer
 * (rtapp_log_write.c) writes rt-app's per-thread log files.
 */
#ifndef SCHEDLAB_RTAPP_H
#define SCHEDLAB_RTAPP_H

#include <schedlab/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/rng.h"
#include "machine/machine.h" /* enum sl_policy */
#include "machine/params.h"

enum rta_kind {
	RTA_RUN,
	RTA_RUNTIME,
	RTA_SLEEP,
	RTA_TIMER,
	RTA_SUSPEND,
	RTA_RESUME,
	RTA_LOCK,
	RTA_UNLOCK,
	RTA_WAIT,
	RTA_SIGNAL,
	RTA_BROAD,
	RTA_SYNC,
	RTA_BARRIER,
	RTA_YIELD,
	RTA_FORK,
	RTA_MEM,
	RTA_IORUN,
};

struct rta_event {
	enum rta_kind kind;
	u64 val;       /* microseconds (run, runtime, sleep, timer period) or bytes (mem, iorun) */
	int ref;       /* index in the kind's name table; the task for fork */
	int mutex;     /* wait, sync, suspend and resume */
	bool unique;   /* timer: one per thread ("unique..." ref) */
	bool relative; /* timer mode */
	int line;
};

struct rta_phase {
	long loop; /* -1: for ever */
	struct rta_event *ev;
	int nev;
	int line;
	int cpus[64];
	int ncpus; /* 0: the task's */
};

struct rta_task {
	char name[64];
	long instance;
	long loop; /* -1: for ever */
	u64 delay_us;
	int nice;	 /* SCHED_OTHER's priority */
	int policy;	 /* enum sl_policy */
	int rt_priority; /* SCHED_FIFO / SCHED_RR: 1..99 */
	int line;
	struct rta_phase *ph;
	int nph;
	int cpus[64];
	int ncpus; /* 0: every CPU */
};

struct rta_names {
	char **v;
	int n;
};

struct rta_file {
	char path[256];
	long duration_s; /* -1: until the threads end */
	char log_basename[64];
	long ns_per_loop; /* calibration as an integer; 0 when given as a CPU name */
	bool cumulative_slack;
	struct rta_task *tasks;
	int ntasks;
	struct rta_names mutexes, conds, timers, barriers;
	int *barrier_users; /* per barrier: how many threads wait at it */
	int max_cpu;	    /* highest CPU in a cpus list, -1 if none */
};

/* Reads and checks path; -1 with err = "PATH:LINE: reason". */
int sl_rta_load(const char *path, struct rta_file *f, char *err, size_t errlen);
/* The same from a buffer (no I/O: what a fuzzer calls). */
int sl_rta_parse(const char *path, const char *buf, size_t len, struct rta_file *f, char *err,
		 size_t errlen);
void sl_rta_free(struct rta_file *f);
/*
 * The file as rt-app's workgen (check_suspend_json) rewrites it before rt-app reads it, line by
 * line: inside "tasks", a line without ':' that contains "suspend" gets ` : "TASK"` before its
 * first ',' (else before its newline), TASK being the key of the line that opened the second
 * brace level (the task). Line numbers do not change. Returns a malloc'ed NUL-terminated copy
 * (*outlen bytes), NULL when out of memory or past SL_JSON_MAX_SIZE.
 */
char *sl_rta_workgen(const char *buf, size_t len, size_t *outlen);

/* The CPU time of an rt-app "run" of us microseconds on the machine prm describes (rtapp.c). */
struct sl_dist sl_rta_run_cost(const struct sl_params *prm, long file_ns_per_loop, u64 us);

/* An event's name in the file ("lock", "suspend", ...). */
const char *sl_rta_kind_name(enum rta_kind k);

/* Per-thread log (rtapp_log_write.c). */
struct rta_row {
	u64 perf, run, period, start, end, rel_st;
	s64 slack;
	u64 c_duration, c_period, wu_lat;
};

/* rows per block of a thread's log: blocks are never moved, so a long run's log grows without
 * copying what it holds (a realloc'd array copied it at every doubling) */
#define SL_RTA_BLOCK 1024

struct rta_thread_log {
	char name[64];
	int idx;
	int policy, prio;	 /* for the header: the policy and rt-app's priority */
	struct rta_row **blocks; /* row k is blocks[k / SL_RTA_BLOCK][k % SL_RTA_BLOCK] */
	int n, nblocks;
};

/* row k (0 <= k < l->n) of a thread's log */
static inline const struct rta_row *sl_rta_row(const struct rta_thread_log *l, int k)
{
	return &l->blocks[k / SL_RTA_BLOCK][k % SL_RTA_BLOCK];
}

/* Writes one row as rt-app does (the columns and widths of its log files). */
void sl_rta_log_header(FILE *f, int policy, int prio);
void sl_rta_log_row(FILE *f, int idx, const struct rta_row *r);
/* Writes DIR/BASENAME-NAME-IDX.log for every thread, each through a temporary file renamed
 * on success; -1 with err naming the file. */
int sl_rta_log_write(const char *dir, const char *basename, const struct rta_thread_log *t, int n,
		     char *err, size_t errlen);

/* Per-thread figures of a finished run for the report: phases logged, then the mean, the p95
 * (nearest rank) and the extremes of run, period, slack and wu_lat (us). */
struct rta_stat {
	double mean;
	s64 p95, min, max;
};

struct rta_summary {
	const char *name;
	int idx;
	u64 phases;
	struct rta_stat run, period, slack, wu_lat;
};

struct sl_group;
/* The threads of an rt-app group (-1: not an rt-app group, or not started). */
int sl_rta_group_threads(const struct sl_group *g);
/* Thread i's figures; -1 when out of memory. */
int sl_rta_group_summary(const struct sl_group *g, int i, struct rta_summary *out);
/* The report ops of the rt-app workload (rtapp_report.c): group g's threads in the run's table,
 * after the section's heading when *head is false; its "rtapp_threads" array (NULL: none). */
void sl_rta_report_table(FILE *f, const struct sl_group *g, bool *head);
struct json_object *sl_rta_report_json(const struct sl_group *g);

#endif
