/*
 * The 2009 fio machine's mechanisms (issue 29) against hand-worked figures: acpi_idle's C1 as
 * FFH/MWAIT (TIME_VALID), per-CPU background wake-ups and the sleep length the governor sees,
 * a controller's shared path (hba_mbps) and its one vector holding completions behind a C-state
 * exit, ACPI C2 resolved to C6, and power counted per core.
 *
 * Defaults as tests/test_acpi_idle.c: disk 110 MB/s + 10 us command, irq 10 us; a 128 KiB
 * request is served in 10000 + 131072 * 1000 / 110 = 1201563 ns (SERVICE).
 */
#include "helpers.h"
#include "io_fixture.h"
#include "cpuidle/profiles.h"
#include "experiment/run.h"
#include "machine/blockdev.h"
#include "machine/idle.h"

extern const struct sl_cpuidle_governor sl_gov_menu_2_6_31;

/* every select recorded: when, and the sleep length it was given */
#define NREC 64
static struct {
	u64 now, next_timer;
} rec[2][NREC];
static int nrec[2];

static int recording(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)drv;
	if (dev->cpu < 2 && nrec[dev->cpu] < NREC) {
		rec[dev->cpu][nrec[dev->cpu]].now = dev->now_ns;
		rec[dev->cpu][nrec[dev->cpu]++].next_timer = dev->next_timer_ns;
	}
	return 1; /* C1 */
}

static const struct sl_cpuidle_governor recording_gov = {.name = "rec", .select = recording};

struct build_args {
	const char *kernel, *machine, *cpus, *topology, *duration, *irq;
	const char *wl[2];
	const char *params[4];
	const char *cparams[2];
};

static struct sl_sim *build(struct sl_config *cfg, const struct build_args *b)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = b->kernel;
	a.cpus = b->cpus;
	a.topology = b->topology;
	a.machine = b->machine;
	a.duration = b->duration;
	a.irq_affinity = b->irq;
	for (int i = 0; i < 2 && b->wl[i]; i++)
		a.workloads[a.nworkloads++] = b->wl[i];
	for (int i = 0; i < 4 && b->params[i]; i++)
		a.params[a.nparams++] = b->params[i];
	for (int i = 0; i < 2 && b->cparams[i]; i++)
		a.cpuidle_params[a.ncpuidle_params++] = b->cparams[i];
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

/*
 * nehalem-acpi's C1 is FFH (MWAIT 0x00), so TIME_VALID, and the old menu learns its measured
 * residency. From zeroed state: the first select predicts (0 x 50 + 50 x 0) / 100 = 0 and takes
 * C1; a wake-up 300 us later (well before the 10 ms timer: a break event) makes
 * current_predicted = 300, so the second select predicts (0 x 50 + 50 x 300) / 100 = 150 us.
 * Were C1 HLT (not TIME_VALID) the governor would count a tick, 1000 us, and predict 500.
 */
static void test_c1_ffh_time_valid(void **state)
{
	struct sl_cpuidle_driver drv;
	struct sl_cpuidle_dev dev;
	char err[256];

	(void)state;
	assert_int_equal(sl_idle_profile_load("nehalem-acpi", &drv, err, sizeof(err)), 0);
	assert_true(drv.states[1].flags & CPUIDLE_FLAG_TIME_VALID);
	for (int hlt = 0; hlt < 2; hlt++) {
		if (hlt)
			drv.states[1].flags &= ~(unsigned)CPUIDLE_FLAG_TIME_VALID;
		memset(&dev, 0, sizeof(dev));
		dev.tick_ns = 1000000;
		dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
		dev.next_timer_ns = 10000000;
		assert_int_equal(sl_gov_menu_2_6_31.enable(&dev, &drv), 0);
		assert_int_equal(sl_gov_menu_2_6_31.select(&dev, &drv), 1);
		dev.last_residency_ns = 300000;
		sl_gov_menu_2_6_31.reflect(&dev, &drv, 1);
		sl_gov_menu_2_6_31.select(&dev, &drv);
		assert_int_equal(dev.predicted_ns, hlt ? 500000 : 150000);
		sl_gov_menu_2_6_31.disable(&dev);
	}
}

