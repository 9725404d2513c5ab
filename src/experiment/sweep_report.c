/*
 * `schedlab sweep-report`: what a sweep says. For each metric, each flag's main effect (mean
 * with the flag on minus off) with a 95% interval from the two groups' variances (the normal
 * approximation: a sweep's groups hold thousands of runs), ranked by size; the mean of each
 * level of the other settings; the lowest and highest configurations; and the strongest two-flag
 * interactions, ((m11 - m01) - (m10 - m00)) / 2 as in a 2^k factorial design. `--plot DIR` draws
 * the distribution across all schedulers and the effect bars with gnuplot, if it is installed.
 *
 * `schedlab sweep-merge` is the same reader: the union of shard files, checked to come from one
 * sweep with no run twice, written in run order (so it equals a single process's file).
 */
#include "core/json_out.h"
#include "core/suggest.h"
#include "experiment/sweep.h"
#include "sched/features.h"
#include "core/outfile.h"
#include "core/escape.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum col_kind { K_RUN, K_CONFIG, K_LEVEL, K_FLAG, K_METRIC };

struct table {
	char **cols;
	enum col_kind *kind;
	int ncols;
	int nrows, cap;
	double *num;  /* nrows x ncols, NAN when empty */
	char **str;   /* nrows x ncols for K_LEVEL columns, else NULL */
	char **lines; /* the raw line of each row, for sweep-merge */
	u64 *run;
	int *src; /* the file (index in the report's list) and line of each row */
	long *src_line;
	char config[32];
	bool csv;
	int file; /* the file being read */
	/* where a reader's refusal goes: this buffer when set (the fuzz target), else stderr */
	char *err;
	size_t errlen;
};

static int err_at(const char *file, long ln, const char *what)
{
	char msg[8192];

	if (ln)
		snprintf(msg, sizeof(msg), "%s: line %ld: %s", file, ln, what);
	else
		snprintf(msg, sizeof(msg), "%s: %s", file, what);
	sl_say(stderr, msg); /* a level or column name from the file is escaped */
	return 2;
}

/* A refusal by the reader of t: said on stderr, or kept in t->err. */
static int bad_at(struct table *t, const char *file, long ln, const char *what)
{
	if (!t->err)
		return err_at(file, ln, what);
	if (ln)
		snprintf(t->err, t->errlen, "%s: line %ld: %s", file, ln, what);
	else
		snprintf(t->err, t->errlen, "%s: %s", file, what);
	return 2;
}

static bool is_metric(const char *c)
{
	const char *dot = strrchr(c, '.');

	for (int i = 0; i < sl_sweep_nmachine_metrics; i++)
		if (!strcmp(c, sl_sweep_machine_metrics[i]))
			return true;
	if (!dot)
		return false;
	for (int i = 0; i < sl_sweep_ngroup_metrics; i++)
		if (!strcmp(dot + 1, sl_sweep_group_metrics[i]))
			return true;
	return false;
}

