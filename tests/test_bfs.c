/*
 * BFS (2.6.31, v0.304) worked by hand from docs/model/bfs.md: the prio_ratios table and the
 * deadline offsets in jiffies (int arithmetic, its overflow included), deadlines from jiffies,
 * cache_distance and the earliest-deadline lookup, try_preempt's choice, the slice split at
 * fork, sync wake-ups, sched_yield, the ISO accounting, and whole runs: two hogs alternating
 * in 6 ms slices, nice 0 against nice 19, SCHED_ISO's 70% limit, SCHED_IDLEPRIO. HZ is 1000:
 * a jiffy is 1 ms.
 */
#include "helpers.h"
#include "sched/bfs/bfs.h"
#include "sched/class.h"
#include "sched/rt/rt.h"
#include "experiment/run.h"

#define MS 1000000ULL

static struct fixture *bfs_fixture(const char *cpus, const char *topology)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sl_args a;
	char err[2048];

	assert_non_null(f);
	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.31-bfs";
	a.cpus = cpus;
	a.topology = topology;
	a.sysctls[a.nsysctls++] = "kernel.rr_interval=6"; /* not the boot scaling: 6 ms */
	if (sl_config_build(&f->cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	f->sim = sl_sim_new(&f->cfg);
	assert_non_null(f->sim);
	return f;
}

static struct sl_task *bfs_task(struct sl_sim *sim, int nice, int policy, int cpu, u64 deadline)
{
	struct sl_task *p = bare_task(nice, policy, cpu);

	p->sched_class = &sl_bfs_class;
	sl_bfs_class.init_task(sim, p);
	bfs_se(&p->se)->deadline = deadline;
	return p;
}

/* queue p as a wake-up would, without the preemption (activate_task) */
static void queue(struct sl_sim *sim, struct sl_task *p)
{
	sl_bfs_class.enqueue_task(sim, &sim->cpus[p->cpu], p, 0);
}

/* off the queue (a sleep): a queued task's deadline and affinity are not changed in place (the
 * queue is ordered by them), so a test changes them between unqueue and queue, at the tail */
static void unqueue(struct sl_sim *sim, struct sl_task *p)
{
	sl_bfs_class.dequeue_task(sim, &sim->cpus[p->cpu], p, 1);
}

/* a CPU's curr set by hand: the running tasks' trees again (bfs_running.c; the class keeps them
 * at its switches) */
static void set_curr(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	sl_set_curr(sim, rq, p);
	sl_bfs_running_rebuild(sim);
}

/* try_preempt's target, after a test changed a running task's prio or deadline by hand */
static int preempt_target(struct sl_sim *sim, struct sl_task *w)
{
	sl_bfs_running_rebuild(sim);
	return sl_bfs_preempt_target(sim, w);
}

static void test_prio_ratios(void **state)
{
	(void)state;
	/* 100, then x 11 / 10 truncated: 110, 121, 133 (133.1); nice 0 is index 20: 655;
	 * nice 19 index 39: 3987 (the chain computed step by step) */
	assert_int_equal(sl_bfs_prio_ratio(0), 100);
	assert_int_equal(sl_bfs_prio_ratio(1), 110);
	assert_int_equal(sl_bfs_prio_ratio(2), 121);
	assert_int_equal(sl_bfs_prio_ratio(3), 133);
	assert_int_equal(sl_bfs_prio_ratio(20), 655);
	assert_int_equal(sl_bfs_prio_ratio(39), 3987);
	/* prio_deadline_diff = ratio x rr_interval x HZ / 100000 jiffies, truncated: nice -20
	 * 600000 / 100000 = 6; nice 0 3930000 / 100000 = 39 (39.3); nice 19 23922000 / 100000 =
	 * 239 (239.22); rr_interval 10: 6550000 / 100000 = 65 (65.5) */
	assert_int_equal(sl_bfs_deadline_diff(6, 1000, -20), 6);
	assert_int_equal(sl_bfs_deadline_diff(6, 1000, 0), 39);
	assert_int_equal(sl_bfs_deadline_diff(6, 1000, 19), 239);
	assert_int_equal(sl_bfs_deadline_diff(10, 1000, 0), 65);
	/* HZ 250: nice 0 982500 / 100000 = 9 (9.825); nice -20 150000 / 100000 = 1; rr 1 at HZ
	 * 100: 10000 / 100000 = 0, which "?: 1" makes 1 */
	assert_int_equal(sl_bfs_deadline_diff(6, 250, 0), 9);
	assert_int_equal(sl_bfs_deadline_diff(6, 250, -20), 1);
	assert_int_equal(sl_bfs_deadline_diff(1, 100, -20), 1);
	/* the int product overflows: nice 19 at rr_interval 5000 (the sysctl's maximum), HZ 1000:
	 * 3987 x 5000 x 1000 = 19935000000 = 4 x 2^32 + 2755130816, as an int 2755130816 - 2^32 =
	 * -1539836480, / 100000 = -15398 (truncated toward zero): a deadline in the past */
	assert_int_equal(sl_bfs_deadline_diff(5000, 1000, 19), -15398);
	/* task_timeslice = rr_interval x ratio / 100: 6, 39 (39.3), 239 (239.22) */
	assert_int_equal(sl_bfs_task_timeslice(6, -20), 6);
	assert_int_equal(sl_bfs_task_timeslice(6, 0), 39);
	assert_int_equal(sl_bfs_task_timeslice(6, 19), 239);
}

static void test_deadline_from_jiffies(void **state)
{
	struct fixture *f = bfs_fixture("1", NULL);
	struct sl_task *parent = bfs_task(f->sim, 0, SL_SCHED_NORMAL, 0, 0),
		       *child = bfs_task(f->sim, 5, SL_SCHED_NORMAL, 0, 0),
		       *idle = bfs_task(f->sim, 0, SL_SCHED_IDLE, 0, 0);

	(void)state;
	/* started by the shell at 5.7 ms, jiffies 5: slice 6000 us, deadline 5 + 39 = 44 */
	f->sim->now = 5 * MS + 700000;
	sl_bfs_class.task_fork(f->sim, parent, NULL);
	assert_int_equal(bfs_se(&parent->se)->time_slice, 6000);
	assert_int_equal(bfs_se(&parent->se)->deadline, 44);
	/* SCHED_IDLEPRIO's deadline is further offset by nice 19's: 5 + 39 + 239 = 283 */
	sl_bfs_class.task_fork(f->sim, idle, NULL);
	assert_int_equal(bfs_se(&idle->se)->deadline, 283);
	/* a fork halves the slice (3000 us each) and the child keeps the parent's deadline,
	 * whatever its own nice */
	child->parent = parent;
	sl_bfs_class.task_fork(f->sim, child, parent);
	assert_int_equal(bfs_se(&parent->se)->time_slice, 3000);
	assert_int_equal(bfs_se(&child->se)->time_slice, 3000);
	assert_int_equal(bfs_se(&child->se)->deadline, 44);
	/* int division: 4001 -> 2000 each */
	bfs_se(&parent->se)->time_slice = 4001;
	sl_bfs_class.task_fork(f->sim, child, parent);
	assert_int_equal(bfs_se(&parent->se)->time_slice, 2000);
	assert_int_equal(bfs_se(&child->se)->time_slice, 2000);
	/* nothing left (-250 us): the parent keeps -250 and the child gets -250 too, with the
	 * parent's deadline; it reschedules at its first tick */
	bfs_se(&parent->se)->time_slice = -250;
	sl_bfs_class.task_fork(f->sim, child, parent);
	assert_int_equal(bfs_se(&parent->se)->time_slice, -250);
	assert_int_equal(bfs_se(&child->se)->time_slice, -250);
	assert_int_equal(bfs_se(&child->se)->deadline, 44);
	free(parent);
	free(child);
	free(idle);
	fixture_free(f);
}

static void test_cache_distance(void **state)
{
	/* 2 sockets x 2 cores x 2 threads: CPU c is thread c / 4, socket (c % 4) / 2, core
	 * c % 2; CPU 4 is CPU 0's SMT sibling, 1 shares its socket, 2 is the other socket */
	struct fixture *f = bfs_fixture(NULL, "2x2x2");
	struct sl_task *n0 = bfs_task(f->sim, 0, SL_SCHED_NORMAL, 0, 0),
		       *n19 = bfs_task(f->sim, 19, SL_SCHED_NORMAL, 0, 0),
		       *hi = bfs_task(f->sim, -20, SL_SCHED_NORMAL, 0, 0);

	(void)state;
	/* SMT and MC (shared cache) are 0, another package of the node 1 */
	assert_int_equal(sl_bfs_locality(f->sim, 0, 0), 0);
	assert_int_equal(sl_bfs_locality(f->sim, 0, 4), 0);
	assert_int_equal(sl_bfs_locality(f->sim, 0, 1), 0);
	assert_int_equal(sl_bfs_locality(f->sim, 0, 2), 1);
	/* locality x task_timeslice: 0 in the package; across, nice 0 39, nice 19 239, nice -20
	 * 6 jiffies */
	assert_int_equal(sl_bfs_cache_distance(f->sim, 0, 4, n0), 0);
	assert_int_equal(sl_bfs_cache_distance(f->sim, 0, 1, n0), 0);
	assert_int_equal(sl_bfs_cache_distance(f->sim, 2, 0, n0), 39);
	assert_int_equal(sl_bfs_cache_distance(f->sim, 2, 0, n19), 239);
	assert_int_equal(sl_bfs_cache_distance(f->sim, 0, 3, hi), 6);
	free(n0);
	free(n19);
	free(hi);
	fixture_free(f);
}

static void test_earliest_deadline_lookup(void **state)
{
	/* 2 sockets x 2 cores: CPUs 0, 1 on socket 0, CPUs 2, 3 on socket 1 */
	struct fixture *f = bfs_fixture(NULL, "2x2x1");
	struct sl_sim *sim = f->sim;
	struct sl_task *a = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 50),
		       *b = bfs_task(sim, -20, SL_SCHED_NORMAL, 2, 45);

	(void)state;
	sim->now = 10 * MS;
	queue(sim, a);
	queue(sim, b);
	/* from CPU 0: A 50 + 0, B (nice -20, distance 1 x 6) 45 + 6 = 51: A, by 1 jiffy */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), a);
	/* from CPU 1, the same package as CPU 0: the same */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[1]), a);
	/* from CPU 2: A (nice 0, distance 39) 50 + 39 = 89, B 45 + 0: B */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[2]), b);
	/* B at 43: 43 + 6 = 49 before A's 50, from CPU 0 too */
	unqueue(sim, b);
	bfs_se(&b->se)->deadline = 43;
	queue(sim, b);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), b);
	unqueue(sim, b);
	bfs_se(&b->se)->deadline = 45;
	queue(sim, b);
	/* A may not run on CPU 0: B; queued again in the order A, B */
	unqueue(sim, a);
	a->cpus_allowed = 0xE;
	queue(sim, a);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), b);
	/* from CPU 2, A (allowed there) at 50 + 39, B 45: B; A's mask allows CPU 2 */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[2]), b);
	unqueue(sim, a);
	unqueue(sim, b);
	a->cpus_allowed = 0;
	queue(sim, a);
	queue(sim, b);
	/* at jiffies 90 both deadlines (with distance) are past, A's 89 too: the first queued,
	 * A, even from CPU 2 where B's 45 is earlier */
	sim->now = 90 * MS;
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[2]), a);
	sim->now = 10 * MS;
	/* an ISO task beats any deadline; an IDLEPRIO one only runs when nothing else is queued
	 */
	struct sl_task *iso = bfs_task(sim, 0, SL_SCHED_ISO, 3, 900),
		       *idle = bfs_task(sim, -20, SL_SCHED_IDLE, 0, 1);

	queue(sim, idle);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), a);
	queue(sim, iso);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), iso);
	/* pick takes it off the queue onto the CPU (a migration: its task_cpu was 3) */
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, &sim->cpus[0]), iso);
	assert_int_equal(iso->cpu, 0);
	assert_false(bfs_se(&iso->se)->queued);
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, &sim->cpus[0]), a);
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, &sim->cpus[0]), b);
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, &sim->cpus[0]), idle);
	assert_null(sl_bfs_class.pick_next_task(sim, &sim->cpus[0]));
	free(a);
	free(b);
	free(iso);
	free(idle);
	fixture_free(f);
}

