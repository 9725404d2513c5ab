/*
 * `schedlab repro fio --explore`: what the 2009 machine had to be for the seed table to come
 * out. Each unknown of the machine (docs/experiments-2009.md, "The machine that lost") is a
 * named parameter with the range its sources allow; every combination runs the three governors
 * on 1, 2 and 12 disks through the sweep machinery (worker processes, one row per run), and
 * the combinations are ranked by how far they land from the whole table at once: both
 * governors' ratios to idle=poll within 0.05, the idle=poll MB/s within 10 %, and menu-tng
 * drawing at least the old menu's power. The parameters are the same for every governor of a
 * combination: a governor is never tuned.
 */
#include "core/json_out.h"
#include "core/parse.h"
#include "experiment/repro.h"
#include "experiment/sweep.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXV	 4
#define NDISK	 3
#define RATIO_OK 0.05 /* the tolerance on a ratio to idle=poll */
#define POLL_OK	 0.10 /* ... and on the idle=poll MB/s */

static const int disks[NDISK] = {1, 2, 12};
static const char *const govs[] = {"poll", "menu-2.6.31", "menu-tng"};

struct unknown {
	const char *name; /* what --unknowns and the report call it */
	const char *key;  /* the sweep's --vary key ("job": the fio job, a --mix) */
	const char *values[MAXV];
	int nvalues;
	const char *why;
};

/*
 * The unknowns and their ranges. The first value of each is the model before this search
 * (every switch off), so combination 0 is that model.
 */
static const struct unknown unknowns[] = {
	{"bm_sts",
	 "cpuidle-param.bm_check",
	 {"1", "0"},
	 2,
	 "does the HBA's DMA set BM_STS? 1: yes, acpi_idle's bus-master check (bm_check, Intel "
	 "SMP) demotes C3 entries to C2; 0: no (the BIOS's BM_STS_ZERO_EN, Linux's later "
	 "bm_sts_skip)"},
	{"c2_as_c6",
	 "param.c2_as_c6",
	 {"0", "1"},
	 2,
	 "does the PCU resolve ACPI C2 to hardware C6 (AnandTech: 86 % on a Lynnfield Xeon)?"},
	{"bg_wakeup",
	 "param.bg_wakeup",
	 {"100ms", "50ms", "20ms"},
	 3,
	 "background wake-ups of each idle CPU: 10/s, 20/s, 50/s (PowerTOP on idle 2.6.3x "
	 "systems: tens a second; 0, nothing waking an idle CPU, is outside that range)"},
	{"hba",
	 "param.hba_mbps",
	 {"0", "595"},
	 2,
	 "one HBA's shared path for the 12 disks: none (independent disks), or 595 MB/s, "
	 "calibrated on the idle=poll row alone (590 MB/s at 12 disks)"},
	{"hba_hold",
	 "param.hba_hold",
	 {"0", "1"},
	 2,
	 "a HYPOTHESIS without a source: does the HBA's path stand still while one of its "
	 "completions waits for its CPU's C-state exit? (what the loss's growth with disks asks "
	 "for)"},
	{"irq",
	 "irq-affinity",
	 {"irqbalance", "issuer"},
	 2,
	 "the completion's CPU: the HBA's vector where irqbalance put it (CPU 0), or the "
	 "reader's own (issuer, QUEUE_FLAG_SAME_COMP's later behaviour)"},
	{"smt_resolve",
	 "param.smt_resolve",
	 {"0", "1"},
	 2,
	 "a core only as deep as its shallowest thread (Xeon 5500 datasheet table 121)"},
	{"reader",
	 "reader",
	 {"any", "away"},
	 2,
	 "where the readers run: anywhere (the scheduler's choice; affine wake-ups pull them to "
	 "the vector's CPU) or away from it, one each (fio cpus_allowed=1-15, "
	 "cpus_allowed_policy=split), so each completion wakes a second idle CPU"},
	{"job",
	 "job",
	 {"sync", "libaio4"},
	 2,
	 "the fio job: one synchronous O_DIRECT reader per disk, or libaio at queue depth 4 "
	 "(an asynchronous window, as readahead keeps for a buffered reader; the page cache "
	 "itself is not modelled)"},
};
#define NUNK ((int)SL_ARRAY_SIZE(unknowns))