static bool is_flag_name(const char *c)
{
	if (!*c)
		return false;
	for (; *c; c++)
		if (!((*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'))
			return false;
	return true;
}

static int set_columns(struct table *t, char **names, int n)
{
	t->cols = calloc((size_t)n, sizeof(*t->cols));
	t->kind = calloc((size_t)n, sizeof(*t->kind));
	if (!t->cols || !t->kind)
		return -1;
	t->ncols = n;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i] ? names[i] : "";

		if (!(t->cols[i] = strdup(nm)))
			return -1;
		if (!strcmp(nm, "run"))
			t->kind[i] = K_RUN;
		else if (!strcmp(nm, "config"))
			t->kind[i] = K_CONFIG;
		else if (is_metric(nm))
			t->kind[i] = K_METRIC;
		else if (is_flag_name(nm))
			t->kind[i] = K_FLAG;
		else
			t->kind[i] = K_LEVEL;
	}
	return 0;
}

static int grow(struct table *t)
{
	if (t->nrows < t->cap)
		return 0;
	int cap = t->cap ? t->cap * 2 : 1024;
	double *num = realloc(t->num, sizeof(*num) * (size_t)cap * (size_t)t->ncols);

	if (!num)
		return -1;
	t->num = num;
	char **str = realloc(t->str, sizeof(*str) * (size_t)cap * (size_t)t->ncols);

	if (!str)
		return -1;
	t->str = str;
	char **lines = realloc(t->lines, sizeof(*lines) * (size_t)cap);

	if (!lines)
		return -1;
	t->lines = lines;
	u64 *run = realloc(t->run, sizeof(*run) * (size_t)cap);

	if (!run)
		return -1;
	t->run = run;
	int *src = realloc(t->src, sizeof(*src) * (size_t)cap);

	if (!src)
		return -1;
	t->src = src;
	long *src_line = realloc(t->src_line, sizeof(*src_line) * (size_t)cap);

	if (!src_line)
		return -1;
	t->src_line = src_line;
	t->cap = cap;
	return 0;
}

static double parse_num(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	return *end || errno ? NAN : v;
}

/* The level strings of row r, not yet counted in nrows (a row refused half way). */
static void drop_row(struct table *t, int r)
{
	for (int c = 0; c < t->ncols; c++) {
		free(t->str[(size_t)r * (size_t)t->ncols + (size_t)c]);
		t->str[(size_t)r * (size_t)t->ncols + (size_t)c] = NULL;
	}
}

/* The cells of row t->nrows into the table, checked; the level strings are kept even when
 * a later cell is refused (add_row frees them). */
static int check_row(struct table *t, const char *file, long ln, const char **cells)
{
	int r = t->nrows;
	char *end;

	for (int c = 0; c < t->ncols; c++) {
		const char *v = cells[c];

		t->num[(size_t)r * (size_t)t->ncols + (size_t)c] = parse_num(v);
		if (t->kind[c] == K_RUN) {
			errno = 0;
			t->run[r] = v ? strtoull(v, &end, 10) : 0;
			if (!v || !*v || *end || errno)
				return bad_at(t, file, ln, "expected a run number in column 'run'");
		} else if (t->kind[c] == K_CONFIG) {
			if (!v || strlen(v) != 16)
				return bad_at(t, file, ln, "expected a 16-digit config id");
			if (!t->config[0]) {
				snprintf(t->config, sizeof(t->config), "%s", v);
			} else if (strcmp(t->config, v)) {
				char msg[160];

				snprintf(msg, sizeof(msg),
					 "config %s differs from %s: the files come from different "
					 "sweeps",
					 v, t->config);
				return bad_at(t, file, ln, msg);
			}
		} else if (t->kind[c] == K_LEVEL) {
			if (!(t->str[(size_t)r * (size_t)t->ncols + (size_t)c] =
				      strdup(v ? v : "")))
				return bad_at(t, file, ln, "out of memory");
		} else if (t->kind[c] == K_FLAG && (!v || (strcmp(v, "0") && strcmp(v, "1")))) {
			char msg[160];

			snprintf(msg, sizeof(msg), "column %s: expected 0 or 1", t->cols[c]);
			return bad_at(t, file, ln, msg);
		} else if (t->kind[c] == K_METRIC && v && *v &&
			   (errno = 0, strtod(v, &end), end == v || *end)) {
			/* a cell that is neither empty (no value) nor a number was read as empty */
			char msg[200];

			snprintf(msg, sizeof(msg), "column %s: '%.40s' is not a number", t->cols[c],
				 v);
			return bad_at(t, file, ln, msg);
		}
	}
	return 0;
}

/* Adds one row from its cells, checked; a refused row leaves nothing behind. */
static int add_row(struct table *t, const char *file, long ln, const char *raw, const char **cells)
{
	if (grow(t))
		return bad_at(t, file, ln, "out of memory");
	int r = t->nrows, rc;

	for (int c = 0; c < t->ncols; c++)
		t->str[(size_t)r * (size_t)t->ncols + (size_t)c] = NULL;
	rc = check_row(t, file, ln, cells);
	if (!rc && !(t->lines[r] = strdup(raw)))
		rc = bad_at(t, file, ln, "out of memory");
	if (rc) {
		drop_row(t, r);
		return rc;
	}
	t->src[r] = t->file;
	t->src_line[r] = ln;
	t->nrows++;
	return 0;
}

/* One sweep file from f (named file in messages), CSV or JSON Lines, into t. */
static int read_stream(struct table *t, FILE *f, const char *file, bool csv)
{
	char *line = NULL;
	size_t cap = 0;
	long ln = 0;
	int rc = 0;

	if (t->ncols && t->csv != csv)
		return bad_at(t, file, 0, "mixes CSV and JSON Lines files");
	t->csv = csv;
	char **fields = NULL;
	const char **cells = NULL;
	int header_cols = 0;

	for (ssize_t len; !rc && (len = sl_sweep_getline(&line, &cap, f)) != -1;) {
		ln++;
		if (len == -2) {
			rc = bad_at(t, file, ln,
				    "a line longer than 65536 bytes: not a row of a sweep");
			break;
		}
		if (len == -3) {
			rc = bad_at(t, file, ln, "a NUL byte: not a row of a sweep");
			break;
		}
		if (line[len - 1] != '\n') {
			fprintf(stderr, "schedlab: %s: line %ld: a torn last line, ignored\n", file,
				ln);
			break;
		}
		line[len - 1] = '\0';
		char *raw = strdup(line);

		if (!raw) {
			rc = bad_at(t, file, ln, "out of memory");
			break;
		}
		if (csv) {
			if (ln == 1) {
				char *names[4096];
				int k = sl_csv_split(line, names, 4096);

				if (k < 2 || strcmp(names[0], "run")) {
					rc = bad_at(t, file, 1,
						    "expected a sweep header (run,config,...)");
				} else if (t->ncols) {
					bool same = k == t->ncols;

					for (int i = 0; same && i < k; i++)
						same = !strcmp(names[i], t->cols[i]);
					if (!same)
						rc = err_at(
							file, 1,
							"its columns differ from the first file's");
				} else if (set_columns(t, names, k)) {
					rc = bad_at(t, file, 1, "out of memory");
				}
				header_cols = k < 2 ? 2 : k;
				fields = calloc((size_t)header_cols + 1, sizeof(*fields));
				cells = calloc((size_t)header_cols + 1, sizeof(*cells));
				if (!rc && (!fields || !cells))
					rc = bad_at(t, file, 1, "out of memory");
			} else {
				int k = sl_csv_split(line, fields, header_cols + 1);

				if (k != header_cols) {
					char msg[96];

					snprintf(msg, sizeof(msg),
						 "expected %d comma-separated fields", header_cols);
					rc = bad_at(t, file, ln, msg);
				} else {
					for (int i = 0; i < k; i++)
						cells[i] = fields[i];
					rc = add_row(t, file, ln, raw, cells);
				}
			}
		} else {
			const char *why = NULL;
			json_object *o = sl_sweep_json_row(line, &why);

			if (!o) {
				rc = bad_at(t, file, ln, why);
			} else {
				int k = json_object_object_length(o), i = 0;
				char **names = calloc((size_t)k + 1, sizeof(*names));
				char(*vals)[64] = calloc((size_t)k + 1, sizeof(*vals));
				const char **cv = calloc((size_t)k + 1, sizeof(*cv));

				if (!names || !vals || !cv) {
					rc = bad_at(t, file, ln, "out of memory");
				} else {
					json_object_object_foreach(o, key, val)
					{
						names[i] = key;
						if (!val)
							cv[i] = NULL;
						else if (json_object_is_type(val, json_type_string))
							cv[i] = json_object_get_string(val);
						else {
							snprintf(vals[i], sizeof(vals[i]), "%s",
								 json_object_to_json_string(val));
							cv[i] = vals[i];
						}
						i++;
					}
					if (!t->ncols) {
						if (k < 2 || !names[0] || strcmp(names[0], "run"))
							rc = bad_at(t, file, ln,
								    "expected a sweep row (run, "
								    "config, ...)");
						else if (set_columns(t, names, k))
							rc = bad_at(t, file, ln, "out of memory");
					}
					bool same = !rc && k == t->ncols;

					for (int c = 0; same && c < k; c++)
						same = names[c] && !strcmp(names[c], t->cols[c]);
					if (!rc && !same)
						rc = bad_at(t, file, ln,
							    "its keys differ from the first row's");
					if (!rc)
						rc = add_row(t, file, ln, raw, cv);
				}
				free(names);
				free(vals);
				free(cv);
			}
			json_object_put(o);
		}
		free(raw);
	}
	free(line);
	free(fields);
	free(cells);
	if (!rc && ferror(f))
		rc = bad_at(t, file, 0, strerror(errno));
	return rc;
}

static int read_file(struct table *t, const char *file)
{
	size_t n = strlen(file);
	bool csv = n > 4 && !strcmp(file + n - 4, ".csv");
	bool jsonl = n > 6 && !strcmp(file + n - 6, ".jsonl");
	FILE *f;
	int rc;

	if (!csv && !jsonl)
		return err_at(file, 0, "expected a sweep file ending in .csv or .jsonl");
	f = fopen(file, "r");
	if (!f)
		return err_at(file, 0, strerror(errno));
	rc = read_stream(t, f, file, csv);
	fclose(f);
	return rc;
}

static int cmp_run(const void *a, const void *b, void *ctx)
{
	const struct table *t = ctx;
	int i = *(const int *)a, j = *(const int *)b;
	u64 x = t->run[i], y = t->run[j];

	/* equal runs (a duplicate, refused) in reading order: the message names the later */
	if (x == y)
		return i < j ? -1 : i > j;
	return x < y ? -1 : 1;
}

static void free_table(struct table *t)
{
	for (int i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (size_t i = 0; t->str && i < (size_t)t->nrows * (size_t)t->ncols; i++)
		free(t->str[i]);
	for (int i = 0; t->lines && i < t->nrows; i++)
		free(t->lines[i]);
	free(t->cols);
	free(t->kind);
	free(t->num);
	free(t->str);
	free(t->lines);
	free(t->run);
	free(t->src);
	free(t->src_line);
}

int sl_sweep_report_read(FILE *f, const char *name, char *err, size_t errlen)
{
	struct table t;
	size_t n = strlen(name);
	int rc;

	memset(&t, 0, sizeof(t));
	t.err = err;
	t.errlen = errlen;
	rc = read_stream(&t, f, name, !(n > 6 && !strcmp(name + n - 6, ".jsonl")));
	free_table(&t);
	return rc ? -1 : 0;
}

#define NUM(t, r, c) ((t)->num[(size_t)(r) * (size_t)(t)->ncols + (size_t)(c)])
#define STR(t, r, c) ((t)->str[(size_t)(r) * (size_t)(t)->ncols + (size_t)(c)])

/* Welford's running mean and variance. */
struct acc {
	double n, mean, m2;
};

static void acc_add(struct acc *a, double v)
{
	double d = v - a->mean;

	a->n += 1;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

static double acc_var(const struct acc *a)
{
	return a->n > 1 ? a->m2 / (a->n - 1) : 0;
}

struct effect {
	int a, b; /* flag columns; b < 0 for a main effect */
	double effect, ci, on, off;
	double n_on, n_off;
	bool real; /* significant (beyond its 95% interval) and not below the resolution */
};

/*
 * The resolution of an effect: a fraction of the metric's mean below which a difference is
 * not read as one, whatever its interval. Deterministic runs of one seed have an interval of 0,
 * so without it a difference of a few parts per million would rank first as "significant".
 */
#define RESOLUTION_FRAC 1e-3

static double resolution(const struct acc *all)
{
	return RESOLUTION_FRAC * fabs(all->mean);
}

/* The effects beyond their interval and the resolution first, each part by size. */
static int cmp_effect(const void *x, const void *y)
{
	const struct effect *a = x, *b = y;
	double u = fabs(a->effect), v = fabs(b->effect);

	if (a->real != b->real)
		return a->real ? -1 : 1;
	if (u != v)
		return u > v ? -1 : 1;
	if (a->a != b->a)
		return a->a - b->a;
	return a->b - b->b;
}

static bool lower_is_better(const char *m)
{
	return !strstr(m, "cpu_share") && !strstr(m, "io_mb_s") && !strstr(m, "wakeups");
}

/* The flags of a row that differ from the kernel's defaults, as debugfs words. */
static void row_flags(const struct table *t, int r, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < t->ncols; c++) {
		if (t->kind[c] != K_FLAG)
			continue;
		bool on = NUM(t, r, c) > 0.5, def = true;

		for (int k = 0; k < sl_nreleases; k++)
			for (int i = 0; i < sl_releases[k]->feats.n; i++)
				if (!strcmp(sl_releases[k]->feats.flags[i].name, t->cols[c]))
					def = sl_releases[k]->feats.flags[i].def;
		if (on != def && off + strlen(t->cols[c]) + 5 < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s%s", off ? " " : "",
						on ? "" : "NO_", t->cols[c]);
	}
	for (int c = 0; c < t->ncols; c++)
		if (t->kind[c] == K_LEVEL && strcmp(t->cols[c], "mix") &&
		    off + strlen(t->cols[c]) + 40 < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s=%.30s", off ? " " : "",
						t->cols[c], STR(t, r, c));
	if (!off)
		snprintf(buf, len, "(the kernel's defaults)");
}

/* The default of flag name in the releases' tables (the last release that has it). */
static bool flag_default(const char *name)
{
	bool def = true;

	for (int k = 0; k < sl_nreleases; k++)
		for (int i = 0; i < sl_releases[k]->feats.n; i++)
			if (!strcmp(sl_releases[k]->feats.flags[i].name, name))
				def = sl_releases[k]->feats.flags[i].def;
	return def;
}

/*
 * The mean of column col over the runs with every flag at the kernel's default (over the seeds
 * and mixes): what the plots mark. NAN when the sweep varies no flag, or varies a knob (then no
 * one run is "the default").
 */
static double default_mean(const struct table *t, int col)
{
	double sum = 0;
	int n = 0, nflags = 0;

	for (int c = 0; c < t->ncols; c++) {
		if (t->kind[c] == K_FLAG)
			nflags++;
		if (t->kind[c] == K_LEVEL && strcmp(t->cols[c], "mix") &&
		    strcmp(t->cols[c], "seed"))
			return NAN;
	}
	if (!nflags)
		return NAN;
	for (int r = 0; r < t->nrows; r++) {
		bool def = !isnan(NUM(t, r, col));

		for (int c = 0; c < t->ncols && def; c++)
			if (t->kind[c] == K_FLAG)
				def = (NUM(t, r, c) > 0.5) == flag_default(t->cols[c]);
		if (def) {
			sum += NUM(t, r, col);
			n++;
		}
	}
	return n ? sum / n : NAN;
}

struct metric_report {
	int col;
	struct acc all;
	double min, max;
	struct effect *main, *inter;
	int nmain, ninter;
	int *order; /* rows with a value, by value */
	int nval;
};

struct sort_ctx {
	const struct table *t;
	int c;
};

static int cmp_val(const void *a, const void *b, void *ctx)
{
	const struct sort_ctx *s = ctx;
	double x = NUM(s->t, *(const int *)a, s->c), y = NUM(s->t, *(const int *)b, s->c);

	if (x != y)
		return x < y ? -1 : 1;
	return s->t->run[*(const int *)a] < s->t->run[*(const int *)b] ? -1 : 1;
}

static int analyse(const struct table *t, int col, const int *flags, int nflags,
		   struct metric_report *m)
{
	memset(m, 0, sizeof(*m));
	m->col = col;
	m->min = INFINITY;
	m->max = -INFINITY;
	m->order = malloc(sizeof(int) * (size_t)(t->nrows ? t->nrows : 1));
	m->main = calloc((size_t)(nflags ? nflags : 1), sizeof(*m->main));
	m->inter = calloc((size_t)nflags * (size_t)nflags / 2 + 1, sizeof(*m->inter));
	struct acc *fa = calloc((size_t)nflags * 2 + 1, sizeof(*fa));
	struct acc *pa = calloc((size_t)nflags * (size_t)nflags * 4 + 1, sizeof(*pa));

	if (!m->order || !m->main || !m->inter || !fa || !pa) {
		free(fa);
		free(pa);
		return -1;
	}
	for (int r = 0; r < t->nrows; r++) {
		double v = NUM(t, r, col);

		if (isnan(v))
			continue;
		m->order[m->nval++] = r;
		acc_add(&m->all, v);
		m->min = fmin(m->min, v);
		m->max = fmax(m->max, v);
		for (int i = 0; i < nflags; i++) {
			int bi = NUM(t, r, flags[i]) > 0.5;

			acc_add(&fa[i * 2 + bi], v);
			for (int j = i + 1; j < nflags; j++) {
				int bj = NUM(t, r, flags[j]) > 0.5;

				acc_add(&pa[(i * nflags + j) * 4 + bi * 2 + bj], v);
			}
		}
	}
	for (int i = 0; i < nflags; i++) {
		struct acc *off = &fa[i * 2], *on = &fa[i * 2 + 1];

		if (!on->n || !off->n)
			continue;
		m->main[m->nmain++] = (struct effect){
			.a = flags[i],
			.b = -1,
			.effect = on->mean - off->mean,
			.ci = 1.96 * sqrt(acc_var(on) / on->n + acc_var(off) / off->n),
			.on = on->mean,
			.off = off->mean,
			.n_on = on->n,
			.n_off = off->n,
		};
		m->main[m->nmain - 1].real =
			fabs(m->main[m->nmain - 1].effect) > m->main[m->nmain - 1].ci &&
			fabs(m->main[m->nmain - 1].effect) >= resolution(&m->all);
		for (int j = i + 1; j < nflags; j++) {
			struct acc *c = &pa[(i * nflags + j) * 4];

			if (!c[0].n || !c[1].n || !c[2].n || !c[3].n)
				continue;
			/* c[bi*2+bj]: ((m11 - m01) - (m10 - m00)) / 2 */
			double e = ((c[3].mean - c[1].mean) - (c[2].mean - c[0].mean)) / 2;
			double v = acc_var(&c[0]) / c[0].n + acc_var(&c[1]) / c[1].n +
				   acc_var(&c[2]) / c[2].n + acc_var(&c[3]) / c[3].n;

			m->inter[m->ninter++] = (struct effect){.a = flags[i],
								.b = flags[j],
								.effect = e,
								.ci = 0.5 * 1.96 * sqrt(v)};
			m->inter[m->ninter - 1].real = fabs(e) > m->inter[m->ninter - 1].ci &&
						       fabs(e) >= resolution(&m->all);
		}
	}
	qsort(m->main, (size_t)m->nmain, sizeof(*m->main), cmp_effect);
	qsort(m->inter, (size_t)m->ninter, sizeof(*m->inter), cmp_effect);
	struct sort_ctx sc = {t, col};

	qsort_r(m->order, (size_t)m->nval, sizeof(int), cmp_val, &sc);
	free(fa);
	free(pa);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The configurations among the runs: rows that differ in a flag or a setting other than the
 * seed (a sweep runs each configuration once per seed). -1 when out of memory.
 */
static int count_configs(const struct table *t)
{
	char **key = calloc((size_t)(t->nrows ? t->nrows : 1), sizeof(*key));
	int n = 0;

	if (!key)
		return -1;
	for (int r = 0; r < t->nrows; r++) {
		size_t len = 1, off = 0;

		for (int c = 0; c < t->ncols; c++)
			if (t->kind[c] == K_FLAG)
				len += 2;
			else if (t->kind[c] == K_LEVEL && strcmp(t->cols[c], "seed"))
				len += strlen(STR(t, r, c) ? STR(t, r, c) : "") + 1;
		if (!(key[r] = malloc(len))) {
			n = -1;
			goto out;
		}
		for (int c = 0; c < t->ncols; c++)
			if (t->kind[c] == K_FLAG)
				off += (size_t)snprintf(key[r] + off, len - off, "%c\x1f",
							NUM(t, r, c) > 0.5 ? '1' : '0');
			else if (t->kind[c] == K_LEVEL && strcmp(t->cols[c], "seed"))
				off += (size_t)snprintf(key[r] + off, len - off, "%s\x1f",
							STR(t, r, c) ? STR(t, r, c) : "");
		key[r][off] = '\0';
	}
	qsort(key, (size_t)t->nrows, sizeof(*key), cmp_str);
	for (int r = 0; r < t->nrows; r++)
		n += !r || strcmp(key[r], key[r - 1]);
out:
	for (int r = 0; r < t->nrows; r++)
		free(key[r]);
	free(key);
	return n;
}

static void free_metric(struct metric_report *m)
{
	free(m->main);
	free(m->inter);
	free(m->order);
}

/* Per level of a non-flag setting: the mean of the metric. */
static int levels(const struct table *t, int lc, int mc, const char ***names, struct acc **accs)
{
	int n = 0;

	*names = NULL;
	*accs = NULL;
	for (int r = 0; r < t->nrows; r++) {
		double v = NUM(t, r, mc);
		const char *s = STR(t, r, lc);
		int k;

		if (isnan(v))
			continue;
		for (k = 0; k < n && strcmp((*names)[k], s); k++)
			;
		if (k == n) {
			const char **nn = realloc(*names, sizeof(*nn) * (size_t)(n + 1));
			struct acc *na = realloc(*accs, sizeof(*na) * (size_t)(n + 1));

			if (nn)
				*names = nn;
			if (na)
				*accs = na;
			if (!nn || !na)
				return -1;
			nn[n] = s;
			memset(&na[n], 0, sizeof(na[n]));
			n++;
		}
		acc_add(&(*accs)[k], v);
	}
	return n;
}

/* A column of times: its name ends in _ns (the CSV and JSON keep nanoseconds). */
static bool is_ns(const char *col)
{
	size_t n = strlen(col);

	return n > 3 && !strcmp(col + n - 3, "_ns");
}

/* The scale a person reads a time in: the largest unit that keeps |v| at 1 or more. */
static double ns_scale(double a, const char **unit)
{
	if (a >= 1e9) {
		*unit = "s";
		return 1e9;
	}
	if (a >= 1e6) {
		*unit = "ms";
		return 1e6;
	}
	if (a >= 1e3) {
		*unit = "us";
		return 1e3;
	}
	*unit = "ns";
	return 1;
}

/* a tail figure: a percentile, a maximum or a wait, read on a log axis */
static bool is_tail(const char *col)
{
	return strstr(col, "p99") || strstr(col, "p95") || strstr(col, "max") ||
	       strstr(col, "wait");
}

/* v of column col as a person reads it: times in s, ms, us or ns, the rest as %.6g */
static const char *hv(const char *col, double v, char *buf, size_t len)
{
	const char *u;
	double sc;

	if (!is_ns(col) || !isfinite(v)) {
		snprintf(buf, len, "%.6g", v);
		return buf;
	}
	sc = ns_scale(fabs(v), &u);
	snprintf(buf, len, sc == 1 ? "%.0f %s" : "%.3f %s", v / sc, u);
	return buf;
}

/* a level of a knob column: a time in human units when the column is one */
static const char *hlevel(const char *col, const char *level, char *buf, size_t len)
{
	char *end;
	double v = strtod(level, &end);

	if (!is_ns(col) || end == level || *end)
		return level;
	return hv(col, v, buf, len);
}

/* What keeps an effect from being read as one: "" when nothing does. */
static const char *effect_mark(const struct effect *e, const struct metric_report *m)
{
	if (fabs(e->effect) <= e->ci)
		return "  (not significant)";
	if (fabs(e->effect) < resolution(&m->all))
		return "  (below resolution)";
	return "";
}

static void print_metric(FILE *out, const struct table *t, const struct metric_report *m, int top)
{
	const char *name = t->cols[m->col];
	char fl[1024], b1[32], b2[32], b3[32], b4[32];

	fprintf(out, "\n== %s: %d runs, mean %s, min %s, max %s (%s is better)\n", name, m->nval,
		hv(name, m->all.mean, b1, sizeof(b1)), hv(name, m->min, b2, sizeof(b2)),
		hv(name, m->max, b3, sizeof(b3)), lower_is_better(name) ? "lower" : "higher");
	if (m->nmain) {
		fprintf(out,
			"main effects (mean with the flag on - off, 95%% interval; the resolution "
			"is %g%% of the mean, %s):\n",
			100 * RESOLUTION_FRAC, hv(name, resolution(&m->all), b1, sizeof(b1)));
		fprintf(out, "  %-4s %-22s %14s %12s %9s %14s %14s\n", "rank", "flag", "effect",
			"+-ci95", "% mean", "mean on", "mean off");
		for (int i = 0; i < m->nmain; i++) {
			const struct effect *e = &m->main[i];

			fprintf(out, "  %-4d %-22s %14s %12s %8.2f%% %14s %14s%s\n", i + 1,
				t->cols[e->a], hv(name, e->effect, b1, sizeof(b1)),
				hv(name, e->ci, b2, sizeof(b2)),
				m->all.mean != 0 ? 100 * e->effect / fabs(m->all.mean) : 0.0,
				hv(name, e->on, b3, sizeof(b3)), hv(name, e->off, b4, sizeof(b4)),
				effect_mark(e, m));
		}
	}
	for (int c = 0; c < t->ncols; c++) {
		const char **ln;
		struct acc *la;

		if (t->kind[c] != K_LEVEL || !strcmp(t->cols[c], "seed"))
			continue;
		int n = levels(t, c, m->col, &ln, &la);

		if (n > 1) {
			fprintf(out, "by %s:\n", t->cols[c]);
			for (int k = 0; k < n; k++)
				fprintf(out, "  %-40.40s mean %14s +- %-12s (%d runs)\n",
					hlevel(t->cols[c], ln[k], b3, sizeof(b3)),
					hv(name, la[k].mean, b1, sizeof(b1)),
					hv(name, 1.96 * sqrt(acc_var(&la[k]) / la[k].n), b2,
					   sizeof(b2)),
					(int)la[k].n);
		}
		free(ln);
		free(la);
	}
	int show = top < m->nval ? top : m->nval;
	bool low = lower_is_better(name);

	for (int pass = 0; pass < 2; pass++) {
		fprintf(out, "%s %d configurations:\n", pass == 0 ? "best" : "worst", show);
		for (int i = 0; i < show; i++) {
			int idx = (pass == 0) == low ? i : m->nval - 1 - i;
			int r = m->order[idx];

			row_flags(t, r, fl, sizeof(fl));
			fprintf(out, "  run %-8llu %14s  %s\n", (unsigned long long)t->run[r],
				hv(name, NUM(t, r, m->col), b1, sizeof(b1)), fl);
		}
	}
	if (m->ninter) {
		int k = top < m->ninter ? top : m->ninter;

		fprintf(out, "strongest two-flag interactions ((m11-m01)-(m10-m00))/2:\n");
		for (int i = 0; i < k; i++) {
			const struct effect *e = &m->inter[i];

			fprintf(out, "  %-22s x %-22s %14s +- %s%s\n", t->cols[e->a], t->cols[e->b],
				hv(name, e->effect, b1, sizeof(b1)),
				hv(name, e->ci, b2, sizeof(b2)), effect_mark(e, m));
		}
	}
}

/*
 * No metric varies across the runs (the knobs varied changed nothing measured): said, with each
 * metric's one value, rather than a report of nothing.
 */
static void print_constant(FILE *out, const struct table *t, const int *cols, int nc)
{
	char b[32];

	fprintf(out,
		"\nno metric varies across the %d runs: what was varied changed nothing "
		"measured; every run gives\n",
		t->nrows);
	for (int k = 0; k < nc; k++) {
		const char *v = NULL;

		for (int r = 0; r < t->nrows && !v; r++)
			if (!isnan(NUM(t, r, cols[k])))
				v = hv(t->cols[cols[k]], NUM(t, r, cols[k]), b, sizeof(b));
		if (v)
			fprintf(out, "  %-32s %s\n", t->cols[cols[k]], v);
	}
}

static json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *metric_json(const struct table *t, const struct metric_report *m, int top)
{
	json_object *o = json_object_new_object(), *a;
	const char *name = t->cols[m->col];
	char fl[1024];

	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "runs", json_object_new_int(m->nval));
	json_object_object_add(o, "mean", jnum(m->all.mean));
	json_object_object_add(o, "min", jnum(m->min));
	json_object_object_add(o, "max", jnum(m->max));
	json_object_object_add(o, "lower_is_better",
			       json_object_new_boolean(lower_is_better(name)));
	json_object_object_add(o, "resolution", jnum(resolution(&m->all)));
	a = json_object_new_array();
	for (int i = 0; i < m->nmain; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "flag", json_object_new_string(t->cols[m->main[i].a]));
		json_object_object_add(e, "effect", jnum(m->main[i].effect));
		json_object_object_add(e, "ci95", jnum(m->main[i].ci));
		json_object_object_add(e, "mean_on", jnum(m->main[i].on));
		json_object_object_add(e, "mean_off", jnum(m->main[i].off));
		json_object_object_add(e, "runs_on", json_object_new_int((int)m->main[i].n_on));
		json_object_object_add(e, "runs_off", json_object_new_int((int)m->main[i].n_off));
		json_object_object_add(
			e, "significant",
			json_object_new_boolean(fabs(m->main[i].effect) > m->main[i].ci));
		json_object_object_add(
			e, "above_resolution",
			json_object_new_boolean(fabs(m->main[i].effect) >= resolution(&m->all)));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "main_effects", a);
	json_object *lv = json_object_new_object();

	for (int c = 0; c < t->ncols; c++) {
		const char **ln;
		struct acc *la;

		if (t->kind[c] != K_LEVEL)
			continue;
		int n = levels(t, c, m->col, &ln, &la);
		json_object *arr = json_object_new_array();

		for (int k = 0; k < n; k++) {
			json_object *e = json_object_new_object();

			json_object_object_add(e, "level", json_object_new_string(ln[k]));
			json_object_object_add(e, "mean", jnum(la[k].mean));
			json_object_object_add(e, "ci95",
					       jnum(1.96 * sqrt(acc_var(&la[k]) / la[k].n)));
			json_object_object_add(e, "runs", json_object_new_int((int)la[k].n));
			json_object_array_add(arr, e);
		}
		json_object_object_add(lv, t->cols[c], arr);
		free(ln);
		free(la);
	}
	json_object_object_add(o, "levels", lv);
	int show = top < m->nval ? top : m->nval;
	bool low = lower_is_better(name);

	for (int pass = 0; pass < 2; pass++) {
		a = json_object_new_array();
		for (int i = 0; i < show; i++) {
			int idx = (pass == 0) == low ? i : m->nval - 1 - i;
			int r = m->order[idx];
			json_object *e = json_object_new_object();

			row_flags(t, r, fl, sizeof(fl));
			json_object_object_add(e, "run", json_object_new_int64((int64_t)t->run[r]));
			json_object_object_add(e, "value", jnum(NUM(t, r, m->col)));
			json_object_object_add(e, "settings", json_object_new_string(fl));
			json_object_array_add(a, e);
		}
		json_object_object_add(o, pass == 0 ? "best" : "worst", a);
	}
	a = json_object_new_array();
	for (int i = 0; i < m->ninter && i < top; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "a", json_object_new_string(t->cols[m->inter[i].a]));
		json_object_object_add(e, "b", json_object_new_string(t->cols[m->inter[i].b]));
		json_object_object_add(e, "effect", jnum(m->inter[i].effect));
		json_object_object_add(e, "ci95", jnum(m->inter[i].ci));
		json_object_object_add(
			e, "significant",
			json_object_new_boolean(fabs(m->inter[i].effect) > m->inter[i].ci));
		json_object_object_add(
			e, "above_resolution",
			json_object_new_boolean(fabs(m->inter[i].effect) >= resolution(&m->all)));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "interactions", a);
	return o;
}

