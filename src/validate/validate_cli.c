/*
 * The command lines of `validate` and `calibrate`, kept beside their code so main.c only
 * dispatches to them.
 */
#include "validate/validate_cli.h"
#include "core/escape.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/outfile.h"
#include "machine/params.h"
#include "sched/plugin/plugin.h"
#include "validate/calibrate.h"
#include "validate/wake_idle.h"
#include "validate/wake_preempt_rec.h"
#include "validate/validate.h"

static const char validate_usage[] =
	"usage: schedlab validate F.json [--real DIR | --out DIR] [--calibration DIR]\n"
	"                         [--kernel V | --policy PATH.so] [--machine M]\n"
	"                         [--cpuidle-governor G] [--seed N]\n"
	"                         [--duration D] [--json] [-o FILE]\n"
	"  Runs the rt-app file for real (root, rt-app, tracefs: schedlab record) keeping "
	"rt-app's\n"
	"  logs, the trace and machine.conf in --out DIR (default: a new /tmp directory), or "
	"takes\n"
	"  such a directory with --real DIR; simulates the file on a model of that machine (its\n"
	"  CPUs, idle states, the kernel's scheduler and cpuidle governor, and the parameters of\n"
	"  --calibration DIR's machine.conf, from `schedlab calibrate`); prints both side by "
	"side.\n";

