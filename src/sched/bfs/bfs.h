/*
 * BFS, the Brain Fuck Scheduler of Con Kolivas, as of its 2.6.31 series (v0.304,
 * kernel/sched_bfs.c), re-implemented from the facts in docs/model/bfs.md, not from its text.
 *
 * One global run queue for every CPU: a list per BFS priority (ISO, NORMAL, IDLEPRIO), each
 * task with a virtual deadline in jiffies, jiffies + prio_ratios[nice + 20] x rr_interval x HZ
 * / 100000 (prio_deadline_diff of v0.303-0.304), set when its rr_interval slice runs out. A CPU
 * that schedules takes the queued task with the earliest deadline plus its cache distance (an
 * O(n) walk in the kernel, earliest_deadline_task; ordered sets with the same answer here,
 * bfs_queue.c); a waking task takes an idle CPU if one is allowed, else
 * preempts the CPU whose task has the worst priority and latest deadline if its own priority
 * is better or its deadline earlier (try_preempt). No load balancing: the queue is the balance.
 *
 * Model choices (docs/model/bfs.md says why):
 * - The RT policies stay in the RT class above BFS (rt.c); BFS's own RT queues (prio 0..99 of
 *   the same global queue) are not reproduced. A running RT task counts as ISO time, as in BFS.
 * - jiffies is the simulation clock divided by the tick (sim->now / tick_ns); 0.30x has no
 *   niffies (the nanosecond clock came in a later series).
 * - SCHED_BATCH is scheduled as SCHED_NORMAL; SCHED_IDLE (policy 5) is SCHED_IDLEPRIO.
 */
#ifndef SCHEDLAB_BFS_H
#define SCHEDLAB_BFS_H

#include "sched/class.h"
#include "sched/sched.h"

/* BFS's queue priorities above MAX_RT_PRIO (ISO_PRIO, NORMAL_PRIO, IDLE_PRIO) */
extern const struct sl_sched_class sl_bfs_class;

#define BFS_ISO_PRIO	100
#define BFS_NORMAL_PRIO 101
#define BFS_IDLE_PRIO	102
#define BFS_NQUEUES	3
#define BFS_PRIO_RANGE	40 /* nice -20..19: the user priorities */

/* the boot values of the two sysctls */
#define BFS_RR_INTERVAL_MS 6
#define BFS_ISO_CPU	   70

/* the sysctls' slots in struct sl_tunables' policy[] */
#define BFS_TUN_RR_INTERVAL 0
#define BFS_TUN_ISO_CPU	    1

/*
 * The class's per-task area (class.h task_size), in the entity's class_area (sched.h): a task's
 * place in the global run queue. The queue's order (the kernel's FIFO list) is the entity's
 * rb_seq; a task without an affinity mask is in two trees of its queue (bfs_queue.c): by
 * deadline in its CPU's socket's (the entity's run_node) and by deadline plus the cache distance
 * from another socket (far_node, a tree of these areas); a task with a mask is on the queue's
 * list (the entity's group_node). The entity's CFS and EEVDF members are unused by BFS.
 */
struct sl_bfs_entity {
	RB_ENTRY(sl_bfs_entity) far_node;
	u64 deadline;			 /* virtual deadline, jiffies (0.30x) */
	s64 time_slice;			 /* what is left of rr_interval, us */
	u64 last_ran;			 /* when the slice was last charged, ns */
	struct sched_entity *near_first; /* the least rb_seq of run_node's subtree */
	struct sched_entity *far_first;	 /* the least rb_seq of far_node's subtree */
	s32 far_off; /* cache_distance from another socket when queued, jiffies */
	short prio;  /* BFS_ISO_PRIO, BFS_NORMAL_PRIO or BFS_IDLE_PRIO */
	bool queued; /* runnable and not running */
	bool pinned; /* queued on the list of tasks with an affinity mask */
};
_Static_assert(sizeof(struct sl_bfs_entity) <= SL_SE_AREA_SIZE,
	       "BFS's per-task area must fit the entity's class_area");

/* se's BFS members (const for a const entity) */
#define bfs_se(se)                                                                                 \
	_Generic((se),                                                                             \
		const struct sched_entity *: (const struct sl_bfs_entity *)(const void *)(se)      \
						     ->class_area,                                 \
		default: (struct sl_bfs_entity *)(void *)(se)->class_area)

/* the entity whose class area b is (a far tree's node) */
static inline struct sched_entity *bfs_owner(struct sl_bfs_entity *b)
{
	return sl_container_of(b, struct sched_entity, class_area);
}

RB_HEAD(sl_bfs_near_tree, sched_entity);
RB_HEAD(sl_bfs_far_tree, sl_bfs_entity);

/*
 * One BFS priority's queued tasks (bfs_queue.c). The kernel keeps a FIFO list and scans it; the
 * answer of the scan depends only on each task's deadline, its cache distance (0 on the picking
 * CPU's socket, its timeslice on another: locality is a function of the two sockets), its place
 * in the list (rb_seq) and its affinity, so the tasks are kept in ordered sets that give the same
 * answer in O(log n): near[s], the tasks whose CPU is on socket s, by (deadline, rb_seq); far,
 * every task by (deadline + far_off, rb_seq) (only with more than one socket); tasks with an
 * affinity mask on a FIFO list, scanned as the kernel does.
 */
struct sl_bfs_queue {
	struct sl_bfs_near_tree *near; /* [nsock] */
	struct sl_bfs_far_tree far;
	TAILQ_HEAD(sl_bfs_pinned, sched_entity) pinned;
};

