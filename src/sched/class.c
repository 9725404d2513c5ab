/* The class stack's two questions: whose is a task, and who is above whom; what every class's
 * set_task_cpu shares; and the classes' per-CPU and machine-wide areas, made from their
 * rq_size and sim_size. */
#include "sched/class.h"

#include <stdlib.h>

const struct sl_sched_class *sl_class_for(const struct sl_sim *sim, const struct sl_task *p)
{
	for (int i = 0; i < sim->nclasses; i++)
		if (!sim->classes[i]->owns || sim->classes[i]->owns(sim, p))
			return sim->classes[i];
	return sim->classes[sim->nclasses - 1];
}

bool sl_class_above(const struct sl_sim *sim, const struct sl_sched_class *a,
		    const struct sl_sched_class *b)
{
	for (int i = 0; i < sim->nclasses; i++) {
		if (sim->classes[i] == b)
			return false;
		if (sim->classes[i] == a)
			return true;
	}
	return false;
}

void sl_task_move_cpu(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	if (p->cpu != cpu) {
		sim->nr_migrations++;
		struct sl_event ev = {.type = SL_EV_MIGRATE,
				      .cpu = cpu,
				      .pid = p->pid,
				      .group = p->group_id,
				      .orig_cpu = p->cpu,
				      .reason = sim->migrating_wakee ? SL_MIGRATE_WAKE
								     : SL_MIGRATE_OTHER};

		sl_emit(sim, &ev);
	}
	p->cpu = cpu;
}

/* core wakeup_preempt: same class -> its rule; a higher class's wakee -> resched */
void sl_check_preempt_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, int wake_flags)
{
	if (rq->curr && rq->curr->sched_class != p->sched_class) {
		if (sl_class_above(sim, p->sched_class, rq->curr->sched_class))
			sl_resched_cpu(sim, rq);
		return;
	}
	p->sched_class->check_preempt_curr(sim, rq, p, wake_flags);
}

int sl_class_rq_alloc(struct sl_sim *sim)
{
	for (int i = 0; i < sim->nclasses; i++) {
		int k = sim->nclasses - 1 - i; /* the slot, from the bottom (class.h) */
		size_t size = sim->classes[i]->rq_size;

		if (sim->classes[i]->slot != k)
			return -1; /* the registry's stack and the classes' slots disagree */
		if (size && !(sim->class_rq_mem[k] = calloc((size_t)sim->ncpu, size)))
			return -1;
		size = sim->classes[i]->sim_size;
		if (size && !(sim->class_sim[k] = calloc(1, size)))
			return -1;
	}
	return 0;
}

void sl_class_init_rq(struct sl_sim *sim, struct sl_cpu *rq)
{
	for (int i = 0; i < sim->nclasses; i++) {
		int k = sim->nclasses - 1 - i;
		size_t size = sim->classes[i]->rq_size;

		rq->class_rq[k] = size ? sim->class_rq_mem[k] + (size_t)rq->id * size : NULL;
	}
	for (int i = 0; i < sim->nclasses; i++)
		if (sim->classes[i]->init_rq)
			sim->classes[i]->init_rq(sim, rq);
}

void sl_class_rq_free(struct sl_sim *sim)
{
	for (int i = 0; i < SL_MAX_CLASSES; i++) {
		free(sim->class_rq_mem[i]);
		sim->class_rq_mem[i] = NULL;
		free(sim->class_sim[i]);
		sim->class_sim[i] = NULL;
	}
}
