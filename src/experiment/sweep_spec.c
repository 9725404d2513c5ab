/*
 * What a sweep is: its options, the enumeration of its combinations, and the columns of its
 * rows. Everything here is a pure function of the command line, so every process of a sweep
 * (a worker, an MPI rank, a shard) derives the same run #i and the same header.
 */
#include "experiment/sweep.h"
#include "config/args_fields.h"
#include "core/parse.h"
#include "sched/features.h"
#include "sched/plugin/plugin.h"
#include "core/suggest.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *msg, const char *what)
{
	snprintf(err, errlen, "sweep: %s%s%s", msg, what ? ": " : "", what ? what : "");
	return -1;
}

/* Splits a copy of s at commas into out[]; returns the count or -1. */
static int split_values(const char *s, char **buf, const char **out, int max)
{
	int n = 0;

	*buf = strdup(s);
	if (!*buf)
		return -1;
	for (char *p = *buf, *save = NULL, *tok; (tok = strtok_r(p, ",", &save)); p = NULL) {
		if (n == max)
			return -1;
		out[n++] = tok;
	}
	return n;
}

/* The options --vary sets by their key (config/args_fields.h); a list gets one value added. */
#define VARY_ONE(key, f, vary) {key, offsetof(struct sl_args, f), -1, vary},
#define VARY_LIST(key, f, n, vary)                                                                 \
	{key, offsetof(struct sl_args, f), offsetof(struct sl_args, n), vary},
static const struct {
	const char *key;
	size_t off; /* of the const char * (scalar) or of the list */
	long count; /* of the list's count; -1: scalar */
	bool vary;
} vary_fields[] = {SL_ARGS_FIELDS(VARY_ONE, VARY_LIST)};

/* The index in vary_fields of the option --vary k sets, or -1. */
static int vary_field(const char *k)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(vary_fields); i++)
		if (vary_fields[i].vary && !strcmp(k, vary_fields[i].key))
			return (int)i;
	return -1;
}

static bool vary_key_ok(const char *k)
{
	if (vary_field(k) >= 0)
		return true;
	if (!strncmp(k, "param.", 6) && k[6])
		return true;
	if (!strncmp(k, "cpuidle-param.", 14) && k[14])
		return true;
	/* a sysctl, or a tunable of a policy --policy loaded (its names are its own) */
	return (strchr(k, '.') && !strncmp(k, "kernel.", 7)) || sl_plugin_has_sysctl(k);
}

