/*
 * The ftrace text reader on bad input: each malformed line is refused with "FILE:LINE: malformed
 * line: expected WHAT" naming the field it expected (docs/traces.md: a malformed line is an
 * error naming the file and line); broken compressed data is an error, never a silent end of
 * input; and the field forms tests/test_trace_read.c leaves out (upper-case hex, negative numbers,
 * CRLF, an explicit success=, several gzip members) read right.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/format.h"
#include "tmpdir.h"

/* Reads the file strictly; returns the records read, or -1 with r->err set. */
static int read_path(const char *path, struct sl_trace_record *o, int n, struct sl_trace_reader *r)
{
	char err[512];
	struct sl_trace_record tmp;
	int k = 0, rc;

	assert_int_equal(sl_trace_open(r, NULL, path, false, err, sizeof(err)), 0);
	while ((rc = sl_trace_next(r, k < n ? &o[k] : &tmp)) == 1)
		k++;
	sl_trace_close(r);
	return rc < 0 ? -1 : k;
}

static int read_text(const char *text, struct sl_trace_record *o, int n, struct sl_trace_reader *r)
{
	return read_path(tmpdir_write("t.trace", text, strlen(text)), o, n, r);
}

#define P "  <idle>-0 [000] d..1. 1.000008: "

/* One line each; the message names line 1 and what the reader expected there. */
static void test_each_malformed_line_says_what_was_expected(void **state)
{
	static const struct {
		const char *line, *what;
	} cases[] = {
		{"x [000] d..1. 1.000008: cpu_idle: state=1 cpu_id=0",
		 "expected comm-pid before [cpu]"},
		{"  a-1 [000] d..1.xxxxxx 1.000008: cpu_idle: state=1 cpu_id=0",
		 "expected the flags column or a timestamp"},
		{"  a-1 [000] d..1. 1: cpu_idle: state=1 cpu_id=0",
		 "expected a timestamp (seconds.fraction:)"},
		{"  a-1 [000] d..1. 1.5 cpu_idle: state=1 cpu_id=0",
		 "expected a timestamp (seconds.fraction:)"},
		{"  a-1 [000] d..1. 1.000008: cpu_idle state=1",
		 "expected an event name followed by ':'"},
		{P "sched_switch: task bash:2159 [120] (S ==> swapper:0 [120]", "expected )"},
		{P "sched_switch: task bash [120] (S) ==> swapper:0 [120]", "expected comm:pid"},
		{P "sched_switch: task bash:2159 (S)", "expected comm:pid [prio]"},
		{P "sched_switch: task bash:2159 [120] S", "expected  ("},
		{P "sched_wakeup: comm=a pid=1 prio=120 success=x target_cpu=001",
		 "expected a number"},
		{P "sched_wakeup: comm=a pid=1", "expected a space"},
		{P "sched_wakeup: comm=a", "expected pid="},
		{P "cpu_idle_miss: cpu_id=0 state=2 typ=below", "expected type="},
		{P "hrtimer_cancel: hrtimer=0xzz", "expected a hex number"},
		{P "block_rq_issue: 8 R 4096 () 100 + 8 [dd]", "expected ,"},
		{P "block_rq_issue: 8,0 ", "expected rwbs"},
		{P "block_rq_issue: 8,0 R x () 100 + 8 [dd]", "expected a number"},
		{P "block_rq_complete: 8,0 R 100 + 8 [0]", "expected ("},
		{P "block_rq_complete: 8,0 R (100 + 8 [0]", "expected )"},
		{P "block_rq_complete: 8,0 R () x + 8 [0]", "expected a number"},
		/* issue 30: a negative pid, a prev_state of no kernel's letters */
		{P "sched_wakeup: comm=a b pid=-1 prio=120 success=0 target_cpu=003",
		 "expected a pid from 0 to 4194304"},
		{P "sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=ZZZZ ==> "
		   "next_comm=b next_pid=2 next_prio=120",
		 "expected a prev_state of the kernel's letters (one of RSDTtXZPIKWNxp, several "
		 "joined by |, then + when preempted)"},
	};
	struct sl_trace_record o[2];
	struct sl_trace_reader r;
	char text[512], want[700];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "%s\n", cases[i].line);
		if (read_text(text, o, 2, &r) != -1)
			fail_msg("accepted: %s", cases[i].line);
		snprintf(want, sizeof(want), "%s:1: malformed line: %s: \"", tmpdir_path("t.trace"),
			 cases[i].what);
		if (!strstr(r.err, want))
			fail_msg("line '%s': message '%s', expected '%s'", cases[i].line, r.err,
				 want);
	}
}

