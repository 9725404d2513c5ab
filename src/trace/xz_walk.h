/*
 * An xz decoder that can leave each block's CRC32 or CRC64 to its caller: the trace input's
 * decoder thread walks the stream and hands the stored checks to the parser's thread, which
 * computes them over the text as it takes it (docs/performance.md, "The check on the parser's
 * side"). Every call consumes, produces and returns what liblzma's stream decoder
 * (lzma_stream_decoder with LZMA_CONCATENATED, no other flag) would, except that a deferred
 * check is not compared: on_end is told of it instead, and a false answer from on_end is the
 * stream decoder's LZMA_DATA_ERROR in the same call. tests/test_xz_walk.c holds it to that.
 */
#ifndef SL_TRACE_XZ_WALK_H
#define SL_TRACE_XZ_WALK_H

#include <lzma.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A block whose check is deferred: where its bytes are in the whole output, and its check. */
struct sl_xz_block {
	uint64_t id;	     /* 1 for the input's first block with a deferred check, and so on */
	uint64_t start, end; /* offsets of its first byte and of the byte after its last */
	lzma_check check;    /* LZMA_CHECK_CRC32 or LZMA_CHECK_CRC64 */
	uint64_t stored;     /* the check the file stores (for a block in progress: 0) */
};

/* At a deferred block's end, once its check is read: true if the check is left to the caller
 * or was verified, false if it did not match */
typedef bool (*sl_xz_end_fn)(void *ctx, const struct sl_xz_block *b);

enum sl_xz_seq {
	SL_XZ_STREAM_HEADER,
	SL_XZ_BLOCK_HEADER,
	SL_XZ_BLOCK_INIT,
	SL_XZ_BLOCK_RUN,
	SL_XZ_INDEX,
	SL_XZ_STREAM_FOOTER,
	SL_XZ_STREAM_PADDING,
};

struct sl_xz_walk {
	enum sl_xz_seq seq;
	bool first_stream;
	bool deferred;	      /* the block being decoded has its check deferred */
	size_t pos;	      /* bytes of a header or footer gathered in buf */
	uint64_t memlimit;    /* as lzma_stream_decoder's */
	uint64_t out_total;   /* bytes output so far */
	uint64_t ndeferred;   /* blocks with a deferred check so far */
	uint64_t block_start; /* out_total when the current block began */
	sl_xz_end_fn on_end;  /* NULL: every check verified here, as the stream decoder does */
	void *ctx;
	const lzma_allocator *allocator;
	lzma_stream_flags flags; /* the current stream's header */
	lzma_block block;	 /* the current block's header; its decoder writes raw_check */
	lzma_stream dec;	 /* the current block's decoder (lzma_block_decoder) */
	lzma_index_hash *ih;	 /* the blocks' sizes, against the stream's index */
	uint8_t buf[LZMA_BLOCK_HEADER_SIZE_MAX];
};

lzma_ret sl_xz_walk_init(struct sl_xz_walk *w, uint64_t memlimit, const lzma_allocator *allocator);
void sl_xz_walk_end(struct sl_xz_walk *w);
/* As lzma_code on a stream decoder, with in and out given as liblzma's coders take them. The
 * wrapper's LZMA_BUF_ERROR (a second call in a row that does nothing) is never returned: such
 * a call returns LZMA_OK. */
lzma_ret sl_xz_walk_code(struct sl_xz_walk *w, const uint8_t *in, size_t *in_pos, size_t in_size,
			 uint8_t *out, size_t *out_pos, size_t out_size, lzma_action action);
/* The block being decoded, if its check is deferred (stored is 0): true; else false. */
bool sl_xz_walk_current(const struct sl_xz_walk *w, struct sl_xz_block *b);

/* A check being computed over a block's bytes as they come. */
struct sl_xz_sum {
	uint64_t id; /* the block's (struct sl_xz_block), 0: none */
	lzma_check check;
	uint64_t value;
};

static inline void sl_xz_sum_start(struct sl_xz_sum *s, const struct sl_xz_block *b)
{
	s->id = b->id;
	s->check = b->check;
	s->value = 0;
}

static inline void sl_xz_sum_add(struct sl_xz_sum *s, const void *p, size_t n)
{
	if (!n)
		return;
	if (s->check == LZMA_CHECK_CRC64)
		s->value = lzma_crc64(p, n, s->value);
	else
		s->value = lzma_crc32(p, n, (uint32_t)s->value);
}

#endif
