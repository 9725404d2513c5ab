/*
 * fio's rw modes, its runtime limit and where completion interrupts go (--irq-affinity), against
 * hand-worked figures from the defaults (docs/model-overview.md): disk 110 MB/s + 10 us command
 * (+ 12.5 ms seek when a request does not follow the last one), io_submit 10 us, irq 10 us,
 * context switch 2 us, migrate_core 10 us. One synchronous job on the POLL-only machine.
 *
 * As tests/test_blockdev.c works out, a 128 KiB request takes 10000 + 131072000 / 110 = 1201563 ns
 * and the sync cycle is 1201563 + 10000 (irq) + 2000 (switch) + 10000 (submit) = 1223563 ns:
 * request k is submitted at 12000 + k * 1223563 and completes (its clat) 1211563 ns later.
 */
#include "helpers.h"
#include "experiment/run.h"

#define CYCLE_128K 1223563ULL
#define CLAT_128K  1211563ULL

static void run_fio(struct sl_config *cfg, struct sl_run *r, const char *cpus,
		    const char *irq_affinity, const char *wl)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.irq_affinity = irq_affinity;
	a.workloads[a.nworkloads++] = wl;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	if (sl_run(cfg, r, err, sizeof(err)))
		fail_msg("%s", err);
}

static void done(struct sl_config *cfg, struct sl_run *r)
{
	sl_run_free(r);
	sl_config_free(cfg);
}

/* Sequential writes cost what sequential reads cost: the model's disk has no write penalty.
 * 100 requests end at 12000 + 99 * 1223563 + 1211563 + 12000 (tests/test_blockdev.c). */
static void test_write_is_sequential_like_read(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	run_fio(&cfg, &r, "1", NULL, "fio:disks=1,bs=128k,size=12800k,rw=write");
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

	assert_int_equal(g->io_ops, 100);
	assert_int_equal(g->clat->max, CLAT_128K);
	assert_int_equal(g->end, 12000 + 99 * CYCLE_128K + CLAT_128K + 12000);
	done(&cfg, &r);
}

/*
 * Random writes seek every time (a sector drawn anywhere in 2^30 * 8 never follows the last):
 * a 4 KiB request takes 10000 + 4096000 / 110 (37236) + 12500000 = 12547236 ns; clat adds the
 * 10 us interrupt, 12557236; the cycle 12547236 + 10000 + 2000 + 10000 = 12569236. Ten of them
 * (size=40k) end at 12000 + 9 * 12569236 + 12557236 + 12000 = 125704360 ns.
 */
static void test_randwrite_seeks_each_request(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	run_fio(&cfg, &r, "1", NULL, "fio:disks=1,bs=4k,size=40k,rw=randwrite");
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

	assert_int_equal(g->io_ops, 10);
	assert_int_equal(g->io_bytes, 40960);
	assert_int_equal(g->clat->max, 12557236);
	assert_int_equal(g->clat->sum, 10 * 12557236ULL);
	assert_int_equal(g->end, 125704360);
	done(&cfg, &r);
}

/*
 * runtime=10ms with no size: the job checks the time after each completed request (after its
 * 2 us switch back), at 12000 + k * 1223563 + 1211563 + 2000 = 1225563 + k * 1223563, and stops
 * at the first check at or past 10 ms: k = 8 (7 gives 9790504), at 11014067 ns, 9 requests done.
 */
static void test_runtime_stops_the_job(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	run_fio(&cfg, &r, "1", NULL, "fio:disks=1,bs=128k,runtime=10ms");
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

	assert_true(g->finite);
	assert_int_equal(g->io_ops, 9);
	assert_int_equal(g->live, 0);
	assert_int_equal(g->end, 1225563 + 8 * CYCLE_128K);
	assert_int_equal(g->end, 11014067);
	done(&cfg, &r);
}

/*
 * On 2 idle CPUs the job is placed on CPU 1. With the interrupt at the issuer (the default) it
 * never moves: 10 requests end at 12000 + 9 * 1223563 + 1211563 + 12000 = 12247630 ns. Sent to
 * CPU 0 (--irq-affinity 0, or spread: disk 0 % 2 CPUs = CPU 0), the first completion wakes the
 * job from CPU 0, idle, where wake_affine pulls it: one migration, whose 10 us (migrate_core,
 * the other core of the socket) is the only difference; after it the interrupt is local again.
 * --irq-affinity 1 is the issuer's CPU, so the same as issuer. The 2.6.31 default (no option) is
 * irqbalance: disk 0 is on controller 0 (ctrl_disks 8), whose line goes to the first thread of
 * core 0, CPU 0: the same as "0"; so is bios (every controller on CPU 0).
 */
static void test_irq_affinity(void **state)
{
	static const struct {
		const char *aff;
		u64 end, migrations, cpu0_switches;
	} cases[] = {
		{NULL, 12247630 + 10000, 1, 20},
		{"irqbalance", 12247630 + 10000, 1, 20},
		{"bios", 12247630 + 10000, 1, 20},
		{"issuer", 12247630, 0, 0},
		{"1", 12247630, 0, 0},
		{"0", 12247630 + 10000, 1, 20},
		{"spread", 12247630 + 10000, 1, 20},
	};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		struct sl_config cfg;
		struct sl_run r;

		run_fio(&cfg, &r, "2", cases[i].aff, "fio:disks=1,bs=128k,size=1280k");
		const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

		assert_int_equal(g->io_ops, 10);
		assert_int_equal(g->end, cases[i].end);
		assert_int_equal(r.stats.migrations, cases[i].migrations);
		assert_int_equal(r.stats.c[0].switches, cases[i].cpu0_switches);
		done(&cfg, &r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_is_sequential_like_read),
		cmocka_unit_test(test_randwrite_seeks_each_request),
		cmocka_unit_test(test_runtime_stops_the_job),
		cmocka_unit_test(test_irq_affinity),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