/* Upper-case hex, pid 0, an explicit success=, a CRLF line end, the 2.6.3x wake-up. */
static void test_field_forms(void **state)
{
	static const char text[] =
		P "hrtimer_start: hrtimer=0xFFFF8880ABCD function=tick_sched_timer expires=5 "
		  "softexpires=4\r\n" P "sched_wakeup: comm=a b pid=0 prio=120 success=0 "
		  "target_cpu=003\n" P "sched_wakeup: task bash:21 [120] success=1 [002]\n" P
		  "block_rq_complete: 8,0 R () 100 + 8 [-5]\n";
	struct sl_trace_record o[4];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_text(text, o, 4, &r), 4);
	assert_int_equal(o[0].kind, SL_TR_HRTIMER_START);
	assert_int_equal(o[0].hrtimer, 0xFFFF8880ABCDULL);
	assert_int_equal(o[0].expires, 5);
	assert_int_equal(o[0].softexpires, 4); /* the \r is not part of the number */
	assert_string_equal(o[0].str, "tick_sched_timer");
	assert_string_equal(o[1].task_comm, "a b");
	assert_int_equal(o[1].task_pid, 0);
	assert_int_equal(o[1].success, 0);
	assert_int_equal(o[1].target_cpu, 3);
	assert_string_equal(o[2].task_comm, "bash");
	assert_int_equal(o[2].task_pid, 21);
	assert_int_equal(o[2].success, 1);
	assert_int_equal(o[2].target_cpu, 2);
	assert_int_equal(o[3].sector, 100);
	assert_int_equal(o[3].nr_sectors, 8);
	assert_int_equal(o[3].error, -5);
}

/* More than SL_TRACE_MAX_UNKNOWN distinct unknown events: the rest are counted together. */
static void test_unknown_beyond_the_table(void **state)
{
	static char text[200 * 80];
	size_t off = 0;
	struct sl_trace_reader r;
	struct sl_trace_record o;

	(void)state;
	for (int i = 0; i < SL_TRACE_MAX_UNKNOWN + 6; i++)
		off += (size_t)snprintf(text + off, sizeof(text) - off,
					"  a-1 [000] .... 1.%06d: ev_%d: x\n", i, i);
	assert_int_equal(read_text(text, &o, 1, &r), 0);
	assert_int_equal(r.unknown, SL_TRACE_MAX_UNKNOWN + 6);
	assert_int_equal(r.nunknown, SL_TRACE_MAX_UNKNOWN);
	assert_int_equal(r.unknown_other, 6);
	assert_string_equal(r.unknown_ev[0].name, "ev_0");
	assert_int_equal(r.unknown_ev[0].count, 1);
}

static const char two_lines[] = P "cpu_idle: state=1 cpu_id=0\n" P "cpu_idle: state=4294967295 "
				  "cpu_id=0\n";

static size_t gzip_member(unsigned char *out, size_t cap, const char *text)
{
	z_stream z;
	unsigned char in[512];
	size_t len = strlen(text);

	assert_true(len < sizeof(in));
	memcpy(in, text, len + 1); /* zlib's next_in is not const */
	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = in;
	z.avail_in = (unsigned)len;
	z.next_out = out;
	z.avail_out = (unsigned)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	size_t n = cap - z.avail_out;

	deflateEnd(&z);
	return n;
}

/* Two gzip members one after the other (`cat a.gz b.gz`) read as one text. */
static void test_gzip_members(void **state)
{
	unsigned char buf[1024];
	struct sl_trace_record o[4];
	struct sl_trace_reader r;
	size_t n = gzip_member(buf, sizeof(buf), two_lines);

	(void)state;
	n += gzip_member(buf + n, sizeof(buf) - n, two_lines);
	assert_int_equal(read_path(tmpdir_write("m.gz", buf, n), o, 4, &r), 4);
	assert_int_equal(o[3].state, -1);
}

