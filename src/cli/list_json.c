/*
 * The listing commands' JSON (list_json.h): the same rows as their tables, typed. Every value
 * goes through put() or push(), which remember a value json-c could not allocate, so that an
 * object missing a member is never printed as if complete: the caller gets NULL instead.
 */
#include "cli/list_json.h"
#include "sched/features.h"
#include "sched/sysctl.h"
#include "machine/params.h"
#include "workload/workload.h"
#include "cpuidle/cpuidle.h"
#include "cpuidle/profiles.h"

#include <stdint.h>

/* v into o as key (o NULL: v is dropped); false from then on when v or o is NULL */
static void put(json_object *o, const char *key, json_object *v, bool *ok)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		*ok = false;
	}
}

static void push(json_object *a, json_object *v, bool *ok)
{
	if (!a || !v || json_object_array_add(a, v)) {
		json_object_put(v);
		*ok = false;
	}
}

/* root when every value went in, else NULL (root freed) */
static json_object *done(json_object *root, bool ok)
{
	if (ok)
		return root;
	json_object_put(root);
	return NULL;
}

static json_object *str(const char *s)
{
	return json_object_new_string(s);
}

/* an integer as a JSON integer, signed where it fits (json-c prints both the same) */
static json_object *u64_json(u64 v)
{
	return v <= INT64_MAX ? json_object_new_int64((int64_t)v) : json_object_new_uint64(v);
}

json_object *sl_list_features_json(const struct sl_config *cfg)
{
	const struct sl_feat_table *t = &cfg->rel->feats;
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	bool ok = root != NULL;

	put(root, "kernel", str(cfg->rel->name), &ok);
	for (int i = 0; i < t->n; i++) {
		json_object *o = json_object_new_object();

		ok &= o != NULL;
		put(o, "name", str(t->flags[i].name), &ok);
		/* a flag's bit may be above an int's: compared, not converted */
		put(o, "enabled",
		    json_object_new_boolean((cfg->features & (1ULL << t->flags[i].id)) != 0), &ok);
		put(o, "default", json_object_new_boolean(t->flags[i].def), &ok);
		push(arr, o, &ok);
	}
	put(root, "features", arr, &ok);
	return done(root, ok);
}

json_object *sl_list_sysctl_json(const struct sl_config *cfg)
{
	json_object *root = json_object_new_object(), *o = json_object_new_object();
	bool ok = root != NULL;

	put(root, "kernel", str(cfg->rel->name), &ok);
	put(root, "cpus", json_object_new_int(cfg->ncpu), &ok);
	/* the names as the table, --sysctl and run's JSON write them, in the release's order */
	for (int i = 0; i < sl_sysctl_count(cfg->rel); i++) {
		const struct sl_sysctl_desc *d = sl_sysctl_nth(cfg->rel, i);

		put(o, d->name,
		    json_object_new_int64(sl_sysctl_read(cfg->rel, &cfg->tun, cfg->features, d)),
		    &ok);
	}
	put(root, "sysctl", o, &ok);
	return done(root, ok);
}

json_object *sl_list_params_json(void)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	bool ok = root != NULL;

	for (int i = 0; i < sl_param_count; i++) {
		const struct sl_param_desc *d = &sl_param_table[i];
		json_object *o = json_object_new_object();
		const char *kind = !d->is_count			  ? "duration"
				   : d->is_count == SL_PARAM_FLAG ? "flag"
								  : "count";

		ok &= o != NULL;
		put(o, "name", str(d->name), &ok);
		put(o, "kind", str(kind), &ok);
		/* the unit in the key, as everywhere: a duration's default is ns */
		put(o, d->is_count ? "default" : "default_ns", u64_json(d->def), &ok);
		put(o, "source", str(d->why), &ok);
		push(arr, o, &ok);
	}
	put(root, "params", arr, &ok);
	return done(root, ok);
}

static const char *const wl_type_names[] = {
	[SL_WL_INT] = "int",   [SL_WL_BOOL] = "bool", [SL_WL_TIME] = "time",  [SL_WL_DIST] = "dist",
	[SL_WL_SIZE] = "size", [SL_WL_ENUM] = "enum", [SL_WL_STR] = "string", [SL_WL_CPUS] = "cpus",
	[SL_WL_FILE] = "file", [SL_WL_DIR] = "dir",
};

static json_object *wl_key_json(const struct sl_wl_key *k, bool common, bool *ok)
{
	json_object *o = json_object_new_object();

	*ok &= o != NULL;
	put(o, "name", str(k->name), ok);
	put(o, "type", str(wl_type_names[k->type]), ok);
	/* the text --workload takes: a time's unit, a size's suffix, an enum's word */
	put(o, "default", str(k->def), ok);
	put(o, "help", str(k->help), ok);
	put(o, "common", json_object_new_boolean(common), ok);
	if (k->type == SL_WL_ENUM) {
		json_object *c = json_object_new_array();

		for (int i = 0; k->choices[i].name; i++)
			push(c, str(k->choices[i].name), ok);
		put(o, "choices", c, ok);
	}
	return o;
}

json_object *sl_list_workloads_json(void)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array(), *forms;
	bool ok = root != NULL;
	static const char *const durations[] = {"10ms", "uniform:MIN:MAX", "exp:MEAN",
						"normal:MEAN:SD"};

	for (int i = 0; i < sl_nworkloads; i++) {
		const struct sl_workload_ops *w = sl_workloads[i];
		json_object *o = json_object_new_object(), *keys = json_object_new_array();

		ok &= o != NULL;
		put(o, "name", str(w->name), &ok);
		put(o, "help", str(w->help), &ok);
		/* its own keys, then those every workload has, as the table lists them */
		for (int k = 0; k < w->nkeys; k++)
			push(keys, wl_key_json(&w->keys[k], false, &ok), &ok);
		for (int k = 0; k < sl_wl_ncommon_keys; k++)
			push(keys, wl_key_json(&sl_wl_common_keys[k], true, &ok), &ok);
		put(o, "keys", keys, &ok);
		push(arr, o, &ok);
	}
	put(root, "workloads", arr, &ok);
	forms = json_object_new_array();
	for (size_t i = 0; i < SL_ARRAY_SIZE(durations); i++)
		push(forms, str(durations[i]), &ok);
	put(root, "duration_forms", forms, &ok);
	return done(root, ok);
}

json_object *sl_list_machines_json(void)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	bool ok = root != NULL;

	for (int i = 0; i < sl_nidle_profiles; i++) {
		json_object *o = json_object_new_object();

		ok &= o != NULL;
		put(o, "name", str(sl_idle_profiles[i]->name), &ok);
		put(o, "help", str(sl_idle_profiles[i]->help), &ok);
		push(arr, o, &ok);
	}
	put(root, "machines", arr, &ok);
	return done(root, ok);
}

json_object *sl_list_governors_json(void)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	bool ok = root != NULL;

	for (int i = 0; i < sl_cpuidle_ngovernors; i++) {
		json_object *o = json_object_new_object();

		ok &= o != NULL;
		put(o, "name", str(sl_cpuidle_governors[i]->name), &ok);
		put(o, "rating", json_object_new_int(sl_cpuidle_governors[i]->rating), &ok);
		put(o, "help", str(sl_cpuidle_governors[i]->help), &ok);
		push(arr, o, &ok);
	}
	put(root, "governors", arr, &ok);
	return done(root, ok);
}
