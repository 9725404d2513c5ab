/*
 * The schedlab command. Every error in what the user typed is reported on stderr, naming the
 * option and what was expected, with exit status 2; output goes to stdout (or -o FILE, through
 * the atomic writer of core/outfile.h) only once the run has succeeded, so there is never a
 * half-written report. An output that cannot be written is exit status 1, naming the file; an
 * interrupt (SIGINT, SIGTERM) is 130.
 */
#include "config/config.h"
#include "sched/sysctl.h"
#include "experiment/run.h"
#include "experiment/repro.h"
#include "experiment/sweep.h"
#include "trace/trace_stats.h"
#include "trace/replay_idle.h"
#include "trace/record.h"
#include "validate/validate_cli.h"
#include "sched/cfs.h"
#include "workload/workload.h"
#include "cpuidle/profiles.h"
#include "core/outfile.h"
#include "core/interrupt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCHEDLAB_VERSION "0.1.0"

static const char usage[] =
	"usage: schedlab COMMAND [OPTIONS]\n"
	"\n"
	"commands:\n"
	"  run        simulate workloads and report the scheduling figures;\n"
	"             `run F.json` runs an rt-app file (its duration unless --duration)\n"
	"  repro fio  the 2009 menu-tng result: fio MB/s on a Nehalem under idle=poll,\n"
	"             menu-2.6.31 and menu-tng, beside the seed's table\n"
	"             [--disks 1,2,12] [--governors LIST] [--duration D] [--json] [-o FILE]\n"
	"  repro sleepers  NEW_FAIR_SLEEPERS and desktop interactivity under nice -n 19 make\n"
	"             [--seeds N] [--duration D] [--json]\n"
	"  repro fork       child- against parent-runs-first on a kernel-build-like make\n"
	"             [--seeds N] [--kernel V] [--json]\n"
	"  trace-stats FILE  per-task run time, switches and wake-up latency, per-CPU idle\n"
	"             intervals and block I/O latency of an ftrace text trace (.xz, .gz, -)\n"
	"             [--json] [--lenient] [-o FILE]\n"
	"  record -o FILE [--events LIST] -- CMD  trace CMD on this machine (root, tracefs)\n"
	"  validate F.json  an rt-app file run for real (or --real DIR) and simulated on a\n"
	"             model of the machine, side by side [--json] (validate --help)\n"
	"  calibrate -o DIR  measure this machine's switch, vCPU wake-up, timer slack, wake-up\n"
	"             path, placement, background and rt-app's loop once, as a machine\n"
	"             description for validate\n"
	"  replay-idle FILE  a trace's idle intervals and timers through every governor\n"
	"             (open loop) [--machine M] [--cpuidle-governor LIST] [--json] [-o FILE]\n"
	"  sweep      every combination of flags (--features all|LIST), knobs\n"
	"             (--vary KEY=V1,V2), mixes (--mix A+B) and --seeds N, one row\n"
	"             per run in --out FILE.csv|.jsonl, resumable; -j N workers,\n"
	"             --shard K/N, or under mpirun (with -DSCHEDLAB_MPI=ON)\n"
	"  sweep-report FILE...  main effects with 95% intervals, best and worst\n"
	"             configurations, two-flag interactions [--metric M] [--top N]\n"
	"             [--json] [--plot DIR] [-o FILE]\n"
	"  sweep-merge --out FILE SHARD...  the union of shard files, in run order\n"
	"  demo       the built-in experiment: an interactive task beside nice -n 19 make,\n"
	"             with NEW_FAIR_SLEEPERS on and off (2.6.31)\n"
	"  features   print sched_features as /sys/kernel/debug/sched_features does\n"
	"             (6.18: /sys/kernel/debug/sched/features)\n"
	"  sysctl     print the scheduler sysctls at boot for --kernel and --cpus\n"
	"  workloads  list the workloads with their keys and defaults\n"
	"  params     list the model's parameters with their defaults and sources\n"
	"  machines   list the machine idle profiles (C-state tables)\n"
	"  governors  list the cpuidle governors\n"
	"\n"
	"options of run (and of features / sysctl where they apply):\n"
	"  --kernel V                 2.6.31 (default), 2.6.32 (CFS) or 6.18 (EEVDF, HZ=250):\n"
	"                             flags, defaults and rules\n"
	"  --cpus N                   CPUs, one socket of N cores (default 2)\n"
	"  --topology SxCxT           sockets x cores per socket x SMT threads per core\n"
	"  --workload NAME:k=v,...    a workload group (repeatable); see `schedlab workloads`\n"
	"  --duration D               simulated time, e.g. 1s, 500ms (default: until finite\n"
	"                             workloads end, else 10s)\n"
	"  --seed N                   PRNG seed (default 1)\n"
	"  --sched-features 'WORDS'   debugfs writes, e.g. 'NO_NEW_FAIR_SLEEPERS LAST_BUDDY'\n"
	"  --sysctl NAME=VALUE        e.g. kernel.sched_child_runs_first=0 (repeatable); 6.18:\n"
	"                             the debugfs names, e.g. base_slice_ns=3000000\n"
	"  --at TIME:KNOB             change at a simulated time: 2s:sched-features=WORDS or\n"
	"                             3s:sysctl=kernel.sched_latency_ns=10000000\n"
	"  --param NAME=VALUE         a model parameter, see `schedlab params`\n"
	"  --machine NAME             the idle states: a profile (`schedlab machines`),\n"
	"                             file:PATH or sysfs (default: poll only)\n"
	"  --cpuidle-governor NAME    see `schedlab governors` (default on a machine with\n"
	"                             C-states: the release's menu, menu-2.6.31 or menu-tng)\n"
	"  --idle poll                the idle=poll boot parameter: no C-states\n"
	"  --pm-qos-latency-us N      the PM QoS CPU latency limit (default: no limit)\n"
	"  --cpuidle-disable STATE    sysfs stateN/disable=1 on every CPU (repeatable)\n"
	"  --cpuidle-param NAME=V     governor tunables and state power, e.g.\n"
	"                             menu_tng_quirks=0, power_mw.C6=100, busy_power_mw=15000\n"
	"  --irq-affinity WHERE       I/O completion interrupts: issuer (default), spread, or a "
	"CPU\n"
	"  --trace-out FILE           write the run as ftrace text (Perfetto opens it), or as\n"
	"                             Chrome Trace Event JSON when FILE ends in .json\n"
	"  --rtapp-logdir DIR         write the rt-app workloads' per-thread logs in DIR\n"
	"                             (rt-app's format; default: no logs)\n"
	"  --json                     one JSON object instead of the table\n"
	"  --output FILE, -o FILE     the report into FILE (written whole or not at all)\n"
	"  --no-progress              no progress lines on stderr\n";

