/*
 * The trace-format registry (src/trace/registry.c): readers by name and by probe (most specific
 * first, then the fallback), writers by name and by extension, the generic reader handing the
 * probed head and the input to the reader, a file of each format plain, xz and gzip through
 * sl_trace_open (src/trace/input.c under them all), and the event stream of a reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <lzma.h>
#include <zlib.h>

#include "trace/format.h"
#include "trace/input.h"
#include "trace/registry.h"
#include "tmpdir.h"

static void test_lookup(void **state)
{
	const struct sl_trace_reader_ops *ftrace = sl_trace_reader_by_name("ftrace-text");
	const struct sl_trace_writer_ops *text = sl_trace_writer_by_name("ftrace-text");
	const struct sl_trace_writer_ops *json = sl_trace_writer_by_name("chrome-json");

	(void)state;
	assert_non_null(ftrace);
	/* the probe order, most specific first; ftrace text also the fallback */
	assert_string_equal(sl_trace_reader_nth(0)->name, "trace-dat");
	assert_string_equal(sl_trace_reader_nth(1)->name, "idlestat");
	assert_ptr_equal(sl_trace_reader_nth(2), ftrace);
	assert_null(sl_trace_reader_nth(3));
	assert_ptr_equal(sl_trace_reader_fallback(), ftrace);
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
	};
	const struct sl_trace_reader_ops *dat = sl_trace_reader_by_name("trace-dat");
	const struct sl_trace_reader_ops *idle = sl_trace_reader_by_name("idlestat");
	/* a first line that ftrace text's probe claims too (" [0]" after "-1"): the more
	 * specific magic must win, so idlestat is probed first */
	static const char both[] = "idlestat version = x-1 [0]\n";

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(claimed); i++) {
		const unsigned char *h = (const unsigned char *)claimed[i];
		size_t n = strlen(claimed[i]);

		assert_true(ftrace->probe(h, n));
		assert_ptr_equal(sl_trace_reader_probe(h, n), ftrace);
	}
	assert_false(ftrace->probe((const unsigned char *)"{\"traceEvents\":[", 16));
	assert_false(ftrace->probe((const unsigned char *)"", 0));
	assert_true(ftrace->probe((const unsigned char *)both, strlen(both)));
	assert_true(idle->probe((const unsigned char *)both, strlen(both)));
	assert_ptr_equal(sl_trace_reader_probe((const unsigned char *)both, strlen(both)), idle);
	assert_ptr_equal(sl_trace_reader_probe((const unsigned char *)"\x17\x08"
								      "Dtracing6",
					       11),
			 dat);
	/* one byte short of each magic: not claimed */
	assert_false(dat->probe((const unsigned char *)"\x17\x08"
						       "Dtracin",
				9));
	assert_false(idle->probe((const unsigned char *)"idlestat version =", 18));
	/* what no probe claims goes to the fallback, whose errors name the line */
	assert_ptr_equal(sl_trace_reader_probe((const unsigned char *)"garbage\n", 8), ftrace);
	assert_ptr_equal(sl_trace_reader_probe((const unsigned char *)"", 0), ftrace);
	/* the probes see text: compressed bytes are the input layer's, not a format */
	assert_ptr_equal(sl_trace_reader_probe((const unsigned char *)"\3757zXZ\0\0", 7), ftrace);
	assert_false(ftrace->probe((const unsigned char *)"\3757zXZ\0\0", 7));
}

/* ---- a file of each format, plain, xz and gzip, through sl_trace_open ---- */

enum comp { PLAIN, XZ, GZ };

/* text compressed as `xz` or `gzip` would, into tmpdir/name */
static void write_as(const char *name, const char *text, size_t n, enum comp c)
{
	static unsigned char out[1 << 16];
	size_t len = 0;

	if (c == PLAIN) {
		tmpdir_write(name, text, n);
		return;
	}
	if (c == XZ) {
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
							 (const uint8_t *)text, n, out, &len,
							 sizeof(out)),
				 LZMA_OK);
	} else {
		z_stream z;

		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
				 Z_OK);
		z.next_in = (unsigned char *)text;
		z.avail_in = (uInt)n;
		z.next_out = out;
		z.avail_out = sizeof(out);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		len = sizeof(out) - z.avail_out;
		deflateEnd(&z);
	}
	tmpdir_write(name, out, len);
}

static const char ftrace_text[] =
	"# tracer: nop\n"
	"          <idle>-0       [001] d..2.  4522.340187: cpu_idle: state=1 cpu_id=1\n";

