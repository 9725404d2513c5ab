/*
 * The scheduler-class interface: the machine (src/machine/machine.c) knows nothing of CFS or
 * EEVDF, it calls these hooks. A kernel release (struct sl_release, registry in release.c,
 * keyed by --kernel) names its fair class; the simulation keeps a class *stack* (sim->classes,
 * highest priority first, as the kernel's sched_class list) so that a higher class (RT) can be
 * put above the fair class without touching the machine again: pick asks each class in order,
 * a wake-up preempts a lower class's task at once, and every task belongs to the first class of
 * the stack that claims it.
 */
#ifndef SCHEDLAB_CLASS_H
#define SCHEDLAB_CLASS_H

#include "sched/sched.h"

struct sl_sched_class {
	const char *name;
	/* Does the class own this task (by its policy)? NULL: every task (the fair class). */
	bool (*owns)(const struct sl_sim *sim, const struct sl_task *p);

	/* the class's machine-wide state (sim->class_state), after the CPUs are built, and its
	 * release; NULL: none (a policy with one global queue keeps it here). init_sim returns
	 * nonzero on failure (out of memory). */
	int (*init_sim)(struct sl_sim *sim);
	void (*exit_sim)(struct sl_sim *sim);
	/* the class's place counted from the bottom of the stack (0: a release's fair class, the
	 * default; 1: the class above it, RT): its areas are kept at that index (class_rq[slot]),
	 * so that the class reaches them by a constant. sl_class_rq_alloc refuses a stack whose
	 * slots are not 0, 1, ... from the bottom. */
	int slot;
	/* the size of the class's part of each runqueue (its own struct, declared in its folder):
	 * the scheduler core allocates it zeroed per CPU before init_rq (sl_class_rq_alloc) and
	 * the class reaches it by sl_rq_area; 0: none (the class keeps nothing per CPU there) */
	size_t rq_size;
	/* the size of the class's machine-wide area (its own struct), allocated zeroed by the core
	 * with the per-CPU ones, before init_sim, and reached by sl_sim_area; 0: none */
	size_t sim_size;
	/* the size of the class's per-task area: the entity's class_area (sched.h, at most
	 * SL_SE_AREA_SIZE bytes, zeroed with the task), which the class casts to its own struct
	 * (EEVDF: ee_se) and checks at compile time (_Static_assert, as eevdf.h); the tests check
	 * every registered release's classes (test_class_area) */
	size_t task_size;
	/* the class's part of a runqueue, at machine start (its area is zeroed already) */
	void (*init_rq)(struct sl_sim *sim, struct sl_cpu *rq);
	/* new_task: the weight and the per-task state of the class (__sched_fork) */
	void (*init_task)(struct sl_sim *sim, struct sl_task *p);
	/* fork (parent != NULL, on the parent's CPU, before select_task_rq) or a task created by
	 * the shell (parent == NULL, after select_task_rq chose p->cpu) */
	void (*task_fork)(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent);
	/* wake_up_new_task's activation (parent_on_rq: the 2.6.3x task_new path) */
	void (*wake_up_new)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			    bool parent_on_rq);

	void (*enqueue_task)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup);
	void (*dequeue_task)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep);
	/* NULL: the class has nothing to run on rq */
	struct sl_task *(*pick_next_task)(struct sl_sim *sim, struct sl_cpu *rq);
	void (*put_prev_task)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev);
	/* the periodic tick (queued = 0) or the hrtick (queued = 1) with a task of the class */
	void (*task_tick)(struct sl_sim *sim, struct sl_cpu *rq, int queued);
	/* wakee p is of this class and so is rq's current task, or rq is idle */
	void (*check_preempt_curr)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				   int wake_flags);
	void (*yield_task)(struct sl_sim *sim, struct sl_cpu *rq);
	/* NULL or: make wakee p (of this class, queued on rq) the next to run and reschedule
	 * rq's current task (the machine's wake_preempt parameter, wake_rules.c); force: even
	 * where the class would not pick p now (wake_preempt_again) */
	void (*wakee_first)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, bool force);
	/* charge rq's current task (of this class) its run time up to now */
	void (*update_curr)(struct sl_sim *sim, struct sl_cpu *rq);
	void (*set_task_cpu)(struct sl_sim *sim, struct sl_task *p, int cpu);
	/* SD_BALANCE_WAKE or SD_BALANCE_FORK placement */
	int (*select_task_rq)(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			      int wake_flags);
	/* prev's class, in schedule() after prev's dequeue and before the newidle balance (the
	 * RT pull); NULL: nothing */
	void (*pre_schedule)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev);
	/* the new current task's class, after the switch (the RT push); NULL: nothing */
	void (*post_schedule)(struct sl_sim *sim, struct sl_cpu *rq);
	/* the wakee's class, after the wake-up's preemption check (the RT push); NULL: nothing */
	void (*task_woken)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p);
	/* the release's fair class, after a task woke another from task context, with the waker
	 * of whatever class (2.6.3x's avg_wakeup); NULL: nothing */
	void (*waker_done)(struct sl_sim *sim, struct sl_task *waker);
	/* the release's fair class, under group scheduling (its release's group_sched): the task
	 * group every new task of user uid joins, made on the uid's first task; NULL when out of
	 * memory. The class frees its groups in exit_sim. */
	struct sl_tg *(*uid_group)(struct sl_sim *sim, int uid);

	/* ---- balancing (NULL: the class does none) ---- */
	void (*build_domains)(struct sl_sim *sim);
	void (*free_domains)(struct sl_sim *sim);
	/* at the start of each tick, before task_tick (update_cpu_load) */
	void (*tick_load)(struct sl_sim *sim, struct sl_cpu *rq);
	/* at the end of each tick (trigger_load_balance) */
	void (*tick_balance)(struct sl_sim *sim, struct sl_cpu *rq);
	/* rq has nothing to run: pull something (newidle balance) */
	void (*newidle_balance)(struct sl_sim *sim, struct sl_cpu *rq);
	/* rq was asked to push its running task to push_cpu */
	void (*active_balance)(struct sl_sim *sim, struct sl_cpu *rq, int push_cpu);
	/* NO_HZ: may rq stop its tick on idle entry (stop) / must it keep it? returns true if
	 * the tick keeps running */
	bool (*nohz_stop_tick)(struct sl_sim *sim, struct sl_cpu *rq, bool stop);
	/* the idle-scan budget select_idle_cpu would use for a wake-up into cpu's LLC now
	 * (SIS_UTIL's nr_idle_scan, as the last periodic balance set it); -1: the class has no
	 * such budget (NULL: none either). Read by the machine's vcpu_pack_sis_gate. */
	int (*idle_scan)(struct sl_sim *sim, int cpu);
};

