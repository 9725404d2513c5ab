/* The registry of kernel releases (release.h): one line per release file. */
#include "sched/release.h"
#include "sched/plugin/plugin.h"

#include <stdio.h>
#include <string.h>

/* One X(release) line per release file; the order of --kernel's list of valid names. */
#define RELEASES(X)                                                                                \
	X(sl_cfs_2_6_31)                                                                           \
	X(sl_cfs_2_6_32)                                                                           \
	X(sl_eevdf_6_18)                                                                           \
	X(sl_bfs_2_6_31)

#define DECLARE(ops) extern const struct sl_release ops;
#define ENTRY(ops)   &ops,
RELEASES(DECLARE)

const struct sl_release *const sl_releases[] = {RELEASES(ENTRY)};
const int sl_nreleases = (int)SL_ARRAY_SIZE(sl_releases);

const struct sl_release *sl_release_find(const char *name)
{
	for (int i = 0; i < sl_nreleases; i++)
		if (!strcmp(sl_releases[i]->name, name))
			return sl_releases[i];
	/* then the policies --policy loaded (sched/plugin/) */
	return sl_plugin_find(name);
}

const struct sl_release *sl_release_default(void)
{
	return sl_release_find(SL_DEFAULT_RELEASE);
}

const struct sl_release *sl_release_of_uname(const char *release)
{
	unsigned a = 0, b = 0, c = 0;

	if (sscanf(release, "%u.%u.%u", &a, &b, &c) < 2)
		return NULL;
	if (a == 2 && b == 6 && c == 31)
		return sl_release_find("2.6.31");
	if (a == 2 && b == 6 && c == 32)
		return sl_release_find("2.6.32");
	if (a > 6 || (a == 6 && b >= 6))
		return sl_release_find("6.18");
	return NULL;
}

void sl_release_names(char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < sl_nreleases && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      sl_releases[i]->name);
	sl_plugin_names(buf, len);
}
