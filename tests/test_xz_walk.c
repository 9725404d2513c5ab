/*
 * src/trace/xz_walk.c against liblzma's stream decoder (LZMA_CONCATENATED), call by call: xz
 * files with each kind of check, several blocks, two streams with stream padding, each whole,
 * cut at many lengths, with single bits flipped in their headers, data, checks, index and
 * footers, and with bad padding; fed to both in the same pieces of input and output, every call
 * must consume, produce and return the same (liblzma's LZMA_BUF_ERROR counted as LZMA_OK, as
 * the trace input reads it). The walker is run as the trace input's decoder thread runs it,
 * every CRC32 and CRC64 deferred to a callback, which here verifies the check over the output
 * so far: the same answers. Without a callback it verifies every check itself: the same again.
 * A callback that accepts every check sees the stored value, so a wrong one is left to it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#include "trace/xz_walk.h"

#define TEXT_MAX (96 * 1024)
#define FILE_MAX (2 * TEXT_MAX)

static char text[TEXT_MAX];
static size_t text_len;

/* Lines of varying numbers, as a trace's. */
static void make_text(void)
{
	unsigned x = 7;
	char *e = text;

	while ((size_t)(e - text) < TEXT_MAX - 100) {
		x = x * 1103515245u + 12345u;
		e += sprintf(e, "  <idle>-0 [%03u] d..1. %u.%06u: cpu_idle: state=%u cpu_id=%u\n",
			     (x >> 4) % 8, (x >> 8) % 1000, (x >> 12) % 1000000, (x >> 16) % 5,
			     (x >> 24) % 8);
	}
	text_len = (size_t)(e - text);
}

/* text[0, len) as one stream of the given check, a block ended every `block` bytes (0: one) */
static size_t encode(uint8_t *out, size_t cap, size_t len, lzma_check check, size_t block)
{
	lzma_stream z = LZMA_STREAM_INIT;
	size_t done = 0;

	assert_int_equal(lzma_easy_encoder(&z, 1, check), LZMA_OK);
	z.next_out = out;
	z.avail_out = cap;
	while (done < len) {
		size_t k = block && len - done > block ? block : len - done;

		z.next_in = (const uint8_t *)text + done;
		z.avail_in = k;
		assert_int_equal(lzma_code(&z, block ? LZMA_FULL_FLUSH : LZMA_RUN),
				 block ? LZMA_STREAM_END : LZMA_OK);
		assert_int_equal(z.avail_in, 0);
		done += k;
	}
	assert_int_equal(lzma_code(&z, LZMA_FINISH), LZMA_STREAM_END);
	size_t n = cap - z.avail_out;

	lzma_end(&z);
	return n;
}

struct verify {
	const uint8_t *out; /* the output so far, from its first byte */
	int ends, deferred_wrong;
	bool accept;
};

static bool verify_end(void *ctx, const struct sl_xz_block *b)
{
	struct verify *v = ctx;
	struct sl_xz_sum s;

	sl_xz_sum_start(&s, b);
	sl_xz_sum_add(&s, v->out + b->start, (size_t)(b->end - b->start));
	v->ends++;
	if (s.value != b->stored)
		v->deferred_wrong++;
	return v->accept || s.value == b->stored;
}

static unsigned rnd(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static uint8_t out_a[FILE_MAX * 4], out_b[FILE_MAX * 4];

/*
 * f[0, n) through both decoders in pieces chosen by seed (0: all the input at once, outputs of
 * 8 KiB as the trace input asks); on_end as given. The number of calls made.
 */
static int compare(const uint8_t *f, size_t n, unsigned seed, struct verify *v, bool defer)
{
	lzma_stream z = LZMA_STREAM_INIT;
	struct sl_xz_walk w;
	size_t ia = 0, oa = 0, ib = 0, ob = 0, lim = 0, avail = 0;
	unsigned x = seed;
	int calls = 0;
	bool stuck = false;

	assert_int_equal(lzma_stream_decoder(&z, 256u << 20, LZMA_CONCATENATED), LZMA_OK);
	assert_int_equal(sl_xz_walk_init(&w, 256u << 20, NULL), LZMA_OK);
	if (defer) {
		w.on_end = verify_end;
		w.ctx = v;
		v->out = out_b;
	}
	for (;;) {
		/* the input given so far grows by a piece when the last is used up */
		if (ia == avail || stuck)
			avail = seed ? avail + 1 + rnd(&x) % 700 : n;
		if (avail > n)
			avail = n;
		size_t piece = seed ? 1 + rnd(&x) % 9000 : 8192;

		lim = oa + piece;
		if (lim > sizeof(out_a))
			lim = sizeof(out_a);
		lzma_action act = avail == n && ia == n ? LZMA_FINISH : LZMA_RUN;

		z.next_in = f + ia;
		z.avail_in = avail - ia;
		z.next_out = out_a + oa;
		z.avail_out = lim - oa;
		lzma_ret ra = lzma_code(&z, act);
		size_t ia2 = (size_t)(z.next_in - f), oa2 = (size_t)(z.next_out - out_a);

		lzma_ret rb = sl_xz_walk_code(&w, f, &ib, avail, out_b, &ob, lim, act);
		stuck = ia2 == ia && oa2 == oa;

		calls++;
		if (ra == LZMA_BUF_ERROR)
			ra = LZMA_OK;
		assert_int_equal(rb, ra);
		assert_int_equal(ib, ia2);
		assert_int_equal(ob, oa2);
		assert_memory_equal(out_a + oa, out_b + oa, oa2 - oa);
		ia = ia2;
		oa = oa2;
		if (ra != LZMA_OK || lim == sizeof(out_a))
			break;
		/* a cut file's decoders wait for more input: a call that does nothing once all of
		 * it is given ends the reading */
		if (stuck && avail == n)
			break;
	}
	lzma_end(&z);
	sl_xz_walk_end(&w);
	return calls;
}

/* Every way of reading f, with the checks deferred and verified by the callback, and not. */
static void compare_all(const uint8_t *f, size_t n)
{
	static const unsigned seeds[] = {0, 1, 2};

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		struct verify v = {0};

		compare(f, n, seeds[s], &v, true);
		compare(f, n, seeds[s], &v, false);
	}
}

