/*
 * The trace formats schedlab reads and writes, by name, by file extension (writers) or by the
 * input's first bytes (readers). The list, and how to add a format: src/trace/registry.c.
 */
#ifndef SCHEDLAB_TRACE_REGISTRY_H
#define SCHEDLAB_TRACE_REGISTRY_H

#include "trace/format.h"

/* The i-th reader or writer (registry order), NULL past the last: for listing them. */
const struct sl_trace_reader_ops *sl_trace_reader_nth(int i);
const struct sl_trace_writer_ops *sl_trace_writer_nth(int i);

/* By name ("ftrace-text"); NULL when there is none. */
const struct sl_trace_reader_ops *sl_trace_reader_by_name(const char *name);
const struct sl_trace_writer_ops *sl_trace_writer_by_name(const char *name);

/*
 * The reader of an input whose first len bytes of text (decompressed) are head: the first whose
 * probe claims it, most specific first, else the fallback (its errors then say what is wrong).
 * Never NULL.
 */
const struct sl_trace_reader_ops *sl_trace_reader_probe(const unsigned char *head, size_t len);
/* The reader of what no probe claims: ftrace text. */
const struct sl_trace_reader_ops *sl_trace_reader_fallback(void);

/*
 * The writer of a file named path: the first that claims the end of the name (after at least
 * one character: "x.json", not ".json"), else the first of the registry. Never NULL.
 */
const struct sl_trace_writer_ops *sl_trace_writer_for_path(const char *path);

#endif
