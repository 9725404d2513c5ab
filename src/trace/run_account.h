/*
 * The one account of who ran where and when in a trace, which `trace-stats` and the trace
 * workload both read a trace through, so that a task's CPU time is the same in both to the
 * nanosecond (docs/workloads.md, "One account of a trace"). The rules are those of struct
 * sl_cpu_stat (stats/sched_stats.h): a CPU's next sched_switch ends whatever ran there; a task
 * is charged from a traced switch-in, from the CPU's first record, or from the first record in
 * its context on a CPU where another task was last seen (a switch-in the trace does not hold),
 * to its switch-out or its last sighting before another task shows up there; the time in
 * between is charged to nobody and counted.
 */
#ifndef SCHEDLAB_TRACE_RUN_ACCOUNT_H
#define SCHEDLAB_TRACE_RUN_ACCOUNT_H

#include "stats/sched_stats.h"
#include "trace/format.h"

/* The CPUs of the account when the trace does not say how many (its header's #P). */
#define SL_RUN_ACCOUNT_DEFAULT_NCPU 256

/* What the account could not take from the trace as it is: each counted, none guessed. */
struct sl_run_counts {
	u64 at_start;	     /* runs begun by a CPU's first record (running when tracing started) */
	u64 sighted;	     /* runs begun by a record in the task's context, no switch-in traced */
	u64 late_cpus;	     /* CPUs whose first record comes after the trace's first */
	u64 late_ns;	     /* their records' start after the trace's, summed */
	u64 lost_switches;   /* (at finish) sl_cpu_stat.lost_switches summed */
	u64 unattributed_ns; /* (at finish) charged to nobody, summed over CPUs */
};

/* The account's CPUs for a reader that has returned its first record. */
int sl_run_account_ncpu(const struct sl_trace_reader *rd);

/*
 * One record into the account: `id` is the record's own task (0: idle; < 0: none), prev and
 * next the ids of a sched_switch's tasks. Only the running state is fed (a sched_switch, or
 * a record's evidence of who runs on its CPU); the caller feeds the other events itself. `rc`
 * (NULL: not counted) gets the corrections, `first` is the trace's first record's time.
 */
void sl_run_account_record(struct sl_stats *st, struct sl_run_counts *rc, u64 first,
			   const struct sl_trace_record *r, int id, int prev, int next);

/* Task id's CPU time so far, its current run counted up to `now`. */
u64 sl_run_account_ns(const struct sl_stats *st, int id, u64 now);

/* The trace ended at `end`: runs still open end there; the per-CPU figures into rc. */
void sl_run_account_finish(struct sl_stats *st, struct sl_run_counts *rc, u64 end);

#endif