static int die(const char *fmt, ...)
{
	va_list ap;

	fputs("schedlab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

struct cli {
	struct sl_args a;
	bool json, no_progress;
	const char *rtapp_logdir;
	char specs[SL_MAX_LIST][160]; /* rt-app workloads written by the shorthands */
	int nspecs;
	const char *output;
};

/*
 * Where a report goes: standard output, or FILE through the atomic writer (core/outfile.h), so
 * that a failed or interrupted run leaves the old FILE or none. Exit status 1 on an I/O error.
 */
struct dest {
	struct sl_outfile o;
	FILE *f;
};

static int dest_open(struct dest *d, const char *path)
{
	char err[4400];

	d->f = stdout;
	if (!path)
		return 0;
	if (sl_outfile_open(&d->o, path, err, sizeof(err))) {
		fprintf(stderr, "schedlab: --output %s\n", err);
		return 1;
	}
	d->f = d->o.f;
	return 0;
}

/* Commit the file when rc is 0, else drop it; returns rc, or 1 for an I/O error. */
static int dest_close(struct dest *d, int rc)
{
	char err[4400];

	if (d->f == stdout)
		return rc;
	if (rc) {
		sl_outfile_abort(&d->o);
		return rc;
	}
	if (sl_outfile_commit(&d->o, err, sizeof(err))) {
		fprintf(stderr, "schedlab: --output %s\n", err);
		return 1;
	}
	return 0;
}

static int add_list(const char **list, int *n, const char *v, const char *opt)
{
	if (*n == SL_MAX_LIST)
		return die("%s: at most %d times", opt, SL_MAX_LIST);
	list[(*n)++] = v;
	return 0;
}

/* Parses argv[first..]; returns 0 or an exit status. */
static int parse_options(int argc, char **argv, int first, struct cli *c, const char *allowed)
{
	memset(c, 0, sizeof(*c));
	for (int i = first; i < argc; i++) {
		char *arg = argv[i], *val = NULL, name[64];

		if (!strcmp(arg, "-o"))
			arg = "--output";
		if (strncmp(arg, "--", 2)) {
			size_t len = strlen(arg);

			/* `run F.json`: short for --workload rt-app:file=F.json */
			if (!strstr(allowed, "--workload ") || len < 5 ||
			    strcmp(arg + len - 5, ".json"))
				return die("unexpected argument '%s' (see schedlab --help)", arg);
			if (strchr(arg, ',') || c->nspecs == SL_MAX_LIST ||
			    snprintf(c->specs[c->nspecs], sizeof(c->specs[0]), "rt-app:file=%s",
				     arg) >= 96 + 12)
				return die("%s: an rt-app file name without ',' and of at most 95 "
					   "characters is expected",
					   arg);
			if (add_list(c->a.workloads, &c->a.nworkloads, c->specs[c->nspecs++],
				     "--workload"))
				return 2;
			continue;
		}
		char *eq = strchr(arg, '=');
		size_t n = eq ? (size_t)(eq - arg) : strlen(arg);

		if (n >= sizeof(name))
			return die("unknown option '%.40s...'", arg);
		memcpy(name, arg, n);
		name[n] = '\0';
		if (!strcmp(name, "--json") || !strcmp(name, "--no-progress")) {
			if (eq)
				return die("%s takes no value", name);
			if (!strstr(allowed, name))
				return die("%s does not apply to this command", name);
			if (!strcmp(name, "--json"))
				c->json = true;
			else
				c->no_progress = true;
			continue;
		}
		static const char *const with_value[] = {
			"--kernel",
			"--cpus",
			"--topology",
			"--duration",
			"--seed",
			"--sched-features",
			"--sysctl",
			"--at",
			"--workload",
			"--param",
			"--machine",
			"--cpuidle-governor",
			"--idle",
			"--pm-qos-latency-us",
			"--cpuidle-disable",
			"--cpuidle-param",
			"--irq-affinity",
			"--trace-out",
			"--rtapp-logdir",
			"--output",
		};
		bool known = false;

		for (size_t k = 0; k < SL_ARRAY_SIZE(with_value); k++)
			known |= !strcmp(name, with_value[k]);
		if (!known)
			return die("unknown option '%s' (see schedlab --help)", name);
		char probe[72];

		snprintf(probe, sizeof(probe), "%s ", name);
		if (!strstr(allowed, probe))
			return die("%s does not apply to this command", name);
		if (eq) {
			val = eq + 1;
		} else {
			if (i + 1 >= argc)
				return die("%s needs a value", name);
			val = argv[++i];
		}
		int rc = 0;

		if (!strcmp(name, "--kernel"))
			c->a.kernel = val;
		else if (!strcmp(name, "--cpus"))
			c->a.cpus = val;
		else if (!strcmp(name, "--topology"))
			c->a.topology = val;
		else if (!strcmp(name, "--duration"))
			c->a.duration = val;
		else if (!strcmp(name, "--seed"))
			c->a.seed = val;
		else if (!strcmp(name, "--sched-features"))
			rc = add_list(c->a.features, &c->a.nfeatures, val, name);
		else if (!strcmp(name, "--sysctl"))
			rc = add_list(c->a.sysctls, &c->a.nsysctls, val, name);
		else if (!strcmp(name, "--at"))
			rc = add_list(c->a.ats, &c->a.nats, val, name);
		else if (!strcmp(name, "--workload"))
			rc = add_list(c->a.workloads, &c->a.nworkloads, val, name);
		else if (!strcmp(name, "--param"))
			rc = add_list(c->a.params, &c->a.nparams, val, name);
		else if (!strcmp(name, "--machine"))
			c->a.machine = val;
		else if (!strcmp(name, "--cpuidle-governor"))
			c->a.governor = val;
		else if (!strcmp(name, "--idle"))
			c->a.idle = val;
		else if (!strcmp(name, "--pm-qos-latency-us"))
			c->a.pm_qos_us = val;
		else if (!strcmp(name, "--cpuidle-disable"))
			rc = add_list(c->a.cpuidle_disable, &c->a.ncpuidle_disable, val, name);
		else if (!strcmp(name, "--cpuidle-param"))
			rc = add_list(c->a.cpuidle_params, &c->a.ncpuidle_params, val, name);
		else if (!strcmp(name, "--irq-affinity"))
			c->a.irq_affinity = val;
		else if (!strcmp(name, "--trace-out"))
			c->a.trace_out = val;
		else if (!strcmp(name, "--rtapp-logdir"))
			c->rtapp_logdir = val;
		else if (!strcmp(name, "--output"))
			c->output = val;
		if (rc)
			return rc;
	}
	return 0;
}

#define RUN_OPTS                                                                                   \
	"--kernel --cpus --topology --duration --seed --sched-features --sysctl --at --workload "  \
	"--param --json --no-progress --machine --cpuidle-governor --idle --pm-qos-latency-us "    \
	"--cpuidle-disable --cpuidle-param --irq-affinity --trace-out --rtapp-logdir --output "

/* --rtapp-logdir DIR: every rt-app workload writes its logs there (its logdir key). */
static int rtapp_logdir(struct cli *c)
{
	if (!c->rtapp_logdir)
		return 0;
	if (!c->rtapp_logdir[0] || strchr(c->rtapp_logdir, ','))
		return die("--rtapp-logdir: a directory name without ',' is expected");
	for (int i = 0; i < c->a.nworkloads; i++) {
		const char *w = c->a.workloads[i];

		if (strncmp(w, "rt-app:", 7) && strcmp(w, "rt-app"))
			continue;
		if (c->nspecs == SL_MAX_LIST)
			return die("--rtapp-logdir: too many rt-app workloads");
		char *d = c->specs[c->nspecs++];
		int n = snprintf(d, sizeof(c->specs[0]), "%s%slogdir=%s", w,
				 strchr(w, ':') ? "," : ":", c->rtapp_logdir);

		if (n < 0 || (size_t)n >= sizeof(c->specs[0]))
			return die("--rtapp-logdir: the workload specification is too long");
		c->a.workloads[i] = d;
	}
	return 0;
}

/* rt-app's global "duration" ends the run, unless --duration says otherwise. */
static void rtapp_duration(struct sl_config *cfg)
{
	long d = -1;

	if (cfg->duration_set)
		return;
	for (int i = 0; i < cfg->nwl; i++)
		if (sl_rtapp_duration(&cfg->wl[i]) > d)
			d = sl_rtapp_duration(&cfg->wl[i]);
	if (d > 0) {
		cfg->duration = (u64)d * NSEC_PER_SEC;
		cfg->duration_set = true;
	}
}

static int run_and_report(struct sl_config *cfg, bool json, FILE *out)
{
	struct sl_run r;
	char err[4600];
	int rc = sl_run(cfg, &r, err, sizeof(err));

	if (rc == SL_RUN_EIO || rc == SL_RUN_EINTR) {
		fprintf(stderr, "schedlab: %s\n", err);
	} else if (rc) {
		rc = die("%s", err);
	} else if (json) {
		if (sl_report_json(out, cfg, &r))
			rc = die("out of memory writing JSON");
	} else {
		sl_report_table(out, cfg, &r);
	}
	sl_run_free(&r);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	struct cli c;
	struct sl_config cfg;
	char err[2048];
	int rc = parse_options(argc, argv, 2, &c, RUN_OPTS);

	if (rc)
		return rc;
	if (!c.a.nworkloads)
		return die("run: give at least one --workload (see schedlab workloads), or try "
			   "schedlab demo");
	rc = rtapp_logdir(&c);
	if (rc)
		return rc;
	if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
		return die("%s", err);
	rtapp_duration(&cfg);
	cfg.progress = !c.no_progress && isatty(STDERR_FILENO);
	struct dest d;

	rc = dest_open(&d, c.output);
	if (!rc) {
		sl_interrupt_install(true);
		rc = dest_close(&d, run_and_report(&cfg, c.json, d.f));
	}
	sl_config_free(&cfg);
	return rc;
}

/* The built-in demo: the 2009 desktop stall in miniature, run twice. */
static int cmd_demo(int argc, char **argv)
{
	struct cli c;
	int rc = parse_options(argc, argv, 2, &c, "--seed --json --no-progress ");

	sl_interrupt_install(true);
	const char *variants[2] = {"NEW_FAIR_SLEEPERS", "NO_NEW_FAIR_SLEEPERS"};

	if (rc)
		return rc;
	if (!c.json)
		printf("demo: a 2 ms-every-16 ms interactive task beside `nice -n 19 make -j8` on "
		       "2 "
		       "CPUs, Linux 2.6.31, 3 s\n\n");
	for (int v = 0; v < 2; v++) {
		struct sl_config cfg;
		char err[2048];

		c.a.kernel = "2.6.31";
		c.a.cpus = "2";
		c.a.duration = "3s";
		c.a.nworkloads = 2;
		c.a.workloads[0] = "make:jobs=8,nice=19,count=100000";
		c.a.workloads[1] = "periodic:run=2ms,period=16ms";
		c.a.nfeatures = 1;
		c.a.features[0] = variants[v];
		if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
			return die("%s", err);
		cfg.progress = !c.no_progress && isatty(STDERR_FILENO);
		if (!c.json)
			printf("== sched_features: %s ==\n", variants[v]);
		rc = run_and_report(&cfg, c.json, stdout);
		sl_config_free(&cfg);
		if (rc)
			return rc;
		if (!c.json)
			printf("\n");
	}
	return 0;
}

static int cmd_features(int argc, char **argv)
{
	struct cli c;
	struct sl_config cfg;
	char err[2048], buf[1024];
	int rc = parse_options(argc, argv, 2, &c, "--kernel --sched-features --sysctl ");

	if (rc)
		return rc;
	if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
		return die("%s", err);
	sl_feat_format(&cfg.rel->feats, cfg.features, buf, sizeof(buf));
	fputs(buf, stdout);
	return 0;
}

static int cmd_sysctl(int argc, char **argv)
{
	struct cli c;
	struct sl_config cfg;
	char err[2048];
	int rc = parse_options(argc, argv, 2, &c,
			       "--kernel --cpus --topology --sysctl --sched-features ");

	if (rc)
		return rc;
	if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
		return die("%s", err);
	for (int i = 0; i < sl_sysctl_count(cfg.rel); i++)
		printf("%s = %lld\n", sl_sysctl_nth(cfg.rel, i)->name,
		       (long long)sl_sysctl_read(cfg.rel, &cfg.tun, cfg.features,
						 sl_sysctl_nth(cfg.rel, i)));
	return 0;
}

static int cmd_workloads(void)
{
	for (int i = 0; i < sl_nworkloads; i++) {
		const struct sl_workload_ops *w = sl_workloads[i];

		printf("%s: %s\n", w->name, w->help);
		for (int k = 0; k < w->nkeys; k++)
			printf("  %-10s default %-20s %s\n", w->keys[k].name, w->keys[k].def,
			       w->keys[k].help);
		printf("  %-10s default %-20s %s\n", "start", "0s", "when the tasks are created");
	}
	printf("\ndurations: 10ms (fixed), uniform:MIN:MAX, exp:MEAN, normal:MEAN:SD\n");
	return 0;
}

/* Split a comma list into buf; returns the count, or -1 after the message (exit status 2). */
static int split_list(const char *s, char *buf, size_t len, const char **out, int max,
		      const char *opt)
{
	int n = 0;
	size_t l = strlen(s);

	if (l >= len) {
		die("%s: list too long", opt);
		return -1;
	}
	memcpy(buf, s, l + 1);
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max) {
			die("%s: at most %d entries", opt, max);
			return -1;
		}
		out[n++] = tok;
	}
	if (!n) {
		die("%s: empty list", opt);
		return -1;
	}
	return n;
}

