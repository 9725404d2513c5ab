/*
 * The one parser of workload keys (src/workload/keys.c): each type of row into its field, the
 * defaults, the bounds, and the errors (unknown key with its suggestion, a key given twice, a
 * bad value, an empty or overlong value, a pair without '='), with the messages written out by
 * hand; then the registered workloads' rows and the keys every workload has.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "workload/workload.h"

struct t_args {
	long n;
	bool flag;
	u64 t;
	struct sl_dist d;
	u64 sz;
	int mode;
	char s[SL_WL_VALUE_MAX];
	u64 cpus;
};

static const struct sl_wl_choice modes[] = {{"alpha", 10}, {"beta", 20}, {"gamma", 30}, {NULL, 0}};

#define A struct t_args
static const struct sl_wl_key rows[] = {
	SL_WL_KEY_INT("n", A, n, -5, 100, "7", "an integer"),
	SL_WL_KEY_BOOL("flag", A, flag, "1", "a flag"),
	SL_WL_KEY_TIME("t", A, t, "2ms", "a duration"),
	SL_WL_KEY_DIST("d", A, d, "exp:3us", "a distribution"),
	SL_WL_KEY_SIZE("sz", A, sz, 512, 1048576, 512, "4k", "a size"),
	SL_WL_KEY_ENUM("mode", A, mode, modes, "gamma", "a choice"),
	SL_WL_KEY_STR("s", A, s, "dflt", "a text"),
	SL_WL_KEY_CPUS("cpus", A, cpus, "1-3", "a CPU list"),
};
#undef A

struct t_other {
	long x;
};

static const struct sl_wl_key other_rows[] = {
	SL_WL_KEY_INT("x", struct t_other, x, 0, 9, "4", "a second set's key"),
};

static struct t_args a;
static struct t_other o;
static char err[512];

static int parse(const char *text)
{
	const struct sl_wl_keyset sets[] = {
		{rows, (int)SL_ARRAY_SIZE(rows), &a},
		{other_rows, (int)SL_ARRAY_SIZE(other_rows), &o},
	};

	memset(&a, 0x5a, sizeof(a));
	memset(&o, 0x5a, sizeof(o));
	err[0] = '\0';
	return sl_wl_keys_parse("w", text, sets, 2, err, sizeof(err));
}

static void bad(const char *text, const char *msg)
{
	if (parse(text) != -1)
		fail_msg("'%s' was taken", text);
	assert_string_equal(err, msg);
}

static void test_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse(NULL), 0);
	assert_int_equal(a.n, 7);
	assert_true(a.flag);
	assert_int_equal(a.t, 2000000);
	assert_int_equal(a.d.kind, SL_DIST_EXP);
	assert_int_equal(a.d.a, 3000);
	assert_int_equal(a.sz, 4096);
	assert_int_equal(a.mode, 30);
	assert_string_equal(a.s, "dflt");
	assert_int_equal(a.cpus, 0xe); /* CPUs 1, 2, 3 */
	assert_int_equal(o.x, 4);
	/* an empty list is no key at all */
	assert_int_equal(parse(""), 0);
	assert_int_equal(a.n, 7);
}

