/*
 * `schedlab repro fio`: the 2009 menu-tng result (seed patch 002): fio on a Nehalem server under
 * idle=poll, the 2.6.31 menu and menu-tng, for 1, 2 and 12 disks, the seed's MB/s beside the
 * model's. Every run has the same machine, disks and workload; only the governor differs, so
 * the gaps come out of the mechanism (exit latency before each completion interrupt).
 */
#include "core/json_out.h"
#include "experiment/repro.h"
#include "experiment/run.h"
#include "experiment/spread.h"
#include "sched/release.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the seed's table: disks, idle=poll, menu (2.6.31), menu-tng, MB/s */
static const struct {
	int disks;
	double poll, menu, tng;
} seed[] = {{1, 107, 85, 105}, {2, 215, 123, 209}, {12, 590, 320, 585}};

double sl_fio_seed(int disks, const char *gov)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(seed); i++) {
		if (seed[i].disks != disks)
			continue;
		if (!strcmp(gov, "poll"))
			return seed[i].poll;
		if (!strcmp(gov, "menu-2.6.31"))
			return seed[i].menu;
		if (!strcmp(gov, "menu-tng"))
			return seed[i].tng;
	}
	return 0;
}

struct fio_result {
	int disks;
	char gov[32]; /* the governor's name (names are at most 15 characters) */
	double mbps, energy_j, power_w;
	double residency[SL_CPUIDLE_MAX_STATES + 1]; /* busy first, then each state */
	int nstates;
	char names[SL_CPUIDLE_MAX_STATES][16];
	char driver[32];
	double demoted; /* acpi_idle: share of idle entries the bus-master check demoted */
	double exit_us; /* mean wake-up cost per idle period, exit and locks included */
};

/*
 * The 2.6.31 fio machine beyond the release's defaults, the same for every governor: what
 * `repro fio --explore` found best supported (docs/experiments-2009.md, "The machine that
 * lost"). The user's --param and --cpuidle-param come after these and win.
 */
const char *const sl_fio_machine_params[] = {SL_FIO_MACHINE_PARAMS};
const int sl_fio_nmachine_params = (int)SL_ARRAY_SIZE(sl_fio_machine_params);
const char *const sl_fio_machine_cpuidle_params[] = {SL_FIO_MACHINE_CPUIDLE_PARAMS};
const int sl_fio_nmachine_cpuidle_params = (int)SL_ARRAY_SIZE(sl_fio_machine_cpuidle_params);

bool sl_fio_acpi_table(const char *kernel, const char *idle_driver)
{
	const struct sl_release *rel = kernel ? sl_release_find(kernel) : sl_release_default();

	if (idle_driver)
		return !strcmp(idle_driver, "acpi_idle");
	return rel && rel->acpi_idle;
}

void sl_fio_machine_args(struct sl_args *a, const struct sl_repro_opts *o)
{
	a->kernel = o->kernel;
	a->topology = "2x4x2"; /* a 2009 Nehalem-EP server: two Xeon 5500, 4 cores, HT */
	a->machine = "nehalem";
	for (int i = 0; i < sl_fio_nmachine_params; i++)
		a->params[a->nparams++] = sl_fio_machine_params[i];
	if (sl_fio_acpi_table(o->kernel, o->idle_driver))
		for (int i = 0; i < sl_fio_nmachine_cpuidle_params; i++)
			a->cpuidle_params[a->ncpuidle_params++] = sl_fio_machine_cpuidle_params[i];
	for (int i = 0; i < o->nparams; i++)
		a->params[a->nparams++] = o->params[i];
	for (int i = 0; i < o->ncpuidle_params; i++)
		a->cpuidle_params[a->ncpuidle_params++] = o->cpuidle_params[i];
	a->irq_affinity = o->irq_affinity ? o->irq_affinity : SL_FIO_MACHINE_IRQ;
	a->idle_driver = o->idle_driver;
}

/* the run under governor gov ("poll": idle=poll), but the workload and the seed */
static void fio_setting(const struct sl_repro_opts *o, const char *gov, struct sl_repro_setting *s)
{
	struct sl_args *a = &s->a;

	memset(s, 0, sizeof(*s));
	snprintf(s->label, sizeof(s->label), "%s", !strcmp(gov, "poll") ? "idle=poll" : gov);
	sl_fio_machine_args(a, o);
	a->duration = o->duration ? o->duration : "2s";
	if (!strcmp(gov, "poll"))
		a->idle = "poll"; /* the seed's idle=poll column: no cpuidle at all */
	else
		a->governor = gov;
}

static int run_one(const struct sl_repro_opts *o, int disks, const char *gov,
		   struct fio_result *res, char *err, size_t errlen)
{
	struct sl_repro_setting set;
	struct sl_args *a = &set.a;
	struct sl_config cfg;
	struct sl_run r;
	char wl[128];

