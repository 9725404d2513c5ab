/*
 * `schedlab sweep`: many independent simulations, one per combination of feature flags, other
 * knobs, workload mixes and seeds. A combination is named by its index in a fixed enumeration
 * (the flags vary fastest, then seeds, then each --vary in order, then the mix), so any process
 * that parsed the same command agrees on what run #i is: local workers, MPI ranks and
 * --shard K/N processes split the indices and never exchange configurations.
 *
 * Results are one line per run, appended in index order to --out (CSV or JSON Lines), written
 * by one process with one write(2) per line: a killed sweep leaves whole lines (a torn last line
 * is dropped on resume) and a rerun skips the indices already present.
 */
#ifndef SCHEDLAB_SWEEP_H
#define SCHEDLAB_SWEEP_H

#include <stdio.h>
#include <sys/types.h>
#include "config/config.h"

#define SL_SWEEP_MAX_VARY   16
#define SL_SWEEP_MAX_VALUES 64
#define SL_SWEEP_MAX_MIX    16
#define SL_SWEEP_MAX_FLAGS  32
#define SL_SWEEP_MAX_RUNS   (1ULL << 26) /* refused beyond: 67 M simulations */
/* A line of a sweep file: a row is at most 64 KiB (ROW_MAX), so a longer one is not ours. */
#define SL_SWEEP_LINE_MAX (1 << 16)
/* A row is one flat JSON object: anything nested deeper is refused by json-c's own check. */
#define SL_SWEEP_JSON_DEPTH 4

enum sl_sweep_fmt { SL_SWEEP_CSV, SL_SWEEP_JSONL };

struct sl_sweep_vary {
	char key[64];
	const char *values[SL_SWEEP_MAX_VALUES];
	int nvalues;
	char *buf; /* owns the values */
};

/* One workload mix: the --workload specs of one alternative. */
struct sl_sweep_mix {
	char label[256];
	const char *specs[SL_MAX_LIST];
	int nspecs;
	char *buf;
};

struct sl_sweep {
	struct sl_args base;	  /* everything not varied */
	const char *features_arg; /* --features, resolved by prepare */
	/* flags varied, as indices into the kernel's feature table (bit order) */
	int flags[SL_SWEEP_MAX_FLAGS];
	int nflags;
	const char *flag_names[SL_SWEEP_MAX_FLAGS];
	struct sl_sweep_vary vary[SL_SWEEP_MAX_VARY];
	int nvary;
	struct sl_sweep_mix mix[SL_SWEEP_MAX_MIX];
	int nmix;
	u64 seeds[SL_SWEEP_MAX_VALUES];
	int nseeds;
	u64 nruns;
	/* the columns of a row (settings then metrics), fixed for the whole sweep */
	char **cols;
	int ncols, nsettings;
	/* a hash of everything not varied, written in every row: a resumed file must match */
	char config_id[17];
	/* execution */
	const char *out;
	enum sl_sweep_fmt fmt;
	int jobs;
	int shard_k, shard_n; /* 1-based; 0/0: all */
	bool progress;
	/* the metrics of the runs done so far in this process, by the feature bits each read
	 * (sweep_row.c): a combination that agrees with one of them on those bits is not run
	 * again. The workers share its runs (a mapping made before they are forked). */
	struct sl_sweep_memo *memo;
};

/* Parse the sweep's own options (argv[i]); returns 1 if taken (advancing *i), 0 if not, or -1
 * with err set. */
int sl_sweep_option(struct sl_sweep *sw, int argc, char **argv, int *i, char *err, size_t errlen);
/* After all options: resolve flags, seeds, mixes and columns, check every value builds. */
int sl_sweep_prepare(struct sl_sweep *sw, char *err, size_t errlen);
void sl_sweep_free(struct sl_sweep *sw);

