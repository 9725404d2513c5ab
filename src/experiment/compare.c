/*
 * `schedlab compare` (compare.h). The workloads are parsed once (a trace read once) and every
 * configuration runs them with each seed, as `repro EXP --workload` runs an experiment's
 * settings. A task's figures come from a second set of run's own statistics (row_stats.h) whose
 * groups are the rows: a trace task's row is found by the pid the trace recorded for it
 * (sl_tw_orig_pid), another group's task by its comm. The "recorded" line of a trace task is
 * what trace-stats counts for that pid in the same file: the trace's own figures, not the
 * extraction's, so that a replay that drops or adds CPU shows as a difference.
 */
#include "experiment/compare.h"

#include "core/json_out.h"
#include "core/outfile.h"
#include "core/parse.h"
#include "experiment/row_figs.h"
#include "experiment/row_stats.h"
#include "experiment/run.h"
#include "trace/trace_stats.h"
#include "workload/trace.h"

#include <json-c/json.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * Rows of the comms of a workload other than a trace, made as they show up: a make shows a
 * handful of comms, so this many only guards against a workload of thousands of names (the
 * tasks beyond are counted in the total row and said to be).
 */
#define COMM_ROWS_MAX 256
/* The tasks a plot shows: the ones with the most CPU time. */
#define PLOT_ROWS_MAX 16

/* What the trace itself shows of a task (trace-stats' figures of its pid). */
struct rec {
	bool have;
	int tasks;
	double cpu_ms, share, switches, wakeups, max_ms;
};

struct crow {
	int group; /* the workload group (its index in the configuration) */
	int pid;   /* a trace task's recorded pid; -1: a comm of another workload group */
	char comm[16];
	struct rec rec;
	struct sl_row_figs *f; /* by configuration */
};

struct cmp {
	const struct sl_compare_opts *o;
	struct sl_workload_inst *wl;
	int nwl;
	char gname[SL_MAX_LIST][32];
	bool trace[SL_MAX_LIST];
	struct crow *rows;
	int nrows, cap;
	struct sl_row_figs *total; /* by configuration */
	struct rec total_rec;
	u64 seeds[SL_SPREAD_MAX];
	const char *kernel[SL_COMPARE_MAX_CONF];
	int ncpu[SL_COMPARE_MAX_CONF];
	char (*words)[1024];
	u64 unrowed; /* tasks of a comm beyond COMM_ROWS_MAX rows (in the total only) */
	bool oom;
};