static int usage_err(const char *fmt, const char *arg)
{
	fputs("schedlab: validate: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

int sl_cli_validate(int argc, char **argv)
{
	struct sl_validate_opts o = {0};
	const char *output = NULL, *policy = NULL;
	struct sl_outfile of;
	FILE *out = stdout;
	char err[4600];

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = NULL;

		if (!strcmp(a, "--help")) {
			fputs(validate_usage, stdout);
			return 0;
		}
		if (!strcmp(a, "--json")) {
			o.json_out = true;
			continue;
		}
		if (!strcmp(a, "--real"))
			slot = &o.real_dir;
		else if (!strcmp(a, "--out"))
			slot = &o.out_dir;
		else if (!strcmp(a, "--sim-out"))
			slot = &o.sim_out;
		else if (!strcmp(a, "--calibration"))
			slot = &o.calibration;
		else if (!strcmp(a, "--kernel"))
			slot = &o.kernel;
		else if (!strcmp(a, "--policy"))
			slot = &policy;
		else if (!strcmp(a, "--machine"))
			slot = &o.machine;
		else if (!strcmp(a, "--cpuidle-governor"))
			slot = &o.governor;
		else if (!strcmp(a, "--seed"))
			slot = &o.seed;
		else if (!strcmp(a, "--duration"))
			slot = &o.duration;
		else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
			slot = &output;
		if (slot) {
			if (i + 1 >= argc)
				return usage_err("%s needs a value", a);
			*slot = argv[++i];
			continue;
		}
		if (a[0] == '-')
			return usage_err("unknown option '%s' (see schedlab validate --help)", a);
		if (o.json)
			return usage_err("one rt-app file at a time (also '%s')", a);
		o.json = a;
	}
	if (!o.json)
		return usage_err("%s", "give an rt-app JSON file (see schedlab validate --help)");
	/* --policy: the plug-in simulated in place of the machine's kernel (unless --kernel names
	 * another release); refused here, before anything runs, if it does not load */
	if (policy) {
		const struct sl_release *rel = sl_plugin_load(policy, err, sizeof(err));

		if (!rel) {
			fprintf(stderr, "schedlab: validate: %s\n", err);
			return 2;
		}
		if (!o.kernel)
			o.kernel = rel->name;
	}
	if (o.real_dir && o.out_dir)
		return usage_err("%s",
				 "--real takes an earlier run; --out keeps a new one: not both");
	/* -o FILE: through the atomic writer, so a failed run leaves the old FILE or none */
	if (output) {
		if (sl_outfile_open(&of, output, err, sizeof(err))) {
			fprintf(stderr, "schedlab: --output %s\n", err);
			return 1;
		}
		out = of.f;
	}
	int rc = sl_validate(&o, out, err, sizeof(err));

	if (rc) {
		if (output)
			sl_outfile_abort(&of);
		sl_say(stderr, err);
		return rc == SL_VALIDATE_EOUTPUT ? 1 : 2;
	}
	if (output && sl_outfile_commit(&of, err, sizeof(err))) {
		fprintf(stderr, "schedlab: --output %s\n", err);
		return 1;
	}
	return 0;
}

/* one row's table: its bins, then its machine.conf lines (the mean at 1 ms less known) */
static void recordings_row(const struct sl_wake_idle_row *w, const char *what, const char *name,
			   u64 known, int ntraces)
{
	printf("# calibrate --recordings: %llu %s in %d trace(s);\n# idle length (ms, bin median), "
	       "wake-up to switch (us, median), "
	       "wake-ups:\n",
	       (unsigned long long)w->n, what, ntraces);
	for (int b = 0; b < SL_WI_BINS; b++)
		if (w->bin_n[b] >= SL_WI_MIN)
			printf("#   %10.3f %8.1f %8llu\n", pow(10, w->bin_idle[b]),
			       w->bin_lat[b] / 1e3, (unsigned long long)w->bin_n[b]);
	if (!w->ok) {
		printf("# fewer than two idle lengths with %d or more: no %s lines\n", SL_WI_MIN,
		       name);
		return;
	}
	if (known)
		printf("# less %llu ns the model charges already (--remote-known: the IPI and the "
		       "idle state's exit latency)\n",
		       (unsigned long long)known);
	printf("param %s=%lluns\nparam %s_sd=%lluns\nparam %s_decade=%lluns\n", name,
	       (unsigned long long)(w->at_1ms > known ? w->at_1ms - known : 0), name,
	       (unsigned long long)w->sd, name, (unsigned long long)w->per_decade);
	if (w->n_direct < SL_WI_TAIL_MIN) {
		printf("# %llu wake-ups ran first on their CPU, fewer than %d: no %s_tail lines\n",
		       (unsigned long long)w->n_direct, SL_WI_TAIL_MIN, name);
		return;
	}
	if (w->n > w->n_direct)
		printf("# %llu ran second, behind another woken task (median %.1f us): left out of "
		       "the tail\n",
		       (unsigned long long)(w->n - w->n_direct), w->second_p50 / 1e3);
	printf("# the tail: %llu wake-ups ran first on their CPU; above the line their 90th, 95th, "
	       "97.5th, 99th percentiles %.1f %.1f %.1f %.1f us; of 1000, %llu wait an extra "
	       "exponential delay of mean %.1f us\n",
	       (unsigned long long)w->n_direct, w->tail_q[0] / 1e3, w->tail_q[1] / 1e3,
	       w->tail_q[2] / 1e3, w->tail_q[3] / 1e3, (unsigned long long)w->tail,
	       (double)w->tail_mean / 1e3);
	printf("param %s_tail=%llu\nparam %s_tail_mean=%lluns\n", name, (unsigned long long)w->tail,
	       name, (unsigned long long)w->tail_mean);
}

static void recordings_json_row(const struct sl_wake_idle_row *w, const char *name, u64 known)
{
	const char *sep = "";

	printf("  \"%s\": {\"wakeups\": %llu, \"bins\": [", name, (unsigned long long)w->n);
	for (int b = 0; b < SL_WI_BINS; b++)
		if (w->bin_n[b] >= SL_WI_MIN) {
			printf("%s{\"idle_ms\": %.3f, \"latency_us\": %.1f, \"wakeups\": %llu}",
			       sep, pow(10, w->bin_idle[b]), w->bin_lat[b] / 1e3,
			       (unsigned long long)w->bin_n[b]);
			sep = ", ";
		}
	printf("]");
	if (w->ok)
		printf(", \"known_ns\": %llu, \"%s_ns\": %llu, \"%s_sd_ns\": %llu, "
		       "\"%s_decade_ns\": %llu",
		       (unsigned long long)known, name,
		       (unsigned long long)(w->at_1ms > known ? w->at_1ms - known : 0), name,
		       (unsigned long long)w->sd, name, (unsigned long long)w->per_decade);
	if (w->ok && w->n_direct >= SL_WI_TAIL_MIN)
		printf(", \"ran_first\": %llu, \"%s_tail\": %llu, \"%s_tail_mean_ns\": %llu",
		       (unsigned long long)w->n_direct, name, (unsigned long long)w->tail, name,
		       (unsigned long long)w->tail_mean);
	printf("}");
}

/* the wake-up preemption of a waker (wake_preempt_rec.c) and its machine.conf line */
static void preempt_row(const struct sl_wake_preempt *wp, int ntraces)
{
	printf("# calibrate --recordings: %llu wake-ups by a running task, in its first %llu us, "
	       "of "
	       "a task asleep %llu us or more onto the waker's CPU in %d trace(s); %llu set "
	       "need_resched (the wakee ran first)\n",
	       (unsigned long long)wp->n, SL_WP_SLICE_NS / 1000, SL_WP_SLEPT_NS / 1000, ntraces,
	       (unsigned long long)wp->resched);
	if (wp->unflagged)
		printf("# %llu sched_wakeup line(s) without a flags column not counted\n",
		       (unsigned long long)wp->unflagged);
	if (wp->n < SL_WP_MIN)
		printf("# fewer than %d: no wake_preempt line\n", SL_WP_MIN);
	else
		printf("param wake_preempt=%llu\n", (unsigned long long)wp->per1000);
}

/*
 * calibrate --recordings [--json] [--remote-known NS] DIR...: the idle-length dependence of a
 * wake-up of an idle CPU, by its own timer and from another CPU (wake_idle.c), in recordings
 * (`validate --out` directories, their real.trace.xz; or trace files), printed as machine.conf
 * lines to add to a calibration. The local row is the whole path as traced (as issue 28 chose
 * it); the remote one less NS, what the model charges already on that path.
 */
static int calibrate_recordings(int argc, char **argv)
{
	/* at most argc - 2 directories: calibrate's arguments less --recordings */
	const char **paths = calloc((size_t)argc, sizeof(*paths));
	char(*buf)[1024] = calloc((size_t)argc, sizeof(*buf));
	char **dirs = calloc((size_t)argc, sizeof(*dirs));
	struct sl_wake_idle w;
	struct sl_wake_preempt wp;
	bool json = false;
	u64 known = 0;
	char err[1024];
	int rc = 0, n = 0;

	if (!paths || !buf || !dirs) {
		fprintf(stderr, "schedlab: calibrate: out of memory\n");
		free(paths);
		free(buf);
		free(dirs);
		return 1;
	}
	/* the options before and after the directories alike (`--recordings D --json` read
	 * --json as a directory, and `--json --recordings D` was refused) */
	for (int i = 2; i < argc; i++) {
		char *end;
		const char *a = argv[i];

		if (!strcmp(a, "--recordings"))
			continue;
		if (!strcmp(a, "--json")) {
			json = true;
			continue;
		}
		if (a[0] != '-') {
			dirs[n++] = argv[i];
			continue;
		}
		bool val = i + 1 < argc && !strcmp(a, "--remote-known");

		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			fprintf(stderr,
				"schedlab: calibrate --recordings: %s does not apply (it "
				"measures nothing and prints the machine.conf lines)\n",
				a);
			rc = 2;
		} else if (!val || !argv[i + 1][0] ||
			   (errno = 0, known = strtoull(argv[i + 1], &end, 10),
			    *end || errno || argv[i + 1][0] == '-')) {
			fprintf(stderr,
				"schedlab: calibrate --recordings: unexpected '%s%s%s' "
				"(--json, --remote-known NS: ns as a whole number)\n",
				a, val ? " " : "", val ? argv[i + 1] : "");
			rc = 2;
		}
		if (rc)
			goto out;
		i++;
	}
	if (n <= 0) {
		fprintf(stderr, "schedlab: calibrate: --recordings: give one or more recorded "
				"directories (validate --out)\n");
		rc = 2;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		struct stat st;

		if (!stat(dirs[i], &st) && S_ISDIR(st.st_mode))
			snprintf(buf[i], sizeof(buf[i]), "%s/real.trace.xz", dirs[i]);
		else
			snprintf(buf[i], sizeof(buf[i]), "%s", dirs[i]);
		paths[i] = buf[i];
	}
	if (sl_wake_idle_measure(paths, n, &w, err, sizeof(err)) ||
	    sl_wake_preempt_measure(paths, n, &wp, err, sizeof(err))) {
		fprintf(stderr, "schedlab: calibrate --recordings: %s\n", err);
		rc = 2;
	} else if (json) {
		printf("{\"traces\": %d,\n", n);
		recordings_json_row(&w.local, "wake_local", 0);
		printf(",\n");
		recordings_json_row(&w.remote, "wake_remote", known);
		printf(",\n  \"wake_preempt\": {\"wakeups\": %llu, \"need_resched\": %llu",
		       (unsigned long long)wp.n, (unsigned long long)wp.resched);
		if (wp.n >= SL_WP_MIN)
			printf(", \"wake_preempt\": %llu", (unsigned long long)wp.per1000);
		printf("}\n}\n");
	} else {
		recordings_row(&w.local, "timer wake-ups of an idle CPU", "wake_local", 0, n);
		recordings_row(&w.remote, "wake-ups of an idle CPU from another CPU", "wake_remote",
			       known, n);
		preempt_row(&wp, n);
	}
out:
	free(paths);
	free(buf);
	free(dirs);
	return rc;
}

