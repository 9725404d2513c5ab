/*
 * The trace-format registry (src/trace/registry.c): readers by name and by probe, writers by
 * name and by extension, the generic reader handing the probed head to the reader, and the
 * event stream of a reader (next_event).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "trace/format.h"
#include "trace/registry.h"
#include "tmpdir.h"

static void test_lookup(void **state)
{
	const struct sl_trace_reader_ops *ftrace = sl_trace_reader_by_name("ftrace-text");
	const struct sl_trace_writer_ops *text = sl_trace_writer_by_name("ftrace-text");
	const struct sl_trace_writer_ops *json = sl_trace_writer_by_name("chrome-json");

	(void)state;
	assert_non_null(ftrace);
	assert_ptr_equal(sl_trace_reader_nth(0), ftrace);
	assert_null(sl_trace_reader_nth(-1));
	assert_null(sl_trace_reader_by_name("perfetto"));
	assert_non_null(text);
	assert_non_null(json);
	assert_null(sl_trace_writer_by_name("nope"));
	assert_ptr_equal(sl_trace_writer_nth(0), text);
	for (int i = 0; sl_trace_writer_nth(i); i++)
		assert_non_null(sl_trace_writer_nth(i)->write_event);

	/* by extension: .json is Chrome JSON; anything else (and ".json" alone) ftrace text */
	assert_ptr_equal(sl_trace_writer_for_path("run.json"), json);
	assert_ptr_equal(sl_trace_writer_for_path("/tmp/a.b/x.json"), json);
	assert_ptr_equal(sl_trace_writer_for_path(".json"), text);
	assert_ptr_equal(sl_trace_writer_for_path("x.JSON"), text);
	assert_ptr_equal(sl_trace_writer_for_path("t.txt"), text);
	assert_ptr_equal(sl_trace_writer_for_path("trace"), text);
}

static void test_probe(void **state)
{
	const struct sl_trace_reader_ops *ftrace = sl_trace_reader_by_name("ftrace-text");
	static const char *const claimed[] = {
		"# tracer: nop\n",
		"\n  \ncpus=4\n",
		"          <idle>-0       [001] d..2.  4522.340187: cpu_idle: state=1 cpu_id=1\n",
		"\3757zXZ\0\0", /* xz: FD "7zXZ" 00 */
		"\x1f\x8b\x08",
	};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(claimed); i++) {
		const unsigned char *h = (const unsigned char *)claimed[i];
		size_t n = i == 3 ? 7 : strlen(claimed[i]);

		assert_true(ftrace->probe(h, n));
		assert_ptr_equal(sl_trace_reader_probe(h, n), ftrace);
	}
	assert_false(ftrace->probe((const unsigned char *)"{\"traceEvents\":[", 16));
	assert_false(ftrace->probe((const unsigned char *)"", 0));
	/* what no probe claims goes to the first reader, whose errors name the line */
	assert_ptr_equal(sl_trace_reader_probe((const unsigned char *)"garbage\n", 8), ftrace);
}

/* A reader of its own, to see what the generic layer hands over. */
static size_t got_len;
static unsigned char got_head[SL_TRACE_PROBE_LEN];
static long got_rest;

static bool fake_probe(const unsigned char *head, size_t len)
{
	return len > 0 && head[0] == '!';
}

static int fake_open(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len)
{
	(void)r;
	got_len = len;
	memcpy(got_head, head, len);
	got_rest = 0;
	while (fgetc(f) != EOF)
		got_rest++;
	return 0;
}

static int fake_next(struct sl_trace_reader *r, struct sl_trace_record *out)
{
	(void)r;
	(void)out;
	return 0;
}

static int fake_next_event(struct sl_trace_reader *r, struct sl_event *ev)
{
	(void)r;
	(void)ev;
	return 0;
}

static void fake_close(struct sl_trace_reader *r)
{
	(void)r;
}

static const struct sl_trace_reader_ops fake = {
	.name = "fake",
	.probe = fake_probe,
	.open = fake_open,
	.next = fake_next,
	.next_event = fake_next_event,
	.close = fake_close,
};

static void test_head_handed_over(void **state)
{
	static char text[SL_TRACE_PROBE_LEN + 100];
	struct sl_trace_reader r;
	struct sl_event ev;
	char err[512];

	(void)state;
	memset(text, 'x', sizeof(text));
	text[0] = '!';
	tmpdir_write("fake", text, sizeof(text));
	assert_int_equal(sl_trace_open(&r, &fake, tmpdir_path("fake"), false, err, sizeof(err)), 0);
	assert_int_equal(got_len, SL_TRACE_PROBE_LEN);
	assert_memory_equal(got_head, text, SL_TRACE_PROBE_LEN);
	assert_int_equal(got_rest, 100);
	assert_int_equal(sl_trace_next_event(&r, &ev), 0);
	sl_trace_close(&r);

	/* a short input: all of it in the head */
	tmpdir_write("short", text, 10);
	assert_int_equal(sl_trace_open(&r, &fake, tmpdir_path("short"), false, err, sizeof(err)),
			 0);
	assert_int_equal(got_len, 10);
	assert_int_equal(got_rest, 0);
	sl_trace_close(&r);

	assert_int_equal(sl_trace_open(&r, &fake, tmpdir_path("none"), false, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "none: No such file or directory"));
}

static void test_next_event(void **state)
{
	static const char text[] =
		"# tracer: nop\n"
		"            bash-2159  [001] d..3.  100.000001: sched_switch: prev_comm=bash "
		"prev_pid=2159 prev_prio=120 prev_state=S ==> next_comm=cat next_pid=2161 "
		"next_prio=120\n"
		"             cat-2161  [001] d..3.  100.000002: hrtimer_cancel: "
		"hrtimer=00000000aa\n"
		"             cat-2161  [001] d..3.  100.000003: sched_wakeup: comm=bash pid=2159 "
		"prio=120 target_cpu=002\n";
	struct sl_trace_reader r;
	struct sl_event ev;
	char err[512];

	(void)state;
	tmpdir_write("ev.trace", text, strlen(text));
	assert_int_equal(sl_trace_open(&r, NULL, tmpdir_path("ev.trace"), false, err, sizeof(err)),
			 0);
	assert_string_equal(r.ops->name, "ftrace-text");
	assert_int_equal(sl_trace_next_event(&r, &ev), 1);
	assert_int_equal(ev.type, SL_EV_SWITCH);
	assert_int_equal(ev.pid, 2159);
	assert_int_equal(ev.next_pid, 2161);
	assert_int_equal(ev.prev_state, 'S');
	assert_int_equal(ev.time, 100000001000ULL);
	/* the hrtimer record has no event-stream meaning: skipped */
	assert_int_equal(sl_trace_next_event(&r, &ev), 1);
	assert_int_equal(ev.type, SL_EV_WAKEUP);
	assert_int_equal(ev.pid, 2159);
	assert_int_equal(ev.cpu, 2);
	assert_int_equal(sl_trace_next_event(&r, &ev), 0);
	assert_int_equal(r.records, 3);
	sl_trace_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_head_handed_over),
		cmocka_unit_test(test_next_event),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
