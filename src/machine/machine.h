/*
 * The machine: CPUs, the tick, per-CPU timers, reschedule IPIs, the idle loop and the execution
 * of task programs. The scheduler class decides; the machine carries the decisions out in time.
 */
#ifndef SCHEDLAB_MACHINE_H
#define SCHEDLAB_MACHINE_H

#include "core/sim.h"

void sl_resched_cpu(struct sl_sim *sim, struct sl_cpu *rq);
void sl_schedule(struct sl_sim *sim, struct sl_cpu *rq);
bool sl_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop);
void sl_active_load_balance(struct sl_sim *sim, struct sl_cpu *busiest, int push_cpu);

/* core check_preempt_curr: the wakee's class rule, or a higher class's wakee preempts */
void sl_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   int wake_flags);
/* charge rq's current task its run time (its class's update_curr) */
void sl_machine_update_curr(struct sl_sim *sim, struct sl_cpu *rq);
/* NO_HZ tick policy of the class stack: true if rq's tick keeps running */
bool sl_class_nohz_stop_tick(struct sl_sim *sim, struct sl_cpu *rq, bool stop);
void sl_machine_start(struct sl_sim *sim);
void sl_machine_dispatch(struct sl_sim *sim, struct sl_timer *t);
/* An interrupt takes ns from rq's running task: its current burst ends that much later. */
void sl_machine_steal(struct sl_sim *sim, struct sl_cpu *rq, u64 ns);
void sl_machine_init_cpu(struct sl_sim *sim, struct sl_cpu *rq, int id);
/* Create a task running prog, as if forked by a shell that is not on any runqueue. */
struct sl_task *sl_spawn(struct sl_sim *sim, struct sl_group *g, const struct sl_prog *prog);
void sl_task_free(struct sl_task *p);
/* try_to_wake_up from the running context (waker may be NULL: an interrupt). */
void sl_try_to_wake_up(struct sl_sim *sim, struct sl_task *p, struct sl_task *waker,
		       int wake_flags);
/* Close the open busy interval of every CPU (at the end of a run). */
void sl_machine_finish(struct sl_sim *sim);

#endif