int sl_cli_calibrate(int argc, char **argv)
{
	struct sl_calibration c;
	const char *dir = NULL;
	char err[1024];

	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--recordings"))
			return calibrate_recordings(argc, argv);
	for (int i = 2; i < argc; i++) {
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			/* the measuring's result is DIR/machine.conf; its table is a summary */
			fprintf(stderr,
				"schedlab: calibrate: --json applies with --recordings only "
				"(the measuring writes DIR/machine.conf)\n");
			return 2;
		} else {
			fprintf(stderr, "schedlab: calibrate: unexpected '%s' (calibrate -o DIR)\n",
				argv[i]);
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "schedlab: calibrate: give -o DIR for machine.conf and "
				"machine.profile\n");
		return 2;
	}
	/* before the 30 s of measuring: an output that cannot be written is exit status 1 */
	int oe = sl_outfile_mkdir(dir, 0755);

	if (oe) {
		fprintf(stderr, "schedlab: calibrate: -o %s: %s\n", dir, strerror(oe));
		return 1;
	}
	fprintf(stderr, "schedlab: calibrate: measuring (about 30 s)...\n");
	{
		/* the machine may be shared: the load average says how quiet it was */
		FILE *la = fopen("/proc/loadavg", "r");
		char l[128] = "";

		if (la && fgets(l, sizeof(l), la))
			printf("load average           %s", l);
		if (la)
			fclose(la);
	}
	if (sl_calibrate_measure(&c, 9, err, sizeof(err))) {
		sl_say(stderr, err);
		return 1;
	}
	if (sl_calibrate_wake_path(&c, err, sizeof(err)))
		fprintf(stderr, "schedlab: %s: the wake-up path not measured (wake_* params off)\n",
			err);
	u64 ipi = sl_calibrate_model_ipi();

	sl_calibrate_derive(&c, ipi);
	printf("same-CPU hand-off      %8llu ns  -> param ctx_switch\n"
	       "cross-CPU hand-off     %8llu ns\n"
	       "halted vCPU wake-up    %8llu ns  -> HLT exit latency (cross - same - ipi %llu ns)\n"
	       "1 ms sleep late by     %8llu ns\n"
	       "timer slack            %8llu ns  -> param timer_slack (late - exit - switch)\n",
	       (unsigned long long)c.same_cpu_ns, (unsigned long long)c.cross_cpu_ns,
	       (unsigned long long)c.exit_latency_ns, (unsigned long long)ipi,
	       (unsigned long long)c.oversleep_ns, (unsigned long long)c.timer_slack_ns);
	if (c.bare_switch_ns)
		printf("switch alone           %8llu ns  -> param ctx_switch_bare (a sched_yield "
		       "switch - a lone sched_yield; a trace replay's switch price)\n",
		       (unsigned long long)c.bare_switch_ns);
	else
		printf("switch alone                  -     (sched_yield did not switch: "
		       "ctx_switch_bare not written)\n");
	printf("256 KB refill          %8llu ns  -> param cache_refill (its walk after the other "
	       "thread's - warm)\n"
	       "256 KB after a move    %8llu ns  -> param %s (CPUs 0 and 1; - warm)\n",
	       (unsigned long long)c.cache_refill_ns, (unsigned long long)c.migrate_ns,
	       sl_cal_migrate_param[c.migrate_level]);
	if (sl_calibrate_background(&c, err, sizeof(err)))
		fprintf(stderr, "schedlab: %s (background_* not written)\n", err);
	else {
		printf("background             %5llu wake-ups/s per CPU, %llu ns each -> "
		       "background_rate, background_run\n",
		       (unsigned long long)c.bg_rate, (unsigned long long)c.bg_run_ns);
		/* docs/validate.md, issue 28 step 14: the split, not written (not adopted) */
		if (c.bg_split_measured)
			printf("  split: interrupt-only idle exits and task switch-ins (not "
			       "written):\n"
			       "  param irq_bg_rate=%llu\n  param irq_bg_run=%lluns\n"
			       "  background_rate %llu\n  background_run %lluns\n",
			       (unsigned long long)((c.bg_split.irq_rate_milli + 500) / 1000),
			       (unsigned long long)c.bg_split.irq_run_ns,
			       (unsigned long long)((c.bg_split.task_rate_milli + 500) / 1000),
			       (unsigned long long)c.bg_split.task_run_ns);
	}
	if (sl_calibrate_placement(&c, err, sizeof(err))) {
		sl_say(stderr, err);
		return 1;
	}
	printf("woken beside a busy CPU %5llu of 1000 stayed on it -> param vcpu_pack (0: "
	       "mainline, not written under 10)\n",
	       (unsigned long long)c.placement_busy);
	if (sl_calibrate_waker_placement(&c, err, sizeof(err))) {
		fprintf(stderr, "schedlab: %s\n", err);
		return 1;
	}
	printf("woken by a task, prev idle: on the waker's CPU %llu of 1000 (waker blocks; %llu "
	       "quiet trials), %llu (runs on; %llu)\n"
	       "woken by a task, prev the waker's: stayed %llu of 1000 (%llu quiet trials; "
	       "compare vcpu_pack)\n",
	       (unsigned long long)c.waker_on[0], (unsigned long long)c.waker_quiet[0],
	       (unsigned long long)c.waker_on[1], (unsigned long long)c.waker_quiet[1],
	       (unsigned long long)c.waker_on[2], (unsigned long long)c.waker_quiet[2]);
	if (sl_calibrate_free_pingpong(&c, err, sizeof(err)))
		fprintf(stderr, "schedlab: %s\n", err);
	else
		printf("free ping-pong, quiet: prev the waker's CPU stayed %llu of 1000 (%llu "
		       "hand-offs) -> param vcpu_pack_waker %llu (0: mainline, not written under "
		       "10 "
		       "or 100 hand-offs); prev the other CPU, on the waker's %llu of 1000 "
		       "(%llu)\n",
		       (unsigned long long)c.pp_stayed, (unsigned long long)c.pp_quiet_shared,
		       (unsigned long long)c.placement_waker, (unsigned long long)c.pp_joined,
		       (unsigned long long)c.pp_quiet_apart);
	if (c.pp_rounds_remote || c.pp_rounds_local)
		printf("free ping-pong rounds, the writer's CPU time: woke the other CPU %8llu ns "
		       "(%llu), this CPU %llu ns (%llu): difference %llu ns (wake_ipi, not "
		       "written: tools/wake_ipi.py reads it in traced runs); -> param "
		       "vcpu_pack_other %llu\n",
		       (unsigned long long)c.pp_round_remote_ns,
		       (unsigned long long)c.pp_rounds_remote,
		       (unsigned long long)c.pp_round_local_ns,
		       (unsigned long long)c.pp_rounds_local, (unsigned long long)c.wake_ipi_ns,
		       (unsigned long long)c.placement_join);
	if (sl_calibrate_rtapp(&c, err, sizeof(err)))
		fprintf(stderr, "schedlab: %s: rt-app's loop not calibrated (rtapp_* params off)\n",
			err);
	else
		printf("rt-app's ns per loop   %llu %llu %llu (3 launches) -> param rtapp_calib\n"
		       "100 us run takes       %8llu ns\n"
		       "2000 us run takes      %8llu ns\n"
		       "1000 loops             %8llu ns  -> param rtapp_kloop (sd %llu ns: "
		       "rtapp_kloop_sd)\n"
		       "cold run cost          %8llu ns  -> param rtapp_cold\n",
		       (unsigned long long)c.rtapp_pload[0], (unsigned long long)c.rtapp_pload[1],
		       (unsigned long long)c.rtapp_pload[2], (unsigned long long)c.rtapp_short_ns,
		       (unsigned long long)c.rtapp_long_ns, (unsigned long long)c.rtapp_kloop_ns,
		       (unsigned long long)c.rtapp_kloop_sd_ns,
		       (unsigned long long)c.rtapp_cold_ns);
	if (c.wake_measured)
		printf("idle CPU, own timer    %8llu ns p50, sd %llu ns -> params wake_local, "
		       "wake_local_sd\n"
		       "idle CPU, from other   %8llu ns p50, sd %llu ns -> params wake_remote "
		       "(p50 - ipi - exit: %llu ns), wake_remote_sd\n",
		       (unsigned long long)c.wake_local_p50, (unsigned long long)c.wake_local_sd,
		       (unsigned long long)c.wake_remote_p50, (unsigned long long)c.wake_remote_sd,
		       (unsigned long long)c.wake_remote_ns);
	if (sl_calibrate_write(dir, &c, err, sizeof(err))) {
		sl_say(stderr, err);
		return 1;
	}
	printf("wrote %s/machine.conf and %s/machine.profile\n", dir, dir);
	return 0;
}
