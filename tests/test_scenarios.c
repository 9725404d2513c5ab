/*
 * Whole runs: shares, balance, child-runs-first ordering, and determinism, each against the
 * figure docs/model/cfs.md implies.
 */
#include "helpers.h"
#include "experiment/run.h"

#include <math.h>

struct run_args {
	const char *kernel, *cpus, *topology, *duration, *seed;
	const char *workloads[4];
	const char *sysctls[4];
	const char *features;
};

static void do_run(const struct run_args *ra, struct sl_config *cfg, struct sl_run *r)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = ra->kernel;
	a.cpus = ra->cpus;
	a.topology = ra->topology;
	a.duration = ra->duration;
	a.seed = ra->seed;
	for (int i = 0; i < 4 && ra->workloads[i]; i++)
		a.workloads[a.nworkloads++] = ra->workloads[i];
	for (int i = 0; i < 4 && ra->sysctls[i]; i++)
		a.sysctls[a.nsysctls++] = ra->sysctls[i];
	if (ra->features) {
		a.features[0] = ra->features;
		a.nfeatures = 1;
	}
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	if (sl_run(cfg, r, err, sizeof(err)))
		fail_msg("run: %s", err);
}

static double task_share(const struct sl_run *r, int pid)
{
	return (double)r->stats.pid[pid].cpu_ns / (double)r->sim->now;
}

static void test_two_hogs_half_each(void **state)
{
	const char *kernels[] = {"2.6.31", "2.6.32"};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct run_args ra = {.kernel = kernels[k],
				      .cpus = "1",
				      .duration = "1s",
				      .workloads = {"hog:tasks=2"}};
		struct sl_config cfg;
		struct sl_run r;

		do_run(&ra, &cfg, &r);
		assert_int_equal(r.sim->now, NSEC_PER_SEC);
		for (int pid = 1; pid <= 2; pid++)
			assert_true(fabs(task_share(&r, pid) - 0.5) < 0.01);
		sl_run_free(&r);
		sl_config_free(&cfg);
	}
}

static void test_nice_ratio(void **state)
{
	const char *kernels[] = {"2.6.31", "2.6.32"};
	const double want = 1024.0 / (1024.0 + 335.0);

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct run_args ra = {.kernel = kernels[k],
				      .cpus = "1",
				      .duration = "1s",
				      .workloads = {"hog", "hog:nice=5"}};
		struct sl_config cfg;
		struct sl_run r;

		do_run(&ra, &cfg, &r);
		double s0 = task_share(&r, 1), s5 = task_share(&r, 2);

		/* within 1% of the weight ratio 1024 : 335 */
		assert_true(fabs(s0 - want) / want < 0.01);
		assert_true(fabs(s5 - (1 - want)) / (1 - want) < 0.03);
		assert_true(fabs(s0 / s5 - 1024.0 / 335.0) / (1024.0 / 335.0) < 0.05);
		sl_run_free(&r);
		sl_config_free(&cfg);
	}
}

static void test_hogs_balance_one_per_cpu(void **state)
{
	const char *topo[] = {"1x4x1", "2x2x1", "1x2x2", "2x4x2"};

	(void)state;
	for (int t = 0; t < 4; t++) {
		struct run_args ra = {.topology = topo[t], .duration = "1s"};
		struct sl_config cfg;
		struct sl_run r;
		char wl[32];
		int n;

		/* as many hogs as CPUs */
		n = (topo[t][0] - '0') * (topo[t][2] - '0') * (topo[t][4] - '0');
		snprintf(wl, sizeof(wl), "hog:tasks=%d", n);
		ra.workloads[0] = wl;
		do_run(&ra, &cfg, &r);
		for (int c = 0; c < n; c++) {
			struct sl_cpu *rq = &r.sim->cpus[c];

			/* one each at the end; the NO_HZ idle balancer pulls one task per tick,
			 * so the last idle CPU of 16 gets its task after ~20 ms */
			assert_int_equal(rq->nr_running, 1);
			assert_true((double)r.stats.c[c].busy_ns / 1e9 > 0.97);
		}
		for (int pid = 1; pid <= n; pid++)
			assert_true(task_share(&r, pid) > 0.97);
		sl_run_free(&r);
		sl_config_free(&cfg);
	}
}