static void safe_name(const char *in, char *out, size_t len)
{
	size_t i = 0;

	for (; *in && i + 1 < len; in++)
		out[i++] = (*in == '/' || *in == '#' || *in == ' ' || *in == '"') ? '_' : *in;
	out[i] = '\0';
}

/*
 * The private directories of killed --plot runs (.plot.PID.XXXXXX, PID gone), and what they
 * hold (data, scripts, images: files only), removed.
 */
static void remove_stale_plots(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[4400];
		DIR *sd;

		if (!sl_outfile_stale(de->d_name, ".plot"))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if ((sd = opendir(sub))) {
			struct dirent *e;

			while ((e = readdir(sd))) {
				char f[8800];

				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				snprintf(f, sizeof(f), "%s/%s", sub, e->d_name);
				unlink(f);
			}
			closedir(sd);
		}
		rmdir(sub);
	}
	closedir(d);
}

/*
 * gnuplot on one script, run in the plots' private directory (the script names its files
 * relative to it: the SVGs, which quote a plot's data file, do not carry the directory's random
 * name), its output on our stderr. 0 when it exited 0.
 */
static int run_gnuplot(const char *tdir, const char *script)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(tdir) || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * gnuplot exits 0 when it could not write its output (a full disk leaves empty images and a
 * cut SVG): a plot is whole when it ends as its format ends (a PNG's IEND chunk, an SVG's
 * </svg>) and is on disk (fsync). 0, or -1 with errno (EIO for a cut file).
 */
