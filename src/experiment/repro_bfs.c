/*
 * `schedlab repro bfs`: the desktop/throughput comparison argued about when BFS was posted
 * (2009-08-31): CFS of 2.6.31 (NEW_FAIR_SLEEPERS on and off), CFS of 2.6.32, BFS 0.30x and,
 * for today, EEVDF of 6.18, on the same workloads and machine:
 * - desktop: `make -j8` at nice 0 on 2 CPUs (core2 idle states) with an xmodmap-like client
 *   and a 25 fps video: the interactive tasks' wake-up latency, late frames, the build's time;
 * - build: a kernel-build-like make (gcc -pipe) of 400 compiles, -j(2 x CPUs), on 2 and 4 CPUs;
 * - nice: two hogs on one CPU, nice 0 against nice 5 and against nice 19: the niced share.
 * Every figure is a mean over seeds 1..n with its range; each release keeps its own CONFIG_HZ
 * and boot tunables (6.18: HZ=250), nothing is tuned per setting.
 */
#include "core/json_out.h"
#include "experiment/repro.h"
#include "experiment/run.h"
#include "experiment/spread.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEEDS SL_SPREAD_MAX

static const struct {
	const char *label, *kernel, *features;
} settings[] = {
	{"CFS 2.6.31 NEW_FAIR_SLEEPERS", "2.6.31", NULL},
	{"CFS 2.6.31 NO_NEW_FAIR_SLEEPERS", "2.6.31", "NO_NEW_FAIR_SLEEPERS"},
	{"CFS 2.6.32", "2.6.32", NULL},
	{"BFS 0.30x (2.6.31-bfs)", "2.6.31-bfs", NULL},
	{"EEVDF 6.18", "6.18", NULL},
};
#define NSET ((int)SL_ARRAY_SIZE(settings))

struct figs {
	struct sl_spread wake_p99, wake_max, late, make_s, build2, build4, nice5, nice19;
};

static int group_index(const struct sl_sim *sim, const char *name)
{
	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++)
		if (!strcmp(sl_machine_of(sim)->groups[i].name, name))
			return i;
	return -1;
}

/*
 * The runs of each setting: the desktop, the build on 2 and on 4 CPUs, the nice shares. With
 * --workload these are the settings' four machines, --duration replacing each one's duration.
 */
static const struct {
	const char *name, *cpus, *machine, *duration;
} scenes[] = {
	{"desktop", "2", "core2", "8s"},
	{"build", "2", NULL, NULL},
	{"build", "4", NULL, NULL},
	{"nice", "1", NULL, "3s"},
};
#define NSCENE ((int)SL_ARRAY_SIZE(scenes))

/* setting k in scene sc, but the workloads and the seed */
static void bfs_setting(const struct sl_repro_opts *o, int k, int sc, struct sl_repro_setting *s)
{
	struct sl_args *a = &s->a;

	memset(s, 0, sizeof(*s));
	snprintf(s->label, sizeof(s->label), "%s: %s, %s CPU%s", settings[k].label, scenes[sc].name,
		 scenes[sc].cpus, strcmp(scenes[sc].cpus, "1") ? "s" : "");
	a->kernel = settings[k].kernel;
	a->cpus = scenes[sc].cpus;
	a->machine = scenes[sc].machine;
	/* the experiment's own runs take --duration for the desktop only */
	a->duration = o->duration && (o->nworkloads || sc == 0) ? o->duration : scenes[sc].duration;
	if (settings[k].features)
		a->features[a->nfeatures++] = settings[k].features;
}

