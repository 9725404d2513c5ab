/*
 * The CPUs by the BFS task they run (bfs.h, struct sl_bfs_running): try_preempt's answer when
 * no CPU the wakee may use is idle, without the kernel's walk of every CPU.
 *
 * With no idle CPU allowed, the walk (bfs.c) keeps the CPU of the greatest (prio, offset), p's
 * own CPU among equals, else the first: offset is the running task's deadline, less p's
 * timeslice when the CPU is on another socket than p's. A CPU running an RT task scores its RT
 * prio (0..99), below every BFS prio, and p (a BFS prio, 100 or more) never preempts it; a
 * kicked idle CPU is skipped. So only the CPUs running a BFS task can be the answer, and only
 * their (prio, deadline) matter: the offset is that deadline shifted by one amount for every CPU
 * of another socket, and by none on p's socket.
 *
 * Trees of maxima over the CPUs keep the greatest (prio, deadline, then the least CPU id): one
 * over every CPU, one over each socket's (with a single socket the first serves for both). The
 * greatest of all, G, is either on p's socket, and then no CPU of another socket can beat p's
 * socket's greatest (their offsets are at most G's deadline less the timeslice, and at equal
 * offset G's id is the lesser), or on another socket, and then it is the best of the other
 * sockets, to be weighed against the best of p's socket. Each CPU's entry changes when a BFS
 * task starts or stops running on it (pick_next_task, put_prev_task) or when the running task's
 * deadline is renewed (yield): O(1), the CPU marked changed; the trees take the changed CPUs'
 * paths again (O(log CPUs) each) only when asked, so a machine that switches often and seldom
 * asks (sync wake-ups do not) pays little; the answer is then two roots read.
 */
#include "sched/bfs/bfs.h"
#include "sched/class.h"

#include <stdlib.h>

/* the better of two CPUs (-1: none) for try_preempt: greater prio, later deadline, lower id */
static int better(const struct sl_bfs_running *r, int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	if (r->prio[a] != r->prio[b])
		return r->prio[a] > r->prio[b] ? a : b;
	if (r->dl[a] != r->dl[b])
		return r->dl[a] > r->dl[b] ? a : b;
	return a < b ? a : b;
}

static int pow2_at_least(int n)
{
	int s = 1;

	while (s < n)
		s *= 2;
	return s;
}

int sl_bfs_running_init(struct sl_sim *sim, struct sl_bfs_grq *grq)
{
	struct sl_bfs_running *r = &grq->running;
	int ntrees = grq->nsock > 1 ? grq->nsock + 1 : 1, *count;
	size_t nodes = 0;

	r->prio = calloc((size_t)sim->ncpu, sizeof(*r->prio));
	r->dl = calloc((size_t)sim->ncpu, sizeof(*r->dl));
	r->leaf = calloc((size_t)sim->ncpu, sizeof(*r->leaf));
	r->dirty = calloc((size_t)sim->ncpu, sizeof(*r->dirty));
	r->is_dirty = calloc((size_t)sim->ncpu, sizeof(*r->is_dirty));
	r->base = calloc((size_t)ntrees, sizeof(*r->base));
	r->size = calloc((size_t)ntrees, sizeof(*r->size));
	count = calloc((size_t)ntrees, sizeof(*count));
	if (!r->prio || !r->dl || !r->leaf || !r->dirty || !r->is_dirty || !r->base || !r->size ||
	    !count) {
		free(count);
		return -1;
	}
	/* tree 0 over every CPU, tree 1 + s over socket s's in CPU order */
	for (int c = 0; c < sim->ncpu; c++) {
		count[0]++;
		if (ntrees > 1)
			r->leaf[c] = count[1 + grq->sock[c]]++;
		else
			r->leaf[c] = c;
	}
	for (int t = 0; t < ntrees; t++) {
		r->size[t] = pow2_at_least(count[t]);
		r->base[t] = (int)nodes;
		nodes += 2 * (size_t)r->size[t];
	}
	free(count);
	/* every tree has a leaf at least (ncpu >= 1): nodes >= 2 */
	r->node = malloc((nodes ? nodes : 2) * sizeof(*r->node));
	if (!r->node)
		return -1;
	for (size_t i = 0; i < nodes; i++)
		r->node[i] = -1;
	r->ntrees = ntrees;
	return 0;
}

