/* The class stack's two questions: whose is a task, and who is above whom. */
#include "sched/class.h"

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