static const char *need_value(int argc, char **argv, int *i, const char *name, char *err,
			      size_t errlen)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');

	if (eq && !strncmp(arg, "--", 2))
		return eq + 1;
	if (*i + 1 >= argc) {
		fail(err, errlen, "needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

static bool opt_is(const char *arg, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(arg, name, n) && (arg[n] == '\0' || arg[n] == '=');
}

int sl_sweep_option(struct sl_sweep *sw, int argc, char **argv, int *i, char *err, size_t errlen)
{
	const char *arg = argv[*i], *v;
	char e[256];

	if (opt_is(arg, "--features")) {
		if (!(v = need_value(argc, argv, i, "--features", err, errlen)))
			return -1;
		sw->features_arg = v;
		return 1;
	}
	if (opt_is(arg, "--vary")) {
		if (!(v = need_value(argc, argv, i, "--vary", err, errlen)))
			return -1;
		const char *eq = strchr(v, '=');

		if (!eq || eq == v || !eq[1])
			return fail(err, errlen, "--vary wants KEY=V1,V2,...; got", v);
		if (sw->nvary == SL_SWEEP_MAX_VARY)
			return fail(err, errlen, "too many --vary options (at most 16)", NULL);
		struct sl_sweep_vary *d = &sw->vary[sw->nvary];

		if ((size_t)(eq - v) >= sizeof(d->key))
			return fail(err, errlen, "--vary key too long", v);
		memcpy(d->key, v, (size_t)(eq - v));
		d->key[eq - v] = '\0';
		if (!vary_key_ok(d->key)) {
			snprintf(
				err, errlen,
				"sweep: --vary %s: unknown key; valid: a sysctl (kernel.NAME, or a "
				"--policy's own), "
				"param.NAME, cpuidle-param.NAME, kernel, cpus, topology, duration, "
				"seed, machine, idle, cpuidle-governor, pm-qos-latency-us, "
				"irq-affinity, sched-features",
				d->key);
			return -1;
		}
		for (int k = 0; k < sw->nvary; k++)
			if (!strcmp(sw->vary[k].key, d->key))
				return fail(err, errlen, "--vary given twice for", d->key);
		d->nvalues = split_values(eq + 1, &d->buf, d->values, SL_SWEEP_MAX_VALUES);
		if (d->nvalues <= 0) {
			/* not counted in nvary: the sweep's free would not free it */
			free(d->buf);
			d->buf = NULL;
			return fail(err, errlen, "--vary wants 1 to 64 comma-separated values", v);
		}
		sw->nvary++;
		return 1;
	}
	if (opt_is(arg, "--mix")) {
		if (!(v = need_value(argc, argv, i, "--mix", err, errlen)))
			return -1;
		if (sw->nmix == SL_SWEEP_MAX_MIX)
			return fail(err, errlen, "too many --mix options (at most 16)", NULL);
		struct sl_sweep_mix *m = &sw->mix[sw->nmix];

		if (strlen(v) >= sizeof(m->label))
			return fail(err, errlen, "--mix too long", NULL);
		snprintf(m->label, sizeof(m->label), "%s", v);
		m->buf = strdup(v);
		if (!m->buf)
			return fail(err, errlen, "out of memory", NULL);
		for (char *p = m->buf, *save = NULL, *tok; (tok = strtok_r(p, "+", &save));
		     p = NULL) {
			while (*tok == ' ')
				tok++;
			for (char *end = tok + strlen(tok); end > tok && end[-1] == ' ';)
				*--end = '\0';
			if (!*tok)
				continue;
			if (m->nspecs == SL_MAX_LIST) {
				m->nspecs = -1;
				break;
			}
			m->specs[m->nspecs++] = tok;
		}
		if (m->nspecs <= 0) {
			bool many = m->nspecs < 0;

			/* not counted in nmix: the sweep's free would not free it */
			free(m->buf);
			memset(m, 0, sizeof(*m));
			return fail(err, errlen,
				    many ? "--mix: too many workloads"
					 : "--mix wants SPEC[+SPEC...]; got",
				    v);
		}
		sw->nmix++;
		return 1;
	}
	if (opt_is(arg, "--seeds")) {
		u64 n;

		if (!(v = need_value(argc, argv, i, "--seeds", err, errlen)))
			return -1;
		if (sl_parse_u64(v, &n, e, sizeof(e)) || n < 1 || n > SL_SWEEP_MAX_VALUES)
			return fail(err, errlen, "--seeds wants a count from 1 to 64; got", v);
		sw->nseeds = (int)n;
		return 1;
	}
	if (!strcmp(arg, "-j") || opt_is(arg, "--jobs") || (!strncmp(arg, "-j", 2) && arg[2])) {
		u64 n;

		if (!strncmp(arg, "-j", 2) && arg[2] && arg[1] != '-')
			v = arg + 2;
		else if (!(v = need_value(argc, argv, i, "-j", err, errlen)))
			return -1;
		if (sl_parse_u64(v, &n, e, sizeof(e)) || n < 1 || n > 1024)
			return fail(err, errlen, "-j wants a number of workers from 1 to 1024; got",
				    v);
		sw->jobs = (int)n;
		return 1;
	}
	if (opt_is(arg, "--out") || !strcmp(arg, "-o")) {
		if (!(v = need_value(argc, argv, i, "--out", err, errlen)))
			return -1;
		size_t n = strlen(v);

		if (n > 4 && !strcmp(v + n - 4, ".csv"))
			sw->fmt = SL_SWEEP_CSV;
		else if (n > 6 && !strcmp(v + n - 6, ".jsonl"))
			sw->fmt = SL_SWEEP_JSONL;
		else
			return fail(err, errlen, "--out must end in .csv or .jsonl; got", v);
		sw->out = v;
		return 1;
	}
	if (opt_is(arg, "--shard")) {
		int k, n, used = 0;

		if (!(v = need_value(argc, argv, i, "--shard", err, errlen)))
			return -1;
		if (sscanf(v, "%d/%d%n", &k, &n, &used) != 2 || v[used] || n < 1 || k < 1 ||
		    k > n || n > 1000000)
			return fail(err, errlen, "--shard wants K/N with 1 <= K <= N; got", v);
		sw->shard_k = k;
		sw->shard_n = n;
		return 1;
	}
	return 0;
}

static u64 fnv(u64 h, const char *s)
{
	for (; s && *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL; /* a separator, so "ab","c" != "a","bc" */
}

static u64 hash_list(u64 h, const char *const *l, int n)
{
	for (int i = 0; i < n; i++)
		h = fnv(h, l[i]);
	return fnv(h, "|");
}

static void config_id(struct sl_sweep *sw)
{
	const struct sl_args *a = &sw->base;
	u64 h = 0xcbf29ce484222325ULL;
	const char *scalars[] = {a->kernel,    a->cpus,	       a->topology, a->duration,
				 a->seed,      a->machine,     a->governor, a->idle,
				 a->pm_qos_us, a->irq_affinity};

	h = hash_list(h, scalars, (int)SL_ARRAY_SIZE(scalars));
	h = hash_list(h, a->features, a->nfeatures);
	h = hash_list(h, a->sysctls, a->nsysctls);
	h = hash_list(h, a->ats, a->nats);
	h = hash_list(h, a->params, a->nparams);
	h = hash_list(h, a->cpuidle_disable, a->ncpuidle_disable);
	h = hash_list(h, a->cpuidle_params, a->ncpuidle_params);
	h = hash_list(h, sw->flag_names, sw->nflags);
	for (int i = 0; i < sw->nvary; i++) {
		h = fnv(h, sw->vary[i].key);
		h = hash_list(h, sw->vary[i].values, sw->vary[i].nvalues);
	}
	for (int i = 0; i < sw->nmix; i++)
		h = hash_list(h, sw->mix[i].specs, sw->mix[i].nspecs);
	for (int i = 0; i < sw->nseeds; i++) {
		char s[24];

		snprintf(s, sizeof(s), "%llu", (unsigned long long)sw->seeds[i]);
		h = fnv(h, s);
	}
	snprintf(sw->config_id, sizeof(sw->config_id), "%016llx", (unsigned long long)h);
}

/* Group scheduling is on in some run: --param group_sched=N (the last one given) or a --vary
 * param.group_sched list with a non-zero value. */
static bool sweep_groups_on(const struct sl_sweep *sw)
{
	bool on = false;

	for (int i = 0; i < sw->base.nparams; i++)
		if (!strncmp(sw->base.params[i], "group_sched=", 12))
			on = strcmp(sw->base.params[i] + 12, "0") != 0;
	for (int i = 0; i < sw->nvary; i++)
		if (!strcmp(sw->vary[i].key, "param.group_sched"))
			for (int k = 0; k < sw->vary[i].nvalues; k++)
				on |= strcmp(sw->vary[i].values[k], "0") != 0;
	return on;
}

/*
 * The release the runs are built with, whose flags --features names: --kernel, else the one a
 * trace workload's recorded machine gives (sl_args_as_recorded, as every run's configuration
 * takes it), else the default. (The flags were checked against the default while the runs
 * replayed a 6.18 recording as 6.18: a 6.18 flag was refused, a 2.6.31 one failed in the run.)
 */
static const char *sweep_kernel(const struct sl_sweep *sw)
{
	const char *const *specs = sw->nmix ? sw->mix[0].specs : sw->base.workloads;
	int n = sw->nmix ? sw->mix[0].nspecs : sw->base.nworkloads, k = 0;
	const char *kernel = SL_DEFAULT_RELEASE;
	bool trace = false;

	if (sw->base.kernel)
		return sw->base.kernel;
	for (int i = 0; i < n; i++)
		trace |= !strncmp(specs[i], "trace:", 6);
	struct sl_workload_inst *wl = trace ? calloc((size_t)n, sizeof(*wl)) : NULL;
	struct sl_args b;
	char cpus[16], e[1024];

	if (!wl)
		return kernel; /* no recording, or no memory: the run says */
	while (k < n && !sl_workload_parse(specs[k], &wl[k], e, sizeof(e)))
		k++;
	if (k == n && sl_args_as_recorded(&sw->base, wl, n, &b, cpus) && b.kernel)
		kernel = b.kernel;
	while (k--)
		sl_workload_inst_free(&wl[k]);
	free(wl);
	return kernel;
}

static int resolve_flags(struct sl_sweep *sw, char *err, size_t errlen)
{
	const char *kernel = sw->features_arg ? sweep_kernel(sw) : SL_DEFAULT_RELEASE;
	const struct sl_release *rel = sl_release_find(kernel);

	if (!sw->features_arg)
		return 0;
	if (!rel)
		return fail(err, errlen, "unknown --kernel", kernel);
	const struct sl_feat_table *t = &rel->feats;

	if (!strcmp(sw->features_arg, "all")) {
		/* Every flag that acts in the model: the group-scheduling-only ones keep their
		 * defaults (varying them would double the runs and change nothing). 2.6.31:
		 * 17 - 2 = 15 flags, Ingo Molnar's 32768 schedulers; with group scheduling on
		 * (param.group_sched) all 17 act. */
		bool groups = sweep_groups_on(sw);

		for (int i = 0; i < t->n; i++)
			if (t->flags[i].acts || groups) {
				if (sw->nflags == SL_SWEEP_MAX_FLAGS)
					return fail(err, errlen, "too many flags", NULL);
				sw->flags[sw->nflags] = i;
				sw->flag_names[sw->nflags++] = t->flags[i].name;
			}
		return 0;
	}
	char buf[1024];

	if (strlen(sw->features_arg) >= sizeof(buf))
		return fail(err, errlen, "--features list too long", NULL);
	snprintf(buf, sizeof(buf), "%s", sw->features_arg);
	for (char *p = buf, *save = NULL, *tok; (tok = strtok_r(p, ", ", &save)); p = NULL) {
		int found = -1;

		for (int i = 0; i < t->n; i++)
			if (!strcmp(t->flags[i].name, tok))
				found = i;
		if (found < 0) {
			size_t off = 0;
			struct sl_suggest sg;
			char hint[128];

			sl_suggest_init(&sg, tok, strlen(tok));
			for (int i = 0; i < t->n; i++)
				sl_suggest_add(&sg, t->flags[i].name);
			sl_append(err, errlen, &off,
				  "sweep: --features: %s is not a flag of %s%s%s (its flags:", tok,
				  rel->name,
				  sw->base.kernel || !strcmp(kernel, SL_DEFAULT_RELEASE)
					  ? ""
					  : ", the release the recording replays as (--kernel "
					    "chooses)",
				  sl_suggest_text(&sg, hint, sizeof(hint)));
			for (int i = 0; i < t->n; i++)
				sl_append(err, errlen, &off, " %s", t->flags[i].name);
			sl_append(err, errlen, &off, ", or all)");
			return -1;
		}
		for (int k = 0; k < sw->nflags; k++)
			if (sw->flags[k] == found)
				return fail(err, errlen, "--features names a flag twice", tok);
		if (sw->nflags == SL_SWEEP_MAX_FLAGS)
			return fail(err, errlen, "--features: at most 32 flags", NULL);
		sw->flags[sw->nflags] = found;
		sw->flag_names[sw->nflags++] = t->flags[found].name;
	}
	/* Bit order of the table, so run #i reads as the kernel's mask would. */
	for (int a = 1; a < sw->nflags; a++)
		for (int b = a; b > 0 && sw->flags[b - 1] > sw->flags[b]; b--) {
			int f = sw->flags[b];
			const char *n = sw->flag_names[b];

			sw->flags[b] = sw->flags[b - 1];
			sw->flag_names[b] = sw->flag_names[b - 1];
			sw->flags[b - 1] = f;
			sw->flag_names[b - 1] = n;
		}
	return 0;
}

/* The digits of run #idx in the mixed-radix enumeration. */
struct combo {
	u64 mask;
	int seed, mix;
	int val[SL_SWEEP_MAX_VARY];
};

static void decompose(const struct sl_sweep *sw, u64 idx, struct combo *c)
{
	memset(c, 0, sizeof(*c));
	c->mask = idx & ((1ULL << sw->nflags) - 1);
	idx >>= sw->nflags;
	c->seed = (int)(idx % (u64)sw->nseeds);
	idx /= (u64)sw->nseeds;
	for (int i = 0; i < sw->nvary; i++) {
		c->val[i] = (int)(idx % (u64)sw->vary[i].nvalues);
		idx /= (u64)sw->vary[i].nvalues;
	}
	c->mix = (int)idx;
}

/*
 * Per-run strings: "KEY=V" for list-valued knobs, feature words, the seed. They live in one
 * buffer the caller owns for the run's lifetime (config build copies what it keeps).
 */
void sl_sweep_args(const struct sl_sweep *sw, u64 idx, struct sl_args *a, char *fbuf, size_t flen)
{
	struct combo c;
	size_t off = 0;

	decompose(sw, idx, &c);
	*a = sw->base;
	const struct sl_sweep_mix *m = &sw->mix[c.mix];

	a->nworkloads = m->nspecs;
	memcpy(a->workloads, m->specs, sizeof(m->specs[0]) * (size_t)m->nspecs);
	char *seed = fbuf + off;

	sl_append(fbuf, flen, &off, "%llu", (unsigned long long)sw->seeds[c.seed]);
	off++;
	a->seed = seed;
	for (int i = 0; i < sw->nvary; i++) {
		const char *k = sw->vary[i].key, *v = sw->vary[i].values[c.val[i]];
		char *s = fbuf + off;

		int f = vary_field(k);
		char *field = f >= 0 ? (char *)a + vary_fields[f].off : NULL;
		int *count = f >= 0 && vary_fields[f].count >= 0
				     ? (int *)(void *)((char *)a + vary_fields[f].count)
				     : NULL;

		if (f >= 0 && !count)
			*(const char **)(void *)field = v;
		else if (count && *count < SL_MAX_LIST)
			((const char **)(void *)field)[(*count)++] = v;
		else if (!strncmp(k, "param.", 6) && a->nparams < SL_MAX_LIST) {
			sl_append(fbuf, flen, &off, "%s=%s", k + 6, v);
			off++;
			a->params[a->nparams++] = s;
		} else if (!strncmp(k, "cpuidle-param.", 14) && a->ncpuidle_params < SL_MAX_LIST) {
			sl_append(fbuf, flen, &off, "%s=%s", k + 14, v);
			off++;
			a->cpuidle_params[a->ncpuidle_params++] = s;
		} else if (a->nsysctls < SL_MAX_LIST) {
			sl_append(fbuf, flen, &off, "%s=%s", k, v);
			off++;
			a->sysctls[a->nsysctls++] = s;
		}
	}
	if (sw->nflags && a->nfeatures < SL_MAX_LIST) {
		char *s = fbuf + off;

		for (int i = 0; i < sw->nflags; i++)
			sl_append(fbuf, flen, &off, "%s%s%s", i ? " " : "",
				  c.mask >> i & 1 ? "" : "NO_", sw->flag_names[i]);
		off++;
		a->features[a->nfeatures++] = s;
	}
}

/* The setting cells of run #idx, in column order (after run and config). */
static const char *setting_cell(const struct sl_sweep *sw, const struct combo *c, int k, char *tmp,
				size_t len)
{
	if (k == 0)
		return sw->mix[c->mix].label;
	if (k == 1) {
		snprintf(tmp, len, "%llu", (unsigned long long)sw->seeds[c->seed]);
		return tmp;
	}
	k -= 2;
	if (k < sw->nvary)
		return sw->vary[k].values[c->val[k]];
	k -= sw->nvary;
	return c->mask >> k & 1 ? "1" : "0";
}

int sl_sweep_settings(const struct sl_sweep *sw, u64 idx, const char **cells, char *tmp, size_t len)
{
	struct combo c;
	int n = 2 + sw->nvary + sw->nflags;

	decompose(sw, idx, &c);
	for (int k = 0; k < n; k++)
		cells[k] = setting_cell(sw, &c, k, tmp, len);
	return n;
}

static int add_col(struct sl_sweep *sw, const char *name)
{
	for (int i = 0; i < sw->ncols; i++)
		if (!strcmp(sw->cols[i], name))
			return 0;
	char **c = realloc(sw->cols, sizeof(*c) * (size_t)(sw->ncols + 1));

	if (!c)
		return -1;
	sw->cols = c;
	if (!(c[sw->ncols] = strdup(name)))
		return -1;
	sw->ncols++;
	return 0;
}

/* Metric columns of a group, by the workload's kind (see sl_sweep_run_one). */
const char *const sl_sweep_group_metrics[] = {
	"cpu_share",  "wakeups",     "lat_p50_ns",    "lat_p95_ns", "lat_p99_ns",
	"lat_max_ns", "wait_max_ns", "completion_ns", "io_mb_s",    "frames_late",
};
const int sl_sweep_ngroup_metrics = (int)SL_ARRAY_SIZE(sl_sweep_group_metrics);
const char *const sl_sweep_machine_metrics[] = {
	"switches", "migrations", "energy_j", "wake_delay_p99_ns", "events",
};
const int sl_sweep_nmachine_metrics = (int)SL_ARRAY_SIZE(sl_sweep_machine_metrics);

static int columns(struct sl_sweep *sw, char *err, size_t errlen)
{
	char name[160];
	const char *fixed[] = {"run", "config", "mix", "seed"};

	for (size_t i = 0; i < SL_ARRAY_SIZE(fixed); i++)
		if (add_col(sw, fixed[i]))
			return fail(err, errlen, "out of memory", NULL);
	for (int i = 0; i < sw->nvary; i++)
		if (add_col(sw, sw->vary[i].key))
			return fail(err, errlen, "out of memory", NULL);
	for (int i = 0; i < sw->nflags; i++)
		if (add_col(sw, sw->flag_names[i]))
			return fail(err, errlen, "out of memory", NULL);
	sw->nsettings = sw->ncols;
	/* One run per mix tells its groups' names (the first combination of that mix). */
	u64 per_mix = sw->nruns / (u64)sw->nmix;

	for (int m = 0; m < sw->nmix; m++) {
		struct sl_args a;
		struct sl_config cfg;
		char fbuf[4096];

		sl_sweep_args(sw, (u64)m * per_mix, &a, fbuf, sizeof(fbuf));
		if (sl_config_build(&cfg, &a, err, errlen))
			return -1;
		for (int g = 0; g < cfg.nwl; g++) {
			char gname[48];

			sl_group_name(&cfg, g, gname, sizeof(gname));
			for (int k = 0; k < sl_sweep_ngroup_metrics; k++) {
				snprintf(name, sizeof(name), "%s.%s", gname,
					 sl_sweep_group_metrics[k]);
				if (add_col(sw, name)) {
					sl_config_free(&cfg);
					return fail(err, errlen, "out of memory", NULL);
				}
			}
		}
		sl_config_free(&cfg);
	}
	for (int k = 0; k < sl_sweep_nmachine_metrics; k++)
		if (add_col(sw, sl_sweep_machine_metrics[k]))
			return fail(err, errlen, "out of memory", NULL);
	return 0;
}

int sl_sweep_prepare(struct sl_sweep *sw, char *err, size_t errlen)
{
	if (!sw->out)
		return fail(err, errlen, "give --out FILE.csv or FILE.jsonl", NULL);
	if (resolve_flags(sw, err, errlen))
		return -1;
	if (!sw->nmix) {
		if (!sw->base.nworkloads)
			return fail(err, errlen,
				    "give --workload SPEC (repeatable: one mix) or "
				    "--mix SPEC+SPEC (repeatable: alternatives)",
				    NULL);
		struct sl_sweep_mix *m = &sw->mix[sw->nmix++];
		size_t off = 0;

		for (int i = 0; i < sw->base.nworkloads; i++) {
			m->specs[m->nspecs++] = sw->base.workloads[i];
			sl_append(m->label, sizeof(m->label), &off, "%s%s", i ? "+" : "",
				  sw->base.workloads[i]);
		}
	} else if (sw->base.nworkloads) {
		return fail(err, errlen, "give either --workload (one mix) or --mix, not both",
			    NULL);
	}
	if (sw->base.trace_out)
		return fail(err, errlen, "--trace-out does not apply to a sweep", NULL);
	/* seeds: --seeds N counts up from --seed (default 1) */
	u64 s0 = 1;
	char e[256];

	if (sw->base.seed && sl_parse_u64(sw->base.seed, &s0, e, sizeof(e)))
		return fail(err, errlen, "--seed", e);
	if (!sw->nseeds)
		sw->nseeds = 1;
	for (int i = 0; i < sw->nseeds; i++)
		sw->seeds[i] = s0 + (u64)i;
	for (int i = 0; i < sw->nvary; i++)
		if (!strcmp(sw->vary[i].key, "seed") && sw->nseeds > 1)
			return fail(err, errlen, "give --seeds or --vary seed=..., not both", NULL);
	/* the number of runs, refused beyond the limit before anything is allocated */
	long double n = (long double)(1ULL << sw->nflags) * sw->nseeds * sw->nmix;

	for (int i = 0; i < sw->nvary; i++)
		n *= sw->vary[i].nvalues;
	if (n > (long double)SL_SWEEP_MAX_RUNS) {
		snprintf(err, errlen, "sweep: %.0Lf runs asked for; the limit is %llu", n,
			 (unsigned long long)SL_SWEEP_MAX_RUNS);
		return -1;
	}
	sw->nruns = (u64)n;
	/* a shard beyond the last run would write a file of no rows and exit 0: a shard count
	 * that does not fit the sweep is a mistake of the job script, said before any work */
	if (sw->shard_n && (u64)sw->shard_k > sw->nruns) {
		snprintf(
			err, errlen,
			"sweep: --shard %d/%d gets no runs: the sweep has %llu run%s (shard K gets "
			"runs i with i mod N = K-1; give N at most %llu)",
			sw->shard_k, sw->shard_n, (unsigned long long)sw->nruns,
			sw->nruns == 1 ? "" : "s", (unsigned long long)sw->nruns);
		return -1;
	}
	config_id(sw);
	/* Every value of every dimension must build: check each once, beside the first value
	 * of the others, so a typo fails now and not in run #20000. */
	u64 stride = 1ULL << sw->nflags;
	u64 strides[SL_SWEEP_MAX_VARY + 1];

	stride *= (u64)sw->nseeds;
	for (int i = 0; i < sw->nvary; i++) {
		strides[i] = stride;
		stride *= (u64)sw->vary[i].nvalues;
	}
	for (int i = 0; i < sw->nvary; i++)
		for (int v = 0; v < sw->vary[i].nvalues; v++) {
			struct sl_args a;
			struct sl_config cfg;
			char fbuf[4096], msg[1024];

			sl_sweep_args(sw, (u64)v * strides[i], &a, fbuf, sizeof(fbuf));
			if (sl_config_build(&cfg, &a, msg, sizeof(msg))) {
				snprintf(err, errlen, "sweep: --vary %s=%s: %s", sw->vary[i].key,
					 sw->vary[i].values[v], msg);
				return -1;
			}
			sl_config_free(&cfg);
		}
	if (columns(sw, err, errlen))
		return -1;
	sw->memo = sl_sweep_memo_new(sw->ncols);
	if (!sw->jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		sw->jobs = n > 0 ? (int)n : 1;
	}
	return 0;
}

void sl_sweep_free(struct sl_sweep *sw)
{
	sl_sweep_memo_free(sw->memo);
	sw->memo = NULL;
	for (int i = 0; i < sw->nvary; i++)
		free(sw->vary[i].buf);
	for (int i = 0; i < sw->nmix; i++)
		free(sw->mix[i].buf);
	for (int i = 0; i < sw->ncols; i++)
		free(sw->cols[i]);
	free(sw->cols);
	memset(sw, 0, sizeof(*sw));
}
