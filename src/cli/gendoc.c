/*
 * schedlab-gendoc: the man page schedlab.1 and the bash and zsh completions, printed from the
 * option table the binary parses with (cli_table.c) and from the registries (releases, idle
 * profiles, governors, workloads, flags, sysctls), so that none can drift from the program. The
 * build runs it (CMakeLists.txt); `schedlab-gendoc man|bash|zsh`.
 */
#include "cli/cli_table.h"
#include "config/config.h"
#include "cpuidle/profiles.h"
#include "sched/release.h"
#include "sched/sysctl.h"
#include "workload/workload.h"

#include <stdio.h>
#include <string.h>

/* roff: a backslash doubled, a leading dot or quote escaped, hyphens of options as \- */
static void roff(const char *s)
{
	for (const char *p = s; *p; p++) {
		if (*p == '\\')
			fputs("\\e", stdout);
		else if (*p == '-')
			fputs("\\-", stdout);
		else if ((*p == '.' || *p == '\'') && (p == s || p[-1] == '\n'))
			fputs("\\&", stdout), putchar(*p);
		else
			putchar(*p);
	}
}

static void man_opt(const struct sl_cli_opt *o)
{
	fputs(".TP\n", stdout);
	if (o->alias) {
		fputs("\\fB", stdout);
		roff(o->alias);
		fputs("\\fR, ", stdout);
	}
	fputs("\\fB", stdout);
	roff(o->name);
	fputs("\\fR", stdout);
	if (o->arg) {
		fputs(" \\fI", stdout);
		roff(o->arg);
		fputs("\\fR", stdout);
	}
	putchar('\n');
	roff(o->help);
	putchar('\n');
}

static void man(void)
{
	const struct sl_cli_opt *o;

	printf(".TH SCHEDLAB 1 \"\" \"schedlab %s\" \"User Commands\"\n", SCHEDLAB_VERSION);
	printf(".nh\n.ad l\n");
	printf(".SH NAME\nschedlab \\- a deterministic simulator of the Linux 2.6.31/2.6.32 CFS, "
	       "6.18 EEVDF, RT and cpuidle schedulers\n");
	printf(".SH SYNOPSIS\n.B schedlab\n.I COMMAND\n[\\fIOPTIONS\\fR]\n.br\n.B schedlab\n"
	       "\\fICOMMAND\\fR \\fB\\-\\-help\\fR | \\fBhelp\\fR [\\fICOMMAND\\fR] | "
	       "\\fB\\-\\-version\\fR\n");
	printf(".SH DESCRIPTION\nschedlab models a multicore machine running the Completely Fair "
	       "Scheduler of Linux 2.6.31 and 2.6.32 (and the EEVDF class of 6.18) with every "
	       "sched_features flag and scheduler sysctl settable as debugfs and sysctl take them, "
	       "a real-time class, cpuidle governors and block devices; it reports the figures "
	       "kernel engineers measure. The same inputs and seed give byte-identical output.\n");
	printf(".SH COMMANDS\n");
	for (int i = 0; i < sl_cli_ncmds; i++) {
		const struct sl_cli_cmd *c = &sl_cli_cmds[i];

		printf(".SS \"");
		roff(c->name);
		if (c->opts[0])
			printf(" [OPTIONS]");
		if (c->synopsis[0]) {
			putchar(' ');
			roff(c->synopsis);
		}
		printf("\"\n");
		roff(c->help[0] ? c->help : c->summary);
		printf("\n");
		for (int k = 0; (o = sl_cli_cmd_nth(c, k)); k++)
			man_opt(o);
	}
	printf(".SH EXIT STATUS\n0: success. 1: an output could not be written (the file is "
	       "named). "
	       "2: bad input, with a message naming the option, file or line and what was "
	       "expected; nothing is written. 130: interrupted (SIGINT, SIGTERM).\n");
	printf(".SH EXAMPLES\n.nf\nschedlab demo\nschedlab run \\-\\-cpus 1 \\-\\-workload "
	       "hog:tasks=2 \\-\\-duration 1s\nschedlab run \\-\\-workload make:jobs=8,nice=19 "
	       "\\-\\-workload periodic:run=2ms,period=16ms \\-\\-sched\\-features "
	       "NO_NEW_FAIR_SLEEPERS\nschedlab repro fio\n.fi\n");
	printf(".SH FILES\n/usr/share/doc/schedlab/: the documentation (usage.md, workloads.md, "
	       "sweep.md, model/).\n");
	printf(".SH SEE ALSO\n\\fBsysctl\\fR(8), \\fBfio\\fR(1), \\fBrt-app\\fR(1)\n");
}