static int cmd_repro(int argc, char **argv)
{
	struct sl_repro_opts o;
	static char dbuf[256], gbuf[512];
	const char *dl[16] = {NULL}, *output = NULL;
	char err[2048];
	int n;

	memset(&o, 0, sizeof(o));
	if (argc < 3 ||
	    (strcmp(argv[2], "fio") && strcmp(argv[2], "sleepers") && strcmp(argv[2], "fork")))
		return die("repro: give the experiment: fio, sleepers or fork");
	const char *exp = argv[2];
	static const int def_disks[] = {1, 2, 12};

	for (int i = 0; i < 3; i++)
		o.disks[o.ndisks++] = def_disks[i];
	o.governors[0] = "poll";
	o.governors[1] = "menu-2.6.31";
	o.governors[2] = "menu-tng";
	o.ngovernors = 3;
	for (int i = 3; i < argc; i++) {
		const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(arg, "--json")) {
			o.json = true;
			continue;
		}
		if (!strcmp(arg, "--no-progress"))
			continue;
		if (!strcmp(arg, "--output") || !strcmp(arg, "-o")) {
			if (!val)
				return die("%s needs a value", arg);
			output = argv[++i];
			continue;
		}
		if (strcmp(arg, "--disks") && strcmp(arg, "--governors") &&
		    strcmp(arg, "--duration") && strcmp(arg, "--seed") && strcmp(arg, "--kernel") &&
		    strcmp(arg, "--seeds"))
			return die("repro: unknown option '%s' (--disks, --governors, --duration, "
				   "--seeds, "
				   "--seed, --kernel, --json, --output)",
				   arg);
		/* an option the experiment does not read is refused, not silently ignored */
		char probe[24];

		snprintf(probe, sizeof(probe), "%s ", arg);
		if (!strstr(!strcmp(exp, "fio") ? "--disks --governors --duration --seed --kernel "
			    : !strcmp(exp, "sleepers") ? "--seeds --duration "
						       : "--seeds --kernel ",
			    probe))
			return die("repro %s: %s does not apply to this experiment", exp, arg);
		if (!val)
			return die("%s needs a value", arg);
		i++;
		if (!strcmp(arg, "--disks")) {
			n = split_list(val, dbuf, sizeof(dbuf), dl, 16, arg);
			if (n < 0)
				return 2;
			o.ndisks = n;
			for (int k = 0; k < n; k++) {
				char *end;
				const char *w = dl[k] ? dl[k] : "";
				long d = strtol(w, &end, 10);

				if (*end || d < 1 || d > 64)
					return die("--disks: '%s' is not a disk count 1..64", w);
				o.disks[k] = (int)d;
			}
		} else if (!strcmp(arg, "--governors")) {
			n = split_list(val, gbuf, sizeof(gbuf), o.governors, 16, arg);
			if (n < 0)
				return 2;
			o.ngovernors = n;
			for (int k = 0; k < o.ngovernors; k++)
				if (!sl_cpuidle_find_governor(o.governors[k]))
					return die(
						"--governors: unknown governor '%s' (see schedlab "
						"governors)",
						o.governors[k]);
		} else if (!strcmp(arg, "--duration")) {
			o.duration = val;
		} else if (!strcmp(arg, "--seed")) {
			o.seed = val;
		} else if (!strcmp(arg, "--seeds")) {
			char *end;
			long n = strtol(val, &end, 10);

			if (*end || n < 1 || n > 16)
				return die("--seeds: '%s' is not a count 1..16", val);
			o.nseeds = (int)n;
		} else {
			o.kernel = val;
		}
	}
	struct dest d;

	if (dest_open(&d, output))
		return 1;
	int rc = !strcmp(exp, "fio")	    ? sl_repro_fio(&o, d.f, err, sizeof(err))
		 : !strcmp(exp, "sleepers") ? sl_repro_sleepers(&o, d.f, err, sizeof(err))
					    : sl_repro_fork(&o, d.f, err, sizeof(err));

	return dest_close(&d, rc ? die("%s", err) : 0);
}

