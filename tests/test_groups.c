/*
 * Group scheduling of 2.6.31 (USER_SCHED, --param group_sched=1; docs/model/cfs.md §7): CPU
 * shares between users, the per-CPU shares of tg_shares_up with the kernel's integer rounding,
 * the thresh and the MIN_SHARES clamp, and effective_load, each against a hand computation.
 */
#include "helpers.h"
#include "experiment/run.h"

#include <math.h>

static void do_run(const char *cpus, const char *params, const char *w1, const char *w2,
		   struct sl_config *cfg, struct sl_run *r)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.31";
	a.cpus = cpus;
	a.duration = "2s";
	a.workloads[a.nworkloads++] = w1;
	a.workloads[a.nworkloads++] = w2;
	if (params)
		a.params[a.nparams++] = params;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	if (sl_run(cfg, r, err, sizeof(err)))
		fail_msg("run: %s", err);
}

/* the CPU share of workload group gi over the run */
static double group_share(const struct sl_run *r, int gi)
{
	u64 ns = 0;

	for (int pid = 1; pid <= sl_machine_of(r->sim)->ntasks; pid++)
		if (sl_sim_task(r->sim, pid - 1)->group_id == gi)
			ns += r->stats.pid[pid].cpu_ns;
	return (double)ns / (double)r->sim->now;
}

/*
 * Two users, one with 1 hog and one with 4, on 1 CPU for 2 s.
 * Without groups: 5 nice-0 tasks of weight 1024 on one runqueue, each 1024 / 5120 = 20%: the
 * first user 20%, the second 80%.
 * With USER_SCHED: the root runqueue holds the two users' group entities. One CPU has no sched
 * domain, so update_shares never runs and each entity keeps its group's whole shares, 1024 (a
 * user's default): 1024 / 2048 = 50% each; inside the second group the 4 hogs split their 50%.
 * Tolerance 1% of the CPU: slices end on 1-ms ticks.
 */
static void test_two_users_one_cpu(void **state)
{
	const char *params[] = {NULL, "group_sched=1"};
	const double want[] = {0.20, 0.50};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sl_config cfg;
		struct sl_run r;

		do_run("1", params[k], "hog:tasks=1,uid=1001", "hog:tasks=4,uid=1002", &cfg, &r);
		assert_true(fabs(group_share(&r, 0) - want[k]) < 0.01);
		assert_true(fabs(group_share(&r, 1) - (1 - want[k])) < 0.01);
		sl_run_free(&r);
		sl_config_free(&cfg);
	}
}

/*
 * root's group (uid 0, init_task_group) has INIT_TASK_GROUP_LOAD = 2 x 1024 under USER_SCHED, a
 * user's 1024: one hog each on 1 CPU gives root 2048 / 3072 = 2/3, the user 1/3.
 * --param group_root_shares=1024 makes it 1/2 each.
 */
