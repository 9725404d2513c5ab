/*
 * --cpuidle-param, --pm-qos-latency-us and --cpuidle-disable reach what they set, and act: the
 * oracle's least-energy choice against energies worked by hand from the nehalem table
 * (src/cpuidle/profiles/nehalem.c: power POLL 15000, C1 4000, C1E 3000, C3 1500, C6 150 mW;
 * exit latency 0, 3, 10, 20, 200 us; entry energy = exit latency x 15 W busy power).
 * Energy in a state: power_mw x ns + entry_energy_nj x 1000 (pJ).
 */
#include "helpers.h"
#include "cpuidle/cpuidle.h"
#include "experiment/run.h"

extern const struct sl_cpuidle_governor sl_gov_haltpoll;

enum { POLL, C1, C1E, C3, C6 };

static void build(struct sl_config *cfg, const char *const *params, int nparams, const char *qos,
		  const char *disable)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.machine = "nehalem";
	a.idle_driver = "intel_idle"; /* the table above, not 2.6.31's acpi_idle default */
	for (int i = 0; i < nparams; i++)
		a.cpuidle_params[a.ncpuidle_params++] = params[i];
	a.pm_qos_us = qos;
	if (disable)
		a.cpuidle_disable[a.ncpuidle_disable++] = disable;
	a.workloads[a.nworkloads++] = "hog:work=50ms";
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
}

/* Every tunable lands in its field; the others keep their defaults. */
/* a governor tunable's value by name: every registered name has one */
static u64 gparam(const struct sl_gov_params *gp, const char *name)
{
	u64 v = 0;

	assert_int_equal(sl_gov_param_get(gp, name, &v), 0);
	return v;
}

static void test_params_reach_their_fields(void **state)
{
	static const char *const p[] = {
		"haltpoll_poll_ns=100000",  "haltpoll_grow_start_ns=30000",
		"haltpoll_grow=3",	    "haltpoll_shrink=4",
		"haltpoll_allow_shrink=0",  "menu_tng_quirks=0",
		"busy_power_mw=20000",	    "power_mw.C6=300",
		"entry_energy_nj.C3=12345",
	};
	struct sl_config cfg, def;

	(void)state;
	build(&def, NULL, 0, NULL, NULL);
	build(&cfg, p, (int)SL_ARRAY_SIZE(p), NULL, NULL);
	assert_int_equal(gparam(&cfg.gp, "haltpoll_poll_ns"), 100000);
	assert_int_equal(gparam(&cfg.gp, "haltpoll_grow_start_ns"), 30000);
	assert_int_equal(gparam(&cfg.gp, "haltpoll_grow"), 3);
	assert_int_equal(gparam(&cfg.gp, "haltpoll_shrink"), 4);
	assert_int_equal(gparam(&cfg.gp, "haltpoll_allow_shrink"), 0);
	assert_int_equal(gparam(&cfg.gp, "menu_tng_quirks"), 0);
	assert_int_equal(cfg.drv.busy_power_mw, 20000);
	assert_int_equal(cfg.drv.states[C6].power_mw, 300);
	assert_int_equal(cfg.drv.states[C3].entry_energy_nj, 12345);
	/* the defaults: the haltpoll module's, quirks on, the profile's table */
	assert_int_equal(gparam(&def.gp, "haltpoll_poll_ns"), 200000);
	assert_int_equal(gparam(&def.gp, "haltpoll_grow_start_ns"), 50000);
	assert_int_equal(gparam(&def.gp, "haltpoll_grow"), 2);
	assert_int_equal(gparam(&def.gp, "haltpoll_shrink"), 2);
	assert_int_equal(gparam(&def.gp, "haltpoll_allow_shrink"), 1);
	assert_int_equal(gparam(&def.gp, "menu_tng_quirks"), 1);
	assert_int_equal(def.drv.busy_power_mw, 15000);
	assert_int_equal(def.drv.states[C6].power_mw, 150);
	assert_int_equal(def.drv.states[C3].entry_energy_nj, 300000);  /* 20 us x 15 W */
	assert_int_equal(cfg.drv.states[C6].entry_energy_nj, 3000000); /* untouched */
	/* a later write of the same name wins */
	static const char *const twice[] = {"power_mw.C1=100", "power_mw.C1=200"};

	sl_config_free(&cfg);
	build(&cfg, twice, 2, NULL, NULL);
	assert_int_equal(cfg.drv.states[C1].power_mw, 200);
	sl_config_free(&cfg);
	sl_config_free(&def);
}

/*
 * The oracle's choice for 1 ms of idle (pJ): POLL 1.5e10; C1 4e9 + 4.5e7; C1E 3e9 + 1.5e8 =
 * 3.15e9; C3 1.5e9 + 3e8 = 1.8e9; C6 1.5e8 + 3e9 = 3.15e9: C3. With power_mw.C3=3000, C3 costs
 * 3.3e9 and C1E ties with C6 at 3.15e9: the shallower, C1E. With entry_energy_nj.C6=0 as well,
 * C6 costs 1.5e8: C6.
 */
