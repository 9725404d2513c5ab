/*
 * BFS (2.6.31, v0.30x) worked by hand from docs/model/bfs.md: the prio_ratios table and the
 * deadline offsets, deadlines from niffies, cache_distance and the earliest-deadline lookup,
 * try_preempt's choice, the slice split at fork, and whole runs: two hogs alternating in 6 ms
 * slices, nice 0 against nice 19, SCHED_ISO's 70% limit, SCHED_IDLEPRIO.
 */
#include "helpers.h"
#include "sched/bfs/bfs.h"
#include "sched/class.h"
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
	p->bfs.deadline = deadline;
	return p;
}

/* queue p as a wake-up would, without the preemption (activate_task) */
static void queue(struct sl_sim *sim, struct sl_task *p)
{
	sl_bfs_class.enqueue_task(sim, &sim->cpus[p->cpu], p, 0);
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
	/* offset = ratio / 100 x rr_interval: nice -20 6 ms, nice 0 6.55 x 6 = 39.3 ms,
	 * nice 19 39.87 x 6 = 239.22 ms */
	assert_int_equal(sl_bfs_deadline_diff(6, -20), 6 * MS);
	assert_int_equal(sl_bfs_deadline_diff(6, 0), 39300000);
	assert_int_equal(sl_bfs_deadline_diff(6, 19), 239220000);
	assert_int_equal(sl_bfs_deadline_diff(10, 0), 65500000);
}

static void test_deadline_from_niffies(void **state)
{
	struct fixture *f = bfs_fixture("1", NULL);
	struct sl_task *parent = bfs_task(f->sim, 0, SL_SCHED_NORMAL, 0, 0),
		       *child = bfs_task(f->sim, 5, SL_SCHED_NORMAL, 0, 0);

	(void)state;
	/* started by the shell at niffies 5 ms: slice 6000 us, deadline 5 + 39.3 ms */
	f->sim->now = 5 * MS;
	sl_bfs_class.task_fork(f->sim, parent, NULL);
	assert_int_equal(parent->bfs.time_slice, 6000);
	assert_int_equal(parent->bfs.deadline, 5 * MS + 39300000);
	/* a fork shares the slice (3000 us each) and the child keeps the parent's deadline,
	 * whatever its own nice */
	child->parent = parent;
	sl_bfs_class.task_fork(f->sim, child, parent);
	assert_int_equal(parent->bfs.time_slice, 3000);
	assert_int_equal(child->bfs.time_slice, 3000);
	assert_int_equal(child->bfs.deadline, 5 * MS + 39300000);
	/* a parent with under 2 x RESCHED_US (150 us) left: it gets 0, the child a new slice
	 * and deadline: nice 5 is index 25, ratio 655 -> 720 -> 792 -> 871 -> 958 -> 1053,
	 * 10.53 x 6 = 63.18 ms */
	parent->bfs.time_slice = 150;
	sl_bfs_class.task_fork(f->sim, child, parent);
	assert_int_equal(parent->bfs.time_slice, 0);
	assert_int_equal(child->bfs.time_slice, 6000);
	assert_int_equal(child->bfs.deadline, 5 * MS + 63180000);
	free(parent);
	free(child);
	fixture_free(f);
}

static void test_cache_distance(void **state)
{
	/* 2 sockets x 2 cores x 2 threads: CPU c is thread c / 4, socket (c % 4) / 2, core
	 * c % 2; CPU 4 is CPU 0's SMT sibling, 1 shares its socket, 2 is the other socket */
	struct fixture *f = bfs_fixture(NULL, "2x2x2");

	(void)state;
	assert_int_equal(sl_bfs_locality(f->sim, 0, 0), 0);
	assert_int_equal(sl_bfs_locality(f->sim, 0, 4), 1);
	assert_int_equal(sl_bfs_locality(f->sim, 0, 1), 2);
	assert_int_equal(sl_bfs_locality(f->sim, 0, 2), 3);
	/* locality x rr_interval (6 ms) */
	assert_int_equal(sl_bfs_cache_distance(f->sim, 0, 4), 6 * MS);
	assert_int_equal(sl_bfs_cache_distance(f->sim, 0, 1), 12 * MS);
	assert_int_equal(sl_bfs_cache_distance(f->sim, 2, 0), 18 * MS);
	fixture_free(f);
}