/* the seed's MB/s and ratios, by disk count index */
static double seed_mb(int d, int g)
{
	return sl_fio_seed(disks[d], govs[g]);
}

/* One combination's figures: [disk][governor]. */
struct combo {
	int val[NUNK]; /* value index of each unknown (fixed ones: 0) */
	double mb[NDISK][3], power[NDISK][3];
	int have[NDISK][3];
	double score; /* max of |ratio residual| / 0.05 and |poll residual| / 0.10 */
	double sq;    /* the same residuals squared and summed: the tie-break */
	bool power_ok, ok;
};

/*
 * Whether unknown u is varied: when --unknowns lists it, or without --unknowns when no option
 * fixes it (--param, --cpuidle-param, --irq-affinity). One not varied keeps the fio machine's
 * value or the option's.
 */
static bool explored(const struct sl_repro_opts *o, int u)
{
	const struct unknown *x = &unknowns[u];
	size_t n = strlen(x->key);

	if (o->unknowns) {
		const char *p = o->unknowns, *e;
		size_t k = strlen(x->name);

		for (; *p; p = *e ? e + 1 : e) {
			e = strchr(p, ',');
			e = e ? e : p + strlen(p);
			if ((size_t)(e - p) == k && !strncmp(p, x->name, k))
				return true;
		}
		return false;
	}
	if (!strncmp(x->key, "param.", 6)) {
		for (int i = 0; i < o->nparams; i++)
			if (!strncmp(o->params[i], x->key + 6, n - 6) && o->params[i][n - 6] == '=')
				return false;
	} else if (!strncmp(x->key, "cpuidle-param.", 14)) {
		for (int i = 0; i < o->ncpuidle_params; i++)
			if (!strncmp(o->cpuidle_params[i], x->key + 14, n - 14) &&
			    o->cpuidle_params[i][n - 14] == '=')
				return false;
	} else if (!strcmp(x->key, "irq-affinity")) {
		return !o->irq_affinity;
	}
	return true;
}

/* --unknowns: every name must be one of the table's */
static int check_unknowns(const char *list, char *err, size_t errlen)
{
	char buf[256], *save = NULL;

	if (!list)
		return 0;
	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--unknowns: too long");
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int k = 0;

		while (k < NUNK && strcmp(unknowns[k].name, t))
			k++;
		if (k == NUNK) {
			size_t off = 0;
			char names[256] = "";

			for (int u = 0; u < NUNK; u++)
				sl_append(names, sizeof(names), &off, "%s%s", u ? ", " : "",
					  unknowns[u].name);
			snprintf(err, errlen, "--unknowns: '%s' is not an unknown (valid: %s)", t,
				 names);
			return -1;
		}
	}
	return 0;
}

/* one option word of the sweep ("--vary", "K=V,...") given to its parser */
static int sweep_opt(struct sl_sweep *sw, const char *opt, const char *val, char *err,
		     size_t errlen)
{
	char o[16], v[256];
	char *argv[3] = {o, v, NULL};
	int i = 0;

	snprintf(o, sizeof(o), "%s", opt);
	if (snprintf(v, sizeof(v), "%s", val) >= (int)sizeof(v)) {
		snprintf(err, errlen, "explore: %s %s: too long", opt, val);
		return -1;
	}
	return sl_sweep_option(sw, 2, argv, &i, err, errlen) == 1 ? 0 : -1;
}

static const char *job_spec(const char *job)
{
	return !strcmp(job, "sync") ? "rw=read,bs=128k,ioengine=sync,direct=1"
				    : "rw=read,bs=128k,ioengine=libaio,iodepth=4,direct=1";
}

static const char *reader_spec(const char *reader)
{
	return !strcmp(reader, "any") ? "" : ",cpus_allowed=1-15,cpus_allowed_policy=split";
}

/* the unknowns that are the workload's, not the machine's: each value a --mix */
static bool mix_unknown(const struct unknown *x)
{
	return !strcmp(x->key, "job") || !strcmp(x->key, "reader");
}

