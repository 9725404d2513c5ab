/*
 * The trace.dat reader: the bytes as a .dat (the reader chosen by name, so that the header's
 * checks and libtracecmd see every input), every record read. libtracecmd runs in a child
 * process: a crash there must come back as a refusal naming the file, never this process's.
 */
#include "fuzz.h"
#include "trace/format.h"
#include "trace/registry.h"

SL_FUZZ_TARGET(trace_dat)
{
	struct sl_trace_reader r;
	struct sl_trace_record rec;
	FILE *f = fmemopen((void *)data, size, "r");
	int rc;

	if (!f)
		abort();
	rc = sl_trace_open_stream(&r, sl_trace_reader_by_name("trace-dat"), f, "fuzz.dat", false,
				  err, errlen);
	if (!rc) {
		while ((rc = sl_trace_next(&r, &rec)) == 1)
			;
		if (rc < 0)
			snprintf(err, errlen, "%s", r.err);
		sl_trace_close(&r);
	}
	fclose(f);
	return rc < 0 ? -1 : 0;
}
