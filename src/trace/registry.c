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
 *	.close };
 *    (src/trace/ftrace_text.c is the model, src/trace/idlestat.c that of a format with a magic:
 *    probe looks at the input's first SL_TRACE_PROBE_LEN bytes, already decompressed; open
 *    starts reading the input through sl_trace_line or sl_trace_read (src/trace/input.h),
 *    next fills a struct sl_trace_record; the generic layer turns the records into events),
 *    then add X(sl_FORMAT_reader) to TRACE_READERS below, before the readers
 *    whose probes are less specific than its own. An input no probe claims goes to
 *    TRACE_READER_FALLBACK. sl_trace_open(), and so trace-stats, replay-idle, validate and the
 *    trace workload, then read the format, plain or compressed.
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

/*
 * One line per format, X(its ops struct). Readers are probed in this order, the most specific
 * first: a binary magic (trace.dat), a magic first line (idlestat's trace file, whose lines
 * after the header are ftrace text), then ftrace text by its first line. An input none claims
 * goes to the fallback, the reader whose errors say best what is wrong with an unknown input:
 * ftrace text's name the file, the first line it cannot read and what it expected there.
 */
#define TRACE_READERS(X)                                                                           \
	X(sl_trace_dat_reader)                                                                     \
	X(sl_idlestat_reader)                                                                      \
	X(sl_ftrace_text_reader)
#define TRACE_READER_FALLBACK sl_ftrace_text_reader

/* The first writer is the default (a file name no writer's extension claims). */
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
static const struct sl_trace_reader_ops *const fallback = &TRACE_READER_FALLBACK;
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
	return fallback;
}

const struct sl_trace_reader_ops *sl_trace_reader_fallback(void)
{
	return fallback;
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
