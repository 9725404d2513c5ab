/* Recording a real trace through tracefs (see record.c). */
#ifndef SCHEDLAB_RECORD_H
#define SCHEDLAB_RECORD_H

#include <stdio.h>
#include <schedlab/types.h>

/* sl_record's result when SIGINT, SIGTERM or SIGHUP stopped it (err says which) */
#define SL_RECORD_INTERRUPTED 2

/*
 * 0: recorded, CMD succeeded; 1: recorded, CMD failed, or the trace could not be written (err
 * says); -1: nothing recorded;
 * SL_RECORD_INTERRUPTED: stopped by a signal (err says whether the trace was saved).
 */
int sl_record(const char *out, const char *const *events, int nevents, char *const *cmd, char *err,
	      size_t errlen);

/*
 * Each of events[0..n) is SYSTEM/EVENT and, when tracefs is mounted, one of its events: 0, or
 * -1 with err (checked before anything runs: record measures the machine first).
 */
int sl_record_check_events(const char *const *events, int nevents, char *err, size_t errlen);

/*
 * The tracefs instances a killed `record` left (instances/schedlab-PID, PID no longer a
 * process): each still traces into its own 32 MB per CPU. Removes them from instances_dir
 * (rmdir, which tracefs turns into the instance's removal); returns how many went.
 */
int sl_record_clean_stale(const char *instances_dir);

#endif
