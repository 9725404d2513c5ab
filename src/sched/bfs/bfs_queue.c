/*
 * BFS's global queue as ordered sets (bfs.h, struct sl_bfs_queue).
 *
 * earliest_deadline_task walks a priority's FIFO list and returns the first task whose deadline
 * plus cache distance is already before jiffies, or else the one with the earliest such
 * deadline, the first queued of equals. The cache distance is the task's timeslice when its CPU
 * is on another socket than the picking CPU, else 0. So the answer over the tasks of one set is:
 * the least rb_seq among those whose key is before jiffies, or else the least (key, rb_seq); and
 * over several sets, the same taken over the sets' answers. The sets:
 *
 *  near[s]: tasks whose CPU is on socket s, by (deadline, rb_seq): the key the picking CPU of
 *	     socket s sees for them.
 *  far:     every task, by (deadline + far_off, rb_seq): the key any other socket sees. A CPU of
 *	     socket s sees its own socket's tasks here too, with a key later than their true one
 *	     (far_off > 0): such an entry is never the least (key, rb_seq), since the task's own
 *	     entry in near[s] is less, and when it is before jiffies so is the task's own entry,
 *	     with the same rb_seq. So near[s] and far together give the scan's answer.
 *  pinned:  tasks with an affinity mask, in FIFO order, each checked as the scan does.
 *
 * Each tree node keeps the entity of least rb_seq in its subtree, so the least rb_seq of the
 * keys before jiffies (a prefix of the tree's order) is found in one descent. The keys compare
 * by their signed difference, as time_before: all keys lie within a few 2^32 jiffies of each
 * other, where that order is total.
 */
#include "sched/bfs/bfs.h"
#include "sched/class.h"
#include "sched/rb_augment.h"

#include <stdint.h>
#include <stdlib.h>

static bool before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static u64 near_key(const struct sched_entity *se)
{
	return bfs_se(se)->deadline;
}

static u64 far_key(const struct sl_bfs_entity *b)
{
	return b->deadline + (u64)(s64)b->far_off;
}

static int key_cmp(u64 ka, u64 kb, const struct sched_entity *a, const struct sched_entity *b)
{
	if (ka != kb)
		return before(ka, kb) ? -1 : 1;
	return a->rb_seq < b->rb_seq ? -1 : (a->rb_seq > b->rb_seq);
}

static int near_cmp(struct sched_entity *a, struct sched_entity *b)
{
	return key_cmp(near_key(a), near_key(b), a, b);
}

static int far_cmp(struct sl_bfs_entity *a, struct sl_bfs_entity *b)
{
	return key_cmp(far_key(a), far_key(b), bfs_owner(a), bfs_owner(b));
}

static struct sched_entity *first_of(struct sched_entity *a, struct sched_entity *b)
{
	return b && (!a || b->rb_seq < a->rb_seq) ? b : a;
}

/* the augmentations: the entity of least rb_seq in the subtree (tree.h calls RB_AUGMENT on the
 * nodes a rotation moves; insert and remove below bring the paths they change up to date) */
static void near_augment(struct sched_entity *se)
{
	struct sched_entity *l, *r, *m;

	if (!se)
		return;
	l = RB_LEFT(se, run_node);
	r = RB_RIGHT(se, run_node);
	m = first_of(se, l ? bfs_se(l)->near_first : NULL);
	bfs_se(se)->near_first = first_of(m, r ? bfs_se(r)->near_first : NULL);
}

static void far_augment(struct sl_bfs_entity *b)
{
	struct sl_bfs_entity *l, *r;
	struct sched_entity *m;

	if (!b)
		return;
	l = RB_LEFT(b, far_node);
	r = RB_RIGHT(b, far_node);
	m = first_of(bfs_owner(b), l ? l->far_first : NULL);
	b->far_first = first_of(m, r ? r->far_first : NULL);
}

#undef RB_AUGMENT
#define RB_AUGMENT(x) near_augment(x)
RB_PROTOTYPE(sl_bfs_near_tree, sched_entity, run_node, near_cmp);
RB_GENERATE(sl_bfs_near_tree, sched_entity, run_node, near_cmp)
SL_RB_GENERATE_REMOVE_AUGMENTED(sl_bfs_near_tree, sched_entity, run_node, near_augment)
#undef RB_AUGMENT
#define RB_AUGMENT(x) far_augment(x)
RB_PROTOTYPE(sl_bfs_far_tree, sl_bfs_entity, far_node, far_cmp);
RB_GENERATE(sl_bfs_far_tree, sl_bfs_entity, far_node, far_cmp)
SL_RB_GENERATE_REMOVE_AUGMENTED(sl_bfs_far_tree, sl_bfs_entity, far_node, far_augment)
#undef RB_AUGMENT

/*
 * Insert with the augmentation of the path it changes (as eevdf_core.c's): the insertion path
 * gains se before the rebalancing's rotations recompute the nodes they move. Removal:
 * sched/rb_augment.h.
 */
