/*
 * `schedlab trace-stats` on any text: the reader's records go into the summary (tasks indexed
 * by pid, CPUs, idle states, block requests paired by device and sector, the scheduling
 * statistics), strict and lenient, and the report is printed in both forms. The consumers of the
 * records are where arrays are indexed by numbers from the trace.
 */
#include "fuzz.h"
#include "trace/trace_stats.h"

static int summarize(const uint8_t *data, size_t size, bool lenient, char *err, size_t errlen)
{
	struct sl_trace_summary *s = malloc(sizeof(*s));
	FILE *f = fmemopen((void *)data, size, "r");
	FILE *out = fopen("/dev/null", "w");
	int rc;

	if (!s || !f || !out)
		abort();
	rc = sl_trace_summarize_stream(s, f, "fuzz.trace", lenient, err, errlen);
	if (!rc) {
		sl_trace_summary_print(s, false, out);
		sl_trace_summary_print(s, true, out);
	}
	sl_trace_summary_free(s);
	free(s);
	fclose(out);
	fclose(f);
	return rc;
}

SL_FUZZ_TARGET(trace_stats)
{
	char e[SL_FUZZ_ERR_LEN];
	int rc = summarize(data, size, false, err, errlen);

	(void)summarize(data, size, true, e, sizeof(e));
	return rc;
}