static int plot_whole(const char *path, bool svg)
{
	static const unsigned char iend[8] = {'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
	unsigned char tail[16];
	int fd = open(path, O_RDONLY | O_CLOEXEC), e = 0;
	struct stat st;
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st))
		e = errno;
	else if (st.st_size < (off_t)sizeof(tail))
		e = EIO;
	else if ((n = pread(fd, tail, sizeof(tail), st.st_size - (off_t)sizeof(tail))) !=
		 (ssize_t)sizeof(tail))
		e = n < 0 ? errno : EIO;
	else if (svg ? !memmem(tail, sizeof(tail), "</svg>", 6) : memcmp(tail + 8, iend, 8))
		e = EIO;
	else if (fsync(fd))
		e = errno;
	close(fd);
	errno = e;
	return e ? -1 : 0;
}

/*
 * Plots through gnuplot: one data file and one script per metric; gnuplot writes to temporary
 * names that are renamed into place only when every plot of every metric is whole, so a failed
 * plot (gnuplot's error, a full disk) leaves no file and exit status 1.
 */
static int plot(const struct table *t, const struct metric_report *ms, int nm, int nconfigs,
		const char *dir)
{
	if (system("gnuplot --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "schedlab: sweep-report --plot: gnuplot is not installed (Debian: "
				"apt-get install gnuplot-nox); the report is complete, no plot was "
				"written\n");
		return 1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "schedlab: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	char path[4096], sname[256], tdir[4096];
	int rc = 0;
	static const char *const terms[2][2] = {{"pngcairo size 1000,%d font ',11'", "png"},
						{"svg size 1000,%d font ',11'", "svg"}};
	static const char *const kinds[2] = {"distribution", "effects"};

	/*
	 * The data, the scripts and gnuplot's outputs live in a private directory beside the plots
	 * (mkdtemp: two reports plotting into one DIR do not collide); each plot is renamed from it
	 * into DIR once gnuplot succeeded, and the directory is removed in every case.
	 */
	remove_stale_plots(dir);
	snprintf(tdir, sizeof(tdir), "%s/.plot.%d.XXXXXX", dir, (int)getpid());
	if (!mkdtemp(tdir)) {
		fprintf(stderr, "schedlab: %s: %s\n", dir, strerror(errno));
		return 1;
	}

	for (int k = 0; k < nm && !rc; k++) {
		const struct metric_report *m = &ms[k];

		safe_name(t->cols[m->col], sname, sizeof(sname));
		snprintf(path, sizeof(path), "%s/.%s.dat", tdir, sname);
		FILE *d = fopen(path, "w");

		if (!d) {
			fprintf(stderr, "schedlab: %s: %s\n", path, strerror(errno));
			rc = 1;
			break;
		}
		/* times in the unit a person reads (the largest |value| decides); a tail on a log
		 * axis with log-width bins when it spans more than a decade */
		const char *name = t->cols[m->col], *unit = "";
		double amax = fabs(m->max) > fabs(m->min) ? fabs(m->max) : fabs(m->min);
		double sc = is_ns(name) ? ns_scale(amax, &unit) : 1;
		bool logx = is_tail(name) && m->min > 0 && m->max / m->min > 10;
		double lo = logx ? log10(m->min / sc) : m->min / sc,
		       hi = logx ? log10(m->max / sc) : m->max / sc;
		enum { BINS = 40 };
		int count[BINS] = {0};
		double bw = (hi - lo) / BINS;

		if (bw <= 0)
			bw = 1;
		for (int i = 0; i < m->nval; i++) {
			double v = NUM(t, m->order[i], m->col) / sc;
			int bi = (int)(((logx ? log10(v) : v) - lo) / bw);

			count[bi < 0 ? 0 : bi >= BINS ? BINS - 1 : bi]++;
		}
		for (int i = 0; i < BINS; i++) {
			double l = lo + bw * i, h = l + bw;

			if (logx)
				fprintf(d, "%.9g %d %.9g\n", (pow(10, l) + pow(10, h)) / 2,
					count[i], pow(10, h) - pow(10, l));
			else
				fprintf(d, "%.9g %d %.9g\n", (l + h) / 2, count[i], bw);
		}
		fprintf(d, "\n\n");
		int lab = 8; /* the longest flag name: the left margin of the effects plot */
		double emax = 0, esc;
		const char *eunit = "";

		for (int i = 0; i < m->nmain; i++)
			if (fabs(m->main[i].effect) + m->main[i].ci > emax)
				emax = fabs(m->main[i].effect) + m->main[i].ci;
		/* the axis spans at least 10 resolutions: effects below it draw as slivers, not as
		 * full-width bars of noise */
		if (emax < 10 * resolution(&m->all))
			emax = 10 * resolution(&m->all);
		if (!(emax > 0)) /* no effect and a mean of 0: any range */
			emax = 1;
		esc = is_ns(name) ? ns_scale(emax, &eunit) : 1;
		for (int i = m->nmain - 1; i >= 0; i--) {
			/* gray: not significant or below the resolution */
			fprintf(d, "%d %.9g %.9g %s %d\n", m->nmain - 1 - i,
				m->main[i].effect / esc, m->main[i].ci / esc, t->cols[m->main[i].a],
				m->main[i].real ? 0x4878a8 : 0xbbbbbb);
			if ((int)strlen(t->cols[m->main[i].a]) > lab)
				lab = (int)strlen(t->cols[m->main[i].a]);
		}
		if (ferror(d) | fclose(d)) {
			fprintf(stderr, "schedlab: %s: %s\n", path, strerror(errno));
			unlink(path);
			rc = 1;
			break;
		}
		snprintf(path, sizeof(path), "%s/.%s.gp", tdir, sname);
		FILE *g = fopen(path, "w");

		if (!g) {
			fprintf(stderr, "schedlab: %s: %s\n", path, strerror(errno));
			snprintf(path, sizeof(path), "%s/.%s.dat", tdir, sname);
			unlink(path);
			rc = 1;
			break;
		}
		/* the axis label: the metric without _ns, and its unit */
		char label[200], elabel[200], lbl[32];
		size_t nl = strlen(name) - (is_ns(name) ? 3 : 0);

		snprintf(label, sizeof(label), "%.*s%s%s%s", (int)nl, name, *unit ? " (" : "", unit,
			 *unit ? ")" : "");
		snprintf(elabel, sizeof(elabel), "%.*s%s%s%s", (int)nl, name, *eunit ? " (" : "",
			 eunit, *eunit ? ")" : "");
		double def = default_mean(t, m->col);
		/* the label of the defaults' line on the side with room */
		double dpos = logx ? log10(def / sc) : def / sc;
		bool right = hi > lo && (dpos - lo) / (hi - lo) > 0.6;
		int eh = 120 + 26 * m->nmain;

		if (eh < 500)
			eh = 500;

		for (int tt = 0; tt < 2; tt++) {
			char term[80];

			snprintf(term, sizeof(term), terms[tt][0], 620);
			if (tt == 0)
				fprintf(g,
					"if (!strstrt(GPVAL_TERMINALS, 'pngcairo')) set terminal "
					"png size 1000,620; else set terminal %s\n",
					term);
			else
				fprintf(g, "set terminal %s\n", term);
			fprintf(g,
				"reset\nset output '.%s-distribution.tmp.%s'\n"
				"set title '%s: %d runs of %d configurations' noenhanced\n"
				"set xlabel '%s%s' noenhanced\nset ylabel 'runs'\nunset key\n"
				"set grid ytics\nset style fill solid 0.6 border -1\n"
				"set lmargin 10\nset rmargin 6\nset tmargin 3\nset bmargin 4\n"
				"set yrange [0:*]\nset offsets graph 0.03,graph 0.03,graph "
				"0.08,0\n%s",
				sname, terms[tt][1], name, m->nval, nconfigs, label,
				logx ? ", log scale" : "",
				logx ? "set logscale x\nset mxtics 10\n" : "");
			if (!isnan(def))
				fprintf(g,
					"set arrow 1 from %.9g, graph 0 to %.9g, graph 1 nohead lw "
					"2 "
					"lc rgb '#d62728' dt 2 front\n"
					"set label 1 \"kernel defaults: %s\" at %.9g, graph 0.96 "
					"offset %s,0 %s tc rgb '#d62728' front noenhanced\n",
					def / sc, def / sc, hv(name, def, lbl, sizeof(lbl)),
					def / sc, right ? "-0.5" : "0.5", right ? "right" : "left");
			fprintf(g,
				"plot '.%s.dat' index 0 using 1:2:3 with boxes lc rgb "
				"'#4878a8'\n",
				sname);
			if (m->nmain) {
				snprintf(term, sizeof(term), terms[tt][0], eh);
				if (tt == 0)
					fprintf(g,
						"if (!strstrt(GPVAL_TERMINALS, 'pngcairo')) set "
						"terminal png size 1000,%d; else set terminal %s\n",
						eh, term);
				else
					fprintf(g, "set terminal %s\n", term);
				fprintf(g,
					"reset\nset output '.%s-effects.tmp.%s'\n"
					"set title 'main effect of each flag on %s (mean on - off, "
					"95%% interval; gray: not significant or below %g%% of the "
					"mean)' noenhanced\n"
					"set xlabel 'effect on %s' noenhanced\nunset ylabel\nunset "
					"key\n"
					"set lmargin %d\nset rmargin 6\nset tmargin 3\nset bmargin "
					"4\n"
					"set grid xtics\nset yzeroaxis lt -1\nset style fill solid "
					"0.6\n"
					"set ytics noenhanced scale 0\nset yrange [-1:%d]\n"
					"set xrange [%.9g:%.9g]\n"
					"set offsets graph 0.05, graph 0.05, 0, 0\n"
					"plot '.%s.dat' index 1 using "
					"2:1:(0):2:($1-0.35):($1+0.35):5:ytic(4) with boxxyerror "
					"lc rgb variable, '' index 1 using 2:1:3 with xerrorbars "
					"lc rgb 'black' pt -1\n",
					sname, terms[tt][1], name, 100 * RESOLUTION_FRAC, elabel,
					lab + 3, m->nmain, -1.05 * emax / esc, 1.05 * emax / esc,
					sname);
			}
		}
		if (ferror(g) | fclose(g)) {
			fprintf(stderr, "schedlab: %s: %s\n", path, strerror(errno));
			rc = 1;
		}
		char script[300];

		snprintf(script, sizeof(script), ".%s.gp", sname);
		if (!rc && run_gnuplot(tdir, script)) {
			fprintf(stderr,
				"schedlab: sweep-report --plot: gnuplot failed writing the plots "
				"of "
				"%s in %s\n",
				t->cols[m->col], dir);
			rc = 1;
		}
		for (int kk = 0; !rc && kk < (m->nmain ? 2 : 1); kk++)
			for (int tt = 0; !rc && tt < 2; tt++) {
				char from[4400];

				snprintf(from, sizeof(from), "%s/.%s-%s.tmp.%s", tdir, sname,
					 kinds[kk], terms[tt][1]);
				if (plot_whole(from, tt == 1)) {
					fprintf(stderr,
						"schedlab: %s/%s-%s.%s: %s (no plot written)\n",
						dir, sname, kinds[kk], terms[tt][1],
						errno == EIO
							? "gnuplot wrote it incomplete (a full "
							  "disk?)"
							: strerror(errno));
					rc = 1;
				}
			}
		unlink(path);
		snprintf(path, sizeof(path), "%s/.%s.dat", tdir, sname);
		unlink(path);
	}
	/* all whole: into place; else none */
	for (int k = 0; k < nm; k++) {
		safe_name(t->cols[ms[k].col], sname, sizeof(sname));
		for (int kk = 0; kk < (ms[k].nmain ? 2 : 1); kk++)
			for (int tt = 0; tt < 2; tt++) {
				char from[4400], to[4400];

				snprintf(from, sizeof(from), "%s/.%s-%s.tmp.%s", tdir, sname,
					 kinds[kk], terms[tt][1]);
				snprintf(to, sizeof(to), "%s/%s-%s.%s", dir, sname, kinds[kk],
					 terms[tt][1]);
				if (rc) {
					unlink(from);
				} else if (rename(from, to)) {
					fprintf(stderr, "schedlab: %s: %s\n", to, strerror(errno));
					unlink(from);
					rc = 1;
				}
			}
	}
	rmdir(tdir);
	if (!rc)
		fprintf(stderr, "schedlab: sweep-report: plots of %d metrics in %s\n", nm, dir);
	return rc;
}

/* The rows in run order, in *ordp (the caller frees); a run read twice is refused naming both
 * places (sweep-merge's shards, and sweep-report's files, whose means it would count twice). */
static int run_order(const struct table *t, const char *const *files, int **ordp)
{
	int *ord = malloc(sizeof(int) * (size_t)(t->nrows ? t->nrows : 1));

	*ordp = NULL;
	if (!ord)
		return err_at(files[0], 0, "out of memory");
	for (int i = 0; i < t->nrows; i++)
		ord[i] = i;
	qsort_r(ord, (size_t)t->nrows, sizeof(int), cmp_run, (void *)t);
	for (int i = 1; i < t->nrows; i++)
		if (t->run[ord[i]] == t->run[ord[i - 1]]) {
			/* the inputs are what is wrong: name both places of the run */
			int a = ord[i - 1], b = ord[i];
			char msg[4400];

			if (t->src[a] == t->src[b])
				snprintf(msg, sizeof(msg),
					 "run %llu given twice (first on line %ld)",
					 (unsigned long long)t->run[b], t->src_line[a]);
			else
				snprintf(msg, sizeof(msg),
					 "run %llu is in more than one file (also %s, line %ld)",
					 (unsigned long long)t->run[b], files[t->src[a]],
					 t->src_line[a]);
			free(ord);
			return err_at(files[t->src[b]], t->src_line[b], msg);
		}
	*ordp = ord;
	return 0;
}

static int merge(const struct table *t, const char *out, const char *const *files)
{
	int *ord, rc = run_order(t, files, &ord);

	if (rc)
		return rc;
	struct sl_outfile o;
	char e[4400];

	if (sl_outfile_open(&o, out, e, sizeof(e))) {
		free(ord);
		fprintf(stderr, "schedlab: %s\n", e);
		return 1;
	}
	FILE *f = o.f;

	if (t->csv) {
		for (int c = 0; c < t->ncols; c++)
			fprintf(f, "%s%s", c ? "," : "", t->cols[c]);
		fputc('\n', f);
	}
	for (int i = 0; i < t->nrows; i++)
		fprintf(f, "%s\n", t->lines[ord[i]]);
	if (sl_outfile_commit(&o, e, sizeof(e))) {
		rc = 1;
		fprintf(stderr, "schedlab: %s\n", e);
	}
	if (!rc)
		fprintf(stderr, "schedlab: sweep-merge: %d runs in %s\n", t->nrows, out);
	free(ord);
	return rc;
}

int sl_sweep_report(const struct sl_report_opts *o)
{
	struct table t;
	int rc = 0;
	FILE *out = o->out ? o->out : stdout;

	memset(&t, 0, sizeof(t));
	for (int i = 0; i < o->nfiles && !rc; i++) {
		t.file = i;
		rc = read_file(&t, o->files[i]);
	}
	if (!rc && !t.nrows)
		rc = err_at(o->files[0], 0, "holds no runs");
	if (rc || o->merge_out) {
		if (!rc)
			rc = merge(&t, o->merge_out, o->files);
		free_table(&t);
		return rc;
	}
	int *ord;

	if (run_order(&t, o->files, &ord)) {
		free_table(&t);
		return 2;
	}
	free(ord);
	int flags[SL_SWEEP_MAX_FLAGS * 4], nflags = 0;
	int nconfigs = count_configs(&t);

	if (nconfigs < 0) {
		free_table(&t);
		return 1;
	}
	for (int c = 0; c < t.ncols && nflags < (int)SL_ARRAY_SIZE(flags); c++)
		if (t.kind[c] == K_FLAG)
			flags[nflags++] = c;
	int *cols = malloc(sizeof(int) * (size_t)t.ncols), nc = 0;

	if (!cols) {
		free_table(&t);
		return 1;
	}
	for (int k = 0; k < o->nmetrics; k++) {
		int c;

		for (c = 0; c < t.ncols && strcmp(t.cols[c], o->metrics[k]); c++)
			;
		if (c == t.ncols || t.kind[c] != K_METRIC) {
			struct sl_suggest sg;
			char hint[160];

			sl_suggest_init(&sg, o->metrics[k], strlen(o->metrics[k]));
			for (int j = 0; j < t.ncols; j++)
				if (t.kind[j] == K_METRIC)
					sl_suggest_add(&sg, t.cols[j]);
			fprintf(stderr, "schedlab: sweep-report: no metric '%s'%s (the metrics:",
				o->metrics[k], sl_suggest_text(&sg, hint, sizeof(hint)));
			for (int j = 0; j < t.ncols; j++)
				if (t.kind[j] == K_METRIC)
					fprintf(stderr, " %s", t.cols[j]);
			fputs(")\n", stderr);
			free(cols);
			free_table(&t);
			return 2;
		}
		cols[nc++] = c;
	}
	if (!o->nmetrics)
		for (int c = 0; c < t.ncols; c++)
			if (t.kind[c] == K_METRIC)
				cols[nc++] = c;
	struct metric_report *ms = calloc((size_t)(nc ? nc : 1), sizeof(*ms));
	int nm = 0;

	if (!ms) {
		free(cols);
		free_table(&t);
		return 1;
	}
	for (int k = 0; k < nc; k++) {
		struct metric_report m;

		if (analyse(&t, cols[k], flags, nflags, &m)) {
			free_metric(&m);
			rc = 1;
			break;
		}
		/* without --metric, a metric that never varies says nothing */
		if (!m.nval || (!o->nmetrics && m.min == m.max)) {
			free_metric(&m);
			continue;
		}
		ms[nm++] = m;
	}
	if (!rc && o->json) {
		json_object *root = json_object_new_object(), *a = json_object_new_array();

		json_object_object_add(root, "runs", json_object_new_int(t.nrows));
		json_object_object_add(root, "configurations", json_object_new_int(nconfigs));
		json_object_object_add(root, "config", json_object_new_string(t.config));
		json_object *fa = json_object_new_array();

		for (int i = 0; i < nflags; i++)
			json_object_array_add(fa, json_object_new_string(t.cols[flags[i]]));
		json_object_object_add(root, "flags", fa);
		for (int k = 0; k < nm; k++)
			json_object_array_add(a, metric_json(&t, &ms[k], o->top));
		json_object_object_add(root, "metrics", a);
		if (sl_json_print(out, root))
			rc = 1;
	} else if (!rc) {
		fprintf(out, "sweep: %d runs of %d configurations (config %s), %d flags varied",
			t.nrows, nconfigs, t.config, nflags);
		for (int i = 0; i < nflags; i++)
			fprintf(out, "%s%s", i ? " " : ": ", t.cols[flags[i]]);
		fprintf(out, "\n");
		for (int k = 0; k < nm; k++)
			print_metric(out, &t, &ms[k], o->top);
		if (!nm && nc)
			print_constant(out, &t, cols, nc);
	}
	if (o->report_done)
		*o->report_done = !rc;
	if (!rc && o->plot_dir) {
		fflush(out);
		rc = plot(&t, ms, nm, nconfigs, o->plot_dir);
	}
	for (int k = 0; k < nm; k++)
		free_metric(&ms[k]);
	free(ms);
	free(cols);
	free_table(&t);
	return rc;
}
