/*
 * schedlab trace-workload TRACE [--json] [--preempt] [-o F.json]: what the trace workload
 * (--workload trace:file=TRACE) extracts from a trace, printed as a table or JSON; -o writes the
 * same task programs as an rt-app JSON file; --preempt and --irq-window D extract as the keys
 * preempt=1 and irq_window=D do.
 */
#include "cli/trace_workload.h"
#include "workload/trace.h"
#include "core/outfile.h"
#include "core/parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(int rc, const char *fmt, ...)
{
	va_list ap;

	fputs("schedlab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return rc;
}

int sl_cli_trace_workload(int argc, char **argv)
{
	const char *path = NULL, *rtapp = NULL, *calibration = "";
	bool json = false;
	unsigned flags = SL_TW_PREEMPT_DEPS | SL_TW_YIELDS | SL_TW_HANDOFFS;
	u64 irq_window = SL_TW_IRQ_WINDOW_NS;
	char err[4400];
	struct sl_tw tw;
	struct sl_outfile o;

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--preempt")) {
			flags |= SL_TW_PREEMPT_DEPS;
		} else if (!strcmp(argv[i], "--irq-window")) {
			char e[160];

			if (i + 1 >= argc)
				return fail(2, "--irq-window needs a duration, e.g. 100us");
			if (sl_parse_duration(argv[++i], &irq_window, e, sizeof(e)))
				return fail(2, "--irq-window: %s", e);
		} else if (!strcmp(argv[i], "--calibration")) {
			if (i + 1 >= argc)
				return fail(2, "--calibration needs the recording machine's "
					       "calibrate directory");
			calibration = argv[++i];
		} else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--rtapp")) {
			if (i + 1 >= argc)
				return fail(2, "%s needs a value: the rt-app JSON file to write",
					    argv[i]);
			rtapp = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return fail(2,
				    "trace-workload: unknown option '%s' (--json, --preempt, "
				    "--irq-window D, --calibration DIR, -o FILE.json: an rt-app "
				    "file)",
				    argv[i]);
		} else if (path) {
			return fail(2, "trace-workload: one trace at a time ('%s' and '%s')", path,
				    argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return fail(2, "trace-workload: give a trace file (text, .xz or .gz), or - for "
			       "stdin");
	sl_outfile_input(path);
	if (rtapp && !strcmp(rtapp, "-"))
		return fail(2, "-o -: the table goes to standard output (expected a file for the "
			       "rt-app JSON)");
	if (rtapp && sl_outfile_is_input(rtapp))
		return fail(2,
			    "-o %s: the trace read (expected another file: the rt-app file would "
			    "replace it)",
			    rtapp);
	if (sl_tw_extract(&tw, path, flags, irq_window, err, sizeof(err)))
		return fail(2, "%s", err);
	struct sl_tw_costs costs;

	if (sl_tw_costs_load(&costs, path, calibration, err, sizeof(err))) {
		sl_tw_free(&tw);
		return fail(2, "%s", err);
	}
	if (sl_tw_cost_report(&tw, &costs)) {
		sl_tw_free(&tw);
		return fail(1, "trace-workload: out of memory");
	}
	int rc = 0;

	if (rtapp) {
		if (sl_outfile_open(&o, rtapp, err, sizeof(err))) {
			sl_tw_free(&tw);
			return fail(1, "-o %s", err);
		}
		if (sl_tw_write_rtapp(&tw, o.f)) {
			sl_outfile_abort(&o);
			rc = fail(1, "-o %s: write error", rtapp);
		} else if (sl_outfile_commit(&o, err, sizeof(err))) {
			rc = fail(1, "-o %s", err);
		}
	}
	if (!rc && sl_tw_report(&tw, json, stdout))
		rc = fail(1, "trace-workload: out of memory");
	sl_tw_free(&tw);
	return rc;
}
