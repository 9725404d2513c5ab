/*
 * The real-time scheduling class (SCHED_FIFO / SCHED_RR), the same in 2.6.31, 2.6.32 and 6.18:
 * rt.c holds the class (100 FIFO queues per CPU, the RR slice, bandwidth throttling),
 * rt_balance.c the SMP part (wake-up placement, push and pull). The class sits above the
 * release's fair class in sim->classes (class.h).
 */
#ifndef SCHEDLAB_RT_H
#define SCHEDLAB_RT_H

#include "sched/prio.h"
#include "sched/class.h"

/* RR_TIMESLICE: 100 ms in jiffies (100 * HZ / 1000), integer division as the kernel's */
#define SL_RR_TIMESLICE_MS 100
/* the sysctls' boot values (kernel/sched.c: sysctl_sched_rt_period / _runtime) */
#define SL_RT_PERIOD_US_DEFAULT	 1000000
#define SL_RT_RUNTIME_US_DEFAULT 950000

extern const struct sl_sched_class sl_rt_class; /* above every release's fair class */
/* its slot (class.h): right above the fair class, so that its areas are at a constant index */
#define SL_RT_SLOT 1

/* The class's part of a runqueue (its area, class.h rq_size): the kernel's rt_rq. */
struct rt_rq {
	TAILQ_HEAD(, sl_task) queue[SL_MAX_RT_PRIO]; /* one FIFO per prio, curr stays queued */
	u64 bitmap[2];				     /* bit prio: queue[prio] is not empty */
	unsigned long rt_nr_running;
	int highest_prio; /* of the queued tasks (curr included); SL_MAX_RT_PRIO if none */
	bool overloaded;  /* more than one RT task queued: push/pull candidates */
	u64 rt_time;	  /* RT run time charged in the current bandwidth period */
	bool rt_throttled;
};

static inline struct rt_rq *rt_rq_of(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	(void)sim;
	return (struct rt_rq *)rq->class_rq[SL_RT_SLOT];
}

/* The class's machine-wide area (class.h sim_size): the root domain's rto_mask, the CPUs
 * whose rt_rq is overloaded, so that a pull visits those only (made by init_sim). */
struct rt_root {
	u64 *rto_mask; /* bit c: CPU c's rt_rq is overloaded */
};

static inline struct rt_root *rt_root_of(const struct sl_sim *sim)
{
	return (struct rt_root *)sim->class_sim[SL_RT_SLOT];
}

/* every CPU's rt_rq, by CPU id (the scans of every CPU: push, pull, the lowest CPU) */
static inline struct rt_rq *rt_rqs(const struct sl_sim *sim)
{
	return (struct rt_rq *)(void *)sim->class_rq_mem[SL_RT_SLOT];
}

/* the RT sysctls' boot values into t */
void sl_rt_tunables_default(struct sl_tunables *t);
/* RR_TIMESLICE in ticks at this HZ */
unsigned sl_rr_timeslice(const struct sl_sim *sim);

/* rt.c's queue operations, for rt_balance.c */
void sl_rt_enqueue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wakeup);
void sl_rt_dequeue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int sleep);

/* rt_balance.c: the SMP hooks of the class */
int sl_rt_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			 int wake_flags);
void sl_rt_pre_schedule(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev);
void sl_rt_post_schedule(struct sl_sim *sim, struct sl_cpu *rq);
void sl_rt_task_woken(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p);

#endif