/* the kernel's earliest_deadline_task: a walk of each prio's FIFO list (order[] here) */
static struct sl_task *scan_edt(struct sl_sim *sim, struct sl_task **order, int n, int cpu)
{
	u64 now = sl_bfs_jiffies(sim);

	for (int prio = BFS_ISO_PRIO; prio <= BFS_IDLE_PRIO; prio++) {
		struct sl_task *edt = NULL;
		u64 earliest = 0;

		for (int i = 0; i < n; i++) {
			struct sl_task *p = order[i];

			if (bfs_se(&p->se)->prio != prio || !sl_cpu_allowed(p, cpu))
				continue;
			u64 dl = bfs_se(&p->se)->deadline +
				 (u64)(s64)sl_bfs_cache_distance(sim, p->cpu, cpu, p);

			if ((s64)(dl - now) < 0)
				return p;
			if (!edt || (s64)(dl - earliest) < 0) {
				edt = p;
				earliest = dl;
			}
		}
		if (edt)
			return edt;
	}
	return NULL;
}

/*
 * The ordered sets against the kernel's walk: 3 sockets of 2 CPUs, 64 tasks of four nice
 * levels and three queues (a few with an affinity mask), deadlines around jiffies (many
 * equal), queued, taken by random CPUs, moved to another CPU while queued, with jiffies and
 * kernel.rr_interval changing: every CPU's answer is the walk's at every step.
 */
