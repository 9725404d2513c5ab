/*
 * The loader's checks of a policy's tables (sl_plugin_check, src/sched/plugin/plugin_load.c),
 * on policies defined here: each refusal names the file and the entry, a good table passes.
 * Loading a .so and running one is tests/policy.sh's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "sched/plugin/plugin.h"

static void enq(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned f)
{
	(void)s, (void)cpu, (void)t, (void)f;
}

static struct schedlab_task *pick(struct schedlab_sched *s, int cpu)
{
	(void)s, (void)cpu;
	return NULL;
}

static void put(struct schedlab_sched *s, int cpu, struct schedlab_task *t, bool r)
{
	(void)s, (void)cpu, (void)t, (void)r;
}

static const struct schedlab_feature feats[] = {
	{"PLACE", true, NULL},
	{"PREEMPT", false, NULL},
};

static const struct schedlab_sysctl sysctls[] = {
	{"p.slice_ns", 3000000, 100000, 1000000000, "ns", NULL},
	{"p.bias", -5, -20, 19, NULL, NULL},
};

static struct schedlab_policy good(void)
{
	return (struct schedlab_policy){.abi = SCHEDLAB_POLICY_ABI,
					.name = "p-1.0_x",
					.features = feats,
					.nr_features = 2,
					.sysctls = sysctls,
					.nr_sysctls = 2,
					.enqueue = enq,
					.dequeue = enq,
					.pick_next = pick,
					.put_prev = put};
}

/* check pol; NULL want: it passes; else it is refused with want in the message */
static void check(const struct schedlab_policy *pol, const char *want)
{
	char err[1024] = "";
	int rc = sl_plugin_check(pol, "t.so", err, sizeof(err));

	if (!want) {
		if (rc)
			fail_msg("a good policy refused: %s", err);
		return;
	}
	assert_int_equal(rc, -1);
	if (!strstr(err, want) || strncmp(err, "--policy t.so: ", 15))
		fail_msg("'%s' does not say '%s'", err, want);
}

static void test_good(void **state)
{
	struct schedlab_policy p = good();

	(void)state;
	check(&p, NULL);
	p.nr_features = SCHEDLAB_POLICY_MAX_FEATURES + 1;
	check(&p, "9 features: 0..8 are allowed");
}

static void test_abi(void **state)
{
	struct schedlab_policy p = good();

	(void)state;
	p.abi = SCHEDLAB_POLICY_ABI + 7;
	check(&p, "built for policy ABI 8, this schedlab has ABI 1");
}

static void test_required(void **state)
{
	struct schedlab_policy p = good();

	(void)state;
	p.put_prev = NULL;
	check(&p, "lacks a required callback");
	p = good();
	p.name = "two words";
	check(&p, "the policy's name must be");
	p.name = "";
	check(&p, "the policy's name must be");
}

static void test_features(void **state)
{
	static const struct schedlab_feature dup[] = {{"A", true, NULL}, {"A", false, NULL}};
	static const struct schedlab_feature no[] = {{"NO_A", true, NULL}};
	struct schedlab_policy p = good();

	(void)state;
	p.features = dup;
	check(&p, "feature 'A' is declared twice (entries 0 and 1)");
	p.features = no;
	p.nr_features = 1;
	check(&p, "feature 0: a name");
	p.features = NULL;
	check(&p, "nr_features is 1 but features is NULL");
}

static void test_sysctls(void **state)
{
	static const struct schedlab_sysctl dup[] = {{"a", 0, 0, 1, NULL, NULL},
						     {"a", 0, 0, 1, NULL, NULL}};
	/* the default outside the bounds, and a bound past 32 bits */
	static const struct schedlab_sysctl out[] = {{"a", 5, 0, 1, NULL, NULL}};
	static const struct schedlab_sysctl wide[] = {{"a", 0, 0, 4294967296LL, NULL, NULL}};
	static const struct schedlab_sysctl neg[] = {{"a", 0, -1, 4294967295LL, NULL, NULL}};
	static const struct schedlab_sysctl eq[] = {{"a=b", 0, 0, 1, NULL, NULL}};
	struct schedlab_policy p = good();

	(void)state;
	p.sysctls = dup;
	check(&p, "sysctl 'a' is declared twice (entries 0 and 1)");
	p.nr_sysctls = 1;
	p.sysctls = out;
	check(&p, "sysctl 'a': min <= default <= max within 32 bits");
	p.sysctls = wide;
	check(&p, "within 32 bits");
	p.sysctls = neg;
	check(&p, "within 32 bits");
	p.sysctls = eq;
	check(&p, "sysctl 0: a name");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),	 cmocka_unit_test(test_abi),
		cmocka_unit_test(test_required), cmocka_unit_test(test_features),
		cmocka_unit_test(test_sysctls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