static int cmd_trace_stats(int argc, char **argv)
{
	const char *path = NULL, *output = NULL;
	bool json = false, lenient = false;
	char err[2048];

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--lenient"))
			lenient = true;
		else if (!strcmp(argv[i], "--output") || !strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				return die("%s needs a value", argv[i]);
			output = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1])
			return die("trace-stats: unknown option '%s' (--json, --lenient, --output "
				   "FILE)",
				   argv[i]);
		else if (path)
			return die("trace-stats: one trace at a time ('%s' and '%s')", path,
				   argv[i]);
		else
			path = argv[i];
	}
	if (!path)
		return die("trace-stats: give a trace file (text, .xz or .gz), or - for stdin");
	struct dest d;

	if (dest_open(&d, output))
		return 1;
	int rc = sl_trace_stats(path, lenient, json, d.f, err, sizeof(err)) ? die("%s", err) : 0;

	return dest_close(&d, rc);
}

static int cmd_replay_idle(int argc, char **argv)
{
	const char *path = NULL, *machine = NULL, *govs[16], *output = NULL;
	static char gbuf[512];
	int ngovs = 0;
	bool json = false;
	char err[2048];

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--output") || !strcmp(argv[i], "-o")) {
			if (i + 1 >= argc)
				return die("%s needs a value", argv[i]);
			output = argv[++i];
		} else if (!strcmp(argv[i], "--machine") ||
			   !strcmp(argv[i], "--cpuidle-governor")) {
			if (i + 1 >= argc)
				return die("%s needs a value", argv[i]);
			if (!strcmp(argv[i], "--machine")) {
				machine = argv[++i];
			} else {
				ngovs = split_list(argv[++i], gbuf, sizeof(gbuf), govs, 16,
						   "--cpuidle-governor");
				if (ngovs < 0)
					return 2;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return die(
				"replay-idle: unknown option '%s' (--machine, --cpuidle-governor "
				"LIST, --json, --output FILE)",
				argv[i]);
		} else if (path) {
			return die("replay-idle: one trace at a time");
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return die("replay-idle: give a trace file (text, .xz or .gz), or - for stdin");
	struct dest d;

	if (dest_open(&d, output))
		return 1;
	int rc = sl_replay_idle(path, machine, govs, ngovs, json, d.f, err, sizeof(err))
			 ? die("%s", err)
			 : 0;

	return dest_close(&d, rc);
}

static int cmd_record(int argc, char **argv)
{
	const char *out = NULL, *events[64];
	static char ebuf[2048];
	int nevents = 0, i;
	char err[2048];

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--events")) && i + 1 < argc) {
			if (argv[i][1] == 'o') {
				out = argv[++i];
			} else {
				nevents = split_list(argv[++i], ebuf, sizeof(ebuf), events, 64,
						     "--events");
				if (nevents < 0)
					return 2;
			}
			continue;
		}
		return die("record: unexpected '%s' (record -o FILE [--events LIST] -- CMD ...)",
			   argv[i]);
	}
	if (!out)
		return die("record: give -o FILE");
	if (i >= argc)
		return die("record: give a command after --");
	int rc = sl_record(out, events, nevents, argv + i, err, sizeof(err));

	if (rc < 0)
		return die("%s", err);
	if (rc > 0) {
		fprintf(stderr, "schedlab: %s\n", err);
		return 1;
	}
	return 0;
}