static void test_queue_matches_scan(void **state)
{
	struct fixture *f = bfs_fixture(NULL, "3x2x1");
	struct sl_sim *sim = f->sim;
	enum { N = 64, STEPS = 20000 };
	static const int nices[] = {-20, 0, 5, 19};
	struct sl_task *t[N], *order[N];
	int n = 0;
	u64 r = 12345;

	(void)state;
	sim->now = 1000 * MS;
	for (int i = 0; i < N; i++) {
		int pol = i % 16 == 1	? SL_SCHED_ISO
			  : i % 16 == 2 ? SL_SCHED_IDLE
					: SL_SCHED_NORMAL;

		t[i] = bfs_task(sim, nices[i % 4], pol, i % 6, 0);
	}
	for (int step = 0; step < STEPS; step++) {
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		u64 x = r >> 33;
		struct sl_task *p = t[x % N];
		int op = (int)(x >> 8) % 10;

		if (op < 4 && !bfs_se(&p->se)->queued) {
			/* wakes with a deadline near jiffies, a quarter of them with a mask */
			bfs_se(&p->se)->deadline = sl_bfs_jiffies(sim) + (x >> 12) % 120 - 60;
			p->cpus_allowed = (x >> 20) % 4 ? 0 : ((x >> 22) % 63) + 1;
			p->cpu = (int)((x >> 28) % 6);
			queue(sim, p);
			order[n++] = p;
		} else if (op < 6 && bfs_se(&p->se)->queued) {
			int j = 0;

			while (order[j] != p)
				j++;
			unqueue(sim, p);
			memmove(&order[j], &order[j + 1], sizeof(order[0]) * (size_t)(n - j - 1));
			n--;
		} else if (op == 6 && bfs_se(&p->se)->queued) {
			sl_bfs_class.set_task_cpu(sim, p, (int)((x >> 12) % 6));
		} else if (op == 7) {
			sim->now += ((x >> 12) % 8) * MS;
		} else if (op == 8 && (x >> 12) % 50 == 0) {
			sim->tun.policy[BFS_TUN_RR_INTERVAL] = 1 + (x >> 20) % 12;
		}
		for (int c = 0; c < 6; c++)
			assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[c]),
					 scan_edt(sim, order, n, c));
		if (op == 9) {
			/* a pick: off the queue onto the CPU, then it sleeps */
			int c = (int)((x >> 12) % 6);
			struct sl_task *q = sl_bfs_class.pick_next_task(sim, &sim->cpus[c]);
			int j = 0;

			if (!q)
				continue;
			while (order[j] != q)
				j++;
			memmove(&order[j], &order[j + 1], sizeof(order[0]) * (size_t)(n - j - 1));
			n--;
			sl_bfs_class.dequeue_task(sim, &sim->cpus[q->cpu], q, 1);
		}
	}
	while (n) {
		unqueue(sim, order[--n]);
	}
	for (int i = 0; i < N; i++)
		free(t[i]);
	fixture_free(f);
}

