/*
 * The xz container (stream header, blocks, index, stream footer, stream padding, streams one
 * after another) walked with liblzma's public pieces, each block decoded by lzma_block_decoder.
 * The order of the steps, where a call returns for want of input, and which error each fault
 * gives follow liblzma's own stream decoder, so that a damaged file is refused at the same byte
 * and with the same code as before; what differs is only that a block's CRC32 or CRC64 may be
 * left to the caller (xz_walk.h).
 */
#include "trace/xz_walk.h"

#include <stdlib.h>
#include <string.h>

/* The byte that starts an index where a block header would start (the xz format, 3.1). */
#define INDEX_INDICATOR 0x00

static lzma_ret walk_reset(struct sl_xz_walk *w)
{
	w->ih = lzma_index_hash_init(w->ih, w->allocator);
	if (!w->ih)
		return LZMA_MEM_ERROR;
	w->seq = SL_XZ_STREAM_HEADER;
	w->pos = 0;
	return LZMA_OK;
}

lzma_ret sl_xz_walk_init(struct sl_xz_walk *w, uint64_t memlimit, const lzma_allocator *allocator)
{
	lzma_stream init = LZMA_STREAM_INIT;

	memset(w, 0, sizeof(*w));
	w->dec = init;
	w->dec.allocator = allocator;
	w->allocator = allocator;
	w->memlimit = memlimit ? memlimit : 1;
	w->first_stream = true;
	return walk_reset(w);
}

void sl_xz_walk_end(struct sl_xz_walk *w)
{
	lzma_end(&w->dec);
	lzma_index_hash_end(w->ih, w->allocator);
	w->ih = NULL;
}

/* Up to want bytes gathered in w->buf (w->pos so far). */
static void gather(struct sl_xz_walk *w, const uint8_t *in, size_t *in_pos, size_t in_size,
		   size_t want)
{
	size_t k = in_size - *in_pos;

	if (k > want - w->pos)
		k = want - w->pos;
	memcpy(w->buf + w->pos, in + *in_pos, k);
	*in_pos += k;
	w->pos += k;
}

static void free_filters(struct sl_xz_walk *w, lzma_filter *f)
{
	for (size_t i = 0; i < LZMA_FILTERS_MAX && f[i].id != LZMA_VLI_UNKNOWN; i++) {
		if (w->allocator)
			w->allocator->free(w->allocator->opaque, f[i].options);
		else
			free(f[i].options);
		f[i].options = NULL;
	}
}

/* The block header in buf decoded and its decoder started, with the stream decoder's memory
 * limit and errors. */
static lzma_ret block_init(struct sl_xz_walk *w)
{
	lzma_filter filters[LZMA_FILTERS_MAX + 1];
	lzma_ret ret;

	w->block.version = 1; /* for ignore_check */
	w->block.filters = filters;
	ret = lzma_block_header_decode(&w->block, w->allocator, w->buf);
	if (ret != LZMA_OK) {
		w->block.filters = NULL;
		return ret;
	}
	/* after the header's decoding, which clears it */
	w->deferred = w->on_end &&
		      (w->block.check == LZMA_CHECK_CRC32 || w->block.check == LZMA_CHECK_CRC64);
	w->block.ignore_check = w->deferred;

	uint64_t mem = lzma_raw_decoder_memusage(filters);

	if (mem == UINT64_MAX)
		ret = LZMA_OPTIONS_ERROR; /* a filter liblzma does not know */
	else if (mem > w->memlimit)
		ret = LZMA_MEMLIMIT_ERROR;
	else
		ret = lzma_block_decoder(&w->dec, &w->block);
	free_filters(w, filters);
	w->block.filters = NULL;
	if (ret != LZMA_OK)
		return ret;
	w->block_start = w->out_total;
	if (w->deferred)
		w->ndeferred++;
	return LZMA_OK;
}

/* One call of the block's decoder, as the stream decoder makes it (without lzma_code's
 * LZMA_BUF_ERROR, which the stream decoder's inner call never sees). */
static lzma_ret block_run(struct sl_xz_walk *w, const uint8_t *in, size_t *in_pos, size_t in_size,
			  uint8_t *out, size_t *out_pos, size_t out_size, lzma_action action)
{
	w->dec.next_in = in + *in_pos;
	w->dec.avail_in = in_size - *in_pos;
	w->dec.next_out = out + *out_pos;
	w->dec.avail_out = out_size - *out_pos;

	lzma_ret ret = lzma_code(&w->dec, action);
	size_t made = (size_t)(w->dec.next_out - (out + *out_pos));

	*in_pos = (size_t)(w->dec.next_in - in);
	*out_pos += made;
	w->out_total += made;
	return ret == LZMA_BUF_ERROR ? LZMA_OK : ret;
}

static uint64_t stored_check(const lzma_block *b)
{
	uint32_t size = lzma_check_size(b->check);
	uint64_t v = 0;

	for (uint32_t i = size; i-- > 0;)
		v = v << 8 | b->raw_check[i]; /* little-endian (the xz format, 3.4) */
	return v;
}

