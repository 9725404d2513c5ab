/*
 * The 2009 I/O and idle path against hand-worked figures: acpi_idle's bus-master check and
 * broadcast clockevent lock (docs/model/cpuidle.md §7.4), package C-state exits (§7.7),
 * per-controller interrupt routing and disk service jitter (docs/model/blockio.md §2, §3).
 *
 * Defaults: disk 110 MB/s + 10 us command, irq 10 us. A 128 KiB request is served in
 * 10000 + 131072 * 1000 / 110 = 1201563 ns (SERVICE). With a CPU in a C-state, a completion's
 * clat is SERVICE + the wake-up cost + 10000 (the handler), blockio.md §6.
 * nehalem-acpi: C1 1/2, C2 20/40, C3 200/400 us; C2 and C3 TIMER_STOP, C3 CHECK_BM.
 */
#include "helpers.h"
#include "io_fixture.h"
#include "experiment/run.h"
#include "machine/blockdev.h"
#include "machine/idle.h"

static struct sl_sim *build(struct sl_config *cfg, const char *kernel, const char *machine,
			    const char *cpus, const char *wl, const char **params, int np,
			    const char **cparams, int ncp)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = kernel;
	a.cpus = cpus;
	a.machine = machine;
	a.workloads[a.nworkloads++] = wl;
	for (int i = 0; i < np; i++)
		a.params[a.nparams++] = params[i];
	for (int i = 0; i < ncp; i++)
		a.cpuidle_params[a.ncpuidle_params++] = cparams[i];
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

/* Ten 128 KiB reads on one CPU, every idle asking for `gov`'s state; returns the clat sum. */
static u64 fio_clat(const char *kernel, const char *machine, const struct sl_cpuidle_governor *gov,
		    const char **params, int np, const char **cparams, int ncp, u64 *max,
		    u64 *demoted, u64 *usage, int state)
{
	struct sl_config cfg;
	struct sl_sim *sim = build(&cfg, kernel, machine, "1", "fio:disks=1,bs=128k,size=1280k",
				   params, np, cparams, ncp);

	assert_int_equal(sl_sim_set_governor(sim, gov), 0);
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_group *g = &sl_machine_of(sim)->groups[0];
	u64 sum = g->clat->sum;

	assert_int_equal(g->io_ops, 10);
	*max = g->clat->max;
	*demoted = sl_mcpu(sim, 0)->idle_dev.bm_demotions;
	*usage = sl_mcpu(sim, 0)->idle_dev.usage[state];
	sl_sim_free(sim);
	sl_config_free(&cfg);
	return sum;
}

/*
 * 2.6.31 on nehalem (= nehalem-acpi): the governor asks for C3, but the disk is transferring
 * (it always is while the reader waits), so BM_STS is set and every entry goes to the safe
 * state C2 instead. Its BROADCAST_ENTER holds the free lock 1 us right away; the completion,
 * 1.2 ms later, waits C2's 20 us exit and then BROADCAST_EXIT's 1 us (the lock is free again):
 * clat = SERVICE + 20000 + 1000 + 10000. At most one C3 entry is made: the CPU's idle at the
 * start, before any DMA (BM_STS clear).
 */
static void test_bm_check_demotes_to_c2(void **state)
{
	u64 max, dem, c3, c2, sum;

	(void)state;
	sum = fio_clat("2.6.31", "nehalem", &deepest_gov, NULL, 0, NULL, 0, &max, &dem, &c3, 3);
	assert_int_equal(max, SERVICE + 21000 + IRQ);
	assert_int_equal(sum, 10 * (SERVICE + 21000 + IRQ));
	assert_true(dem >= 10);
	assert_true(c3 <= 1);
	fio_clat("2.6.31", "nehalem", &deepest_gov, NULL, 0, NULL, 0, &max, &dem, &c2, 2);
	assert_true(c2 >= 10);
}

