/* The idle profile registry: one line per profile, and the NAME[:ARG] spec parser. */
#include "cpuidle/profiles/profile.h"
#include "core/suggest.h"

#include <stdio.h>

#include <string.h>

/* One X(ops) line per profile file, in `machines` order. */
#define PROFILES(X)                                                                                \
	X(sl_profile_nehalem)                                                                      \
	X(sl_profile_nehalem_acpi)                                                                 \
	X(sl_profile_core2)                                                                        \
	X(sl_profile_skylake)                                                                      \
	X(sl_profile_skylake_server)                                                               \
	X(sl_profile_sapphire_rapids)                                                              \
	X(sl_profile_vm_haltpoll)                                                                  \
	X(sl_profile_vm_hlt)                                                                       \
	X(sl_profile_sysfs)                                                                        \
	X(sl_profile_file)

#define DECLARE(ops) extern const struct sl_idle_profile ops;
#define ENTRY(ops)   &ops,
PROFILES(DECLARE)

const struct sl_idle_profile *const sl_idle_profiles[] = {PROFILES(ENTRY)};
const int sl_nidle_profiles = (int)SL_ARRAY_SIZE(sl_idle_profiles);

const struct sl_idle_profile *sl_idle_profile_find(const char *name)
{
	for (int i = 0; i < sl_nidle_profiles; i++)
		if (!strcmp(sl_idle_profiles[i]->name, name))
			return sl_idle_profiles[i];
	return NULL;
}

const struct sl_idle_profile *sl_idle_profile_for_driver(const char *driver)
{
	for (int i = 0; driver && i < sl_nidle_profiles; i++)
		if (sl_idle_profiles[i]->driver && !strcmp(sl_idle_profiles[i]->driver, driver))
			return sl_idle_profiles[i];
	return NULL;
}

int sl_idle_profile_static(struct sl_cpuidle_driver *drv, const struct sl_cpuidle_driver *table,
			   const char *arg, char *err, size_t errlen)
{
	if (arg) {
		snprintf(err, errlen, "idle profile %s takes no argument (got ':%s')", table->name,
			 arg);
		return -1;
	}
	*drv = *table;
	return 0;
}

int sl_idle_profile_load(const char *spec, struct sl_cpuidle_driver *drv, char *err, size_t errlen)
{
	const struct sl_idle_profile *p;
	const char *colon, *arg = NULL;
	char name[64];
	size_t n, used;

	if (!spec || !*spec) {
		snprintf(err, errlen, "empty idle profile name");
		return -1;
	}
	colon = strchr(spec, ':');
	n = colon ? (size_t)(colon - spec) : strlen(spec);
	if (colon)
		arg = colon + 1;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, spec, n);
	name[n] = '\0';
	p = sl_idle_profile_find(name);
	if (!p) {
		struct sl_suggest sg;
		char hint[128];

		sl_suggest_init(&sg, name, strlen(name));
		for (int i = 0; i < sl_nidle_profiles; i++)
			sl_suggest_add(&sg, sl_idle_profiles[i]->name);
		used = (size_t)snprintf(err, errlen, "unknown idle profile '%s'%s (known:", name,
					sl_suggest_text(&sg, hint, sizeof(hint)));
		for (int i = 0; i < sl_nidle_profiles && used < errlen; i++)
			used += (size_t)snprintf(err + used, errlen - used, " %s",
						 sl_idle_profiles[i]->name);
		if (used < errlen)
			snprintf(err + used, errlen - used, ")");
		return -1;
	}
	memset(drv, 0, sizeof(*drv));
	if (p->load(drv, arg, err, errlen)) {
		memset(drv, 0, sizeof(*drv));
		return -1;
	}
	return 0;
}
