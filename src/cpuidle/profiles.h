/*
 * Machine idle profiles: the driver table (states, exit latencies, target residencies, power)
 * of one machine, each a plug-in in src/cpuidle/profiles/ with one line in registry.c.
 * A profile spec is NAME or NAME:ARG ("sysfs:/some/dir", "file:PATH").
 */
#ifndef SCHEDLAB_CPUIDLE_PROFILES_H
#define SCHEDLAB_CPUIDLE_PROFILES_H

#include <stdio.h>

#include "cpuidle/cpuidle.h"

struct sl_idle_profile {
	const char *name;
	const char *help;
	/* Fill drv; return 0, or -1 with err naming the problem. */
	int (*load)(struct sl_cpuidle_driver *drv, const char *arg, char *err, size_t errlen);
	/* the cpuidle driver a real machine names (current_driver) where this profile stands for
	 * its idle states, NULL: none; no_poll: the kernel never polls there (no governor runs),
	 * so the profile's POLL state is to be disabled */
	const char *driver;
	bool no_poll;
};
extern const struct sl_idle_profile *const sl_idle_profiles[];
extern const int sl_nidle_profiles;
const struct sl_idle_profile *sl_idle_profile_find(const char *name);
/* the profile that stands for a real machine's cpuidle driver (NULL: none does) */
const struct sl_idle_profile *sl_idle_profile_for_driver(const char *driver);
/* "file:PATH" loads a custom table; see docs/idle-profile-format.md */
int sl_idle_profile_load(const char *spec, struct sl_cpuidle_driver *drv, char *err, size_t errlen);
/* The parser of "file:PATH" on an open stream; `name` stands for the file in messages (and is
 * the table's name when it has no name line). Lets a caller parse a buffer (fmemopen). */
int sl_idle_profile_parse(FILE *f, const char *name, struct sl_cpuidle_driver *drv, char *err,
			  size_t errlen);
/* Write drv in the format of docs/idle-profile-format.md (what "file:PATH" reads back). */
int sl_idle_profile_write(FILE *f, const struct sl_cpuidle_driver *drv);

#endif