/*
 * bm_check=0: C3 is entered; the completion waits its 200 us, then the 1 us exit lock:
 * SERVICE + 201000 + 10000. With bcast_lock=0ns as well: SERVICE + 200000 + 10000, the
 * intel_idle C6 figure of test_blockdev.c.
 */
static void test_no_bm_check_enters_c3(void **state)
{
	const char *cp[] = {"bm_check=0"};
	const char *p0[] = {"bcast_lock=0ns"};
	u64 max, dem, c3;

	(void)state;
	assert_int_equal(
		fio_clat("2.6.31", "nehalem", &deepest_gov, NULL, 0, cp, 1, &max, &dem, &c3, 3),
		10 * (SERVICE + 201000 + IRQ));
	assert_int_equal(dem, 0);
	assert_true(c3 >= 10);
	assert_int_equal(
		fio_clat("2.6.31", "nehalem", &deepest_gov, p0, 1, cp, 1, &max, &dem, &c3, 3),
		10 * (SERVICE + 200000 + IRQ));
	/* a 5 us hold: 200000 + 5000 */
	const char *p5[] = {"bcast_lock=5us"};

	assert_int_equal(
		fio_clat("2.6.32", "nehalem", &deepest_gov, p5, 1, cp, 1, &max, &dem, &c3, 3),
		10 * (SERVICE + 205000 + IRQ));
}

/*
 * The broadcast lock's calendar, bcast_lock 1 us, the clock at 0: an exit asking for 20 us
 * holds [20, 21); an entry at 5 us fits before it, [5, 6); one at 19.5 us overlaps [20, 21)
 * and waits to 21, [21, 22); one at 0 takes [0, 1); one at 5.5 us finds [5, 6) held and takes
 * [6, 7), which ends before [20, 21) begins. Each returns its release time.
 */
static void test_broadcast_lock_calendar(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "2", NULL);

	(void)state;
	assert_int_equal(f->sim->now, 0);
	assert_int_equal(sl_bcast_notify(f->sim, 20000), 21000);
	assert_int_equal(sl_bcast_notify(f->sim, 5000), 6000);
	assert_int_equal(sl_bcast_notify(f->sim, 19500), 22000);
	assert_int_equal(sl_bcast_notify(f->sim, 0), 1000);
	assert_int_equal(sl_bcast_notify(f->sim, 5500), 7000);
	assert_int_equal(sl_machine_of(f->sim)->nbcast, 5);
	fixture_free(f);
}

/*
 * 6.18 runs neither path (intel_idle era): the same ACPI table, named explicitly, is a plain
 * table: C3 entered despite the DMA, no lock: SERVICE + 200000 + 10000.
 */
static void test_modern_release_has_no_acpi_path(void **state)
{
	u64 max, dem, c3;

	(void)state;
	assert_int_equal(fio_clat("6.18", "nehalem-acpi", &deepest_gov, NULL, 0, NULL, 0, &max,
				  &dem, &c3, 3),
			 10 * (SERVICE + 200000 + IRQ));
	assert_int_equal(dem, 0);
}

/*
 * Package C-states, one CPU = the whole socket: the package follows it. intel_idle nehalem,
 * every idle in C6 (the deepest state): package C6, so pkg_c6_exit (50 us) adds to C6's 200:
 * SERVICE + 250000 + 10000. In C3 (not the deepest): package C3, pkg_c3_exit (7 us) adds to
 * C3's 20: SERVICE + 27000 + 10000.
 */
static void test_package_exit_adds(void **state)
{
	const char *p[] = {"pkg_c3_exit=7us", "pkg_c6_exit=50us"};
	u64 max, dem, n;

	(void)state;
	/* 6.18 keeps the intel_idle table for `nehalem` */
	assert_int_equal(
		fio_clat("6.18", "nehalem", &deepest_gov, p, 2, NULL, 0, &max, &dem, &n, 4),
		10 * (SERVICE + 250000 + IRQ));
	assert_int_equal(fio_clat("6.18", "nehalem", &second_gov, p, 2, NULL, 0, &max, &dem, &n, 3),
			 10 * (SERVICE + 27000 + IRQ));
}

