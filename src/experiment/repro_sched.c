/*
 * `schedlab repro sleepers` and `schedlab repro fork`: the scheduler results of September 2009.
 *
 * sleepers: `nice -n 19 make -j20` on a 2009 desktop (2 CPUs, Core 2 idle states), an
 * xmodmap-like client and a 25 fps video, under 2.6.31 with NEW_FAIR_SLEEPERS on and off and
 * under 2.6.32's sleeper variants. fork: a kernel-build-like make (gcc -pipe: cc1 | as) on 2, 4
 * and 8 CPUs with kernel.sched_child_runs_first 1 and 0. Only workloads and knobs differ
 * between settings; every figure is given over several seeds, as mean and range.
 */
#include "core/json_out.h"
#include "experiment/repro.h"
#include "experiment/run.h"
#include "experiment/spread.h"
#include "sched/sysctl.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEEDS SL_SPREAD_MAX

static int group_index(const struct sl_sim *sim, const char *name)
{
	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++)
		if (!strcmp(sl_machine_of(sim)->groups[i].name, name))
			return i;
	return -1;
}

static int nseeds(const struct sl_repro_opts *o)
{
	return o->nseeds ? o->nseeds : 5;
}

/* ---- sleepers ---- */

/*
 * The last two rows: 2.6.31 with group scheduling per user as distributions shipped it
 * (--param group_sched=1): the make, the xmodmap and the video are the user's (uid 1000, the
 * workloads' default), the X server root's (xclient's server_uid 0), so the X server's task
 * group (uid 0, shares 2048) and the user's (1024) share each CPU.
 */
static const struct {
	const char *label, *kernel, *features, *param;
} sleeper_settings[] = {
	{"2.6.31 NEW_FAIR_SLEEPERS", "2.6.31", NULL, NULL},
	{"2.6.31 NO_NEW_FAIR_SLEEPERS", "2.6.31", "NO_NEW_FAIR_SLEEPERS", NULL},
	{"2.6.32 GENTLE_FAIR_SLEEPERS", "2.6.32", NULL, NULL},
	{"2.6.32 NO_GENTLE_FAIR_SLEEPERS", "2.6.32", "NO_GENTLE_FAIR_SLEEPERS", NULL},
	{"2.6.32 NO_FAIR_SLEEPERS", "2.6.32", "NO_FAIR_SLEEPERS", NULL},
	{"2.6.31-bfs (BFS 0.30x)", "2.6.31-bfs", NULL, NULL},
	{"2.6.31+grp NEW_FAIR_SLEEPERS", "2.6.31", NULL, "group_sched=1"},
	{"2.6.31+grp NO_NEW_FAIR_SLEEPERS", "2.6.31", "NO_NEW_FAIR_SLEEPERS", "group_sched=1"},
};

struct sleeper_figs {
	struct sl_spread xtime, xcpu, xsw, lat_p99, lat_max, late, make, maxwait;
};

/* setting k of sleepers: all of its runs but the workloads and the seed */
static void sleepers_setting(const struct sl_repro_opts *o, int k, struct sl_repro_setting *s)
{
	struct sl_args *a = &s->a;

	memset(s, 0, sizeof(*s));
	snprintf(s->label, sizeof(s->label), "%s", sleeper_settings[k].label);
	a->kernel = sleeper_settings[k].kernel;
	a->cpus = "2";
	a->machine = "core2";
	a->duration = o->duration ? o->duration : "8s";
	if (sleeper_settings[k].features)
		a->features[a->nfeatures++] = sleeper_settings[k].features;
	if (sleeper_settings[k].param)
		a->params[a->nparams++] = sleeper_settings[k].param;
}

