/*
 * The schedlab command. Every error in what the user typed is reported on stderr, naming the
 * option and what was expected, with exit status 2; output goes to stdout (or -o FILE, through
 * the atomic writer of core/outfile.h) only once the run has succeeded, so there is never a
 * half-written report. An output that cannot be written is exit status 1, naming the file; an
 * interrupt (SIGINT, SIGTERM) is 130.
 */
#include "config/config.h"
#include "config/args_fields.h"
#include "sched/sysctl.h"
#include "sched/plugin/plugin.h"
#include "experiment/run.h"
#include "experiment/repro.h"
#include "experiment/sweep.h"
#include "experiment/compare.h"
#include "trace/trace_stats.h"
#include "trace/replay_idle.h"
#include "trace/record.h"
#include "validate/calibrate.h"
#include "validate/validate_cli.h"
#include "cli/trace_workload.h"
#include "machine/machine_conf.h"
#include "workload/trace.h"
#include "workload/workload.h"
#include "cpuidle/profiles.h"
#include "core/outfile.h"
#include "core/interrupt.h"
#include "core/suggest.h"
#include "core/parse.h"
#include "core/escape.h"
#include "cli/cli_table.h"
#include "cli/list_json.h"
#include "core/json_out.h"

#include <stddef.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <errno.h>
#include <libgen.h>

