/*
 * The ftrace text reader on plain text, strict and lenient: every record it returns is also
 * converted to the event stream (sl_trace_record_to_event), as the replay and stats do.
 */
#include "fuzz.h"
#include "fuzz_trace.h"

SL_FUZZ_TARGET(ftrace)
{
	int rc = sl_fuzz_read_trace(data, size, false, err, errlen);
	char e[SL_FUZZ_ERR_LEN];

	/* lenient mode skips malformed lines: only read and decompression errors remain */
	(void)sl_fuzz_read_trace(data, size, true, e, sizeof(e));
	return rc;
}
