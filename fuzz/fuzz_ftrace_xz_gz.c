/*
 * The ftrace reader's xz and gzip paths (recognised by their magic bytes). The first byte picks
 * how the rest reaches the reader:
 *   0: compressed with xz          1: compressed with gzip
 *   2: two xz streams (the halves)  3: two gzip members (the halves)
 *   4: the xz magic, then the bytes raw (corrupt data for the decoder)
 *   5: the gzip magic, then the bytes raw
 * So the text parser sees decompressed lines split at every buffer boundary, and the decoders
 * see damaged, truncated and concatenated streams.
 */
#include <lzma.h>
#include <stdbool.h>
#include <zlib.h>

#include "fuzz.h"
#include "fuzz_trace.h"

/*
 * The encoders live across inputs and are reset for each one (liblzma and zlib then reuse their
 * tables): allocating them anew costs far more than reading the trace. xz uses the smallest
 * dictionary (4 KiB), so the reader's decoder allocates little per input too.
 */
static size_t put_xz(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	static lzma_stream xz = LZMA_STREAM_INIT;
	static lzma_options_lzma opt;
	lzma_filter filters[2] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};

	if (!opt.dict_size) {
		if (lzma_lzma_preset(&opt, 0))
			abort();
		opt.dict_size = LZMA_DICT_SIZE_MIN;
	}
	if (lzma_stream_encoder(&xz, filters, LZMA_CHECK_CRC32) != LZMA_OK)
		abort();
	xz.next_in = in;
	xz.avail_in = n;
	xz.next_out = out;
	xz.avail_out = cap;
	if (lzma_code(&xz, LZMA_FINISH) != LZMA_STREAM_END)
		abort();
	return cap - xz.avail_out;
}

static size_t put_gz(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	static z_stream z;
	static bool ready;

	if (!ready && deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	ready = true;
	if (deflateReset(&z) != Z_OK)
		abort();
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	return cap - z.avail_out;
}

static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};

SL_FUZZ_TARGET(ftrace_xz_gz)
{
	if (!size) {
		snprintf(err, errlen, "empty input");
		return -1;
	}
	int mode = data[0] % 6;
	const uint8_t *in = data + 1;
	size_t n = size - 1, half = n / 2, len = 0;
	size_t cap = 2 * (lzma_stream_buffer_bound(n) + 64) + 6;
	uint8_t *buf = malloc(cap);
	int rc;

	if (!buf)
		abort();
	switch (mode) {
	case 0:
		len = put_xz(in, n, buf, cap);
		break;
	case 1:
		len = put_gz(in, n, buf, cap);
		break;
	case 2:
		len = put_xz(in, half, buf, cap);
		len += put_xz(in + half, n - half, buf + len, cap - len);
		break;
	case 3:
		len = put_gz(in, half, buf, cap);
		len += put_gz(in + half, n - half, buf + len, cap - len);
		break;
	case 4:
		memcpy(buf, xz_magic, sizeof(xz_magic));
		memcpy(buf + 6, in, n);
		len = n + 6;
		break;
	default:
		buf[0] = 0x1f;
		buf[1] = 0x8b;
		memcpy(buf + 2, in, n);
		len = n + 2;
		break;
	}
	rc = sl_fuzz_read_trace(buf, len, mode == 2 || mode == 3, err, errlen);
	free(buf);
	return rc;
}