static void test_power_params_move_the_oracle(void **state)
{
	static const char *const c3[] = {"power_mw.C3=3000"};
	static const char *const c3c6[] = {"power_mw.C3=3000", "entry_energy_nj.C6=0"};
	struct sl_cpuidle_dev dev;
	struct sl_config cfg;

	(void)state;
	memset(&dev, 0, sizeof(dev));
	dev.latency_req_ns = SL_PM_QOS_DEFAULT_NS;
	build(&cfg, NULL, 0, NULL, NULL);
	assert_int_equal(sl_cpuidle_energy_pj(&cfg.drv, C3, 1000000), 1800000000ULL);
	assert_int_equal(sl_cpuidle_energy_pj(&cfg.drv, C6, 1000000), 3150000000ULL);
	assert_int_equal(sl_cpuidle_oracle_choice(&cfg.drv, &dev, 1000000), C3);
	sl_config_free(&cfg);
	build(&cfg, c3, 1, NULL, NULL);
	assert_int_equal(sl_cpuidle_energy_pj(&cfg.drv, C3, 1000000), 3300000000ULL);
	assert_int_equal(sl_cpuidle_energy_pj(&cfg.drv, C1E, 1000000),
			 sl_cpuidle_energy_pj(&cfg.drv, C6, 1000000));
	assert_int_equal(sl_cpuidle_oracle_choice(&cfg.drv, &dev, 1000000), C1E);
	sl_config_free(&cfg);
	build(&cfg, c3c6, 2, NULL, NULL);
	assert_int_equal(sl_cpuidle_energy_pj(&cfg.drv, C6, 1000000), 150000000ULL);
	assert_int_equal(sl_cpuidle_oracle_choice(&cfg.drv, &dev, 1000000), C6);
	sl_config_free(&cfg);
}

/*
 * 10 ms of idle: C6 (1.5e9 + 3e9) beats C3 (1.5e10 + 3e8). The PM QoS limit in microseconds
 * (50 us: C6's 200 us exit is too slow) or C6 disabled leaves C3; a limit of 200 us allows C6.
 */
static void test_qos_and_disable_limit_the_states(void **state)
{
	static const struct {
		const char *qos, *disable;
		u64 qos_ns;
		int want;
	} cases[] = {
		{NULL, NULL, SL_PM_QOS_DEFAULT_NS, C6},
		{"50", NULL, 50000, C3},
		{"200", NULL, 200000, C6},
		{"19", NULL, 19000, C1E},
		{NULL, "C6", SL_PM_QOS_DEFAULT_NS, C3},
		{"0", NULL, 0, POLL},
	};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		struct sl_config cfg;
		struct sl_cpuidle_dev dev;

		build(&cfg, NULL, 0, cases[i].qos, cases[i].disable);
		assert_int_equal(cfg.pm_qos_ns, cases[i].qos_ns);
		memset(&dev, 0, sizeof(dev));
		dev.latency_req_ns = cfg.pm_qos_ns;
		memcpy(dev.disabled, cfg.disabled, sizeof(dev.disabled));
		assert_int_equal(cfg.disabled[C6], cases[i].disable != NULL);
		assert_int_equal(sl_cpuidle_oracle_choice(&cfg.drv, &dev, 10000000), cases[i].want);
		sl_config_free(&cfg);
	}
}

/* busy_power_mw prices the busy time only: a run's CPU energy grows by busy_ns x the
 * difference, its idle energy does not change. */
static void test_busy_power_prices_busy_time(void **state)
{
	static const char *const hot[] = {"busy_power_mw=20000"};
	struct sl_config c0, c1;
	struct sl_run r0, r1;
	char err[512];

	(void)state;
	build(&c0, NULL, 0, NULL, NULL);
	build(&c1, hot, 1, NULL, NULL);
	assert_int_equal(sl_run(&c0, &r0, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&c1, &r1, err, sizeof(err)), 0);
	u64 busy = sl_mcpu(r0.sim, 0)->busy_ns;

	/* the hog's 50 ms, and its fork, switch and exit costs, at most a millisecond more */
	assert_in_range(busy, 50000000, 51000000);
	assert_int_equal(sl_mcpu(r1.sim, 0)->busy_ns, busy);
	assert_int_equal(sl_mcpu(r1.sim, 0)->idle_dev.idle_energy_pj,
			 sl_mcpu(r0.sim, 0)->idle_dev.idle_energy_pj);
	assert_int_equal(sl_cpuidle_cpu_energy_pj(r1.sim, 0) - sl_cpuidle_cpu_energy_pj(r0.sim, 0),
			 busy * 5000);
	sl_run_free(&r0);
	sl_run_free(&r1);
	sl_config_free(&c0);
	sl_config_free(&c1);
}

/* The governors own their tunables: the registry lists them, refuses a value above a row's bound
 * (guest_halt_poll_grow is an unsigned int) and a flag other than 0 or 1. */
