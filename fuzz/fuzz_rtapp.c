/*
 * rt-app JSON files: the order-keeping JSON reader (comments, duplicate keys, named limits on
 * depth, size and members) and the rt-app description built on it, from a buffer.
 */
#include "fuzz.h"
#include "workload/rtapp.h"

SL_FUZZ_TARGET(rtapp)
{
	struct rta_file *f = calloc(1, sizeof(*f));
	int rc;

	if (!f)
		abort();
	rc = sl_rta_parse("fuzz.json", (const char *)data, size, f, err, errlen);
	sl_rta_free(f);
	free(f);
	return rc;
}
