/*
 * The commands and options of schedlab, once (cli_table.h): the parser, the help, the man page
 * and the shell completions are made from these rows.
 */
#include "cli/cli_table.h"

#include <string.h>

#define FILE_ SL_COMPLETE_FILE
#define DIR_  SL_COMPLETE_DIR

const struct sl_cli_opt sl_cli_opts[] = {
	/* the simulated machine and kernel */
	{"kernel", "--kernel", NULL, "V", false,
	 "The release whose scheduler is simulated: 2.6.31 (default), 2.6.32 (CFS), 2.6.31-bfs "
	 "(BFS 0.30x) or 6.18 (EEVDF, HZ=250); it sets the flags, the sysctl defaults and the "
	 "rules.",
	 SL_COMPLETE_KERNEL, NULL},
	{"policy", "--policy", NULL, "PATH.so", true,
	 "A scheduling policy plug-in built against include/schedlab/policy.h "
	 "(docs/policy-api.md), run as the fair class in place of --kernel's; with --kernel "
	 "too, its name is one more value --kernel takes. `schedlab features --policy PATH.so` "
	 "and `schedlab sysctl --policy PATH.so` list its own flags and tunables.",
	 FILE_, NULL},
	{"cpus", "--cpus", NULL, "N", false, "CPUs, one socket of N cores (default 2).", 0, NULL},
	{"topology", "--topology", NULL, "SxCxT", false,
	 "Sockets x cores per socket x SMT threads per core, e.g. 2x4x2.", 0, NULL},
	{"workload", "--workload", NULL, "NAME:k=v,...", true,
	 "A workload group (repeatable); `schedlab workloads` lists them with their keys. An "
	 "argument ending in .json is short for --workload rt-app:file=F.json.",
	 SL_COMPLETE_WORKLOAD, NULL},
	{"duration", "--duration", NULL, "D", false,
	 "Simulated time, e.g. 1s, 500ms, 20us (run's default: until finite workloads end, "
	 "else 10s).",
	 0, NULL},
	{"seed", "--seed", NULL, "N", false, "The PRNG seed (default 1).", 0, NULL},
	{"sched-features", "--sched-features", NULL, "'WORDS'", true,
	 "Writes to sched_features as debugfs takes them, e.g. 'NO_NEW_FAIR_SLEEPERS LAST_BUDDY'.",
	 SL_COMPLETE_FEATURE, NULL},
	{"sysctl", "--sysctl", NULL, "NAME=VALUE", true,
	 "A scheduler sysctl, e.g. kernel.sched_child_runs_first=0 (repeatable); 6.18: the "
	 "debugfs names, e.g. base_slice_ns=3000000. `schedlab sysctl` lists them.",
	 SL_COMPLETE_SYSCTL, NULL},
	{"at", "--at", NULL, "TIME:KNOB", true,
	 "Change a knob at a simulated time: 2s:sched-features=WORDS or "
	 "3s:sysctl=kernel.sched_latency_ns=10000000. A time at or past the run's end is "
	 "refused.",
	 0, NULL},
	{"param", "--param", NULL, "NAME=VALUE", true,
	 "A model parameter; `schedlab params` lists them.", 0, NULL},
	{"machine", "--machine", NULL, "NAME", false,
	 "The idle states: a profile (`schedlab machines`), file:PATH, or sysfs for this "
	 "machine's (default: poll only). On a machine without a cpuidle driver sysfs takes the "
	 "architecture's default idle (HLT) and says so.",
	 SL_COMPLETE_MACHINE, NULL},
	{"cpuidle-governor", "--cpuidle-governor", NULL, "NAME", false,
	 "The cpuidle governor, see `schedlab governors` (default on a machine with C-states: the "
	 "release's menu, menu-2.6.31 or menu-tng).",
	 SL_COMPLETE_GOVERNOR, NULL},
	{"idle", "--idle", NULL, "poll", false, "The idle=poll boot parameter: no C-states.",
	 SL_COMPLETE_WORDS, "poll"},
	{"idle-driver", "--idle-driver", NULL, "D", false,
	 "acpi_idle or intel_idle for --machine nehalem (default: acpi_idle on 2.6.31/2.6.32, "
	 "which had no intel_idle).",
	 SL_COMPLETE_WORDS, "acpi_idle intel_idle"},
	{"pm-qos-latency-us", "--pm-qos-latency-us", NULL, "N", false,
	 "The PM QoS CPU latency limit in microseconds (default: no limit).", 0, NULL},
	{"cpuidle-disable", "--cpuidle-disable", NULL, "STATE", true,
	 "sysfs stateN/disable=1 on every CPU (repeatable); STATE is stateN, N or the state's "
	 "name, as sysfs shows them.",
	 0, NULL},
	{"cpuidle-param", "--cpuidle-param", NULL, "NAME=V", true,
	 "Governor tunables and state power, e.g. menu_tng_quirks=0, power_mw.C6=100, "
	 "busy_power_mw=15000; on acpi_idle tables bm_check=0 and latency_factor=N.",
	 0, NULL},
	{"irq-affinity", "--irq-affinity", NULL, "WHERE", false,
	 "Where I/O completion interrupts go: issuer, spread, bios (CPU 0), irqbalance (per "
	 "controller), or a CPU number (default: irqbalance on 2.6.31/2.6.32, issuer on 6.18).",
	 SL_COMPLETE_WORDS, "issuer spread bios irqbalance"},
	{"trace-out", "--trace-out", NULL, "FILE", false,
	 "Write the run as a trace, in the format FILE's extension names: .json Chrome Trace "
	 "Event JSON (chrome://tracing, Perfetto, speedscope); .systrace ftrace text with the "
	 "flags column Perfetto's importer needs; .report trace-cmd report text (traceshark); "
	 ".trace, .txt or any other: the ftrace text of /sys/kernel/tracing/trace.",
	 FILE_, NULL},
	{"rtapp-logdir", "--rtapp-logdir", NULL, "DIR", false,
	 "Write the rt-app workloads' per-thread logs in DIR (rt-app's format).", DIR_, NULL},
	/* output */
	{"json", "--json", NULL, NULL, false, "One JSON object instead of the table.", 0, NULL},
	{"output", "--output", "-o", "FILE", false,
	 "The report into FILE, written whole or not at all (-: standard output).", FILE_, NULL},
	{"no-progress", "--no-progress", NULL, NULL, false, "No progress lines on stderr.", 0,
	 NULL},
	{"per-task", "--per-task", NULL, NULL, false,
	 "List every task of every group (the table lists a group's tasks when it has at most "
	 "8, the JSON the first 256).",
	 0, NULL},
	/* repro */
	{"disks", "--disks", NULL, "LIST", false, "Disk counts, e.g. 1,2,12 (the default).", 0,
	 NULL},
	{"governors", "--governors", NULL, "LIST", false,
	 "Idle governors, comma-separated (default poll,menu-2.6.31,menu-tng).",
	 SL_COMPLETE_GOVERNOR, NULL},
	{"repro-seeds", "--seeds", NULL, "N", false, "Seeds per configuration, 1..16.", 0, NULL},
	{"explore", "--explore", NULL, NULL, false,
	 "Search the 2009 machine's unknowns (BM_STS and DMA, ACPI C2 as C6, background "
	 "wake-ups, a shared HBA, the reader's CPU, SMT resolution, the fio job): every "
	 "combination under the three governors on 1, 2 and 12 disks, ranked by its residuals "
	 "against the whole seed table (default --duration 1s).",
	 0, NULL},
	{"unknowns", "--unknowns", NULL, "LIST", false,
	 "With --explore: the unknowns to vary, comma-separated (default: every one no --param, "
	 "--cpuidle-param or --irq-affinity fixes).",
	 0, NULL},
	{"repro-workload", "--workload", NULL, "NAME:k=v,...", true,
	 "Run the experiment's settings (kernels, flags, sysctls, params, CPUs, machine, "
	 "governors, durations, seeds) with this workload in place of its own (repeatable; any "
	 "workload run takes, e.g. trace:file=T), and report per workload group, and per comm of "
	 "a trace workload, CPU time, wake-ups, wake-up latency p50/p95/max, switches and "
	 "completion.",
	 SL_COMPLETE_WORKLOAD, NULL},
	/* compare */
	{"compare-config", "--config", NULL, "'K=V,...'", true,
	 "A configuration to compare (repeatable): options of run's model as KEY=VALUE without "
	 "their --, comma-separated, laid over the options given outside, e.g. "
	 "'kernel=6.18,sched-features=NO_PLACE_LAG' or "
	 "'kernel=6.18,sysctl=base_slice_ns=3000000'; label=NAME names it.",
	 0, NULL},
	{"compare-plot", "--plot", NULL, "FILE.svg", false,
	 "Draw the CPU time and the wake-up latency p95 of the rows with the most CPU time under "
	 "each configuration (mean and [min,max] over the seeds) into FILE.svg.",
	 FILE_, NULL},
	/* sweep */
	{"features", "--features", NULL, "all|LIST", false,
	 "The flags to vary: all of the release's, or a comma-separated list; every "
	 "combination is run.",
	 SL_COMPLETE_FEATURE, NULL},
	{"vary", "--vary", NULL, "KEY=V1,V2,...", true,
	 "A knob to vary, repeatable: a sysctl (kernel.NAME), param.NAME, cpuidle-param.NAME, or "
	 "kernel, cpus, topology, duration, seed, machine, idle, cpuidle-governor, "
	 "pm-qos-latency-us, irq-affinity, sched-features.",
	 0, NULL},
	{"mix", "--mix", NULL, "SPEC+SPEC", true,
	 "A workload mix; repeated, the mixes are alternatives.", 0, NULL},
	{"sweep-seeds", "--seeds", NULL, "N", false, "Seeds per configuration, 1..64.", 0, NULL},
	{"jobs", "--jobs", "-j", "N", false, "Worker processes (default 1).", 0, NULL},
	{"sweep-out", "--out", "-o", "FILE", false,
	 "One row per run in FILE.csv or FILE.jsonl; an existing file is resumed.", FILE_, NULL},
	{"shard", "--shard", NULL, "K/N", false, "Run the K-th of N equal parts of the sweep.", 0,
	 NULL},
	/* sweep-report, sweep-merge */
	{"metric", "--metric", NULL, "M", true,
	 "A column to analyse (repeatable; default: the report's usual metrics).", 0, NULL},
	{"top", "--top", NULL, "N", false,
	 "Best and worst configurations shown, 1..1000 (default "
	 "10).",
	 0, NULL},
	{"plot", "--plot", NULL, "DIR", false, "Write PNG plots there (needs gnuplot).", DIR_,
	 NULL},
	{"merge-out", "--out", NULL, "FILE", false, "The merged file.", FILE_, NULL},
	/* traces */
	{"lenient", "--lenient", NULL, NULL, false,
	 "Skip malformed trace lines (counted) instead of refusing the trace.", 0, NULL},
	{"sort", "--sort", NULL, "KEYS", false,
	 "Order of the task table: comma-separated keys of pid, runtime, switch, avg, max (as perf "
	 "sched latency's -s; default pid).",
	 0, NULL},
	{"preempt", "--preempt", NULL, NULL, false,
	 "Take a preemption by a task just woken as a dependency on the task that woke it (the "
	 "default now, as the key preempt=1; a writer that never sleeps shows no other).",
	 0, NULL},
	{"irq-window", "--irq-window", NULL, "D", false,
	 "How long before a wake-up an interrupt or a timer on the waking CPU counts as its "
	 "cause (as the key irq_window=D; default 100us).",
	 0, NULL},
	{"tw-rtapp", "--rtapp", "-o", "F.json", false,
	 "Write the extracted task programs as an rt-app JSON file.", FILE_, NULL},
	{"governor-list", "--cpuidle-governor", NULL, "LIST", false,
	 "The governors to replay, comma-separated (default: all).", SL_COMPLETE_GOVERNOR, NULL},
	{"events", "--events", NULL, "LIST", false,
	 "Trace events, comma-separated (default: the scheduler's, cpuidle's and block's).", 0,
	 NULL},
	/* validate, calibrate */
	{"real", "--real", NULL, "DIR", false, "Take an earlier real run's directory.", DIR_, NULL},
	{"validate-out", "--out", NULL, "DIR", false,
	 "Keep the real run's logs, trace and machine.conf in DIR (default: a new /tmp "
	 "directory).",
	 DIR_, NULL},
	{"calibration", "--calibration", NULL, "DIR", false,
	 "A `schedlab calibrate` directory whose machine.conf the model takes.", DIR_, NULL},
	{"sim-out", "--sim-out", NULL, "DIR", false,
	 "Keep the simulated side (the file, rt-app's logs, sim.trace) in DIR, made if missing "
	 "(default: a temporary directory, removed).",
	 DIR_, NULL},
	{"trace-file", "--output", "-o", "FILE", false, "The trace file to write (ftrace text).",
	 FILE_, NULL},
	{"output-dir", "--output", "-o", "DIR", false,
	 "The directory for machine.conf and machine.profile.", DIR_, NULL},
	{"recordings", "--recordings", NULL, NULL, false,
	 "Measure nothing: read the real traces of the recordings given (validate --out "
	 "directories) and print the idle-length dependence of a wake-up of an idle CPU, by its "
	 "own timer and from another CPU, as machine.conf lines (wake_local, wake_local_sd, "
	 "wake_local_decade, wake_local_tail, wake_local_tail_mean; the same of wake_remote).",
	 0, NULL},
	{"remote-known", "--remote-known", NULL, "NS", false,
	 "With --recordings: what the model charges already on a remote wake-up (the IPI and the "
	 "idle state's exit latency, ns), taken off wake_remote (default 0).",
	 0, NULL},
};
const int sl_cli_nopts = (int)(sizeof(sl_cli_opts) / sizeof(sl_cli_opts[0]));

