/*
 * The input under every trace reader (src/trace/input.c): the file or stdin, decompressed when
 * it is xz or gzip, as bytes or as lines. The generic layer (src/trace/reader.c) opens it before
 * it picks a reader, so that a reader sees text (or its own binary format) whatever the
 * compression; the readers take their bytes or lines from it. Inside src/trace only.
 */
#ifndef SCHEDLAB_TRACE_INPUT_H
#define SCHEDLAB_TRACE_INPUT_H

#include "trace/format.h"

/*
 * Start r->input on f, whose first len bytes were read into head (len < SL_TRACE_PROBE_LEN:
 * that was the whole input): xz or gzip by their magic bytes, else plain. 0, or -1 with r->err
 * set (a zstd input, refused by name; out of memory; a decoder that cannot start).
 */
int sl_trace_input_open(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len);
void sl_trace_input_close(struct sl_trace_reader *r);

/* Not compressed: r->f holds the bytes themselves (a reader may seek it). */
bool sl_trace_input_plain(const struct sl_trace_reader *r);

/*
 * The first bytes of an input as text, for the probes: head itself, or as much of it as
 * decompresses when it is xz or gzip (errors are left to the reads). Writes at most cap bytes to
 * out and returns how many.
 */
size_t sl_trace_peek_text(const unsigned char *head, size_t len, unsigned char *out, size_t cap);

/*
 * For the readers, from the beginning of the (decompressed) input: up to n bytes (0 at the end,
 * -1 with r->err), or the next line (NUL-terminated in place, without '\n' and a final '\r';
 * *lenp its length; NULL at the end, *rc 0, or on error, *rc -1 with r->err naming the file).
 * r->lines counts the lines served.
 */
long sl_trace_read(struct sl_trace_reader *r, void *dst, size_t n);
char *sl_trace_line(struct sl_trace_reader *r, size_t *lenp, int *rc);

#endif