/* the kernel's try_preempt walk over every CPU, as bfs.c had it before the idle bitmap */
static int scan_preempt(struct sl_sim *sim, struct sl_task *p)
{
	int target = -1, highest_prio = -1;
	s64 latest = 0;

	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_task *curr = sim->cpus[c].curr;
		int prio = !curr				? BFS_IDLE_PRIO + 1
			   : curr->sched_class == &sl_bfs_class ? bfs_se(&curr->se)->prio
								: curr->prio;
		bool idle = !curr && !sim->cpus[c].need_resched;

		if (!sl_cpu_allowed(p, c) || (!curr && !idle) || prio < highest_prio)
			continue;
		s64 offset = -(s64)sl_bfs_cache_distance(sim, p->cpu, c, p);

		if (curr && curr->sched_class == &sl_bfs_class)
			offset += (s64)bfs_se(&curr->se)->deadline;
		else if (!curr && c == p->cpu)
			return c;
		if (prio > highest_prio || offset > latest || (offset == latest && c == p->cpu)) {
			highest_prio = prio;
			latest = offset;
			target = c;
		}
	}
	if (target < 0 || highest_prio == BFS_IDLE_PRIO + 1)
		return target;
	if (bfs_se(&p->se)->prio > highest_prio)
		return -1;
	if (bfs_se(&p->se)->prio == highest_prio && p->policy == SL_SCHED_NORMAL &&
	    !((s64)bfs_se(&p->se)->deadline < latest))
		return -1;
	return target;
}

/*
 * try_preempt's target against the walk: 3 sockets of 2 CPUs, each CPU idle, kicked idle,
 * running a BFS task of some prio and deadline or an RT task, wakees of every policy, nice,
 * CPU and mask: 20000 random states.
 */
static void test_preempt_matches_scan(void **state)
{
	struct fixture *f = bfs_fixture(NULL, "3x2x1");
	struct sl_sim *sim = f->sim;
	static const int pols[] = {SL_SCHED_NORMAL, SL_SCHED_BATCH, SL_SCHED_ISO, SL_SCHED_IDLE};
	struct sl_task *run[6], *rt = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 0), *w;
	u64 r = 777;

	(void)state;
	rt->sched_class = &sl_rt_class;
	rt->prio = 50;
	for (int c = 0; c < 6; c++)
		run[c] = bfs_task(sim, 0, SL_SCHED_NORMAL, c, 0);
	w = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 0);
	for (int step = 0; step < 20000; step++) {
		for (int c = 0; c < 6; c++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			u64 x = r >> 33;
			int kind = (int)(x % 8);

			bfs_se(&run[c]->se)->prio = (short)(BFS_ISO_PRIO + (x >> 4) % 3);
			bfs_se(&run[c]->se)->deadline = 100 + (x >> 8) % 40;
			set_curr(sim, &sim->cpus[c], kind < 3 ? NULL : kind == 3 ? rt : run[c]);
			sl_set_need_resched(sim, &sim->cpus[c], kind == 1);
		}
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		u64 x = r >> 33;

		w->policy = (enum sl_policy)pols[x % 4];
		bfs_se(&w->se)->prio = (short)(w->policy == SL_SCHED_ISO    ? BFS_ISO_PRIO
					       : w->policy == SL_SCHED_IDLE ? BFS_IDLE_PRIO
									    : BFS_NORMAL_PRIO);
		w->nice = (x >> 2) % 2 ? 0 : 19;
		w->cpu = (int)((x >> 4) % 6);
		w->cpus_allowed = (x >> 8) % 3 ? 0 : ((x >> 10) % 63) + 1;
		bfs_se(&w->se)->deadline = 60 + (x >> 16) % 120;
		assert_int_equal(preempt_target(sim, w), scan_preempt(sim, w));
	}
	for (int c = 0; c < 6; c++) {
		set_curr(sim, &sim->cpus[c], NULL);
		sl_set_need_resched(sim, &sim->cpus[c], false);
		free(run[c]);
	}
	free(rt);
	free(w);
	fixture_free(f);
}

/*
 * The same on 4 sockets of 4 CPUs, where the running tasks' trees answer (bfs_running.c): few
 * idle CPUs, so that most states have none; deadlines on a grid of 6 with a nice -20 wakee's
 * distance of 6, so that a CPU of another socket often ties one of the wakee's; the wakee's CPU
 * anywhere, some with masks: 20000 random states.
 */
