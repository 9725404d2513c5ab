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

/* The words a value of o completes to, space-separated, into buf (the per-release words of
 * --sched-features and --sysctl, and the workloads' keys, are the helpers' below). */
static void words(const struct sl_cli_opt *o, char *buf, size_t len)
{
	size_t at = 0;

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
	default:
		break;
	}
#undef ADD
	if (at >= len)
		buf[len - 1] = '\0';
}

/* A release's sched_features words (each flag and NO_flag), space-separated. */
static void feature_words(const struct sl_release *rel)
{
	for (int i = 0; i < rel->feats.n; i++)
		printf("%s%s NO_%s", i ? " " : "", rel->feats.flags[i].name,
		       rel->feats.flags[i].name);
}

/* A release's sysctls as NAME=, space-separated (the value follows without a space). */
static void sysctl_words(const struct sl_release *rel)
{
	for (int i = 0; i < sl_sysctl_count(rel); i++)
		printf("%s%s=", i ? " " : "", sl_sysctl_nth(rel, i)->name);
}

/* A workload's keys, space-separated; the keys every workload has last. */
static void workload_keys(const struct sl_workload_ops *w)
{
	for (int k = 0; k < w->nkeys; k++)
		printf("%s ", w->keys[k].name);
	for (int k = 0; k < sl_wl_ncommon_keys; k++)
		printf("%s%s", k ? " " : "", sl_wl_common_keys[k].name);
}

/* The repro experiments (the table's "repro X" rows), space-separated. */
static void repro_words(const char *sep)
{
	bool first = true;

	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strncmp(sl_cli_cmds[i].name, "repro ", 6)) {
			printf("%s%s", first ? "" : sep, sl_cli_cmds[i].name + 6);
			first = false;
		}
}

/*
 * The workload keys whose value is a path (SL_WL_FILE, SL_WL_DIR rows; only directories if dirs),
 * each once, as pre NAME post, sep between them.
 */
static void path_keys(bool dirs, const char *pre, const char *post, const char *sep)
{
	int n = 0;

	for (int i = 0; i < sl_nworkloads; i++) {
		for (int k = 0; k < sl_workloads[i]->nkeys; k++) {
			const struct sl_wl_key *key = &sl_workloads[i]->keys[k];
			bool seen = false;

			if (key->type != SL_WL_DIR && (dirs || key->type != SL_WL_FILE))
				continue;
			for (int j = 0; j <= i && !seen; j++)
				for (int m = 0; m < (j < i ? sl_workloads[j]->nkeys : k) && !seen;
				     m++)
					seen = sl_workloads[j]->keys[m].type == key->type &&
					       !strcmp(sl_workloads[j]->keys[m].name, key->name);
			if (!seen)
				printf("%s%s%s%s", n++ ? sep : "", pre, key->name, post);
		}
	}
}

/*
 * The bash helpers: the --kernel on the line (for the per-release words), and a workload's
 * value: its name, then NAME: followed by its keys (file= first where the workload reads one),
 * then after a key naming a file or a directory (its row's type) a file or a directory.
 */
