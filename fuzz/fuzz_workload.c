/*
 * --workload NAME:key=val,...: one spec per line through sl_workload_parse (the one parser of the
 * workloads' key rows, then each workload's check()). The seeds name every workload.
 */
#include "fuzz.h"
#include "workload/workload.h"

SL_FUZZ_TARGET(workload)
{
	char *s = sl_fuzz_str(data, size), *rest = s, *line;
	int rc = 0;

	while (!rc && (line = sl_fuzz_line(&rest))) {
		struct sl_workload_inst w;

		memset(&w, 0, sizeof(w));
		rc = sl_workload_parse(line, &w, err, errlen);
		if (!rc)
			sl_workload_inst_free(&w);
	}
	free(s);
	return rc;
}