static int cmd_machines(void)
{
	for (int i = 0; i < sl_nidle_profiles; i++)
		printf("%-16s %s\n", sl_idle_profiles[i]->name, sl_idle_profiles[i]->help);
	return 0;
}

static int cmd_governors(void)
{
	for (int i = 0; i < sl_cpuidle_ngovernors; i++)
		printf("%-12s rating %2d  %s\n", sl_cpuidle_governors[i]->name,
		       sl_cpuidle_governors[i]->rating, sl_cpuidle_governors[i]->help);
	return 0;
}

static int cmd_params(void)
{
	for (int i = 0; i < sl_param_count; i++) {
		const struct sl_param_desc *d = &sl_param_table[i];

		if (d->is_count)
			printf("%-15s %10llu     %s\n", d->name, (unsigned long long)d->def,
			       d->why);
		else
			printf("%-15s %10lluns   %s\n", d->name, (unsigned long long)d->def,
			       d->why);
	}
	return 0;
}

#define SWEEP_OPTS                                                                                 \
	"--kernel --cpus --topology --duration --seed --sched-features --sysctl --at --workload "  \
	"--param --no-progress --machine --cpuidle-governor --idle --pm-qos-latency-us "           \
	"--cpuidle-disable --cpuidle-param --irq-affinity "

