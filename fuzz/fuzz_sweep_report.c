/*
 * sweep-report's and sweep-merge's reader: the same bytes read as a CSV sweep file and as a
 * JSON Lines one (header or first row, then rows checked for run, config, flags and levels).
 */
#include "experiment/sweep.h"
#include "fuzz.h"

SL_FUZZ_TARGET(sweep_report)
{
	static const char *const names[2] = {"fuzz.csv", "fuzz.jsonl"};
	int rc = 0;

	for (int i = 0; i < 2; i++) {
		char e[SL_FUZZ_ERR_LEN] = "";
		FILE *f = fmemopen((void *)data, size, "r");

		if (!f)
			abort();
		if (sl_sweep_report_read(f, names[i], e, sizeof(e))) {
			if (!rc)
				snprintf(err, errlen, "%s", e);
			rc = -1;
		}
		fclose(f);
	}
	return rc;
}