static void near_insert(struct sl_bfs_near_tree *t, struct sched_entity *se, bool newest)
{
	bfs_se(se)->near_first = se;
	/* the newest rb_seq is no subtree's first: only a task put back needs the path */
	for (struct sched_entity *n = newest ? NULL : RB_ROOT(t); n;
	     n = near_cmp(se, n) < 0 ? RB_LEFT(n, run_node) : RB_RIGHT(n, run_node))
		bfs_se(n)->near_first = first_of(bfs_se(n)->near_first, se);
	RB_INSERT(sl_bfs_near_tree, t, se);
}

/* the far tree is one of the class's areas (their far_node), each the area of its entity */
static void far_insert(struct sl_bfs_far_tree *t, struct sched_entity *se, bool newest)
{
	struct sl_bfs_entity *b = bfs_se(se);

	b->far_first = se;
	for (struct sl_bfs_entity *n = newest ? NULL : RB_ROOT(t); n;
	     n = far_cmp(b, n) < 0 ? RB_LEFT(n, far_node) : RB_RIGHT(n, far_node))
		n->far_first = first_of(n->far_first, se);
	RB_INSERT(sl_bfs_far_tree, t, b);
}

/* the first queued entity whose key is before now: the keys before now are a prefix of the
 * order, so each node before now brings itself and its left subtree, and the descent goes on
 * to its right */
static struct sched_entity *near_expired(struct sl_bfs_near_tree *t, u64 now)
{
	struct sched_entity *n = RB_ROOT(t), *first = NULL;

	while (n) {
		if (before(near_key(n), now)) {
			struct sched_entity *l = RB_LEFT(n, run_node);

			first = first_of(first_of(first, n), l ? bfs_se(l)->near_first : NULL);
			n = RB_RIGHT(n, run_node);
		} else {
			n = RB_LEFT(n, run_node);
		}
	}
	return first;
}

static struct sched_entity *far_expired(struct sl_bfs_far_tree *t, u64 now)
{
	struct sl_bfs_entity *n = RB_ROOT(t);
	struct sched_entity *first = NULL;

	while (n) {
		if (before(far_key(n), now)) {
			struct sl_bfs_entity *l = RB_LEFT(n, far_node);

			first = first_of(first_of(first, bfs_owner(n)), l ? l->far_first : NULL);
			n = RB_RIGHT(n, far_node);
		} else {
			n = RB_LEFT(n, far_node);
		}
	}
	return first;
}

static u64 rr_interval(const struct sl_sim *sim)
{
	return sim->tun.policy[BFS_TUN_RR_INTERVAL];
}

/* cache_distance from another socket: locality 1 x task_timeslice (bfs.c), kept per nice */
static s32 far_offset(const struct sl_bfs_grq *grq, const struct sl_task *p)
{
	return grq->timeslice[p->nice + 20];
}

/* kernel.rr_interval changed since the timeslices and far_off were taken (the first time, or
 * an --at change): the timeslices and every far key again */
static void far_sync(struct sl_sim *sim, struct sl_bfs_grq *grq)
{
	if (grq->far_rr == rr_interval(sim))
		return;
	grq->far_rr = rr_interval(sim);
	for (int n = -20; n < BFS_PRIO_RANGE - 20; n++)
		grq->timeslice[n + 20] = sl_bfs_task_timeslice(grq->far_rr, n);
	if (grq->nsock < 2)
		return;
	for (int q = 0; q < BFS_NQUEUES; q++) {
		struct sl_bfs_far_tree *t = &grq->queue[q].far;
		/* an unpinned task's group_node is free: the tasks wait there meanwhile */
		TAILQ_HEAD(, sched_entity) tmp = TAILQ_HEAD_INITIALIZER(tmp);
		struct sl_bfs_entity *b;
		struct sched_entity *se;

		while ((b = RB_ROOT(t))) {
			RB_REMOVE(sl_bfs_far_tree, t, b);
			TAILQ_INSERT_TAIL(&tmp, bfs_owner(b), group_node);
		}
		while ((se = TAILQ_FIRST(&tmp))) {
			TAILQ_REMOVE(&tmp, se, group_node);
			bfs_se(se)->far_off =
				far_offset(grq, sl_container_of(se, struct sl_task, se));
			far_insert(t, se, false);
		}
	}
}

int sl_bfs_queue_init(struct sl_sim *sim, struct sl_bfs_grq *grq)
{
	int *first = calloc((size_t)sim->ncpu, sizeof(int)); /* first CPU of each socket number */

	grq->sock = calloc((size_t)sim->ncpu, sizeof(int));
	if (!first || !grq->sock) {
		free(first);
		return -1;
	}
	grq->nsock = 0;
	for (int c = 0; c < sim->ncpu; c++) {
		int s = 0;

		while (s < grq->nsock && sim->cpus[first[s]].socket != sim->cpus[c].socket)
			s++;
		if (s == grq->nsock)
			first[grq->nsock++] = c;
		grq->sock[c] = s;
	}
	free(first);
	for (int q = 0; q < BFS_NQUEUES; q++) {
		struct sl_bfs_queue *bq = &grq->queue[q];

		/* at least one socket: a machine has a CPU */
		bq->near = calloc((size_t)(grq->nsock > 0 ? grq->nsock : 1), sizeof(*bq->near));
		if (!bq->near)
			return -1;
		for (int s = 0; s < grq->nsock; s++)
			RB_INIT(&bq->near[s]);
		RB_INIT(&bq->far);
		TAILQ_INIT(&bq->pinned);
	}
	return 0;
}

