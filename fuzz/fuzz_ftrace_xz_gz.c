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
#include <zlib.h>

#include "fuzz.h"
#include "fuzz_trace.h"

static size_t put_xz(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	size_t pos = 0;

	if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL, in, n, out, &pos, cap) != LZMA_OK)
		abort();
	return pos;
}

static size_t put_gz(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	size_t len = cap - z.avail_out;

	deflateEnd(&z);
	return len;
}

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
		memcpy(buf,
		       "\xfd"
		       "7zXZ\0",
		       6);
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