static int oom(char *err, size_t errlen)
{
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* ---- rows ---- */

static int task_row(void *ctx, const struct sl_task *p)
{
	struct cmp *c = ctx;
	const char *comm = sl_mtask(p)->comm ? sl_mtask(p)->comm : "";
	int g = sl_mtask(p)->group ? sl_mtask(p)->group->id : -1, by_pid = -1;

	if (g < 0 || g >= c->nwl)
		return -1;
	if (c->trace[g]) {
		int pid = sl_tw_orig_pid(sl_mtask(p)->group, sl_mtask(p)->prog);

		for (int k = 0; k < c->nrows; k++)
			if (c->rows[k].group == g && c->rows[k].pid == pid) {
				if (!strcmp(c->rows[k].comm, comm))
					return k;
				by_pid = by_pid < 0 ? k : by_pid;
			}
		return by_pid;
	}
	for (int k = 0; k < c->nrows; k++)
		if (c->rows[k].group == g && c->rows[k].pid < 0 && !strcmp(c->rows[k].comm, comm))
			return k;
	if (c->nrows == c->cap) {
		c->unrowed++;
		return -1;
	}
	struct crow *r = &c->rows[c->nrows];

	r->f = calloc((size_t)c->o->nconf, sizeof(*r->f));
	if (!r->f) {
		c->oom = true;
		return -1;
	}
	r->group = g;
	r->pid = -1;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	return c->nrows++;
}

static int any_row(void *ctx, const struct sl_task *p)
{
	(void)ctx;
	return sl_mtask(p)->group ? 0 : -1;
}

static int by_pid(const void *a, const void *b)
{
	const struct crow *x = a, *y = b;

	return x->pid != y->pid ? (x->pid > y->pid) - (x->pid < y->pid) : strcmp(x->comm, y->comm);
}

/*
 * The rows of trace group g: its selected tasks by recorded pid (one at least: the workload's
 * check refuses a tasks= filter that keeps none).
 */
static int trace_rows(struct cmp *c, int g, char *err, size_t errlen)
{
	const struct sl_tw_args *ta = c->wl[g].args;
	bool *sel = calloc((size_t)ta->tw.n + 1, sizeof(bool));
	int first = c->nrows, n = sel ? sl_tw_select(ta, sel) : -1;

	if (n < 0) {
		free(sel);
		return oom(err, errlen);
	}
	for (int i = 0; i < ta->tw.n; i++) {
		if (!sel[i])
			continue;
		struct crow *r = &c->rows[c->nrows];

		r->f = calloc((size_t)c->o->nconf, sizeof(*r->f));
		if (!r->f) {
			free(sel);
			return oom(err, errlen);
		}
		r->group = g;
		r->pid = ta->tw.t[i].pid;
		snprintf(r->comm, sizeof(r->comm), "%s", ta->tw.t[i].comm);
		c->nrows++;
	}
	free(sel);
	qsort(c->rows + first, (size_t)(c->nrows - first), sizeof(*c->rows), by_pid);
	return 0;
}

/* trace-stats' figures of each row of trace group g, and of the total */
static void recorded(struct cmp *c, int g)
{
	const struct sl_tw_args *ta = c->wl[g].args;
	struct sl_trace_summary s;
	char e[2048];

	if (sl_trace_summarize(&s, ta->tw.path, false, e, sizeof(e))) {
		fprintf(stderr, "schedlab: compare: the recorded figures are left out: %s\n", e);
		sl_trace_summary_free(&s);
		return;
	}
	double span = s.last > s.first ? (double)(s.last - s.first) : 0;

	for (int k = 0; k < c->nrows; k++) {
		struct crow *r = &c->rows[k];
		int id = r->group == g ? sl_trace_summary_id(&s, r->pid) : 0;

		if (id <= 0 || id >= s.st.npid || id >= s.nused)
			continue;
		const struct sl_pid_stat *ps = &s.st.pid[id];
		const struct sl_trace_task *t = &s.task[id];

		r->rec.have = true;
		r->rec.tasks = 1;
		r->rec.cpu_ms = (double)ps->cpu_ns / 1e6;
		r->rec.share = span > 0 ? 100.0 * (double)ps->cpu_ns / span : 0;
		r->rec.switches = (double)ps->switches;
		r->rec.wakeups = (double)t->lat_n;
		r->rec.max_ms = (double)t->lat_max / 1e6;
		c->total_rec.have = true;
		c->total_rec.tasks++;
		c->total_rec.cpu_ms += r->rec.cpu_ms;
		c->total_rec.share += r->rec.share;
		c->total_rec.switches += r->rec.switches;
		c->total_rec.wakeups += r->rec.wakeups;
		if (r->rec.max_ms > c->total_rec.max_ms)
			c->total_rec.max_ms = r->rec.max_ms;
	}
	sl_trace_summary_free(&s);
}

/* ---- runs ---- */

/* zeros for the seeds before n in which the row had no task */
static void pad(struct sl_row_figs *f, int n)
{
	struct sl_spread *s[] = {&f->tasks,   &f->cpu_ms, &f->share,  &f->switches,
				 &f->wakeups, &f->p50_ms, &f->p95_ms, &f->max_ms};

	for (size_t i = 0; i < SL_ARRAY_SIZE(s); i++)
		while (s[i]->n < n)
			sl_spread_add(s[i], 0);
}

/* one run's figures of statistics row k (seed number seed) into f */
static void collect(struct sl_row_figs *f, const struct sl_row_stats *rs, int k, u64 span, int seed,
		    bool expected)
{
	const struct sl_group_stat *gs = &rs->st.g[k];

	pad(f, seed);
	sl_spread_add(&f->tasks, rs->tasks[k]);
	sl_spread_add(&f->share, span ? 100.0 * (double)gs->cpu_ns / (double)span : 0);
	sl_row_figs_add(f, &rs->st, k);
	if (rs->tasks[k] && rs->exits[k] == rs->tasks[k])
		sl_spread_add(&f->comp_ms, (double)(rs->last[k] - rs->first[k]) / 1e6);
	else if (rs->tasks[k] || expected)
		f->unfinished = true;
}

struct run_ctx {
	struct sl_row_stats rows, total;
};

static int attach(void *ctx, struct sl_sim *sim)
{
	struct run_ctx *x = ctx;

	return sl_row_stats_attach(&x->rows, sim) || sl_row_stats_attach(&x->total, sim);
}

/* configuration ci with seed number si; 0, or an exit status with err */
static int run_one(struct cmp *c, int ci, int si, char *err, size_t errlen)
{
	const struct sl_compare_opts *o = c->o;
	struct sl_args a = o->conf[ci].a;
	struct sl_config cfg;
	struct sl_run r;
	struct run_ctx x;
	char sbuf[24];
	int rc;

	snprintf(sbuf, sizeof(sbuf), "%llu", (unsigned long long)c->seeds[si]);
	a.seed = sbuf;
	if (sl_config_build_shared(&cfg, &a, c->wl, c->nwl, err, errlen))
		return SL_COMPARE_EINPUT;
	sl_config_rtapp_duration(&cfg);
	c->kernel[ci] = cfg.rel->name;
	c->ncpu[ci] = cfg.ncpu;
	memset(&r, 0, sizeof(r));
	memset(&x, 0, sizeof(x));
	if (sl_row_stats_init(&x.rows, c->cap, cfg.ncpu, task_row, c) ||
	    sl_row_stats_init(&x.total, 1, cfg.ncpu, any_row, NULL)) {
		snprintf(err, errlen, "out of memory");
		rc = SL_COMPARE_EINPUT;
		goto out;
	}
	rc = sl_run_with(&cfg, &r, attach, &x, err, errlen);
	if (rc == SL_RUN_EIO)
		rc = 1;
	else if (rc && rc != SL_RUN_EINTR)
		rc = SL_COMPARE_EINPUT;
	if (!rc && (x.rows.oom || x.total.oom || c->oom)) {
		snprintf(err, errlen, "out of memory in the statistics");
		rc = SL_COMPARE_EINPUT;
	}
	if (!rc) {
		u64 span = r.sim->now;

		sl_stats_finish(&x.rows.st, span);
		sl_stats_finish(&x.total.st, span);
		for (int k = 0; k < c->nrows; k++)
			collect(&c->rows[k].f[ci], &x.rows, k, span, si, c->rows[k].pid >= 0);
		collect(&c->total[ci], &x.total, 0, span, si, false);
	}
	if (r.sim)
		sl_run_free(&r);
out:
	sl_row_stats_free(&x.rows);
	sl_row_stats_free(&x.total);
	sl_config_free(&cfg);
	return rc;
}

/* ---- the table ---- */

enum {
	C_GROUP,
	C_PID,
	C_COMM,
	C_CONF,
	C_TASKS,
	C_CPU,
	C_SHARE,
	C_SW,
	C_WAKE,
	C_P50,
	C_P95,
	C_MAX,
	C_COMP,
	NCOL
};

static const char *const heads[NCOL] = {
	"group",      "pid",	    "comm",	     "config",	"tasks",
	"cpu ms",     "% of 1 CPU", "switches",	     "wakeups", "lat p50 ms",
	"lat p95 ms", "lat max ms", "completion ms",
};

struct line {
	char c[NCOL][72];
};

static void cell(char *buf, const struct sl_spread *s, const char *fmt, int nseeds)
{
	char f3[32];

	if (!s->n) {
		snprintf(buf, 72, "-");
		return;
	}
	if (nseeds == 1) {
		snprintf(buf, 72, fmt, sl_spread_mean(s));
		return;
	}
	snprintf(f3, sizeof(f3), "%s [%s,%s]", fmt, fmt, fmt);
	snprintf(buf, 72, f3, sl_spread_mean(s), sl_spread_min(s), sl_spread_max(s));
}

static void figs_line(struct line *l, const struct sl_row_figs *f, int nseeds)
{
	cell(l->c[C_TASKS], &f->tasks, "%.0f", 1);
	cell(l->c[C_CPU], &f->cpu_ms, "%.2f", nseeds);
	cell(l->c[C_SHARE], &f->share, "%.1f", nseeds);
	cell(l->c[C_SW], &f->switches, "%.0f", nseeds);
	cell(l->c[C_WAKE], &f->wakeups, "%.0f", nseeds);
	cell(l->c[C_P50], &f->p50_ms, "%.3f", nseeds);
	cell(l->c[C_P95], &f->p95_ms, "%.3f", nseeds);
	cell(l->c[C_MAX], &f->max_ms, "%.3f", nseeds);
	if (f->unfinished || !f->comp_ms.n)
		snprintf(l->c[C_COMP], 72, "-");
	else
		cell(l->c[C_COMP], &f->comp_ms, "%.2f", nseeds);
}

static void rec_line(struct line *l, const struct rec *r)
{
	snprintf(l->c[C_CONF], 72, "recorded");
	snprintf(l->c[C_TASKS], 72, "%d", r->tasks);
	snprintf(l->c[C_CPU], 72, "%.2f", r->cpu_ms);
	snprintf(l->c[C_SHARE], 72, "%.1f", r->share);
	snprintf(l->c[C_SW], 72, "%.0f", r->switches);
	snprintf(l->c[C_WAKE], 72, "%.0f", r->wakeups);
	snprintf(l->c[C_P50], 72, "-");
	snprintf(l->c[C_P95], 72, "-");
	snprintf(l->c[C_MAX], 72, "%.3f", r->max_ms);
	snprintf(l->c[C_COMP], 72, "-");
}

/* the lines of row k (k == nrows: the total), each configuration's after the recording's */
static int row_lines(const struct cmp *c, int k, struct line *l)
{
	const struct crow *r = k < c->nrows ? &c->rows[k] : NULL;
	const struct rec *rec = r ? &r->rec : &c->total_rec;
	int n = 0;

	memset(l, 0, sizeof(*l) * (size_t)(c->o->nconf + 1));
	if (rec->have)
		rec_line(&l[n++], rec);
	for (int ci = 0; ci < c->o->nconf; ci++, n++) {
		snprintf(l[n].c[C_CONF], 72, "%s", c->o->conf[ci].label);
		figs_line(&l[n], r ? &r->f[ci] : &c->total[ci], c->o->nseeds);
	}
	if (r) {
		snprintf(l[0].c[C_GROUP], 72, "%s", c->gname[r->group]);
		if (r->pid >= 0)
			snprintf(l[0].c[C_PID], 72, "%d", r->pid);
		snprintf(l[0].c[C_COMM], 72, "%s", r->comm);
	} else {
		snprintf(l[0].c[C_GROUP], 72, "total");
		snprintf(l[0].c[C_COMM], 72, "(every task)");
	}
	return n;
}

/* the rows in the order shown: by workload group, a trace's by pid */
static void order(const struct cmp *c, int *ord)
{
	int n = 0;

	for (int g = 0; g < c->nwl; g++)
		for (int k = 0; k < c->nrows; k++)
			if (c->rows[k].group == g)
				ord[n++] = k;
}

static void print_table(FILE *out, const struct cmp *c, const int *ord)
{
	const struct sl_compare_opts *o = c->o;
	int nl = (c->nrows + 1) * (o->nconf + 1), w[NCOL] = {0}, n = 0;
	struct line *l = calloc((size_t)nl + 1, sizeof(*l));
	int *start = calloc((size_t)c->nrows + 2, sizeof(int));

	if (!l || !start) {
		free(l);
		free(start);
		return;
	}
	for (int i = 0; i <= c->nrows; i++) {
		start[i] = n;
		n += row_lines(c, i < c->nrows ? ord[i] : c->nrows, l + n);
	}
	start[c->nrows + 1] = n;
	for (int k = 0; k < NCOL; k++) {
		w[k] = (int)strlen(heads[k]);
		for (int i = 0; i < n; i++)
			if ((int)strlen(l[i].c[k]) > w[k])
				w[k] = (int)strlen(l[i].c[k]);
	}
	fprintf(out, "compare: %d configuration%s of", o->nconf, o->nconf > 1 ? "s" : "");
	for (int i = 0; i < o->nworkloads; i++)
		fprintf(out, "%s %s", i ? "," : "", o->workloads[i]);
	fprintf(out, "\nseed%s", o->nseeds > 1 ? "s" : "");
	for (int i = 0; i < o->nseeds; i++)
		fprintf(out, "%s%llu", i ? "," : " ", (unsigned long long)c->seeds[i]);
	fprintf(out, "%s\n", o->nseeds > 1 ? "; each figure mean [min,max] over the seeds" : "");
	fprintf(out, "%% of 1 CPU: CPU time over the run's simulated time, as a share of one CPU "
		     "(100 = one CPU busy throughout; the machine's N CPUs are N x 100)\n");
	if (c->total_rec.have)
		fprintf(out,
			"recorded: what the trace shows of that pid (as trace-stats counts it; "
			"its %% over the trace's length)\n");
	fprintf(out, "completion: first event to last exit of the row's tasks, - when in some "
		     "seed they did not all exit\n");
	if (c->unrowed)
		fprintf(out,
			"%llu tasks of comms beyond the first %d rows are counted in the total "
			"only\n",
			(unsigned long long)c->unrowed, COMM_ROWS_MAX);
	fprintf(out, "\n");
	int lw = 6;

	for (int ci = 0; ci < o->nconf; ci++)
		if ((int)strlen(o->conf[ci].label) > lw)
			lw = (int)strlen(o->conf[ci].label);
	for (int ci = 0; ci < o->nconf; ci++) {
		char cpus[24];

		snprintf(cpus, sizeof(cpus), "%d CPU%s", c->ncpu[ci], c->ncpu[ci] > 1 ? "s" : "");
		fprintf(out, "%-*s  %-8s  %s\n", lw, o->conf[ci].label, cpus, c->words[ci]);
	}
	for (int i = -1; i < n; i++) {
		const char *const *row = NULL;
		const char *hrow[NCOL];

		if (i < 0) {
			for (int k = 0; k < NCOL; k++)
				hrow[k] = heads[k];
			row = hrow;
			fputc('\n', out);
		} else {
			for (int k = 0; k < NCOL; k++)
				hrow[k] = l[i].c[k];
			row = hrow;
		}
		for (int r = 1; r <= c->nrows && i >= 0; r++)
			if (start[r] == i)
				fputc('\n', out); /* between rows */
		for (int k = 0; k < NCOL; k++) {
			bool left = k == C_GROUP || k == C_COMM || k == C_CONF;

			if (k == NCOL - 1)
				fprintf(out, "%*s\n", w[k], row[k]);
			else
				fprintf(out, left ? "%-*s  " : "%*s  ", w[k], row[k]);
		}
	}
	free(l);
	free(start);
}

/* ---- JSON ---- */

static const enum sl_row_fig fig_keys[] = {
	SL_FIG_TASKS,	SL_FIG_CPU_MS, SL_FIG_SHARE, SL_FIG_SWITCHES,
	SL_FIG_WAKEUPS, SL_FIG_P50,    SL_FIG_P95,   SL_FIG_MAX,
};

static json_object *figs_json(const struct sl_row_figs *f, const char *label)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "config", json_object_new_string(label));
	sl_row_figs_json(o, f, fig_keys, (int)SL_ARRAY_SIZE(fig_keys));
	return o;
}

