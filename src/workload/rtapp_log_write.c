/*
 * rt-app's per-thread log files, column for column: a policy line, the header, then one row
 * per phase run (times in microseconds; start and end on the simulation's clock). The widths
 * are those of rt-app 1.0's files (checked against a real run), so tools that read rt-app logs
 * read these.
 */
#include "workload/rtapp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void sl_rta_log_header(FILE *f, int policy, int prio)
{
	fprintf(f, "# Policy : %s priority : %d\n",
		policy == SL_SCHED_FIFO ? "SCHED_FIFO"
		: policy == SL_SCHED_RR ? "SCHED_RR"
					: "SCHED_OTHER",
		prio);
	fprintf(f, "#idx     perf      run   period           start             end          rel_st"
		   "      slack c_duration   c_period     wu_lat\n");
}

void sl_rta_log_row(FILE *f, int idx, const struct rta_row *r)
{
	fprintf(f, "%4d %8llu %8llu %8llu %15llu %15llu %15llu %10lld %10llu %10llu %10llu\n", idx,
		(unsigned long long)r->perf, (unsigned long long)r->run,
		(unsigned long long)r->period, (unsigned long long)r->start,
		(unsigned long long)r->end, (unsigned long long)r->rel_st, (long long)r->slack,
		(unsigned long long)r->c_duration, (unsigned long long)r->c_period,
		(unsigned long long)r->wu_lat);
}

/* thread i's log and the temporary it is written to first */
static void log_paths(const char *dir, const char *basename, const struct rta_thread_log *t,
		      char path[512], char tmp[560])
{
	snprintf(path, 512, "%s/%s-%s-%d.log", dir, basename, t->name, t->idx);
	snprintf(tmp, 560, "%s.tmp%ld", path, (long)getpid());
}

/* the temporaries of threads 0..n, removed */
static void remove_tmps(const char *dir, const char *basename, const struct rta_thread_log *t,
			int n)
{
	char path[512], tmp[560];

	for (int i = 0; i < n; i++) {
		log_paths(dir, basename, &t[i], path, tmp);
		remove(tmp);
	}
}

/*
 * Every log is written to its temporary before any is renamed into place: a log that cannot be
 * written (a full disk) leaves none of the run's logs, rather than the first threads' alone.
 */
int sl_rta_log_write(const char *dir, const char *basename, const struct rta_thread_log *t, int n,
		     char *err, size_t errlen)
{
	char path[512], tmp[560];

	for (int i = 0; i < n; i++) {
		FILE *f;
		int bad;

		log_paths(dir, basename, &t[i], path, tmp);
		f = fopen(tmp, "w");
		if (!f) {
			snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
			remove_tmps(dir, basename, t, i);
			return -1;
		}
		sl_rta_log_header(f, t[i].policy, t[i].prio);
		for (int k = 0; k < t[i].n; k++)
			sl_rta_log_row(f, t[i].idx, sl_rta_row(&t[i], k));
		bad = ferror(f);
		bad |= fclose(f) != 0;
		if (bad) {
			snprintf(err, errlen, "%s: cannot write: %s", path,
				 strerror(errno ? errno : EIO));
			remove_tmps(dir, basename, t, i + 1);
			return -1;
		}
	}
	for (int i = 0; i < n; i++) {
		log_paths(dir, basename, &t[i], path, tmp);
		if (rename(tmp, path)) {
			snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
			remove_tmps(dir, basename, t + i, n - i);
			return -1;
		}
	}
	return 0;
}