/* A gzip file cut short, or with its data overwritten, is an error naming the file. */
static void test_gzip_broken(void **state)
{
	unsigned char buf[1024];
	struct sl_trace_record o[4];
	struct sl_trace_reader r;
	size_t n = gzip_member(buf, sizeof(buf), two_lines);
	char want[600];

	(void)state;
	assert_int_equal(read_path(tmpdir_write("cut.gz", buf, n / 2), o, 4, &r), -1);
	snprintf(want, sizeof(want), "%s: truncated gzip data", tmpdir_path("cut.gz"));
	assert_string_equal(r.err, want);
	memset(buf + 10, 0xff, n - 10);
	assert_int_equal(read_path(tmpdir_write("bad.gz", buf, n), o, 4, &r), -1);
	assert_non_null(strstr(r.err, "bad.gz: gzip decompression failed (zlib error"));
}

/* The same for xz: cut short, or with a damaged stream footer. */
static void test_xz_broken(void **state)
{
	uint8_t buf[1024];
	size_t n = 0;
	struct sl_trace_record o[4];
	struct sl_trace_reader r;
	char want[600];

	(void)state;
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
						 (const uint8_t *)two_lines, strlen(two_lines), buf,
						 &n, sizeof(buf)),
			 LZMA_OK);
	assert_int_equal(read_path(tmpdir_write("ok.xz", buf, n), o, 4, &r), 2);
	assert_int_equal(read_path(tmpdir_write("cut.xz", buf, n / 2), o, 4, &r), -1);
	snprintf(want, sizeof(want), "%s: truncated xz data", tmpdir_path("cut.xz"));
	assert_string_equal(r.err, want);
	/* the stream footer's magic bytes "YZ" */
	buf[n - 2] ^= 0xff;
	assert_int_equal(read_path(tmpdir_write("bad.xz", buf, n), o, 4, &r), -1);
	assert_non_null(strstr(r.err, "bad.xz: xz decompression failed (lzma error"));
}

/*
 * An xz file cut where the decoder's output reaches a multiple of 8 KiB: the decoder thread asks
 * liblzma for 8 KiB at a time (src/trace/input.c, XZ_CHUNK), so a piece filled just as the input
 * ran out is followed by a call that decodes nothing, and the next read's call, at the end of
 * the input, is a second such call in a row, which liblzma answers with LZMA_BUF_ERROR. The
 * message must still be the cut's. Found by decoding the file a byte at a time: out[L] is the
 * text decoded from its first L bytes; the reader decodes its probed head (SL_TRACE_PROBE_LEN
 * bytes) in one block and the rest of a short file in the next, whose pieces start at
 * out[SL_TRACE_PROBE_LEN].
 */
static void test_xz_cut_at_a_piece(void **state)
{
	enum { LINES = 12000, CUT_MAX = 30000 };
	char *text = malloc((size_t)LINES * 64), *e = text;
	uint8_t *buf, *dec = malloc(1 << 20);
	size_t n = 0, *out = calloc(CUT_MAX + 1, sizeof(*out));
	lzma_stream z = LZMA_STREAM_INIT;
	unsigned x = 1;
	int cuts = 0;

	(void)state;
	assert_non_null(text);
	assert_non_null(dec);
	assert_non_null(out);
	/* lines of varying numbers: the text comes out a few bytes at a time, not in long repeats
	 * that would step over the multiples of 8 KiB */
	for (int i = 0; i < LINES; i++) {
		x = x * 1103515245u + 12345u;
		e += sprintf(e, P "cpu_idle: state=%u cpu_id=%u\n", (x >> 8) % 100000,
			     (x >> 24) % 8);
	}
	buf = malloc((size_t)(e - text));
	assert_non_null(buf);
	assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (const uint8_t *)text,
						 (size_t)(e - text), buf, &n, (size_t)(e - text)),
			 LZMA_OK);
	assert_true(n > CUT_MAX);
	assert_int_equal(lzma_stream_decoder(&z, UINT64_MAX, 0), LZMA_OK);
	z.next_out = dec;
	z.avail_out = 1 << 20;
	for (size_t l = 1; l <= CUT_MAX; l++) {
		z.next_in = buf + l - 1;
		z.avail_in = 1;
		assert_int_equal(lzma_code(&z, LZMA_RUN), LZMA_OK);
		out[l] = (size_t)z.total_out;
	}
	lzma_end(&z);
	/* the rest in one block of the reader's (256 KiB), from one read of its input (64 KiB) */
	for (size_t l = SL_TRACE_PROBE_LEN + 1;
	     l <= CUT_MAX && out[l] - out[SL_TRACE_PROBE_LEN] < 256 * 1024; l++) {
		size_t k = out[l] - out[SL_TRACE_PROBE_LEN];
		struct sl_trace_record o[1];
		struct sl_trace_reader r;
		char want[600];

		if (!k || k % 8192)
			continue;
		cuts++;
		assert_int_equal(read_path(tmpdir_write("piece.xz", buf, l), o, 1, &r), -1);
		snprintf(want, sizeof(want), "%s: truncated xz data", tmpdir_path("piece.xz"));
		assert_string_equal(r.err, want);
	}
	assert_true(cuts > 0);
	free(out);
	free(dec);
	free(buf);
	free(text);
}

