/*
 * A policy plug-in (include/schedlab/policy.h) as the machine sees it: a release made at run time
 * from the .so's tables, whose fair class is the adapter sl_plugin_class (plugin_class.c) that
 * calls the policy's callbacks, and whose class_data is the struct sl_plugin below.
 *
 * Loaded plug-ins are kept for the life of the process in a list of their own (plugin_load.c),
 * read-only once loaded (a sweep's workers share them): sl_release_find looks there after the
 * in-tree registry, so a loaded policy's name is taken wherever a release's is.
 *
 * The policy's features have a bit space of their own in the run's feature set: bit
 * SL_FEAT_OWN(i) (features.h) is its feature i. No in-tree release's table names those bits, and a
 * plug-in release's table names no other, so neither can read the other's flags.
 */
#ifndef SCHEDLAB_PLUGIN_H
#define SCHEDLAB_PLUGIN_H

#include <schedlab/policy.h>

#include "sched/release.h"
#include "sched/sysctl.h"

_Static_assert(SCHEDLAB_POLICY_MAX_FEATURES <= SL_FEAT_OWN_MAX,
	       "a plug-in's flags are a policy's own bits (features.h)");
_Static_assert(SCHEDLAB_POLICY_MAX_SYSCTLS <= SL_ARRAY_SIZE(((struct sl_tunables *)0)->policy),
	       "a plug-in's sysctls are kept in struct sl_tunables' policy[]");

struct sl_plugin {
	const struct schedlab_policy *pol;
	void *dl;   /* dlopen's handle */
	char *path; /* as given */
	struct sl_release rel;
	struct sl_feat_desc feats[SCHEDLAB_POLICY_MAX_FEATURES];
	struct sl_sysctl_desc sysctls[SCHEDLAB_POLICY_MAX_SYSCTLS];
	char hint[256]; /* the release's sysctl_hint */
};

extern const struct sl_sched_class sl_plugin_class;
/* the functions the policies call (plugin_host.c) */
extern const struct schedlab_host sl_plugin_host;

/*
 * Load the policy at path (dlopen; a path without '/' is taken as ./path, never searched in the
 * library path), check it and make its release; the same path again gives the same release.
 * NULL with err: the file, what is wrong and what was expected.
 */
const struct sl_release *sl_plugin_load(const char *path, char *err, size_t errlen);
/* a loaded policy's release by its name; NULL: none */
const struct sl_release *sl_plugin_find(const char *name);
/* the loaded policies' names, ", name" each, appended to buf */
void sl_plugin_names(char *buf, size_t len, bool (*has)(const struct sl_release *rel));
/* does a loaded policy have a sysctl of that name? */
bool sl_plugin_has_sysctl(const char *name);
/*
 * The checks of a policy's tables, apart from loading (the tests call it): -1 with err naming
 * the file (path) and the table entry.
 */
int sl_plugin_check(const struct schedlab_policy *pol, const char *path, char *err, size_t errlen);

static inline const struct sl_plugin *sl_plugin_of(const struct sl_sim *sim)
{
	return (const struct sl_plugin *)sim->rel->class_data;
}

/* the policy's areas for one simulation (sim->class_state) */
struct sl_plugin_state {
	void *global;
	char *cpus;	    /* ncpu areas of cpu_size */
	char **task_chunks; /* SL_TASK_CHUNK areas of task_size each, by (pid - 1) */
	int nchunks;
};

static inline struct sl_plugin_state *sl_plugin_state(const struct sl_sim *sim)
{
	return (struct sl_plugin_state *)sim->class_state;
}

/* a task's area (NULL: the policy has none, or p is not the policy's) */
void *sl_plugin_task_area(const struct sl_sim *sim, const struct sl_task *p);
/* host->migrate: p, queued and not running, moves to cpu; -1: it cannot */
int sl_plugin_migrate(struct sl_sim *sim, struct sl_task *p, int cpu);
/* a callback broke the API's contract: the run fails with this message */
void sl_plugin_fail(struct sl_sim *sim, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