/* The words a value of o completes to, space-separated, into buf. */
static void words(const struct sl_cli_opt *o, char *buf, size_t len)
{
	size_t at = 0;
	const struct sl_release *rel = sl_release_default();

	buf[0] = '\0';
#define ADD(...) (at += (size_t)snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__))
	switch (o->complete) {
	case SL_COMPLETE_WORDS:
		ADD("%s", o->words);
		break;
	case SL_COMPLETE_KERNEL:
		for (int i = 0; i < sl_nreleases; i++)
			ADD("%s ", sl_releases[i]->name);
		break;
	case SL_COMPLETE_MACHINE:
		for (int i = 0; i < sl_nidle_profiles; i++)
			ADD("%s ", sl_idle_profiles[i]->name);
		ADD("sysfs file:");
		break;
	case SL_COMPLETE_GOVERNOR:
		for (int i = 0; i < sl_cpuidle_ngovernors; i++)
			ADD("%s ", sl_cpuidle_governors[i]->name);
		break;
	case SL_COMPLETE_WORKLOAD:
		for (int i = 0; i < sl_nworkloads; i++)
			ADD("%s ", sl_workloads[i]->name);
		break;
	case SL_COMPLETE_FEATURE:
		for (int r = 0; r < sl_nreleases; r++)
			for (int i = 0; i < sl_releases[r]->feats.n; i++) {
				const char *n = sl_releases[r]->feats.flags[i].name;

				if (!strstr(buf, n))
					ADD("%s NO_%s ", n, n);
			}
		break;
	case SL_COMPLETE_SYSCTL:
		for (int r = 0; r < sl_nreleases; r++)
			for (int i = 0; i < sl_sysctl_count(sl_releases[r]); i++) {
				char w[96];

				snprintf(w, sizeof(w),
					 "%s= ", sl_sysctl_nth(sl_releases[r], i)->name);
				if (!strstr(buf, w))
					ADD("%s", w);
			}
		break;
	default:
		break;
	}
#undef ADD
	(void)rel;
	if (at >= len)
		buf[len - 1] = '\0';
}