/*
 * A wrong stored check (a bit flipped in a block's CRC64): liblzma's message for it, at the
 * point where the reader has always given it. The reader decodes its input in regions of text
 * (256 KiB, or less where a call ran out of input) and an error discards the region in which
 * the decoder met it, so the records read before the error are the lines that end before that
 * region. This file: 16000 lines of 60 bytes in xz blocks ending after 2 lines and then at
 * every 100000 bytes, a few KB of xz, read as its probed head (512 bytes) and then the rest at
 * once. The first region is what the head decodes to (h bytes), the next ones 256 KiB each.
 * The first block's check lies in the head: nothing is read. The check of the block ending
 * at byte 500000 is met in the call that decodes that byte, in the region [h + 256 KiB,
 * h + 512 KiB): the lines of the first h + 256 KiB bytes are read.
 */
static int count_records(const char *path, struct sl_trace_reader *r)
{
	char err[512];
	struct sl_trace_record rec;
	int k = 0, rc;

	assert_int_equal(sl_trace_open(r, NULL, path, false, err, sizeof(err)), 0);
	while ((rc = sl_trace_next(r, &rec)) == 1)
		k++;
	sl_trace_close(r);
	return rc < 0 ? -1 - k : k;
}

static void test_xz_wrong_check(void **state)
{
	enum { LINES = 16000, LINE = 60, BLOCK = 100000, HEAD = SL_TRACE_PROBE_LEN };
	size_t len = (size_t)LINES * LINE, n = 0, ends[16], nblocks = 0, done = 0;
	char *text = malloc(len + 1), want[600];
	uint8_t *buf = malloc(len), *head = malloc(len);
	lzma_stream z = LZMA_STREAM_INIT;
	struct sl_trace_reader r;

	(void)state;
	assert_non_null(text);
	assert_non_null(buf);
	assert_non_null(head);
	for (int i = 0; i < LINES; i++)
		assert_int_equal(
			sprintf(text + (size_t)i * LINE,
				"  <idle>-0 [000] d..1. 1.%06d: cpu_idle: state=1 cpu_id=0\n", i),
			LINE);
	/* the blocks, each ended by a full flush; ends[b]: the offset after block b's check */
	assert_int_equal(lzma_easy_encoder(&z, 6, LZMA_CHECK_CRC64), LZMA_OK);
	z.next_out = buf;
	z.avail_out = len;
	while (done < len) {
		size_t k = done ? BLOCK - done % BLOCK : 2 * LINE;

		if (k > len - done)
			k = len - done;
		z.next_in = (const uint8_t *)text + done;
		z.avail_in = k;
		assert_int_equal(lzma_code(&z, LZMA_FULL_FLUSH), LZMA_STREAM_END);
		done += k;
		ends[nblocks++] = (size_t)z.total_out;
	}
	assert_int_equal(lzma_code(&z, LZMA_FINISH), LZMA_STREAM_END);
	n = (size_t)z.total_out;
	lzma_end(&z);
	assert_int_equal(nblocks, 11);
	assert_true(ends[0] < HEAD);
	assert_true(n > HEAD && n - HEAD <= 65536); /* the rest in one read */

	/* h: the text the head decodes to */
	assert_int_equal(lzma_stream_decoder(&z, UINT64_MAX, 0), LZMA_OK);
	z.next_in = buf;
	z.avail_in = HEAD;
	z.next_out = (uint8_t *)head;
	z.avail_out = len;
	assert_int_equal(lzma_code(&z, LZMA_RUN), LZMA_OK);
	size_t h = (size_t)z.total_out;

	lzma_end(&z);
	assert_true(h > 2 * LINE && h < 500000 - 256 * 1024);

	assert_int_equal(count_records(tmpdir_write("check.xz", buf, n), &r), LINES);
	/* the first block's check: its last byte */
	buf[ends[0] - 1] ^= 0x04;
	assert_int_equal(count_records(tmpdir_write("check.xz", buf, n), &r), -1 - 0);
	snprintf(want, sizeof(want), "%s: xz decompression failed (lzma error 9)",
		 tmpdir_path("check.xz"));
	assert_string_equal(r.err, want);
	buf[ends[0] - 1] ^= 0x04;
	/* the check of the block ending at byte 500000 (blocks: 2 lines, then to 100000, ...) */
	buf[ends[5] - 3] ^= 0x80;
	assert_int_equal(count_records(tmpdir_write("check.xz", buf, n), &r),
			 -1 - (int)((h + 256 * 1024) / LINE));
	assert_string_equal(r.err, want);
	free(head);
	free(buf);
	free(text);
}
/*
 * Lines across the reader's blocks of text (256 KiB: the decoder thread's, or the plain reads'):
 * lines of 4000 bytes, so that every block ends inside one, read whole from plain text and from
 * xz; then the same with line 150 one byte over the limit (4096 bytes with its '\r'), refused
 * naming line 150 after the 149 before it were read.
 */
