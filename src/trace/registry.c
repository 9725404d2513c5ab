/*
 * The trace formats: one static array of readers, one of writers. Each format is one file with
 * its ops struct (struct sl_trace_reader_ops or struct sl_trace_writer_ops, src/trace/format.h),
 * as each cpuidle governor is one file behind struct sl_cpuidle_governor (src/cpuidle/cpuidle.c
 * lists them); nothing outside this file chooses between the formats.
 *
 * How to add a format:
 *
 *  - a reader: write src/trace/FORMAT.c defining
 *	const struct sl_trace_reader_ops sl_FORMAT_reader = { .name, .probe, .open, .next,
 *	.next_event, .close };
 *    (src/trace/ftrace_text.c is the model: probe looks at the input's first
 *    SL_TRACE_PROBE_LEN bytes, open is handed the stream and those bytes, next fills a
 *    struct sl_trace_record, next_event the struct sl_event of the next one that has a
 *    meaning), then add X(sl_FORMAT_reader) to TRACE_READERS below. Readers are probed in that
 *    order; the first also takes an input no probe claims. sl_trace_open(), and so trace-stats,
 *    replay-idle and validate, then read the format.
 *
 *  - a writer: write src/trace/FORMAT_writer.c defining
 *	const struct sl_trace_writer_ops sl_FORMAT_writer = { .name, .exts, .open, .write_event,
 *	.close };
 *    (src/trace/chrome_json_writer.c is the model: open writes the header to w->f, write_event
 *    is called for every event of the run, close writes the trailer), then add
 *    X(sl_FORMAT_writer) to TRACE_WRITERS below. `run --trace-out F` picks the first writer
 *    that claims F's extension, else the first writer. The file handling (a temporary renamed
 *    into place, a failed write stopping the run) is src/trace/export.c's, not the writer's.
 *
 * CMakeLists.txt globs the sources under src/: there is no other list to edit.
 */
#include "trace/registry.h"

#include <string.h>

/* One line per format, X(its ops struct); the first of each list is the default. */
#define TRACE_READERS(X)                                                                           \
	X(sl_ftrace_text_reader)                                                                   \
	X(sl_trace_dat_reader)                                                                     \
	X(sl_idlestat_reader)

#define TRACE_WRITERS(X)                                                                           \
	X(sl_ftrace_text_writer)                                                                   \
	X(sl_chrome_json_writer)                                                                   \
	X(sl_systrace_text_writer)                                                                 \
	X(sl_trace_cmd_report_writer)

#define DECLARE_READER(ops) extern const struct sl_trace_reader_ops ops;
#define DECLARE_WRITER(ops) extern const struct sl_trace_writer_ops ops;
#define ENTRY(ops)	    &ops,

TRACE_READERS(DECLARE_READER)
TRACE_WRITERS(DECLARE_WRITER)

static const struct sl_trace_reader_ops *const readers[] = {TRACE_READERS(ENTRY)};
static const struct sl_trace_writer_ops *const writers[] = {TRACE_WRITERS(ENTRY)};

#define NREADERS ((int)SL_ARRAY_SIZE(readers))
#define NWRITERS ((int)SL_ARRAY_SIZE(writers))

const struct sl_trace_reader_ops *sl_trace_reader_nth(int i)
{
	return i >= 0 && i < NREADERS ? readers[i] : NULL;
}

const struct sl_trace_writer_ops *sl_trace_writer_nth(int i)
{
	return i >= 0 && i < NWRITERS ? writers[i] : NULL;
}

const struct sl_trace_reader_ops *sl_trace_reader_by_name(const char *name)
{
	for (int i = 0; i < NREADERS; i++)
		if (!strcmp(readers[i]->name, name))
			return readers[i];
	return NULL;
}

const struct sl_trace_writer_ops *sl_trace_writer_by_name(const char *name)
{
	for (int i = 0; i < NWRITERS; i++)
		if (!strcmp(writers[i]->name, name))
			return writers[i];
	return NULL;
}

const struct sl_trace_reader_ops *sl_trace_reader_probe(const unsigned char *head, size_t len)
{
	for (int i = 0; i < NREADERS; i++)
		if (readers[i]->probe(head, len))
			return readers[i];
	return readers[0];
}

const struct sl_trace_writer_ops *sl_trace_writer_for_path(const char *path)
{
	size_t n = strlen(path);

	for (int i = 0; i < NWRITERS; i++) {
		for (int k = 0; k < SL_TRACE_MAX_EXTS && writers[i]->exts[k]; k++) {
			const char *ext = writers[i]->exts[k];
			size_t m = strlen(ext);

			if (n > m && !strcmp(path + n - m, ext))
				return writers[i];
		}
	}
	return writers[0];
}