static void test_root_group_double_share(void **state)
{
	const char *params[] = {"group_sched=1", NULL};
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	do_run("1", params[0], "hog:tasks=1,uid=0", "hog:tasks=1,uid=1000", &cfg, &r);
	assert_true(fabs(group_share(&r, 0) - 2.0 / 3) < 0.01);
	assert_true(fabs(group_share(&r, 1) - 1.0 / 3) < 0.01);
	sl_run_free(&r);
	sl_config_free(&cfg);

	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.31";
	a.cpus = "1";
	a.duration = "2s";
	a.workloads[a.nworkloads++] = "hog:tasks=1,uid=0";
	a.workloads[a.nworkloads++] = "hog:tasks=1,uid=1000";
	a.params[a.nparams++] = "group_sched=1";
	a.params[a.nparams++] = "group_root_shares=1024";
	if (sl_config_build(&cfg, &a, err, sizeof(err)) || sl_run(&cfg, &r, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(fabs(group_share(&r, 0) - 0.5) < 0.01);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/* group scheduling is refused where it is not modelled */
static void test_refused_on_2_6_32(void **state)
{
	struct sl_args a;
	struct sl_config cfg;
	char err[2048];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.32";
	a.params[a.nparams++] = "group_sched=1";
	assert_int_not_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "group_sched"));
}

/*
 * tg_shares_up over both CPUs of a 2-CPU machine (the top domain: shares = tg->shares = 1024),
 * then over them as a lower domain (shares = the sum of the per-CPU shares), with the kernel's
 * truncating division, sched_shares_thresh (4) and the MIN_SHARES clamp (2).
 *  1. CPU 0 holds nice 0 + nice 19 = 1024 + 15 = 1039, CPU 1 two nice-5 tasks = 2 x 335 = 670;
 *     sum 1709. CPU 0: 1024 x 1039 / 1709 = 1063936 / 1709 = 622 (622.5 truncated); CPU 1:
 *     1024 x 670 / 1709 = 686080 / 1709 = 401. Both differ from the entity's 1024 by more than
 *     4: the entities weigh 622 and 401 (together 1023: the rounding loses 1).
 *  2. CPU 1 empties: it counts as NICE_0_LOAD, sum 1039 + 1024 = 2063. Not the top domain: the
 *     shares are 622 + 401 = 1023 (not above tg->shares). CPU 0: 1023 x 1039 / 2063 = 515,
 *     CPU 1: 1023 x 1024 / 2063 = 507.
 *  3. CPU 0 weighs 1042: sum 2066, shares 515 + 507 = 1022; CPU 0: 1022 x 1042 / 2066 = 515
 *     (no change), CPU 1: 1022 x 1024 / 2066 = 506, within the thresh of 507: left at 507,
 *     and the runqueue's own shares figure stays 507 too.
 *  4. Top domain, CPU 0 15, CPU 1 88761: 1024 x 15 / 88776 = 0, clamped to MIN_SHARES 2;
 *     1024 x 88761 / 88776 = 1023.
 */
static void test_shares_two_cpus(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "2", NULL);
	struct sl_sim *sim = f->sim;
	const int span[] = {0, 1};
	struct sl_tg *tg;

	(void)state;
	sim->group_sched = 1;
	tg = sl_tg_of_uid(sim, 1000);
	assert_non_null(tg);
	assert_int_equal(sim->ntgs, 2); /* uid 0's group first */
	assert_int_equal(sim->tgs[0]->shares, 2048);
	assert_int_equal(tg->shares, 1024);
	assert_int_equal(sim->tun.sched_shares_thresh, 4);

	tg->cfs_rq[0].load.weight = 1039;
	tg->cfs_rq[1].load.weight = 670;
	sl_tg_shares_up(sim, tg, span, 2, true);
	assert_int_equal(tg->se[0].load.weight, 622);
	assert_int_equal(tg->se[1].load.weight, 401);
	assert_int_equal(tg->cfs_rq[0].shares, 622);
	assert_int_equal(tg->cfs_rq[1].rq_weight, 670);

	tg->cfs_rq[1].load.weight = 0;
	sl_tg_shares_up(sim, tg, span, 2, false);
	assert_int_equal(tg->cfs_rq[1].rq_weight, 1024);
	assert_int_equal(tg->se[0].load.weight, 515);
	assert_int_equal(tg->se[1].load.weight, 507);

	tg->cfs_rq[0].load.weight = 1042;
	sl_tg_shares_up(sim, tg, span, 2, false);
	assert_int_equal(tg->se[0].load.weight, 515);
	assert_int_equal(tg->se[1].load.weight, 507);
	assert_int_equal(tg->cfs_rq[1].shares, 507);

	tg->cfs_rq[0].load.weight = 15;
	tg->cfs_rq[1].load.weight = 88761;
	sl_tg_shares_up(sim, tg, span, 2, true);
	assert_int_equal(tg->se[0].load.weight, 2);
	assert_int_equal(tg->se[1].load.weight, 1023);

	/* sched_group_set_shares: 1 is clamped to MIN_SHARES 2, 2^20 to MAX_SHARES 2^18; every
	 * entity takes the whole value and every runqueue's shares figure is reset to 0 */
	sl_tg_set_shares(sim, tg, 1);
	assert_int_equal(tg->shares, 2);
	assert_int_equal(tg->se[0].load.weight, 2);
	assert_int_equal(tg->se[1].load.weight, 2);
	assert_int_equal(tg->cfs_rq[1].shares, 0);
	sl_tg_set_shares(sim, tg, 1ULL << 20);
	assert_int_equal(tg->shares, 1ULL << 18);
	assert_int_equal(tg->se[1].load.weight, 1ULL << 18);
	fixture_free(f);
}

/*
 * effective_load(tg, cpu, wl, wg) with S = tg->shares = 1024, s = the runqueue's shares, rw =
 * its rq_weight: wl += more_w, wg += more_w (more_w = load.weight - rq_weight);
 * a = S (rw + wl), b = S rw + s wg, result s (a - b) / b (C division, towards zero).
 *  - CPU 0 (s 622, rw = load = 1039), a nice-0 task added (wl = wg = 1024):
 *    a = 1024 x 2063 = 2112512, b = 1063936 + 622 x 1024 = 1700864,
 *    622 x 411648 / 1700864 = 256045056 / 1700864 = 150 (150.5): the root sees +150, not +1024.
 *  - CPU 1 (s 401, rw = load = 670), wl = 0, wg = 1024 (the task leaving the group elsewhere):
 *    with ASYM_EFF_LOAD 0 at once; without it a = 686080, b = 686080 + 410624 = 1096704,
 *    401 x -410624 / 1096704 = -164660224 / 1096704 = -150 (-150.1, towards zero).
 *  - CPU 0 with 1024 queued since the update (load 2063, rw 1039): more_w = 1024, wl = wg =
 *    2048: a = 1024 x 3087 = 3161088, b = 1063936 + 622 x 2048 = 2337792,
 *    622 x 823296 / 2337792 = 512090112 / 2337792 = 219.
 */
