/*
 * Loading a policy plug-in (plugin.h): dlopen the .so, find its entry point, check its ABI
 * number and its tables, and make the release the rest of the program takes: its name, its
 * features in the plug-ins' own bits of the feature set, its sysctls in struct sl_tunables'
 * policy[] (32-bit values, as the kernel's sysctl ints). Every refusal names the file and what
 * was expected; the caller exits with status 2.
 */
#include "sched/plugin/plugin.h"
#include "sched/class.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the loaded plug-ins, for the life of the process */
#define SL_MAX_PLUGINS 16
static struct sl_plugin *loaded[SL_MAX_PLUGINS];
static int nloaded;

static bool name_chars(const char *s, const char *extra)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return false;
	return true;
}

static int refuse(char *err, size_t errlen, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "--policy %s: %s (see docs/policy-api.md)", path, msg);
	return -1;
}

int sl_plugin_check(const struct schedlab_policy *pol, const char *path, char *err, size_t errlen)
{
	if (pol->abi != SCHEDLAB_POLICY_ABI)
		return refuse(err, errlen, path,
			      "built for policy ABI %u, this schedlab has ABI %d: rebuild it "
			      "against this schedlab's include/schedlab/policy.h",
			      pol->abi, SCHEDLAB_POLICY_ABI);
	if (!name_chars(pol->name, "-_.") || strlen(pol->name) > 40)
		return refuse(err, errlen, path,
			      "the policy's name must be 1..40 letters, digits, '-', '_' or '.'");
	if (!pol->enqueue || !pol->dequeue || !pol->pick_next || !pol->put_prev)
		return refuse(err, errlen, path,
			      "the policy lacks a required callback (enqueue, dequeue, pick_next "
			      "and put_prev are required)");
	if (pol->nr_features < 0 || pol->nr_features > SCHEDLAB_POLICY_MAX_FEATURES)
		return refuse(err, errlen, path, "%d features: 0..%d are allowed", pol->nr_features,
			      SCHEDLAB_POLICY_MAX_FEATURES);
	if (pol->nr_features && !pol->features)
		return refuse(err, errlen, path, "nr_features is %d but features is NULL",
			      pol->nr_features);
	if (pol->nr_sysctls < 0 || pol->nr_sysctls > SCHEDLAB_POLICY_MAX_SYSCTLS)
		return refuse(err, errlen, path, "%d sysctls: 0..%d are allowed", pol->nr_sysctls,
			      SCHEDLAB_POLICY_MAX_SYSCTLS);
	if (pol->nr_sysctls && !pol->sysctls)
		return refuse(err, errlen, path, "nr_sysctls is %d but sysctls is NULL",
			      pol->nr_sysctls);
	for (int i = 0; i < pol->nr_features; i++) {
		const char *n = pol->features[i].name;

		if (!name_chars(n, "_") || strlen(n) > 40 || !strncmp(n, "NO_", 3))
			return refuse(err, errlen, path,
				      "feature %d: a name of 1..40 letters, digits or '_' not "
				      "starting with NO_ is expected",
				      i);
		for (int j = 0; j < i; j++)
			if (!strcmp(pol->features[j].name, n))
				return refuse(err, errlen, path,
					      "feature '%s' is declared twice (entries %d and %d)",
					      n, j, i);
	}
	for (int i = 0; i < pol->nr_sysctls; i++) {
		const struct schedlab_sysctl *d = &pol->sysctls[i];

		if (!name_chars(d->name, "_.") || strlen(d->name) > 60)
			return refuse(err, errlen, path,
				      "sysctl %d: a name of 1..60 letters, digits, '_' or '.' is "
				      "expected",
				      i);
		for (int j = 0; j < i; j++)
			if (!strcmp(pol->sysctls[j].name, d->name))
				return refuse(err, errlen, path,
					      "sysctl '%s' is declared twice (entries %d and %d)",
					      d->name, j, i);
		/* the kernel's sysctl ints: 32 bits, an unsigned one unless a bound is negative */
		bool ok = d->min <= d->def && d->def <= d->max &&
			  (d->min < 0 ? d->min >= INT32_MIN && d->max <= INT32_MAX
				      : d->max <= (int64_t)UINT32_MAX);

		if (!ok)
			return refuse(
				err, errlen, path,
				"sysctl '%s': min <= default <= max within 32 bits is expected "
				"(min %lld, default %lld, max %lld)",
				d->name, (long long)d->min, (long long)d->def, (long long)d->max);
	}
	return 0;
}

/* nothing may take a name the in-tree registry or another plug-in has */
static int name_free(const char *name, const char *path, char *err, size_t errlen)
{
	for (int i = 0; i < sl_nreleases; i++)
		if (!strcmp(sl_releases[i]->name, name))
			return refuse(err, errlen, path,
				      "the policy's name '%s' is an in-tree release's", name);
	if (sl_plugin_find(name))
		return refuse(err, errlen, path,
			      "another --policy has loaded a policy named '%s' already", name);
	return 0;
}

/* no scaling of the policy's sysctls at boot; the RT class runs unthrottled, as under BFS (a
 * plug-in release has no kernel.sched_rt_* rows to show a limit) */
static void plugin_init_granularity(struct sl_tunables *t, int ncpu)
{
	(void)ncpu;
	t->sched_rt_runtime_us = (u32)-1;
}