/* Bad input (exit status 2): the message, with what it quotes of the input escaped. */
static int die(const char *fmt, ...)
{
	char msg[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sl_say(stderr, msg);
	return 2;
}

struct cli {
	struct sl_args a;
	bool json, no_progress, per_task;
	const char *rtapp_logdir;
	char specs[SL_MAX_LIST][160]; /* rt-app workloads written by the shorthands */
	int nspecs;
	const char *output;
	/* a single-valued option given again: its earlier values, checked all the same */
	const char *prior_key[SL_MAX_LIST], *prior_val[SL_MAX_LIST];
	int nprior;
};

/*
 * Where a report goes: standard output, or FILE through the atomic writer (core/outfile.h), so
 * that a failed or interrupted run leaves the old FILE or none. Exit status 1 on an I/O error.
 */
struct dest {
	struct sl_outfile o;
	FILE *f;
};

/* -o naming one of the command's inputs: bad input (exit status 2), the input left as it is */
static int refuse_input(const char *path)
{
	return die("--output %s: an input of this command (expected another file: the output "
		   "would replace it)",
		   path);
}

static int dest_open(struct dest *d, const char *path)
{
	char err[4400];

	d->f = stdout;
	if (!path || !strcmp(path, "-")) /* -o -: standard output, as - is standard input */
		return 0;
	/* exit status 2 for a name that is no file's (bad input), 1 when a file cannot be made */
	if (!path[0])
		return die("--output: an empty file name");
	if (sl_outfile_is_input(path))
		return refuse_input(path);
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
	/* an input read since the open (compare reads its workloads' files then) */
	if (!rc && sl_outfile_is_input(d->o.path))
		rc = refuse_input(d->o.path);
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

/*
 * --policy PATH.so: the plug-in is loaded now (a bad one is refused before anything runs) and its
 * release registered under the policy's name, which *name gets: without --kernel the command
 * runs it, with --kernel its name is one more value --kernel (and sweep's kernel=) takes.
 */
static int load_policy(const char *path, const char **name)
{
	char err[1024];
	const struct sl_release *rel = sl_plugin_load(path, err, sizeof(err));

	if (!rel)
		return die("%s", err);
	if (!*name)
		*name = rel->name;
	return 0;
}

/* Where each option of the table that parse_options reads lands in struct sl_args. */
#define ARG(f)			  offsetof(struct sl_args, f)
#define ARG_ONE(key, f, vary)	  {key, ARG(f), -1},
#define ARG_LIST(key, f, n, vary) {key, ARG(f), ARG(n)},
static const struct {
	const char *key;
	size_t off; /* of the const char * (scalar) or of the list */
	long count; /* of the list's count; -1: scalar */
} arg_slots[] = {SL_ARGS_FIELDS(ARG_ONE, ARG_LIST)};

/*
 * An option the command does not have: whether another command has it, else the nearest of the
 * command's own (did you mean). Returns the exit status 2.
 */
static int unknown_option(const struct sl_cli_cmd *cmd, const char *name, size_t n)
{
	const struct sl_cli_opt *o;
	struct sl_suggest sg;
	char hint[160];

	if (n > 40)
		return die("%s: unknown option '%.40s...' (see schedlab %s --help)", cmd->name,
			   name, cmd->name);
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (sl_cli_cmd_opt(&sl_cli_cmds[i], name, n))
			return die("%s: %.*s does not apply to this %s (see schedlab %s --help)",
				   cmd->name, (int)n, name,
				   strncmp(cmd->name, "repro ", 6) ? "command" : "experiment",
				   cmd->name);
	sl_suggest_init(&sg, name, n);
	for (int i = 0; (o = sl_cli_cmd_nth(cmd, i)); i++)
		sl_suggest_add(&sg, o->name);
	sl_suggest_add(&sg, "--help");
	if (sg.best)
		return die("%s: unknown option '%.*s'%s", cmd->name, (int)n, name,
			   sl_suggest_text(&sg, hint, sizeof(hint)));
	return die("%s: unknown option '%.*s' (see schedlab %s --help)", cmd->name, (int)n, name,
		   cmd->name);
}

/*
 * Every command's arguments against the table, before the command reads them: -h/--help prints
 * the command's help (*done), an option the command does not have is refused with a suggestion,
 * an option's value is not taken for an option. Positional arguments are the command's own.
 * Returns 0 or an exit status.
 */
static int check_args(const struct sl_cli_cmd *cmd, int argc, char **argv, int first, bool *done)
{
	*done = false;
	for (int i = first; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--"))
			return 0; /* record: the command */
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			sl_cli_print_help(stdout, cmd);
			*done = true;
			return 0;
		}
		if (arg[0] != '-' || !arg[1])
			continue;
		size_t n = strcspn(arg, "=");
		bool glued = false; /* -j4 */
		const struct sl_cli_opt *o = sl_cli_cmd_opt(cmd, arg, n);

		if (!o && arg[1] != '-' && arg[2]) {
			o = sl_cli_cmd_opt(cmd, arg, 2);
			glued = o != NULL;
		}
		if (!o) {
			if (arg[1] != '-')
				continue; /* -x: the command's own message */
			return unknown_option(cmd, arg, n);
		}
		if (!o->arg) {
			if (arg[n])
				return die("%s takes no value", o->name);
			continue;
		}
		if (!arg[n] && !glued) {
			if (i + 1 >= argc)
				return die("%.*s needs a value", (int)n, arg);
			i++;
		}
	}
	return 0;
}

/* Parses argv[first..] by the table's options of cmd; returns 0 or an exit status. */
static int parse_options(int argc, char **argv, int first, struct cli *c,
			 const struct sl_cli_cmd *cmd)
{
	const char *policy = NULL;

	memset(c, 0, sizeof(*c));
	for (int i = first; i < argc; i++) {
		char *arg = argv[i], *val = NULL;

		if (arg[0] != '-' || !arg[1]) {
			size_t len = strlen(arg);

			/* `run F.json`: short for --workload rt-app:file=F.json */
			bool wl = sl_cli_cmd_opt(cmd, "--workload", 10) != NULL;
			struct stat st;

			/* another file there: most likely a recording to replay */
			if (!wl || len < 5 || strcmp(arg + len - 5, ".json")) {
				bool file = wl && !stat(arg, &st) && S_ISREG(st.st_mode);

				return die("unexpected argument '%s' (see schedlab %s --help%s%s)",
					   arg, cmd->name,
					   file ? "; a trace to replay: --workload trace:file="
						: "",
					   file ? arg : "");
			}
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
		const struct sl_cli_opt *o = sl_cli_cmd_opt(cmd, arg, n);

		if (!o)
			return unknown_option(cmd, arg, n);
		if (!o->arg) {
			if (eq)
				return die("%s takes no value", o->name);
			if (!strcmp(o->key, "json"))
				c->json = true;
			else if (!strcmp(o->key, "per-task"))
				c->per_task = true;
			else
				c->no_progress = true;
			continue;
		}
		if (eq) {
			val = eq + 1;
		} else {
			if (i + 1 >= argc)
				return die("%s needs a value", o->name);
			val = argv[++i];
		}
		if (!strcmp(o->key, "rtapp-logdir")) {
			c->rtapp_logdir = val;
			continue;
		}
		if (!strcmp(o->key, "output")) {
			c->output = val;
			continue;
		}
		if (!strcmp(o->key, "policy")) {
			if (load_policy(val, &policy))
				return 2;
			continue;
		}
		size_t k = 0;

		while (k < SL_ARRAY_SIZE(arg_slots) && strcmp(arg_slots[k].key, o->key))
			k++;
		if (k == SL_ARRAY_SIZE(arg_slots))
			return die("%s: not read by this command", o->name); /* a table error */
		char *base = (char *)&c->a;

		if (arg_slots[k].count >= 0) {
			int rc = add_list((const char **)(void *)(base + arg_slots[k].off),
					  (int *)(void *)(base + arg_slots[k].count), val, o->name);

			if (rc)
				return rc;
			continue;
		}
		const char **slot = (const char **)(void *)(base + arg_slots[k].off);

		if (*slot && c->nprior < SL_MAX_LIST) {
			c->prior_key[c->nprior] = o->key;
			c->prior_val[c->nprior++] = *slot;
		}
		*slot = val;
	}
	if (policy && !c->a.kernel)
		c->a.kernel = policy;
	return 0;
}

/*
 * A single-valued option given twice takes the last value, but an earlier invalid one is refused
 * all the same: each earlier value is checked in the final configuration in place of the last.
 */
static int check_priors(const struct cli *c)
{
	char err[2048];

	for (int p = 0; p < c->nprior; p++) {
		struct sl_args a = c->a;
		struct sl_config cfg;
		size_t k = 0;

		while (strcmp(arg_slots[k].key, c->prior_key[p]))
			k++;
		*(const char **)(void *)((char *)&a + arg_slots[k].off) = c->prior_val[p];
		a.nworkloads = 0; /* the value alone: the workloads are checked with the last one */
		a.nats = 0;
		a.trace_out = NULL;
		if (sl_config_build(&cfg, &a, err, sizeof(err)))
			return die("%s (given before a later --%s, it is refused all the same)",
				   err, c->prior_key[p]);
		sl_config_free(&cfg);
	}
	return 0;
}

/* --rtapp-logdir DIR: every rt-app workload writes its logs there (its logdir key). */
static int rtapp_logdir(struct cli *c)
{
	if (!c->rtapp_logdir)
		return 0;
	if (!c->rtapp_logdir[0] || strchr(c->rtapp_logdir, ','))
		return die("--rtapp-logdir: a directory name without ',' is expected");
	/* an output: checked before the run, not found missing after it (exit status 1, as for
	 * every output that cannot be written) */
	struct stat st;
	int e = 0;

	if (stat(c->rtapp_logdir, &st))
		e = errno;
	else if (!S_ISDIR(st.st_mode))
		e = ENOTDIR;
	else if (access(c->rtapp_logdir, W_OK | X_OK))
		e = errno;
	if (e) {
		fprintf(stderr, "schedlab: --rtapp-logdir %s: %s\n", c->rtapp_logdir, strerror(e));
		return 1;
	}
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

static int run_and_report(struct sl_config *cfg, bool json, FILE *out)
{
	struct sl_run r;
	char err[4600];
	int rc = sl_run(cfg, &r, err, sizeof(err));

	if (rc == SL_RUN_EIO || rc == SL_RUN_EINTR) {
		sl_say(stderr, err);
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
	int rc = parse_options(argc, argv, 2, &c, sl_cli_find_cmd("run"));

	if (!rc)
		rc = check_priors(&c);
	if (rc)
		return rc;
	if (!c.a.nworkloads) {
		/* what was given is checked first: --kernel 2.6.33 is the mistake to name */
		if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
			return die("%s", err);
		sl_config_free(&cfg);
		return die("run: give at least one --workload (see schedlab workloads), or try "
			   "schedlab demo");
	}
	rc = rtapp_logdir(&c);
	if (rc)
		return rc;
	if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
		return die("%s", err);
	if (!strcmp(cfg.drv.name, "sysfs:none"))
		fprintf(stderr,
			"schedlab: --machine %s: this machine has no cpuidle driver "
			"(current_driver "
			"none): the kernel idles in default_idle_call, the architecture's default "
			"idle, HLT; modelled as the vm-hlt table with POLL disabled\n",
			c.a.machine);
	sl_config_rtapp_duration(&cfg);
	cfg.progress = !c.no_progress && isatty(STDERR_FILENO);
	cfg.per_task = c.per_task;
	struct dest d;

	rc = dest_open(&d, c.output);
	if (!rc) {
		sl_interrupt_install(true);
		rc = dest_close(&d, run_and_report(&cfg, c.json, d.f));
	}
	sl_config_free(&cfg);
	return rc;
}

/* The built-in demo: the three 2009 results in one screen (experiment/demo.c). */
static int cmd_demo(int argc, char **argv)
{
	struct cli c;
	struct sl_config cfg;
	char err[2048];
	int rc = parse_options(argc, argv, 2, &c, sl_cli_find_cmd("demo"));

	if (!rc)
		rc = check_priors(&c);
	if (rc)
		return rc;
	if (sl_config_build(&cfg, &c.a, err, sizeof(err))) /* --seed's check */
		return die("%s", err);
	u64 seed = cfg.seed;

	sl_config_free(&cfg);
	sl_interrupt_install(true);
	if (sl_demo(seed, c.json, stdout, err, sizeof(err)))
		return die("%s", err);
	return 0;
}

/*
 * A listing's --json object into f, or its table (table(f, arg)), then f committed or dropped
 * (dest_close): -o FILE is written whole or not at all. o NULL with json: json-c ran out of
 * memory.
 */
static int list_out(const struct cli *c, json_object *o, void (*table)(FILE *f, const void *arg),
		    const void *arg)
{
	struct dest d;
	int rc = dest_open(&d, c->output);

	if (rc) {
		json_object_put(o);
		return rc;
	}
	if (!c->json)
		table(d.f, arg);
	else if (!o || sl_json_print(d.f, o))
		rc = die("out of memory writing JSON");
	return dest_close(&d, rc);
}

/* The listing commands' options (json, output; features and sysctl: the configuration's). */
static int list_options(int argc, char **argv, struct cli *c, const char *name)
{
	int rc = parse_options(argc, argv, 2, c, sl_cli_find_cmd(name));

	return rc ? rc : check_priors(c);
}

static void features_table(FILE *f, const void *arg)
{
	const struct sl_config *cfg = arg;
	char buf[1024];

	sl_feat_format(&cfg->rel->feats, cfg->features, buf, sizeof(buf));
	fputs(buf, f);
}

/* features and sysctl: the configuration their options build, listed */
static int config_list(int argc, char **argv, const char *name,
		       json_object *(*to_json)(const struct sl_config *cfg),
		       void (*table)(FILE *f, const void *arg))
{
	struct cli c;
	struct sl_config cfg;
	char err[2048];
	int rc = list_options(argc, argv, &c, name);

	if (rc)
		return rc;
	if (sl_config_build(&cfg, &c.a, err, sizeof(err)))
		return die("%s", err);
	rc = list_out(&c, c.json ? to_json(&cfg) : NULL, table, &cfg);
	sl_config_free(&cfg);
	return rc;
}

static int cmd_features(int argc, char **argv)
{
	return config_list(argc, argv, "features", sl_list_features_json, features_table);
}

static void sysctl_table(FILE *f, const void *arg)
{
	const struct sl_config *cfg = arg;

	for (int i = 0; i < sl_sysctl_count(cfg->rel); i++)
		fprintf(f, "%s = %lld\n", sl_sysctl_nth(cfg->rel, i)->name,
			(long long)sl_sysctl_read(cfg->rel, &cfg->tun, cfg->features,
						  sl_sysctl_nth(cfg->rel, i)));
}

static int cmd_sysctl(int argc, char **argv)
{
	return config_list(argc, argv, "sysctl", sl_list_sysctl_json, sysctl_table);
}

static void workloads_table(FILE *f, const void *arg)
{
	(void)arg;
	for (int i = 0; i < sl_nworkloads; i++) {
		const struct sl_workload_ops *w = sl_workloads[i];

		fprintf(f, "%s: %s\n", w->name, w->help);
		for (int k = 0; k < w->nkeys; k++)
			fprintf(f, "  %-10s default %-20s %s\n", w->keys[k].name, w->keys[k].def,
				w->keys[k].help);
		for (int k = 0; k < sl_wl_ncommon_keys; k++)
			fprintf(f, "  %-10s default %-20s %s\n", sl_wl_common_keys[k].name,
				sl_wl_common_keys[k].def, sl_wl_common_keys[k].help);
	}
	fprintf(f, "\ndurations: 10ms (fixed), uniform:MIN:MAX, exp:MEAN, normal:MEAN:SD\n");
}

static int cmd_workloads(int argc, char **argv)
{
	struct cli c;
	int rc = list_options(argc, argv, &c, "workloads");

	return rc ? rc
		  : list_out(&c, c.json ? sl_list_workloads_json() : NULL, workloads_table, NULL);
}

/* Split a comma list into buf; returns the count, or -1 after the message (exit status 2). */
static int split_list(const char *s, char *buf, size_t len, const char **out, int max,
		      const char *opt)
{
	int n = 0;
	size_t l;

	if (!s) /* a flag's NULL value: the table gives these options a value */
		return die("%s needs a value", opt), -1;
	l = strlen(s);

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
	const char *dl[16] = {NULL}, *output = NULL, *policy = NULL;
	char err[2048];
	int n;
	bool disks_set = false, govs_set = false;

	memset(&o, 0, sizeof(o));
	if (argc < 3 || (strcmp(argv[2], "fio") && strcmp(argv[2], "sleepers") &&
			 strcmp(argv[2], "fork") && strcmp(argv[2], "bfs")))
		return die("repro: give the experiment: fio, sleepers, fork or bfs");
	const char *exp = argv[2];
	static const int def_disks[] = {1, 2, 12};

	for (int i = 0; i < 3; i++)
		o.disks[o.ndisks++] = def_disks[i];
	o.governors[0] = "poll";
	o.governors[1] = "menu-2.6.31";
	o.governors[2] = "menu-tng";
	o.ngovernors = 3;
	char name[64];

	snprintf(name, sizeof(name), "repro %s", exp);
	const struct sl_cli_cmd *row = sl_cli_find_cmd(name);

	/* the table's options of this experiment (dispatch refused the others) */
	for (int i = 3; i < argc; i++) {
		const char *arg = argv[i], *eq = strchr(arg, '='), *val;
		size_t an = eq && !strncmp(arg, "--", 2) ? (size_t)(eq - arg) : strlen(arg);
		const struct sl_cli_opt *op = sl_cli_cmd_opt(row, arg, an);

		if (!op)
			return die(
				"repro %s: unexpected argument '%s' (see schedlab repro %s --help)",
				exp, arg, exp);
		if (!op->arg) {
			o.json |= !strcmp(op->key, "json");
			o.explore |= !strcmp(op->key, "explore");
			continue;
		}
		val = an < strlen(arg) ? arg + an + 1 : i + 1 < argc ? argv[++i] : NULL;
		if (!val)
			return die("%s needs a value", op->name);
		arg = op->name;
		if (!strcmp(op->key, "output")) {
			output = val;
			continue;
		}
		if (!strcmp(op->key, "repro-workload")) {
			if (add_list(o.workloads, &o.nworkloads, val, arg))
				return 2;
		} else if (!strcmp(arg, "--disks")) {
			disks_set = true;
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
			govs_set = true;
			n = split_list(val, gbuf, sizeof(gbuf), o.governors, 16, arg);
			if (n < 0)
				return 2;
			o.ngovernors = n;
			for (int k = 0; k < o.ngovernors; k++) {
				char hint[128];

				if (!sl_cpuidle_find_governor(o.governors[k]))
					return die("--governors: unknown governor '%s'%s (see "
						   "schedlab governors)",
						   o.governors[k],
						   sl_cpuidle_governor_hint(o.governors[k], hint,
									    sizeof(hint)));
			}
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
		} else if (!strcmp(arg, "--param") || !strcmp(arg, "--cpuidle-param")) {
			bool cp = arg[2] == 'c';
			int *np = cp ? &o.ncpuidle_params : &o.nparams;

			if (*np >= 16)
				return die("%s: at most 16", arg);
			(cp ? o.cpuidle_params : o.params)[(*np)++] = val;
		} else if (!strcmp(op->key, "unknowns")) {
			o.unknowns = val;
		} else if (!strcmp(op->key, "jobs")) {
			char *end;
			long n = strtol(val, &end, 10);

			if (*end || n < 1 || n > 1024)
				return die("--jobs: '%s' is not a count 1..1024", val);
			o.jobs = (int)n;
		} else if (!strcmp(arg, "--irq-affinity")) {
			o.irq_affinity = val;
		} else if (!strcmp(arg, "--idle-driver")) {
			o.idle_driver = val;
		} else if (!strcmp(op->key, "policy")) {
			if (load_policy(val, &policy))
				return 2;
		} else {
			o.kernel = val;
		}
	}
	if (policy && !o.kernel)
		o.kernel = policy;
	if ((o.unknowns || o.jobs) && !o.explore)
		return die("repro fio: --unknowns and --jobs apply with --explore");
	if (o.explore && (disks_set || govs_set))
		return die("repro fio --explore: it runs 1, 2 and 12 disks under idle=poll, "
			   "menu-2.6.31 and menu-tng (the seed's table); --disks and --governors "
			   "do not apply");
	/* what only the experiment's own workloads have */
	if (o.nworkloads && disks_set)
		return die("repro fio: --disks is the disk count of the experiment's own fio "
			   "workload; it does not apply with --workload");
	if (!o.nworkloads && o.duration && !strcmp(exp, "fork"))
		return die("repro fork: --duration applies with --workload only (the experiment's "
			   "builds run to their end)");
	struct dest d;

	int oc = dest_open(&d, output); /* 2: a bad name, 1: it cannot be made */

	if (oc)
		return oc;
	int rc = !strcmp(exp, "fio")	    ? sl_repro_fio(&o, d.f, err, sizeof(err))
		 : !strcmp(exp, "sleepers") ? sl_repro_sleepers(&o, d.f, err, sizeof(err))
		 : !strcmp(exp, "bfs")	    ? sl_repro_bfs(&o, d.f, err, sizeof(err))
					    : sl_repro_fork(&o, d.f, err, sizeof(err));

	return dest_close(&d, rc ? die("%s", err) : 0);
}

/*
 * The next argument of a command that reads its options from the table: an option (*op, its
 * value in *val, NULL for a flag; --opt=value too) or a positional argument (*op NULL, *val the
 * argument; "-" is one, stdin). Returns 0, or 2 after the message.
 */
static int next_arg(const struct sl_cli_cmd *row, int argc, char **argv, int *i,
		    const struct sl_cli_opt **op, const char **val)
{
	const char *arg = argv[*i], *eq = strchr(arg, '=');
	size_t n;

	*op = NULL;
	*val = arg;
	if (arg[0] != '-' || !arg[1])
		return 0;
	n = eq && !strncmp(arg, "--", 2) ? (size_t)(eq - arg) : strlen(arg);
	*op = sl_cli_cmd_opt(row, arg, n);
	if (!*op)
		return unknown_option(row, arg, n);
	if (!(*op)->arg) {
		*val = NULL;
		return arg[n] ? die("%s takes no value", (*op)->name) : 0;
	}
	if (arg[n])
		*val = arg + n + 1;
	else if (*i + 1 < argc)
		*val = argv[++*i];
	else
		return die("%s needs a value", arg);
	return 0;
}

/*
 * `schedlab compare`'s configurations: the comma-separated values of run's single-valued options
 * (arg_slots; each list multiplies), times each --config 'K=V,...', whose K=V is the option --K V
 * of the same table read by the same parser (parse_options) and laid over the rest.
 */
struct cmp_cli {
	struct cli c;
	const char *configs[SL_MAX_LIST];
	int nconfigs;
	struct sl_compare_conf conf[SL_COMPARE_MAX_CONF];
	char pool[1 << 16]; /* the words made: the values split, the --K=V of each --config */
	size_t used;
	int axis[SL_ARRAY_SIZE(arg_slots)]; /* arg_slots of the lists */
	const char *vals[SL_ARRAY_SIZE(arg_slots)][SL_MAX_LIST];
	int nvals[SL_ARRAY_SIZE(arg_slots)], naxes;
};

static char *cmp_store(struct cmp_cli *x, const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 1;
	char *p = x->pool + x->used;

	if (x->used + n > sizeof(x->pool))
		return NULL;
	snprintf(p, n, "%s%s", a, b);
	x->used += n;
	return p;
}

static const char *const cmp_not_keys[] = {"workload", "seed", "trace-out"};

/* Whether arg_slots[k] is an option a --config may set (and its key). */
static bool cmp_key_ok(const struct sl_cli_cmd *row, size_t k)
{
	char name[48];

	for (size_t i = 0; i < SL_ARRAY_SIZE(cmp_not_keys); i++)
		if (!strcmp(arg_slots[k].key, cmp_not_keys[i]))
			return false;
	snprintf(name, sizeof(name), "--%s", arg_slots[k].key);
	return sl_cli_cmd_opt(row, name, strlen(name)) != NULL;
}

/* --config TEXT laid over a; its label= into label. Returns 0 or 2 after the message. */
static int cmp_config(struct cmp_cli *x, const struct sl_cli_cmd *row, const char *text,
		      struct sl_args *a, char *label, size_t llen, bool *named)
{
	char *copy = cmp_store(x, text, ""), *save = NULL, words[48] = "";
	size_t loff = 0;

	*named = false;

	if (!copy)
		return die("compare: --config: the configurations are too long");
	for (char *it = strtok_r(copy, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		while (*it == ' ')
			it++;
		char *eq = strchr(it, '=');
		size_t k = 0;

		if (!*it)
			continue;
		if (!eq || eq == it)
			return die(
				"compare: --config '%s': '%s' is not KEY=VALUE (KEY: an option of "
				"run without --, or label)",
				text, it);
		if ((size_t)(eq - it) == 5 && !strncmp(it, "label", 5)) {
			snprintf(label, llen, "%s", eq + 1);
			*named = true;
			continue;
		}
		while (k < SL_ARRAY_SIZE(arg_slots) &&
		       (strlen(arg_slots[k].key) != (size_t)(eq - it) ||
			strncmp(arg_slots[k].key, it, (size_t)(eq - it)) || !cmp_key_ok(row, k)))
			k++;
		if (k == SL_ARRAY_SIZE(arg_slots)) {
			struct sl_suggest sg;
			char hint[160], keys[512];
			size_t off = 0;

			sl_suggest_init(&sg, it, (size_t)(eq - it));
			for (size_t i = 0; i < SL_ARRAY_SIZE(arg_slots); i++)
				if (cmp_key_ok(row, i)) {
					sl_suggest_add(&sg, arg_slots[i].key);
					off += (size_t)snprintf(keys + off, sizeof(keys) - off,
								"%s%s", off ? ", " : "",
								arg_slots[i].key);
				}
			return die("compare: --config '%s': unknown key '%.*s'%s (keys: %s, label)",
				   text, (int)(eq - it), it,
				   sl_suggest_text(&sg, hint, sizeof(hint)), keys);
		}
		for (int i = 0; i < x->naxes; i++)
			if ((size_t)x->axis[i] == k)
				return die("compare: --config '%s': --%s already gives a list of "
					   "values to compare",
					   text, arg_slots[k].key);
		/* the option as typed, through run's parser */
		struct cli one;
		char *w[3] = {"schedlab", "compare", cmp_store(x, "--", it)};

		if (!w[2])
			return die("compare: --config: the configurations are too long");
		if (parse_options(3, w, 2, &one, row))
			return 2;
		char *dst = (char *)a;
		const char *src = (const char *)&one.a;

		if (arg_slots[k].count < 0) {
			*(const char **)(void *)(dst + arg_slots[k].off) =
				*(const char *const *)(const void *)(src + arg_slots[k].off);
		} else if (add_list((const char **)(void *)(dst + arg_slots[k].off),
				    (int *)(void *)(dst + arg_slots[k].count),
				    *(const char *const *)(const void *)(src + arg_slots[k].off),
				    arg_slots[k].key)) {
			return 2;
		}
		sl_append(words, sizeof(words), &loff, "%s%s", loff ? "," : "", it);
	}
	if (!*named)
		snprintf(label, llen, "%s", words);
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	const struct sl_cli_cmd *row = sl_cli_find_cmd("compare");
	struct cmp_cli *x = calloc(1, sizeof(*x));
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	struct sl_compare_opts o = {.nseeds = 1};
	int nrest = 2, rc = 2;
	char err[4600];

	if (!x || !rest) {
		rc = die("out of memory");
		goto out;
	}
	rest[0] = argv[0];
	rest[1] = argv[1];
	for (int i = 2; i < argc; i++) {
		const struct sl_cli_opt *op;
		const char *v;
		int at = i;

		if (next_arg(row, argc, argv, &i, &op, &v))
			goto out;
		if (op && !strcmp(op->key, "compare-config")) {
			if (add_list(x->configs, &x->nconfigs, v, op->name))
				goto out;
		} else if (op && !strcmp(op->key, "repro-seeds")) {
			char *end;
			long n = strtol(v, &end, 10);

			if (!*v || *end || n < 1 || n > SL_SPREAD_MAX) {
				rc = die("--seeds: '%s' is not a count 1..%d", v, SL_SPREAD_MAX);
				goto out;
			}
			o.nseeds = (int)n;
		} else if (op && !strcmp(op->key, "compare-plot")) {
			o.plot = v;
		} else {
			while (at <= i)
				rest[nrest++] = argv[at++];
		}
	}
	rc = parse_options(nrest, rest, 2, &x->c, row);
	if (rc)
		goto out;
	/* an earlier value of an option given twice, checked as run checks it; lists apart */
	int np = 0;

	for (int p = 0; p < x->c.nprior; p++)
		if (!strchr(x->c.prior_val[p], ',')) {
			x->c.prior_key[np] = x->c.prior_key[p];
			x->c.prior_val[np++] = x->c.prior_val[p];
		}
	x->c.nprior = np;
	rc = check_priors(&x->c);
	if (rc)
		goto out;
	rc = 2;
	if (!x->c.a.nworkloads) {
		die("compare: give at least one --workload (see schedlab workloads)");
		goto out;
	}
	/* the lists: each value of each is a configuration, the lists multiplying */
	long nconf = x->nconfigs ? x->nconfigs : 1;

	for (size_t k = 0; k < SL_ARRAY_SIZE(arg_slots); k++) {
		const char *v = *(const char *const *)(const void *)((const char *)&x->c.a +
								     arg_slots[k].off);
		char *copy, *save = NULL;
		int n = 0;

		if (arg_slots[k].count >= 0 || !v || !strchr(v, ',') || !cmp_key_ok(row, k))
			continue;
		if (!(copy = cmp_store(x, v, ""))) {
			die("compare: --%s: too long", arg_slots[k].key);
			goto out;
		}
		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			if (n == SL_MAX_LIST) {
				die("compare: --%s: at most %d values", arg_slots[k].key,
				    SL_MAX_LIST);
				goto out;
			}
			x->vals[x->naxes][n++] = t;
		}
		if (!n) {
			die("compare: --%s '%s': no value", arg_slots[k].key, v);
			goto out;
		}
		x->nvals[x->naxes] = n;
		x->axis[x->naxes++] = (int)k;
		nconf *= n;
		if (nconf > SL_COMPARE_MAX_CONF)
			break;
	}
	if (nconf > SL_COMPARE_MAX_CONF) {
		die("compare: more than %d configurations (the lists multiply, times each "
		    "--config)",
		    SL_COMPARE_MAX_CONF);
		goto out;
	}
	/* configuration ci: the lists' values of ci / nce (the last list fastest), then the
	 * --config ci % nce */
	int nce = x->nconfigs ? x->nconfigs : 1;

	for (int ci = 0; ci < nconf; ci++) {
		struct sl_compare_conf *cf = &x->conf[ci];
		size_t loff = 0;
		char cl[48] = "";

		cf->a = x->c.a;
		for (int i = 0, rem = ci / nce; i < x->naxes; i++) {
			int below = 1;

			for (int j = i + 1; j < x->naxes; j++)
				below *= x->nvals[j];
			const char *v = x->vals[i][rem / below];

			rem %= below;
			*(const char **)(void *)((char *)&cf->a + arg_slots[x->axis[i]].off) = v;
			const char *key = arg_slots[x->axis[i]].key;
			/* a release, a machine or a governor says what it is; a number does not */
			bool bare = !strcmp(key, "kernel") || !strcmp(key, "machine") ||
				    !strcmp(key, "cpuidle-governor");

			sl_append(cf->label, sizeof(cf->label), &loff, "%s%s%s%s", loff ? " " : "",
				  bare ? "" : key, bare ? "" : "=", v);
		}
		bool named = false;

		if (x->nconfigs) {
			if (cmp_config(x, row, x->configs[ci % nce], &cf->a, cl, sizeof(cl),
				       &named))
				goto out;
			sl_append(cf->label, sizeof(cf->label), &loff, "%s%s",
				  loff && cl[0] ? " " : "", cl);
		}
		/* a long name of words: a number (the list of configurations gives the words) */
		if (!named && strlen(cf->label) > 24)
			snprintf(cf->label, sizeof(cf->label), "c%d", ci + 1);
		if (!cf->label[0])
			snprintf(cf->label, sizeof(cf->label), "as given");
		/* two columns of one name could not be told apart (a value given twice, or one
		 * label= for two configurations) */
		for (int cj = 0; cj < ci; cj++)
			if (!strcmp(x->conf[cj].label, cf->label)) {
				die("compare: configurations %d and %d are both '%s' "
				    "(each needs its own values or label=)",
				    cj + 1, ci + 1, cf->label);
				goto out;
			}
	}
	o.nworkloads = x->c.a.nworkloads;
	memcpy(o.workloads, x->c.a.workloads, sizeof(o.workloads));
	o.conf = x->conf;
	o.nconf = (int)nconf;
	o.json = x->c.json;
	o.progress = !x->c.no_progress && isatty(STDERR_FILENO);
	struct dest d;

	rc = dest_open(&d, x->c.output);
	if (!rc) {
		sl_interrupt_install(true);
		rc = sl_compare(&o, d.f, err, sizeof(err));
		if (rc == SL_COMPARE_EINPUT)
			die("%s", err);
		else if (rc)
			fprintf(stderr, "schedlab: %s\n", err);
		rc = dest_close(&d, rc);
	}
out:
	free(rest);
	free(x);
	return rc;
}

static int cmd_trace_stats(int argc, char **argv)
{
	const struct sl_cli_cmd *row = sl_cli_find_cmd("trace-stats");
	const char *path = NULL, *output = NULL;
	bool json = false, lenient = false;
	struct sl_trace_sort sort = {.n = 1, .key = {SL_TRACE_SORT_PID}};
	char err[2048];

	for (int i = 2; i < argc; i++) {
		const struct sl_cli_opt *op;
		const char *v;

		if (next_arg(row, argc, argv, &i, &op, &v))
			return 2;
		if (!op && path)
			return die("trace-stats: one trace at a time ('%s' and '%s')", path, v);
		if (!op)
			path = v;
		else if (!strcmp(op->key, "json"))
			json = true;
		else if (!strcmp(op->key, "lenient"))
			lenient = true;
		else if (!strcmp(op->key, "sort")) {
			if (sl_trace_sort_parse(v, &sort, err, sizeof(err)))
				return die("trace-stats: %s", err);
		} else
			output = v;
	}
	if (!path)
		return die("trace-stats: give a trace file (text, .xz or .gz), or - for stdin");
	sl_outfile_input(path);
	struct dest d;

	int oc = dest_open(&d, output); /* 2: a bad name, 1: it cannot be made */

	if (oc)
		return oc;
	int rc = sl_trace_stats(path, lenient, &sort, json, d.f, err, sizeof(err)) ? die("%s", err)
										   : 0;

	return dest_close(&d, rc);
}

static int cmd_replay_idle(int argc, char **argv)
{
	const struct sl_cli_cmd *row = sl_cli_find_cmd("replay-idle");
	const char *path = NULL, *machine = NULL, *govs[16], *output = NULL;
	static char gbuf[512];
	int ngovs = 0;
	bool json = false, lenient = false;
	char err[2048];

	for (int i = 2; i < argc; i++) {
		const struct sl_cli_opt *op;
		const char *v;

		if (next_arg(row, argc, argv, &i, &op, &v))
			return 2;
		if (!op && path)
			return die("replay-idle: one trace at a time");
		if (!op) {
			path = v;
		} else if (!strcmp(op->key, "json")) {
			json = true;
		} else if (!strcmp(op->key, "lenient")) {
			lenient = true;
		} else if (!strcmp(op->key, "output")) {
			output = v;
		} else if (!strcmp(op->key, "machine")) {
			machine = v;
		} else {
			ngovs = split_list(v, gbuf, sizeof(gbuf), govs, 16, op->name);
			if (ngovs < 0)
				return 2;
		}
	}
	if (!path)
		return die("replay-idle: give a trace file (text, .xz or .gz), or - for stdin");
	sl_outfile_input(path);
	struct dest d;

	int oc = dest_open(&d, output); /* 2: a bad name, 1: it cannot be made */

	if (oc)
		return oc;
	int rc = sl_replay_idle(path, machine, govs, ngovs, lenient, json, d.f, err, sizeof(err))
			 ? die("%s", err)
			 : 0;

	return dest_close(&d, rc);
}

static int cmd_record(int argc, char **argv)
{
	const char *out = NULL, *events[64], *calib = NULL;
	static char ebuf[2048];
	struct sl_machine_conf mc;
	int nevents = 0, i;
	char err[2048];

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "--calibration") && i + 1 < argc) {
			calib = argv[++i];
			continue;
		}
		if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") ||
		     !strcmp(argv[i], "--events")) &&
		    i + 1 < argc) {
			if (strcmp(argv[i], "--events")) {
				out = argv[++i];
			} else {
				nevents = split_list(argv[++i], ebuf, sizeof(ebuf), events, 64,
						     "--events");
				if (nevents < 0)
					return 2;
			}
			continue;
		}
		return die("record: unexpected '%s' (record -o FILE [--events LIST] "
			   "[--calibration DIR] -- CMD ...)",
			   argv[i]);
	}
	if (!out)
		return die("record: give -o FILE");
	if (!out[0])
		return die("record: -o: an empty file name");
	if (!strcmp(out, "-"))
		return die("record: -o -: expected a file for the trace (a FILE.machine.conf goes "
			   "beside it)");
	if (i >= argc)
		return die("record: give a command after --");
	/* the output's directory before the command runs, not after (exit status 1) */
	char odir[4096];
	struct stat ost;

	snprintf(odir, sizeof(odir), "%s", out);
	const char *od = dirname(odir);
	/* access: a read-only file system, found before the command runs */
	int oe = stat(od, &ost)		   ? errno
		 : !S_ISDIR(ost.st_mode)   ? ENOTDIR
		 : access(od, W_OK | X_OK) ? errno
					   : 0;

	if (!oe && !stat(out, &ost) && S_ISDIR(ost.st_mode))
		oe = EISDIR;
	if (oe) {
		fprintf(stderr, "schedlab: record: -o %s: %s\n", out, strerror(oe));
		return 1;
	}
	/* the costs a replay of the trace takes (workload/trace.h), checked before recording;
	 * without --calibration, this machine's switch and cache costs measured now (calibrate's
	 * rows, fewer batches), so that a replay of any recording is priced as its machine */
	bool have_conf = false;

	if (sl_record_check_events(events, nevents, err, sizeof(err)))
		return die("%s", err);
	if (calib && !strcmp(calib, "none")) {
		/* nothing beside the trace */
	} else if (calib) {
		if (sl_machine_conf_for_trace(&mc, calib, err, sizeof(err)))
			return die("record --calibration: %s", err);
		have_conf = true;
	} else if (geteuid() == 0) {
		struct sl_calibration c;

		fprintf(stderr,
			"schedlab: record: measuring this machine's switch and cache costs "
			"for the replay (about a second; --calibration DIR gives a calibration's, "
			"--calibration none: none)...\n");
		if (sl_calibrate_for_trace(&mc, &c, err, sizeof(err))) {
			fprintf(stderr,
				"schedlab: record: %s: no FILE.machine.conf (a replay will "
				"use the model's defaults)\n",
				err);
		} else {
			have_conf = true;
			fprintf(stderr,
				"schedlab: record: ctx_switch %llu ns, ctx_switch_bare %llu ns, "
				"cache_refill %llu ns, %s %llu ns, timer_slack %llu ns\n",
				(unsigned long long)c.ctx_switch_ns,
				(unsigned long long)c.bare_switch_ns,
				(unsigned long long)c.cache_refill_ns,
				sl_cal_migrate_param[c.migrate_level],
				(unsigned long long)c.migrate_ns,
				(unsigned long long)c.timer_slack_ns);
		}
	}
	/* a trace saved (a new file at out: sl_record renames a complete one there) gets its
	 * costs beside it, also when CMD failed or a signal stopped the recording */
	struct stat before, after;
	bool existed = !stat(out, &before);
	int rc = sl_record(out, events, nevents, argv + i, err, sizeof(err));
	bool saved = rc >= 0 && !stat(out, &after) &&
		     (!existed || after.st_ino != before.st_ino || after.st_dev != before.st_dev);

	int conf_rc = 0;

	if (saved && have_conf) {
		char conf[PATH_MAX], cerr[2048];

		sl_tw_costs_path(conf, sizeof(conf), out);
		if (sl_machine_conf_write(conf, &mc, cerr, sizeof(cerr))) {
			fprintf(stderr, "schedlab: record: %s\n", cerr);
			conf_rc = 1;
		}
	}

	if (rc == SL_RECORD_INTERRUPTED) {
		sl_say(stderr, err);
		return 130;
	}
	if (rc < 0)
		return die("%s", err);
	if (rc > 0) {
		sl_say(stderr, err);
		return 1;
	}
	return conf_rc;
}