static void test_effective_load(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "2", NULL);
	struct sl_sim *sim = f->sim;
	const int span[] = {0, 1};
	struct sl_tg *tg;

	(void)state;
	sim->group_sched = 1;
	tg = sl_tg_of_uid(sim, 1000);
	assert_non_null(tg);
	tg->cfs_rq[0].load.weight = 1039;
	tg->cfs_rq[1].load.weight = 670;
	sl_tg_shares_up(sim, tg, span, 2, true);
	assert_true(sched_feat(sim, F_ASYM_EFF_LOAD));
	assert_int_equal(sl_effective_load(sim, tg, 0, 1024, 1024), 150);
	assert_int_equal(sl_effective_load(sim, tg, 1, 0, 1024), 0);
	sim->features &= ~(1ULL << F_ASYM_EFF_LOAD);
	assert_int_equal(sl_effective_load(sim, tg, 1, 0, 1024), -150);
	tg->cfs_rq[0].load.weight = 2063;
	assert_int_equal(sl_effective_load(sim, tg, 0, 1024, 1024), 219);
	fixture_free(f);
}

/*
 * The hierarchy in a run: 2 CPUs, group scheduling on, a user's 3 hogs. The root runqueues
 * hold group entities only, whose weights are the group's per-CPU shares (tg_shares_up at the
 * top domain: 1024 split by the runqueues' weights, each within [MIN_SHARES, 1024]); every
 * task sits on its group's runqueue of its CPU; a CPU's load is its root runqueue's.
 */
