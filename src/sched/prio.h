/*
 * A task's policy and priority in the kernel's words (include/linux/sched/prio.h, rt.h), the
 * same for every release: what reports and trace writers may ask of a task without naming the
 * class that runs it.
 */
#ifndef SCHEDLAB_PRIO_H
#define SCHEDLAB_PRIO_H

#include "sched/sched.h"

/* rt_policy(): SCHED_FIFO and SCHED_RR are the real-time class's */
static inline bool sl_rt_policy(int policy)
{
	return policy == SL_SCHED_FIFO || policy == SL_SCHED_RR;
}

/* the kernel's prio of a task as sched_switch prints it: 99 - rt_priority, or 120 + nice */
static inline int sl_task_prio(const struct sl_task *p)
{
	return sl_rt_policy(p->policy) ? SL_MAX_RT_PRIO - 1 - p->rt_priority : 120 + p->nice;
}

#endif