/*
 * The package is awake while another CPU of the socket runs: two CPUs, a hog on one (it never
 * sleeps), the reader on the other: no completion pays the package exit, so clat is
 * SERVICE + 200000 + 10000 (at most one package exit is counted: the wake-up at time 0, when
 * both CPUs idle before the tasks start).
 */
static void test_package_stays_awake_with_a_busy_core(void **state)
{
	const char *p[] = {"pkg_c3_exit=7us", "pkg_c6_exit=50us"};
	struct sl_config cfg;
	struct sl_args a;
	char err[2048];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.cpus = "2";
	a.machine = "nehalem";
	a.irq_affinity = "issuer";
	a.workloads[a.nworkloads++] = "fio:disks=1,bs=128k,size=1280k";
	a.workloads[a.nworkloads++] = "hog:tasks=1";
	a.duration = "100ms";
	for (int i = 0; i < 2; i++)
		a.params[a.nparams++] = p[i];
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	assert_int_equal(sl_sim_set_governor(sim, &deepest_gov), 0);
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_group *g = &sl_machine_of(sim)->groups[0];

	assert_int_equal(g->io_ops, 10);
	assert_int_equal(g->clat->max, SERVICE + 200000 + IRQ);
	assert_true(sl_mcpu(sim, 0)->idle_dev.pkg_exits + sl_mcpu(sim, 1)->idle_dev.pkg_exits <= 1);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/*
 * smt_resolve=1 on one core of two threads (--topology 1x1x2), intel_idle nehalem, 6.18, every
 * idle asking for C6: with a hog on the sibling the core stays in C0, so the reader's thread
 * resolves to C1 and each completion waits C1's 3 us: clat = SERVICE + 3000 + 10000. Without
 * smt_resolve it pays its own C6: SERVICE + 200000 + 10000.
 */
static void test_smt_resolve(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct sl_args a;
		char err[2048];

		(void)state;
		memset(&a, 0, sizeof(a));
		a.kernel = "6.18";
		a.topology = "1x1x2";
		a.machine = "nehalem";
		a.irq_affinity = "issuer";
		a.workloads[a.nworkloads++] = "fio:disks=1,bs=128k,size=1280k";
		a.workloads[a.nworkloads++] = "hog:tasks=1";
		a.duration = "100ms";
		a.params[a.nparams++] = on ? "smt_resolve=1" : "smt_resolve=0";
		if (sl_config_build(&cfg, &a, err, sizeof(err)))
			fail_msg("%s", err);
		struct sl_sim *sim = sl_sim_new(&cfg);

		assert_non_null(sim);
		assert_int_equal(sl_sim_set_governor(sim, &deepest_gov), 0);
		assert_int_equal(sl_sim_run(sim), 0);
		assert_int_equal(sl_machine_of(sim)->groups[0].io_ops, 10);
		assert_int_equal(sl_machine_of(sim)->groups[0].clat->max,
				 SERVICE + (on ? 3000 : 200000) + IRQ);
		assert_int_equal(sl_machine_of(sim)->groups[0].clat->sum,
				 10 * (SERVICE + (on ? 3000 : 200000) + IRQ));
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/*
 * Per-controller routing on a 2x2x2 machine: CPUs 0-3 are the first threads of the four cores
 * (Linux's numbering), 4-7 their siblings. bios: every line on CPU 0. irqbalance with 8 disks a
 * controller: disks 0-7 on controller 0 (CPU 0), 8-15 on controller 1 (CPU 1); with one disk a
 * controller, disk d on the first thread of core d mod 4: disk 5 on CPU 1, disk 3 on CPU 3.
 */
static void test_irq_routing(void **state)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[2048];
	struct sl_request r;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.topology = "2x2x2";
	a.workloads[a.nworkloads++] = "hog:tasks=1";
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	memset(&r, 0, sizeof(r));
	r.issue_cpu = 6;
	/* the 2.6.31 default is irqbalance */
	assert_int_equal(sl_machine_of(sim)->irq_affinity, SL_IRQ_BALANCE);
	r.disk = 7;
	assert_int_equal(sl_irq_cpu(sim, &r), 0);
	r.disk = 8;
	assert_int_equal(sl_irq_cpu(sim, &r), 1);
	sl_machine_of(sim)->irq_affinity = SL_IRQ_BIOS;
	assert_int_equal(sl_irq_cpu(sim, &r), 0);
	sl_machine_of(sim)->irq_affinity = SL_IRQ_ISSUER;
	assert_int_equal(sl_irq_cpu(sim, &r), 6);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	a.params[a.nparams++] = "ctrl_disks=1";
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	sim = sl_sim_new(&cfg);
	assert_non_null(sim);
	r.disk = 5;
	assert_int_equal(sl_irq_cpu(sim, &r), 1);
	r.disk = 3;
	assert_int_equal(sl_irq_cpu(sim, &r), 3);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/*
 * disk_jitter on the poll-only machine (no exit latency): each service is SERVICE + a draw in
 * [0, 100000], so every clat lies in [SERVICE + 10000, SERVICE + 110000] (the sum of ten at
 * least 10 x (SERVICE + 10000), the largest at most SERVICE + 110000), they are not all equal
 * (the sum is below 10 x the largest), and the run repeats exactly with the same seed.
 */
static void test_disk_jitter(void **state)
{
	const char *p[] = {"disk_jitter=100us"};
	u64 sums[2], max[2];

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sl_config cfg;
		struct sl_sim *sim = build(&cfg, "2.6.31", NULL, "1",
					   "fio:disks=1,bs=128k,size=1280k", p, 1, NULL, 0);

		assert_int_equal(sl_sim_run(sim), 0);
		sums[k] = sl_machine_of(sim)->groups[0].clat->sum;
		max[k] = sl_machine_of(sim)->groups[0].clat->max;
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_true(sums[0] >= 10 * (SERVICE + IRQ) && max[0] <= SERVICE + 100000 + IRQ);
	assert_true(sums[0] < 10 * max[0]);
	assert_true(sums[0] == sums[1] && max[0] == max[1]);
}

/*
 * latency_factor rebuilds acpi_idle's target residencies: 3 gives C1 1x3 = 3, C2 20x3 = 60,
 * C3 200x3 = 600 us; POLL keeps 0. A native table refuses it.
 */
static void test_latency_factor(void **state)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[2048];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.machine = "nehalem";
	a.workloads[a.nworkloads++] = "hog:tasks=1";
	a.cpuidle_params[a.ncpuidle_params++] = "latency_factor=3";
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(cfg.drv.name, "nehalem-acpi");
	assert_true(cfg.drv.states[0].target_residency_ns == 0);
	assert_true(cfg.drv.states[1].target_residency_ns == 3000);
	assert_true(cfg.drv.states[2].target_residency_ns == 60000);
	assert_true(cfg.drv.states[3].target_residency_ns == 600000);
	sl_config_free(&cfg);
	a.idle_driver = "intel_idle";
	assert_int_not_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "not an acpi_idle table"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bm_check_demotes_to_c2),
		cmocka_unit_test(test_no_bm_check_enters_c3),
		cmocka_unit_test(test_broadcast_lock_calendar),
		cmocka_unit_test(test_modern_release_has_no_acpi_path),
		cmocka_unit_test(test_package_exit_adds),
		cmocka_unit_test(test_package_stays_awake_with_a_busy_core),
		cmocka_unit_test(test_smt_resolve),
		cmocka_unit_test(test_irq_routing),
		cmocka_unit_test(test_disk_jitter),
		cmocka_unit_test(test_latency_factor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