static void test_hierarchy_invariants(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	do_run("2", "group_sched=1", "hog:tasks=3,uid=1000", "xclient:start=100ms,uid=1000", &cfg,
	       &r);
	struct sl_sim *sim = r.sim;
	struct sl_tg *tg = sl_tg_of_uid(sim, 1000), *root = sl_tg_of_uid(sim, 0);
	u64 sum = 0;

	for (int c = 0; c < 2; c++) {
		struct sl_cpu *rq = &sim->cpus[c];

		assert_int_equal(rq->load.weight, cfs_rq_of_cpu(rq)->load.weight);
		assert_true(tg->se[c].load.weight >= SL_MIN_SHARES);
		assert_true(tg->se[c].load.weight <= 1024);
		sum += tg->se[c].load.weight;
		assert_int_equal(cfs_rq_of_cpu(rq)->load.weight,
				 (tg->se[c].on_rq ? tg->se[c].load.weight : 0) +
					 (root->se[c].on_rq ? root->se[c].load.weight : 0));
	}
	/* the two per-CPU shares add up to the group's 1024 but for the truncation (1 per CPU)
	 * and the thresh (a change of at most 4 is not made, per CPU) */
	assert_true(sum >= 1014 && sum <= 1032);
	for (int pid = 1; pid <= sl_machine_of(sim)->ntasks; pid++) {
		struct sl_task *p = sl_sim_task(sim, pid - 1);

		if (p->se.on_rq)
			assert_ptr_equal(sl_cfs_rq_of(sim, &p->se), &p->se.tg->cfs_rq[p->cpu]);
		assert_ptr_equal(p->se.tg, !strcmp(sl_mtask(p)->comm, "Xorg") ? root : tg);
	}
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/*
 * Between group entities the wake-up granularity is 0 (docs/model/cfs.md §7.2): a group entity
 * never samples avg_wakeup, so adaptive_gran's expected_wakeup = 2 x 0 x nr_running = 0.
 * 1 CPU, NO_NEW_FAIR_SLEEPERS (placement at min_vruntime, no credit), min_vruntime 100 ms.
 * Task a runs with vruntime 101 ms; b wakes and is placed at max(99 ms, 100 ms) = 100 ms:
 * vdiff = 101 - 100 = 1 ms.
 *  - Without groups: b's avg_wakeup is the fork value, wakeup_granularity 5 ms, so
 *    expected = 2 x 5 x 2 = 20 ms, this_run 0, gran = min(20, 5) = 5 ms; 1 ms < 5 ms: no
 *    preemption.
 *  - With groups (a uid 1000, b uid 1001): the same numbers on the groups' entities (a's group
 *    entity at 101 ms, b's placed at 100 ms); gran 0 (both weigh 1024, so ASYM_GRAN converts
 *    nothing): 1 ms > 0, b preempts.
 */
static void test_group_wakeup_gran_zero(void **state)
{
	(void)state;
	for (int groups = 0; groups < 2; groups++) {
		struct fixture *f = fixture_new("2.6.31", "1", "NO_NEW_FAIR_SLEEPERS");
		struct sl_sim *sim = f->sim;
		struct sl_cpu *rq = &sim->cpus[0];
		struct sl_task *a = bare_task(0, SL_SCHED_NORMAL, 0),
			       *b = bare_task(0, SL_SCHED_NORMAL, 0);
		struct sched_entity *ae = &a->se, *be = &b->se;

		a->se.avg_wakeup = b->se.avg_wakeup = sim->tun.sched_wakeup_granularity;
		sim->group_sched = groups;
		if (groups) {
			a->uid = 1000;
			b->uid = 1001;
			a->se.tg = sl_tg_of_uid(sim, 1000);
			b->se.tg = sl_tg_of_uid(sim, 1001);
			ae = &a->se.tg->se[0];
			be = &b->se.tg->se[0];
		}
		sl_cfs_enqueue_task(sim, rq, a, 0);
		assert_ptr_equal(sl_cfs_pick_next_task(sim, rq), a);
		rq->curr = a;
		a->on_cpu = true;
		ae->vruntime = 101000000;
		cfs_rq_of_cpu(rq)->min_vruntime = 100000000;
		be->vruntime = 99000000;
		sl_cfs_enqueue_task(sim, rq, b, 1);
		assert_int_equal(be->vruntime, 100000000);
		assert_false(rq->need_resched);
		sl_cfs_check_preempt_curr(sim, rq, b, 0);
		assert_int_equal(rq->need_resched, groups);
		fixture_free(f);
		free(a);
		free(b);
	}
}

/* a fingerprint of a run: every task's CPU time, waits and switches, the migrations */
static u64 run_print(const char *params, const char *features)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048];
	u64 h = 14695981039346656037ULL;

	memset(&r, 0, sizeof(r));
	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.31";
	a.cpus = "2";
	a.machine = "core2";
	a.seed = "2";
	a.duration = "8s";
	a.workloads[a.nworkloads++] = "make:jobs=20,nice=19,count=300";
	a.workloads[a.nworkloads++] = "xclient:start=1s,rounds=9";
	a.workloads[a.nworkloads++] = "video:fps=25,decode=8ms";
	if (params)
		a.params[a.nparams++] = params;
	if (features)
		a.features[a.nfeatures++] = features;
	if (sl_config_build(&cfg, &a, err, sizeof(err)) || sl_run(&cfg, &r, err, sizeof(err)))
		fail_msg("%s", err);
	for (int pid = 1; pid < r.stats.npid; pid++) {
		const struct sl_pid_stat *ps = &r.stats.pid[pid];
		const u64 v[] = {ps->cpu_ns, ps->wait_total, ps->wait_max, ps->switches};

		for (int k = 0; k < 4; k++)
			h = (h ^ v[k]) * 1099511628211ULL;
	}
	h = (h ^ r.stats.migrations) * 1099511628211ULL;
	sl_run_free(&r);
	sl_config_free(&cfg);
	return h;
}

/*
 * LB_WAKEUP_UPDATE and ASYM_EFF_LOAD act with group scheduling and only with it: on the desktop
 * case of repro sleepers (seed 2, 8 s; measured to be a run where both change something), turning
 * either off changes the run with --param group_sched=1 and leaves it identical without.
 */
static void test_group_flags_act(void **state)
{
	(void)state;
	u64 flat = run_print(NULL, NULL), grp = run_print("group_sched=1", NULL);

	assert_true(flat != grp);
	assert_true(run_print(NULL, "NO_LB_WAKEUP_UPDATE") == flat);
	assert_true(run_print(NULL, "NO_ASYM_EFF_LOAD") == flat);
	assert_true(run_print("group_sched=1", "NO_LB_WAKEUP_UPDATE") != grp);
	assert_true(run_print("group_sched=1", "NO_ASYM_EFF_LOAD") != grp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_users_one_cpu),
		cmocka_unit_test(test_root_group_double_share),
		cmocka_unit_test(test_refused_on_2_6_32),
		cmocka_unit_test(test_shares_two_cpus),
		cmocka_unit_test(test_effective_load),
		cmocka_unit_test(test_hierarchy_invariants),
		cmocka_unit_test(test_group_wakeup_gran_zero),
		cmocka_unit_test(test_group_flags_act),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