/* the slot of a release's fair class (the bottom of the stack): every fair class's, as a
 * zeroed sl_sched_class.slot says */
#define SL_FAIR_SLOT 0

/* cls's part of rq (its rq_size area) */
static inline void *sl_rq_area(const struct sl_cpu *rq, const struct sl_sched_class *cls)
{
	return rq->class_rq[cls->slot];
}

/* the release's fair class's part of rq */
static inline void *sl_fair_rq_area(const struct sl_cpu *rq)
{
	return rq->class_rq[SL_FAIR_SLOT];
}

/* every CPU's area of cls at once: an array of ncpu areas of cls's rq_size in CPU order (one
 * allocation per class), so that a scan of every CPU's part walks it by index */
static inline void *sl_rq_areas(const struct sl_sim *sim, const struct sl_sched_class *cls)
{
	return sim->class_rq_mem[cls->slot];
}

/* cls's machine-wide area (its sim_size area) */
static inline void *sl_sim_area(const struct sl_sim *sim, const struct sl_sched_class *cls)
{
	return sim->class_sim[cls->slot];
}

/* The classes' per-CPU and machine-wide areas of the run's class stack (sim->classes), made before
 * the CPUs are initialized: -1 out of memory, or a class not at its slot. sl_class_init_rq points
 * rq at them and calls the classes' init_rq; sl_class_rq_free frees them (a NULL area is fine). */
int sl_class_rq_alloc(struct sl_sim *sim);
void sl_class_init_rq(struct sl_sim *sim, struct sl_cpu *rq);
void sl_class_rq_free(struct sl_sim *sim);

/* The class of a new task: the first of the stack that owns it. */
const struct sl_sched_class *sl_class_for(const struct sl_sim *sim, const struct sl_task *p);
/* Is class a above class b in the stack? */
bool sl_class_above(const struct sl_sim *sim, const struct sl_sched_class *a,
		    const struct sl_sched_class *b);
/* core check_preempt_curr: the wakee's class rule, or a higher class's wakee preempts */
void sl_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   int wake_flags);
/* set_task_cpu's common part: p now belongs to cpu; a change counts and emits a migration. */
void sl_task_move_cpu(struct sl_sim *sim, struct sl_task *p, int cpu);

#endif
