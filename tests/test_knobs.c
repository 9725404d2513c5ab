/*
 * The kernel's own words: the sched_features string (both releases' lists, the kernel's bit
 * masks, the NO_ prefix, the round trip), and the sysctls with the kernel's bounds and the
 * nr_latency handler.
 */
#include "helpers.h"
#include "sched/cfs/cfs_releases.h"
#include "sched/sysctl.h"

static void test_default_masks(void **state)
{
	(void)state;
	/* the OR of the defaults, bit = position in kernel/sched_features.h */
	assert_int_equal(
		sl_feat_kernel_mask(&sl_cfs_2_6_31.feats, sl_feat_defaults(&sl_cfs_2_6_31.feats)),
		0x1bcfd);
	assert_int_equal(
		sl_feat_kernel_mask(&sl_cfs_2_6_32.feats, sl_feat_defaults(&sl_cfs_2_6_32.feats)),
		0xf19c7b);
	assert_int_equal(sl_cfs_2_6_31.feats.n, 17);
	assert_int_equal(sl_cfs_2_6_32.feats.n, 24);
}

static void test_format(void **state)
{
	char buf[1024];
	u64 set = sl_feat_defaults(&sl_cfs_2_6_31.feats);

	(void)state;
	sl_feat_format(&sl_cfs_2_6_31.feats, set, buf, sizeof(buf));
	assert_string_equal(buf, "NEW_FAIR_SLEEPERS NO_NORMALIZED_SLEEPER ADAPTIVE_GRAN "
				 "WAKEUP_PREEMPT START_DEBIT AFFINE_WAKEUPS CACHE_HOT_BUDDY "
				 "SYNC_WAKEUPS NO_HRTICK NO_DOUBLE_TICK ASYM_GRAN LB_BIAS "
				 "LB_WAKEUP_UPDATE ASYM_EFF_LOAD NO_WAKEUP_OVERLAP LAST_BUDDY "
				 "OWNER_SPIN \n");
}

/* Writing every word of the printed line, in order, reproduces the set, for many sets. */
static void test_round_trip(void **state)
{
	const struct sl_feat_table *tabs[] = {&sl_cfs_2_6_31.feats, &sl_cfs_2_6_32.feats};
	char buf[1024], err[1400];

	(void)state;
	for (int t = 0; t < 2; t++) {
		for (u64 mask = 0; mask < (1ULL << tabs[t]->n); mask += 4099) {
			u64 set = 0, back = 0;

			for (int b = 0; b < tabs[t]->n; b++)
				if (mask & (1ULL << b))
					set |= 1ULL << tabs[t]->flags[b].id;
			sl_feat_format(tabs[t], set, buf, sizeof(buf));
			back = set ^
			       0x3ffffff; /* start from the opposite to prove every word acts */
			assert_int_equal(sl_feat_write_list(tabs[t], &back, buf, err, sizeof(err)),
					 0);
			assert_int_equal(sl_feat_kernel_mask(tabs[t], back), mask);
		}
	}
}

