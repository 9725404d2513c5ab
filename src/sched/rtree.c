/*
 * A range tree over the CPUs, one u64 key a CPU: the best key of any range of CPUs and the first
 * and the last CPU that has it, in O(log CPUs). eevdf_balance.c keeps two over its kept balancer
 * statistics (docs/model/eevdf.md §5.8): the busiest CPU (the greatest busiest key; the walk's
 * first of equals, or its last for fully busy groups) and the fork's idlest CPU (the least idlest
 * key, the walk's first of equals). They were two trees of two node types with the same loops;
 * they are one here, its order given by a flag rather than a compare function, because the merge
 * runs at every level of every path update and query (a few million times a second at 4096 CPUs)
 * and must stay one compare: keys are stored XOR flip (0 for a min tree, all ones for a max tree,
 * whose greatest key is then the least stored one), so one merge of stored keys serves both
 * orders, and a range with no CPU is the same stored node {~0, -1, -1} in both (natural key 0 in
 * a max tree, where the busiest key 0 means no runnable task; ~0 in a min tree, no idlest key).
 *
 * The tie rule, a's range before b's: the better key wins; of equal keys the merged range's first
 * CPU is a's first and its last b's last, so a query gives the first and the last CPU with the
 * best key in CPU order (and in the walk's order for sl_rtree_after). A min tree's users read only
 * the first, so a min tree does not keep the last: sl_rtree_set's climb stops at the first node
 * whose key and first CPU are as they were (a max tree's also at an unchanged last), which with
 * the many equal due times of the NO_HZ tree (below) is most often a few levels up.
 *
 * nohz_next.c keeps a third, a min tree of the tickless CPUs' due times to balance, and asks
 * another question of it: not the best key but the first CPU from a given one, in CPU order,
 * whose key is a bound or better (6.18's NO_HZ kick: the first tickless CPU due at now).
 * sl_rtree_first_from answers it in O(log CPUs) by the nodes' best keys alone: from the widest
 * span that starts at lo it goes right past every span whose best is worse than the bound and
 * down the first span whose best is not, to its first leaf within the bound (a left child's when
 * it qualifies); from CPU 0 with no CPU within the bound that is one look, at the root.
 */
#include "sched/rtree.h"

#include <stdlib.h>

static const struct sl_rtree_node none = {~0ULL, -1, -1};

/* a's range followed by b's (stored keys: the lower is the better) */
static inline struct sl_rtree_node merge(struct sl_rtree_node a, struct sl_rtree_node b)
{
	if (a.key != b.key)
		return a.key < b.key ? a : b;
	return (struct sl_rtree_node){a.key, a.first, b.last};
}

int sl_rtree_init(struct sl_rtree *t, int n, bool max)
{
	for (t->leaves = 1; t->leaves < n; t->leaves *= 2)
		;
	t->flip = max ? ~0ULL : 0;
	/* on 64-byte lines: a node's two children (32 bytes) are never split across two */
	t->node = aligned_alloc(64, ((size_t)t->leaves * 2 * sizeof(*t->node) + 63) / 64 * 64);
	if (!t->node)
		return -1;
	for (int i = 0; i < 2 * t->leaves; i++)
		t->node[i] = none;
	return 0;
}

void sl_rtree_free(struct sl_rtree *t)
{
	free(t->node);
	t->node = NULL;
}

void sl_rtree_set(struct sl_rtree *t, int c, u64 key)
{
	struct sl_rtree_node *nd = t->node;
	bool last = t->flip; /* a min tree's last CPU is not kept */

	sl_rtree_put(t, c, key);
	for (unsigned n = (unsigned)(t->leaves + c) / 2; n >= 1; n /= 2) {
		const struct sl_rtree_node *a = &nd[2 * n], *b = a + 1;
		u64 k = a->key < b->key ? a->key : b->key;
		int first = a->key <= b->key ? a->first : b->first;
		int l = b->key <= a->key ? b->last : a->last;

		/* the nodes above as they were */
		if (k == nd[n].key && first == nd[n].first && (l == nd[n].last || !last))
			break;
		nd[n] = (struct sl_rtree_node){k, first, l};
	}
}

void sl_rtree_build(struct sl_rtree *t)
{
	struct sl_rtree_node *nd = t->node;

	for (int n = t->leaves - 1; n >= 1; n--)
		nd[n] = merge(nd[2 * n], nd[2 * n + 1]);
}

/* the CPUs lo..hi - 1, the key as stored */
static struct sl_rtree_node range(const struct sl_rtree *t, int lo, int hi)
{
	const struct sl_rtree_node *nd = t->node;
	struct sl_rtree_node a = none, b = none;
	unsigned l = (unsigned)(lo + t->leaves), h = (unsigned)(hi + t->leaves); /* shifts */

	for (; l < h; l /= 2, h /= 2) {
		if (l & 1)
			a = merge(a, nd[l++]);
		if (h & 1)
			b = merge(nd[--h], b);
	}
	return merge(a, b);
}

struct sl_rtree_node sl_rtree_range(const struct sl_rtree *t, int lo, int hi)
{
	struct sl_rtree_node r = range(t, lo, hi);

	r.key ^= t->flip;
	return r;
}

struct sl_rtree_node sl_rtree_after(const struct sl_rtree *t, int c, int n)
{
	struct sl_rtree_node r = merge(range(t, c + 1, n), range(t, 0, c));

	r.key ^= t->flip;
	return r;
}

int sl_rtree_first_from(const struct sl_rtree *t, int lo, u64 bound)
{
	const struct sl_rtree_node *nd = t->node;
	unsigned i, leaves = (unsigned)t->leaves;

	if (lo < 0 || lo >= t->leaves)
		return -1;
	bound ^= t->flip;
	/* i: the widest span that starts at lo (the root's for lo 0: one look when no CPU is
	 * within the bound); then right past every span with none: the span after i's is
	 * i + 1's once i is a left child */
	i = (unsigned)lo + leaves;
	for (i >>= __builtin_ctz(i); nd[i].key > bound; i++) {
		for (; i & 1; i /= 2)
			if (i == 1)
				return -1; /* i's span ended at the last leaf */
	}
	/* down to the first leaf within the bound */
	while (i < leaves) {
		i *= 2;
		if (nd[i].key > bound)
			i++;
	}
	return (int)(i - leaves);
}