static int run_one(const struct sl_repro_opts *o, int k, int sc, u64 seed, const char *w0,
		   const char *w1, const char *w2, struct sl_config *cfg, struct sl_run *r,
		   char *err, size_t errlen)
{
	struct sl_repro_setting set;
	struct sl_args *a = &set.a;
	char sbuf[24];

	bfs_setting(o, k, sc, &set);
	snprintf(sbuf, sizeof(sbuf), "%llu", (unsigned long long)seed);
	a->seed = sbuf;
	a->workloads[a->nworkloads++] = w0;
	if (w1)
		a->workloads[a->nworkloads++] = w1;
	if (w2)
		a->workloads[a->nworkloads++] = w2;
	return sl_run_args(a, cfg, r, err, errlen);
}

static void done(struct sl_config *cfg, struct sl_run *r)
{
	sl_run_free(r);
	sl_config_free(cfg);
}

static int measure(const struct sl_repro_opts *o, int k, u64 seed, struct figs *f, char *err,
		   size_t errlen)
{
	struct sl_config cfg;
	struct sl_run r;

	/* desktop: make -j8 at nice 0 against the client and the video */
	if (run_one(o, k, 0, seed, "make:jobs=8,count=300", "xclient:start=1s,rounds=9",
		    "video:fps=25,decode=8ms", &cfg, &r, err, errlen))
		return -1;
	const struct sl_sim *sim = r.sim;
	int gm = group_index(sim, "make"), gx = group_index(sim, "xclient"),
	    gv = group_index(sim, "video");
	const struct sl_stats *s = &r.stats;
	const struct sl_group *m = &sl_machine_of(sim)->groups[gm];
	u64 p99 = sl_hist_percentile(&s->g[gx].lat, 99),
	    p99v = sl_hist_percentile(&s->g[gv].lat, 99);

	sl_spread_add(&f->wake_p99, (double)(p99 > p99v ? p99 : p99v) / 1e6);
	sl_spread_add(&f->wake_max,
		      (double)(s->g[gx].lat.max > s->g[gv].lat.max ? s->g[gx].lat.max
								   : s->g[gv].lat.max) /
			      1e6);
	sl_spread_add(&f->late, (double)sl_machine_of(sim)->groups[gv].frames_late);
	sl_spread_add(&f->make_s, m->spawned && !m->live ? (double)(m->end - m->start) / 1e9 : -1);
	done(&cfg, &r);
	/* build: make -j(2 x CPUs), 400 gcc -pipe compiles, to the end */
	for (int c = 2; c <= 4; c += 2) {
		char wl[64];

		snprintf(wl, sizeof(wl), "make:jobs=%d,count=400,pipe=4", 2 * c);
		if (run_one(o, k, c / 2, seed, wl, NULL, NULL, &cfg, &r, err, errlen))
			return -1;
		sl_spread_add(c == 2 ? &f->build2 : &f->build4,
			      (double)(sl_machine_of(r.sim)->groups[0].end -
				       sl_machine_of(r.sim)->groups[0].start) /
				      1e9);
		done(&cfg, &r);
	}
	/* nice: the niced hog's share of one CPU over 3 s */
	for (int n = 0; n < 2; n++) {
		if (run_one(o, k, 3, seed, "hog", n ? "hog:nice=19" : "hog:nice=5", NULL, &cfg, &r,
			    err, errlen))
			return -1;
		sl_spread_add(n ? &f->nice19 : &f->nice5,
			      100.0 * (double)r.stats.pid[2].cpu_ns / (double)r.sim->now);
		done(&cfg, &r);
	}
	return 0;
}

