/*
 * `schedlab repro EXP --workload SPEC...`: an experiment's settings (its kernels, flags, sysctls,
 * params, CPU counts, machine, governors, durations and seeds) with other workloads in place of
 * its own. The experiment's figures are about its own workloads (the xmodmap's time, fio's
 * MB/s), so these runs report what `run` measures of any workload: per workload group, and per
 * comm of a trace workload's tasks, CPU time, wake-ups, wake-up latency p50/p95/max, switches
 * and completion, each as mean [min, max] over the seeds.
 *
 * A trace workload's comms are measured by a second set of the scheduling statistics
 * (stats/sched_stats.c, the code `run` reports from), fed the same events with each task's
 * group replaced by its comm's row.
 */
#include "core/json_out.h"
#include "core/parse.h"
#include "experiment/repro.h"
#include "experiment/row_figs.h"
#include "experiment/row_stats.h"
#include "experiment/run.h"
#include "experiment/spread.h"

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row of the report: a workload group, or one comm of a trace group's tasks. */
struct row {
	int group;     /* the workload group (its index in the configuration) */
	char comm[16]; /* "": the whole group */
	int expected;  /* a comm's row: the tasks replayed with that comm */
	char name[64]; /* "trace", "trace/python3" */
};

/* The rows of cfg's workloads; the count, or -1 when out of memory. */
static int rows_of(const struct sl_config *cfg, struct row **out)
{
	const char **comms[SL_MAX_LIST] = {NULL};
	int ncomms[SL_MAX_LIST] = {0};
	size_t cap = (size_t)cfg->nwl;
	struct row *rows = NULL;
	int n = -1;

	/* the comms of the tasks each workload replays (a trace's), one row per comm */
	for (int i = 0; i < cfg->nwl; i++) {
		const struct sl_workload_ops *ops = cfg->wl[i].ops;

		if (ops->task_comms &&
		    (ncomms[i] = ops->task_comms(cfg->wl[i].args, &comms[i])) < 0)
			goto out;
		cap += (size_t)ncomms[i];
	}
	rows = calloc(cap + 1, sizeof(*rows));
	if (!rows)
		goto out;
	n = 0;
	for (int i = 0; i < cfg->nwl; i++) {
		char gname[32];

		sl_group_name(cfg, i, gname, sizeof(gname));
		rows[n].group = i;
		snprintf(rows[n].name, sizeof(rows[n].name), "%s", gname);
		int first = ++n;

		for (int t = 0; t < ncomms[i]; t++) {
			const char *comm = comms[i][t];
			int k = first;

			while (k < n && strcmp(rows[k].comm, comm))
				k++;
			if (k == n) {
				rows[n].group = i;
				snprintf(rows[n].comm, sizeof(rows[n].comm), "%s", comm);
				snprintf(rows[n].name, sizeof(rows[n].name), "%s/%s", gname, comm);
				n++;
			}
			rows[k].expected++;
		}
	}
	*out = rows;
out:
	for (int i = 0; i < cfg->nwl; i++)
		free(comms[i]);
	return n;
}

/* The comm row of a task (-1: none): its group's row of its comm. */
struct comm_rows {
	const struct row *rows;
	int nrows;
};

static int comm_row(void *ctx, const struct sl_task *p)
{
	const struct comm_rows *cr = ctx;
	int k = 0;

	while (k < cr->nrows &&
	       (!sl_mtask(p)->group || cr->rows[k].group != sl_mtask(p)->group->id ||
		!cr->rows[k].comm[0] || strcmp(cr->rows[k].comm, sl_mtask(p)->comm)))
		k++;
	return k < cr->nrows ? k : -1;
}

/* one run's figures of row k into f */
static void collect(const struct row *rows, int k, const struct sl_run *r,
		    const struct sl_row_stats *bc, struct sl_row_figs *f)
{
	const struct row *w = &rows[k];
	const struct sl_group *g = &sl_machine_of(r->sim)->groups[w->group];
	bool done;
	u64 comp;

	if (w->comm[0]) {
		sl_spread_add(&f->tasks, bc->tasks[k]);
		sl_row_figs_add(f, &bc->st, k);
		done = bc->exits[k] == w->expected;
		comp = bc->last[k] - bc->first[k];
	} else {
		sl_spread_add(&f->tasks, g->ntasks);
		sl_row_figs_add(f, &r->stats, w->group);
		done = g->finite && g->spawned && !g->live;
		comp = g->end - g->start;
	}
	if (done)
		sl_spread_add(&f->comp_ms, (double)comp / 1e6);
	else
		f->unfinished = true;
}