static void make_release(struct sl_plugin *pl)
{
	const struct schedlab_policy *pol = pl->pol;
	struct sl_release *r = &pl->rel;
	size_t n = 0;

	r->name = pol->name;
	r->fair = &sl_plugin_class;
	r->init_granularity = plugin_init_granularity;
	/* the modern menu governor, as the newest in-tree release boots with */
	r->idle_governor = "menu";
	for (int i = 0; i < pol->nr_features; i++)
		pl->feats[i] = (struct sl_feat_desc){SL_FEAT_OWN(i), pol->features[i].name,
						     pol->features[i].def, true};
	r->feats.flags = pl->feats;
	r->feats.n = pol->nr_features;
	for (int i = 0; i < pol->nr_sysctls; i++) {
		const struct schedlab_sysctl *d = &pol->sysctls[i];

		pl->sysctls[i] = (struct sl_sysctl_desc){
			d->name,   offsetof(struct sl_tunables, policy) + (size_t)i * sizeof(u64),
			d->min,	   d->max,
			false,	   true,
			0,	   false,
			d->min < 0};
		r->defaults.policy[i] = (u64)(u32)d->def;
	}
	r->own_sysctls = pl->sysctls;
	r->nown_sysctls = pol->nr_sysctls;
	n = (size_t)snprintf(pl->hint, sizeof(pl->hint), " (the policy %s has only its own",
			     pol->name);
	for (int i = 0; i < pol->nr_sysctls && n < sizeof(pl->hint); i++)
		n += (size_t)snprintf(pl->hint + n, sizeof(pl->hint) - n, "%s%s", i ? ", " : ": ",
				      pol->sysctls[i].name);
	if (n < sizeof(pl->hint))
		snprintf(pl->hint + n, sizeof(pl->hint) - n, ")");
	r->sysctl_hint = pl->hint;
	r->class_data = pl;
}

const struct sl_release *sl_plugin_load(const char *path, char *err, size_t errlen)
{
	char local[4096];
	struct stat st;

	for (int i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i]->path, path))
			return &loaded[i]->rel;
	if (!path[0] || strlen(path) + 3 > sizeof(local)) {
		snprintf(err, errlen, "--policy '%s': a path to a .so file is expected", path);
		return NULL;
	}
	if (stat(path, &st)) {
		snprintf(err, errlen,
			 "--policy %s: %s (a policy built as a shared object is expected, "
			 "see docs/policy-api.md)",
			 path, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--policy %s: not a regular file (a .so is expected)", path);
		return NULL;
	}
	if (nloaded == SL_MAX_PLUGINS) {
		snprintf(err, errlen, "--policy %s: at most %d policies per invocation", path,
			 SL_MAX_PLUGINS);
		return NULL;
	}
	/* dlopen searches the library path for a name without '/': a policy is a file named */
	snprintf(local, sizeof(local), "%s%s", strchr(path, '/') ? "" : "./", path);
	dlerror();
	void *dl = dlopen(local, RTLD_NOW | RTLD_LOCAL);

	if (!dl) {
		const char *e = dlerror();

		snprintf(err, errlen, "--policy %s: cannot load it as a shared object: %s", path,
			 e ? e : "unknown error");
		return NULL;
	}
	dlerror();
	void *sym = dlsym(dl, SCHEDLAB_POLICY_ENTRY);

	if (!sym) {
		snprintf(err, errlen,
			 "--policy %s: no symbol %s: is it a schedlab policy? (it must define "
			 "const struct schedlab_policy *%s(const struct schedlab_host *), see "
			 "docs/policy-api.md)",
			 path, SCHEDLAB_POLICY_ENTRY, SCHEDLAB_POLICY_ENTRY);
		dlclose(dl);
		return NULL;
	}
	schedlab_policy_register_fn reg;

	/* POSIX: a function's address comes back from dlsym as a void * */
	memcpy(&reg, &sym, sizeof(reg));
	const struct schedlab_policy *pol = reg(&sl_plugin_host);

	if (!pol) {
		snprintf(err, errlen, "--policy %s: %s returned NULL (the policy refused to load)",
			 path, SCHEDLAB_POLICY_ENTRY);
		dlclose(dl);
		return NULL;
	}
	struct sl_plugin *pl = calloc(1, sizeof(*pl));

	if (!pl || !(pl->path = strdup(path))) {
		free(pl);
		dlclose(dl);
		snprintf(err, errlen, "--policy %s: out of memory", path);
		return NULL;
	}
	if (sl_plugin_check(pol, path, err, errlen) || name_free(pol->name, path, err, errlen)) {
		free(pl->path);
		free(pl);
		dlclose(dl);
		return NULL;
	}
	pl->pol = pol;
	pl->dl = dl;
	make_release(pl);
	loaded[nloaded++] = pl;
	return &pl->rel;
}

const struct sl_release *sl_plugin_find(const char *name)
{
	for (int i = 0; i < nloaded; i++)
		if (!strcmp(loaded[i]->rel.name, name))
			return &loaded[i]->rel;
	return NULL;
}

void sl_plugin_names(char *buf, size_t len, bool (*has)(const struct sl_release *rel))
{
	size_t n = strlen(buf);

	for (int i = 0; i < nloaded && n < len; i++)
		if (!has || has(&loaded[i]->rel))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
					      loaded[i]->rel.name);
}

bool sl_plugin_has_sysctl(const char *name)
{
	for (int i = 0; i < nloaded; i++)
		for (int k = 0; k < loaded[i]->rel.nown_sysctls; k++)
			if (!strcmp(loaded[i]->sysctls[k].name, name))
				return true;
	return false;
}