static void machines_table(FILE *f, const void *arg)
{
	(void)arg;
	for (int i = 0; i < sl_nidle_profiles; i++)
		fprintf(f, "%-16s %s\n", sl_idle_profiles[i]->name, sl_idle_profiles[i]->help);
}

static int cmd_machines(int argc, char **argv)
{
	struct cli c;
	int rc = list_options(argc, argv, &c, "machines");

	return rc ? rc
		  : list_out(&c, c.json ? sl_list_machines_json() : NULL, machines_table, NULL);
}

static void governors_table(FILE *f, const void *arg)
{
	(void)arg;
	for (int i = 0; i < sl_cpuidle_ngovernors; i++)
		fprintf(f, "%-12s rating %2d  %s\n", sl_cpuidle_governors[i]->name,
			sl_cpuidle_governors[i]->rating, sl_cpuidle_governors[i]->help);
}

static int cmd_governors(int argc, char **argv)
{
	struct cli c;
	int rc = list_options(argc, argv, &c, "governors");

	return rc ? rc
		  : list_out(&c, c.json ? sl_list_governors_json() : NULL, governors_table, NULL);
}

static void params_table(FILE *f, const void *arg)
{
	(void)arg;
	for (int i = 0; i < sl_param_count; i++) {
		const struct sl_param_desc *d = &sl_param_table[i];

		if (d->is_count)
			fprintf(f, "%-15s %10llu     %s\n", d->name, (unsigned long long)d->def,
				d->why);
		else
			fprintf(f, "%-15s %10lluns   %s\n", d->name, (unsigned long long)d->def,
				d->why);
	}
}