static json_object *rec_json(const struct rec *r)
{
	json_object *o;

	if (!r->have)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "tasks", json_object_new_int(r->tasks));
	json_object_object_add(o, "cpu_ms", sl_json_fixed6(r->cpu_ms));
	json_object_object_add(o, "cpu_share_pct", sl_json_fixed6(r->share));
	/* counts of the trace, integers as trace-stats prints them */
	json_object_object_add(o, "context_switches", json_object_new_int64((int64_t)r->switches));
	json_object_object_add(o, "wakeups", json_object_new_int64((int64_t)r->wakeups));
	json_object_object_add(o, "wakeup_latency_max_ms", sl_json_fixed6(r->max_ms));
	return o;
}

static int print_json(FILE *out, const struct cmp *c, const int *ord)
{
	const struct sl_compare_opts *o = c->o;
	json_object *root = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(root, "command", json_object_new_string("compare"));
	for (int i = 0; i < o->nworkloads; i++)
		json_object_array_add(a, json_object_new_string(o->workloads[i]));
	json_object_object_add(root, "workloads", a);
	a = json_object_new_array();
	for (int i = 0; i < o->nseeds; i++)
		json_object_array_add(a, json_object_new_uint64(c->seeds[i]));
	json_object_object_add(root, "seeds", a);
	a = json_object_new_array();
	for (int ci = 0; ci < o->nconf; ci++) {
		json_object *co = json_object_new_object();

		json_object_object_add(co, "config", json_object_new_string(o->conf[ci].label));
		json_object_object_add(co, "kernel", json_object_new_string(c->kernel[ci]));
		json_object_object_add(co, "cpus", json_object_new_int(c->ncpu[ci]));
		json_object_object_add(co, "args", json_object_new_string(c->words[ci]));
		json_object_array_add(a, co);
	}
	json_object_object_add(root, "configurations", a);
	a = json_object_new_array();
	for (int i = 0; i <= c->nrows; i++) {
		const struct crow *r = i < c->nrows ? &c->rows[ord[i]] : NULL;
		json_object *ro = json_object_new_object(), *fa = json_object_new_array();

		json_object_object_add(ro, "group",
				       json_object_new_string(r ? c->gname[r->group] : "total"));
		json_object_object_add(ro, "pid",
				       r && r->pid >= 0 ? json_object_new_int(r->pid) : NULL);
		json_object_object_add(ro, "comm", r ? json_object_new_string(r->comm) : NULL);
		json_object_object_add(ro, "recorded", rec_json(r ? &r->rec : &c->total_rec));
		for (int ci = 0; ci < o->nconf; ci++)
			json_object_array_add(
				fa, figs_json(r ? &r->f[ci] : &c->total[ci], o->conf[ci].label));
		json_object_object_add(ro, "configurations", fa);
		if (r)
			json_object_array_add(a, ro);
		else
			json_object_object_add(root, "total", ro);
	}
	json_object_object_add(root, "rows", a);
	json_object_object_add(root, "tasks_in_total_only", json_object_new_uint64(c->unrowed));
	return sl_json_print(out, root);
}