static int run_sleepers(const struct sl_repro_opts *o, int k, u64 seed, struct sleeper_figs *f,
			char *err, size_t errlen)
{
	struct sl_repro_setting set;
	struct sl_args *a = &set.a;
	struct sl_config cfg;
	struct sl_run r;
	char sbuf[24];

	sleepers_setting(o, k, &set);
	snprintf(sbuf, sizeof(sbuf), "%llu", (unsigned long long)seed);
	a->seed = sbuf;
	a->workloads[a->nworkloads++] = "make:jobs=20,nice=19,count=300";
	a->workloads[a->nworkloads++] = "xclient:start=1s,rounds=9";
	a->workloads[a->nworkloads++] = "video:fps=25,decode=8ms";
	if (sl_run_args(a, &cfg, &r, err, errlen))
		return -1;
	const struct sl_sim *sim = r.sim;
	int gm = group_index(sim, "make"), gx = group_index(sim, "xclient"),
	    gv = group_index(sim, "video");
	const struct sl_group *x = &sl_machine_of(sim)->groups[gx],
			      *m = &sl_machine_of(sim)->groups[gm],
			      *v = &sl_machine_of(sim)->groups[gv];
	const struct sl_stats *s = &r.stats;
	int client = -1;
	u64 maxwait = 0;

	for (int pid = 1; pid <= sl_machine_of(sim)->ntasks; pid++)
		if (sl_mtask(sl_sim_task(sim, pid - 1))->group == x &&
		    !strcmp(sl_mtask(sl_sim_task(sim, pid - 1))->comm, "xmodmap"))
			client = pid;
	for (int pid = 1; pid < s->npid; pid++)
		if (s->pid[pid].wait_max > maxwait)
			maxwait = s->pid[pid].wait_max;
	sl_spread_add(&f->xtime, x->spawned && !x->live ? (double)(x->end - x->start) / 1e6
							: (double)(sim->now - x->start) / 1e6);
	sl_spread_add(&f->xcpu, client > 0 ? (double)s->pid[client].cpu_ns / 1e6 : 0);
	sl_spread_add(&f->xsw, client > 0 ? (double)s->pid[client].switches : 0);
	u64 p99 = sl_hist_percentile(&s->g[gx].lat, 99),
	    p99v = sl_hist_percentile(&s->g[gv].lat, 99);

	sl_spread_add(&f->lat_p99, (double)(p99 > p99v ? p99 : p99v) / 1e6);
	sl_spread_add(&f->lat_max,
		      (double)(s->g[gx].lat.max > s->g[gv].lat.max ? s->g[gx].lat.max
								   : s->g[gv].lat.max) /
			      1e6);
	sl_spread_add(&f->late, (double)v->frames_late);
	sl_spread_add(&f->make, m->spawned && !m->live ? (double)(m->end - m->start) / 1e9 : -1);
	sl_spread_add(&f->maxwait, (double)maxwait / 1e6);
	sl_run_free(&r);
	sl_config_free(&cfg);
	return 0;
}