static int cmd_params(int argc, char **argv)
{
	struct cli c;
	int rc = list_options(argc, argv, &c, "params");

	return rc ? rc : list_out(&c, c.json ? sl_list_params_json() : NULL, params_table, NULL);
}

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
	/* the policies first: --vary may name their sysctls */
	for (int i = 2; i < argc; i++) {
		const char *pol = NULL, *name = NULL;

		if (!strcmp(argv[i], "--policy") && i + 1 < argc)
			pol = argv[++i];
		else if (!strncmp(argv[i], "--policy=", 9))
			pol = argv[i] + 9;
		if (pol && load_policy(pol, &name)) {
			free(rest);
			return 2;
		}
	}
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
	rc = parse_options(nrest, rest, 2, &c, sl_cli_find_cmd("sweep"));
	free(rest);
	if (!rc)
		rc = check_priors(&c);
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
	const struct sl_cli_cmd *row = sl_cli_find_cmd(argv[1]);
	struct sl_report_opts o;
	const char *output = NULL;

	memset(&o, 0, sizeof(o));
	o.top = 10;
	for (int i = 2; i < argc; i++) {
		const struct sl_cli_opt *op;
		const char *v;

		if (next_arg(row, argc, argv, &i, &op, &v))
			return 2;
		if (!op) {
			if (o.nfiles == SL_MAX_LIST)
				return die("at most %d files", SL_MAX_LIST);
			o.files[o.nfiles++] = v;
		} else if (!strcmp(op->key, "json")) {
			o.json = true;
		} else if (!strcmp(op->key, "output")) {
			output = v;
		} else if (!strcmp(op->key, "plot")) {
			o.plot_dir = v;
		} else if (!strcmp(op->key, "merge-out")) {
			o.merge_out = v;
		} else if (!strcmp(op->key, "metric")) {
			if (o.nmetrics == SL_MAX_LIST)
				return die("--metric: at most %d", SL_MAX_LIST);
			o.metrics[o.nmetrics++] = v;
		} else {
			char *end;
			long n = v ? strtol(v, &end, 10) : 0;

			if (!v || *end || n < 1 || n > 1000)
				return die("--top wants a number from 1 to 1000, got '%s'", v);
			o.top = (int)n;
		}
	}
	if (!o.nfiles)
		return die("%s: give the sweep's --out file(s)", argv[1]);
	if (merge && !o.merge_out)
		return die("sweep-merge: give --out FILE");
	if (merge && !o.merge_out[0])
		return die("sweep-merge: --out: an empty file name");
	if (merge && !strcmp(o.merge_out, "-"))
		return die("sweep-merge: --out -: expected a file (FILE.csv or FILE.jsonl, which "
			   "sweep-report reads)");
	for (int k = 0; k < o.nfiles && !merge; k++)
		sl_outfile_input(o.files[k]);
	struct dest d;

	int oc = dest_open(&d, output); /* 2: a bad name, 1: it cannot be made */

	if (oc)
		return oc;
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