static void test_write(void **state)
{
	const struct sl_feat_table *t = &sl_cfs_2_6_31.feats;
	u64 set = sl_feat_defaults(t);
	char err[1400];

	(void)state;
	assert_int_equal(sl_feat_write(t, &set, "NO_NEW_FAIR_SLEEPERS", err, sizeof(err)), 0);
	assert_false(set & (1ULL << F_NEW_FAIR_SLEEPERS));
	assert_int_equal(sl_feat_write(t, &set, "HRTICK", err, sizeof(err)), 0);
	assert_true(set & (1ULL << F_HRTICK));
	/* 2.6.31's strncmp would take this as NEW_FAIR_SLEEPERS; we refuse it */
	assert_int_equal(sl_feat_write(t, &set, "NEW_FAIR_SLEEPERSX", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NEW_FAIR_SLEEPERSX"));
	assert_non_null(strstr(err, "OWNER_SPIN")); /* lists the valid names */
	/* a 2.6.32 name is not a 2.6.31 flag */
	assert_int_equal(sl_feat_write(t, &set, "GENTLE_FAIR_SLEEPERS", err, sizeof(err)), -1);
	assert_int_equal(sl_feat_write(t, &set, "NO_", err, sizeof(err)), -1);
	assert_int_equal(sl_feat_write(t, &set, "new_fair_sleepers", err, sizeof(err)), -1);
	assert_int_equal(sl_feat_write_list(t, &set, "  ", err, sizeof(err)), -1);
	/* a list applies in order: the last word wins */
	assert_int_equal(sl_feat_write_list(t, &set, "LAST_BUDDY NO_LAST_BUDDY", err, sizeof(err)),
			 0);
	assert_false(set & (1ULL << F_LAST_BUDDY));
	assert_int_equal(sl_feat_write(&sl_cfs_2_6_32.feats, &set, "NO_GENTLE_FAIR_SLEEPERS", err,
				       sizeof(err)),
			 0);
}

static void test_sysctl(void **state)
{
	const struct sl_release *rel = &sl_cfs_2_6_31;
	struct sl_tunables t = rel->defaults;
	u64 f = sl_feat_defaults(&rel->feats);
	char err[1400];

	(void)state;
	assert_int_equal(
		sl_sysctl_write(rel, &t, &f, "kernel.sched_latency_ns=10000000", err, sizeof(err)),
		0);
	assert_int_equal(t.sched_latency, 10000000);
	/* the handler: nr_latency = DIV_ROUND_UP(10 ms, 4 ms) = 3 */
	assert_int_equal(t.sched_nr_latency, 3);
	assert_int_equal(sl_sysctl_write(rel, &t, &f, "kernel.sched_min_granularity_ns=3000000",
					 err, sizeof(err)),
			 0);
	assert_int_equal(t.sched_nr_latency, 4);
	/* wakeup granularity does not touch nr_latency */
	assert_int_equal(sl_sysctl_write(rel, &t, &f, "kernel.sched_wakeup_granularity_ns=0", err,
					 sizeof(err)),
			 0);
	assert_int_equal(t.sched_wakeup_granularity, 0);
	assert_int_equal(t.sched_nr_latency, 4);
	/* bounds: [100000, 1e9] for latency and min_granularity */
	assert_int_equal(
		sl_sysctl_write(rel, &t, &f, "kernel.sched_latency_ns=99999", err, sizeof(err)),
		-1);
	assert_non_null(strstr(err, "range"));
	assert_int_equal(sl_sysctl_write(rel, &t, &f, "kernel.sched_latency_ns=1000000001", err,
					 sizeof(err)),
			 -1);
	assert_int_equal(
		sl_sysctl_write(rel, &t, &f, "kernel.sched_latency_ns=abc", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sched_latency_ns"));
	assert_int_equal(sl_sysctl_write(rel, &t, &f, "kernel.sched_latency_ns", err, sizeof(err)),
			 -1);
	assert_int_equal(sl_sysctl_write(rel, &t, &f, "kernel.sched_bogus=1", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "kernel.sched_child_runs_first"));
	/* proc_dointvec on an unsigned int: -1 wraps */
	assert_int_equal(
		sl_sysctl_write(rel, &t, &f, "kernel.sched_migration_cost=-1", err, sizeof(err)),
		0);
	assert_int_equal(t.sched_migration_cost, 4294967295ULL);
	/* kernel.sched_features takes the bit mask */
	assert_int_equal(sl_sysctl_write(rel, &t, &f, "kernel.sched_features=1", err, sizeof(err)),
			 0);
	assert_int_equal(f, 1ULL << F_NEW_FAIR_SLEEPERS);
	assert_int_equal(sl_sysctl_read(rel, &t, f, &sl_sysctls[6]), 1);
}

static void test_config_errors(void **state)
{
	struct sl_args a;
	struct sl_config cfg;
	char err[2048];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kernel = "2.6.33";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "2.6.33"));
	memset(&a, 0, sizeof(a));
	a.ats[a.nats++] = "2s:sched-features=NO_NOPE";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NO_NOPE"));
	a.ats[0] = "xs:sched-features=NO_LAST_BUDDY";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.ats[0] = "2s:bogus=1";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.ats[0] = "2s:sched-features=NO_LAST_BUDDY";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.at[0].time, 2 * NSEC_PER_SEC);
	memset(&a, 0, sizeof(a));
	a.cpus = "0";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.cpus = "4";
	a.topology = "2x2x2";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.cpus = NULL;
	a.topology = "2x2";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.topology = "2x2x2";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.ncpu, 8);
	/* the boot scaling follows the CPU count: 8 CPUs, factor 4 */
	assert_int_equal(cfg.tun.sched_latency, 80000000);
	memset(&a, 0, sizeof(a));
	a.workloads[a.nworkloads++] = "hog:tasks=0";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tasks"));
	a.workloads[0] = "make:burst=uniform:2ms";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.workloads[0] = "periodic:period=0s";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.workloads[0] = "hog:tasks";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.workloads[0] = "hog:tasks=";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.workloads[0] = "hog:tasks=2,start=1s";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.wl[0].start, NSEC_PER_SEC);
	sl_config_free(&cfg);
	memset(&a, 0, sizeof(a));
	a.params[a.nparams++] = "ctx_switch=5us";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.ctx_switch_ns, 5000);
	a.params[0] = "hz=250";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.hz, 250);
	a.params[0] = "hz=0";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	a.params[0] = "nope=1us";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ctx_switch"));
}

