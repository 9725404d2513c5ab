/*
 * Every file schedlab writes goes through here: it is written under a unique temporary name
 * (mkstemp) in the directory of the final file, flushed and fsync'd, and renamed onto the final
 * name only when every write succeeded. A failed, interrupted or killed run therefore leaves
 * either the old file or none, never a half-written one; and two runs writing the same name do
 * not share a temporary. An I/O error is reported naming the FINAL file and strerror, and the
 * callers exit with status 1 (the user's input was fine; the machine failed).
 *
 * A final name that exists and is not a regular file (a FIFO, /dev/null, /dev/full, a terminal)
 * is written through, not replaced. The temporary carries the writer's pid: one left by a killed
 * run (kill -9 runs no handler) is removed by the next open of the same output once that pid is
 * gone.
 */
#ifndef SCHEDLAB_OUTFILE_H
#define SCHEDLAB_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

struct sl_outfile {
	FILE *f;
	char path[4096]; /* the final name */
	char tmp[4200];	 /* the temporary: DIR/.NAME.PID.XXXXXX; "" when written through */
};

/*
 * Whether name is PREFIX.PID.XXXXXX (a temporary's, or --plot's private directory's) of a
 * process that no longer exists: what a killed run left, safe to remove.
 */
bool sl_outfile_stale(const char *name, const char *prefix);

/* Create the temporary; 0, or -1 with err = "PATH: strerror". */
int sl_outfile_open(struct sl_outfile *o, const char *path, char *err, size_t errlen);
/* Flush, fsync, close and rename into place; on any error remove the temporary, -1 and err. */
int sl_outfile_commit(struct sl_outfile *o, char *err, size_t errlen);
/* Close and remove the temporary; the final file (if any) is left as it was. */
void sl_outfile_abort(struct sl_outfile *o);
/*
 * Copy the file from to path through the writer: 0, or -1 with err = "FROM: strerror" when it
 * cannot be read, as sl_outfile_open and sl_outfile_commit say when path cannot be written.
 */
int sl_outfile_copy(const char *from, const char *path, char *err, size_t errlen);

/*
 * An output directory made (mode) or already there, and a directory: 0, or the errno that says
 * why not (ENOTDIR for a file of that name), checked before long work that would write there.
 */
int sl_outfile_mkdir(const char *dir, unsigned mode);

/*
 * The inputs of the command (a trace, a workload's file=, a sweep file): sl_outfile_input notes
 * one, and sl_outfile_is_input says whether path names one of them (the same file), which an
 * output must not replace. The callers refuse such an output as bad input (exit status 2).
 */
void sl_outfile_input(const char *path);
bool sl_outfile_is_input(const char *path);

/*
 * Temporaries still open are removed by sl_outfile_cleanup(): called from a signal handler
 * (async-signal-safe: unlink only), so that SIGINT/SIGTERM leave no .NAME.XXXXXX behind.
 */
void sl_outfile_cleanup(void);

/*
 * Standard output: flush and check it once everything is written, so that `> /dev/full` or a
 * closed pipe is an error (exit 1) instead of a silent success. 0 or -1 (message printed).
 */
int sl_stdout_close(void);

#endif