/* idlestat 0.8's header for one CPU of 16 C-states, then one ftrace line */
static size_t idlestat_text(char *buf, size_t cap)
{
	size_t n = (size_t)snprintf(buf, cap,
				    "idlestat version = 0.8\ncpus=1\nclusterA:\n\tcpu0\n"
				    "cpuid 0:\n");

	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(buf + n, cap - n, "\tC%d\n\t%d\n", i, i * 10);
	n += (size_t)snprintf(buf + n, cap - n,
			      "          <idle>-0       [000] d..2.  4522.340187: cpu_idle: "
			      "state=1 cpu_id=0\n");
	return n;
}

static void test_each_format_each_compression(void **state)
{
	static const char *const ext[] = {"", ".xz", ".gz"};
	char idle[2048], name[64], err[512];
	size_t nidle = idlestat_text(idle, sizeof(idle));
	/* a trace.dat's magic and a version libtracecmd does not read: the dat reader's own
	 * error (its header check, or without libtracecmd its refusal) shows it was chosen */
	static const char dat[] = "\x17\x08"
				  "Dtracing9\0\0\x08\0\x10\0\0";
	struct sl_trace_reader r;
	struct sl_trace_record rec;

	(void)state;
	for (int c = PLAIN; c <= GZ; c++) {
		snprintf(name, sizeof(name), "f.trace%s", ext[c]);
		write_as(name, ftrace_text, strlen(ftrace_text), (enum comp)c);
		assert_int_equal(
			sl_trace_open(&r, NULL, tmpdir_path(name), false, err, sizeof(err)), 0);
		assert_string_equal(r.ops->name, "ftrace-text");
		assert_int_equal(sl_trace_next(&r, &rec), 1);
		assert_int_equal(rec.kind, SL_TR_CPU_IDLE);
		assert_int_equal(rec.line, 2);
		assert_int_equal(sl_trace_next(&r, &rec), 0);
		sl_trace_close(&r);

		snprintf(name, sizeof(name), "i.idlestat%s", ext[c]);
		write_as(name, idle, nidle, (enum comp)c);
		assert_int_equal(
			sl_trace_open(&r, NULL, tmpdir_path(name), false, err, sizeof(err)), 0);
		assert_string_equal(r.ops->name, "idlestat");
		assert_int_equal(r.cstates_ncpu, 1);
		assert_int_equal(r.cstates[0].target_us[3], 30);
		assert_int_equal(sl_trace_next(&r, &rec), 1);
		assert_int_equal(rec.line, 38); /* 5 lines, 32 of C-states, then the event */
		sl_trace_close(&r);

		snprintf(name, sizeof(name), "d.dat%s", ext[c]);
		write_as(name, dat, sizeof(dat) - 1, (enum comp)c);
		assert_int_equal(
			sl_trace_open(&r, NULL, tmpdir_path(name), false, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "trace.dat"));
		assert_non_null(strstr(err, name));
	}
}

/* An input no probe claims, plain or compressed: the fallback's error names the file and line. */
static void test_unknown_falls_back(void **state)
{
	static const char *const ext[] = {"", ".xz", ".gz"};
	char name[64], err[512], want[600];
	struct sl_trace_reader r;
	struct sl_trace_record rec;

	(void)state;
	for (int c = PLAIN; c <= GZ; c++) {
		snprintf(name, sizeof(name), "u.bin%s", ext[c]);
		write_as(name, "garbage\n", 8, (enum comp)c);
		assert_int_equal(
			sl_trace_open(&r, NULL, tmpdir_path(name), false, err, sizeof(err)), 0);
		assert_ptr_equal(r.ops, sl_trace_reader_fallback());
		assert_int_equal(sl_trace_next(&r, &rec), -1);
		snprintf(want, sizeof(want),
			 "%s:1: malformed line: expected comm-pid [cpu]: \"garbage\"",
			 tmpdir_path(name));
		assert_string_equal(r.err, want);
		sl_trace_close(&r);
	}
	/* zstd, which this build does not decompress: refused by name, not read as a text */
	tmpdir_write("z.zst", "\x28\xb5\x2f\xfd\x04\x58\x41\0", 8);
	assert_int_equal(sl_trace_open(&r, NULL, tmpdir_path("z.zst"), false, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "z.zst: zstd-compressed"));
}

/* A reader of its own, to see what the generic layer hands over. */
static size_t got_len;
static unsigned char got_head[SL_TRACE_PROBE_LEN];
static long got_rest;

static bool fake_probe(const unsigned char *head, size_t len)
{
	return len > 0 && head[0] == '!';
}

static int fake_open(struct sl_trace_reader *r, const unsigned char *head, size_t len)
{
	char buf[64];
	long k;

	got_len = len;
	memcpy(got_head, head, len);
	/* the input from its beginning: the head again, then the rest */
	got_rest = 0;
	while ((k = sl_trace_read(r, buf, sizeof(buf))) > 0)
		got_rest += k;
	got_rest -= (long)len;
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
		cmocka_unit_test(test_each_format_each_compression),
		cmocka_unit_test(test_unknown_falls_back),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
