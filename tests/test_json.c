/*
 * The JSON reader of rt-app files (src/core/json.c) and the rt-app description parser on
 * buffers: members kept in order with duplicates, comments and one trailing comma accepted as
 * json-c does, positions of errors (line:column counted by hand in each input), the named
 * limits, and the prefix matching of events.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "workload/rtapp.h"

static void parse_ok(const char *s, struct sl_json_doc *d)
{
	char err[256];

	if (sl_json_parse(s, strlen(s), d, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
}

static void parse_bad(const char *s, size_t len, const char *want)
{
	struct sl_json_doc d;
	char err[256] = "";

	if (!sl_json_parse(s, len, &d, err, sizeof(err))) {
		sl_json_free(&d);
		fail_msg("'%s' accepted", s);
	}
	if (strncmp(err, want, strlen(want)))
		fail_msg("'%s': expected '%s...', got '%s'", s, want, err);
	assert_null(d.nodes);
}

static void test_order_and_duplicates(void **state)
{
	struct sl_json_doc d;
	const struct sl_json *o, *m;
	const char *keys[] = {"run", "sleep", "run", "b"};
	int i = 0;

	(void)state;
	parse_ok("{\"run\": 1, \"sleep\": 2, \"run\": 3, \"b\": [true, null, \"x\\u00e9\"]}", &d);
	o = &d.nodes[0];
	assert_int_equal(o->type, SL_JSON_OBJECT);
	assert_int_equal(o->nchild, 4);
	for (m = sl_json_at(&d, o->first); m; m = sl_json_at(&d, m->next), i++)
		assert_string_equal(m->key, keys[i]);
	assert_int_equal(i, 4);
	/* the repeated key keeps both values, in file order */
	m = sl_json_at(&d, o->first);
	assert_int_equal(m->ival, 1);
	m = sl_json_at(&d, sl_json_at(&d, m->next)->next);
	assert_int_equal(m->ival, 3);
	/* the array: true, null, "xé" (U+00E9 = C3 A9 in UTF-8) */
	m = sl_json_at(&d, m->next);
	assert_int_equal(m->type, SL_JSON_ARRAY);
	assert_true(sl_json_at(&d, m->first)->b);
	assert_int_equal(sl_json_at(&d, sl_json_at(&d, m->first)->next)->type, SL_JSON_NULL);
	assert_string_equal(
		sl_json_at(&d, sl_json_at(&d, sl_json_at(&d, m->first)->next)->next)->str,
		"x\xc3\xa9");
	sl_json_free(&d);
}

static void test_comments_trailing_comma_positions(void **state)
{
	struct sl_json_doc d;
	const struct sl_json *m;

	(void)state;
	/* line 1: {   line 2: a comment   line 3: "a": -5,  // ...   line 4: "b": [1.5e2,],
	 * line 5: } -- "b"'s value (its "[") is at line 4, column 8 (after a tab) */
	parse_ok("{\n/* c\n */ \"a\": -5, // x\n\t\"b\" : [1.5e2,],\n}", &d);
	m = sl_json_at(&d, d.nodes[0].first);
	assert_int_equal(m->line, 3);
	assert_int_equal(m->key_line, 3);
	assert_true(m->is_int);
	assert_int_equal(m->ival, -5);
	m = sl_json_at(&d, m->next);
	assert_int_equal(m->line, 4);
	assert_int_equal(m->col, 8);
	assert_int_equal(m->nchild, 1);
	assert_false(sl_json_at(&d, m->first)->is_int);
	assert_true(sl_json_at(&d, m->first)->num == 150.0);
	sl_json_free(&d);
}