static char *long_lines(int n, int bad, size_t *len)
{
	char *t = malloc((size_t)n * 4100 + 1), *e = t;

	assert_non_null(t);
	for (int i = 1; i <= n; i++) {
		/* P irq_handler_entry: irq=I name=xxx...: 4000 bytes, or 4096 for line `bad` */
		int k = sprintf(e, P "irq_handler_entry: irq=%d name=", i);

		memset(e + k, 'x', (size_t)((i == bad ? 4095 : 3999) - k));
		e += i == bad ? 4095 : 3999;
		if (i == bad)
			*e++ = '\r';
		*e++ = '\n';
	}
	*len = (size_t)(e - t);
	return t;
}

static void read_long_lines(const char *name, const char *text, size_t len, bool xz, int want)
{
	static struct sl_trace_record o[200];
	struct sl_trace_reader r;
	uint8_t *buf = NULL;
	size_t n = 0;
	int k;

	if (xz) {
		buf = malloc(len);
		assert_non_null(buf);
		assert_int_equal(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL,
							 (const uint8_t *)text, len, buf, &n, len),
				 LZMA_OK);
	}
	k = read_path(tmpdir_write(name, xz ? (const char *)buf : text, xz ? n : len), o, 200, &r);
	free(buf);
	if (want >= 0) {
		assert_int_equal(k, want);
		for (int i = 0; i < k; i++) {
			assert_int_equal(o[i].irq, i + 1);
			assert_int_equal(o[i].line, i + 1);
			assert_int_equal(strlen(o[i].str), sizeof(o[i].str) - 1); /* truncated */
		}
	} else {
		char msg[600];

		assert_int_equal(k, -1);
		snprintf(msg, sizeof(msg), "%s:%d: line longer than 4095 bytes", tmpdir_path(name),
			 -want);
		assert_string_equal(r.err, msg);
	}
}

static void test_lines_across_blocks(void **state)
{
	size_t len;
	char *good = long_lines(200, 0, &len), *bad;

	(void)state;
	assert_true(len > 3 * 256 * 1024);
	read_long_lines("long.trace", good, len, false, 200);
	read_long_lines("long.trace.xz", good, len, true, 200);
	free(good);
	bad = long_lines(200, 150, &len);
	read_long_lines("bad.trace", bad, len, false, -150);
	read_long_lines("bad.trace.xz", bad, len, true, -150);
	free(bad);
}

/*
 * Numbers the reader takes eight digits at a time: up to 2^64 - 1 (20 digits), leading zeros,
 * 2^64 refused; a timestamp's fraction keeps its first 9 digits (1.1234567891: 1123456789 ns).
 */
static void test_long_numbers(void **state)
{
	static const char ok[] =
		"  a-1 [000] d..1. 1.1234567891: hrtimer_start: hrtimer=0x1 function=f "
		"expires=18446744073709551615 softexpires=0000000000000000000000000042\n"
		"  a-00000000000000000012 [000] d..1. 00000000000000000003.12345678: "
		"cpu_idle: state=12345678 cpu_id=0\n";
	static const char over[] = P "hrtimer_start: hrtimer=0x1 function=f "
				     "expires=18446744073709551616 softexpires=1\n";
	struct sl_trace_record o[2];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_text(ok, o, 2, &r), 2);
	assert_int_equal(o[0].time, 1123456789ULL);
	assert_true(o[0].expires == UINT64_MAX);
	assert_int_equal(o[0].softexpires, 42);
	assert_int_equal(o[1].pid, 12);
	assert_int_equal(o[1].time, 3123456780ULL);
	assert_int_equal(o[1].state, 12345678);
	assert_int_equal(read_text(over, o, 2, &r), -1);
	assert_non_null(strstr(r.err, ":1: malformed line: expected a number below 2^64: \""));
}