#define RUN_MODEL                                                                                  \
	"kernel cpus topology workload duration seed sched-features sysctl at param machine "      \
	"cpuidle-governor idle idle-driver pm-qos-latency-us cpuidle-disable cpuidle-param "       \
	"irq-affinity policy"

const struct sl_cli_cmd sl_cli_cmds[] = {
	{"run", "[F.json]", "simulate workloads and report the scheduling figures",
	 "Simulates the workloads on the machine and kernel given and prints, per workload group "
	 "and task, CPU time and share, wake-ups, wake-up latency percentiles, runqueue wait, "
	 "switches and completion time. `run F.json` runs an rt-app file (for its duration unless "
	 "--duration).",
	 RUN_MODEL " trace-out rtapp-logdir json per-task output no-progress"},
	{"compare", "[F.json]", "one workload under several configurations, side by side",
	 "Runs the workloads (--workload, repeatable; trace:file=T included) under each "
	 "configuration with each of --seeds seeds (from --seed) and prints a row per task: a "
	 "trace's by the pid and comm it recorded, with what the trace itself shows as "
	 "'recorded'; another workload's per group and comm; then the total. Per configuration: "
	 "tasks, CPU time, its share of one CPU, switches, wake-ups, wake-up latency p50/p95/max "
	 "and completion, as mean [min,max] over the seeds. The configurations are the "
	 "comma-separated values of --kernel, --cpus, --topology, --duration, --machine, "
	 "--cpuidle-governor, --idle, --idle-driver, --pm-qos-latency-us and --irq-affinity "
	 "(lists multiply), times each --config; every other option applies to all of them. A "
	 "tasks= filter that keeps no task, or runs of no task, are refused (exit status 2).",
	 RUN_MODEL " compare-config repro-seeds compare-plot json output no-progress"},
	{"demo", "", "the three 2009 results in one screen",
	 "NEW_FAIR_SLEEPERS and a desktop under nice -n 19 make, parent- against child-runs-first "
	 "on a kernel build, and fio under the menu-tng idle governor: each simulated here, side "
	 "by side, with a verdict against what 2009 measured.",
	 "seed json no-progress"},
	{"repro fio", "", "the 2009 menu-tng result: fio MB/s under three idle governors",
	 "fio on a Nehalem server under idle=poll, menu-2.6.31 and menu-tng, beside the 2009 "
	 "table.",
	 "disks governors duration seed kernel policy param cpuidle-param irq-affinity idle-driver "
	 "repro-workload explore unknowns jobs json output no-progress"},
	{"repro sleepers", "", "NEW_FAIR_SLEEPERS and desktop interactivity under nice -n 19 make",
	 "The desktop stall of 2009: an interactive task's wake-up latency beside a niced kernel "
	 "build, with NEW_FAIR_SLEEPERS on and off.",
	 "repro-seeds duration repro-workload json output no-progress"},
	{"repro fork", "", "child- against parent-runs-first on a kernel-build-like make",
	 "sched_child_runs_first=1 against 0 on a make -j: completion time and switches.",
	 "repro-seeds kernel policy duration repro-workload json output no-progress"},
	{"repro bfs", "", "CFS 2.6.31/2.6.32, BFS 0.30x and EEVDF under make",
	 "The scheduler whose posting started the 2009 debate beside CFS and EEVDF: a desktop "
	 "task's wake-up latency under nice -n 19 make, the build's completion time and the shares "
	 "of nice 0 against nice 19.",
	 "repro-seeds duration repro-workload json output no-progress"},
	{"sweep", "", "every combination of flags, knobs, mixes and seeds",
	 "Runs every combination of --features flags, --vary knobs, --mix mixes and --seeds, one "
	 "row per run in --out FILE.csv|.jsonl, resumable; -j N workers, --shard K/N, or under "
	 "mpirun (built with -DSCHEDLAB_MPI=ON).",
	 "features vary mix sweep-seeds jobs sweep-out shard " RUN_MODEL " no-progress"},
	{"sweep-report", "FILE...", "main effects, best and worst configurations, interactions",
	 "Main effects of each flag and knob with 95% intervals, the best and worst "
	 "configurations and two-flag interactions of a sweep's output files.",
	 "metric top plot json output"},
	{"sweep-merge", "--out FILE SHARD...", "the union of shard files, in run order", "",
	 "merge-out"},
	{"trace-stats", "FILE", "a trace's per-task and per-CPU figures",
	 "Per-task run time, switches and wake-up latency, per-CPU idle intervals and block I/O "
	 "latency of an ftrace text trace (plain, .xz, .gz, or - for stdin).",
	 "json lenient sort output"},
	{"replay-idle", "FILE", "a trace's idle intervals through every governor",
	 "Replays a trace's idle intervals and timers through every cpuidle governor (open loop).",
	 "machine governor-list json lenient output"},
	{"trace-workload", "FILE", "what the trace workload extracts from a trace",
	 "The tasks --workload trace:file=FILE replays: per task its CPU bursts, its sleeps by "
	 "kind "
	 "(timed, I/O, waiting for a waker) and who woke whom, and what could not be attributed; "
	 "-o writes them as an rt-app file.",
	 "json preempt irq-window tw-rtapp calibration"},
	{"record", "-- CMD [ARG...]", "trace this machine while a command runs",
	 "Records the whole machine's scheduler, cpuidle and block events with tracefs (root) "
	 "into the --output file from the start of CMD to its end: every task of every CPU, not "
	 "CMD's alone (trace-stats' table shows each task). Beside it, FILE.machine.conf: this "
	 "machine and its switch and cache costs, measured for about a second before CMD starts "
	 "(calibrate's rows), which a replay of it takes; --calibration DIR writes DIR's costs "
	 "instead, --calibration none nothing.",
	 "trace-file events calibration"},
	{"validate", "F.json", "an rt-app file run for real and simulated, side by side",
	 "Runs the rt-app file for real (root, rt-app, tracefs) keeping rt-app's logs, the trace "
	 "and machine.conf in --out DIR, or takes such a directory with --real DIR; simulates the "
	 "file on a model of that machine (its CPUs, idle states, the kernel's scheduler and "
	 "cpuidle governor, and the parameters of --calibration DIR's machine.conf); prints both "
	 "side by side.",
	 "real validate-out sim-out calibration kernel policy machine cpuidle-governor seed "
	 "duration json output"},
	{"calibrate", "[--recordings DIR...]", "measure this machine once, for validate",
	 "Measures this machine's switch cost, cache refill and migration cost, vCPU wake-up, "
	 "timer "
	 "slack, wake-up path, wake-up placement, background activity and rt-app's loop (about 30 "
	 "s) into DIR/machine.conf and DIR/machine.profile.",
	 "output-dir recordings remote-known json"},
	{"features", "", "print sched_features as debugfs does",
	 "Prints sched_features as /sys/kernel/debug/sched_features does (6.18: "
	 "/sys/kernel/debug/sched/features), after the writes given.",
	 "kernel policy sched-features sysctl json output"},
	{"sysctl", "", "print the scheduler sysctls at boot",
	 "Prints the scheduler sysctls at boot for --kernel and --cpus, after the writes given.",
	 "kernel policy cpus topology sysctl sched-features json output"},
	{"workloads", "", "list the workloads with their keys and defaults", "", "json output"},
	{"params", "", "list the model's parameters with their defaults and sources", "",
	 "json output"},
	{"machines", "", "list the machine idle profiles (C-state tables)", "", "json output"},
	{"governors", "", "list the cpuidle governors", "", "json output"},
	{"help", "[COMMAND]", "this list, or a command's options", "", ""},
};
const int sl_cli_ncmds = (int)(sizeof(sl_cli_cmds) / sizeof(sl_cli_cmds[0]));

