/*
 * The block device model against hand-worked figures: a single synchronous reader's cycle, the
 * overlap a deeper queue buys, and a completion interrupt waiting for a CPU to leave C6.
 *
 * Defaults: disk 110 MB/s + 10 us command, io_submit 10 us, irq 10 us, context switch 2 us.
 * A 128 KiB request is served in 10000 + 131072 * 1000 / 110 = 10000 + 1191563 = 1201563 ns.
 */
#include "helpers.h"
#include "io_fixture.h"
#include "experiment/run.h"

#include <math.h>

static struct sl_sim *build(struct sl_config *cfg, const char *machine, const char *wl)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.machine = machine;
	/* the intel_idle table these hand computations use, the issuer's CPU for completions:
	 * the 2.6.31 defaults (acpi_idle, irqbalance) are tested in test_acpi_idle.c */
	a.idle_driver = "intel_idle";
	a.irq_affinity = "issuer";
	a.workloads[a.nworkloads++] = wl;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

/*
 * One sync reader, 100 requests, on the POLL-only machine (no exit latency). The task starts at
 * 0, pays its 2 us switch, 10 us of submission, then waits: service, the 10 us interrupt, the
 * 2 us switch back (a warm cache: nothing else ran), 10 us of submission again. A cycle is
 * 1201563 + 10000 + 2000 + 10000 = 1223563 ns; request k is submitted at 12000 + k * 1223563 and
 * completes 1211563 ns later (its clat); after the 100th the job runs 2 + 10 us and exits:
 * 12000 + 99 * 1223563 + 1211563 + 12000 = 122368300 ns.
 */
static void test_sync_reader(void **state)
{
	struct sl_config cfg;
	struct sl_sim *sim = build(&cfg, NULL, "fio:disks=1,bs=128k,size=12800k");

	(void)state;
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_group *g = &sl_machine_of(sim)->groups[0];

	assert_int_equal(g->io_ops, 100);
	assert_int_equal(g->io_bytes, 100 * 131072);
	assert_int_equal(g->clat->max, SERVICE + 10000);
	assert_int_equal(g->clat->count, 100);
	assert_int_equal(g->clat->sum, 100 * (SERVICE + 10000));
	assert_int_equal(g->end, 122368300);
	/* 107.12 MB/s: bs over the cycle */
	double mbps = 131072.0 / 1223563e-9 / 1e6;

	assert_true(mbps > 107.1 && mbps < 107.2);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/* libaio with 4 in flight: the disk is never idle, so the rate is the disk's own, bs / service
 * (109.08 MB/s), above the sync reader's 107.12. */
static void test_queue_depth_overlaps(void **state)
{
	struct sl_config cfg;
	struct sl_sim *sim =
		build(&cfg, NULL, "fio:disks=1,bs=128k,ioengine=libaio,iodepth=4,size=25600k");

	(void)state;
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_group *g = &sl_machine_of(sim)->groups[0];
	struct sl_disk *d = &sl_machine_of(sim)->disks[0];

	assert_int_equal(g->io_ops, 200);
	/* the disk worked back to back: its busy time is 200 services */
	assert_int_equal(d->busy_ns, 200 * SERVICE);
	double mbps = (double)g->io_bytes / ((double)(g->end - g->start) / 1e9) / 1e6;
	double disk_rate = 131072.0 / (SERVICE * 1e-9) / 1e6;

	assert_true(mbps > 107.5);
	assert_true(fabs(mbps - disk_rate) / disk_rate < 0.005);
	/* with 4 queued, a request waits for up to 3 ahead of it: clat is ~4 services */
	assert_true(sl_hist_percentile(g->clat, 50) > 3 * SERVICE);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/*
 * On nehalem with every idle in C6 (200 us exit): each completion interrupt waits 200 us for the
 * CPU before its 10 us of handling, so every clat is 1201563 + 200000 + 10000 = 1411563 ns.
 */
static void test_interrupt_waits_for_c6(void **state)
{
	struct sl_config cfg;
	struct sl_sim *sim = build(&cfg, "nehalem", "fio:disks=1,bs=128k,size=1280k");

	(void)state;
	assert_int_equal(sl_sim_set_governor(sim, &deepest_gov), 0);
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_group *g = &sl_machine_of(sim)->groups[0];

	assert_int_equal(g->io_ops, 10);
	assert_int_equal(g->clat->max, SERVICE + 200000 + 10000);
	assert_int_equal(g->clat->sum, 10 * (SERVICE + 200000 + 10000));
	/* the reader slept in D on its CPU: it counted in nr_iowait, and no longer does */
	assert_int_equal(sl_mcpu(sim, 0)->nr_iowait, 0);
	assert_true(sl_mcpu(sim, 0)->idle_dev.usage[4] >= 10);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/* What the governors read: a reader waiting on the disk is in nr_iowait of its CPU. */
static int seen_iowait;

static int record_iowait(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)drv;
	if (dev->nr_iowait > seen_iowait)
		seen_iowait = dev->nr_iowait;
	return 0;
}

static const struct sl_cpuidle_governor iowait_gov = {.name = "iowait", .select = record_iowait};

static void test_iowait_seen_by_governor(void **state)
{
	struct sl_config cfg;
	struct sl_sim *sim = build(&cfg, "nehalem", "fio:disks=1,bs=4k,size=40k");

	(void)state;
	seen_iowait = 0;
	assert_int_equal(sl_sim_set_governor(sim, &iowait_gov), 0);
	assert_int_equal(sl_sim_run(sim), 0);
	assert_int_equal(seen_iowait, 1);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_reader),
		cmocka_unit_test(test_queue_depth_overlaps),
		cmocka_unit_test(test_interrupt_waits_for_c6),
		cmocka_unit_test(test_iowait_seen_by_governor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