static void test_governor_param_rows(void **state)
{
	struct sl_gov_params gp;
	char names[256], err[256];

	(void)state;
	sl_gov_params_default(&gp);
	assert_int_equal(gparam(&gp, "menu_tng_quirks"), 1);
	assert_int_equal(gparam(&gp, "haltpoll_allow_shrink"), 1);
	sl_gov_param_names(names, sizeof(names));
	assert_string_equal(names,
			    "menu_tng_quirks, haltpoll_poll_ns, haltpoll_grow, "
			    "haltpoll_shrink, haltpoll_grow_start_ns, haltpoll_allow_shrink");
	assert_int_equal(sl_gov_param_set(&gp, "haltpoll_grow", 4294967295ULL, err, sizeof(err)),
			 0);
	assert_int_equal(gparam(&gp, "haltpoll_grow"), 4294967295ULL);
	assert_int_equal(sl_gov_param_set(&gp, "haltpoll_grow", 4294967296ULL, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "--cpuidle-param haltpoll_grow: at most 4294967295");
	assert_int_equal(sl_gov_param_set(&gp, "menu_tng_quirks", 2, err, sizeof(err)), -1);
	assert_string_equal(err, "--cpuidle-param menu_tng_quirks: expected 0 or 1");
	assert_int_equal(sl_gov_param_set(&gp, "busy_power_mw", 1, err, sizeof(err)), -2);
}

/*
 * The framework places each governor's tunables block (its tunables_size) in the store, in
 * registry order: poll, ladder and menu-2.6.31 have none, menu-tng's 8 bytes (quirks) come first,
 * then haltpoll's 40 (poll_ns, shrink, grow, grow_start_ns, allow_shrink); every block fits and
 * none overlaps another.
 */
static void test_governor_blocks(void **state)
{
	struct sl_gov_params gp;
	struct sl_cpuidle_dev dev;
	u64 def[8], want = 0;
	size_t total = 0;
	char err[256];

	(void)state;
	for (int g = 0; g < sl_cpuidle_ngovernors; g++) {
		const struct sl_cpuidle_governor *gov = sl_cpuidle_governors[g];

		total += (gov->tunables_size + 7) / 8 * 8;
		for (int i = 0; i < gov->nparams; i++)
			assert_true(gov->params[i].offset + sizeof(u64) <= gov->tunables_size);
	}
	assert_true(total <= SL_GOV_TUNABLES_MAX);
	sl_gov_params_default(&gp);
	assert_int_equal(gp.store[0], 1);      /* menu_tng_quirks */
	assert_int_equal(gp.store[1], 200000); /* haltpoll_poll_ns */
	assert_int_equal(gp.store[2], 2);      /* haltpoll_shrink */
	assert_int_equal(gp.store[3], 2);      /* haltpoll_grow */
	assert_int_equal(gp.store[4], 50000);  /* haltpoll_grow_start_ns */
	assert_int_equal(gp.store[5], 1);      /* haltpoll_allow_shrink */
	assert_int_equal(gp.store[6], 0);      /* nothing after them */
	memset(&dev, 0, sizeof(dev));
	dev.gp = &gp;
	assert_ptr_equal(sl_gov_tunables(&dev, &sl_gov_haltpoll, def), &gp.store[1]);
	/* every tunable its own value (a flag the opposite of its default): each reads back
	 * unchanged, so no two share a u64 */
	for (int pass = 0; pass < 2; pass++) {
		u64 n = 1000;

		for (int g = 0; g < sl_cpuidle_ngovernors; g++) {
			for (int i = 0; i < sl_cpuidle_governors[g]->nparams; i++, n++) {
				const struct sl_gov_param *p = &sl_cpuidle_governors[g]->params[i];
				u64 v = p->max == 1 ? !p->def : n, got = 0;

				if (pass == 0) {
					assert_int_equal(
						sl_gov_param_set(&gp, p->name, v, err, sizeof(err)),
						0);
					continue;
				}
				assert_int_equal(sl_gov_param_get(&gp, p->name, &got), 0);
				assert_int_equal(got, v);
			}
		}
	}
	assert_int_equal(gp.store[0], 0); /* menu_tng_quirks, set off */
	assert_int_equal(gp.store[1], 1001);
	assert_int_equal(sl_gov_param_get(&gp, "busy_power_mw", &want), -2);
	/* without a configuration's store (a governor's unit test): the rows' defaults */
	dev.gp = NULL;
	memset(def, 0xff, sizeof(def));
	assert_ptr_equal(sl_gov_tunables(&dev, &sl_gov_haltpoll, def), def);
	assert_int_equal(def[0], 200000);
	assert_int_equal(def[4], 1);
	assert_int_equal(def[5], 0xffffffffffffffffULL); /* beyond its 40 bytes: untouched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_reach_their_fields),
		cmocka_unit_test(test_governor_param_rows),
		cmocka_unit_test(test_governor_blocks),
		cmocka_unit_test(test_power_params_move_the_oracle),
		cmocka_unit_test(test_qos_and_disable_limit_the_states),
		cmocka_unit_test(test_busy_power_prices_busy_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