static void test_errors_name_line_and_column(void **state)
{
	(void)state;
	/* line 2 is `"a": 1,,`: the second comma is column 8 */
	parse_bad("{\n\"a\": 1,,\n}", 12, "2:8: expected a member name");
	parse_bad("{\"a\" 1}", 7, "1:6: expected ':' after the member name \"a\"");
	parse_bad("[1 2]", 5, "1:4: expected ',' or ']'");
	parse_bad("{\"a\": 1} x", 10, "1:10: expected the end of the file");
	parse_bad("\n  /* open", 10, "2:3: comment opened here is not closed");
	parse_bad("[\"ab", 4, "1:2: string opened here is not closed");
	parse_bad("[\"a\\q\"]", 7, "1:5: unknown escape \\q");
	parse_bad("[01]", 4, "1:3: expected ',' or ']'");
	parse_bad("[1.]", 4, "1:4: expected a digit after the decimal point");
	parse_bad("['a']", 5, "1:2: expected a value");
	parse_bad("[tru]", 5, "1:2: expected a value");
	parse_bad("[\"\\u0000\"]", 10, "1:9: \\u0000 is not allowed");
	parse_bad("[\"\\udc00\"]", 10, "1:9: lone low surrogate");
	parse_bad("[1,,2]", 6, "1:4: expected a value");
	parse_bad("", 0, "1:1: expected a value, found the end of the file");
	parse_bad("[1]\0", 4, "1:4: NUL byte in the file");
	parse_bad("[\"a\nb\"]", 7, "1:4: control character in a string");
}

static void test_limits(void **state)
{
	size_t n = 2 * (SL_JSON_MAX_DEPTH + 1);
	char *s = malloc(n + SL_JSON_MAX_STRING + 16);
	struct sl_json_doc d;
	char err[256];

	(void)state;
	assert_non_null(s);
	/* 64 nested arrays are accepted, 65 refused at the 65th '[' (column 65) */
	for (int k = 0; k < SL_JSON_MAX_DEPTH; k++) {
		s[k] = '[';
		s[2 * SL_JSON_MAX_DEPTH - 1 - k] = ']';
	}
	assert_int_equal(sl_json_parse(s, 2 * SL_JSON_MAX_DEPTH, &d, err, sizeof(err)), 0);
	sl_json_free(&d);
	for (size_t k = 0; k < n / 2; k++) {
		s[k] = '[';
		s[n - 1 - k] = ']';
	}
	parse_bad(s, n, "1:65: nesting deeper than 64 (limit SL_JSON_MAX_DEPTH)");
	/* a string of SL_JSON_MAX_STRING bytes is refused, from its opening quote */
	s[0] = '"';
	memset(s + 1, 'a', SL_JSON_MAX_STRING);
	s[SL_JSON_MAX_STRING + 1] = '"';
	parse_bad(s, SL_JSON_MAX_STRING + 2, "1:1: string longer than 4096 bytes");
	/* a buffer over SL_JSON_MAX_SIZE is refused before any reading */
	parse_bad(s, (size_t)SL_JSON_MAX_SIZE + 1, "1:1: file larger than");
	free(s);
}

static int rta(const char *text, struct rta_file *f, char *err, size_t errlen)
{
	return sl_rta_parse("t.json", text, strlen(text), f, err, errlen);
}

