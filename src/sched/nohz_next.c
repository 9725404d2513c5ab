/*
 * When each tickless CPU is next due to balance, as a tree of minima over the CPUs (sched.h,
 * sim->nohz_next): a leaf holds its CPU's due time (what the class last gave sl_nohz_next_set:
 * EEVDF's next_balance, kept in its per-CPU area) while its tick is stopped, else UINT64_MAX.
 * The due times are kept after the tree, in the same allocation. 6.18's NO_HZ kick
 * (eevdf_balance.c) looks for the first CPU, in CPU order, that is tickless, idle and due; a scan
 * of every CPU on each tick of a busy CPU made the cost of a tick grow with the machine, the tree
 * finds the due ones in O(log n) each.
 */
#include "sched/sched.h"

#include <stdint.h>
#include <stdlib.h>

int sl_nohz_next_init(struct sl_sim *sim)
{
	int n = 1;

	while (n < sim->ncpu)
		n *= 2;
	sim->nohz_leaves = n;
	/* the tree's 2n nodes, then the CPUs' due times (none yet: never due) */
	sim->nohz_next = malloc(sizeof(u64) * (2 * (size_t)n + (size_t)sim->ncpu));
	if (!sim->nohz_next)
		return -1;
	for (int i = 0; i < 2 * n + sim->ncpu; i++)
		sim->nohz_next[i] = UINT64_MAX;
	return 0;
}

void sl_nohz_next_set(struct sl_sim *sim, int cpu, u64 due)
{
	if (!sim->nohz_next)
		return;
	sim->nohz_next[2 * (size_t)sim->nohz_leaves + (size_t)cpu] = due;
	sl_nohz_next_update(sim, cpu);
}

void sl_nohz_next_update(struct sl_sim *sim, int cpu)
{
	const struct sl_cpu *rq = &sim->cpus[cpu];
	u64 *t = sim->nohz_next;
	size_t i;

	if (!t)
		return;
	i = (size_t)sim->nohz_leaves + (size_t)cpu;
	t[i] = rq->tick_stopped ? t[2 * (size_t)sim->nohz_leaves + (size_t)cpu] : UINT64_MAX;
	for (i /= 2; i >= 1; i /= 2) {
		u64 m = t[2 * i] < t[2 * i + 1] ? t[2 * i] : t[2 * i + 1];

		if (t[i] == m)
			break; /* the minima above are the same */
		t[i] = m;
	}
}

/* the first CPU >= from in node i's span [lo, lo + len) whose leaf is <= now, -1 if none */
static int first_due(const u64 *t, size_t i, int lo, int len, int from, u64 now)
{
	if (t[i] > now || lo + len <= from)
		return -1;
	if (len == 1)
		return lo;
	int c = first_due(t, 2 * i, lo, len / 2, from, now);

	return c >= 0 ? c : first_due(t, 2 * i + 1, lo + len / 2, len / 2, from, now);
}

int sl_nohz_next_due(const struct sl_sim *sim, int from, u64 now)
{
	if (from >= sim->ncpu)
		return -1;
	return first_due(sim->nohz_next, 1, 0, sim->nohz_leaves, from, now);
}