	memset(res, 0, sizeof(*res));
	fio_setting(o, gov, &set);
	a->seed = o->seed;
	snprintf(wl, sizeof(wl), "fio:disks=%d,rw=read,bs=128k,ioengine=sync,direct=1%s", disks,
		 SL_FIO_MACHINE_JOB);
	a->workloads[a->nworkloads++] = wl;
	if (sl_run_args(a, &cfg, &r, err, errlen))
		return -1;
	const struct sl_sim *sim = r.sim;
	const struct sl_group *g = &sl_machine_of(sim)->groups[0];
	u64 el = sim->now - g->start, energy = 0, busy = 0;

	res->disks = disks;
	snprintf(res->gov, sizeof(res->gov), "%s", gov);
	res->mbps = el ? (double)g->io_bytes / ((double)el / 1e9) / 1e6 : 0;
	res->nstates = sl_machine_of(sim)->idle_drv->state_count;
	snprintf(res->driver, sizeof(res->driver), "%s", sl_machine_of(sim)->idle_drv->name);
	u64 periods = 0, demoted = 0, paid = 0;

	for (int c = 0; c < sim->ncpu; c++) {
		periods += sl_mcpu(sim, c)->idle_dev.periods;
		demoted += sl_mcpu(sim, c)->idle_dev.bm_demotions;
		paid += sl_mcpu(sim, c)->idle_dev.exit_latency_paid_ns;
	}
	res->demoted = periods ? (double)demoted / (double)periods : 0;
	res->exit_us = periods ? (double)paid / (double)periods / 1000 : 0;
	for (int i = 0; i < res->nstates; i++)
		snprintf(res->names[i], sizeof(res->names[i]), "%s",
			 sl_machine_of(sim)->idle_drv->states[i].name);
	for (int c = 0; c < sim->ncpu; c++) {
		const struct sl_cpuidle_dev *dev = &sl_mcpu(sim, c)->idle_dev;

		busy += sl_mcpu(sim, c)->busy_ns;
		for (int i = 0; i < res->nstates; i++)
			res->residency[i + 1] += (double)dev->time_ns[i];
	}
	double total = (double)sim->now * sim->ncpu;

	res->residency[0] = (double)busy / total;
	for (int i = 0; i < res->nstates; i++)
		res->residency[i + 1] /= total;
	energy = sl_machine_energy_pj(sim);
	res->energy_j = (double)energy / 1e12;
	res->power_w = sim->now ? res->energy_j / ((double)sim->now / 1e9) : 0;
	sl_run_free(&r);
	sl_config_free(&cfg);
	return 0;
}

