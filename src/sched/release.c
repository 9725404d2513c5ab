/* The registry of CFS releases: one line per release file. */
#include "sched/cfs.h"

#include <string.h>

const struct sl_cfs_release *const sl_cfs_releases[] = {
	&sl_cfs_2_6_31,
	&sl_cfs_2_6_32,
	&sl_eevdf_6_18,
};
const int sl_cfs_nreleases = (int)SL_ARRAY_SIZE(sl_cfs_releases);

const struct sl_cfs_release *sl_cfs_release_find(const char *name)
{
	for (int i = 0; i < sl_cfs_nreleases; i++)
		if (!strcmp(sl_cfs_releases[i]->name, name))
			return sl_cfs_releases[i];
	return NULL;
}