static void test_each_type(void **state)
{
	(void)state;
	assert_int_equal(parse("n=-5,flag=0,t=1.5ms,d=uniform:1ms:3ms,sz=1m,mode=beta,s=hello,x=9"),
			 0);
	assert_int_equal(a.n, -5);
	assert_false(a.flag);
	assert_int_equal(a.t, 1500000);
	assert_int_equal(a.d.kind, SL_DIST_UNIFORM);
	assert_int_equal(a.d.a, 1000000);
	assert_int_equal(a.d.b, 3000000);
	assert_int_equal(a.sz, 1048576);
	assert_int_equal(a.mode, 20);
	assert_string_equal(a.s, "hello");
	assert_int_equal(a.cpus, 0xe); /* the default */
	assert_int_equal(o.x, 9);
	/* a list: its commas are its own, up to the next KEY= (CPUs 0, 2, 4, 5, 6: 0x75) */
	assert_int_equal(parse("cpus=0,2,4-6,n=3"), 0);
	assert_int_equal(a.cpus, 0x75);
	assert_int_equal(a.n, 3);
	assert_int_equal(parse("n=2,cpus=63,0"), 0);
	assert_int_equal(a.cpus, 0x8000000000000001ULL);
	/* CPUs 4..6, then CPU 0 */
	assert_int_equal(parse("cpus=4-6"), 0);
	assert_int_equal(a.cpus, 0x70);
	assert_int_equal(parse("cpus=0"), 0);
	assert_int_equal(a.cpus, 0x1);
	assert_int_equal(parse("t=fixed:40us,d=250ns"), 0);
	assert_int_equal(a.t, 40000);
	assert_int_equal(a.d.kind, SL_DIST_FIXED);
	assert_int_equal(a.d.a, 250);
}

static void test_bounds(void **state)
{
	(void)state;
	assert_int_equal(parse("n=100"), 0);
	assert_int_equal(a.n, 100);
	bad("n=101", "--workload w: n=101 is out of range [-5, 100]");
	bad("n=-6", "--workload w: n=-6 is out of range [-5, 100]");
	bad("n=99999999999999999999",
	    "--workload w: n=99999999999999999999 is out of range [-5, 100]");
	bad("flag=2", "--workload w: flag=2 is out of range [0, 1]");
	bad("x=10", "--workload w: x=10 is out of range [0, 9]");
	assert_int_equal(parse("sz=512"), 0);
	assert_int_equal(a.sz, 512);
	assert_int_equal(parse("sz=1m"), 0);
	bad("sz=1000", "--workload w: sz: must be a multiple of 512");
	bad("sz=0", "--workload w: sz=0 is below 512");
	bad("sz=1025k", "--workload w: sz=1025k is above 1048576");
}

static void test_bad_values(void **state)
{
	(void)state;
	bad("n=x", "--workload w: n: 'x' is not an integer");
	bad("t=exp:1ms", "--workload w: t: expected a fixed duration, not a distribution");
	bad("t=5", "--workload w: t: '5' is not a duration (expected a number and a unit: ns, us, "
		   "ms, s)");
	bad("d=uniform:1ms", "--workload w: d: distribution 'uniform' takes 2 value(s)");
	bad("sz=3q", "--workload w: sz: '3q' is not a size (expected a number with k, m or g: 4k, "
		     "128k, 1m)");
	bad("mode=delta", "--workload w: mode='delta': expected alpha, beta or gamma");
	bad("cpus=64", "--workload w: cpus='64': expected CPUs 0-63 as a list, e.g. 1-15 or 0,2,4");
	bad("cpus=3-1",
	    "--workload w: cpus='3-1': expected CPUs 0-63 as a list, e.g. 1-15 or 0,2,4");
	/* the first bad value in row order is the one reported */
	bad("x=x,n=x", "--workload w: n: 'x' is not an integer");
}

static void test_spec_errors(void **state)
{
	(void)state;
	bad("nn=1", "--workload w: unknown key 'nn'; did you mean 'n'? (valid: n, flag, t, d, sz, "
		    "mode, s, cpus, x)");
	bad("zzzzzz=1",
	    "--workload w: unknown key 'zzzzzz' (valid: n, flag, t, d, sz, mode, s, cpus, x)");
	bad("n=1,n=2", "--workload w: key 'n' given twice");
	bad("x=1,x=1", "--workload w: key 'x' given twice");
	bad("n", "--workload w: 'n' is not KEY=VALUE");
	/* a word without '=' after a key that is not a CPU list */
	bad("n=1,2", "--workload w: '2' is not KEY=VALUE");
	bad("cpus=1,x=1,2", "--workload w: '2' is not KEY=VALUE");
	bad("cpus=1,2-", "--workload w: cpus='1,2-': expected CPUs 0-63 as a list, e.g. 1-15 or "
			 "0,2,4");
	bad("n=", "--workload w: key 'n' needs a value");
	char text[200];

	memset(text, 'u', sizeof(text));
	memcpy(text, "s=", 2);
	text[2 + SL_WL_VALUE_MAX - 1] = '\0'; /* 95 characters: taken */
	assert_int_equal(parse(text), 0);
	assert_int_equal(strlen(a.s), SL_WL_VALUE_MAX - 1);
	text[2 + SL_WL_VALUE_MAX - 1] = 'u';
	text[2 + SL_WL_VALUE_MAX] = '\0'; /* 96 */
	bad(text, "--workload w: key 's': value too long (at most 95 characters)");
	/* the spec is checked whole before a value is converted: the unknown key wins */
	bad("n=x,nn=1", "--workload w: unknown key 'nn'; did you mean 'n'? (valid: n, flag, t, d, "
			"sz, mode, s, cpus, x)");
}