/* An unknown command: the nearest one (did you mean), and every command (experiment: every
 * repro experiment). */
static int unknown_command(const char *what, const char *cmd)
{
	struct sl_suggest sg;
	char list[512] = "", hint[160];
	bool exp = !strcmp(what, "experiment");
	size_t at = 0;

	sl_suggest_init(&sg, cmd, strlen(cmd));
	for (int i = 0; i < sl_cli_ncmds; i++)
		sl_suggest_add(&sg, sl_cli_cmds[i].name);
	if (!exp)
		sl_cli_command_list(list, sizeof(list));
	for (int i = 0; exp && i < sl_cli_ncmds; i++)
		if (!strncmp(sl_cli_cmds[i].name, "repro ", 6))
			sl_append(list, sizeof(list), &at, "%s%s", at ? ", " : "",
				  sl_cli_cmds[i].name + 6);
	return die("unknown %s '%s'%s (%s: %s)", what, cmd,
		   sl_suggest_text(&sg, hint, sizeof(hint)), exp ? "experiments" : "commands",
		   list);
}

/* `schedlab help [CMD [SUB]]`: the usage, or the command's help (each repro experiment's). */
static int cmd_help(int argc, char **argv)
{
	if (argc < 3) {
		sl_cli_print_usage(stdout);
		return 0;
	}
	char name[64];
	const struct sl_cli_cmd *cmd;

	if (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
		sl_cli_print_help(stdout, sl_cli_find_cmd("help"));
		return 0;
	}
	/* an option is no command name (`help run --json` said "unknown command 'run --json'") */
	for (int i = 2; i < argc && i < 4; i++)
		if (argv[i][0] == '-')
			return die("help: unexpected '%s' (schedlab help COMMAND [EXPERIMENT]: "
				   "the help is text only)",
				   argv[i]);
	snprintf(name, sizeof(name), "%s%s%s", argv[2], argc > 3 ? " " : "",
		 argc > 3 ? argv[3] : "");
	if (argc > 4)
		return die("help: give one command (schedlab help COMMAND)");
	cmd = sl_cli_find_cmd(name);
	if (cmd) {
		sl_cli_print_help(stdout, cmd);
		return 0;
	}
	size_t n = strlen(name);
	bool any = false;

	/* `help repro`: the experiments, one line each, then each one's help */
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strncmp(sl_cli_cmds[i].name, name, n) && sl_cli_cmds[i].name[n] == ' ') {
			if (!any)
				printf("schedlab %s EXPERIMENT [OPTIONS], the experiments:\n",
				       name);
			printf("  %-10s %s\n", sl_cli_cmds[i].name + n + 1, sl_cli_cmds[i].summary);
			any = true;
		}
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strncmp(sl_cli_cmds[i].name, name, n) && sl_cli_cmds[i].name[n] == ' ') {
			fputs("\n", stdout);
			sl_cli_print_help(stdout, &sl_cli_cmds[i]);
		}
	return any ? 0 : unknown_command("command", name);
}