static void test_rtapp_prefix_and_thread_loop(void **state)
{
	struct rta_file f;
	char err[256];

	(void)state;
	/* runtime1 is a runtime (tried before "run"), run2 a run, sleep9 a sleep; a thread
	 * without phases: its loop (3) is the phase's and the thread repeats for ever */
	if (rta("{\"tasks\": {\"a\": {\"loop\": 3, \"runtime1\": 5, \"run2\": 6, \"run2\": 7, "
		"\"sleep9\": 8}}}",
		&f, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(f.ntasks, 1);
	assert_int_equal(f.tasks[0].loop, -1);
	assert_int_equal(f.tasks[0].nph, 1);
	assert_int_equal(f.tasks[0].ph[0].loop, 3);
	assert_int_equal(f.tasks[0].ph[0].nev, 4);
	assert_int_equal(f.tasks[0].ph[0].ev[0].kind, RTA_RUNTIME);
	assert_int_equal(f.tasks[0].ph[0].ev[1].kind, RTA_RUN);
	assert_int_equal(f.tasks[0].ph[0].ev[2].val, 7);
	assert_int_equal(f.tasks[0].ph[0].ev[3].kind, RTA_SLEEP);
	assert_int_equal(f.duration_s, -1);
	sl_rta_free(&f);
}

static void test_rtapp_resources_and_barrier_users(void **state)
{
	struct rta_file f;
	char err[256];

	(void)state;
	/* two instances of "a" and one "b" reach barrier "x": 3 users; "unique" timers */
	if (rta("{\"tasks\": {\"a\": {\"instance\": 2, \"barrier\": \"x\", \"timer\": {\"ref\": "
		"\"uniqueA\", \"period\": 10}}, \"b\": {\"barrier\": \"x\", \"lock\": \"m\", "
		"\"wait\": {\"ref\": \"c\", \"mutex\": \"m\"}, \"fork\": \"a\"}}, \"global\": "
		"{\"duration\": 5, \"calibration\": 70}}",
		&f, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(f.barriers.n, 1);
	assert_int_equal(f.barrier_users[0], 3);
	assert_true(f.tasks[0].ph[0].ev[1].unique);
	assert_true(f.tasks[0].ph[0].ev[1].relative);
	assert_int_equal(f.mutexes.n, 1);
	assert_int_equal(f.conds.n, 1);
	assert_int_equal(f.tasks[1].ph[0].ev[3].ref, 0); /* fork "a": task 0 */
	assert_int_equal(f.duration_s, 5);
	assert_int_equal(f.ns_per_loop, 70);
	sl_rta_free(&f);
}

static void test_rtapp_refusals(void **state)
{
	struct rta_file f;
	char err[256];

	(void)state;
	assert_int_equal(rta("{\"tasks\": {\"a\": {\n\"run\": 1,\n\"phases\": {\"p\": {\"run\": "
			     "1}}}}}",
			     &f, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "t.json:3: task \"a\": events beside \"phases\": put them in a "
				 "phase");
	assert_int_equal(rta("{\"tasks\": {\"a\": {\"run\": 1}, \"a\": {\"run\": 2}}}", &f, err,
			     sizeof(err)),
			 -1);
	assert_string_equal(err, "t.json:1: task \"a\" defined twice");
	assert_int_equal(rta("{\"global\": {\"default_policy\": \"SCHED_RR\"},\n\"tasks\": {\"a\": "
			     "{\"priority\": 0, \"run\": 1}}}",
			     &f, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "t.json:2: task \"a\": priority 0: SCHED_RR takes 1..99");
	assert_int_equal(rta("{\"tasks\": {\"a\": {\"resume\": \"\"}}}", &f, err, sizeof(err)), -1);
	assert_string_equal(err, "t.json:1: \"resume\": expected a name, found \"\"");
}

/*
 * workgen's check_suspend_json, by hand on the video examples' shapes: inside "tasks" a line
 * without ':' holding "suspend" gets ` : "TASK"` before its first ',' (line 4: task "sf"), or
 * before its newline when it has none (line 8: the phase p of task "disp"; the task is the key
 * of the line that opened the second brace level, not the phase). Outside "tasks" (line 1, a
 * comment without a colon) nothing changes, nor does a line with a ':' (line 9).
 */
static void test_rtapp_workgen_bare_suspend(void **state)
{
	const char *in = "{ /* suspend, x */\n"
			 "\"tasks\" : {\n"
			 "\t\"sf\" : {\n"
			 "\t\t\"suspend\",\n"
			 "\t\t\"run\" : 15 },\n"
			 "\t\"disp\" : {\n"
			 "\t\t\"phases\" : { \"p\" : {\n"
			 "\t\t\t\"suspend\"\n"
			 "\t\t\t, \"resume\" : \"sf\" } }\n"
			 "}}}\n";
	const char *want = "{ /* suspend, x */\n"
			   "\"tasks\" : {\n"
			   "\t\"sf\" : {\n"
			   "\t\t\"suspend\" : \"sf\",\n"
			   "\t\t\"run\" : 15 },\n"
			   "\t\"disp\" : {\n"
			   "\t\t\"phases\" : { \"p\" : {\n"
			   "\t\t\t\"suspend\" : \"disp\"\n"
			   "\t\t\t, \"resume\" : \"sf\" } }\n"
			   "}}}\n";
	struct rta_file f;
	char err[256], *out;
	size_t n;

	(void)state;
	out = sl_rta_workgen(in, strlen(in), &n);
	assert_non_null(out);
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
	free(out);
	/* parsed: sf suspends on its own condition, disp on its own; disp resumes sf's */
	if (rta(in, &f, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(f.tasks[0].ph[0].ev[0].kind, RTA_SUSPEND);
	assert_int_equal(f.tasks[1].ph[0].ev[0].kind, RTA_SUSPEND);
	assert_int_equal(f.tasks[1].ph[0].ev[1].kind, RTA_RESUME);
	assert_int_equal(f.tasks[1].ph[0].ev[1].ref, f.tasks[0].ph[0].ev[0].ref);
	assert_int_not_equal(f.tasks[1].ph[0].ev[0].ref, f.tasks[0].ph[0].ev[0].ref);
	assert_int_equal(f.conds.n, 2);
	sl_rta_free(&f);
	/* a bare key other than suspend is still invalid JSON, named by line */
	assert_int_equal(
		rta("{\"tasks\": {\"a\": {\n\"yield\",\n\"run\": 1}}}", &f, err, sizeof(err)), -1);
	assert_string_equal(err, "t.json:2:8: expected ':' after the member name \"yield\"");
}

/*
 * An rt-app run as rt-app 1.0's loadwait() executes it (sl_rta_run_cost), by hand: with rt-app's
 * calibrated 9 ns per loop, 5000 us are 5000*1000/9 = 555555 loops (integer division); at
 * rtapp_kloop = 10240 ns per 1000 loops they take 555555*10240/1000 = 5688883 ns, plus
 * rtapp_cold 1500 ns: 5690383 ns. 2.5 s: 2 whole seconds of 10^9/9 = 111111111 loops each and
 * 500000*1000/9 = 55555555 more: 277777777 loops, 2844444436 ns + 1500. A file's integer
 * calibration (10 ns) overrides rtapp_calib: 1000 us = 100000 loops = 1024000 + 1500 ns. The sd
 * scales by the loops: 100 ns per 1000 loops x 555555 loops = 55555 ns. Off (rtapp_kloop 0):
 * exactly N us.
 */
static void test_rtapp_run_cost(void **state)
{
	struct sl_params p;
	struct sl_dist d;

	(void)state;
	sl_params_default(&p);
	d = sl_rta_run_cost(&p, 0, 5000);
	assert_int_equal(d.kind, SL_DIST_FIXED);
	assert_int_equal(d.a, 5000000);
	p.rtapp_calib_ns = 9;
	p.rtapp_kloop_ns = 10240;
	p.rtapp_cold_ns = 1500;
	d = sl_rta_run_cost(&p, 0, 5000);
	assert_int_equal(d.kind, SL_DIST_FIXED);
	assert_int_equal(d.a, 5690383);
	assert_int_equal(sl_rta_run_cost(&p, 0, 2500000).a, 2844445936ULL);
	assert_int_equal(sl_rta_run_cost(&p, 10, 1000).a, 1025500);
	p.rtapp_kloop_sd_ns = 100;
	d = sl_rta_run_cost(&p, 0, 5000);
	assert_int_equal(d.kind, SL_DIST_NORMAL);
	assert_int_equal(d.a, 5690383);
	assert_int_equal(d.b, 55555);
	/* no calibration known (a CPU name, rtapp_calib 0): exact, as before */
	p.rtapp_calib_ns = 0;
	assert_int_equal(sl_rta_run_cost(&p, 0, 5000).a, 5000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_duplicates),
		cmocka_unit_test(test_comments_trailing_comma_positions),
		cmocka_unit_test(test_errors_name_line_and_column),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_rtapp_prefix_and_thread_loop),
		cmocka_unit_test(test_rtapp_resources_and_barrier_users),
		cmocka_unit_test(test_rtapp_refusals),
		cmocka_unit_test(test_rtapp_workgen_bare_suspend),
		cmocka_unit_test(test_rtapp_run_cost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