static int cmd_sweep(int argc, char **argv)
{
	struct sl_sweep sw;
	struct cli c;
	char err[4096];
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	int nrest = 2, rc;

	if (!rest)
		return die("out of memory");
	memset(&sw, 0, sizeof(sw));
	rest[0] = argv[0];
	rest[1] = argv[1];
	for (int i = 2; i < argc; i++) {
		int t = sl_sweep_option(&sw, argc, argv, &i, err, sizeof(err));

		if (t < 0) {
			free(rest);
			sl_sweep_free(&sw);
			return die("%s", err);
		}
		if (!t)
			rest[nrest++] = argv[i];
	}
	rc = parse_options(nrest, rest, 2, &c, SWEEP_OPTS);
	free(rest);
	if (rc) {
		sl_sweep_free(&sw);
		return rc;
	}
	sw.base = c.a;
	sw.progress = !c.no_progress && isatty(STDERR_FILENO);
	if (sl_sweep_prepare(&sw, err, sizeof(err))) {
		sl_sweep_free(&sw);
		return die("%s", err);
	}
#ifdef SCHEDLAB_HAVE_MPI
	if (sl_sweep_mpi_launched())
		rc = sl_sweep_mpi(&sw);
	else
#endif
		rc = sl_sweep_local(&sw);
	sl_sweep_free(&sw);
	return rc;
}

