/*
 * When each tickless CPU is next due to balance, as a min tree over the CPUs (sched/rtree.c;
 * sched.h, sim->nohz_next): CPU c's key is its due time (what the class last gave
 * sl_nohz_next_set: EEVDF's next_balance, kept in its per-CPU area; sim->nohz_due[c]) while its
 * tick is stopped, else UINT64_MAX, the min tree's empty key. 6.18's NO_HZ kick
 * (eevdf_balance.c) looks for the first CPU, in CPU order, that is tickless, idle and due; a scan
 * of every CPU on each tick of a busy CPU made the cost of a tick grow with the machine, the tree
 * finds the due ones in O(log n) each: the first CPU from a given one whose key is now or less
 * (sl_rtree_first_from), not the least key's CPU, so the kick's CPU is the scan's.
 */
#include "sched/sched.h"

#include <stdint.h>
#include <stdlib.h>

int sl_nohz_next_init(struct sl_sim *sim)
{
	/* every CPU never due until its due time is set */
	sim->nohz_due = malloc(sizeof(u64) * (size_t)sim->ncpu);
	if (!sim->nohz_due || sl_rtree_init(&sim->nohz_next, sim->ncpu, false)) {
		free(sim->nohz_due);
		sim->nohz_due = NULL;
		return -1;
	}
	for (int c = 0; c < sim->ncpu; c++)
		sim->nohz_due[c] = UINT64_MAX;
	return 0;
}

void sl_nohz_next_free(struct sl_sim *sim)
{
	if (!sim->nohz_due)
		return;
	sl_rtree_free(&sim->nohz_next);
	free(sim->nohz_due);
	sim->nohz_due = NULL;
}

void sl_nohz_next_set(struct sl_sim *sim, int cpu, u64 due)
{
	if (!sim->nohz_due)
		return;
	sim->nohz_due[cpu] = due;
	sl_nohz_next_update(sim, cpu);
}

void sl_nohz_next_update(struct sl_sim *sim, int cpu)
{
	u64 key;

	if (!sim->nohz_due)
		return;
	key = sim->cpus[cpu].tick_stopped ? sim->nohz_due[cpu] : UINT64_MAX;
	if (key != sl_rtree_key(&sim->nohz_next, cpu))
		sl_rtree_set(&sim->nohz_next, cpu, key);
}

int sl_nohz_next_due(const struct sl_sim *sim, int from, u64 now)
{
	if (from >= sim->ncpu)
		return -1;
	return sl_rtree_first_from(&sim->nohz_next, from, now);
}