/* The handlers whose signature is not a command's, adapted for the table below. */
static int cmd_sweep_report_only(int argc, char **argv)
{
	return cmd_sweep_report(argc, argv, false);
}

static int cmd_sweep_merge(int argc, char **argv)
{
	return cmd_sweep_report(argc, argv, true);
}

/*
 * Each command's handler, by the name of its row in sl_cli_cmds. The rows are in cli_table.c,
 * which schedlab-gendoc links without the handlers, so the handlers are here, and
 * check_handlers() refuses every invocation unless each row has exactly one and each one has a
 * row: a new row cannot run another command's handler, and every test that runs schedlab fails
 * until it has its line here.
 */
struct handler {
	const char *cmd; /* the row's name: "run", "repro fio" */
	int (*fn)(int argc, char **argv);
};

static const struct handler handlers[] = {
	{"run", cmd_run},
	{"compare", cmd_compare},
	{"demo", cmd_demo},
	{"repro fio", cmd_repro},
	{"repro sleepers", cmd_repro},
	{"repro fork", cmd_repro},
	{"repro bfs", cmd_repro},
	{"sweep", cmd_sweep},
	{"sweep-report", cmd_sweep_report_only},
	{"sweep-merge", cmd_sweep_merge},
	{"trace-stats", cmd_trace_stats},
	{"replay-idle", cmd_replay_idle},
	{"trace-workload", sl_cli_trace_workload},
	{"record", cmd_record},
	{"validate", sl_cli_validate},
	{"calibrate", sl_cli_calibrate},
	{"features", cmd_features},
	{"sysctl", cmd_sysctl},
	{"workloads", cmd_workloads},
	{"params", cmd_params},
	{"machines", cmd_machines},
	{"governors", cmd_governors},
	{"help", cmd_help},
};

