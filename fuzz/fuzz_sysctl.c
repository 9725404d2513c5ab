/*
 * --sysctl kernel.NAME=VALUE: one assignment per line, applied in order (sched_nr_latency
 * follows latency and min_granularity) to each release's defaults; every sysctl is then read
 * back as `sysctl NAME` prints it.
 */
#include "sched/sysctl.h"
#include "fuzz.h"

SL_FUZZ_TARGET(sysctl)
{
	char *s = sl_fuzz_str(data, size);
	int rc = 0;

	for (int i = 0; i < sl_nreleases; i++) {
		const struct sl_release *rel = sl_releases[i];
		struct sl_tunables t = rel->defaults;
		u64 f = sl_feat_defaults(&rel->feats);
		char *rest = s, *copy = strdup(s), *line;
		char e[SL_FUZZ_ERR_LEN];

		if (!copy)
			abort();
		rest = copy;
		while ((line = sl_fuzz_line(&rest))) {
			if (sl_sysctl_write(rel, &t, &f, line, e, sizeof(e))) {
				if (!rc)
					snprintf(err, errlen, "%s", e);
				rc = -1;
				break;
			}
		}
		for (int k = 0; k < sl_nsysctls; k++)
			(void)sl_sysctl_read(rel, &t, f, &sl_sysctls[k]);
		free(copy);
	}
	free(s);
	return rc;
}
