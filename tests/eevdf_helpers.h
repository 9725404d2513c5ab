/* EEVDF test helpers: 6.18 tasks and a runqueue filled by hand (tree entities and curr). */
#ifndef SCHEDLAB_TEST_EEVDF_HELPERS_H
#define SCHEDLAB_TEST_EEVDF_HELPERS_H

#include "helpers.h"
#include "sched/class.h"
#include "sched/eevdf/eevdf.h"

static inline struct sl_task *ee_task(int nice, int policy, int cpu)
{
	struct sl_task *p = bare_task(nice, policy, cpu);

	sl_eevdf_set_load_weight(p);
	p->sched_class = &sl_eevdf_class;
	ee_se(&p->se)->recent_used_cpu = -1;
	return p;
}

/* PELT's loads as a long run on the runqueue leaves them (what the balancer and
 * wake_affine_weight read): the task's load_avg its scaled-down weight, added to the runqueue's */
static inline void ee_pelt_long_run(struct eevdf_rq *ee, struct sched_entity *se)
{
	ee_se(se)->avg.load_avg = scale_load_down(se->load.weight);
	ee->avg.load_avg += ee_se(se)->avg.load_avg;
}

/* put p in rq's tree at vruntime v with deadline d and a request of `slice` */
static inline void ee_tree_add(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, u64 v,
			       u64 d, u64 slice)
{
	struct eevdf_rq *ee = ee_rq_of(sim, rq);
	struct sched_entity *se = &p->se;

	se->vruntime = v;
	ee_se(se)->deadline = d;
	ee_se(se)->slice = slice;
	sl_eevdf_enqueue_tree(ee, se);
	se->on_rq = 1;
	ee->nr_queued++;
	ee->load += se->load.weight;
	ee_pelt_long_run(ee, se);
	TAILQ_INSERT_HEAD(&ee->tasks, se, group_node);
	rq->nr_running++;
}

/* make p rq's running task (outside the tree, as the kernel's curr) */
static inline void ee_set_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, u64 v,
			       u64 d, u64 slice)
{
	struct eevdf_rq *ee = ee_rq_of(sim, rq);
	struct sched_entity *se = &p->se;

	se->vruntime = v;
	ee_se(se)->deadline = d;
	ee_se(se)->slice = slice;
	se->on_rq = 1;
	se->exec_start = sim->now;
	ee->curr = se;
	ee->nr_queued++;
	ee->load += se->load.weight;
	ee_pelt_long_run(ee, se);
	TAILQ_INSERT_HEAD(&ee->tasks, se, group_node);
	rq->nr_running++;
	rq->curr = p;
	p->on_cpu = true;
}

#endif
