/*
 * CFS 2.6.31/2.6.32 as a scheduler class: the hooks of class.h mapped onto the functions of
 * cfs.c, the release file's rules (sim->rel) and the 2.6.3x balancing of balance.c.
 */
#include "sched/class.h"
#include "sched/cfs/cfs.h"
#include "sched/cfs/cfs_releases.h"

static void cfs_init_rq(struct sl_sim *sim, struct sl_cpu *rq)
{
	(void)sim;
	sl_cfs_rq_init(cfs_rq_of_cpu(rq));
	cfs_rq_of_cpu(rq)->cpu = rq->id;
}

static void cfs_init_task(struct sl_sim *sim, struct sl_task *p)
{
	sl_set_load_weight(p);
	/* __sched_fork: everything but vruntime starts again */
	p->se.avg_wakeup = sim->tun.sched_wakeup_granularity;
}

static void cfs_task_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *parent)
{
	if (parent)
		p->se.vruntime = parent->se.vruntime; /* dup_task_struct copies it */
	else
		p->se.vruntime = sl_task_cfs_rq(sim, p)->min_vruntime;
}

static void cfs_wake_up_new(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			    bool parent_on_rq)
{
	if (parent_on_rq)
		cfs_ops(sim)->task_new(sim, rq, p);
	else
		sl_cfs_enqueue_task(sim, rq, p, 0);
}

static void cfs_update_curr_rq(struct sl_sim *sim, struct sl_cpu *rq)
{
	/* update_curr of the running task's runqueue (its group's under group scheduling) */
	sl_update_curr(sim, rq->curr && rq->curr->sched_class == &sl_cfs_class
				    ? sl_task_cfs_rq(sim, rq->curr)
				    : cfs_rq_of_cpu(rq));
}

static int cfs_select_task_rq(struct sl_sim *sim, struct sl_task *p, int this_cpu, unsigned sd_flag,
			      int wake_flags)
{
	return cfs_ops(sim)->select_task_rq(sim, p, this_cpu, sd_flag, wake_flags);
}

/* try_to_wake_up's update of the waker's avg_wakeup (the CFS members of sched_entity, sim.h) */
static void cfs_waker_done(struct sl_sim *sim, struct sl_task *waker)
{
	struct sched_entity *se = &waker->se;

	(void)sim;
	sl_update_avg(&se->avg_wakeup,
		      se->sum_exec_runtime -
			      (se->last_wakeup ? se->last_wakeup : se->start_runtime));
	se->last_wakeup = se->sum_exec_runtime;
}

static void cfs_exit_sim(struct sl_sim *sim)
{
	sl_tg_free_all(sim);
}

static void cfs_tick_load(struct sl_sim *sim, struct sl_cpu *rq)
{
	(void)sim;
	sl_update_cpu_load(rq);
}

const struct sl_sched_class sl_cfs_class = {
	.name = "fair (CFS 2.6.3x)",
	.owns = NULL,
	.exit_sim = cfs_exit_sim,
	.rq_size = sizeof(struct cfs_rq),
	.init_rq = cfs_init_rq,
	.init_task = cfs_init_task,
	.task_fork = cfs_task_fork,
	.wake_up_new = cfs_wake_up_new,
	.enqueue_task = sl_cfs_enqueue_task,
	.dequeue_task = sl_cfs_dequeue_task,
	.pick_next_task = sl_cfs_pick_next_task,
	.put_prev_task = sl_cfs_put_prev_task,
	.task_tick = sl_cfs_task_tick,
	.check_preempt_curr = sl_cfs_check_preempt_curr,
	.yield_task = sl_cfs_yield_task,
	.update_curr = cfs_update_curr_rq,
	.set_task_cpu = sl_cfs_set_task_cpu,
	.select_task_rq = cfs_select_task_rq,
	.waker_done = cfs_waker_done,
	.uid_group = sl_tg_of_uid,
	.build_domains = sl_build_domains,
	.free_domains = sl_free_domains,
	.tick_load = cfs_tick_load,
	.tick_balance = sl_rebalance_tick,
	.newidle_balance = sl_idle_balance,
	.active_balance = sl_active_load_balance,
	.nohz_stop_tick = sl_nohz_stop_tick,
};