static int cmd_sweep_report(int argc, char **argv, bool merge)
{
	struct sl_report_opts o;
	const char *output = NULL;

	memset(&o, 0, sizeof(o));
	o.top = 10;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json") && !merge) {
			o.json = true;
		} else if ((!strcmp(a, "--output") || !strcmp(a, "-o")) && !merge) {
			if (i + 1 >= argc)
				return die("%s needs a value", a);
			output = argv[++i];
		} else if ((!strcmp(a, "--plot") && !merge) || (!strcmp(a, "--out") && merge) ||
			   (!strcmp(a, "--metric") && !merge) || (!strcmp(a, "--top") && !merge)) {
			if (i + 1 >= argc)
				return die("%s needs a value", a);
			const char *v = argv[++i];

			if (!strcmp(a, "--plot")) {
				o.plot_dir = v;
			} else if (!strcmp(a, "--out")) {
				o.merge_out = v;
			} else if (!strcmp(a, "--metric")) {
				if (o.nmetrics == SL_MAX_LIST)
					return die("--metric: at most %d", SL_MAX_LIST);
				o.metrics[o.nmetrics++] = v;
			} else {
				char *end;
				long n = strtol(v, &end, 10);

				if (*end || n < 1 || n > 1000)
					return die("--top wants a number from 1 to 1000, got '%s'",
						   v);
				o.top = (int)n;
			}
		} else if (!strncmp(a, "--", 2)) {
			return die("%s: unknown option '%s'", argv[1], a);
		} else {
			if (o.nfiles == SL_MAX_LIST)
				return die("at most %d files", SL_MAX_LIST);
			o.files[o.nfiles++] = a;
		}
	}
	if (!o.nfiles)
		return die("%s: give the sweep's --out file(s)", argv[1]);
	if (merge && !o.merge_out)
		return die("sweep-merge: give --out FILE");
	struct dest d;

	if (dest_open(&d, output))
		return 1;
	bool done = false;
	int rc;

	o.out = d.f;
	o.report_done = &done;
	rc = sl_sweep_report(&o);
	/* a plot that failed (no gnuplot, a full disk) does not take the complete report with it */
	if (done) {
		int w = dest_close(&d, 0);

		return rc ? rc : w;
	}
	return dest_close(&d, rc);
}

