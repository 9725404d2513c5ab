/*
 * The run's report, as a table for people and as one JSON object (documented in the README).
 * Both read the same statistics. Nothing here depends on the wall clock, so a report is
 * byte-identical for the same inputs and seed.
 */
#include "core/json_out.h"
#include "experiment/run.h"
#include "experiment/spread.h"
#include "sched/sysctl.h"
#include "sched/prio.h"
#include "machine/blockdev.h"

#include <json-c/json.h>
#include <string.h>

void sl_report_idle_table(FILE *f, const struct sl_run *r);
void sl_report_io_table(FILE *f, const struct sl_run *r);
json_object *sl_report_io_json(const struct sl_run *r, const struct sl_group *g);
json_object *sl_report_idle_json(const struct sl_run *r);

#define PER_TASK_TABLE 8
#define PER_TASK_JSON  256

static void fmt_ns(u64 ns, char *buf, size_t len)
{
	if (ns >= NSEC_PER_SEC)
		snprintf(buf, len, "%.3fs", (double)ns / 1e9);
	else if (ns >= NSEC_PER_MSEC)
		snprintf(buf, len, "%.3fms", (double)ns / 1e6);
	else if (ns >= NSEC_PER_USEC)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

static double share(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static const struct sl_task *task_by_pid(const struct sl_sim *sim, int pid)
{
	return pid >= 1 && pid <= sl_machine_of(sim)->ntasks ? sl_sim_task(sim, pid - 1) : NULL;
}

void sl_report_table(FILE *f, const struct sl_config *cfg, const struct sl_run *r)
{
	const struct sl_sim *sim = r->sim;
	const struct sl_stats *s = &r->stats;
	char feats[1024], a[32], b[32], c[32], d[32], e[32], g2[32];
	u64 el = sim->now;

	sl_feat_format(&sim->rel->feats, sim->features, feats, sizeof(feats));
	fmt_ns(el, a, sizeof(a));
	fprintf(f,
		"schedlab run: kernel %s, %d CPU%s (%d socket x %d core x %d thread), HZ=%llu, %s "
		"simulated, seed %llu\n",
		sim->rel->name, sim->ncpu, sim->ncpu > 1 ? "s" : "", cfg->sockets, cfg->cores,
		cfg->threads, (unsigned long long)sl_machine_of(sim)->p->hz, a,
		(unsigned long long)cfg->seed);
	fprintf(f, "sched_features: %s", feats);
	fprintf(f, "sysctl:");
	for (int i = 0; i < sl_sysctl_count(sim->rel); i++) {
		const struct sl_sysctl_desc *d = sl_sysctl_nth(sim->rel, i);

		if (!d->acts || d->offset == (size_t)-1)
			continue;
		fprintf(f, " %s=%lld", sl_sysctl_short(d),
			(long long)sl_sysctl_read(sim->rel, &sim->tun, sim->features, d));
	}
	if (sim->group_sched) {
		fprintf(f,
			"\ngroup scheduling: per user (USER_SCHED), sched_shares_ratelimit=%llu "
			"sched_shares_thresh=%llu; task groups:",
			(unsigned long long)sim->tun.sched_shares_ratelimit,
			(unsigned long long)sim->tun.sched_shares_thresh);
		for (int i = 0; i < sim->ntgs; i++)
			fprintf(f, " uid %d shares %llu%s", sim->tgs[i]->uid,
				(unsigned long long)sim->tgs[i]->shares,
				i + 1 < sim->ntgs ? "," : "");
	}
	/* the name column: wide enough for the longest group name and indented comm */
	int nw = 12;

	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++)
		if ((int)strlen(sl_machine_of(sim)->groups[i].name) > nw)
			nw = (int)strlen(sl_machine_of(sim)->groups[i].name);
	for (int pid = 1; pid <= sl_machine_of(sim)->ntasks && pid < s->npid; pid++) {
		const struct sl_task *t = task_by_pid(sim, pid);

		if (t && (sl_mtask(t)->group->ntasks <= PER_TASK_TABLE || cfg->per_task) &&
		    2 + (int)strlen(sl_mtask(t)->comm) > nw)
			nw = 2 + (int)strlen(sl_mtask(t)->comm);
	}
	fprintf(f, "\n\n%-*s %6s %11s %7s %8s %10s %10s %10s %10s %11s %10s %11s\n", nw, "group",
		"tasks", "cpu time", "share", "wakeups", "lat p50", "lat p95", "lat p99", "lat max",
		"rq wait", "wait max", "completion");
	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++) {
		const struct sl_group *g = &sl_machine_of(sim)->groups[i];
		const struct sl_group_stat *gs = &s->g[i];
		char comp[32] = "-";

		if (g->finite && g->spawned && !g->live)
			fmt_ns(g->end - g->start, comp, sizeof(comp));
		else if (g->finite)
			snprintf(comp, sizeof(comp), "unfinished");
		fmt_ns(gs->cpu_ns, a, sizeof(a));
		fmt_ns(sl_hist_percentile(&gs->lat, 50), b, sizeof(b));
		fmt_ns(sl_hist_percentile(&gs->lat, 95), c, sizeof(c));
		fmt_ns(sl_hist_percentile(&gs->lat, 99), d, sizeof(d));
		fmt_ns(gs->lat.max, e, sizeof(e));
		char w1[32];

		fmt_ns(gs->wait_total, w1, sizeof(w1));
		fmt_ns(gs->wait_max, g2, sizeof(g2));
		fprintf(f, "%-*s %6d %11s %6.2f%% %8llu %10s %10s %10s %10s %11s %10s %11s\n", nw,
			g->name, g->ntasks, a, 100.0 * share(gs->cpu_ns, el),
			(unsigned long long)gs->wakeups, b, c, d, e, w1, g2, comp);
		if (g->ntasks > PER_TASK_TABLE && !cfg->per_task) {
			fprintf(f, "  (%d tasks; --per-task for all)\n", g->ntasks);
			continue;
		}
		for (int pid = 1; pid <= sl_machine_of(sim)->ntasks && pid < s->npid; pid++) {
			const struct sl_task *t = task_by_pid(sim, pid);

			if (!t || sl_mtask(t)->group != g)
				continue;
			char how[32];

			fmt_ns(s->pid[pid].cpu_ns, a, sizeof(a));
			fmt_ns(s->pid[pid].wait_max, b, sizeof(b));
			/* an RT task shows its policy and priority where a fair one its nice */
			if (sl_rt_policy(t->policy))
				snprintf(how, sizeof(how), "%s %d",
					 t->policy == SL_SCHED_FIFO ? "fifo" : "rr",
					 t->rt_priority);
			else
				snprintf(how, sizeof(how), "nice %d", t->nice);
			fprintf(f,
				"  %-*s %6d %11s %6.2f%%  (pid %d, %s, wait max %s, %llu "
				"switches)\n",
				nw - 2, sl_mtask(t)->comm, 1, a,
				100.0 * share(s->pid[pid].cpu_ns, el), pid, how, b,
				(unsigned long long)s->pid[pid].switches);
		}
	}
	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++) {
		const struct sl_group *g = &sl_machine_of(sim)->groups[i];

		if (!g->frames)
			continue;
		fmt_ns(g->late_max, a, sizeof(a));
		fmt_ns(g->frames_late ? g->late_sum / g->frames_late : 0, b, sizeof(b));
		fprintf(f,
			"%s: %llu frames, %llu late (%.2f%%), late by %s at most, %s on average\n",
			g->name, (unsigned long long)g->frames, (unsigned long long)g->frames_late,
			100.0 * share(g->frames_late, g->frames), a, b);
	}
	/* the workloads' own sections (rt-app's threads), one heading for all their groups */
	bool head = false;

	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++) {
		const struct sl_group *g = &sl_machine_of(sim)->groups[i];

		if (g->wl && g->wl->ops->report_table)
			g->wl->ops->report_table(f, g, &head);
	}
	fprintf(f, "\nmachine: %llu context switches, %llu migrations, %llu events\n",
		(unsigned long long)s->switches, (unsigned long long)s->migrations,
		(unsigned long long)sim->nr_events);
	fprintf(f, "%-4s %8s %10s\n", "cpu", "util", "switches");
	for (int i = 0; i < s->ncpu; i++)
		fprintf(f, "%-4d %7.2f%% %10llu\n", i, 100.0 * share(s->c[i].busy_ns, el),
			(unsigned long long)s->c[i].switches);
	sl_report_io_table(f, r);
	sl_report_idle_table(f, r);
}