/* Three hogs on two CPUs: only periodic balancing can share them out, to about 2/3 each. */
static void test_periodic_balance(void **state)
{
	struct run_args ra = {.cpus = "2", .duration = "5s", .workloads = {"hog:tasks=3"}};
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	do_run(&ra, &cfg, &r);
	assert_true(r.stats.migrations > 0);
	for (int pid = 1; pid <= 3; pid++) {
		double s = task_share(&r, pid);

		assert_true(s > 0.5 && s < 0.8);
	}
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/* The event sequence right after make's first fork, on one CPU. */
struct fork_probe {
	int forks, parent, child;
	bool seen;
	struct sl_event first_switch;
};

static void fork_probe_fn(void *ctx, const struct sl_event *ev)
{
	struct fork_probe *p = ctx;

	if (ev->type == SL_EV_FORK && !p->forks++) {
		p->parent = ev->pid;
		p->child = ev->next_pid;
	} else if (ev->type == SL_EV_SWITCH && p->forks && !p->seen) {
		p->seen = true;
		p->first_switch = *ev;
	}
}

static struct fork_probe run_fork(const char *kernel, const char *crf)
{
	struct sl_args a;
	struct sl_config cfg;
	struct fork_probe probe;
	char err[2048];

	memset(&a, 0, sizeof(a));
	memset(&probe, 0, sizeof(probe));
	a.kernel = kernel;
	a.cpus = "1";
	a.workloads[a.nworkloads++] = "make:jobs=4,count=4,burst=5ms";
	a.sysctls[a.nsysctls++] = crf;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	sl_sim_subscribe(sim, fork_probe_fn, &probe);
	assert_int_equal(sl_sim_run(sim), 0);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	assert_true(probe.seen);
	return probe;
}

static void test_child_runs_first(void **state)
{
	const char *kernels[] = {"2.6.31", "2.6.32"};

	(void)state;
	for (int k = 0; k < 2; k++) {
		/* child first: the parent is preempted (still runnable) in favour of the child */
		struct fork_probe p = run_fork(kernels[k], "kernel.sched_child_runs_first=1");

		assert_int_equal(p.first_switch.pid, p.parent);
		assert_int_equal(p.first_switch.prev_state, 'R');
		assert_int_equal(p.first_switch.next_pid, p.child);
		/* parent first: the parent runs on until it blocks in wait() */
		p = run_fork(kernels[k], "kernel.sched_child_runs_first=0");
		assert_int_equal(p.first_switch.pid, p.parent);
		assert_int_equal(p.first_switch.prev_state, 'S');
	}
}

static char *run_json(const char *seed)
{
	struct run_args ra = {
		.cpus = "4",
		.seed = seed,
		.workloads = {"make:jobs=6,count=60", "periodic:run=exp:1ms,count=50"}};
	struct sl_config cfg;
	struct sl_run r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	do_run(&ra, &cfg, &r);
	assert_int_equal(sl_report_json(f, &cfg, &r), 0);
	sl_report_table(f, &cfg, &r);
	fclose(f);
	sl_run_free(&r);
	sl_config_free(&cfg);
	return buf;
}

static void test_determinism(void **state)
{
	char *a = run_json("42"), *b = run_json("42"), *c = run_json("43");

	(void)state;
	assert_string_equal(a, b);
	assert_true(strcmp(a, c) != 0);
	free(a);
	free(b);
	free(c);
}

/* A change at a simulated time takes effect then. Two nice-0 hogs on 1 CPU: with 20 ms latency
 * each slice is calc_delta_mine(20 ms, 1024, {2048}) = 9995122 ns, so the 10th tick ends it:
 * 100 switches a second, plus the first. Writing sched_latency_ns=4000000 recomputes
 * nr_latency = ceil(4 / 4) = 1, so the period of 2 tasks is 2 x min_granularity = 8 ms and the
 * slice 3998049 ns, ended by the 4th tick: 125 switches in the second half second, not 50. */
static u64 switches_with(const char *at)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048];
	u64 n;

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.duration = "1s";
	a.workloads[a.nworkloads++] = "hog:tasks=2";
	if (at)
		a.ats[a.nats++] = at;
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	if (at) {
		assert_int_equal(r.sim->tun.sched_latency, 4000000);
		assert_int_equal(r.sim->tun.sched_nr_latency, 1);
	}
	n = r.stats.switches;
	sl_run_free(&r);
	sl_config_free(&cfg);
	return n;
}

static void test_at_changes(void **state)
{
	u64 base = switches_with(NULL),
	    changed = switches_with("500ms:sysctl=kernel.sched_latency_ns=4000000");

	(void)state;
	assert_true(base >= 99 && base <= 103);
	assert_true(changed >= 170 && changed <= 178);
	/* a change at the very end (or after it) would change nothing: refused before the run */
	for (int i = 0; i < 2; i++) {
		struct sl_args a;
		struct sl_config cfg;
		struct sl_run r;
		char err[2048];

		memset(&a, 0, sizeof(a));
		a.cpus = "1";
		a.duration = "1s";
		a.workloads[a.nworkloads++] = "hog:tasks=2";
		a.ats[a.nats++] = i ? "2s:sysctl=kernel.sched_latency_ns=4000000"
				    : "1s:sysctl=kernel.sched_latency_ns=4000000";
		assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
		assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "not before the run's end (1s)"));
		sl_run_free(&r);
		sl_config_free(&cfg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_hogs_half_each),
		cmocka_unit_test(test_nice_ratio),
		cmocka_unit_test(test_hogs_balance_one_per_cpu),
		cmocka_unit_test(test_periodic_balance),
		cmocka_unit_test(test_child_runs_first),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_at_changes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