/* ---- the plot ---- */

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			fputc(*s, f);
}

static const char *const colour[] = {"#4878a8", "#d62728", "#2ca02c", "#ff7f0e",
				     "#9467bd", "#8c564b", "#e377c2", "#17becf"};

/* the largest of a row's means (recorded included): the plots' order */
static double row_peak(const struct cmp *c, int k, bool cpu)
{
	const struct crow *r = &c->rows[k];
	double m = cpu && r->rec.have ? r->rec.cpu_ms : 0;

	for (int ci = 0; ci < c->o->nconf; ci++) {
		double v = sl_spread_max(cpu ? &r->f[ci].cpu_ms : &r->f[ci].p95_ms);

		m = v > m ? v : m;
	}
	return m;
}

/* a round step (1, 2 or 5 times a power of ten) giving at most 6 grid lines up to max */
static double grid_step(double max)
{
	static const double m[] = {1, 2, 5};
	double p = 1e-6;

	for (;;) {
		for (int i = 0; i < 3; i++)
			if (max / (m[i] * p) <= 6)
				return m[i] * p;
		p *= 10;
	}
}

/* one panel: a band per row, a bar per configuration (mean) with its [min,max] */
static void panel(FILE *f, const struct cmp *c, const int *sel, int ns, bool cpu, int y0)
{
	const int x0 = 230, pw = 620, bh = 9;
	int nb = c->o->nconf + (c->total_rec.have && cpu ? 1 : 0), band = nb * bh + 10;
	double max = 0;

	for (int i = 0; i < ns; i++)
		if (row_peak(c, sel[i], cpu) > max)
			max = row_peak(c, sel[i], cpu);
	if (max <= 0)
		max = 1;
	double step = grid_step(max);
	int nstep = (int)ceil(max / step);
	double top = nstep * step;

	fprintf(f, "<text x='%d' y='%d' font-weight='bold'>%s</text>\n", x0, y0 - 22,
		cpu ? "CPU time (ms): mean, [min,max] over the seeds"
		    : "wake-up latency p95 (ms): mean, [min,max] over the seeds");
	for (int k = 0; k <= nstep; k++) {
		double v = k * step;
		int x = x0 + (int)(v / top * pw);

		fprintf(f,
			"<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#ddd'/>\n"
			"<text x='%d' y='%d' text-anchor='middle' font-size='10'>%g</text>\n",
			x, y0 - 6, x, y0 + ns * band, x, y0 - 8, v);
	}
	for (int i = 0; i < ns; i++) {
		const struct crow *r = &c->rows[sel[i]];
		int y = y0 + i * band, b = 0;

		fprintf(f, "<text x='%d' y='%d' text-anchor='end' font-size='11'>", x0 - 6,
			y + band / 2 + 2);
		xml_text(f, c->gname[r->group]);
		if (r->pid >= 0)
			fprintf(f, " %d", r->pid);
		fputc(' ', f);
		xml_text(f, r->comm);
		fputs("</text>\n", f);
		if (cpu && c->total_rec.have) {
			if (r->rec.have)
				fprintf(f,
					"<rect x='%d' y='%d' width='%d' height='%d' "
					"fill='#999'/>\n",
					x0, y + 4, (int)(r->rec.cpu_ms / top * pw), bh - 2);
			b++;
		}
		for (int ci = 0; ci < c->o->nconf; ci++, b++) {
			const struct sl_spread *s = cpu ? &r->f[ci].cpu_ms : &r->f[ci].p95_ms;
			int yb = y + 4 + b * bh;

			fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>\n", x0,
				yb, (int)(sl_spread_mean(s) / top * pw), bh - 2,
				colour[ci % (int)SL_ARRAY_SIZE(colour)]);
			if (c->o->nseeds > 1)
				fprintf(f,
					"<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='black'/>\n",
					x0 + (int)(sl_spread_min(s) / top * pw), yb + (bh - 2) / 2,
					x0 + (int)(sl_spread_max(s) / top * pw), yb + (bh - 2) / 2);
		}
	}
}