/*
 * bg_wakeup=10ms on one idle CPU for 100 ms: its timer is first at 10 ms x 1 / 2 = 5 ms, then
 * every 10 ms. The governor sees it as the sleep length: 5 ms at the idle entry at 0; the CPU
 * leaves C1 (1 us) at 5 ms, the handler re-arms for 15 ms and the CPU idles again at
 * 5.001 ms with a sleep length of 9.999 ms. Ten wake-ups in 100 ms: eleven selects. Without
 * it nothing wakes the CPU: one select, no timer (UINT64_MAX).
 */
static void test_bg_wakeup_sleep_length(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct build_args b = {.kernel = "2.6.31",
				       .machine = "nehalem",
				       .cpus = "1",
				       .duration = "100ms",
				       .params = {on ? "bg_wakeup=10ms" : "bg_wakeup=0ns"}};
		struct sl_sim *sim = build(&cfg, &b);

		(void)state;
		nrec[0] = nrec[1] = 0;
		assert_int_equal(sl_sim_set_governor(sim, &recording_gov), 0);
		assert_int_equal(sl_sim_run(sim), 0);
		if (!on) {
			assert_int_equal(nrec[0], 1);
			assert_true(rec[0][0].next_timer == UINT64_MAX);
		} else {
			assert_int_equal(nrec[0], 11);
			assert_int_equal(rec[0][0].now, 0);
			assert_int_equal(rec[0][0].next_timer, 5000000);
			assert_int_equal(rec[0][1].now, 5001000);
			assert_int_equal(rec[0][1].next_timer, 9999000);
			assert_int_equal(rec[0][10].now, 95001000);
		}
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/*
 * The sleep length with the tick running (tick_nohz_get_sleep_length: the next clock event,
 * the tick itself when it is not stopped). Two CPUs, 2.6.31, a hog on CPU 1, bg_wakeup=10ms
 * (CPU 0's first at 2.5 ms), every idle in C1 (1 us), tick_grid=1. CPU 0 idles at 0 with its
 * background timer 2.5 ms away. CPU 1's first busy tick at 1 ms kicks the idle balancer: CPU
 * 0 gets the IPI (1 us) and leaves C1 (1 us), and idles again at 1.002 ms as the idle load
 * balancer, which keeps its tick: the sleep length is the tick at 2 ms, 998 us. That tick
 * runs at 2.001 ms (after C1's exit) and CPU 0 idles with its timer at 2.5 ms nearer than the
 * tick at 3 ms: 499 us. Woken at 2.5 ms it idles at 2.501 ms with the tick at 3 ms 499 us
 * away, not its next timer at 12.5 ms; at 3.001 ms the tick at 4 ms is 999 us away. Without
 * the grid (tick_grid=0, the model before) the tick run at 2.001 ms is re-armed for 3.001 ms,
 * and the sleep length at 2.501 ms is 500 us.
 */
static void test_sleep_length_is_the_tick_when_it_runs(void **state)
{
	const u64 want[2][5][2] = {
		{{0, 2500000},
		 {1002000, 998000},
		 {2001000, 499000},
		 {2501000, 500000},
		 {3002000, 1000000}},
		{{0, 2500000},
		 {1002000, 998000},
		 {2001000, 499000},
		 {2501000, 499000},
		 {3001000, 999000}},
	};

	for (int grid = 0; grid < 2; grid++) {
		struct sl_config cfg;
		struct build_args b = {
			.kernel = "2.6.31",
			.machine = "nehalem",
			.cpus = "2",
			.duration = "10ms",
			.wl = {"hog:tasks=1"},
			.params = {"bg_wakeup=10ms", grid ? "tick_grid=1" : "tick_grid=0"}};
		struct sl_sim *sim = build(&cfg, &b);

		(void)state;
		nrec[0] = nrec[1] = 0;
		assert_int_equal(sl_sim_set_governor(sim, &recording_gov), 0);
		assert_int_equal(sl_sim_run(sim), 0);
		assert_true(sl_mcpu(sim, 0)->busy_ns < 1000000 &&
			    sl_mcpu(sim, 1)->busy_ns > 9000000);
		assert_true(nrec[0] >= 5);
		for (int k = 0; k < 5; k++) {
			assert_int_equal(rec[0][k].now, want[grid][k][0]);
			assert_int_equal(rec[0][k].next_timer, want[grid][k][1]);
		}
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/* ten 128 KiB reads of one or two disks on the poll machine: the clat sum and max */
static void hba_run(const char *cpus, const char *wl, const char *hba, const char *ctrl, u64 *sum,
		    u64 *max, u64 *ops)
{
	struct sl_config cfg;
	struct build_args b = {.cpus = cpus, .wl = {wl}, .params = {hba, ctrl}, .irq = "issuer"};
	struct sl_sim *sim = build(&cfg, &b);

	assert_int_equal(sl_sim_run(sim), 0);
	*sum = sl_machine_of(sim)->groups[0].clat->sum;
	*max = sl_machine_of(sim)->groups[0].clat->max;
	*ops = sl_machine_of(sim)->groups[0].io_ops;
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/*
 * hba_mbps: a path of 55 MB/s under one 110 MB/s disk moves it at half its rate: a request
 * takes ceil(1201563 x 110 / 55) = 2403126 ns, so clat = 2403126 + IRQ. A path of 110 MB/s
 * leaves it alone: SERVICE + IRQ. Two disks behind one 220 MB/s controller (ctrl_disks=2):
 * 2 x 110 fits, SERVICE + IRQ each; behind their own 55 MB/s controllers (ctrl_disks=1), each
 * at half rate.
 */
static void test_hba_shared_path(void **state)
{
	u64 sum, max, ops;

	(void)state;
	hba_run("1", "fio:disks=1,bs=128k,size=1280k", "hba_mbps=55", "ctrl_disks=8", &sum, &max,
		&ops);
	assert_int_equal(ops, 10);
	assert_int_equal(max, 2403126 + IRQ);
	assert_int_equal(sum, 10 * (2403126 + IRQ));
	hba_run("1", "fio:disks=1,bs=128k,size=1280k", "hba_mbps=110", "ctrl_disks=8", &sum, &max,
		&ops);
	assert_int_equal(sum, 10 * (SERVICE + IRQ));
	hba_run("2", "fio:disks=2,bs=128k,size=1280k", "hba_mbps=220", "ctrl_disks=2", &sum, &max,
		&ops);
	assert_int_equal(ops, 20);
	assert_int_equal(sum, 20 * (SERVICE + IRQ));
	hba_run("2", "fio:disks=2,bs=128k,size=1280k", "hba_mbps=55", "ctrl_disks=1", &sum, &max,
		&ops);
	assert_int_equal(sum, 20 * (2403126 + IRQ));
}

/*
 * Two disks behind one 110 MB/s path, read without end for 100 ms: together they move at most
 * 110 MB/s, 11 000 000 bytes in 100 ms (83.9 requests of 131072: at most 83 done), and their
 * clats lie between one request alone and two sharing the path all along.
 */
static void test_hba_caps_the_sum(void **state)
{
	struct sl_config cfg;
	struct build_args b = {.cpus = "2",
			       .duration = "100ms",
			       .irq = "issuer",
			       .wl = {"fio:disks=2,bs=128k"},
			       .params = {"hba_mbps=110", "ctrl_disks=2"}};
	struct sl_sim *sim = build(&cfg, &b);

	(void)state;
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_group *g = &sl_machine_of(sim)->groups[0];

	assert_true(g->io_ops <= 83 && g->io_ops >= 75);
	assert_true(g->clat->max <= 2403126 + IRQ);
	assert_true(g->clat->sum >= g->clat->count * (SERVICE + IRQ));
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

struct irq_probe {
	struct sl_timer t;
	u64 ran;
};

static void probe_fn(struct sl_sim *sim, struct sl_timer *t)
{
	sl_container_of(t, struct irq_probe, t)->ran = sim->now;
}

/*
 * The controller's one vector: CPU 0 idles in C3 (200 us, 2.6.31 nehalem, bm_check=0, no
 * broadcast lock). A completion at 100 us wakes it and runs at 300 us; one at 150 us arrives
 * while the CPU is still leaving C3 and, with hba_mbps set, waits for the exit too: 300 us.
 * Without it the model ran the second handler at once, on a CPU still in its exit: 150 us.
 */
static void test_vector_held_by_the_exit(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct build_args b = {
			.kernel = "2.6.31",
			.machine = "nehalem",
			.cpus = "1",
			.duration = "1ms",
			.params = {"bcast_lock=0ns", on ? "hba_mbps=1000" : "hba_mbps=0"},
			.cparams = {"bm_check=0"}};
		struct sl_sim *sim = build(&cfg, &b);
		struct irq_probe p[2];

		(void)state;
		assert_int_equal(sl_sim_set_governor(sim, &deepest_gov), 0);
		for (int i = 0; i < 2; i++) {
			memset(&p[i], 0, sizeof(p[i]));
			sl_timer_init(&p[i].t, probe_fn, 0);
			p[i].t.irq = true;
			sl_arm(sim, &p[i].t, i ? 150000 : 100000);
		}
		assert_int_equal(sl_sim_run(sim), 0);
		assert_int_equal(p[0].ran, 300000);
		assert_int_equal(p[1].ran, on ? 300000 : 150000);
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/*
 * hba_hold (a hypothesis): 2.6.31 nehalem, one CPU idling in C3 (200 us; bm_check=0, no
 * broadcast lock), one disk read by libaio at depth 2, two requests. The second is queued
 * behind the first and starts when it ends; the first's completion then waits C3's exit, 200
 * us. With the hold, the controller's path stands still for those 200 us, so the second
 * request ends 200 us later and its clat is 200 us longer; the first's is the same: the clat
 * sum grows by exactly 200000 ns.
 */
static void test_hba_hold(void **state)
{
	u64 sum[2];

	(void)state;
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct build_args b = {
			.kernel = "2.6.31",
			.machine = "nehalem",
			.cpus = "1",
			.wl = {"fio:disks=1,bs=128k,size=256k,ioengine=libaio,iodepth=2"},
			.params = {"bcast_lock=0ns", "hba_mbps=100000",
				   on ? "hba_hold=1" : "hba_hold=0"},
			.cparams = {"bm_check=0"}};
		struct sl_sim *sim = build(&cfg, &b);

		assert_int_equal(sl_sim_set_governor(sim, &deepest_gov), 0);
		assert_int_equal(sl_sim_run(sim), 0);
		assert_int_equal(sl_machine_of(sim)->groups[0].io_ops, 2);
		sum[on] = sl_machine_of(sim)->groups[0].clat->sum;
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(sum[1] - sum[0], 200000);
}

/*
 * c2_as_c6: 2.6.31 nehalem, every idle asking for C2 (the second deepest): a completion waits
 * C2's 20 us exit and the 1 us BROADCAST_EXIT: SERVICE + 21000 + IRQ (as
 * test_bm_check_demotes_to_c2). When the PCU resolves C2 to hardware C6 it waits C3's (hw C6)
 * 200 us instead: SERVICE + 201000 + IRQ.
 */
static void test_c2_as_c6(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct build_args b = {.kernel = "2.6.31",
				       .machine = "nehalem",
				       .cpus = "1",
				       .wl = {"fio:disks=1,bs=128k,size=1280k"},
				       .params = {on ? "c2_as_c6=1" : "c2_as_c6=0"}};
		struct sl_sim *sim = build(&cfg, &b);

		(void)state;
		assert_int_equal(sl_sim_set_governor(sim, &second_gov), 0);
		assert_int_equal(sl_sim_run(sim), 0);
		assert_int_equal(sl_machine_of(sim)->groups[0].io_ops, 10);
		assert_int_equal(sl_machine_of(sim)->groups[0].clat->sum,
				 10 * (SERVICE + (on ? 201000 : 21000) + IRQ));
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/*
 * core_power on one core of two threads (1x1x2), 6.18 nehalem (intel_idle: C6 0.15 W, busy
 * 15 W), 1 s. Both threads idle in C6 the whole second: per logical CPU 2 x 0.15 J, per core
 * 0.15 J. A hog on one thread: its wake-up IPI (1 us) finds the core in C6 (1 us at 0.15 W),
 * then the core is busy the rest of the second (15 W x 0.999999 s), and it made one
 * transition, C6 left while the sibling was in C6 too: 200 us x 15 W = 3 mJ. In all
 * 15,002,985,150,000 pJ.
 */
static void test_core_power(void **state)
{
	for (int k = 0; k < 3; k++) {
		struct sl_config cfg;
		struct build_args b = {.kernel = "6.18",
				       .machine = "nehalem",
				       .topology = "1x1x2",
				       .duration = "1s",
				       .irq = "issuer",
				       .wl = {k == 2 ? "hog:tasks=1" : NULL},
				       .params = {k ? "core_power=1" : "core_power=0"}};
		struct sl_sim *sim = build(&cfg, &b);

		(void)state;
		assert_int_equal(sl_sim_set_governor(sim, &deepest_gov), 0);
		assert_int_equal(sl_sim_run(sim), 0);
		u64 pj = sl_machine_energy_pj(sim);

		if (k == 0)
			assert_true(pj == 2 * 150ULL * 1000000000ULL);
		else if (k == 1)
			assert_true(pj == 150ULL * 1000000000ULL);
		else
			assert_true(pj == 15000ULL * (1000000000ULL - 1000) + 150ULL * 1000 +
						  3000000ULL * 1000);
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/*
 * fio's cpus_allowed and cpus_allowed_policy (the explore's reader=away): on four CPUs of the
 * poll machine, cpus_allowed=1-3 split puts job 0 alone on CPU 1 and job 1 on CPU 2, so only
 * they are ever busy; shared, cpus_allowed=3, puts both on CPU 3. A CPU past 63 is refused.
 */
static void test_fio_cpus_allowed(void **state)
{
	const char *wl[2] = {"fio:disks=2,size=1280k,cpus_allowed=1-3,cpus_allowed_policy=split",
			     "fio:disks=2,size=1280k,cpus_allowed=3"};
	const u64 busy_cpus[2] = {0x6, 0x8};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sl_config cfg;
		struct build_args b = {.cpus = "4", .irq = "issuer", .wl = {wl[k]}};
		struct sl_sim *sim = build(&cfg, &b);
		u64 busy = 0;

		assert_int_equal(sl_sim_run(sim), 0);
		assert_int_equal(sl_machine_of(sim)->groups[0].io_ops, 20);
		for (int c = 0; c < 4; c++)
			busy |= (u64)(sl_mcpu(sim, c)->busy_ns > 0) << c;
		assert_int_equal(busy, busy_cpus[k]);
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	struct sl_config cfg;
	struct sl_args a;
	char err[512];

	memset(&a, 0, sizeof(a));
	a.workloads[a.nworkloads++] = "fio:cpus_allowed=64";
	assert_int_not_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "cpus_allowed='64'"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_c1_ffh_time_valid),
		cmocka_unit_test(test_bg_wakeup_sleep_length),
		cmocka_unit_test(test_sleep_length_is_the_tick_when_it_runs),
		cmocka_unit_test(test_hba_shared_path),
		cmocka_unit_test(test_hba_caps_the_sum),
		cmocka_unit_test(test_vector_held_by_the_exit),
		cmocka_unit_test(test_hba_hold),
		cmocka_unit_test(test_c2_as_c6),
		cmocka_unit_test(test_core_power),
		cmocka_unit_test(test_fio_cpus_allowed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
