/* Reading a whole trace from memory, shared by the plain and the compressed trace targets. */
#ifndef SCHEDLAB_FUZZ_TRACE_H
#define SCHEDLAB_FUZZ_TRACE_H

#include "fuzz.h"
#include "trace/format.h"

/* 0: read to the end; -1: refused, with the reader's message in err */
static inline int sl_fuzz_read_trace(const uint8_t *data, size_t size, bool lenient, char *err,
				     size_t errlen)
{
	struct sl_trace_reader *r = malloc(sizeof(*r));
	struct sl_trace_record rec;
	struct sl_event ev;
	FILE *f = fmemopen((void *)data, size, "r");
	int rc;

	if (!r || !f)
		abort();
	if (sl_trace_open_stream(r, NULL, f, "fuzz.trace", lenient, err, errlen)) {
		fclose(f);
		free(r);
		return -1;
	}
	while ((rc = sl_trace_next(r, &rec)) == 1)
		(void)sl_trace_record_to_event(&rec, &ev);
	if (rc < 0)
		snprintf(err, errlen, "%s", r->err);
	(void)sl_trace_overflowed(r);
	sl_trace_close(r);
	fclose(f);
	free(r);
	return rc < 0 ? -1 : 0;
}

#endif