void sl_bfs_queue_free(struct sl_bfs_grq *grq)
{
	for (int q = 0; q < BFS_NQUEUES; q++)
		free(grq->queue[q].near);
	free(grq->sock);
}

void sl_bfs_queue_add(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	struct sl_bfs_queue *bq = &grq->queue[bfs_se(&p->se)->prio - BFS_ISO_PRIO];
	struct sched_entity *se = &p->se;

	se->rb_seq = grq->seq++;
	bfs_se(se)->pinned = p->cpus_allowed != 0;
	if (bfs_se(se)->pinned) {
		TAILQ_INSERT_TAIL(&bq->pinned, se, group_node);
		return;
	}
	near_insert(&bq->near[grq->sock[p->cpu]], se, true);
	if (grq->nsock > 1) {
		far_sync(sim, grq);
		bfs_se(se)->far_off = far_offset(grq, p);
		far_insert(&bq->far, se, true);
	}
}

void sl_bfs_queue_del(struct sl_sim *sim, struct sl_task *p)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	struct sl_bfs_queue *bq = &grq->queue[bfs_se(&p->se)->prio - BFS_ISO_PRIO];
	struct sched_entity *se = &p->se;

	if (bfs_se(se)->pinned) {
		TAILQ_REMOVE(&bq->pinned, se, group_node);
		return;
	}
	sl_bfs_near_tree_remove_augmented(&bq->near[grq->sock[p->cpu]], se);
	if (grq->nsock > 1)
		sl_bfs_far_tree_remove_augmented(&bq->far, bfs_se(se));
}

void sl_bfs_queue_move(struct sl_sim *sim, struct sl_task *p, int cpu)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	struct sl_bfs_queue *bq = &grq->queue[bfs_se(&p->se)->prio - BFS_ISO_PRIO];

	if (!bfs_se(&p->se)->queued || bfs_se(&p->se)->pinned ||
	    grq->sock[p->cpu] == grq->sock[cpu])
		return;
	sl_bfs_near_tree_remove_augmented(&bq->near[grq->sock[p->cpu]], &p->se);
	near_insert(&bq->near[grq->sock[cpu]], &p->se, false);
}

/* the answer so far: the first queued entity before jiffies, else the least (key, rb_seq) */
struct pick {
	struct sched_entity *expired, *best;
	u64 best_key;
};

static void offer(struct pick *pk, struct sched_entity *se, u64 key)
{
	if (!pk->best || key_cmp(key, pk->best_key, se, pk->best) < 0) {
		pk->best = se;
		pk->best_key = key;
	}
}

/* the tasks with an affinity mask, as the kernel's scan: the first before jiffies ends it */
static void offer_pinned(struct sl_sim *sim, struct sl_bfs_queue *bq, struct sl_cpu *rq, u64 now,
			 struct pick *pk)
{
	struct sched_entity *se;

	TAILQ_FOREACH(se, &bq->pinned, group_node)
	{
		struct sl_task *p = sl_container_of(se, struct sl_task, se);

		if (pk->expired && se->rb_seq > pk->expired->rb_seq)
			return; /* every later one is queued after the one found */
		if (!sl_cpu_allowed(p, rq->id))
			continue;
		u64 dl = bfs_se(se)->deadline +
			 (u64)(s64)sl_bfs_cache_distance(sim, p->cpu, rq->id, p);

		if (before(dl, now)) {
			pk->expired = se;
			return;
		}
		offer(pk, se, dl);
	}
}

s32 sl_bfs_timeslice(struct sl_sim *sim, int nice)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);

	far_sync(sim, grq);
	return grq->timeslice[nice + 20];
}

struct sl_task *sl_bfs_earliest_deadline_task(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	u64 now = sl_bfs_jiffies(sim);

	far_sync(sim, grq);
	for (int q = 0; q < BFS_NQUEUES; q++) {
		struct sl_bfs_queue *bq = &grq->queue[q];
		struct sl_bfs_near_tree *near = &bq->near[grq->sock[rq->id]];
		struct pick pk = {NULL, NULL, 0};
		struct sched_entity *m = RB_MIN(sl_bfs_near_tree, near);

		if (m) {
			offer(&pk, m, near_key(m));
			if (before(near_key(m), now))
				pk.expired = near_expired(near, now);
		}
		struct sl_bfs_entity *fm;

		if (grq->nsock > 1 && (fm = RB_MIN(sl_bfs_far_tree, &bq->far))) {
			offer(&pk, bfs_owner(fm), far_key(fm));
			if (before(far_key(fm), now))
				pk.expired = first_of(pk.expired, far_expired(&bq->far, now));
		}
		offer_pinned(sim, bq, rq, now, &pk);
		if (pk.expired)
			return sl_container_of(pk.expired, struct sl_task, se);
		if (pk.best)
			return sl_container_of(pk.best, struct sl_task, se);
	}
	return NULL;
}
