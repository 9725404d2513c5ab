/*
 * The one table of schedlab's commands and options. The parser (main.c), `schedlab CMD --help`,
 * `schedlab help CMD`, the man page schedlab.1 and the bash and zsh completions
 * (schedlab-gendoc, run by the build) are all made from it, so none of them can drift.
 */
#ifndef SCHEDLAB_CLI_TABLE_H
#define SCHEDLAB_CLI_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#define SCHEDLAB_VERSION "0.1.0"

/* How the shell completes an option's value. */
enum sl_cli_complete {
	SL_COMPLETE_NONE,
	SL_COMPLETE_FILE,
	SL_COMPLETE_DIR,
	SL_COMPLETE_WORDS,    /* the words of .words */
	SL_COMPLETE_KERNEL,   /* the releases of the registry */
	SL_COMPLETE_MACHINE,  /* the idle profiles, file:, sysfs */
	SL_COMPLETE_GOVERNOR, /* the cpuidle governors */
	SL_COMPLETE_WORKLOAD, /* the workloads' names */
	SL_COMPLETE_FEATURE,  /* the sched_features flags of the default release, and NO_ */
	SL_COMPLETE_SYSCTL,   /* the sysctls of the default release, NAME= */
};

struct sl_cli_opt {
	const char *key;   /* unique: what commands list; the name unless one name has two uses */
	const char *name;  /* --kernel */
	const char *alias; /* a short form, -o; or NULL */
	const char *arg;   /* the value's placeholder, V; NULL for a flag */
	bool repeat;	   /* may be given many times, each adds */
	const char *help;  /* one paragraph; the generators wrap it */
	enum sl_cli_complete complete;
	const char *words; /* SL_COMPLETE_WORDS: space-separated */
};

struct sl_cli_cmd {
	const char *name;     /* "run", "repro fio" */
	const char *synopsis; /* positional arguments, e.g. "FILE" or "-- CMD [ARG...]" */
	const char *summary;  /* one line */
	const char *help;     /* one or more paragraphs separated by "\n\n" */
	const char *opts;     /* keys of sl_cli_opts, space-separated */
};

extern const struct sl_cli_opt sl_cli_opts[];
extern const int sl_cli_nopts;
extern const struct sl_cli_cmd sl_cli_cmds[];
extern const int sl_cli_ncmds;

const struct sl_cli_cmd *sl_cli_find_cmd(const char *name);
const struct sl_cli_opt *sl_cli_find_opt(const char *key);
/* The option of cmd named name ("--kernel", "-o", "--out"); NULL if cmd has none such. */
const struct sl_cli_opt *sl_cli_cmd_opt(const struct sl_cli_cmd *cmd, const char *name, size_t n);
/* The i-th option of cmd (NULL past the last). */
const struct sl_cli_opt *sl_cli_cmd_nth(const struct sl_cli_cmd *cmd, int i);
/* `schedlab CMD --help`: the command's synopsis, text and options, wrapped at 80 columns. */
void sl_cli_print_help(FILE *f, const struct sl_cli_cmd *cmd);
/* `schedlab --help`: every command's one line. */
void sl_cli_print_usage(FILE *f);
/* The commands' first words, comma-separated, each once: "run, demo, ..." */
void sl_cli_command_list(char *buf, size_t len);

#endif