const struct sl_cli_cmd *sl_cli_find_cmd(const char *name)
{
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strcmp(sl_cli_cmds[i].name, name))
			return &sl_cli_cmds[i];
	return NULL;
}

const struct sl_cli_opt *sl_cli_find_opt(const char *key)
{
	for (int i = 0; i < sl_cli_nopts; i++)
		if (!strcmp(sl_cli_opts[i].key, key))
			return &sl_cli_opts[i];
	return NULL;
}

const struct sl_cli_opt *sl_cli_cmd_nth(const struct sl_cli_cmd *cmd, int i)
{
	const char *p = cmd->opts;

	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			return NULL;
		size_t n = strcspn(p, " ");

		if (!i--) {
			char key[40];

			if (n >= sizeof(key))
				return NULL;
			memcpy(key, p, n);
			key[n] = '\0';
			return sl_cli_find_opt(key);
		}
		p += n;
	}
}

const struct sl_cli_opt *sl_cli_cmd_opt(const struct sl_cli_cmd *cmd, const char *name, size_t n)
{
	const struct sl_cli_opt *o;

	for (int i = 0; (o = sl_cli_cmd_nth(cmd, i)); i++)
		if ((strlen(o->name) == n && !strncmp(o->name, name, n)) ||
		    (o->alias && strlen(o->alias) == n && !strncmp(o->alias, name, n)))
			return o;
	return NULL;
}