/* The whole command: its settings, seeds, rows and figures. */
struct wl_repro {
	const char *exp;
	const struct sl_repro_opts *o;
	const struct sl_repro_setting *set;
	int nset, nseeds;
	u64 seeds[SL_SPREAD_MAX];
	struct sl_workload_inst *wl; /* o->workloads, parsed once for every run */
	const char **kernel;	     /* by setting: the release run (the registry's name) */
	struct row *rows; /* from the first run's configuration (every run has the same) */
	int nrows;
	struct sl_row_figs *f; /* [setting * nrows + row] */
};

/* the i-th seed's words: 1, 2, ... (one seed: --seed's, default 1) */
static const char *seed_text(const struct wl_repro *w, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%d", i + 1);
	return w->nseeds == 1 && w->o->seed ? w->o->seed : buf;
}

/* runs setting si with its seed number i, adding its figures */
static int run_setting(struct wl_repro *w, int si, int i, char *err, size_t errlen)
{
	const struct sl_repro_opts *o = w->o;
	struct sl_args a = w->set[si].a;
	struct sl_config cfg;
	struct sl_run r;
	struct sl_row_stats bc;
	struct comm_rows cr;
	char sbuf[24];
	int rc = -1;

	a.seed = seed_text(w, i, sbuf, sizeof(sbuf));
	if (sl_config_build_shared(&cfg, &a, w->wl, o->nworkloads, err, errlen))
		return -1;
	sl_config_rtapp_duration(&cfg); /* in a setting with no duration of its own, as run */
	w->seeds[i] = cfg.seed;
	w->kernel[si] = cfg.rel->name;
	if (!w->rows) {
		w->nrows = rows_of(&cfg, &w->rows);
		w->f = w->nrows > 0 ? calloc((size_t)w->nset * (size_t)w->nrows, sizeof(*w->f))
				    : NULL;
		if (!w->f) {
			snprintf(err, errlen, "out of memory");
			sl_config_free(&cfg);
			return -1;
		}
	}
	cr.rows = w->rows;
	cr.nrows = w->nrows;
	if (sl_row_stats_init(&bc, w->nrows, cfg.ncpu, comm_row, &cr)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	rc = sl_run_with(&cfg, &r, sl_row_stats_attach, &bc, err, errlen);
	if (!rc && bc.oom) {
		snprintf(err, errlen, "out of memory in the statistics");
		rc = -1;
	}
	if (!rc) {
		sl_stats_finish(&bc.st, r.sim->now);
		for (int k = 0; k < w->nrows; k++)
			collect(w->rows, k, &r, &bc, &w->f[si * w->nrows + k]);
	}
	if (r.sim)
		sl_run_free(&r);
out:
	sl_row_stats_free(&bc);
	sl_config_free(&cfg);
	return rc ? -1 : 0;
}

static void spread_cell(char *buf, size_t len, const struct sl_spread *s, const char *fmt)
{
	snprintf(buf, len, fmt, sl_spread_mean(s), sl_spread_min(s), sl_spread_max(s));
}

static void print_table(FILE *out, const struct wl_repro *w)
{
	int lw = 7;
	char words[1024];

	for (int s = 0; s < w->nset; s++)
		if ((int)strlen(w->set[s].label) > lw)
			lw = (int)strlen(w->set[s].label);
	fprintf(out, "repro %s --workload: the experiment's %d settings, its workloads replaced by",
		w->exp, w->nset);
	for (int i = 0; i < w->o->nworkloads; i++)
		fprintf(out, "%s %s", i ? "," : "", w->o->workloads[i]);
	fprintf(out, "\nseed%s", w->nseeds > 1 ? "s" : "");
	for (int i = 0; i < w->nseeds; i++)
		fprintf(out, "%s%llu", i ? "," : " ", (unsigned long long)w->seeds[i]);
	fprintf(out, "; each figure mean [min, max] over the seeds; completion: first event to "
		     "last exit, - when not every seed's tasks finished\n\n");
	for (int s = 0; s < w->nset; s++) {
		sl_args_words(&w->set[s].a, w->kernel[s], words, sizeof(words));
		fprintf(out, "%-*s  %s\n", lw, w->set[s].label, words);
	}
	for (int k = 0; k < w->nrows; k++) {
		fprintf(out, "\n%s\n", w->rows[k].name);
		fprintf(out, "%-*s %6s %28s %8s %25s %25s %25s %22s %28s\n", lw, "setting", "tasks",
			"cpu ms", "wakeups", "lat p50 ms", "lat p95 ms", "lat max ms", "switches",
			"completion ms");
		for (int s = 0; s < w->nset; s++) {
			const struct sl_row_figs *x = &w->f[s * w->nrows + k];
			char cpu[64], p50[64], p95[64], mx[64], sw[64], comp[64] = "-";

			spread_cell(cpu, sizeof(cpu), &x->cpu_ms, "%8.2f [%8.2f,%8.2f]");
			spread_cell(p50, sizeof(p50), &x->p50_ms, "%7.3f [%7.3f,%7.3f]");
			spread_cell(p95, sizeof(p95), &x->p95_ms, "%7.3f [%7.3f,%7.3f]");
			spread_cell(mx, sizeof(mx), &x->max_ms, "%7.3f [%7.3f,%7.3f]");
			spread_cell(sw, sizeof(sw), &x->switches, "%6.0f [%6.0f,%6.0f]");
			if (!x->unfinished)
				spread_cell(comp, sizeof(comp), &x->comp_ms, "%8.2f [%8.2f,%8.2f]");
			fprintf(out, "%-*s %6.0f %28s %8.0f %25s %25s %25s %22s %28s\n", lw,
				w->set[s].label, sl_spread_mean(&x->tasks), cpu,
				sl_spread_mean(&x->wakeups), p50, p95, mx, sw, comp);
		}
	}
}

/* a row's figures in JSON, in the order this command has always given them */
static const enum sl_row_fig fig_keys[] = {
	SL_FIG_TASKS, SL_FIG_CPU_MS, SL_FIG_WAKEUPS,  SL_FIG_P50,
	SL_FIG_P95,   SL_FIG_MAX,    SL_FIG_SWITCHES,
};

static json_object *row_json(const struct row *row, const struct sl_row_figs *x)
{
	json_object *ro = json_object_new_object();

	json_object_object_add(ro, "row", json_object_new_string(row->name));
	json_object_object_add(ro, "comm", row->comm[0] ? json_object_new_string(row->comm) : NULL);
	sl_row_figs_json(ro, x, fig_keys, (int)SL_ARRAY_SIZE(fig_keys));
	return ro;
}

static int print_json(FILE *out, const struct wl_repro *w)
{
	json_object *root = json_object_new_object(), *arr = json_object_new_array();
	char words[1024];

	json_object_object_add(root, "experiment", json_object_new_string(w->exp));
	for (int i = 0; i < w->o->nworkloads; i++)
		json_object_array_add(arr, json_object_new_string(w->o->workloads[i]));
	json_object_object_add(root, "workloads", arr);
	arr = json_object_new_array();
	for (int i = 0; i < w->nseeds; i++)
		json_object_array_add(arr, json_object_new_uint64(w->seeds[i]));
	json_object_object_add(root, "seeds", arr);
	arr = json_object_new_array();
	for (int s = 0; s < w->nset; s++) {
		json_object *so = json_object_new_object(), *ra = json_object_new_array();

		sl_args_words(&w->set[s].a, w->kernel[s], words, sizeof(words));
		json_object_object_add(so, "setting", json_object_new_string(w->set[s].label));
		json_object_object_add(so, "kernel", json_object_new_string(w->kernel[s]));
		json_object_object_add(so, "args", json_object_new_string(words));
		for (int k = 0; k < w->nrows; k++)
			json_object_array_add(ra, row_json(&w->rows[k], &w->f[s * w->nrows + k]));
		json_object_object_add(so, "rows", ra);
		json_object_array_add(arr, so);
	}
	json_object_object_add(root, "settings", arr);
	return sl_json_print(out, root);
}

int sl_repro_workloads(const char *exp, const struct sl_repro_opts *o,
		       const struct sl_repro_setting *set, int nset, int nseeds, FILE *out,
		       char *err, size_t errlen)
{
	struct wl_repro w = {
		.exp = exp,
		.o = o,
		.set = set,
		.nset = nset,
		.nseeds = nseeds < SL_SPREAD_MAX ? nseeds : SL_SPREAD_MAX,
		.kernel = calloc((size_t)nset + 1, sizeof(char *)),
	};
	int rc = -1, nwl = 0;

	w.wl = calloc((size_t)o->nworkloads + 1, sizeof(*w.wl));
	if (!w.kernel || !w.wl) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* each workload is parsed (a trace read) once, in run's words when it is refused */
	for (; nwl < o->nworkloads; nwl++)
		if (sl_workload_parse(o->workloads[nwl], &w.wl[nwl], err, errlen))
			goto out;
	for (int s = 0; s < nset; s++)
		for (int i = 0; i < w.nseeds; i++) {
			char msg[2048], sbuf[24];

			if (!run_setting(&w, s, i, msg, sizeof(msg)))
				continue;
			/* the first run's errors are run's (a bad --workload): in the same words */
			if (s || i)
				snprintf(err, errlen, "repro %s, setting '%s', seed %s: %s", exp,
					 set[s].label, seed_text(&w, i, sbuf, sizeof(sbuf)), msg);
			else
				snprintf(err, errlen, "%s", msg);
			goto out;
		}
	if (!o->json)
		print_table(out, &w);
	else if (print_json(out, &w)) {
		snprintf(err, errlen, "out of memory writing JSON");
		goto out;
	}
	rc = 0;
out:
	for (int i = 0; i < nwl; i++)
		sl_workload_inst_free(&w.wl[i]);
	free(w.wl);
	free(w.kernel);
	free(w.rows);
	free(w.f);
	return rc;
}
