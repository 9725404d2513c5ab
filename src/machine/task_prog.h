/*
 * Private to src/machine: the task-program interpreter (task_prog.c) and the parts of the
 * machine (machine.c) it works with.
 */
#ifndef SCHEDLAB_TASK_PROG_H
#define SCHEDLAB_TASK_PROG_H

#include "machine/machine.h"

/* a burst's run_target that is never reached: a mutex spinner runs until told otherwise */
#define RUN_FOREVER UINT64_MAX

/* the group id of a task's events: -1 without a task or a group */
static inline int sl_gid(const struct sl_task *p)
{
	return p && sl_mtask(p)->group ? sl_mtask(p)->group->id : -1;
}

/* ---- task_prog.c ---- */

/*
 * Run p's program from where it stands until it needs CPU time (arm `work`) or blocks
 * (schedule). p is rq's current task.
 */
void sl_task_continue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p);

/* ---- machine.c ---- */

/* p's current CPU burst grows by ns (or a new one starts) */
void sl_add_run(struct sl_sim *sim, struct sl_task *p, u64 ns);
/* the CPU time p has had, charged by its policy or not yet (machine.c) */
u64 sl_task_progress(const struct sl_sim *sim, const struct sl_task *p);
/* arm rq's `work` timer for the end of p's burst (at once if p has none) */
void sl_arm_work(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p);
void sl_do_fork(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *parent,
		const struct sl_prog *prog, int pipe);
/* append p to an array of tasks (-1: out of memory, sim->oom is set) */
int sl_push_task(struct sl_sim *sim, struct sl_task ***arr, int *n, int *cap, struct sl_task *p);
struct sl_task *sl_pop_first(struct sl_task **arr, int *n);
void sl_spinner_to_sleeper(struct sl_sim *sim, struct sl_task *p);
/* p went to sleep on one of its group's objects: counted, and a deadlock reported if every
 * live task of a checked group now sleeps on one (struct sl_group's sync_blocked) */
void sl_group_sync_sleep(struct sl_sim *sim, struct sl_task *p);
void sl_mutex_release(struct sl_sim *sim, struct sl_task *p, struct sl_mutex *m);

#endif