/* Words of text from column col, wrapped before column 80, each line indented by indent. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (col > indent && col + 1 + (int)n > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, n, f);
		col += (int)n;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void sl_cli_print_help(FILE *f, const struct sl_cli_cmd *cmd)
{
	const struct sl_cli_opt *o;
	char line[128];

	fprintf(f, "usage: schedlab %s%s%s%s\n", cmd->name, cmd->opts[0] ? " [OPTIONS]" : "",
		cmd->synopsis[0] ? " " : "", cmd->synopsis);
	fprintf(f, "\n");
	wrap(f, cmd->help[0] ? cmd->help : cmd->summary, 0, 0);
	fprintf(f, "\noptions:\n");
	for (int i = 0; (o = sl_cli_cmd_nth(cmd, i)); i++) {
		int n = snprintf(line, sizeof(line), "  %s%s%s%s%s", o->alias ? o->alias : "",
				 o->alias ? ", " : "", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");

		if (n > 28) {
			fprintf(f, "%s\n%*s", line, 30, "");
			n = 30;
		} else {
			fprintf(f, "%-30s", line);
			n = 30;
		}
		wrap(f, o->help, n, 30);
	}
	fprintf(f, "%-30s", "  -h, --help");
	wrap(f, "This help.", 30, 30);
}

void sl_cli_print_usage(FILE *f)
{
	fprintf(f, "usage: schedlab COMMAND [OPTIONS]\n\ncommands:\n");
	for (int i = 0; i < sl_cli_ncmds; i++) {
		fprintf(f, "  %-17s", sl_cli_cmds[i].name);
		wrap(f, sl_cli_cmds[i].summary, 19, 19);
	}
	fprintf(f, "\n`schedlab COMMAND --help` or `schedlab help COMMAND`: a command's options;\n"
		   "`schedlab --version`: the version; `man schedlab`: the manual.\n");
}

void sl_cli_command_list(char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < sl_cli_ncmds; i++) {
		size_t n = strcspn(sl_cli_cmds[i].name, " ");

		if (i && !strncmp(sl_cli_cmds[i - 1].name, sl_cli_cmds[i].name, n) &&
		    sl_cli_cmds[i - 1].name[n] == sl_cli_cmds[i].name[n])
			continue; /* repro fio, repro sleepers: repro once */
		if (at + n + 3 >= len)
			return;
		at += (size_t)snprintf(buf + at, len - at, "%s%.*s", at ? ", " : "", (int)n,
				       sl_cli_cmds[i].name);
	}
}