static json_object *ju64(u64 v)
{
	return json_object_new_uint64(v);
}

#define ADD(obj, key, val) json_object_object_add(obj, key, val)

int sl_report_json(FILE *f, const struct sl_config *cfg, const struct sl_run *r)
{
	const struct sl_sim *sim = r->sim;
	const struct sl_stats *s = &r->stats;
	json_object *root = json_object_new_object(), *o, *arr;
	char feats[1024];
	u64 el = sim->now;

	if (!root)
		return -1;
	sl_feat_format(&sim->rel->feats, sim->features, feats, sizeof(feats));
	/* debugfs's line without its newline and the space each word ends with */
	feats[strcspn(feats, "\n")] = '\0';
	for (size_t n = strlen(feats); n && feats[n - 1] == ' ';)
		feats[--n] = '\0';
	ADD(root, "kernel", json_object_new_string(sim->rel->name));
	ADD(root, "cpus", json_object_new_int(sim->ncpu));
	o = json_object_new_object();
	ADD(o, "sockets", json_object_new_int(cfg->sockets));
	ADD(o, "cores_per_socket", json_object_new_int(cfg->cores));
	ADD(o, "threads_per_core", json_object_new_int(cfg->threads));
	ADD(root, "topology", o);
	ADD(root, "hz", ju64(sl_machine_of(sim)->p->hz));
	ADD(root, "seed", ju64(cfg->seed));
	ADD(root, "simulated_ns", ju64(el));
	ADD(root, "sched_features", json_object_new_string(feats));
	o = json_object_new_object();
	for (int i = 0; i < sl_sysctl_count(sim->rel); i++) {
		const struct sl_sysctl_desc *d = sl_sysctl_nth(sim->rel, i);
		s64 v = sl_sysctl_read(sim->rel, &sim->tun, sim->features, d);

		ADD(o, d->name, v < 0 ? json_object_new_int64(v) : ju64((u64)v));
	}
	ADD(root, "sysctl", o);
	if (sim->group_sched) {
		/* only when on, so that runs without group scheduling print as before */
		o = json_object_new_object();
		ADD(o, "kind", json_object_new_string("user"));
		arr = json_object_new_array();
		for (int i = 0; i < sim->ntgs; i++) {
			json_object *t = json_object_new_object();

			ADD(t, "uid", json_object_new_int(sim->tgs[i]->uid));
			ADD(t, "shares", ju64(sim->tgs[i]->shares));
			json_object_array_add(arr, t);
		}
		ADD(o, "task_groups", arr);
		ADD(root, "group_sched", o);
	}
	arr = json_object_new_array();
	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++) {
		const struct sl_group *g = &sl_machine_of(sim)->groups[i];
		const struct sl_group_stat *gs = &s->g[i];
		json_object *go = json_object_new_object(), *lat = json_object_new_object();
		json_object *wait = json_object_new_object();

		ADD(go, "name", json_object_new_string(g->name));
		ADD(go, "workload", json_object_new_string(g->spec));
		ADD(go, "tasks", json_object_new_int(g->ntasks));
		ADD(go, "cpu_time_ns", ju64(gs->cpu_ns));
		ADD(go, "cpu_share", sl_json_fixed6(share(gs->cpu_ns, el)));
		ADD(go, "wakeups", ju64(gs->wakeups));
		ADD(lat, "count", ju64(gs->lat.count));
		ADD(lat, "p50", ju64(sl_hist_percentile(&gs->lat, 50)));
		ADD(lat, "p95", ju64(sl_hist_percentile(&gs->lat, 95)));
		ADD(lat, "p99", ju64(sl_hist_percentile(&gs->lat, 99)));
		ADD(lat, "max", ju64(gs->lat.max));
		ADD(go, "wakeup_latency_ns", lat);
		ADD(wait, "total", ju64(gs->wait_total));
		ADD(wait, "max", ju64(gs->wait_max));
		ADD(go, "runqueue_wait_ns", wait);
		if (g->finite && g->spawned && !g->live)
			ADD(go, "completion_ns", ju64(g->end - g->start));
		else
			ADD(go, "completion_ns", NULL);
		json_object *tasks = json_object_new_array();
		int listed = 0;

		for (int pid = 1; pid <= sl_machine_of(sim)->ntasks && pid < s->npid &&
				  (listed < PER_TASK_JSON || cfg->per_task);
		     pid++) {
			const struct sl_task *t = task_by_pid(sim, pid);

			if (!t || sl_mtask(t)->group != g)
				continue;
			json_object *to = json_object_new_object();

			ADD(to, "pid", json_object_new_int(pid));
			ADD(to, "comm", json_object_new_string(sl_mtask(t)->comm));
			ADD(to, "nice", json_object_new_int(t->nice));
			if (sl_rt_policy(t->policy)) {
				ADD(to, "policy",
				    json_object_new_string(t->policy == SL_SCHED_FIFO ? "fifo"
										      : "rr"));
				ADD(to, "rt_priority", json_object_new_int(t->rt_priority));
			}
			ADD(to, "cpu_time_ns", ju64(s->pid[pid].cpu_ns));
			ADD(to, "cpu_share", sl_json_fixed6(share(s->pid[pid].cpu_ns, el)));
			ADD(to, "runqueue_wait_max_ns", ju64(s->pid[pid].wait_max));
			ADD(to, "context_switches", ju64(s->pid[pid].switches));
			json_object_array_add(tasks, to);
			listed++;
		}
		ADD(go, "per_task", tasks);
		if (g->io)
			ADD(go, "io", sl_report_io_json(r, g));
		if (g->wl && g->wl->ops->report_json) {
			json_object *own = g->wl->ops->report_json(g);

			if (own && g->wl->ops->report_json_key) {
				ADD(go, g->wl->ops->report_json_key, own);
			} else if (own) {
				/* no key: its members are the group's own keys */
				json_object_object_foreach(own, k, v)
					ADD(go, k, json_object_get(v));
				json_object_put(own);
			}
		}
		if (g->frames) {
			json_object *fo = json_object_new_object();

			ADD(fo, "frames", ju64(g->frames));
			ADD(fo, "late", ju64(g->frames_late));
			ADD(fo, "late_max_ns", ju64(g->late_max));
			ADD(fo, "late_mean_ns",
			    ju64(g->frames_late ? g->late_sum / g->frames_late : 0));
			ADD(go, "frames", fo);
		}
		json_object_array_add(arr, go);
	}
	ADD(root, "groups", arr);
	o = json_object_new_object();
	ADD(o, "context_switches", ju64(s->switches));
	ADD(o, "migrations", ju64(s->migrations));
	ADD(o, "events", ju64(sim->nr_events));
	arr = json_object_new_array();
	for (int i = 0; i < s->ncpu; i++) {
		json_object *co = json_object_new_object();

		ADD(co, "cpu", json_object_new_int(i));
		ADD(co, "utilisation", sl_json_fixed6(share(s->c[i].busy_ns, el)));
		ADD(co, "context_switches", ju64(s->c[i].switches));
		json_object_array_add(arr, co);
	}
	ADD(o, "per_cpu", arr);
	ADD(root, "machine", o);
	ADD(root, "cpuidle", sl_report_idle_json(r));
	return sl_json_print(f, root);
}