static uint8_t file[FILE_MAX], damaged[FILE_MAX + 16];

/* f whole, cut, with bits flipped, then with stream padding of 4 (good) and 3 (bad) bytes at
 * the end and before something that is not a stream */
static void damage_all(const uint8_t *f, size_t n)
{
	compare_all(f, n);
	for (size_t cut = 0; cut < n; cut += cut < 64 || n - cut < 80 ? 1 : 97)
		compare_all(f, cut);
	for (size_t i = 0; i < n; i += i < 80 || n - i < 80 ? 1 : 61) {
		memcpy(damaged, f, n);
		damaged[i] ^= (uint8_t)(1u << (i % 8));
		compare_all(damaged, n);
	}
	memcpy(damaged, f, n);
	memset(damaged + n, 0, 4);
	compare_all(damaged, n + 4);
	compare_all(damaged, n + 3);
	damaged[n + 4] = 0x42; /* not the start of another stream */
	compare_all(damaged, n + 5);
	damaged[n + 3] = 0x42; /* after 3 bytes of padding */
	compare_all(damaged, n + 4);
}

static void test_each_check(void **state)
{
	static const lzma_check checks[] = {LZMA_CHECK_CRC64, LZMA_CHECK_CRC32, LZMA_CHECK_NONE,
					    LZMA_CHECK_SHA256};

	(void)state;
	make_text();
	for (size_t c = 0; c < sizeof(checks) / sizeof(checks[0]); c++) {
		size_t n = encode(file, sizeof(file), text_len / 3, checks[c], 0);

		damage_all(file, n);
	}
}

/* blocks of 10000 bytes (the last one shorter), and an empty text (no block at all) */
static void test_blocks(void **state)
{
	(void)state;
	make_text();
	damage_all(file, encode(file, sizeof(file), text_len / 2, LZMA_CHECK_CRC64, 10000));
	damage_all(file, encode(file, sizeof(file), text_len / 4, LZMA_CHECK_CRC32, 3000));
	damage_all(file, encode(file, sizeof(file), 0, LZMA_CHECK_CRC64, 0));
}

/* a CRC64 stream, 8 bytes of padding, a CRC32 stream of blocks, a stream without a check */
static void test_streams(void **state)
{
	size_t n;

	(void)state;
	make_text();
	n = encode(file, sizeof(file), text_len / 5, LZMA_CHECK_CRC64, 0);
	memset(file + n, 0, 8);
	n += 8;
	n += encode(file + n, sizeof(file) - n, text_len / 5, LZMA_CHECK_CRC32, 5000);
	n += encode(file + n, sizeof(file) - n, text_len / 6, LZMA_CHECK_NONE, 0);
	damage_all(file, n);
}

/*
 * A callback that accepts every check is told the stored value: with the last block's check
 * changed (its last byte, before the index) it sees a wrong check and the decoding goes on to
 * its end; liblzma stops with LZMA_DATA_ERROR.
 */
static void test_wrong_check_deferred(void **state)
{
	struct verify v = {.accept = true};
	struct sl_xz_walk w;
	size_t n, ip = 0, op = 0;
	uint8_t *crc_end;

	(void)state;
	make_text();
	n = encode(file, sizeof(file), text_len / 3, LZMA_CHECK_CRC64, 0);
	/* before the footer (12 bytes) the index (its size in the footer), before it the check */
	lzma_stream_flags foot;

	assert_int_equal(lzma_stream_footer_decode(&foot, file + n - LZMA_STREAM_HEADER_SIZE),
			 LZMA_OK);
	crc_end = file + n - LZMA_STREAM_HEADER_SIZE - foot.backward_size - 1;
	*crc_end ^= 0x10;
	assert_int_equal(sl_xz_walk_init(&w, 256u << 20, NULL), LZMA_OK);
	w.on_end = verify_end;
	w.ctx = &v;
	v.out = out_b;
	assert_int_equal(sl_xz_walk_code(&w, file, &ip, n, out_b, &op, sizeof(out_b), LZMA_FINISH),
			 LZMA_STREAM_END);
	assert_int_equal(op, text_len / 3);
	assert_int_equal(v.ends, 1);
	assert_int_equal(v.deferred_wrong, 1);
	sl_xz_walk_end(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_check),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_streams),
		cmocka_unit_test(test_wrong_check_deferred),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