int sl_repro_bfs(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen)
{
	struct figs figs[NSET];
	int ns = o->nseeds ? o->nseeds : 5;

	memset(figs, 0, sizeof(figs));
	if (o->nworkloads) {
		struct sl_repro_setting *set = calloc(NSET * NSCENE, sizeof(*set));
		int rc;

		if (!set) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (int k = 0; k < NSET; k++)
			for (int sc = 0; sc < NSCENE; sc++)
				bfs_setting(o, k, sc, &set[k * NSCENE + sc]);
		rc = sl_repro_workloads("bfs", o, set, NSET * NSCENE, ns, out, err, errlen);
		free(set);
		return rc;
	}
	for (int k = 0; k < NSET; k++)
		for (int i = 0; i < ns; i++)
			if (measure(o, k, (u64)i + 1, &figs[k], err, errlen))
				return -1;
	if (o->json) {
		json_object *root = json_object_new_object(), *arr = json_object_new_array();

		json_object_object_add(root, "experiment", json_object_new_string("bfs"));
		json_object_object_add(
			root, "setup",
			json_object_new_string(
				"desktop: 2 CPUs (core2), make:jobs=8,count=300 + "
				"xclient:start=1s,rounds=9 + video:fps=25,decode=8ms; build: "
				"make:jobs=2xCPUs,count=400,pipe=4 on 2 and 4 CPUs; nice: hog "
				"against "
				"hog:nice=5 / hog:nice=19 on 1 CPU, 3 s"));
		for (int k = 0; k < NSET; k++) {
			json_object *s = json_object_new_object();
			struct figs *f = &figs[k];

			json_object_object_add(s, "setting",
					       json_object_new_string(settings[k].label));
			json_object_object_add(s, "interactive_wakeup_latency_p99_ms",
					       sl_spread_json(&f->wake_p99));
			json_object_object_add(s, "interactive_wakeup_latency_max_ms",
					       sl_spread_json(&f->wake_max));
			json_object_object_add(s, "late_frames", sl_spread_json(&f->late));
			json_object_object_add(s, "desktop_make_s", sl_spread_json(&f->make_s));
			json_object_object_add(s, "build_s_2cpus", sl_spread_json(&f->build2));
			json_object_object_add(s, "build_s_4cpus", sl_spread_json(&f->build4));
			json_object_object_add(s, "nice5_share_pct", sl_spread_json(&f->nice5));
			json_object_object_add(s, "nice19_share_pct", sl_spread_json(&f->nice19));
			json_object_array_add(arr, s);
		}
		json_object_object_add(root, "settings", arr);
		sl_json_print(out, root);
		return 0;
	}
	fprintf(out,
		"repro bfs: CFS 2.6.31/2.6.32, BFS 0.30x and EEVDF 6.18 on the same workloads; %d "
		"seeds, mean [min, max]\n"
		"desktop: 2 CPUs (core2), make -j8 at nice 0 (300 jobs), an xmodmap-like client, a "
		"25 fps video (8 ms a frame)\n"
		"build: make -j(2 x CPUs), 400 gcc -pipe compiles; nice: a nice-0 hog against a "
		"nice-5 / nice-19 hog on 1 CPU, the niced share\n\n",
		ns);
	fprintf(out, "%-32s %20s %20s %7s %7s %22s %22s %7s %7s\n", "setting", "wake p99 ms",
		"wake max ms", "late fr", "make s", "build s, 2 CPUs", "build s, 4 CPUs", "nice5 %",
		"nice19 %");
	for (int k = 0; k < NSET; k++) {
		struct figs *f = &figs[k];

		fprintf(out,
			"%-32s %6.2f [%5.2f,%5.2f] %6.2f [%5.2f,%5.2f] %7.1f %7.2f %7.3f "
			"[%6.3f,%6.3f] %7.3f [%6.3f,%6.3f] %7.2f %7.2f\n",
			settings[k].label, sl_spread_mean(&f->wake_p99),
			sl_spread_min(&f->wake_p99), sl_spread_max(&f->wake_p99),
			sl_spread_mean(&f->wake_max), sl_spread_min(&f->wake_max),
			sl_spread_max(&f->wake_max), sl_spread_mean(&f->late),
			sl_spread_mean(&f->make_s), sl_spread_mean(&f->build2),
			sl_spread_min(&f->build2), sl_spread_max(&f->build2),
			sl_spread_mean(&f->build4), sl_spread_min(&f->build4),
			sl_spread_max(&f->build4), sl_spread_mean(&f->nice5),
			sl_spread_mean(&f->nice19));
	}
	return 0;
}