static void bash_helpers(void)
{
	printf("# the --kernel given on the line, else the default release\n"
	       "_schedlab_kernel()\n{\n\tlocal i k=%s\n"
	       "\tfor ((i = 2; i < ${#words[@]} - 1; i++)); do\n\t\tcase ${words[i]} in\n"
	       "\t\t--kernel) k=${words[i + 1]} ;;\n\t\t--kernel=*) k=${words[i]#--kernel=} ;;\n"
	       "\t\tesac\n\tdone\n\tprintf '%%s' \"$k\"\n}\n",
	       sl_release_default()->name);
	/* a --policy plug-in's names are known only to the schedlab that loads it: asked there */
	fputs("# the --policy given on the line, if any\n_schedlab_policy()\n{\n\tlocal i p=\n"
	      "\tfor ((i = 2; i < ${#words[@]} - 1; i++)); do\n\t\tcase ${words[i]} in\n"
	      "\t\t--policy) p=${words[i + 1]} ;;\n\t\t--policy=*) p=${words[i]#--policy=} ;;\n"
	      "\t\tesac\n\tdone\n\tprintf '%s' \"$p\"\n}\n",
	      stdout);
	printf("# the sched_features words of that release (or of the --policy)\n"
	       "_schedlab_features()\n{\n\tlocal p w\n\tp=$(_schedlab_policy)\n"
	       "\tif [ -n \"$p\" ]; then\n"
	       "\t\tfor w in $(\"${words[0]}\" features --policy \"$p\" 2>/dev/null); do\n"
	       "\t\t\tw=${w#NO_}\n\t\t\techo \"$w NO_$w\"\n\t\tdone\n\t\treturn\n\tfi\n"
	       "\tcase $(_schedlab_kernel) in\n");
	for (int r = 0; r < sl_nreleases; r++) {
		printf("\t\"%s\") echo \"", sl_releases[r]->name);
		feature_words(sl_releases[r]);
		printf("\" ;;\n");
	}
	printf("\t*) echo \"");
	feature_words(sl_release_default());
	printf("\" ;;\n\tesac\n}\n");
	printf("# the sysctls of that release (or of the --policy), NAME=\n_schedlab_sysctls()\n{\n"
	       "\tlocal p n v\n\tp=$(_schedlab_policy)\n\tif [ -n \"$p\" ]; then\n"
	       "\t\t\"${words[0]}\" sysctl --policy \"$p\" 2>/dev/null |\n"
	       "\t\t\twhile read -r n v; do echo \"$n=\"; done\n\t\treturn\n\tfi\n"
	       "\tcase $(_schedlab_kernel) in\n");
	for (int r = 0; r < sl_nreleases; r++) {
		printf("\t\"%s\") echo \"", sl_releases[r]->name);
		sysctl_words(sl_releases[r]);
		printf("\" ;;\n");
	}
	printf("\t*) echo \"");
	sysctl_words(sl_release_default());
	printf("\" ;;\n\tesac\n}\n");
	printf("# a --workload value: NAME, then NAME:KEY=, then a file or a directory after a "
	       "key\n"
	       "# that names one\n"
	       "_schedlab_workload()\n{\n\tlocal spec last pre keys w f\n"
	       "\tif [[ $cur != *:* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	for (int i = 0; i < sl_nworkloads; i++)
		printf("%s%s", i ? " " : "", sl_workloads[i]->name);
	printf("\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	       "\tspec=${cur#*:}\n\tlast=${spec##*,}\n\tpre=${cur%%\"$last\"}\n"
	       "\tcase $last in\n\t");
	path_keys(false, "", "=*", " | ");
	printf(")\n\t\tw=-f\n\t\tcase $last in ");
	path_keys(true, "", "=*", " | ");
	printf(") w=-d ;; esac\n"
	       "\t\twhile IFS= read -r f; do\n\t\t\t[[ -d $f ]] && f=$f/\n"
	       "\t\t\tCOMPREPLY+=(\"$pre${last%%%%=*}=$f\")\n"
	       "\t\tdone < <(compgen $w -- \"${last#*=}\")\n"
	       "\t\t# a directory: no space after it, its files come next\n"
	       "\t\t[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]] &&\n"
	       "\t\t\tcompopt -o nospace 2>/dev/null\n\t\treturn\n\t\t;;\n"
	       "\t*=*) return ;;\n\tesac\n\tcase ${cur%%%%:*} in\n");
	for (int i = 0; i < sl_nworkloads; i++) {
		printf("\t\"%s\") keys=\"", sl_workloads[i]->name);
		workload_keys(sl_workloads[i]);
		printf("\" ;;\n");
	}
	printf("\t*) return ;;\n\tesac\n"
	       "\t# a workload that reads a file: file= first\n"
	       "\t[[ \" $keys \" == *\" file \"* && \",$spec\" != *,file=* ]] && keys=file\n"
	       "\tfor w in $keys; do\n"
	       "\t\t[[ \",$spec\" == *\",$w=\"* ]] || [[ $w != \"$last\"* ]] || "
	       "COMPREPLY+=(\"$pre$w=\")\n\tdone\n"
	       "\tcompopt -o nospace 2>/dev/null\n}\n");
}

static void bash(void)
{
	const struct sl_cli_opt *o;
	char w[8192];

	printf("# bash completion for schedlab (made by schedlab-gendoc from its option "
	       "table)\n");
	bash_helpers();
	printf("_schedlab_complete()\n{\n"
	       "\tif [ \"$cword\" -eq 1 ]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strchr(sl_cli_cmds[i].name, ' '))
			printf("%s ", sl_cli_cmds[i].name);
	printf("repro --help --version\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
	       "\tif [ \"$cmd\" = repro ]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	repro_words(" ");
	printf("\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
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
			else if (o->complete == SL_COMPLETE_FEATURE)
				printf("\t\tCOMPREPLY=($(compgen -W \"$(_schedlab_features)\" -- "
				       "\"$cur\"))\n");
			else if (o->complete == SL_COMPLETE_SYSCTL)
				printf("\t\tCOMPREPLY=($(compgen -W \"$(_schedlab_sysctls)\" -- "
				       "\"$cur\"))\n\t\tcompopt -o nospace 2>/dev/null\n");
			else if (o->complete == SL_COMPLETE_WORKLOAD)
				printf("\t\t_schedlab_workload\n");
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
	printf("\tesac\n}\n");
	/*
	 * bash splits COMP_WORDS at = and : too (COMP_WORDBREAKS), so the words are read from the
	 * line as the shell splits them, the completions made whole, and what readline replaces
	 * (after the last = or : that breaks its word) cut from their front.
	 */
	printf("_schedlab()\n{\n\tlocal cur prev cmd cword pre i\n\tlocal -a words\n"
	       "\tif [ -n \"${COMP_LINE-}\" ]; then\n"
	       "\t\tread -ra words <<<\"${COMP_LINE:0:COMP_POINT}\"\n"
	       "\t\t[[ \"${COMP_LINE:0:COMP_POINT}\" == *[[:space:]] ]] && words+=(\"\")\n"
	       "\telse\n\t\twords=(\"${COMP_WORDS[@]}\")\n\tfi\n"
	       "\tcword=$((${#words[@]} - 1))\n\tcur=${words[cword]}\n"
	       "\tprev=${words[cword - 1]}\n\tcmd=${words[1]}\n"
	       "\t[ \"$cmd\" = repro ] && [ \"$cword\" -gt 2 ] && cmd=\"repro ${words[2]}\"\n"
	       "\tCOMPREPLY=()\n\t_schedlab_complete\n"
	       "\tpre=\n\t[[ ${COMP_WORDBREAKS-} == *=* ]] && pre=\"$pre=\"\n"
	       "\t[[ ${COMP_WORDBREAKS-} == *:* ]] && pre=\"$pre:\"\n"
	       "\t[ -n \"$pre\" ] && [[ $cur == *[$pre]* ]] || return 0\n"
	       "\tpre=${cur%%\"${cur##*[$pre]}\"}\n"
	       "\tfor i in \"${!COMPREPLY[@]}\"; do\n\t\tCOMPREPLY[i]=${COMPREPLY[i]#\"$pre\"}\n"
	       "\t\t[ -n \"${COMPREPLY[i]}\" ] || unset 'COMPREPLY[i]'\n\tdone\n}\n"
	       "complete -F _schedlab schedlab\n");
}

/* zsh: a value's completion as an _arguments action */
static void zsh_action(const struct sl_cli_opt *o)
{
	char w[8192];

	if (o->complete == SL_COMPLETE_FILE)
		printf("_files");
	else if (o->complete == SL_COMPLETE_DIR)
		printf("_files -/");
	else if (o->complete == SL_COMPLETE_FEATURE)
		printf("_schedlab_features");
	else if (o->complete == SL_COMPLETE_SYSCTL)
		printf("_schedlab_sysctls");
	else if (o->complete == SL_COMPLETE_WORKLOAD)
		printf("_schedlab_workload");
	else if (o->complete != SL_COMPLETE_NONE) {
		words(o, w, sizeof(w));
		printf("(%s)", w);
	} else
		printf(" ");
}

/* A value's placeholder as an _arguments message: ':' ends the message there (NAME:k=v) */
static const char *zsh_arg(const struct sl_cli_opt *o, char *buf, size_t len)
{
	snprintf(buf, len, "%s", o->arg[0] == '\'' ? "WORDS" : o->arg);
	for (char *p = buf; *p; p++)
		if (*p == ':')
			*p = ' ';
	return buf;
}

/* The zsh helpers: the same per-release words and workload keys as bash's. */
static void zsh_helpers(void)
{
	printf("_schedlab_kernel() {\n\tlocal i\n\tREPLY=%s\n"
	       "\tfor ((i = 2; i < CURRENT; i++)); do\n\t\tcase $words[i] in\n"
	       "\t\t--kernel) REPLY=$words[i+1] ;;\n\t\t--kernel=*) REPLY=${words[i]#--kernel=} "
	       ";;\n"
	       "\t\tesac\n\tdone\n}\n",
	       sl_release_default()->name);
	/* a --policy plug-in's names: asked of the schedlab completed for, as bash does */
	fputs("_schedlab_policy() {\n\tlocal i\n\tREPLY=\n"
	      "\tfor ((i = 2; i < CURRENT; i++)); do\n\t\tcase $words[i] in\n"
	      "\t\t--policy) REPLY=$words[i+1] ;;\n\t\t--policy=*) REPLY=${words[i]#--policy=} ;;\n"
	      "\t\tesac\n\tdone\n}\n",
	      stdout);
	for (int s = 0; s < 2; s++) {
		printf("_schedlab_%s() {\n\tlocal -a w\n\tlocal x v\n\t_schedlab_policy\n"
		       "\tif [[ -n $REPLY ]]; then\n",
		       s ? "sysctls" : "features");
		if (s)
			fputs("\t\t$words[1] sysctl --policy $REPLY 2>/dev/null |\n"
			      "\t\t\twhile read -r x v; do w+=(\"$x=\"); done\n"
			      "\t\tcompadd -S '' -a w\n",
			      stdout);
		else
			fputs("\t\tfor x in $($words[1] features --policy $REPLY 2>/dev/null); do\n"
			      "\t\t\tx=${x#NO_}\n\t\t\tw+=($x NO_$x)\n\t\tdone\n"
			      "\t\tcompadd -a w\n",
			      stdout);
		printf("\t\treturn\n\tfi\n\t_schedlab_kernel\n\tcase $REPLY in\n");
		for (int r = 0; r <= sl_nreleases; r++) {
			const struct sl_release *rel =
				r < sl_nreleases ? sl_releases[r] : sl_release_default();

			if (r < sl_nreleases)
				printf("\t\"%s\") w=(", rel->name);
			else
				printf("\t*) w=(");
			if (s)
				sysctl_words(rel);
			else
				feature_words(rel);
			printf(") ;;\n");
		}
		printf("\tesac\n\tcompadd %s-a w\n}\n", s ? "-S '' " : "");
	}
	printf("_schedlab_workload() {\n\tlocal -a keys\n\tlocal wl\n"
	       "\tif ! compset -P '*:'; then\n\t\tcompadd -- ");
	for (int i = 0; i < sl_nworkloads; i++)
		printf("%s%s", i ? " " : "", sl_workloads[i]->name);
	printf("\n\t\treturn\n\tfi\n\twl=${IPREFIX%%%%:*}\n\tcompset -P '*,'\n");
	/* a key naming a file or a directory: complete the path */
	printf("\tif compset -P '(");
	path_keys(false, "", "", "|");
	printf(")='; then\n\t\tcase $IPREFIX in\n\t\t");
	path_keys(true, "*", "=", " | ");
	printf(") _files -/ ;;\n\t\t*) _files ;;\n\t\tesac\n\t\treturn\n\tfi\n"
	       "\tcase $wl in\n");
	for (int i = 0; i < sl_nworkloads; i++) {
		printf("\t\"%s\") keys=(", sl_workloads[i]->name);
		workload_keys(sl_workloads[i]);
		printf(") ;;\n");
	}
	printf("\t*) return ;;\n\tesac\n"
	       "\t[[ ${keys[(I)file]} -gt 0 && \",$IPREFIX\" != *[:,]file=* ]] && keys=(file)\n"
	       "\tcompadd -S '=' -a keys\n}\n");
}

static void zsh(void)
{
	const struct sl_cli_opt *o;

	printf("#compdef schedlab\n# zsh completion for schedlab (made by schedlab-gendoc from "
	       "its option table)\n\n");
	zsh_helpers();
	printf("\n_schedlab() {\n\tlocal -a cmds\n\tcmds=(\n");
	for (int i = 0; i < sl_cli_ncmds; i++)
		if (!strchr(sl_cli_cmds[i].name, ' '))
			printf("\t\t'%s:%s'\n", sl_cli_cmds[i].name, sl_cli_cmds[i].summary);
	printf("\t\t'repro:the 2009 experiments (");
	repro_words(", ");
	printf(")'\n\t)\n"
	       "\tif (( CURRENT == 2 )); then\n\t\t_describe command cmds\n\t\treturn\n\tfi\n"
	       "\tlocal cmd=$words[2]\n"
	       "\tif [[ $cmd == repro ]]; then\n\t\tif (( CURRENT == 3 )); then\n"
	       "\t\t\t_values experiment ");
	repro_words(" ");
	printf("\n\t\t\treturn\n\t\tfi\n"
	       "\t\tcmd=\"repro $words[3]\"\n\tfi\n\tcase $cmd in\n");
	for (int i = 0; i < sl_cli_ncmds; i++) {
		printf("\t\"%s\")\n\t\t_arguments \\\n", sl_cli_cmds[i].name);
		for (int k = 0; (o = sl_cli_cmd_nth(&sl_cli_cmds[i], k)); k++) {
			const char *sep = o->repeat ? "*" : "";
			char help[64], arg[64];

			/* the first sentence, without the characters _arguments gives meaning */
			snprintf(help, sizeof(help), "%s", o->help);
			for (char *p = help; *p; p++)
				if (strchr("[]:'`\\", *p))
					*p = ' ';
			help[strcspn(help, ".;(")] = '\0';
			printf("\t\t\t'%s%s[%s]", sep, o->name, help);
			if (o->arg) {
				printf(":%s:", zsh_arg(o, arg, sizeof(arg)));
				zsh_action(o);
			}
			printf("' \\\n");
			if (o->alias) {
				printf("\t\t\t'%s[%s]", o->alias, help);
				if (o->arg) {
					printf(":%s:", zsh_arg(o, arg, sizeof(arg)));
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