bool sl_xz_walk_current(const struct sl_xz_walk *w, struct sl_xz_block *b)
{
	if (w->seq != SL_XZ_BLOCK_RUN || !w->deferred)
		return false;
	b->id = w->ndeferred;
	b->start = w->block_start;
	b->end = w->out_total;
	b->check = w->block.check;
	b->stored = 0;
	return true;
}

lzma_ret sl_xz_walk_code(struct sl_xz_walk *w, const uint8_t *in, size_t *in_pos, size_t in_size,
			 uint8_t *out, size_t *out_pos, size_t out_size, lzma_action action)
{
	lzma_ret ret;

	for (;;) {
		switch (w->seq) {
		case SL_XZ_STREAM_HEADER:
			gather(w, in, in_pos, in_size, LZMA_STREAM_HEADER_SIZE);
			if (w->pos < LZMA_STREAM_HEADER_SIZE)
				return LZMA_OK;
			w->pos = 0;
			ret = lzma_stream_header_decode(&w->flags, w->buf);
			if (ret != LZMA_OK)
				/* a later stream's bad magic is damage, not another format */
				return ret == LZMA_FORMAT_ERROR && !w->first_stream
					       ? LZMA_DATA_ERROR
					       : ret;
			w->first_stream = false;
			w->block.check = w->flags.check;
			w->seq = SL_XZ_BLOCK_HEADER;
			/* fall through */
		case SL_XZ_BLOCK_HEADER:
			if (*in_pos >= in_size)
				return LZMA_OK;
			if (w->pos == 0) {
				if (in[*in_pos] == INDEX_INDICATOR) {
					w->seq = SL_XZ_INDEX;
					break;
				}
				/* the header's size from its first byte, which it also holds */
				w->block.header_size = lzma_block_header_size_decode(in[*in_pos]);
			}
			gather(w, in, in_pos, in_size, w->block.header_size);
			if (w->pos < w->block.header_size)
				return LZMA_OK;
			w->pos = 0;
			w->seq = SL_XZ_BLOCK_INIT;
			/* fall through */
		case SL_XZ_BLOCK_INIT:
			ret = block_init(w);
			if (ret != LZMA_OK)
				return ret;
			w->seq = SL_XZ_BLOCK_RUN;
			/* fall through */
		case SL_XZ_BLOCK_RUN:
			ret = block_run(w, in, in_pos, in_size, out, out_pos, out_size, action);
			if (ret != LZMA_STREAM_END)
				return ret;
			if (w->deferred) {
				struct sl_xz_block b = {w->ndeferred, w->block_start, w->out_total,
							w->block.check, stored_check(&w->block)};

				if (!w->on_end(w->ctx, &b))
					return LZMA_DATA_ERROR;
			}
			ret = lzma_index_hash_append(w->ih, lzma_block_unpadded_size(&w->block),
						     w->block.uncompressed_size);
			if (ret != LZMA_OK)
				return ret;
			w->seq = SL_XZ_BLOCK_HEADER;
			break;
		case SL_XZ_INDEX:
			/* (called without input it would answer LZMA_BUF_ERROR) */
			if (*in_pos >= in_size)
				return LZMA_OK;
			ret = lzma_index_hash_decode(w->ih, in, in_pos, in_size);
			if (ret != LZMA_STREAM_END)
				return ret;
			w->seq = SL_XZ_STREAM_FOOTER;
			/* fall through */
		case SL_XZ_STREAM_FOOTER: {
			lzma_stream_flags foot;

			gather(w, in, in_pos, in_size, LZMA_STREAM_HEADER_SIZE);
			if (w->pos < LZMA_STREAM_HEADER_SIZE)
				return LZMA_OK;
			w->pos = 0;
			ret = lzma_stream_footer_decode(&foot, w->buf);
			if (ret != LZMA_OK)
				return ret == LZMA_FORMAT_ERROR ? LZMA_DATA_ERROR : ret;
			if (lzma_index_hash_size(w->ih) != foot.backward_size)
				return LZMA_DATA_ERROR;
			ret = lzma_stream_flags_compare(&w->flags, &foot);
			if (ret != LZMA_OK)
				return ret;
			w->seq = SL_XZ_STREAM_PADDING;
		}
			/* fall through */
		case SL_XZ_STREAM_PADDING:
			/* zero bytes, a multiple of four, then another stream or the end */
			for (;;) {
				if (*in_pos >= in_size) {
					if (action != LZMA_FINISH)
						return LZMA_OK;
					return w->pos == 0 ? LZMA_STREAM_END : LZMA_DATA_ERROR;
				}
				if (in[*in_pos] != 0x00)
					break;
				++*in_pos;
				w->pos = (w->pos + 1) & 3;
			}
			if (w->pos != 0) {
				++*in_pos;
				return LZMA_DATA_ERROR;
			}
			ret = walk_reset(w);
			if (ret != LZMA_OK)
				return ret;
			break;
		}
	}
}
