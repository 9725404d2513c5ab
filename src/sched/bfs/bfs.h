/*
 * BFS, the Brain Fuck Scheduler of Con Kolivas, as of its 2.6.31 series (v0.300-0.304,
 * kernel/sched_bfs.c), re-implemented from the facts in docs/model/bfs.md, not from its text.
 *
 * One global run queue for every CPU: a list per BFS priority (ISO, NORMAL, IDLEPRIO), each
 * task with a virtual deadline niffies + prio_ratios[nice + 20] x rr_interval set when its
 * rr_interval slice runs out. A CPU that schedules takes the queued task with the earliest
 * deadline plus its cache distance (an O(n) walk, earliest_deadline_task); a waking task goes
 * to an idle CPU if one is allowed, else preempts the CPU whose task has the latest deadline
 * if its own is earlier (try_preempt). No load balancing: the shared queue is the balance.
 *
 * Model choices (docs/model/bfs.md says why):
 * - The RT policies stay in the RT class above BFS (rt.c); BFS's own RT queues (prio 0..99 of
 *   the same global queue) are not reproduced. A running RT task counts as ISO time, as in BFS.
 * - niffies is the simulation clock (BFS keeps it from the per-CPU clocks; one clock here).
 * - SCHED_BATCH is scheduled as SCHED_NORMAL; SCHED_IDLE (policy 5) is SCHED_IDLEPRIO.
 */
#ifndef SCHEDLAB_BFS_H
#define SCHEDLAB_BFS_H

#include "sched/sim.h"

/* BFS's queue priorities above MAX_RT_PRIO (ISO_PRIO, NORMAL_PRIO, IDLE_PRIO) */
#define BFS_ISO_PRIO	100
#define BFS_NORMAL_PRIO 101
#define BFS_IDLE_PRIO	102
#define BFS_NQUEUES	3
#define BFS_PRIO_RANGE	40 /* nice -20..19: the user priorities */

/* a slice with less than this left is expired (RESCHED_US) */
#define BFS_RESCHED_US 100
/* the boot values of the two sysctls */
#define BFS_RR_INTERVAL_MS 6
#define BFS_ISO_CPU	   70

/* the sysctls' slots in struct sl_tunables' policy[] */
#define BFS_TUN_RR_INTERVAL 0
#define BFS_TUN_ISO_CPU	    1

/* The global run queue (struct global_rq) and what is computed at boot. */
struct sl_bfs_grq {
	TAILQ_HEAD(bfs_queue, sl_task) queue[BFS_NQUEUES]; /* by prio - BFS_ISO_PRIO, FIFO */
	u64 nr_queued;
	u64 iso_ticks;
	bool iso_refractory;
	int ncpu;
	int *locality; /* [task's cpu * ncpu + cpu]: 0 same, 1 SMT, 2 shared cache, 3 other */
};

/* prio_ratios[user_prio]: 100 for nice -20, each level 11/10 of the one before (truncated) */
u64 sl_bfs_prio_ratio(int user_prio);
/* prio_deadline_diff: the deadline offset of a nice level, ns */
u64 sl_bfs_deadline_diff(u64 rr_interval_ms, int nice);
/* cpu_locality from the CPUs' socket/core/thread */
int sl_bfs_locality(const struct sl_sim *sim, int a, int b);
/* cache_distance(task's rq, rq, p): ns added to a queued task's deadline when rq looks */
u64 sl_bfs_cache_distance(const struct sl_sim *sim, int task_cpu, int cpu);
/* earliest_deadline_task: the queued task rq would take (not removed), NULL if none */
struct sl_task *sl_bfs_earliest_deadline_task(struct sl_sim *sim, struct sl_cpu *rq);
/* try_preempt: the CPU p should preempt or wake (-1: none) */
int sl_bfs_preempt_target(struct sl_sim *sim, struct sl_task *p);
/* ISO_PERIOD in ticks: 5 s of ticks of every CPU, plus one */
u64 sl_bfs_iso_period(const struct sl_sim *sim);

static inline struct sl_bfs_grq *sl_bfs_grq(const struct sl_sim *sim)
{
	return (struct sl_bfs_grq *)sim->class_state;
}

#endif