/*
 * A number that ends its line with fewer than 16 bytes left (now= in nanoseconds: the digits
 * after the first eight read one by one), and the columns where the kernel's "%16s-%-7d [%03d]"
 * puts them (read at their places) beside a comm with a '[' and a pid over the limit, which
 * the scan reads and refuses as before.
 */
static void test_line_ends_and_fixed_columns(void **state)
{
	static const char text[] =
		P "hrtimer_expire_entry: hrtimer=0x1 function=f now=12345678\n" P
		  "hrtimer_expire_entry: hrtimer=0x1 function=f now=123456789\n" P
		  "hrtimer_expire_entry: hrtimer=0x1 function=f now=123456789012345\n"
		  "0123456789abcdef-1234567 [005] d..2.  2.000000001: cpu_idle: state=1 cpu_id=5\n"
		  "             cc1-42      [123] d..2.  2.000000002: cpu_idle: state=1 cpu_id=6\n"
		  "           x[1]y-77      [004] d..2.  2.000000003: cpu_idle: state=1 cpu_id=7\n";
	static const char bad[] =
		"             cc1-4194305 [000] d..2.  2.000000004: cpu_idle: state=1 cpu_id=0\n";
	/* the first " [digits]" is the comm's: no pid before it */
	static const char bad2[] =
		"           a [1]-77      [004] d..2.  2.000000005: cpu_idle: state=1 cpu_id=0\n";
	struct sl_trace_record o[6];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_text(text, o, 6, &r), 6);
	assert_int_equal(o[0].now, 12345678);
	assert_int_equal(o[1].now, 123456789);
	assert_true(o[2].now == 123456789012345ULL);
	assert_string_equal(o[3].comm, "0123456789abcdef");
	assert_int_equal(o[3].pid, 1234567);
	assert_int_equal(o[3].cpu, 5);
	assert_int_equal(o[3].time, 2000000001ULL);
	assert_string_equal(o[4].comm, "cc1");
	assert_int_equal(o[4].pid, 42);
	assert_int_equal(o[4].cpu, 123);
	assert_string_equal(o[5].comm, "x[1]y");
	assert_int_equal(o[5].pid, 77);
	assert_int_equal(o[5].cpu, 4);
	assert_int_equal(read_text(bad, o, 1, &r), -1);
	assert_non_null(strstr(r.err, ":1: malformed line: expected a pid from 0 to 4194304: \""));
	assert_int_equal(read_text(bad2, o, 1, &r), -1);
	assert_non_null(strstr(r.err, ":1: malformed line: expected comm-pid before [cpu]: \""));
}

/*
 * The flags and timestamp as the kernel prints them, " d..2.     7.000000001:" (read at their
 * places: five flag bytes, the seconds right-aligned in five), and what the general reading
 * takes instead: a microsecond clock, a tab in the padding, six digits of seconds, flags
 * beginning with a digit. Each line's time and flags by hand. (The tree before the fixed
 * reading passes it too.)
 */
static void test_fixed_flags_and_time(void **state)
{
	static const char text[] =
		"  a-1 [000] d..2.     3.000013: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] d..2.     7.000000001: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] d..2.  \t  8.000000014: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] dNh1.    42.123456789: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] d..2.\t   99.000000012: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] d..2. 12345.000000010: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] d..2. 123456.000000011: cpu_idle: state=1 cpu_id=0\n"
		"  a-1 [000] 1..2. 200000.500000000: cpu_idle: state=1 cpu_id=0\n";
	static const u64 want[] = {3000013000ULL,      7000000001ULL,	  8000000014ULL,
				   42123456789ULL,     99000000012ULL,	  12345000000010ULL,
				   123456000000011ULL, 200000500000000ULL};
	struct sl_trace_record o[8];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_text(text, o, 8, &r), 8);
	for (int i = 0; i < 8; i++) {
		assert_true(o[i].time == want[i]);
		/* the flags end at a space: a tab is theirs */
		assert_string_equal(o[i].flags, i == 3	 ? "dNh1."
						: i == 4 ? "d..2.\t"
						: i == 7 ? "1..2."
							 : "d..2.");
		assert_int_equal(o[i].kind, SL_TR_CPU_IDLE);
	}
}