void sl_bfs_running_free(struct sl_bfs_grq *grq)
{
	struct sl_bfs_running *r = &grq->running;

	free(r->prio);
	free(r->dl);
	free(r->leaf);
	free(r->dirty);
	free(r->is_dirty);
	free(r->base);
	free(r->size);
	free(r->node);
}

/* leaf i of tree t holds CPU c (or -1): the path to the root again */
static void tree_set(struct sl_bfs_running *r, int t, int i, int c)
{
	int *n = r->node + r->base[t];

	i += r->size[t];
	n[i] = c;
	for (i /= 2; i; i /= 2)
		n[i] = better(r, n[2 * i], n[2 * i + 1]);
}

static int tree_root(const struct sl_bfs_running *r, int t)
{
	return r->node[r->base[t] + 1];
}

void sl_bfs_running_set(struct sl_sim *sim, int cpu, const struct sl_task *p)
{
	struct sl_bfs_running *r = &sl_bfs_grq(sim)->running;
	short prio = p ? bfs_se(&p->se)->prio : 0;
	s64 dl = p ? (s64)bfs_se(&p->se)->deadline : r->dl[cpu];

	if (prio == r->prio[cpu] && dl == r->dl[cpu])
		return;
	r->prio[cpu] = prio;
	r->dl[cpu] = dl;
	if (!r->is_dirty[cpu]) {
		r->is_dirty[cpu] = 1;
		r->dirty[r->ndirty++] = cpu;
	}
}

void sl_bfs_running_flush(struct sl_sim *sim)
{
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	struct sl_bfs_running *r = &grq->running;

	/* each changed CPU's paths again, one CPU after another: a node on several paths is
	 * recomputed last after every changed leaf below it, from children already right */
	for (int i = 0; i < r->ndirty; i++) {
		int cpu = r->dirty[i], c = r->prio[cpu] ? cpu : -1;

		r->is_dirty[cpu] = 0;
		tree_set(r, 0, cpu, c);
		if (r->ntrees > 1)
			tree_set(r, 1 + grq->sock[cpu], r->leaf[cpu], c);
	}
	r->ndirty = 0;
}

void sl_bfs_running_rebuild(struct sl_sim *sim)
{
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_task *curr = sim->cpus[c].curr;

		sl_bfs_running_set(sim, c,
				   curr && curr->sched_class == &sl_bfs_class ? curr : NULL);
	}
}

int sl_bfs_running_latest(struct sl_sim *sim, const struct sl_task *p, s64 ts, int *prio,
			  s64 *offset)
{
	const struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	const struct sl_bfs_running *r = &grq->running;
	int g, sp = grq->sock[p->cpu], n, near;

	sl_bfs_running_flush(sim);
	g = tree_root(r, 0);
	if (g < 0)
		return -1;
	n = r->ntrees > 1 ? tree_root(r, 1 + sp) : g;
	/* p's own CPU wins a tie with the best of its socket */
	near = n >= 0 && r->prio[p->cpu] && r->prio[p->cpu] == r->prio[n] &&
			       r->dl[p->cpu] == r->dl[n]
		       ? p->cpu
		       : n;
	if (grq->sock[g] != sp) {
		s64 far = r->dl[g] - ts;

		/* the best of the other sockets, at its distance, against p's socket's */
		if (n < 0 || r->prio[g] > r->prio[n] ||
		    (r->prio[g] == r->prio[n] && far > r->dl[n])) {
			*prio = r->prio[g];
			*offset = far;
			return g;
		}
		if (r->prio[g] == r->prio[n] && far == r->dl[n] && near != p->cpu && g < n)
			near = g; /* equal: the walk keeps the first */
		if (near == g) {
			*prio = r->prio[g];
			*offset = far;
			return g;
		}
	}
	*prio = r->prio[near];
	*offset = r->dl[near];
	return near;
}