static const struct handler *handler_of(const char *name)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(handlers); i++)
		if (!strcmp(handlers[i].cmd, name))
			return &handlers[i];
	return NULL;
}

/*
 * The command table and the handlers agree, one to one, and every option of args_fields.h has
 * its row; else a message naming the row and exit status 70 (EX_SOFTWARE: a defect of
 * schedlab, not of what the user typed).
 */
static int check_handlers(void)
{
	const char *fmt = "schedlab: internal error: command '%s' %s\n";

	for (int i = 0; i < sl_cli_ncmds; i++) {
		const char *name = sl_cli_cmds[i].name;

		if (sl_cli_find_cmd(name) != &sl_cli_cmds[i]) {
			fprintf(stderr, fmt, name, "is twice in cli_table.c");
			return 70;
		}
		if (!handler_of(name)) {
			fprintf(stderr, fmt, name, "has no handler in main.c");
			return 70;
		}
	}
	for (size_t i = 0; i < SL_ARRAY_SIZE(arg_slots); i++)
		if (!sl_cli_find_opt(arg_slots[i].key)) {
			fprintf(stderr,
				"schedlab: internal error: option '%s' of args_fields.h has no row "
				"in cli_table.c\n",
				arg_slots[i].key);
			return 70;
		}
	for (size_t i = 0; i < SL_ARRAY_SIZE(handlers); i++) {
		const char *name = handlers[i].cmd;

		if (handler_of(name) != &handlers[i]) {
			fprintf(stderr, fmt, name, "has two handlers in main.c");
			return 70;
		}
		if (!sl_cli_find_cmd(name)) {
			fprintf(stderr, fmt, name,
				"has a handler in main.c but no row in cli_table.c");
			return 70;
		}
	}
	return 0;
}