int sl_repro_sleepers(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen)
{
	const int ns = (int)SL_ARRAY_SIZE(sleeper_settings);
	struct sleeper_figs figs[SL_ARRAY_SIZE(sleeper_settings)];

	memset(figs, 0, sizeof(figs));
	if (o->nworkloads) {
		struct sl_repro_setting set[SL_ARRAY_SIZE(sleeper_settings)];

		for (int k = 0; k < ns; k++)
			sleepers_setting(o, k, &set[k]);
		return sl_repro_workloads("sleepers", o, set, ns, nseeds(o), out, err, errlen);
	}
	for (int k = 0; k < ns; k++)
		for (int i = 0; i < nseeds(o); i++)
			if (run_sleepers(o, k, (u64)i + 1, &figs[k], err, errlen))
				return -1;
	if (o->json) {
		json_object *root = json_object_new_object(), *arr = json_object_new_array();

		json_object_object_add(root, "experiment", json_object_new_string("sleepers"));
		json_object_object_add(
			root, "setup",
			json_object_new_string(
				"2 CPUs (core2 idle states); make:jobs=20,nice=19,count=300; "
				"xclient:start=1s,rounds=9; video:fps=25,decode=8ms"));
		json_object_object_add(
			root, "seed_report",
			json_object_new_string(
				"2.6.31 NEW_FAIR_SLEEPERS: xmodmap 10 s; NO_NEW_FAIR_SLEEPERS: "
				"0.020 s, 9 ms CPU, 18 context switches; sched_stat_wait "
				"2801.9 s for one task"));
		for (int k = 0; k < ns; k++) {
			json_object *s = json_object_new_object();
			struct sleeper_figs *f = &figs[k];

			json_object_object_add(s, "setting",
					       json_object_new_string(sleeper_settings[k].label));
			json_object_object_add(s, "xclient_completion_ms",
					       sl_spread_json(&f->xtime));
			json_object_object_add(s, "xclient_cpu_ms", sl_spread_json(&f->xcpu));
			json_object_object_add(s, "xclient_context_switches",
					       sl_spread_json(&f->xsw));
			json_object_object_add(s, "interactive_wakeup_latency_p99_ms",
					       sl_spread_json(&f->lat_p99));
			json_object_object_add(s, "interactive_wakeup_latency_max_ms",
					       sl_spread_json(&f->lat_max));
			json_object_object_add(s, "late_frames", sl_spread_json(&f->late));
			json_object_object_add(s, "make_completion_s", sl_spread_json(&f->make));
			json_object_object_add(s, "runqueue_wait_max_ms",
					       sl_spread_json(&f->maxwait));
			json_object_array_add(arr, s);
		}
		json_object_object_add(root, "settings", arr);
		sl_json_print(out, root);
		return 0;
	}
	fprintf(out,
		"repro sleepers: 2 CPUs (core2 idle states), nice -n 19 make -j20 (300 jobs), an "
		"xmodmap-like client at 1 s (9 round trips),\n"
		"a 25 fps video (8 ms a frame); %d seeds, mean [min, max]\n"
		"seed (2.6.31): xmodmap 10 s with NEW_FAIR_SLEEPERS, 0.020 s (9 ms CPU, 18 "
		"switches) without; a sched_stat_wait of 2801.9 s\n\n",
		nseeds(o));
	fprintf(out, "%-31s %22s %9s %6s %20s %20s %10s %18s %18s\n", "setting", "xmodmap ms",
		"cpu ms", "csw", "wake p99 ms", "wake max ms", "late fr", "make s", "max wait ms");
	for (int k = 0; k < ns; k++) {
		struct sleeper_figs *f = &figs[k];

		fprintf(out,
			"%-31s %7.2f [%5.2f,%6.2f] %9.2f %6.1f %6.2f [%5.2f,%5.2f] %6.2f "
			"[%5.2f,%5.2f] "
			"%10.1f %6.2f [%4.2f,%4.2f] %6.1f [%4.1f,%5.1f]\n",
			sleeper_settings[k].label, sl_spread_mean(&f->xtime),
			sl_spread_min(&f->xtime), sl_spread_max(&f->xtime),
			sl_spread_mean(&f->xcpu), sl_spread_mean(&f->xsw),
			sl_spread_mean(&f->lat_p99), sl_spread_min(&f->lat_p99),
			sl_spread_max(&f->lat_p99), sl_spread_mean(&f->lat_max),
			sl_spread_min(&f->lat_max), sl_spread_max(&f->lat_max),
			sl_spread_mean(&f->late), sl_spread_mean(&f->make), sl_spread_min(&f->make),
			sl_spread_max(&f->make), sl_spread_mean(&f->maxwait),
			sl_spread_min(&f->maxwait), sl_spread_max(&f->maxwait));
	}
	fprintf(out,
		"\n+grp: --param group_sched=1 (a task group per user): make, xmodmap and video "
		"uid 1000, the X server root's (uid 0)\n");
	return 0;
}

/* ---- fork ---- */

struct fork_figs {
	struct sl_spread build, csw;
};

/* fork on `cpus` CPUs with child_runs_first crf (-1: under BFS), but the workload and seed */
static void fork_setting(const struct sl_repro_opts *o, int cpus, int crf,
			 struct sl_repro_setting *s)
{
	struct sl_args *a = &s->a;

	memset(s, 0, sizeof(*s));
	if (crf >= 0)
		snprintf(s->label, sizeof(s->label), "%d CPUs, child_runs_first=%d", cpus, crf);
	else
		snprintf(s->label, sizeof(s->label), "%d CPUs, 2.6.31-bfs", cpus);
	snprintf(s->buf[0], sizeof(s->buf[0]), "%d", cpus);
	snprintf(s->buf[1], sizeof(s->buf[1]), "kernel.sched_child_runs_first=%d", crf);
	a->kernel = crf < 0 ? "2.6.31-bfs" : o->kernel ? o->kernel : SL_DEFAULT_RELEASE;
	a->cpus = s->buf[0];
	a->duration = o->duration;
	/* crf < 0: BFS, which has no such sysctl (its fork rule is its own) */
	if (crf >= 0)
		a->sysctls[a->nsysctls++] = s->buf[1];
}