/*
 * The reader's short cuts read what the general paths read: a CPU of 1, 2, 3, 9 and 10 digits
 * (three digits and up to nine taken as the test finds them, ten by int_dec), a key after two
 * spaces or a space and a tab (" prev_prio=": one compare, else the space and the key apart; a
 * tab alone is no space), a negative prio of one to three digits, timestamps of 6, 8, 9 and 10
 * fractional digits (the ninth after the eight read at once, the tenth dropped), and the
 * messages when the short cut does not apply. (The tree before the short cuts passes it too.)
 */
static void test_short_cuts(void **state)
{
	static const char text[] =
		"  a-1 [7] d..1. 1.000001: cpu_idle: state=1 cpu_id=7\n"
		"  a-1 [12] d..1. 1.00000200: cpu_idle: state=2 cpu_id=12\n"
		"  a-1 [003] d..1. 1.000003000: sched_switch: prev_comm=a prev_pid=1  prev_prio=-5 "
		"prev_state=S ==> next_comm=b next_pid=22 \tnext_prio=-120\n"
		"  a-1 [000000009] d..1. 1.0000040009: sched_migrate_task: comm=c pid=333 prio=7 "
		"orig_cpu=1 \t dest_cpu=2\n"
		"  a-1 [0000000042] d..1. 1.000005: sched_wakeup: comm=d pid=4444 prio=-99 "
		"target_cpu=005\n";
	static const char cpu_big[] = "  a-1 [2147483648] d..1. 1.0: cpu_idle: state=1 cpu_id=0\n";
	static const char key_bad[] = P "sched_switch: prev_comm=a prev_pid=1  prev_pri=120 "
					"prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n";
	static const char key_nosp[] = P "sched_switch: prev_comm=a prev_pid=1prev_prio=120 "
					 "prev_state=S ==> next_comm=b next_pid=2 next_prio=120\n";
	struct sl_trace_record o[5];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_text(text, o, 5, &r), 5);
	assert_int_equal(o[0].cpu, 7);
	assert_int_equal(o[0].time, 1000001000ULL);
	assert_int_equal(o[1].cpu, 12);
	assert_int_equal(o[1].time, 1000002000ULL);
	assert_int_equal(o[2].cpu, 3);
	assert_int_equal(o[2].time, 1000003000ULL);
	assert_int_equal(o[2].task_prio, -5);
	assert_int_equal(o[2].next_pid, 22);
	assert_int_equal(o[2].next_prio, -120);
	assert_int_equal(o[3].cpu, 9);
	assert_int_equal(o[3].time, 1000004000ULL);
	assert_int_equal(o[3].task_pid, 333);
	assert_int_equal(o[3].task_prio, 7);
	assert_int_equal(o[3].orig_cpu, 1);
	assert_int_equal(o[3].dest_cpu, 2);
	assert_int_equal(o[4].cpu, 42);
	assert_int_equal(o[4].time, 1000005000ULL);
	assert_int_equal(o[4].task_pid, 4444);
	assert_int_equal(o[4].task_prio, -99);
	assert_int_equal(o[4].target_cpu, 5);
	assert_int_equal(read_text(cpu_big, o, 1, &r), -1);
	assert_non_null(
		strstr(r.err, ":1: malformed line: expected a CPU number that fits an int"));
	assert_int_equal(read_text(key_bad, o, 1, &r), -1);
	assert_non_null(strstr(r.err, ":1: malformed line: expected prev_prio=: \""));
	assert_int_equal(read_text(key_nosp, o, 1, &r), -1);
	assert_non_null(strstr(r.err, ":1: malformed line: expected a space: \""));
}

/*
 * Hex ids eight digits at a time: a digit before a letter ("0a": the letter test's borrow
 * must not reach the next byte), mixed case, more than 16 digits (the low 64 bits kept), a
 * byte of 0x80 and up (not a digit even though its low seven bits are '1'), an id near the
 * line's end (read byte by byte), none at all. The lines go on for 8 bytes after their ids,
 * so that those are read eight at a time.
 */