static int plot(const struct cmp *c, char *err, size_t errlen)
{
	int sel[PLOT_ROWS_MAX], ns = 0;

	/* the rows with the most CPU time, most first (ties: the table's order) */
	for (int k = 0; k < c->nrows; k++) {
		int at = ns < PLOT_ROWS_MAX ? ns++ : PLOT_ROWS_MAX;

		while (at > 0 && row_peak(c, sel[at - 1], true) < row_peak(c, k, true)) {
			if (at < PLOT_ROWS_MAX)
				sel[at] = sel[at - 1];
			at--;
		}
		if (at < PLOT_ROWS_MAX)
			sel[at] = k;
	}
	/* the heights as panel() draws them: a band per row, a bar per configuration (and, for
	 * the CPU time, the recording's) */
	int nb = c->o->nconf + (c->total_rec.have ? 1 : 0);
	int y1 = 60 + 16 * nb + 40, y2 = y1 + ns * (nb * 9 + 10) + 60;
	int h = y2 + ns * (c->o->nconf * 9 + 10) + 30;
	struct sl_outfile of;

	char e[4400];

	if (sl_outfile_open(&of, c->o->plot, e, sizeof(e))) {
		snprintf(err, errlen, "compare --plot: %s", e);
		return 1;
	}
	FILE *f = of.f;

	fprintf(f,
		"<?xml version='1.0' encoding='UTF-8'?>\n"
		"<svg xmlns='http://www.w3.org/2000/svg' width='900' height='%d' "
		"font-family='sans-serif' font-size='12'>\n"
		"<rect width='100%%' height='100%%' fill='white'/>\n"
		"<text x='10' y='22' font-size='14' font-weight='bold'>schedlab compare: ",
		h);
	for (int i = 0; i < c->o->nworkloads; i++) {
		fputs(i ? ", " : "", f);
		xml_text(f, c->o->workloads[i]);
	}
	fprintf(f,
		"</text>\n<text x='10' y='40' font-size='11'>the %d of %d rows with the most "
		"CPU time; %d seed%s</text>\n",
		ns, c->nrows, c->o->nseeds, c->o->nseeds > 1 ? "s" : "");
	int y = 60;

	if (c->total_rec.have) {
		fprintf(f,
			"<rect x='10' y='%d' width='12' height='10' fill='#999'/>"
			"<text x='28' y='%d'>recorded (CPU time only)</text>\n",
			y, y + 9);
		y += 16;
	}
	for (int ci = 0; ci < c->o->nconf; ci++, y += 16) {
		fprintf(f,
			"<rect x='10' y='%d' width='12' height='10' fill='%s'/><text x='28' "
			"y='%d'>",
			y, colour[ci % (int)SL_ARRAY_SIZE(colour)], y + 9);
		xml_text(f, c->o->conf[ci].label);
		fputs("</text>\n", f);
	}
	panel(f, c, sel, ns, true, y1);
	panel(f, c, sel, ns, false, y2);
	fputs("</svg>\n", f);
	if (sl_outfile_commit(&of, e, sizeof(e))) {
		snprintf(err, errlen, "compare --plot: %s", e);
		return 1;
	}
	return 0;
}