static int run_fork(const struct sl_repro_opts *o, int cpus, int crf, u64 seed, struct fork_figs *f,
		    char *err, size_t errlen)
{
	struct sl_repro_setting set;
	struct sl_args *a = &set.a;
	struct sl_config cfg;
	struct sl_run r;
	char sbuf[24], wl[128];

	fork_setting(o, cpus, crf, &set);
	snprintf(sbuf, sizeof(sbuf), "%llu", (unsigned long long)seed);
	/* make -j(2 x CPUs), 400 compiles, each cc1 piping 4 chunks into as */
	snprintf(wl, sizeof(wl), "make:jobs=%d,count=400,pipe=4", 2 * cpus);
	a->seed = sbuf;
	a->workloads[a->nworkloads++] = wl;
	if (sl_run_args(a, &cfg, &r, err, errlen))
		return -1;
	const struct sl_group *g = &sl_machine_of(r.sim)->groups[0];

	sl_spread_add(&f->build, (double)(g->end - g->start) / 1e9);
	sl_spread_add(&f->csw, (double)r.stats.switches);
	sl_run_free(&r);
	sl_config_free(&cfg);
	return 0;
}

/* Has rel (NULL: no such release) the sysctl kernel.sched_child_runs_first? */
static bool has_child_runs_first(const struct sl_release *rel)
{
	for (int k = 0; rel && k < sl_sysctl_count(rel); k++)
		if (!strcmp(sl_sysctl_nth(rel, k)->name, "kernel.sched_child_runs_first"))
			return true;
	return false;
}