static void bash(void)
{
	const struct sl_cli_opt *o;
	char w[8192];

	printf("# bash completion for schedlab (made by schedlab-gendoc from its option "
	       "table)\n_schedlab()\n{\n\tlocal cur prev cmd i\n\tcur=${COMP_WORDS[COMP_CWORD]}\n"
	       "\tprev=${COMP_WORDS[COMP_CWORD-1]}\n\tcmd=${COMP_WORDS[1]}\n"
	       "\t[ \"$cmd\" = repro ] && [ \"$COMP_CWORD\" -gt 2 ] && "
	       "cmd=\"repro ${COMP_WORDS[2]}\"\n"
	       "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strchr(sl_cli_cmds[i].name, ' '))
			printf("%s ", sl_cli_cmds[i].name);
	printf("repro --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	       "\tif [ \"$cmd\" = repro ]; then\n\t\tCOMPREPLY=($(compgen -W \"fio sleepers "
	       "fork\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	       "\tif [ \"$cmd\" = help ]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strchr(sl_cli_cmds[i].name, ' '))
			printf("%s ", sl_cli_cmds[i].name);
	printf("repro\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase \"$cmd|$prev\" in\n");
	for (int i = 0; i < sl_cli_ncmds; i++)
		for (int k = 0; (o = sl_cli_cmd_nth(&sl_cli_cmds[i], k)); k++) {
			if (!o->arg)
				continue;
			printf("\t\"%s|%s\"", sl_cli_cmds[i].name, o->name);
			if (o->alias)
				printf(" | \"%s|%s\"", sl_cli_cmds[i].name, o->alias);
			printf(")\n");
			if (o->complete == SL_COMPLETE_FILE)
				printf("\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n");
			else if (o->complete == SL_COMPLETE_DIR)
				printf("\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n");
			else if (o->complete != SL_COMPLETE_NONE) {
				words(o, w, sizeof(w));
				printf("\t\tCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", w);
			} else
				printf("\t\tCOMPREPLY=()\n");
			printf("\t\treturn\n\t\t;;\n");
		}
	printf("\tesac\n\tcase \"$cmd\" in\n");
	for (int i = 0; i < sl_cli_ncmds; i++) {
		printf("\t\"%s\")\n\t\tCOMPREPLY=($(compgen -W \"", sl_cli_cmds[i].name);
		for (int k = 0; (o = sl_cli_cmd_nth(&sl_cli_cmds[i], k)); k++)
			printf("%s ", o->name);
		printf("--help\" -- \"$cur\"))\n");
		if (sl_cli_cmds[i].synopsis[0] && strchr(sl_cli_cmds[i].synopsis, 'F'))
			printf("\t\t[[ \"$cur\" == -* ]] || COMPREPLY=($(compgen -f -- "
			       "\"$cur\"))\n");
		printf("\t\t;;\n");
	}
	printf("\tesac\n}\ncomplete -F _schedlab schedlab\n");
}

/* zsh: a value's completion as an _arguments action */
static void zsh_action(const struct sl_cli_opt *o)
{
	char w[8192];

	if (o->complete == SL_COMPLETE_FILE)
		printf("_files");
	else if (o->complete == SL_COMPLETE_DIR)
		printf("_files -/");
	else if (o->complete != SL_COMPLETE_NONE) {
		words(o, w, sizeof(w));
		printf("(%s)", w);
	} else
		printf(" ");
}

static void zsh(void)
{
	const struct sl_cli_opt *o;

	printf("#compdef schedlab\n# zsh completion for schedlab (made by schedlab-gendoc from "
	       "its option table)\n\n_schedlab() {\n\tlocal -a cmds\n\tcmds=(\n");
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strchr(sl_cli_cmds[i].name, ' '))
			printf("\t\t'%s:%s'\n", sl_cli_cmds[i].name, sl_cli_cmds[i].summary);
	printf("\t\t'repro:the 2009 experiments (fio, sleepers, fork)'\n\t)\n"
	       "\tif (( CURRENT == 2 )); then\n\t\t_describe command cmds\n\t\treturn\n\tfi\n"
	       "\tlocal cmd=$words[2]\n"
	       "\tif [[ $cmd == repro ]]; then\n\t\tif (( CURRENT == 3 )); then\n"
	       "\t\t\t_values experiment fio sleepers fork\n\t\t\treturn\n\t\tfi\n"
	       "\t\tcmd=\"repro $words[3]\"\n\tfi\n\tcase $cmd in\n");
	for (int i = 0; i < sl_cli_ncmds; i++) {
		printf("\t\"%s\")\n\t\t_arguments \\\n", sl_cli_cmds[i].name);
		for (int k = 0; (o = sl_cli_cmd_nth(&sl_cli_cmds[i], k)); k++) {
			const char *sep = o->repeat ? "*" : "";
			char help[64];

			/* the first sentence, without the characters _arguments gives meaning */
			snprintf(help, sizeof(help), "%s", o->help);
			for (char *p = help; *p; p++)
				if (strchr("[]:'`\\", *p))
					*p = ' ';
			help[strcspn(help, ".;(")] = '\0';
			printf("\t\t\t'%s%s[%s]", sep, o->name, help);
			if (o->arg) {
				printf(":%s:", o->arg[0] == '\'' ? "WORDS" : o->arg);
				zsh_action(o);
			}
			printf("' \\\n");
			if (o->alias) {
				printf("\t\t\t'%s[%s]", o->alias, help);
				if (o->arg) {
					printf(":%s:", o->arg);
					zsh_action(o);
				}
				printf("' \\\n");
			}
		}
		printf("\t\t\t'(-h --help)'{-h,--help}'[the command'\"'\"'s help]'");
		if (strchr(sl_cli_cmds[i].synopsis, 'F'))
			printf(" \\\n\t\t\t'*:file:_files'");
		printf("\n\t\t;;\n");
	}
	printf("\tesac\n}\n\n_schedlab \"$@\"\n");
}

int main(int argc, char **argv)
{
	if (argc != 2)
		goto usage;
	if (!strcmp(argv[1], "man"))
		man();
	else if (!strcmp(argv[1], "bash"))
		bash();
	else if (!strcmp(argv[1], "zsh"))
		zsh();
	else
		goto usage;
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
usage:
	fprintf(stderr, "usage: schedlab-gendoc man|bash|zsh\n");
	return 2;
}