static void test_preempt_trees_match_scan(void **state)
{
	struct fixture *f = bfs_fixture(NULL, "4x2x2");
	struct sl_sim *sim = f->sim;
	static const int nices[] = {-20, 0, 19};
	struct sl_task *run[16], *rt = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 0), *w;
	u64 r = 4242;
	int preempted = 0, none = 0;

	(void)state;
	rt->sched_class = &sl_rt_class;
	rt->prio = 50;
	for (int c = 0; c < 16; c++)
		run[c] = bfs_task(sim, 0, SL_SCHED_NORMAL, c, 0);
	w = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 0);
	for (int step = 0; step < 20000; step++) {
		for (int c = 0; c < 16; c++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			u64 x = r >> 33;
			int kind = (int)(x % 32);

			bfs_se(&run[c]->se)->prio = (short)(BFS_NORMAL_PRIO + ((x >> 5) % 64 == 0) -
							    ((x >> 5) % 8 == 1));
			bfs_se(&run[c]->se)->deadline = 100 + 6 * ((x >> 9) % 6);
			sl_set_curr(sim, &sim->cpus[c],
				    kind == 0 || kind == 1 ? NULL
				    : kind == 2		   ? rt
							   : run[c]);
			sl_set_need_resched(sim, &sim->cpus[c], kind == 1 || kind == 5);
		}
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		u64 x = r >> 33;

		w->policy = (x % 9) ? SL_SCHED_NORMAL : SL_SCHED_ISO;
		bfs_se(&w->se)->prio =
			(short)(w->policy == SL_SCHED_ISO ? BFS_ISO_PRIO : BFS_NORMAL_PRIO);
		w->nice = nices[(x >> 3) % 3];
		w->cpu = (int)((x >> 5) % 16);
		w->cpus_allowed = (x >> 9) % 8 ? 0 : ((x >> 12) & 0xffff) | 1;
		bfs_se(&w->se)->deadline = 90 + 6 * ((x >> 27) % 12);
		int t = preempt_target(sim, w);

		assert_int_equal(t, scan_preempt(sim, w));
		if (sim->nr_free == 0 && !w->cpus_allowed)
			t < 0 ? none++ : preempted++;
	}
	/* both verdicts with no CPU idle, where the trees answer */
	assert_true(preempted > 1000 && none > 1000);
	for (int c = 0; c < 16; c++) {
		sl_set_curr(sim, &sim->cpus[c], NULL);
		sl_set_need_resched(sim, &sim->cpus[c], false);
		free(run[c]);
	}
	free(rt);
	free(w);
	fixture_free(f);
}

static void test_preempt_on_wakeup(void **state)
{
	/* 2 CPUs on one socket: locality 0, no cache distance */
	struct fixture *f = bfs_fixture("2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *c0 = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 40),
		       *c1 = bfs_task(sim, 0, SL_SCHED_NORMAL, 1, 60),
		       *w = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 50);

	(void)state;
	sim->now = 10 * MS;
	/* both idle: the wakee's own CPU at once; CPU 1 idle: there whatever its deadline */
	assert_int_equal(preempt_target(sim, w), 0);
	set_curr(sim, &sim->cpus[0], c0);
	assert_int_equal(preempt_target(sim, w), 1);
	/* both busy: CPU 0's task 40, CPU 1's 60, the latest: CPU 1. The wakee's 50 is
	 * before 60: it preempts CPU 1; at 60 it does not */
	set_curr(sim, &sim->cpus[1], c1);
	assert_int_equal(preempt_target(sim, w), 1);
	bfs_se(&w->se)->deadline = 60;
	assert_int_equal(preempt_target(sim, w), -1);
	/* an ISO wakee preempts a NORMAL task whatever the deadlines */
	w->policy = SL_SCHED_ISO;
	bfs_se(&w->se)->prio = BFS_ISO_PRIO;
	bfs_se(&w->se)->deadline = 900;
	assert_int_equal(preempt_target(sim, w), 1);
	/* so does a SCHED_BATCH one at the same prio: only SCHED_NORMAL wakees compare
	 * deadlines (try_preempt's test) */
	w->policy = SL_SCHED_BATCH;
	bfs_se(&w->se)->prio = BFS_NORMAL_PRIO;
	assert_int_equal(preempt_target(sim, w), 1);
	/* an IDLEPRIO wakee does not preempt NORMAL tasks, but does an IDLEPRIO one */
	w->policy = SL_SCHED_IDLE;
	bfs_se(&w->se)->prio = BFS_IDLE_PRIO;
	bfs_se(&w->se)->deadline = 0;
	assert_int_equal(preempt_target(sim, w), -1);
	c0->policy = SL_SCHED_IDLE;
	bfs_se(&c0->se)->prio = BFS_IDLE_PRIO;
	assert_int_equal(preempt_target(sim, w), 0);
	set_curr(sim, &sim->cpus[0], NULL);
	set_curr(sim, &sim->cpus[1], NULL);
	free(c0);
	free(c1);
	free(w);
	fixture_free(f);
}