int sl_repro_fio(const struct sl_repro_opts *o, FILE *out, char *err, size_t errlen)
{
	int ndisks = o->ndisks, ngov = o->ngovernors;
	struct fio_result *res;
	json_object *root = NULL, *runs = NULL;
	int rc = -1;

	if (o->explore)
		return sl_repro_fio_explore(o, out, err, errlen);
	if (o->nworkloads) {
		struct sl_repro_setting set[SL_ARRAY_SIZE(o->governors)];

		for (int g = 0; g < ngov; g++)
			fio_setting(o, o->governors[g], &set[g]);
		return sl_repro_workloads("fio", o, set, ngov, 1, out, err, errlen);
	}
	res = calloc((size_t)ndisks * (size_t)ngov, sizeof(*res));
	if (!res) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int d = 0; d < ndisks; d++)
		for (int g = 0; g < ngov; g++)
			if (run_one(o, o->disks[d], o->governors[g], &res[d * ngov + g], err,
				    errlen))
				goto out;
	if (o->json) {
		root = json_object_new_object();
		runs = json_object_new_array();
		json_object_object_add(root, "experiment", json_object_new_string("fio"));
		json_object *mp = json_object_new_array();

		json_object_object_add(root, "machine", json_object_new_string("nehalem, 2x4x2"));
		for (int i = 0; i < sl_fio_nmachine_params; i++)
			json_object_array_add(mp, json_object_new_string(sl_fio_machine_params[i]));
		for (int i = 0; i < sl_fio_nmachine_cpuidle_params; i++)
			json_object_array_add(
				mp, json_object_new_string(sl_fio_machine_cpuidle_params[i]));
		json_object_object_add(root, "machine_params", mp);
		json_object_object_add(
			root, "workload",
			json_object_new_string(
				"fio rw=read bs=128k ioengine=sync direct=1, one job per disk"));
		json_object_object_add(root, "job_options",
				       json_object_new_string(&SL_FIO_MACHINE_JOB[1]));
	} else {
		const char *drvname = "nehalem";

		for (int i = 0; i < ndisks * ngov; i++)
			if (strcmp(res[i].gov, "poll"))
				drvname = res[i].driver;
		fprintf(out,
			"repro fio: a Nehalem-EP server (2 sockets x 4 cores x 2 threads, %s "
			"idle states), kernel %s, interrupts %s;\n"
			"fio rw=read bs=128k direct=1 ioengine=sync, one job per disk (%s), %s "
			"simulated per run\nthe fio machine (docs/experiments-2009.md):",
			drvname, o->kernel ? o->kernel : SL_DEFAULT_RELEASE,
			o->irq_affinity ? o->irq_affinity : SL_FIO_MACHINE_IRQ,
			&SL_FIO_MACHINE_JOB[1], o->duration ? o->duration : "2s");
		for (int i = 0; i < sl_fio_nmachine_params; i++)
			fprintf(out, " %s", sl_fio_machine_params[i]);
		for (int i = 0; i < sl_fio_nmachine_cpuidle_params; i++)
			fprintf(out, " %s", sl_fio_machine_cpuidle_params[i]);
		for (int i = 0; i < o->nparams; i++)
			fprintf(out, "%s--param %s", i ? " " : "\n", o->params[i]);
		for (int i = 0; i < o->ncpuidle_params; i++)
			fprintf(out, "%s--cpuidle-param %s", i || o->nparams ? " " : "\n",
				o->cpuidle_params[i]);
		fprintf(out, "\n\n");
		fprintf(out, "%5s %-12s %9s %6s %8s %9s %10s %8s %6s %7s  %s\n", "disks",
			"governor", "MB/s", "seed", "vs poll", "seed vs", "energy J", "power W",
			"exit", "bm-dem", "residency (busy, states)");
	}
	for (int d = 0; d < ndisks; d++) {
		double poll_mb = 0;
		/* the ratio is to the poll run of the same disk count, when it was run */
		for (int g = 0; g < ngov; g++)
			if (!strcmp(res[d * ngov + g].gov, "poll"))
				poll_mb = res[d * ngov + g].mbps;
		double seed_poll = sl_fio_seed(o->disks[d], "poll");

		for (int g = 0; g < ngov; g++) {
			const struct fio_result *x = &res[d * ngov + g];
			double s = sl_fio_seed(x->disks, x->gov);
			double ratio = poll_mb ? x->mbps / poll_mb : 0;
			double sratio = seed_poll && s ? s / seed_poll : 0;

			if (o->json) {
				json_object *jo = json_object_new_object(),
					    *rs = json_object_new_object();

				json_object_object_add(jo, "disks", json_object_new_int(x->disks));
				json_object_object_add(jo, "governor",
						       json_object_new_string(x->gov));
				json_object_object_add(jo, "bw_mb_s", sl_json_fixed6(x->mbps));
				json_object_object_add(jo, "bw_mb_s_2009",
						       s ? sl_json_fixed6(s) : NULL);
				json_object_object_add(jo, "ratio_to_poll",
						       poll_mb ? sl_json_fixed6(ratio) : NULL);
				json_object_object_add(jo, "ratio_to_poll_2009",
						       sratio ? sl_json_fixed6(sratio) : NULL);
				json_object_object_add(jo, "energy_j", sl_json_fixed6(x->energy_j));
				json_object_object_add(jo, "average_power_w",
						       sl_json_fixed6(x->power_w));
				json_object_object_add(jo, "idle_driver",
						       json_object_new_string(x->driver));
				json_object_object_add(jo, "mean_exit_us",
						       sl_json_fixed6(x->exit_us));
				json_object_object_add(jo, "bm_demoted",
						       sl_json_fixed6(x->demoted));
				json_object_object_add(rs, "busy", sl_json_fixed6(x->residency[0]));
				for (int i = 0; i < x->nstates; i++)
					json_object_object_add(rs, x->names[i],
							       sl_json_fixed6(x->residency[i + 1]));
				json_object_object_add(jo, "residency", rs);
				json_object_array_add(runs, jo);
				continue;
			}
			char sbuf[16] = "-", rbuf[16] = "-", srbuf[16] = "-";

			if (s)
				snprintf(sbuf, sizeof(sbuf), "%.0f", s);
			if (poll_mb)
				snprintf(rbuf, sizeof(rbuf), "%.3f", ratio);
			if (sratio)
				snprintf(srbuf, sizeof(srbuf), "%.3f", sratio);
			fprintf(out,
				"%5d %-12s %9.2f %6s %8s %9s %10.3f %8.2f %6.1f %6.1f%%  busy "
				"%.1f%%",
				x->disks, !strcmp(x->gov, "poll") ? "idle=poll" : x->gov, x->mbps,
				sbuf, rbuf, srbuf, x->energy_j, x->power_w, x->exit_us,
				100 * x->demoted, 100 * x->residency[0]);
			for (int i = 0; i < x->nstates; i++)
				if (x->residency[i + 1] >= 0.0005)
					fprintf(out, " %s %.1f%%", x->names[i],
						100 * x->residency[i + 1]);
			fputc('\n', out);
		}
	}
	if (o->json) {
		json_object_object_add(root, "runs", runs);
		sl_json_print(out, root);
	}
	rc = 0;
out:
	free(res);
	return rc;
}

int sl_repro_fio_one(int disks, const char *gov, const char *seed, double *mbps, double *power_w,
		     double *seed_mbps, char *err, size_t errlen)
{
	struct sl_repro_opts o;
	struct fio_result res;

	memset(&o, 0, sizeof(o));
	o.seed = seed;
	if (run_one(&o, disks, gov, &res, err, errlen))
		return -1;
	*mbps = res.mbps;
	*power_w = res.power_w;
	*seed_mbps = sl_fio_seed(disks, gov);
	return 0;
}