static int dispatch(int argc, char **argv);

/*
 * Every command's standard output is checked once it is complete: `> /dev/full` is an error with
 * exit status 1, not a silent success. SIGINT/SIGTERM remove any temporary output and exit 130
 * (run and demo stop their simulation first and say when; the sweep finishes its runs in flight).
 */
int main(int argc, char **argv)
{
	sl_interrupt_install(false);
	int rc = dispatch(argc, argv);

	if (sl_stdout_close())
		return rc ? rc : 1;
	return rc;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return die("no command given\n%s", usage);
	const char *cmd = argv[1];

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version")) {
		printf("schedlab %s\n", SCHEDLAB_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if (!strcmp(cmd, "demo"))
		return cmd_demo(argc, argv);
	if (!strcmp(cmd, "sweep"))
		return cmd_sweep(argc, argv);
	if (!strcmp(cmd, "sweep-report"))
		return cmd_sweep_report(argc, argv, false);
	if (!strcmp(cmd, "sweep-merge"))
		return cmd_sweep_report(argc, argv, true);
	if (!strcmp(cmd, "repro"))
		return cmd_repro(argc, argv);
	if (!strcmp(cmd, "trace-stats"))
		return cmd_trace_stats(argc, argv);
	if (!strcmp(cmd, "replay-idle"))
		return cmd_replay_idle(argc, argv);
	if (!strcmp(cmd, "record"))
		return cmd_record(argc, argv);
	if (!strcmp(cmd, "validate"))
		return sl_cli_validate(argc, argv);
	if (!strcmp(cmd, "calibrate"))
		return sl_cli_calibrate(argc, argv);
	if (!strcmp(cmd, "features"))
		return cmd_features(argc, argv);
	if (!strcmp(cmd, "sysctl"))
		return cmd_sysctl(argc, argv);
	if (argc > 2 && (!strcmp(cmd, "workloads") || !strcmp(cmd, "params") ||
			 !strcmp(cmd, "machines") || !strcmp(cmd, "governors")))
		return die("%s takes no options", cmd);
	if (!strcmp(cmd, "workloads"))
		return cmd_workloads();
	if (!strcmp(cmd, "params"))
		return cmd_params();
	if (!strcmp(cmd, "machines"))
		return cmd_machines();
	if (!strcmp(cmd, "governors"))
		return cmd_governors();
	return die("unknown command '%s' (commands: run, sweep, sweep-report, sweep-merge, demo, "
		   "features, sysctl, workloads, "
		   "params, machines, governors)",
		   cmd);
}