/* Every registered workload's rows (its own and start, uid) fit the parser, with their defaults. */
static void test_registered(void **state)
{
	(void)state;
	for (int i = 0; i < sl_nworkloads; i++) {
		const struct sl_workload_ops *w = sl_workloads[i];

		assert_true(w->nkeys + sl_wl_ncommon_keys <= SL_WL_MAX_KEYS);
		assert_true(w->args_size > 0);
		for (int k = 0; k < w->nkeys; k++) {
			assert_true(w->keys[k].offset < w->args_size);
			assert_non_null(w->keys[k].help);
			assert_non_null(w->keys[k].def);
		}
		/* rt-app and trace need their file= */
		if (!strcmp(w->name, "rt-app") || !strcmp(w->name, "trace"))
			continue;
		struct sl_workload_inst in;

		if (sl_workload_parse(w->name, &in, err, sizeof(err)))
			fail_msg("%s: %s", w->name, err);
		assert_int_equal(in.start, 0);
		assert_int_equal(in.uid, 1000);
		sl_workload_inst_free(&in);
	}
	struct sl_workload_inst in;

	assert_int_equal(sl_workload_parse("hog:uid=0,start=1.5ms", &in, err, sizeof(err)), 0);
	assert_int_equal(in.start, 1500000);
	assert_int_equal(in.uid, 0);
	sl_workload_inst_free(&in);
	assert_int_equal(sl_workload_parse("hog:uid=2147483648", &in, err, sizeof(err)), -1);
	assert_string_equal(err, "--workload hog: uid=2147483648 is out of range [0, 2147483647]");
	/* check(): what a row cannot see */
	assert_int_equal(sl_workload_parse("hog:policy=fifo", &in, err, sizeof(err)), -1);
	assert_string_equal(err, "--workload hog: policy=fifo needs rtprio=1..99");
	assert_int_equal(sl_workload_parse("hog:rtprio=3", &in, err, sizeof(err)), -1);
	assert_string_equal(err,
			    "--workload hog: rtprio=3: only policy=fifo or rr takes a priority "
			    "(rtprio=0)");
	assert_int_equal(sl_workload_parse("hog:policy=rr,rtprio=99", &in, err, sizeof(err)), 0);
	sl_workload_inst_free(&in);
	assert_int_equal(sl_workload_parse("fio:direct=0", &in, err, sizeof(err)), -1);
	assert_string_equal(
		err, "--workload fio: direct=0: buffered I/O (the page cache) is not modelled");
	assert_int_equal(sl_workload_parse("fio:bs=0", &in, err, sizeof(err)), -1);
	assert_string_equal(err, "--workload fio: bs=0 is below 512");
	assert_int_equal(sl_workload_parse("rt-app", &in, err, sizeof(err)), -1);
	assert_string_equal(err,
			    "--workload rt-app: file: give the rt-app JSON file (file=F.json)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),    cmocka_unit_test(test_each_type),
		cmocka_unit_test(test_bounds),	    cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_spec_errors), cmocka_unit_test(test_registered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
