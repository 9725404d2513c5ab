/*
 * --sched-features / the debugfs sched_features file: a whitespace-separated list of NAME and
 * NO_NAME words, applied in order to each release's defaults. When a list is accepted, the set
 * printed as debugfs prints it must read back to the same set (the file's own round trip).
 */
#include "fuzz.h"
#include "sched/release.h"
#include "sched/features.h"

SL_FUZZ_TARGET(features)
{
	char *s = sl_fuzz_str(data, size);
	int rc = 0;

	for (int i = 0; i < sl_nreleases; i++) {
		const struct sl_feat_table *t = &sl_releases[i]->feats;
		u64 set = sl_feat_defaults(t), back = 0;
		char e[SL_FUZZ_ERR_LEN], shown[4096];

		if (sl_feat_write_list(t, &set, s, e, sizeof(e))) {
			if (!rc)
				snprintf(err, errlen, "%s", e);
			rc = -1;
			continue;
		}
		sl_feat_format(t, set, shown, sizeof(shown));
		if (sl_feat_write_list(t, &back, shown, e, sizeof(e)) || back != set) {
			fprintf(stderr, "features: '%s' does not read back (%s)\n", shown, e);
			abort();
		}
	}
	free(s);
	return rc;
}