static void test_earliest_deadline_lookup(void **state)
{
	/* 2 sockets x 2 cores: CPUs 0, 1 on socket 0, CPUs 2, 3 on socket 1 */
	struct fixture *f = bfs_fixture(NULL, "2x2x1");
	struct sl_sim *sim = f->sim;
	struct sl_task *a = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 50 * MS),
		       *b = bfs_task(sim, 0, SL_SCHED_NORMAL, 2, 45 * MS);

	(void)state;
	sim->now = 10 * MS;
	queue(sim, a);
	queue(sim, b);
	/* from CPU 0: A 50 + 0, B 45 + 18 (other socket) = 63: A */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), a);
	/* from CPU 2: A 50 + 18 = 68, B 45 + 0: B */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[2]), b);
	/* from CPU 1: A 50 + 12 (shared cache) = 62, B 45 + 18 = 63: A, by 1 ms */
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[1]), a);
	/* A may not run on CPU 0: B */
	a->cpus_allowed = 0xE;
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), b);
	a->cpus_allowed = 0;
	/* at niffies 70 ms both deadlines (with distance) are past: the first queued, A, even
	 * from CPU 2 where B's is earlier */
	sim->now = 70 * MS;
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[2]), a);
	sim->now = 10 * MS;
	/* an ISO task beats any deadline; an IDLEPRIO one only runs when nothing else is queued
	 */
	struct sl_task *iso = bfs_task(sim, 0, SL_SCHED_ISO, 3, 900 * MS),
		       *idle = bfs_task(sim, -20, SL_SCHED_IDLE, 0, 1 * MS);

	queue(sim, idle);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), a);
	queue(sim, iso);
	assert_ptr_equal(sl_bfs_earliest_deadline_task(sim, &sim->cpus[0]), iso);
	/* pick takes it off the queue onto the CPU (a migration: its task_cpu was 3) */
	assert_ptr_equal(sl_bfs_class.pick_next_task(sim, &sim->cpus[0]), iso);
	assert_int_equal(iso->cpu, 0);
	assert_false(iso->bfs.queued);
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

static void test_preempt_on_wakeup(void **state)
{
	/* 2 CPUs on one socket: locality 2, cache distance 12 ms */
	struct fixture *f = bfs_fixture("2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *c0 = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 40 * MS),
		       *c1 = bfs_task(sim, 0, SL_SCHED_NORMAL, 1, 60 * MS),
		       *w = bfs_task(sim, 0, SL_SCHED_NORMAL, 0, 50 * MS);

	(void)state;
	sim->now = 10 * MS;
	/* CPU 1 idle: the wakee goes there whatever its deadline */
	sim->cpus[0].curr = c0;
	assert_int_equal(sl_bfs_preempt_target(sim, w), 1);
	/* both busy: CPU 0's task 40 - 0, CPU 1's 60 - 12 = 48, the latest: CPU 1. The wakee's
	 * 50 is not before 48: no preemption; at 47 it preempts CPU 1 */
	sim->cpus[1].curr = c1;
	assert_int_equal(sl_bfs_preempt_target(sim, w), -1);
	w->bfs.deadline = 47 * MS;
	assert_int_equal(sl_bfs_preempt_target(sim, w), 1);
	/* an ISO wakee preempts a NORMAL task whatever the deadlines */
	w->policy = SL_SCHED_ISO;
	w->bfs.prio = BFS_ISO_PRIO;
	w->bfs.deadline = 900 * MS;
	assert_int_equal(sl_bfs_preempt_target(sim, w), 1);
	/* an IDLEPRIO wakee never preempts */
	w->policy = SL_SCHED_IDLE;
	w->bfs.prio = BFS_IDLE_PRIO;
	w->bfs.deadline = 0;
	assert_int_equal(sl_bfs_preempt_target(sim, w), -1);
	sim->cpus[0].curr = sim->cpus[1].curr = NULL;
	free(c0);
	free(c1);
	free(w);
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
	rq->curr = p;
	p->on_cpu = true;
	/* ticks at 1 ms (HZ=1000) charge 1000 us each: after 5, 1000 us are left, no resched;
	 * the 6th empties the slice: resched */
	for (int t = 1; t <= 5; t++) {
		sim->now = (u64)t * MS;
		sl_bfs_class.task_tick(sim, rq, 0);
	}
	assert_int_equal(p->bfs.time_slice, 1000);
	assert_false(rq->need_resched);
	sim->now = 6 * MS;
	sl_bfs_class.task_tick(sim, rq, 0);
	assert_int_equal(p->bfs.time_slice, 0);
	assert_true(rq->need_resched);
	/* put back: the expired slice is refilled and the deadline set from now, 6 + 39.3 ms */
	sl_bfs_class.put_prev_task(sim, rq, p);
	assert_int_equal(p->bfs.time_slice, 6000);
	assert_int_equal(p->bfs.deadline, 6 * MS + 39300000);
	assert_true(p->bfs.queued);
	rq->curr = NULL;
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
	/* A nice 0 (offset 39.3 ms), B nice 19 (239.22 ms), both from t = 0. After B's slice
	 * ends at tB its deadline is tB + 239.22; A's k-th slice ends at tB + 6k with deadline
	 * tB + 6k + 39.3, still earlier while 6k < 199.92: k <= 33, so A runs 34 slices (204
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
	 * ticks; each ISO tick adds 100; the limit is iso_ticks > 5001 x 70 = 350070, first
	 * passed at tick 3501 (350100). Until then the NORMAL hog waits: it first runs at
	 * 3.501 s */
	run("1", "4s", "hog:policy=iso", "hog", &cfg, &r);
	assert_int_equal(r.stats.pid[2].wait_max, 3501 * MS);
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
		cmocka_unit_test(test_deadline_from_niffies),
		cmocka_unit_test(test_cache_distance),
		cmocka_unit_test(test_earliest_deadline_lookup),
		cmocka_unit_test(test_preempt_on_wakeup),
		cmocka_unit_test(test_slice_expiry_at_tick),
		cmocka_unit_test(test_two_hogs_split),
		cmocka_unit_test(test_nice_0_against_19),
		cmocka_unit_test(test_iso_limit),
		cmocka_unit_test(test_iso_refused_elsewhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