/* ---- cpuidle: sysfs counters, energy, exit latency, prediction and the oracle ---- */

struct idle_sum {
	u64 energy_pj, busy_pj, idle_pj, oracle_pj, exit_paid, periods, agree, pred_err, pred_n;
	u64 bm_demotions, bcast_wait, pkg_exits;
};

/* acpi_idle's 2.6.3x path ran (docs/model/cpuidle.md §7.4): its counters are reported */
static bool acpi_path_ran(const struct sl_sim *sim)
{
	return sim->rel->acpi_idle && sl_machine_of(sim)->idle_drv->latency_factor;
}

static void idle_sums(const struct sl_sim *sim, struct idle_sum *t)
{
	memset(t, 0, sizeof(*t));
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_cpu *rq = &sim->cpus[c];
		const struct sl_cpuidle_dev *dev = &sl_mcpu(sim, rq->id)->idle_dev;
		u64 busy =
			sl_mcpu(sim, rq->id)->busy_ns * sl_machine_of(sim)->idle_drv->busy_power_mw;

		t->busy_pj += busy;
		t->idle_pj += dev->idle_energy_pj;
		t->oracle_pj += dev->oracle_energy_pj;
		t->exit_paid += dev->exit_latency_paid_ns;
		t->periods += dev->periods;
		t->agree += dev->oracle_agree;
		t->pred_err += dev->pred_abs_err_ns;
		t->pred_n += dev->pred_count;
		t->bm_demotions += dev->bm_demotions;
		t->bcast_wait += dev->bcast_wait_ns;
		t->pkg_exits += dev->pkg_exits;
	}
	t->energy_pj = t->busy_pj + t->idle_pj;
}