/* ---- the command ---- */

int sl_compare(const struct sl_compare_opts *o, FILE *out, char *err, size_t errlen)
{
	struct cmp *c = calloc(1, sizeof(*c));
	int rc = SL_COMPARE_EINPUT, *ord = NULL;
	struct sl_config cfg;

	if (!c) {
		oom(err, errlen);
		return SL_COMPARE_EINPUT;
	}
	c->o = o;
	c->words = calloc((size_t)o->nconf + 1, sizeof(*c->words));
	c->wl = calloc((size_t)o->nworkloads + 1, sizeof(*c->wl));
	c->total = calloc((size_t)o->nconf + 1, sizeof(*c->total));
	if (!c->words || !c->wl || !c->total) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* each workload parsed (a trace read) once, refused in run's words */
	for (; c->nwl < o->nworkloads; c->nwl++)
		if (sl_workload_parse(o->workloads[c->nwl], &c->wl[c->nwl], err, errlen))
			goto out;
	/* every configuration must build before anything runs; the first gives the seeds and
	 * the groups' names */
	for (int ci = 0; ci < o->nconf; ci++) {
		char msg[2048], cpus[16];
		struct sl_args w;

		if (sl_config_build_shared(&cfg, &o->conf[ci].a, c->wl, c->nwl, msg, sizeof(msg))) {
			snprintf(err, errlen, "compare: configuration %s: %s", o->conf[ci].label,
				 msg);
			goto out;
		}
		/* with the recorded machine's words it took, if any: what the run was */
		sl_args_as_recorded(&o->conf[ci].a, c->wl, c->nwl, &w, cpus);
		sl_args_words(&w, cfg.rel->name, c->words[ci], sizeof(c->words[0]));
		for (int i = 0; !ci && i < o->nseeds; i++)
			c->seeds[i] = cfg.seed + (u64)i;
		for (int g = 0; !ci && g < c->nwl; g++)
			sl_group_name(&cfg, g, c->gname[g], sizeof(c->gname[0]));
		sl_config_free(&cfg);
	}
	c->cap = 0;
	bool other = false;

	for (int g = 0; g < c->nwl; g++) {
		c->trace[g] = c->wl[g].ops == &sl_wl_trace;
		if (c->trace[g])
			c->cap += ((const struct sl_tw_args *)c->wl[g].args)->tw.n;
		else
			other = true;
	}
	c->cap += other ? COMM_ROWS_MAX : 0;
	c->rows = calloc((size_t)c->cap + 1, sizeof(*c->rows));
	if (!c->rows) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int g = 0; g < c->nwl; g++)
		if (c->trace[g] && trace_rows(c, g, err, errlen))
			goto out;
	for (int g = 0; g < c->nwl; g++)
		if (c->trace[g])
			recorded(c, g);
	for (int ci = 0; ci < o->nconf; ci++)
		for (int si = 0; si < o->nseeds; si++) {
			char msg[2048];

			if (o->progress)
				fprintf(stderr,
					"\rschedlab: compare: run %d of %d (%s, seed %llu)   ",
					ci * o->nseeds + si + 1, o->nconf * o->nseeds,
					o->conf[ci].label, (unsigned long long)c->seeds[si]);
			rc = run_one(c, ci, si, msg, sizeof(msg));
			if (o->progress && (rc || (ci == o->nconf - 1 && si == o->nseeds - 1)))
				fprintf(stderr, "\n");
			if (!rc)
				continue;
			snprintf(err, errlen, "compare: configuration %s, seed %llu: %s",
				 o->conf[ci].label, (unsigned long long)c->seeds[si], msg);
			goto out;
		}
	rc = SL_COMPARE_EINPUT;
	for (int k = 0; k < c->nrows; k++)
		for (int ci = 0; ci < o->nconf; ci++)
			pad(&c->rows[k].f[ci], o->nseeds);
	bool none = true;

	for (int ci = 0; ci < o->nconf; ci++)
		none &= sl_spread_max(&c->total[ci].tasks) == 0;
	if (none || !c->nrows) {
		snprintf(err, errlen,
			 "compare: the workloads ran no task in any configuration (a start= at or "
			 "past the duration?): nothing to compare");
		goto out;
	}
	ord = calloc((size_t)c->nrows + 1, sizeof(int));
	if (!ord) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	order(c, ord);
	/* the plot first: a plot that cannot be written leaves no report either */
	if (o->plot && plot(c, err, errlen)) {
		rc = 1;
		goto out;
	}
	if (o->json) {
		if (print_json(out, c, ord)) {
			snprintf(err, errlen, "out of memory writing JSON");
			goto out;
		}
	} else {
		print_table(out, c, ord);
	}
	rc = 0;
out:
	free(ord);
	for (int i = 0; i < c->nwl; i++)
		sl_workload_inst_free(&c->wl[i]);
	for (int k = 0; c->rows && k < c->nrows; k++)
		free(c->rows[k].f);
	free(c->rows);
	free(c->wl);
	free(c->words);
	free(c->total);
	free(c);
	return rc;
}