int sl_repro_fork(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen)
{
	static const int cpus[] = {2, 4, 8};
	struct fork_figs figs[3][2], bfs[3];
	json_object *root = NULL, *arr = NULL;

	memset(figs, 0, sizeof(figs));
	memset(bfs, 0, sizeof(bfs));
	/* the experiment is child_runs_first itself, which EEVDF removed */
	if (o->kernel && !has_child_runs_first(sl_release_find(o->kernel))) {
		char valid[256];

		sl_release_names_if(valid, sizeof(valid), has_child_runs_first);
		snprintf(err, errlen,
			 "repro fork --kernel %s: %s has no sched_child_runs_first (EEVDF "
			 "removed it, BFS never had it); valid: %s",
			 o->kernel, o->kernel, valid);
		return -1;
	}
	if (o->nworkloads) {
		struct sl_repro_setting set[9];
		int n = 0;

		for (int c = 0; c < 3; c++)
			for (int crf = 1; crf >= 0; crf--)
				fork_setting(o, cpus[c], crf, &set[n++]);
		for (int c = 0; c < 3; c++)
			fork_setting(o, cpus[c], -1, &set[n++]);
		return sl_repro_workloads("fork", o, set, n, nseeds(o), out, err, errlen);
	}
	for (int c = 0; c < 3; c++)
		for (int crf = 0; crf < 2; crf++)
			for (int i = 0; i < nseeds(o); i++)
				if (run_fork(o, cpus[c], crf, (u64)i + 1, &figs[c][crf], err,
					     errlen))
					return -1;
	/* the same build under BFS, for comparison */
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < nseeds(o); i++)
			if (run_fork(o, cpus[c], -1, (u64)i + 1, &bfs[c], err, errlen))
				return -1;
	if (o->json) {
		root = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(root, "experiment", json_object_new_string("fork"));
		json_object_object_add(root, "setup",
				       json_object_new_string("make:jobs=2xCPUs,count=400,pipe=4"));
	} else {
		fprintf(out,
			"repro fork: make -j(2 x CPUs), 400 compiles of gcc -pipe (cc1 | as, 4 "
			"chunks), kernel %s, %d seeds, mean [min, max]\n"
			"seed: parent-runs-first (child_runs_first=0) made kernel builds faster; "
			"it became 2.6.32's default\n\n",
			o->kernel ? o->kernel : SL_DEFAULT_RELEASE, nseeds(o));
		fprintf(out, "%4s %26s %26s %22s %22s %10s\n", "cpus", "build s, child first (1)",
			"build s, parent first (0)", "switches (1)", "switches (0)", "1 / 0");
	}
	for (int c = 0; c < 3; c++) {
		struct fork_figs *a1 = &figs[c][1], *a0 = &figs[c][0];
		double ratio = sl_spread_mean(&a0->build)
				       ? sl_spread_mean(&a1->build) / sl_spread_mean(&a0->build)
				       : 0;

		if (o->json) {
			json_object *jo = json_object_new_object();

			json_object_object_add(jo, "cpus", json_object_new_int(cpus[c]));
			json_object_object_add(jo, "build_s_child_first",
					       sl_spread_json(&a1->build));
			json_object_object_add(jo, "build_s_parent_first",
					       sl_spread_json(&a0->build));
			json_object_object_add(jo, "context_switches_child_first",
					       sl_spread_json(&a1->csw));
			json_object_object_add(jo, "context_switches_parent_first",
					       sl_spread_json(&a0->csw));
			json_object_object_add(jo, "build_ratio_child_over_parent",
					       sl_json_fixed6(ratio));
			json_object_array_add(arr, jo);
			continue;
		}
		fprintf(out,
			"%4d %8.3f [%6.3f,%6.3f] %9.3f [%6.3f,%6.3f] %8.0f [%5.0f,%5.0f] %8.0f "
			"[%5.0f,%5.0f] %10.3f\n",
			cpus[c], sl_spread_mean(&a1->build), sl_spread_min(&a1->build),
			sl_spread_max(&a1->build), sl_spread_mean(&a0->build),
			sl_spread_min(&a0->build), sl_spread_max(&a0->build),
			sl_spread_mean(&a1->csw), sl_spread_min(&a1->csw), sl_spread_max(&a1->csw),
			sl_spread_mean(&a0->csw), sl_spread_min(&a0->csw), sl_spread_max(&a0->csw),
			ratio);
	}
	if (o->json) {
		json_object *barr = json_object_new_array();

		for (int c = 0; c < 3; c++) {
			json_object *jo = json_object_new_object();

			json_object_object_add(jo, "cpus", json_object_new_int(cpus[c]));
			json_object_object_add(jo, "build_s", sl_spread_json(&bfs[c].build));
			json_object_object_add(jo, "context_switches", sl_spread_json(&bfs[c].csw));
			json_object_array_add(barr, jo);
		}
		json_object_object_add(root, "bfs_runs", barr);
	} else {
		fprintf(out, "\nthe same build under 2.6.31-bfs (BFS 0.30x: its own fork rule, no "
			     "child_runs_first sysctl)\n");
		fprintf(out, "%4s %26s %22s\n", "cpus", "build s", "switches");
		for (int c = 0; c < 3; c++)
			fprintf(out, "%4d %8.3f [%6.3f,%6.3f] %8.0f [%5.0f,%5.0f]\n", cpus[c],
				sl_spread_mean(&bfs[c].build), sl_spread_min(&bfs[c].build),
				sl_spread_max(&bfs[c].build), sl_spread_mean(&bfs[c].csw),
				sl_spread_min(&bfs[c].csw), sl_spread_max(&bfs[c].csw));
	}
	if (o->json) {
		json_object_object_add(root, "runs", arr);
		sl_json_print(out, root);
	}
	return 0;
}

int sl_repro_sleepers_one(bool nfs, u64 seed, struct sl_sleepers_one *res, char *err, size_t errlen)
{
	struct sl_repro_opts o;
	struct sleeper_figs f;

	memset(&o, 0, sizeof(o));
	memset(&f, 0, sizeof(f));
	if (run_sleepers(&o, nfs ? 0 : 1, seed, &f, err, errlen))
		return -1;
	res->xmodmap_ms = sl_spread_mean(&f.xtime);
	res->wake_p99_ms = sl_spread_mean(&f.lat_p99);
	res->wait_max_ms = sl_spread_mean(&f.maxwait);
	res->make_s = sl_spread_mean(&f.make);
	return 0;
}

int sl_repro_fork_one(int cpus, int child_first, u64 seed, double *build_s, double *switches,
		      char *err, size_t errlen)
{
	struct sl_repro_opts o;
	struct fork_figs f;

	memset(&o, 0, sizeof(o));
	memset(&f, 0, sizeof(f));
	if (run_fork(&o, cpus, child_first, seed, &f, err, errlen))
		return -1;
	*build_s = sl_spread_mean(&f.build);
	*switches = sl_spread_mean(&f.csw);
	return 0;
}