void sl_report_idle_table(FILE *f, const struct sl_run *r)
{
	const struct sl_sim *sim = r->sim;
	const struct sl_cpuidle_driver *drv = sl_machine_of(sim)->idle_drv;
	struct idle_sum t;
	char a[32], b[32];
	double secs = (double)sim->now / 1e9;

	idle_sums(sim, &t);
	fprintf(f, "\ncpuidle: driver %s, governor %s, PM QoS latency ", drv->name,
		sl_machine_of(sim)->idle_gov->name);
	if (sl_machine_of(sim)->pm_qos_latency_ns >= SL_PM_QOS_DEFAULT_NS)
		fprintf(f, "no limit\n");
	else
		fprintf(f, "%llu us\n",
			(unsigned long long)(sl_machine_of(sim)->pm_qos_latency_ns / 1000));
	fprintf(f, "%-4s %-10s %10s %12s %7s %10s %10s\n", "cpu", "state", "usage", "time", "share",
		"above", "below");
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_cpuidle_dev *dev = &sl_mcpu(sim, c)->idle_dev;

		fmt_ns(sl_mcpu(sim, c)->busy_ns, a, sizeof(a));
		fprintf(f, "%-4d %-10s %10s %12s %6.2f%% %10s %10s\n", c, "busy", "-", a,
			100.0 * share(sl_mcpu(sim, c)->busy_ns, sim->now), "-", "-");
		for (int i = 0; i < drv->state_count; i++) {
			fmt_ns(dev->time_ns[i], a, sizeof(a));
			fprintf(f, "%-4s %-10s%s %10llu %12s %6.2f%% %10llu %10llu\n", "",
				drv->states[i].name, dev->disabled[i] ? "*" : "",
				(unsigned long long)dev->usage[i], a,
				100.0 * share(dev->time_ns[i], sim->now),
				(unsigned long long)dev->above[i],
				(unsigned long long)dev->below[i]);
		}
	}
	fprintf(f, "energy: %.6f J, average power %.3f W (busy %.6f J, idle %.6f J)\n",
		(double)t.energy_pj / 1e12, secs > 0 ? (double)t.energy_pj / 1e12 / secs : 0.0,
		(double)t.busy_pj / 1e12, (double)t.idle_pj / 1e12);
	if (sl_machine_of(sim)->p->core_power) {
		double cj = (double)sl_machine_energy_pj(sim) / 1e12;

		fprintf(f, "energy per core (core_power=1): %.6f J, average power %.3f W\n", cj,
			secs > 0 ? cj / secs : 0.0);
	}
	fmt_ns(t.exit_paid, a, sizeof(a));
	fmt_ns(sl_hist_percentile(&r->stats.wake_delay, 99), b, sizeof(b));
	fprintf(f, "exit latency paid: %s over %llu idle periods; wake-ups delayed: %llu, p99 %s\n",
		a, (unsigned long long)t.periods, (unsigned long long)r->stats.delayed_wakeups, b);
	if (acpi_path_ran(sim)) {
		fmt_ns(t.bcast_wait, a, sizeof(a));
		fprintf(f,
			"acpi_idle: %llu C3-type entries demoted by the bus-master check; %s in "
			"the "
			"broadcast lock\n",
			(unsigned long long)t.bm_demotions, a);
	}
	if (t.pkg_exits)
		fprintf(f, "package C-state exits: %llu\n", (unsigned long long)t.pkg_exits);
	if (t.pred_n) {
		fmt_ns(sl_hist_percentile(&r->stats.pred_err, 50), a, sizeof(a));
		fmt_ns(sl_hist_percentile(&r->stats.pred_err, 95), b, sizeof(b));
		fprintf(f,
			"prediction error |predicted - measured|: p50 %s, p95 %s over %llu "
			"periods\n",
			a, b, (unsigned long long)t.pred_n);
	}
	fprintf(f, "oracle: chose its state in %.2f%% of periods; idle energy %.3fx the oracle's\n",
		100.0 * share(t.agree, t.periods),
		t.oracle_pj ? (double)t.idle_pj / (double)t.oracle_pj : 1.0);
}