/* the row's value of a setting column, or "" */
static const char *cell(json_object *row, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(row, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

static double num(json_object *row, const char *suffix)
{
	size_t n = strlen(suffix);

	json_object_object_foreach(row, k, v)
	{
		size_t kn = strlen(k);

		if (kn >= n && !strcmp(k + kn - n, suffix) && v)
			return json_object_get_double(v);
	}
	return NAN;
}

static int value_index(const struct unknown *x, const char *v)
{
	for (int i = 0; i < x->nvalues; i++)
		if (!strcmp(x->values[i], v))
			return i;
	return -1;
}

/* The residuals against the seed table, and whether the combination reproduces it. */
static void judge(struct combo *c)
{
	c->score = 0;
	c->sq = 0;
	c->power_ok = true;
	for (int d = 0; d < NDISK; d++) {
		double poll = c->mb[d][0], r;

		r = (poll - seed_mb(d, 0)) / seed_mb(d, 0) / POLL_OK;
		c->score = fmax(c->score, fabs(r));
		c->sq += r * r;
		for (int g = 1; g < 3; g++) {
			r = (poll > 0 ? c->mb[d][g] / poll : 0) - seed_mb(d, g) / seed_mb(d, 0);
			c->score = fmax(c->score, fabs(r) / RATIO_OK);
			c->sq += r * r / (RATIO_OK * RATIO_OK);
		}
		if (c->power[d][2] < c->power[d][1])
			c->power_ok = false;
	}
	c->ok = c->score <= 1 && c->power_ok;
}

static int cmp_combo(const void *a, const void *b)
{
	const struct combo *x = a, *y = b;

	if (x->ok != y->ok)
		return x->ok ? -1 : 1;
	if (x->power_ok != y->power_ok)
		return x->power_ok ? -1 : 1;
	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	if (x->sq != y->sq)
		return x->sq < y->sq ? -1 : 1;
	return memcmp(x->val, y->val, sizeof(x->val));
}

/* combination number from the value indices (unknowns in table order, the first fastest) */
static int combo_index(const int *val)
{
	int idx = 0;

	for (int u = NUNK - 1; u >= 0; u--)
		idx = idx * unknowns[u].nvalues + val[u];
	return idx;
}

static int ncombos_all(void)
{
	int n = 1;

	for (int u = 0; u < NUNK; u++)
		n *= unknowns[u].nvalues;
	return n;
}

/* Read the sweep's rows into the combinations; -1 with err on a row that is not ours. */
static int read_rows(const char *path, struct combo *all, double secs, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	if (!f) {
		snprintf(err, errlen, "explore: cannot read back the runs (%s)", path);
		return -1;
	}
	while (sl_sweep_getline(&line, &cap, f) >= 0) {
		const char *why = NULL;
		json_object *row = sl_sweep_json_row(line, &why);
		int val[NUNK], d = -1, g = -1;

		if (!row) {
			snprintf(err, errlen, "explore: a run's row does not parse: %s",
				 why ? why : "?");
			rc = -1;
			break;
		}
		const char *mix = cell(row, "mix"), *gov = cell(row, "cpuidle-governor");

		for (int u = 0; u < NUNK; u++) {
			const char *v = cell(row, unknowns[u].key);

			if (!strcmp(unknowns[u].key, "job"))
				v = strstr(mix, "libaio") ? "libaio4" : "sync";
			else if (!strcmp(unknowns[u].key, "reader"))
				v = strstr(mix, "cpus_allowed") ? "away" : "any";
			val[u] = *v ? value_index(&unknowns[u], v) : 0;
			if (val[u] < 0)
				val[u] = 0;
		}
		for (int k = 0; k < NDISK; k++) {
			char w[32];

			snprintf(w, sizeof(w), "disks=%d,", disks[k]);
			if (strstr(mix, w))
				d = k;
		}
		for (int k = 0; k < 3; k++)
			if (!strcmp(gov, govs[k]))
				g = k;
		if (d >= 0 && g >= 0) {
			struct combo *c = &all[combo_index(val)];

			memcpy(c->val, val, sizeof(val));
			c->mb[d][g] = num(row, ".io_mb_s");
			c->power[d][g] = num(row, "energy_j") / secs;
			c->have[d][g] = 1;
		}
		json_object_put(row);
	}
	free(line);
	fclose(f);
	return rc;
}

static void settings_text(const struct combo *c, const bool *var, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int u = 0; u < NUNK; u++)
		if (var[u])
			sl_append(buf, len, &off, "%s%s=%s", off ? " " : "", unknowns[u].name,
				  unknowns[u].values[c->val[u]]);
	if (!off)
		sl_append(buf, len, &off, "(none varied)");
}

static json_object *ratios_json(const struct combo *c, int g)
{
	json_object *a = json_object_new_array();

	for (int d = 0; d < NDISK; d++)
		json_object_array_add(
			a, sl_json_fixed6(c->mb[d][0] > 0 ? c->mb[d][g] / c->mb[d][0] : 0));
	return a;
}

static void print_json(FILE *out, const struct combo *cs, int n, const bool *var, double secs)
{
	json_object *root = json_object_new_object(), *un = json_object_new_array(),
		    *arr = json_object_new_array(), *cr = json_object_new_object();
	int nok = 0;

	json_object_object_add(root, "experiment", json_object_new_string("fio-explore"));
	for (int u = 0; u < NUNK; u++) {
		json_object *x = json_object_new_object(), *vs = json_object_new_array();

		json_object_object_add(x, "name", json_object_new_string(unknowns[u].name));
		json_object_object_add(x, "explored", json_object_new_boolean(var[u]));
		for (int v = 0; v < unknowns[u].nvalues; v++)
			json_object_array_add(vs, json_object_new_string(unknowns[u].values[v]));
		json_object_object_add(x, "values", vs);
		json_object_object_add(x, "why", json_object_new_string(unknowns[u].why));
		json_object_array_add(un, x);
	}
	json_object_object_add(root, "unknowns", un);
	json_object_object_add(cr, "ratio_within", sl_json_fixed6(RATIO_OK));
	json_object_object_add(cr, "poll_within", sl_json_fixed6(POLL_OK));
	json_object_object_add(cr, "menu_tng_power_at_least_old_menu", json_object_new_boolean(1));
	json_object_object_add(root, "criteria", cr);
	json_object_object_add(root, "seconds_per_run", sl_json_fixed6(secs));
	for (int i = 0; i < n; i++) {
		const struct combo *c = &cs[i];
		json_object *x = json_object_new_object(), *set = json_object_new_object(),
			    *poll = json_object_new_array(), *rp = json_object_new_array(),
			    *pw = json_object_new_array();

		nok += c->ok;
		json_object_object_add(x, "rank", json_object_new_int(i + 1));
		/* the varied ones: the others are the fio machine's or the options' */
		for (int u = 0; u < NUNK; u++)
			if (var[u])
				json_object_object_add(
					set, unknowns[u].name,
					json_object_new_string(unknowns[u].values[c->val[u]]));
		json_object_object_add(x, "settings", set);
		json_object_object_add(x, "menu_2_6_31_ratio_to_poll", ratios_json(c, 1));
		json_object_object_add(x, "menu_tng_ratio_to_poll", ratios_json(c, 2));
		for (int d = 0; d < NDISK; d++) {
			json_object *p = json_object_new_array();

			json_object_array_add(poll, sl_json_fixed6(c->mb[d][0]));
			json_object_array_add(
				rp, sl_json_fixed6((c->mb[d][0] - seed_mb(d, 0)) / seed_mb(d, 0)));
			for (int g = 0; g < 3; g++)
				json_object_array_add(p, sl_json_fixed6(c->power[d][g]));
			json_object_array_add(pw, p);
		}
		json_object_object_add(x, "poll_bw_mb_s", poll);
		json_object_object_add(x, "poll_residual", rp);
		json_object_object_add(x, "average_power_w", pw);
		json_object_object_add(x, "score", sl_json_fixed6(c->score));
		json_object_object_add(x, "power_ok", json_object_new_boolean(c->power_ok));
		json_object_object_add(x, "reproduces", json_object_new_boolean(c->ok));
		json_object_array_add(arr, x);
	}
	json_object *dk = json_object_new_array();

	for (int d = 0; d < NDISK; d++)
		json_object_array_add(dk, json_object_new_int(disks[d]));
	json_object_object_add(root, "disks", dk);
	json_object_object_add(root, "reproducing", json_object_new_int(nok));
	json_object_object_add(root, "combinations", arr);
	sl_json_print(out, root);
}

static void print_table(FILE *out, const struct combo *cs, int n, const bool *var, double secs)
{
	char set[256];
	int nok = 0;

	fprintf(out,
		"repro fio --explore: %d combinations of the 2009 machine's unknowns, each run "
		"under idle=poll, menu-2.6.31 and menu-tng on 1, 2 and 12 disks (%.3g s "
		"simulated per run)\n",
		n, secs);
	for (int u = 0; u < NUNK; u++) {
		if (!var[u])
			continue;
		fprintf(out, "  %-11s", unknowns[u].name);
		for (int v = 0; v < unknowns[u].nvalues; v++)
			fprintf(out, "%s%s", v ? "|" : " ", unknowns[u].values[v]);
		fprintf(out, "\n");
	}
	fprintf(out,
		"reproduces: both ratios to idle=poll within %.2f of the seed at 1, 2, 12 disks, "
		"idle=poll within %.0f%%, menu-tng power >= old menu's\n"
		"seed ratios: old menu %.3f %.3f %.3f, menu-tng %.3f %.3f %.3f; idle=poll %.0f "
		"%.0f %.0f MB/s\n\n",
		RATIO_OK, 100 * POLL_OK, seed_mb(0, 1) / seed_mb(0, 0),
		seed_mb(1, 1) / seed_mb(1, 0), seed_mb(2, 1) / seed_mb(2, 0),
		seed_mb(0, 2) / seed_mb(0, 0), seed_mb(1, 2) / seed_mb(1, 0),
		seed_mb(2, 2) / seed_mb(2, 0), seed_mb(0, 0), seed_mb(1, 0), seed_mb(2, 0));
	fprintf(out, "%4s %-17s %-17s %-17s %-10s %6s %3s  %s\n", "rank", "old menu / poll",
		"menu-tng / poll", "idle=poll MB/s", "tng-old W", "score", "ok", "settings");
	for (int i = 0; i < n; i++) {
		const struct combo *c = &cs[i];
		char r1[32], r2[32], pl[32];

		nok += c->ok;
		snprintf(r1, sizeof(r1), "%.3f %.3f %.3f",
			 c->mb[0][0] ? c->mb[0][1] / c->mb[0][0] : 0,
			 c->mb[1][0] ? c->mb[1][1] / c->mb[1][0] : 0,
			 c->mb[2][0] ? c->mb[2][1] / c->mb[2][0] : 0);
		snprintf(r2, sizeof(r2), "%.3f %.3f %.3f",
			 c->mb[0][0] ? c->mb[0][2] / c->mb[0][0] : 0,
			 c->mb[1][0] ? c->mb[1][2] / c->mb[1][0] : 0,
			 c->mb[2][0] ? c->mb[2][2] / c->mb[2][0] : 0);
		snprintf(pl, sizeof(pl), "%.0f %.0f %.0f", c->mb[0][0], c->mb[1][0], c->mb[2][0]);
		settings_text(c, var, set, sizeof(set));
		fprintf(out, "%4d %-17s %-17s %-17s %+5.1f%+5.1f %6.2f %3s  %s\n", i + 1, r1, r2,
			pl, c->power[0][2] - c->power[0][1], c->power[2][2] - c->power[2][1],
			c->score, c->ok ? "yes" : "no", set);
	}
	if (nok)
		fprintf(out, "\n%d of %d combinations reproduce the whole seed table.\n", nok, n);
	else
		fprintf(out,
			"\nNo combination reproduces the whole seed table; the closest is rank 1 "
			"(score %.2f: its largest residual is %.2f times its tolerance%s).\n",
			cs[0].score, cs[0].score,
			cs[0].power_ok ? "" : "; menu-tng draws less power than the old menu");
}

int sl_repro_fio_explore(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen)
{
	struct sl_sweep sw;
	bool var[NUNK];
	char path[512], vbuf[NUNK][128], mbuf[12][160];
	const char *tmp = getenv("TMPDIR");
	const char *dur = o->duration ? o->duration : "1s";
	u64 dur_ns;
	int fd, rc = -1, n = ncombos_all();
	struct combo *all = NULL;

	if (o->nworkloads) {
		snprintf(err, errlen,
			 "repro fio --explore: --workload does not apply (the search "
			 "runs the seed's fio job)");
		return -1;
	}
	if (check_unknowns(o->unknowns, err, errlen))
		return -1;
	if (sl_parse_duration(dur, &dur_ns, err, errlen) || !dur_ns) {
		snprintf(err, errlen, "--duration '%s': expected a duration above 0", dur);
		return -1;
	}
	memset(&sw, 0, sizeof(sw));
	for (int u = 0; u < NUNK; u++) {
		var[u] = explored(o, u);
		/* the bus-master check is acpi_idle's: not an unknown of another table */
		if (!strcmp(unknowns[u].key, "cpuidle-param.bm_check") &&
		    !sl_fio_acpi_table(o->kernel, o->idle_driver))
			var[u] = false;
	}
	/* the base: the fio machine of repro_fio.c, then the user's words */
	struct sl_args *a = &sw.base;

	sl_fio_machine_args(a, o);
	a->duration = dur;
	a->seed = o->seed;
	for (int u = 0; u < NUNK; u++) {
		const struct unknown *x = &unknowns[u];
		size_t off = 0;

		if (!var[u] || mix_unknown(x))
			continue;
		vbuf[u][0] = '\0';
		sl_append(vbuf[u], sizeof(vbuf[u]), &off, "%s=", x->key);
		for (int v = 0; v < x->nvalues; v++)
			sl_append(vbuf[u], sizeof(vbuf[u]), &off, "%s%s", v ? "," : "",
				  x->values[v]);
		if (sweep_opt(&sw, "--vary", vbuf[u], err, errlen))
			goto out;
	}
	if (sweep_opt(&sw, "--vary", "cpuidle-governor=poll,menu-2.6.31,menu-tng", err, errlen))
		goto out;
	int job = 0, rd = 0, nm = 0;

	while (strcmp(unknowns[job].key, "job"))
		job++;
	while (strcmp(unknowns[rd].key, "reader"))
		rd++;
	for (int j = 0; j < (var[job] ? unknowns[job].nvalues : 1); j++)
		for (int r = 0; r < (var[rd] ? unknowns[rd].nvalues : 1); r++)
			for (int d = 0; d < NDISK; d++) {
				snprintf(mbuf[nm], sizeof(mbuf[0]), "fio:disks=%d,%s%s", disks[d],
					 job_spec(unknowns[job].values[j]),
					 var[rd] ? reader_spec(unknowns[rd].values[r])
						 : SL_FIO_MACHINE_JOB);
				if (sweep_opt(&sw, "--mix", mbuf[nm++], err, errlen))
					goto out;
			}
	/* the runs' rows go to a file of their own, read back and removed */
	snprintf(path, sizeof(path), "%s/schedlab-explore-XXXXXX.jsonl",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(path, 6);
	if (fd < 0) {
		snprintf(err, errlen, "explore: cannot make a file for the runs in %s (TMPDIR)",
			 tmp && *tmp ? tmp : "/tmp");
		goto out;
	}
	close(fd);
	unlink(path); /* the sweep makes it new, with its header */
	sw.out = path;
	sw.fmt = SL_SWEEP_JSONL;
	sw.jobs = o->jobs;
	if (sl_sweep_prepare(&sw, err, errlen))
		goto out;
	if (sl_sweep_local(&sw)) {
		snprintf(err, errlen, "explore: the runs failed (%s)", path);
		goto out;
	}
	all = calloc((size_t)n, sizeof(*all));
	if (!all) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++)
		all[i].val[0] = -1; /* not run */
	double secs = (double)dur_ns / 1e9;

	if (read_rows(path, all, secs, err, errlen))
		goto out;
	/* keep the combinations run (all nine runs each), judged */
	int k = 0;

	for (int i = 0; i < n; i++) {
		bool whole = all[i].val[0] >= 0;

		for (int d = 0; d < NDISK; d++)
			for (int g = 0; g < 3; g++)
				whole &= all[i].have[d][g] != 0;
		if (!whole)
			continue;
		judge(&all[i]);
		all[k++] = all[i];
	}
	if (!k) {
		snprintf(err, errlen, "explore: no combination ran whole");
		goto out;
	}
	qsort(all, (size_t)k, sizeof(*all), cmp_combo);
	if (o->json)
		print_json(out, all, k, var, secs);
	else
		print_table(out, all, k, var, secs);
	rc = 0;
out:
	if (sw.out)
		unlink(path);
	free(all);
	sl_sweep_free(&sw);
	return rc;
}