static void test_hex_ids(void **state)
{
	static const char text[] =
		P "hrtimer_cancel: hrtimer=0x0a zzzzzzzz\n" P
		  "hrtimer_cancel: hrtimer=0aF9 xxxxxxxx\n" P
		  "hrtimer_cancel: hrtimer=ffff888627c206f8 y\n" P
		  "hrtimer_cancel: hrtimer=0xFFFF888627C206F8 y\n" P
		  "hrtimer_cancel: hrtimer=1234567890abcdef12 yy\n" P
		  "hrtimer_cancel: hrtimer=00000000000000015 zzzzzzzz\n" P
		  "hrtimer_cancel: hrtimer=a\xb1\xb1\xb1\xb1\xb1\xb1\xb1\xb1\n" P
		  "hrtimer_cancel: hrtimer=9Ab\n" P "hrtimer_cancel: hrtimer=0xg\n";
	static const u64 want[] = {0xa,
				   0xaf9,
				   0xffff888627c206f8ULL,
				   0xffff888627c206f8ULL,
				   0x34567890abcdef12ULL,
				   0x15,
				   0xa,
				   0x9ab};
	struct sl_trace_record o[9];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_text(text, o, 9, &r), -1);
	for (int i = 0; i < 8; i++)
		assert_true(o[i].hrtimer == want[i]);
	assert_non_null(strstr(r.err, ":9: malformed line: expected a hex number: \""));
}

/*
 * trace-cmd's "function=NAME/0x0" is cut at its first '/' when "0x" follows, within the 255
 * bytes the record keeps: a '/' at 252 cuts, one at 253 does not (its "0x" would end at 255).
 */
static void test_function_names(void **state)
{
	char text[2048], name[300];
	struct sl_trace_record o[6];
	struct sl_trace_reader r;
	int n;

	(void)state;
	n = snprintf(text, sizeof(text),
		     P "hrtimer_expire_entry: hrtimer=1 function=tick_nohz_handler/0x0 now=5\n" P
		       "hrtimer_expire_entry: hrtimer=1 function=a/b/0x0 now=5\n" P
		       "hrtimer_expire_entry: hrtimer=1 function=x/0y now=5\n" P
		       "hrtimer_expire_entry: hrtimer=1 function=/0x now=5\n");
	for (int k = 252; k <= 253; k++) {
		memset(name, 'f', (size_t)k);
		memcpy(name + k, "/0x10", 6);
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      P "hrtimer_expire_entry: hrtimer=1 function=%s now=5\n", name);
	}
	assert_int_equal(read_text(text, o, 6, &r), 6);
	assert_string_equal(o[0].str, "tick_nohz_handler");
	assert_string_equal(o[1].str, "a/b/0x0");
	assert_string_equal(o[2].str, "x/0y");
	assert_string_equal(o[3].str, "");
	assert_int_equal(o[3].now, 5);
	assert_int_equal(strlen(o[4].str), 252);
	assert_int_equal(strlen(o[5].str), 255);
	assert_int_equal(o[5].str[253], '/');
	assert_int_equal(o[5].now, 5);
}

/* Every event name is read as its kind, and nothing else is. */
static void test_kind_names(void **state)
{
	char name[64];

	(void)state;
	for (int k = SL_TR_UNKNOWN + 1; k < SL_TR_NR_KINDS; k++) {
		const char *s = sl_trace_kind_name(k);
		size_t n = strlen(s);

		assert_int_equal(sl_trace_kind_of(s, n), k);
		assert_int_equal(sl_trace_kind_of(s, n - 1), SL_TR_UNKNOWN);
		snprintf(name, sizeof(name), "%sx", s);
		assert_int_equal(sl_trace_kind_of(name, n + 1), SL_TR_UNKNOWN);
		snprintf(name, sizeof(name), "%s", s);
		name[n - 1] ^= 0x20;
		assert_int_equal(sl_trace_kind_of(name, n), SL_TR_UNKNOWN);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_malformed_line_says_what_was_expected),
		cmocka_unit_test(test_field_forms),
		cmocka_unit_test(test_unknown_beyond_the_table),
		cmocka_unit_test(test_gzip_members),
		cmocka_unit_test(test_gzip_broken),
		cmocka_unit_test(test_xz_broken),
		cmocka_unit_test(test_xz_cut_at_a_piece),
		cmocka_unit_test(test_xz_wrong_check),
		cmocka_unit_test(test_lines_across_blocks),
		cmocka_unit_test(test_long_numbers),
		cmocka_unit_test(test_short_cuts),
		cmocka_unit_test(test_line_ends_and_fixed_columns),
		cmocka_unit_test(test_fixed_flags_and_time),
		cmocka_unit_test(test_hex_ids),
		cmocka_unit_test(test_function_names),
		cmocka_unit_test(test_kind_names),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
