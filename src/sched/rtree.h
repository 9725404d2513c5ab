/*
 * A range tree over the CPUs of one u64 key each (rtree.c): the balancer's busiest CPU
 * (the greatest key) and the fork's idlest CPU (the least) in eevdf_balance.c, over the kept
 * balancer statistics (docs/model/eevdf.md §5.8), and the tickless CPUs' due times to balance
 * (nohz_next.c, the least key; sched.h sim->nohz_next).
 */
#ifndef SCHEDLAB_SCHED_RTREE_H
#define SCHEDLAB_SCHED_RTREE_H

#include <schedlab/types.h>

#include <stdbool.h>

/* a range of CPUs: its best key and the first and last CPU with it (a min tree: the first
 * only, its last is not kept); a range whose best is the
 * empty key (0 in a max tree, ~0 in a min tree: no key set, or set to it) names no CPU: first
 * and last are then -1 or any of its CPUs */
struct sl_rtree_node {
	u64 key;
	int first, last;
};

/* node leaves + c is CPU c's, node i merges 2i and 2i + 1; keys are kept XOR flip (below) */
struct sl_rtree {
	struct sl_rtree_node *node;
	int leaves;
	u64 flip; /* 0: the least key is the best, ~0: the greatest */
};

/* n CPUs, each with the empty key; -1: no memory */
int sl_rtree_init(struct sl_rtree *t, int n, bool max);
void sl_rtree_free(struct sl_rtree *t);

/* CPU c's key, and the nodes above it made again */
void sl_rtree_set(struct sl_rtree *t, int c, u64 key);

/* CPU c's key alone: sl_rtree_build makes the nodes above every leaf again */
static inline void sl_rtree_put(struct sl_rtree *t, int c, u64 key)
{
	t->node[t->leaves + c] = (struct sl_rtree_node){key ^ t->flip, c, c};
}

void sl_rtree_build(struct sl_rtree *t);

/* CPU c's key as last set (the empty key, 0 for a max tree and ~0 for a min tree, if none) */
static inline u64 sl_rtree_key(const struct sl_rtree *t, int c)
{
	return t->node[t->leaves + c].key ^ t->flip;
}

/* the CPUs lo..hi - 1 */
struct sl_rtree_node sl_rtree_range(const struct sl_rtree *t, int lo, int hi);

/* the n CPUs in a walk's order from c + 1, wrapping, c left out */
struct sl_rtree_node sl_rtree_after(const struct sl_rtree *t, int c, int n);

/* the first CPU >= lo, in CPU order, whose key is bound or better (<= bound in a min tree,
 * >= in a max tree), -1 if none; lo at or past the tree's last leaf: -1. The leaves past the
 * last CPU hold the empty key: a bound of the empty key may name one */
int sl_rtree_first_from(const struct sl_rtree *t, int lo, u64 bound);

#endif