/* The user's words for run #idx (feature words go in fbuf); the row's setting cells. */
void sl_sweep_args(const struct sl_sweep *sw, u64 idx, struct sl_args *a, char *fbuf, size_t flen);
/* The memo of runs (NULL when out of memory: every run is then simulated), and its end. */
struct sl_sweep_memo *sl_sweep_memo_new(int ncols);
void sl_sweep_memo_free(struct sl_sweep_memo *m);
/* runs whose metrics were copied from the memo so far */
u64 sl_sweep_memo_hits(const struct sl_sweep_memo *m);
/* Simulates run #idx and formats its line (with '\n') into buf; returns its length or -1. */
int sl_sweep_run_one(const struct sl_sweep *sw, u64 idx, char *buf, size_t len, char *err,
		     size_t errlen);
/* The header line for CSV (empty for JSON Lines). */
int sl_sweep_header(const struct sl_sweep *sw, char *buf, size_t len);

/* The --out file: which runs it already holds. done[] has nruns entries. */
int sl_sweep_resume(const struct sl_sweep *sw, bool *done, u64 *ndone, char *err, size_t errlen);
/* The reading half of sl_sweep_resume on an open stream (sw->out names it in messages): *good
 * is the end of the last whole line, where the caller cuts the file. Lets a caller read a
 * buffer (fmemopen), as the fuzz target does. */
int sl_sweep_resume_read(const struct sl_sweep *sw, FILE *f, bool *done, u64 *ndone, off_t *good,
			 char *err, size_t errlen);
/* Opens --out for appending, writing the header if it is new; -1 (said on stderr) on failure. */
int sl_sweep_open_out(const struct sl_sweep *sw);
/*
 * getline(3) that stops at SL_SWEEP_LINE_MAX bytes: -2 for a longer line (refused as soon as it
 * is longer, so a hostile file cannot make it read or allocate without bound), -3 for a line
 * holding a NUL byte (no row does), -1 at EOF or on an error. The length counts the newline.
 */
ssize_t sl_sweep_getline(char **line, size_t *cap, FILE *f);
/* One row of a .jsonl file, parsed with the depth limit; NULL with *why when it is not one. */
struct json_object *sl_sweep_json_row(const char *line, const char **why);
/* Append whole lines to the --out file: on a failed write the file is cut back to where it was. */
int sl_append_line(int fd, const void *p, size_t n);
/* Splits a CSV line (no newline) into at most max fields in place, undoing the quoting;
 * returns the count, or -1 (too many fields, a stray or unterminated quote). */
int sl_csv_split(char *line, char **f, int max);
/* The setting cells of run #idx (mix, seed, vary values, flags), in column order. */
int sl_sweep_settings(const struct sl_sweep *sw, u64 idx, const char **cells, char *tmp,
		      size_t len);
/* The metric names of a group's columns ("<group>.<name>") and of the machine's. */
extern const char *const sl_sweep_group_metrics[];
extern const int sl_sweep_ngroup_metrics;
extern const char *const sl_sweep_machine_metrics[];
extern const int sl_sweep_nmachine_metrics;

/* Engines. Each returns an exit status (0, 1 failure, 130 interrupted). */
int sl_sweep_local(struct sl_sweep *sw);
#ifdef SCHEDLAB_HAVE_MPI
bool sl_sweep_mpi_launched(void);
int sl_sweep_mpi(struct sl_sweep *sw);
#endif

/* Which indices this process runs: all, or those of its shard. */
static inline bool sl_sweep_mine(const struct sl_sweep *sw, u64 idx)
{
	return !sw->shard_n || idx % (u64)sw->shard_n == (u64)(sw->shard_k - 1);
}

/* sweep-report */
struct sl_report_opts {
	const char *files[SL_MAX_LIST];
	int nfiles;
	bool json;
	const char *plot_dir;
	const char *metrics[SL_MAX_LIST]; /* default: every metric column */
	int nmetrics;
	int top;
	const char *merge_out; /* sweep-merge: write the union in index order */
	FILE *out;	       /* the report's stream (default stdout) */
	bool *report_done;     /* if set: whether the report was written whole (before --plot) */
};
int sl_sweep_report(const struct sl_report_opts *o);
/* sweep-report's reader on one stream (a name ending in .jsonl reads JSON Lines, else CSV):
 * 0, or -1 with the refusal in err. The fuzz target's entry point. */
int sl_sweep_report_read(FILE *f, const char *name, char *err, size_t errlen);

#endif