/*
 * The CPUs running a BFS task, by that task's (prio, deadline) (bfs_running.c): try_preempt's
 * target with no idle CPU, in place of a walk of every CPU. Trees of maxima over CPU ids (node
 * 1 the root, leaves from size): tree 0 over every CPU, tree 1 + s over socket s's (only with
 * more than one socket).
 */
struct sl_bfs_running {
	short *prio; /* [ncpu]: the running BFS task's prio, 0 while none runs there */
	s64 *dl;     /* [ncpu]: its deadline */
	int *leaf;   /* [ncpu]: the CPU's leaf in its socket's tree */
	int *dirty; /* CPUs whose prio or dl changed since the trees were last brought up to date */
	char *is_dirty; /* [ncpu] */
	int ndirty;
	int *node; /* every tree's nodes, each a CPU id or -1 */
	int *base; /* [ntrees]: a tree's first node in node[] */
	int *size; /* [ntrees]: its leaves, a power of two */
	int ntrees;
};

/* The global run queue (struct global_rq) and what is computed at boot. */
struct sl_bfs_grq {
	struct sl_bfs_queue queue[BFS_NQUEUES]; /* by prio - BFS_ISO_PRIO */
	u64 nr_queued;
	u64 seq;		       /* the next queued task's place in its list */
	u64 far_rr;		       /* the rr_interval the far trees' far_off were taken with */
	s32 timeslice[BFS_PRIO_RANGE]; /* task_timeslice by nice + 20, at far_rr */
	s32 iso_ticks;		       /* an int in 0.304 (grq.iso_ticks) */
	bool iso_refractory;
	int ncpu;
	int nsock;
	int *sock; /* [ncpu]: each CPU's socket, numbered 0..nsock-1 in order of first CPU */
	struct sl_bfs_running running;
};

/* prio_ratios[user_prio]: 100 for nice -20, each level 11/10 of the one before (truncated) */
u64 sl_bfs_prio_ratio(int user_prio);
/* prio_deadline_diff: the deadline offset of a nice level, jiffies (at least 1) */
s32 sl_bfs_deadline_diff(u64 rr_interval_ms, u64 hz, int nice);
/* task_timeslice: rr_interval x prio_ratio / 100, the unit of cache_distance */
s32 sl_bfs_task_timeslice(u64 rr_interval_ms, int nice);
/* jiffies: the simulation clock in ticks */
u64 sl_bfs_jiffies(const struct sl_sim *sim);
/* cpu_locality from the CPUs' socket/core/thread */
int sl_bfs_locality(const struct sl_sim *sim, int a, int b);
/* cache_distance(task's rq, rq, p): jiffies added to a queued task's deadline when rq looks */
s32 sl_bfs_cache_distance(const struct sl_sim *sim, int task_cpu, int cpu, const struct sl_task *p);
/* earliest_deadline_task: the queued task rq would take (not removed), NULL if none */
struct sl_task *sl_bfs_earliest_deadline_task(struct sl_sim *sim, struct sl_cpu *rq);

/* the queue (bfs_queue.c) */
int sl_bfs_queue_init(struct sl_sim *sim, struct sl_bfs_grq *grq);
void sl_bfs_queue_free(struct sl_bfs_grq *grq);
/* p into its prio's queue, at the tail (a new rb_seq) */
void sl_bfs_queue_add(struct sl_sim *sim, struct sl_task *p);
void sl_bfs_queue_del(struct sl_sim *sim, struct sl_task *p);
/* task_timeslice at the current rr_interval, from a table kept per nice level */
s32 sl_bfs_timeslice(struct sl_sim *sim, int nice);
/* a queued p moves to CPU cpu (its socket's tree) */
void sl_bfs_queue_move(struct sl_sim *sim, struct sl_task *p, int cpu);
/* try_preempt: the CPU p should preempt or wake (-1: none) */
int sl_bfs_preempt_target(struct sl_sim *sim, struct sl_task *p);
/* the running tasks (bfs_running.c): made after the queue (it reads sock[]); CPU cpu now runs
 * p, a BFS task (its prio and deadline as they are now), or no BFS task (p NULL) */
int sl_bfs_running_init(struct sl_sim *sim, struct sl_bfs_grq *grq);
void sl_bfs_running_free(struct sl_bfs_grq *grq);
void sl_bfs_running_set(struct sl_sim *sim, int cpu, const struct sl_task *p);
/* the trees brought up to date with every set since (each query does it first) */
void sl_bfs_running_flush(struct sl_sim *sim);
/* every CPU's entry again from its curr (for CPUs set by hand, as the tests do) */
void sl_bfs_running_rebuild(struct sl_sim *sim);
/* with no idle CPU p may use and no affinity mask: the CPU the walk of try_preempt keeps (-1:
 * none runs a BFS task), its prio and offset deadline; ts is p's distance from another socket */
int sl_bfs_running_latest(struct sl_sim *sim, const struct sl_task *p, s64 ts, int *prio,
			  s64 *offset);
/* ISO_PERIOD in ticks: 5 s of ticks of every CPU, plus one */
u64 sl_bfs_iso_period(const struct sl_sim *sim);

/* the global run queue: the class's machine-wide area (class.h sim_size) */
static inline struct sl_bfs_grq *sl_bfs_grq(const struct sl_sim *sim)
{
	/* BFS is only ever a release's fair class: its area is the fair slot's */
	return (struct sl_bfs_grq *)sim->class_sim[SL_FAIR_SLOT];
}

#endif