json_object *sl_report_idle_json(const struct sl_run *r)
{
	const struct sl_sim *sim = r->sim;
	const struct sl_cpuidle_driver *drv = sl_machine_of(sim)->idle_drv;
	json_object *o = json_object_new_object(), *cpus = json_object_new_array(), *x;
	struct idle_sum t;
	double secs = (double)sim->now / 1e9;

	idle_sums(sim, &t);
	ADD(o, "driver", json_object_new_string(drv->name));
	ADD(o, "governor", json_object_new_string(sl_machine_of(sim)->idle_gov->name));
	ADD(o, "latency_req_ns", ju64(sl_machine_of(sim)->pm_qos_latency_ns));
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_cpuidle_dev *dev = &sl_mcpu(sim, c)->idle_dev;
		json_object *co = json_object_new_object(), *states = json_object_new_array();

		ADD(co, "cpu", json_object_new_int(c));
		ADD(co, "busy_ns", ju64(sl_mcpu(sim, c)->busy_ns));
		for (int i = 0; i < drv->state_count; i++) {
			json_object *so = json_object_new_object();

			ADD(so, "name", json_object_new_string(drv->states[i].name));
			ADD(so, "disabled", json_object_new_boolean(dev->disabled[i]));
			ADD(so, "usage", ju64(dev->usage[i]));
			ADD(so, "time_ns", ju64(dev->time_ns[i]));
			ADD(so, "residency_share",
			    sl_json_fixed6(share(dev->time_ns[i], sim->now)));
			ADD(so, "above", ju64(dev->above[i]));
			ADD(so, "below", ju64(dev->below[i]));
			ADD(so, "rejected", ju64(dev->rejected[i]));
			json_object_array_add(states, so);
		}
		ADD(co, "states", states);
		ADD(co, "energy_j",
		    sl_json_fixed6((double)sl_cpuidle_cpu_energy_pj(sim, c) / 1e12));
		ADD(co, "average_power_w",
		    sl_json_fixed6(secs > 0 ? (double)sl_cpuidle_cpu_energy_pj(sim, c) / 1e12 / secs
					    : 0.0));
		json_object_array_add(cpus, co);
	}
	ADD(o, "per_cpu", cpus);
	ADD(o, "energy_j", sl_json_fixed6((double)t.energy_pj / 1e12));
	ADD(o, "average_power_w",
	    sl_json_fixed6(secs > 0 ? (double)t.energy_pj / 1e12 / secs : 0.0));
	if (sl_machine_of(sim)->p->core_power)
		ADD(o, "core_energy_j", sl_json_fixed6((double)sl_machine_energy_pj(sim) / 1e12));
	ADD(o, "idle_periods", ju64(t.periods));
	ADD(o, "exit_latency_paid_ns", ju64(t.exit_paid));
	if (acpi_path_ran(sim)) {
		x = json_object_new_object();
		ADD(x, "bm_demotions", ju64(t.bm_demotions));
		ADD(x, "broadcast_lock_ns", ju64(t.bcast_wait));
		ADD(o, "acpi_idle", x);
	}
	if (t.pkg_exits)
		ADD(o, "package_exits", ju64(t.pkg_exits));
	x = json_object_new_object();
	ADD(x, "count", ju64(r->stats.delayed_wakeups));
	ADD(x, "p50", ju64(sl_hist_percentile(&r->stats.wake_delay, 50)));
	ADD(x, "p99", ju64(sl_hist_percentile(&r->stats.wake_delay, 99)));
	ADD(x, "max", ju64(r->stats.wake_delay.max));
	ADD(o, "wake_delay_ns", x);
	x = json_object_new_object();
	ADD(x, "periods", ju64(t.pred_n));
	ADD(x, "mean_abs_error_ns", ju64(t.pred_n ? t.pred_err / t.pred_n : 0));
	ADD(x, "p50_abs_error_ns", ju64(sl_hist_percentile(&r->stats.pred_err, 50)));
	ADD(x, "p95_abs_error_ns", ju64(sl_hist_percentile(&r->stats.pred_err, 95)));
	ADD(o, "prediction", x);
	x = json_object_new_object();
	ADD(x, "agreement", sl_json_fixed6(share(t.agree, t.periods)));
	ADD(x, "energy_ratio",
	    sl_json_fixed6(t.oracle_pj ? (double)t.idle_pj / (double)t.oracle_pj : 1.0));
	ADD(o, "oracle", x);
	return o;
}