static void test_preempt_cache_distance(void **state)
{
	/* 2 packages of one CPU: locality 1, a nice 0 task's distance 39 jiffies */
	struct fixture *f = bfs_fixture(NULL, "2x1x1");
	struct sl_sim *sim = f->sim;
	struct sl_task *c0 = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 40),
		       *c1 = bfs_task(sim, 0, SL_SCHED_NORMAL, 1, 60),
		       *w = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 50);

	(void)state;
	sim->now = 10 * MS;
	set_curr(sim, &sim->cpus[0], c0);
	set_curr(sim, &sim->cpus[1], c1);
	/* from the wakee's CPU 0: CPU 0 40 - 0 = 40, CPU 1 60 - 39 = 21: CPU 0 is the latest.
	 * 50 is not before 40: none; at 39 CPU 0 */
	assert_int_equal(preempt_target(sim, w), -1);
	bfs_se(&w->se)->deadline = 39;
	assert_int_equal(preempt_target(sim, w), 0);
	/* CPU 0 idle, CPU 1 idle: the wakee's own; only CPU 1 idle: CPU 1 */
	set_curr(sim, &sim->cpus[0], NULL);
	set_curr(sim, &sim->cpus[1], NULL);
	assert_int_equal(preempt_target(sim, w), 0);
	set_curr(sim, &sim->cpus[0], c0);
	assert_int_equal(preempt_target(sim, w), 1);
	set_curr(sim, &sim->cpus[0], NULL);
	set_curr(sim, &sim->cpus[1], NULL);
	free(c0);
	free(c1);
	free(w);
	fixture_free(f);
}

static void test_sync_wakeup(void **state)
{
	/* 2 CPUs on one socket, CPU 0 runs c (deadline 60), CPU 1 idle */
	struct fixture *f = bfs_fixture("2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *c = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 60),
		       *d = bfs_task(sim, 0, SL_SCHED_NORMAL, 1, 70),
		       *w = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 10);

	(void)state;
	sim->now = 5 * MS;
	set_curr(sim, &sim->cpus[0], c);
	/* a sync wake-up with CPU 1 idle still takes it (suitable_idle_cpus) */
	w->state = TS_RUNNING;
	sim->wake_flags = WF_SYNC;
	sl_bfs_class.enqueue_task(sim, &sim->cpus[0], w, 1);
	assert_true(sim->cpus[1].need_resched);
	assert_false(sim->cpus[0].need_resched);
	sl_bfs_class.dequeue_task(sim, &sim->cpus[0], w, 1);
	sl_set_need_resched(sim, &sim->cpus[1], false);
	/* both busy: a sync wake-up preempts nothing, though 10 is before 60 and 70 */
	set_curr(sim, &sim->cpus[1], d);
	sl_bfs_class.enqueue_task(sim, &sim->cpus[0], w, 1);
	assert_false(sim->cpus[0].need_resched || sim->cpus[1].need_resched);
	sl_bfs_class.dequeue_task(sim, &sim->cpus[0], w, 1);
	/* the same wake-up without WF_SYNC preempts CPU 1 (70, the latest) */
	sim->wake_flags = 0;
	sl_bfs_class.enqueue_task(sim, &sim->cpus[0], w, 1);
	assert_true(sim->cpus[1].need_resched);
	set_curr(sim, &sim->cpus[0], NULL);
	set_curr(sim, &sim->cpus[1], NULL);
	free(c);
	free(d);
	free(w);
	fixture_free(f);
}

static void test_yield(void **state)
{
	struct fixture *f = bfs_fixture("1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *p = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 20),
		       *q = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 30);

	(void)state;
	sim->now = 0;
	queue(sim, p);
	queue(sim, q);
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, rq), p);
	set_curr(sim, rq, p);
	p->on_cpu = true;
	/* at 2.5 ms (jiffies 2) p yields with 3500 us left: a new slice, 6000 us, and a new
	 * deadline 2 + 39 = 41, behind q's 30 */
	sim->now = 2 * MS + 500000;
	sl_bfs_class.yield_task(sim, rq);
	sl_bfs_class.put_prev_task(sim, rq, p);
	p->on_cpu = false;
	set_curr(sim, rq, NULL);
	assert_int_equal(bfs_se(&p->se)->time_slice, 6000);
	assert_int_equal(bfs_se(&p->se)->deadline, 41);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, rq), q);
	free(p);
	free(q);
	fixture_free(f);
}