static int dispatch(int argc, char **argv)
{
	int bad = check_handlers();

	if (bad)
		return bad;
	if (argc < 2) {
		fputs("schedlab: no command given\n", stderr);
		sl_cli_print_usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];

	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help"))
		return cmd_help(argc, argv);
	if (!strcmp(cmd, "--version")) {
		if (argc > 2)
			return die("unexpected argument '%s' (schedlab --version takes none)",
				   argv[2]);
		printf("schedlab %s\n", SCHEDLAB_VERSION);
		return 0;
	}
	/* the table's row: `repro fio` is a command of two words */
	char name[64];
	const struct sl_cli_cmd *row;
	int first = 2;

	if (!strcmp(cmd, "repro")) {
		if (argc < 3 || !strcmp(argv[2], "--help") || !strcmp(argv[2], "-h")) {
			char *h[] = {argv[0], "help", "repro"};

			if (argc < 3)
				return die(
					"repro: give the experiment: fio, sleepers, fork or bfs");
			return cmd_help(3, h);
		}
		snprintf(name, sizeof(name), "repro %.50s", argv[2]);
		if (!sl_cli_find_cmd(name))
			return unknown_command("experiment", name);
		first = 3;
	} else {
		snprintf(name, sizeof(name), "%.60s", cmd);
	}
	row = sl_cli_find_cmd(name);
	if (!row || !strcmp(name, "help"))
		return unknown_command("command", cmd);
	bool done;

	if (!row->opts[0] && argc > 2 && strcmp(argv[2], "--help") && strcmp(argv[2], "-h"))
		return die("%s takes no options", cmd);
	int rc = check_args(row, argc, argv, first, &done);

	if (rc || done)
		return rc;
	return handler_of(row->name)->fn(argc, argv);
}