/* ---- block I/O: what fio reports ---- */

static u64 io_elapsed(const struct sl_sim *sim, const struct sl_group *g)
{
	u64 end = g->finite && g->spawned && !g->live ? g->end : sim->now;

	return end > g->start ? end - g->start : 0;
}

static double mbps(u64 bytes, u64 ns)
{
	return ns ? (double)bytes / ((double)ns / 1e9) / 1e6 : 0.0;
}

/* a job's I/O figures (a task without a request pool did none: zeros, disk 0) */
static const struct sl_task_io *task_io(const struct sl_task *t)
{
	static const struct sl_task_io none;

	return sl_task_io(t) ? sl_task_io(t) : &none;
}

void sl_report_io_table(FILE *f, const struct sl_run *r)
{
	const struct sl_sim *sim = r->sim;
	char a[32], b[32], c[32], d[32];

	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++) {
		const struct sl_group *g = &sl_machine_of(sim)->groups[i];
		u64 el = io_elapsed(sim, g);

		if (!g->io)
			continue;
		fmt_ns(sl_hist_percentile(g->clat, 50), a, sizeof(a));
		fmt_ns(sl_hist_percentile(g->clat, 95), b, sizeof(b));
		fmt_ns(sl_hist_percentile(g->clat, 99), c, sizeof(c));
		fmt_ns(g->clat->max, d, sizeof(d));
		fprintf(f,
			"\n%s: bw %.2f MB/s, %.0f IOPS, %llu requests; clat p50 %s p95 %s p99 %s "
			"max %s\n",
			g->name, mbps(g->io_bytes, el),
			el ? (double)g->io_ops / ((double)el / 1e9) : 0,
			(unsigned long long)g->io_ops, a, b, c, d);
		for (int pid = 1; pid <= sl_machine_of(sim)->ntasks; pid++) {
			const struct sl_task *t = sl_sim_task(sim, pid - 1);

			if (sl_mtask(t)->group != g)
				continue;
			const struct sl_task_io *io = task_io(t);

			fprintf(f, "  job pid %d disk %d: bw %.2f MB/s, %.0f IOPS\n", pid, io->disk,
				mbps(io->io_bytes, el),
				el ? (double)io->io_ops / ((double)el / 1e9) : 0.0);
		}
	}
}