static void test_iso_accounting(void **state)
{
	struct fixture *f = bfs_fixture("2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	struct sl_task *iso = bfs_task(sim, 0, SL_SCHED_ISO, 1, 0);

	(void)state;
	/* 2 CPUs, HZ 1000: ISO_PERIOD = 5 x 1000 x 2 + 1 = 10001. An idle CPU's tick decays:
	 * 10000 x 10000 / 10001 = 9999 (9999.0001) */
	assert_int_equal(sl_bfs_iso_period(sim), 10001);
	grq->iso_ticks = 10000;
	sl_bfs_class.tick_load(sim, &sim->cpus[0]);
	assert_int_equal(grq->iso_ticks, 9999);
	/* the product is an unsigned int: 500000 x 10000 = 5000000000 = 2^32 + 705032704, /
	 * 10001 = 70496 (70496.2): the decay wraps (the bug 0.311 fixed) */
	grq->iso_ticks = 500000;
	sl_bfs_class.tick_load(sim, &sim->cpus[0]);
	assert_int_equal(grq->iso_ticks, 70496);
	/* an ISO task's tick adds 100 and tests the limit: iso_ticks / 10001 > 70 first at
	 * 71 x 10001 = 710071; from 709971 the tick gives 710071: refractory */
	set_curr(sim, &sim->cpus[1], iso);
	grq->iso_ticks = 709871;
	sl_bfs_class.tick_load(sim, &sim->cpus[1]);
	assert_int_equal(grq->iso_ticks, 709971);
	assert_false(grq->iso_refractory);
	sl_bfs_class.tick_load(sim, &sim->cpus[1]);
	assert_true(grq->iso_refractory);
	/* refractory: its ticks no longer add; cleared below 70 x 90 / 100 = 63 percent,
	 * iso_ticks < 63 x 10001 = 630063 */
	grq->iso_ticks = 630063;
	sl_bfs_class.tick_load(sim, &sim->cpus[1]);
	/* 630063 x 10000 = 6300630000 - 2^32 = 2005662704, / 10001 = 200546: wrapped, and
	 * below the hysteresis: cleared */
	assert_int_equal(grq->iso_ticks, 200546);
	assert_false(grq->iso_refractory);
	set_curr(sim, &sim->cpus[1], NULL);
	free(iso);
	fixture_free(f);
}

static void test_slice_expiry_at_tick(void **state)
{
	struct fixture *f = bfs_fixture("1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *p = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 0);

	(void)state;
	sim->now = 0;
	queue(sim, p);
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, rq), p);
	set_curr(sim, rq, p);
	p->on_cpu = true;
	/* ticks at 1 ms (HZ=1000) charge 1000 us each: after 5, 1000 us are left, no resched;
	 * the 6th empties the slice: resched */
	for (int t = 1; t <= 5; t++) {
		sim->now = (u64)t * MS;
		sl_bfs_class.task_tick(sim, rq, 0);
	}
	assert_int_equal(bfs_se(&p->se)->time_slice, 1000);
	assert_false(rq->need_resched);
	sim->now = 6 * MS;
	sl_bfs_class.task_tick(sim, rq, 0);
	assert_int_equal(bfs_se(&p->se)->time_slice, 0);
	assert_true(rq->need_resched);
	/* put back: the expired slice is refilled and the deadline set from now, 6 + 39 jiffies */
	sl_bfs_class.put_prev_task(sim, rq, p);
	assert_int_equal(bfs_se(&p->se)->time_slice, 6000);
	assert_int_equal(bfs_se(&p->se)->deadline, 45);
	assert_true(bfs_se(&p->se)->queued);
	set_curr(sim, rq, NULL);
	free(p);
	fixture_free(f);
}

/* ---- whole runs ---- */

static void run(const char *cpus, const char *duration, const char *w0, const char *w1,
		struct sl_config *cfg, struct sl_run *r)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.31-bfs";
	a.cpus = cpus;
	a.duration = duration;
	a.workloads[a.nworkloads++] = w0;
	if (w1)
		a.workloads[a.nworkloads++] = w1;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	if (sl_run(cfg, r, err, sizeof(err)))
		fail_msg("run: %s", err);
}

/* at each switch and wake-up of a run: every CPU's entry in the running tasks' trees is what it
 * runs, and each tree's root the best of its CPUs */
struct running_check {
	struct sl_sim *sim;
	long checks;
	bool bad;
};

static int better_cpu(const struct sl_bfs_running *r, int a, int b)
{
	if (a < 0 || r->prio[b] > r->prio[a] || (r->prio[b] == r->prio[a] && r->dl[b] > r->dl[a]))
		return b;
	return a;
}

static void running_check_event(void *ctx, const struct sl_event *ev)
{
	struct running_check *k = ctx;
	struct sl_sim *sim = k->sim;
	const struct sl_bfs_grq *grq = sl_bfs_grq(sim);
	const struct sl_bfs_running *r = &grq->running;
	int best[1 + 16];

	if (ev->type != SL_EV_SWITCH && ev->type != SL_EV_WAKEUP)
		return;
	k->checks++;
	sl_bfs_running_flush(sim); /* as a query does first */
	assert_true(grq->nsock < (int)SL_ARRAY_SIZE(best));
	for (size_t t = 0; t < SL_ARRAY_SIZE(best); t++)
		best[t] = -1;
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_task *curr = sim->cpus[c].curr;
		bool bfs = curr && curr->sched_class == &sl_bfs_class;

		if (r->prio[c] != (bfs ? bfs_se(&curr->se)->prio : 0) ||
		    (bfs && r->dl[c] != (s64)bfs_se(&curr->se)->deadline))
			k->bad = true;
		if (r->prio[c]) {
			best[0] = better_cpu(r, best[0], c);
			best[1 + grq->sock[c]] = better_cpu(r, best[1 + grq->sock[c]], c);
		}
	}
	for (int t = 0; t < r->ntrees; t++)
		if (r->node[r->base[t] + 1] != best[t])
			k->bad = true;
}

static int running_check_attach(void *ctx, struct sl_sim *sim)
{
	struct running_check *k = ctx;

	k->sim = sim;
	return sl_sim_subscribe(sim, running_check_event, ctx);
}

/*
 * The trees follow a run (the class's pick, put_prev, yield and dequeue keep them): 2 sockets of
 * 8 CPUs, hogs of three nice levels, SCHED_ISO and IDLEPRIO hogs, periodic tasks of both, RT
 * periodic tasks preempting them, pingpong pairs and a make that forks: every switch and
 * wake-up checked.
 */
