/*
 * What the ftrace text reader (src/trace/ftrace_text.c) lends the readers of formats built on
 * it: idlestat's trace file (a header, then ftrace text) and the binary trace.dat (whose events
 * libtraceevent prints as ftrace text lines). Inside src/trace only.
 */
#ifndef SCHEDLAB_TRACE_FTRACE_TEXT_H
#define SCHEDLAB_TRACE_FTRACE_TEXT_H

#include "trace/format.h"

extern const struct sl_trace_reader_ops sl_ftrace_text_reader;

/*
 * The first bytes of an input as text: head itself, or as much of it as decompresses when it is
 * xz or gzip. Writes at most cap bytes to out and returns how many.
 */
size_t sl_trace_peek_text(const unsigned char *head, size_t len, unsigned char *out, size_t cap);

/* xz or gzip, by the magic bytes */
bool sl_trace_compressed(const unsigned char *head, size_t len);

/* trace.dat's magic: "\x17\x08\x44tracing" (trace-cmd's lib/trace-cmd/trace-output.c) */
bool sl_trace_dat_magic(const unsigned char *text, size_t len);
/* idlestat's trace file: its first line "idlestat version = ..." */
bool sl_idlestat_magic(const unsigned char *text, size_t len);

/*
 * With the ftrace text reader's open (sl_ftrace_text_reader.open on r): up to n decompressed
 * bytes (0 at the end, -1 with r->err), or the next line (NUL-terminated, without '\n'; NULL at
 * the end, *rc 0, or on error, *rc -1).
 */
long sl_ftrace_read(struct sl_trace_reader *r, void *dst, size_t n);
char *sl_ftrace_next_line(struct sl_trace_reader *r, size_t *lenp, int *rc);

/*
 * One line s (n bytes, NUL-terminated, writable) of ftrace text at line number `line`: 1 a
 * record in *o, 0 nothing (a header, an unknown event, or a malformed line skipped in lenient
 * mode), -1 malformed (r->err names r->path, the line and what was expected).
 */
int sl_ftrace_parse(struct sl_trace_reader *r, char *s, size_t n, unsigned long line,
		    struct sl_trace_record *o);

#endif
