/*
 * The registry of kernel releases (release.h): one line per release file, and the classes every
 * release has above its fair class. The one file outside a policy's folder that names policies
 * (tools/check_policy_names.sh).
 */
#include "sched/release.h"
#include "sched/plugin/plugin.h"
#include "sched/rt/rt.h"

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

/* The classes above every release's fair class, highest first, as the kernel's list. */
static const struct sl_sched_class *const common_classes[] = {&sl_rt_class};

int sl_release_classes(const struct sl_release *rel, const struct sl_sched_class **out)
{
	int n = 0;

	for (size_t i = 0; i < SL_ARRAY_SIZE(common_classes); i++)
		out[n++] = common_classes[i];
	out[n++] = rel->fair;
	return n;
}

void sl_release_boot_tunables(const struct sl_release *rel, struct sl_tunables *t, int ncpu)
{
	*t = rel->defaults;
	sl_rt_tunables_default(t); /* the same in every release */
	if (rel->init_granularity)
		rel->init_granularity(t, ncpu);
}

bool sl_release_has_policy(const struct sl_release *rel, int policy)
{
	if (SL_POLICIES_LINUX & SL_POLICY_BIT(policy))
		return true;
	for (int i = 0; i < rel->nown_policies; i++)
		if (rel->own_policies[i].policy == policy)
			return true;
	return false;
}

const struct sl_release *sl_release_offering(int policy, const struct sl_task_policy **desc)
{
	for (int r = 0; r < sl_nreleases; r++)
		for (int i = 0; i < sl_releases[r]->nown_policies; i++)
			if (sl_releases[r]->own_policies[i].policy == policy) {
				*desc = &sl_releases[r]->own_policies[i];
				return sl_releases[r];
			}
	return NULL;
}

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

void sl_release_names_if(char *buf, size_t len, bool (*has)(const struct sl_release *rel))
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < sl_nreleases && n < len; i++)
		if (!has || has(sl_releases[i]))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      sl_releases[i]->name);
	sl_plugin_names(buf, len, has);
}

void sl_release_names(char *buf, size_t len)
{
	sl_release_names_if(buf, len, NULL);
}
