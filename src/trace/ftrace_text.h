/*
 * What the ftrace text reader (src/trace/ftrace_text.c) lends the readers of formats built on
 * it: idlestat's trace file (a header, then ftrace text) and the binary trace.dat (whose events
 * libtraceevent prints as ftrace text lines). Inside src/trace only.
 */
#ifndef SCHEDLAB_TRACE_FTRACE_TEXT_H
#define SCHEDLAB_TRACE_FTRACE_TEXT_H

#include "trace/format.h"
#include "trace/input.h"

extern const struct sl_trace_reader_ops sl_ftrace_text_reader;

/*
 * One line s (n bytes, NUL-terminated, writable) of ftrace text at line number `line`: 1 a
 * record in *o, 0 nothing (a header, an unknown event, or a malformed line skipped in lenient
 * mode), -1 malformed (r->err names r->path, the line and what was expected).
 */
int sl_ftrace_parse(struct sl_trace_reader *r, char *s, size_t n, unsigned long line,
		    struct sl_trace_record *o);

#endif