static void test_running_trees_follow_runs(void **state)
{
	static const char *const wl[] = {
		"hog:tasks=14",
		"hog:tasks=4,nice=-5",
		"hog:tasks=3,policy=iso",
		"hog:tasks=2,policy=idle",
		"periodic:tasks=12,run=1ms,period=7ms,nice=3",
		"periodic:tasks=4,run=300us,period=5ms,policy=iso",
		"periodic:tasks=3,run=2ms,period=9ms,policy=fifo,rtprio=20",
		"pingpong:pairs=4"};
	struct running_check k = {0};
	struct sl_config cfg;
	struct sl_run r;
	struct sl_args a;
	char err[2048];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.31-bfs";
	a.topology = "2x4x2";
	a.duration = "1s";
	for (size_t i = 0; i < SL_ARRAY_SIZE(wl); i++)
		a.workloads[a.nworkloads++] = wl[i];
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	if (sl_run_with(&cfg, &r, running_check_attach, &k, err, sizeof(err)))
		fail_msg("run: %s", err);
	assert_true(k.checks > 10000);
	assert_false(k.bad);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_two_hogs_split(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	/* equal nice, equal offsets: each slice of 6 ms ends at a tick and the other task's
	 * deadline is then the earlier: turns of 6 ms, 500 ms each over 1 s (+- one slice), 83
	 * or 84 turns each */
	run("1", "1s", "hog:tasks=2", NULL, &cfg, &r);
	for (int pid = 1; pid <= 2; pid++) {
		double share = (double)r.stats.pid[pid].cpu_ns / (double)r.sim->now;

		assert_true(share > 0.49 && share < 0.51);
		assert_in_range(r.stats.pid[pid].switches, 83, 84);
	}
	assert_int_equal(r.stats.pid[1].cpu_ns + r.stats.pid[2].cpu_ns, 1000 * MS);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_nice_0_against_19(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	/* A nice 0 (offset 39 jiffies), B nice 19 (239), both from t = 0. After B's slice ends
	 * at tB its deadline is tB + 239; A's k-th slice ends at tB + 6k with deadline tB + 6k +
	 * 39, still earlier while 6k < 200: k <= 33, so A runs 34 slices (204
	 * ms), then B one (6 ms). From t = 0 the same: B runs [204, 210], then every 210 ms:
	 * 204 + 210 j <= 2994 for j = 0..13, 14 slices = 84 ms of 3 s (2.8%; 6/210 = 2.86% in
	 * the steady state, where CFS would give nice 19 1.5%: 15 / (1024 + 15)) */
	run("1", "3s", "hog", "hog:nice=19", &cfg, &r);
	assert_int_equal(r.stats.pid[2].cpu_ns, 84 * MS);
	assert_int_equal(r.stats.pid[1].cpu_ns, 2916 * MS);
	assert_int_equal(r.stats.pid[2].wait_max, 204 * MS);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_iso_limit(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	/* ISO against a NORMAL hog on 1 CPU, HZ 1000: ISO_PERIOD = 5 x 1000 x 1 + 1 = 5001
	 * ticks; each ISO tick (one a ms from 1 ms) adds 100; the limit is iso_ticks / 5001 >
	 * 70, first at iso_ticks >= 71 x 5001 = 355071: tick 3551 (355100). Then the ISO task's
	 * slice is zeroed and it is queued as NORMAL with a deadline 3551 + 39, after the NORMAL
	 * hog's 0 + 39: the hog, waiting since 0, first runs at 3.551 s */
	run("1", "4s", "hog:policy=iso", "hog", &cfg, &r);
	assert_int_equal(r.stats.pid[2].wait_max, 3551 * MS);
	sl_run_free(&r);
	sl_config_free(&cfg);
	/* SCHED_IDLEPRIO: nothing while a NORMAL task (even nice 19) is runnable */
	run("1", "1s", "hog:policy=idle", "hog:nice=19", &cfg, &r);
	assert_int_equal(r.stats.pid[1].cpu_ns, 0);
	assert_int_equal(r.stats.pid[2].cpu_ns, 1000 * MS);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_iso_refused_elsewhere(void **state)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[512];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.32";
	a.workloads[a.nworkloads++] = "hog:policy=iso";
	assert_int_not_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "no such policy"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prio_ratios),
		cmocka_unit_test(test_deadline_from_jiffies),
		cmocka_unit_test(test_cache_distance),
		cmocka_unit_test(test_earliest_deadline_lookup),
		cmocka_unit_test(test_queue_matches_scan),
		cmocka_unit_test(test_preempt_matches_scan),
		cmocka_unit_test(test_preempt_trees_match_scan),
		cmocka_unit_test(test_preempt_on_wakeup),
		cmocka_unit_test(test_preempt_cache_distance),
		cmocka_unit_test(test_sync_wakeup),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_iso_accounting),
		cmocka_unit_test(test_slice_expiry_at_tick),
		cmocka_unit_test(test_running_trees_follow_runs),
		cmocka_unit_test(test_two_hogs_split),
		cmocka_unit_test(test_nice_0_against_19),
		cmocka_unit_test(test_iso_limit),
		cmocka_unit_test(test_iso_refused_elsewhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