json_object *sl_report_io_json(const struct sl_run *r, const struct sl_group *g)
{
	const struct sl_sim *sim = r->sim;
	json_object *o = json_object_new_object(), *clat = json_object_new_object();
	json_object *jobs = json_object_new_array();
	u64 el = io_elapsed(sim, g);

	ADD(o, "bytes", ju64(g->io_bytes));
	ADD(o, "requests", ju64(g->io_ops));
	ADD(o, "elapsed_ns", ju64(el));
	ADD(o, "bw_mb_s", sl_json_fixed6(mbps(g->io_bytes, el)));
	ADD(o, "iops", sl_json_fixed6(el ? (double)g->io_ops / ((double)el / 1e9) : 0.0));
	ADD(clat, "p50", ju64(sl_hist_percentile(g->clat, 50)));
	ADD(clat, "p95", ju64(sl_hist_percentile(g->clat, 95)));
	ADD(clat, "p99", ju64(sl_hist_percentile(g->clat, 99)));
	ADD(clat, "max", ju64(g->clat->max));
	ADD(o, "clat_ns", clat);
	for (int pid = 1; pid <= sl_machine_of(sim)->ntasks; pid++) {
		const struct sl_task *t = sl_sim_task(sim, pid - 1);

		if (!t || sl_mtask(t)->group != g)
			continue;
		json_object *jo = json_object_new_object();
		const struct sl_task_io *io = task_io(t);

		ADD(jo, "pid", json_object_new_int(pid));
		ADD(jo, "disk", json_object_new_int(io->disk));
		ADD(jo, "bytes", ju64(io->io_bytes));
		ADD(jo, "requests", ju64(io->io_ops));
		ADD(jo, "bw_mb_s", sl_json_fixed6(mbps(io->io_bytes, el)));
		json_object_array_add(jobs, jo);
	}
	ADD(o, "jobs", jobs);
	return o;
}