/* A policy's own sysctl rows (struct sl_release's own_sysctls) come after the shared ones, write
 * its tunables in struct sl_tunables' policy[] and exist for that release only. */
static const struct sl_sysctl_desc own_rows[] = {
	{"kernel.policy_knob", offsetof(struct sl_tunables, policy[1]), 1, 10, false, true, 0,
	 false, false},
};

static void test_own_sysctls(void **state)
{
	struct sl_release rel = *sl_release_find("2.6.32");
	struct sl_tunables t = rel.defaults;
	u64 f = sl_feat_defaults(&rel.feats);
	const int shared = sl_sysctl_count(&rel);
	char err[1024];

	(void)state;
	rel.own_sysctls = own_rows;
	rel.nown_sysctls = 1;
	assert_int_equal(sl_sysctl_count(&rel), shared + 1);
	assert_ptr_equal(sl_sysctl_nth(&rel, shared), &own_rows[0]);
	assert_null(sl_sysctl_nth(&rel, shared + 1));
	assert_true(sl_sysctl_exists(&rel, &own_rows[0]));
	assert_false(sl_sysctl_exists(sl_release_find("2.6.32"), &own_rows[0]));
	assert_int_equal(sl_sysctl_write(&rel, &t, &f, "kernel.policy_knob=7", err, sizeof(err)),
			 0);
	assert_int_equal(t.policy[1], 7);
	assert_int_equal(sl_sysctl_read(&rel, &t, f, &own_rows[0]), 7);
	assert_int_not_equal(
		sl_sysctl_write(&rel, &t, &f, "kernel.policy_knob=11", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "out of range [1, 10]"));
	/* the plain release has no such row: unknown, and the list of valid names lacks it */
	assert_int_not_equal(sl_sysctl_write(sl_release_find("2.6.32"), &t, &f,
					     "kernel.policy_knob=2", err, sizeof(err)),
			     0);
	assert_null(strstr(strstr(err, "valid:"), "policy_knob"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_masks), cmocka_unit_test(test_format),
		cmocka_unit_test(test_own_sysctls),   cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_write),	      cmocka_unit_test(test_sysctl),
		cmocka_unit_test(test_config_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
