/*
 * `schedlab validate` (see validate.h). A real side is a directory: the rt-app file, rt-app's
 * per-thread logs, one trace (real.trace, or any *.trace / *.trace.xz / *.trace.gz) and, when
 * validate recorded it, machine.conf (machine_conf.c) describing the machine it ran on. The
 * simulated side is made the same way in a temporary directory, so both go through one reader.
 */
#include "core/json_out.h"
#include "validate/validate.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config.h"
#include "core/json.h"
#include "core/outfile.h"
#include "core/parse.h"
#include "core/rng.h"
#include "cpuidle/profiles.h"
#include "experiment/run.h"
#include "trace/record.h"
#include "machine/machine_conf.h"
#include "validate/rtapp_calib_real.h"
#include "validate/rtapp_log_read.h"
#include "validate/vtrace.h"
#include "workload/rtapp.h"

#define MAX_LOGS	1024
#define RTAPP_STARTUP_S 5.0
/*
 * rt-app ends a file with a "duration" by joining its threads; a thread that waits forever (a
 * lost resume, a deadlock of the file's own) makes it wait forever too, and SIGINT does not
 * help: it is past the stop already. So every real run has a limit: the duration (or the
 * window asked for), the start-up, and RTAPP_OVERRUN_S more; then SIGINT, and SIGKILL
 * RTAPP_KILL_S after that (timeout's -k).
 */
#define RTAPP_OVERRUN_S 10.0
#define RTAPP_KILL_S	"2"

/* What validate needs of the rt-app file: the task names, where the logs go, how long. */
struct rt_meta {
	int ntasks;
	char task[SL_VT_MAX_TASKS][64];
	char basename[128];
	char logdir[PATH_MAX];
	double duration; /* s; 0: none */
	bool has_global;
};

struct side {
	struct sl_rtlog *log;
	int nlogs;
	struct sl_vtrace *tr;
	char trace[PATH_MAX];
};

/*
 * The task names, log_basename, logdir and duration, through json-c, the parser rt-app itself
 * uses (duplicate keys inside a task do not matter here). The full reading of the file, with its
 * events, is the rt-app workload's.
 */
static int read_meta(struct rt_meta *m, const char *path, char *err, size_t errlen)
{
	json_object *root = NULL, *tasks, *global, *v;
	enum json_tokener_error jerr = json_tokener_error_parse_eof;
	FILE *f = fopen(path, "rb");
	int open_errno = errno, read_errno = 0;
	char *buf = malloc(SL_JSON_MAX_SIZE + 1), *wg = NULL;
	size_t n = 0, wglen = 0;

	memset(m, 0, sizeof(*m));
	snprintf(m->basename, sizeof(m->basename), "rt-app");
	snprintf(m->logdir, sizeof(m->logdir), "./");
	/* as rt-app reads it after workgen's rewrite (a bare "suspend": the task's own) */
	if (f && buf) {
		n = fread(buf, 1, SL_JSON_MAX_SIZE + 1, f);
		if (ferror(f)) /* a directory opens, and reads as EISDIR */
			read_errno = errno ? errno : EIO;
	}
	if (n && n <= SL_JSON_MAX_SIZE)
		wg = sl_rta_workgen(buf, n, &wglen);
	if (wg)
		root = json_tokener_parse_verbose(wg, &jerr);
	free(wg);
	free(buf);
	if (f)
		fclose(f);
	if (!root) {
		snprintf(err, errlen, "%s: not a JSON file rt-app would read: %s", path,
			 !f	      ? strerror(open_errno)
			 : read_errno ? strerror(read_errno)
				      : json_tokener_error_desc(jerr));
		return -1;
	}
	if (!json_object_object_get_ex(root, "tasks", &tasks) ||
	    !json_object_is_type(tasks, json_type_object)) {
		snprintf(err, errlen, "%s: no \"tasks\" object", path);
		json_object_put(root);
		return -1;
	}
	json_object_object_foreach(tasks, name, t)
	{
		(void)t;
		if (m->ntasks == SL_VT_MAX_TASKS) {
			snprintf(err, errlen, "%s: more than %d tasks", path, SL_VT_MAX_TASKS);
			json_object_put(root);
			return -1;
		}
		snprintf(m->task[m->ntasks++], sizeof(m->task[0]), "%s", name);
	}
	if (json_object_object_get_ex(root, "global", &global)) {
		m->has_global = true;
		if (json_object_object_get_ex(global, "log_basename", &v))
			snprintf(m->basename, sizeof(m->basename), "%s", json_object_get_string(v));
		if (json_object_object_get_ex(global, "logdir", &v))
			snprintf(m->logdir, sizeof(m->logdir), "%s", json_object_get_string(v));
		if (json_object_object_get_ex(global, "duration", &v))
			m->duration = json_object_get_double(v);
	}
	json_object_put(root);
	return 0;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The logs <basename>-*.log of dir, read in name order; the trace if trace is empty. */
static int read_dir(struct side *s, const char *dir, const struct rt_meta *m, char *err,
		    size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *names[MAX_LOGS];
	int n = 0, rc = -1;
	size_t bl = strlen(m->basename);

	if (!d) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (has_suffix(e->d_name, ".log") && !strncmp(e->d_name, m->basename, bl) &&
		    e->d_name[bl] == '-') {
			if (n == MAX_LOGS) {
				snprintf(err, errlen, "%s: more than %d rt-app logs", dir,
					 MAX_LOGS);
				goto out;
			}
			names[n] = strdup(e->d_name);
			if (!names[n]) {
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			n++;
		} else if (!s->trace[0] &&
			   (has_suffix(e->d_name, ".trace") || has_suffix(e->d_name, ".trace.xz") ||
			    has_suffix(e->d_name, ".trace.gz"))) {
			snprintf(s->trace, sizeof(s->trace), "%s/%s", dir, e->d_name);
		}
	}
	if (!n) {
		snprintf(err, errlen, "%s: no rt-app logs %s-*.log (log_basename \"%s\")", dir,
			 m->basename, m->basename);
		goto out;
	}
	if (!s->trace[0]) {
		snprintf(err, errlen, "%s: no trace (*.trace, *.trace.xz or *.trace.gz)", dir);
		goto out;
	}
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	s->log = calloc((size_t)n, sizeof(*s->log));
	if (!s->log) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < n; i++) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (sl_rtlog_read(&s->log[s->nlogs], p, m->basename, err, errlen))
			goto out;
		s->nlogs++;
	}
	rc = 0;
out:
	for (int i = 0; i < n; i++)
		free(names[i]);
	closedir(d);
	return rc;
}

static int read_side(struct side *s, const char *dir, const struct rt_meta *m, double secs,
		     char *err, size_t errlen)
{
	const char *names[SL_VT_MAX_TASKS];

	if (read_dir(s, dir, m, err, errlen))
		return -1;
	for (int i = 0; i < m->ntasks; i++)
		names[i] = m->task[i];
	s->tr = calloc(1, sizeof(*s->tr));
	if (!s->tr) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return sl_vtrace_read(s->tr, s->trace, names, m->ntasks, (u64)(secs * 1e9), err, errlen);
}

static void free_side(struct side *s)
{
	for (int i = 0; i < s->nlogs; i++)
		sl_rtlog_free(&s->log[i]);
	free(s->log);
	if (s->tr)
		sl_vtrace_free(s->tr);
	free(s->tr);
	memset(s, 0, sizeof(*s));
}

/* ---- the live real run ---- */

static const char *base_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/*
 * rt-app 1.0 reads its file with json-c, which keeps only the last of two equal keys; rt-app's
 * own examples repeat keys ("run" twice in a task) and are meant to go through workgen, the
 * package's preprocessor, which renames repeats (run, run1, ...) so that every event runs, in
 * order: what schedlab's reader does. So the real run is rt-app on workgen's output (workgen -d
 * writes it without running rt-app).
 */
static int workgen(const char *in, const char *out, char *err, size_t errlen)
{
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		snprintf(err, errlen, "validate: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		execlp("workgen", "workgen", "-d", "-o", out, in, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || access(out, R_OK)) {
		snprintf(err, errlen,
			 "validate: workgen -d -o %s %s failed (status %d; workgen comes with "
			 "Debian's rt-app)",
			 out, in, WIFEXITED(status) ? WEXITSTATUS(status) : 128);
		return -1;
	}
	return 0;
}

/*
 * rt-app 1.0 (Debian 12's) never leaves its calibration loop when a file names no
 * "calibration" ("missing calibration setting force CPU0", then nothing; seen here with the
 * tutorial's example3..5, which have no "global"). Calibration only sets how many loops make a
 * microsecond of `run`, which the simulation does not need, so the copy rt-app runs gets
 * "global": {"calibration": "CPU0"} when it has no global object. (A global without
 * calibration is left as it is.)
 */
static int add_calibration(const char *path, const struct rt_meta *m, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	long n;
	int rc = -1;

	if (m->has_global)
		return 0;
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		snprintf(err, errlen, "%s: cannot read", path);
		goto out;
	}
	buf[n] = '\0';
	char *end = strrchr(buf, '}');

	if (!end) {
		snprintf(err, errlen, "%s: no closing '}'", path);
		goto out;
	}
	struct sl_outfile o;

	if (sl_outfile_open(&o, path, err, errlen))
		goto out;
	fwrite(buf, 1, (size_t)(end - buf), o.f);
	fprintf(o.f, ",\n\t\"global\" : { \"calibration\" : \"CPU0\" }\n%s", end);
	rc = sl_outfile_commit(&o, err, errlen);
out:
	free(buf);
	fclose(f);
	return rc;
}

/* --out DIR or --sim-out DIR made (or there) and a directory: 0, or -1 with err */
static int out_dir(const char *opt, const char *dir, mode_t mode, char *err, size_t errlen)
{
	int e = sl_outfile_mkdir(dir, mode);

	if (e)
		snprintf(err, errlen, "%s %s: %s", opt, dir, strerror(e));
	return e ? -1 : 0;
}

/* rt-app under record, run in dir (its logdir "./" lands there), with a machine.conf beside. */
static int run_real(const char *json, const char *dir, const struct rt_meta *m, double secs,
		    char *err, size_t errlen)
{
	char copy[PATH_MAX], trace[PATH_MAX], cwd[PATH_MAX], conf[PATH_MAX], limit[32];
	char unique[PATH_MAX + 16];
	/*
	 * A file without "duration" runs until rt-app is interrupted: timeout sends it SIGINT,
	 * on which rt-app stops its threads and writes its logs as at the end of a duration. A
	 * file with one ends by itself; timeout is there for a run that does not (above).
	 */
	char *cmd[] = {"timeout", "-s", "INT", "-k", RTAPP_KILL_S, limit, "rt-app", unique, NULL};
	bool has_duration = m->duration > 0;
	int rc;

	if (geteuid() != 0) {
		snprintf(err, errlen,
			 "validate: a real run needs root (tracefs and rt-app's priorities); "
			 "give --real DIR with an earlier run instead");
		return -1;
	}
	if (m->logdir[0] == '/') {
		snprintf(err, errlen,
			 "%s: logdir \"%s\" is absolute; validate runs rt-app in its own directory "
			 "and needs a relative logdir (\"./\")",
			 json, m->logdir);
		return -1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	if (!realpath(dir, cwd)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s/%s", cwd, base_of(json));
	if (sl_outfile_copy(json, copy, err, errlen))
		return -1;
	snprintf(unique, sizeof(unique), "%s.unikid", copy);
	if (workgen(copy, unique, err, errlen) || add_calibration(unique, m, err, errlen))
		return -1;
	snprintf(conf, sizeof(conf), "%s/machine.conf", cwd);
	if (sl_machine_conf_write_live(conf, err, errlen))
		return -1;
	snprintf(trace, sizeof(trace), "%s/real.trace", cwd);
	/* rt-app calibrates before its threads start (a second or two): the interruption comes
	 * that much later; the comparison window is the threads' first event + secs either way */
	snprintf(limit, sizeof(limit), "%.3f",
		 has_duration ? m->duration + RTAPP_STARTUP_S + RTAPP_OVERRUN_S
			      : secs + RTAPP_STARTUP_S);
	char old[PATH_MAX];

	if (!getcwd(old, sizeof(old)) || chdir(cwd)) {
		snprintf(err, errlen, "cannot enter %s: %s", cwd, strerror(errno));
		return -1;
	}
	/*
	 * rt-app's "ftrace": true writes markers to /sys/kernel/debug/tracing/trace_marker and
	 * stops when it cannot open it: mount debugfs for the run if it is not (its markers land
	 * in the trace as print events, which the reader counts and skips).
	 */
	struct stat st;
	bool debugfs = false;

	if (stat("/sys/kernel/debug/tracing/trace_marker", &st) &&
	    !mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL))
		debugfs = true;
	fprintf(stderr, "schedlab: validate: running rt-app %s for real in %s\n", base_of(json),
		cwd);
	rc = sl_record(trace, NULL, 0, cmd, err, errlen);
	if (debugfs)
		umount2("/sys/kernel/debug", MNT_DETACH);
	if (chdir(old)) {
		snprintf(err, errlen, "cannot return to %s: %s", old, strerror(errno));
		return -1;
	}
	/*
	 * Without a duration, timeout's status 124 is the interruption asked for. 137 is its
	 * SIGKILL: rt-app did not stop on SIGINT; with a duration, 124 or 137 mean it ran past
	 * its end: a thread never returned.
	 */
	if (rc > 0 && (strstr(err, "status 137") || (has_duration && strstr(err, "status 124")))) {
		if (has_duration)
			snprintf(err, errlen,
				 "validate: %s: rt-app was still running %.0f s after its duration "
				 "(%g s) ended: a thread of the file waits forever (a lost resume, "
				 "or a deadlock of its own), so it was killed and there is no "
				 "result; the trace is kept in %s",
				 json, RTAPP_OVERRUN_S, m->duration, cwd);
		else
			snprintf(err, errlen,
				 "validate: %s: rt-app did not stop within %s s of its SIGINT at "
				 "%s s: a thread of the file waits forever (a lost resume, or a "
				 "deadlock of its own), so it was killed and there is no result; "
				 "the trace is kept in %s",
				 json, RTAPP_KILL_S, limit, cwd);
		return -1;
	}
	if (rc < 0 || (rc > 0 && (has_duration || !strstr(err, "status 124"))))
		return -1; /* record's message: rt-app's status, or why nothing was recorded */
	return 0;
}

/* ---- the simulated run ---- */

/*
 * The machine's background (machine.conf background_rate/background_run, measured by calibrate
 * on the idle machine): on each CPU c a task "kworker-bgC" pinned there that wakes rate times a
 * second (an absolute timer of period 10^6/rate us, integer) and stays busy run us (rt-app's
 * "runtime", at least 1 us) each time, as the kworkers, RCU and timer work a real trace shows
 * on otherwise idle CPUs. Written as an rt-app file beside the simulation's logs.
 */
int sl_validate_background_json(FILE *f, int cpus, unsigned long rate, u64 run_ns)
{
	const struct sl_mc_background bg = {.rate = rate, .run_ns = run_ns};

	return sl_validate_background_json2(f, cpus, &bg, 0);
}

/*
 * One background task: NAME pinned to CPU cpu (not pinned when cpu < 0) running the n lengths
 * of runs in turn from the first-th, one at each expiry of its absolute timer of period us
 * (events runtimeK, timerK). rt-app's absolute timers count from the start of the run for
 * every task, so a task off (us) late runs its first length at the start, then a phase of one
 * loop whose timer is period + off, then the lengths from the next on for ever: its grid is
 * off later than the others'.
 */
static void bg_task(FILE *f, const char *name, int cpu, unsigned long long off, const u64 *runs,
		    int n, int first, unsigned long long period, bool more)
{
	fprintf(f, "\t\t\"%s\" : { ", name);
	if (cpu >= 0)
		fprintf(f, "\"cpus\" : [%d], ", cpu);
	fprintf(f, "\"loop\" : -1");
	if (off) {
		u64 r = runs[first % n] / 1000;

		fprintf(f,
			", \"phases\" : {\n\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : %llu, "
			"\"timer0\" : { \"ref\" : \"unique\", \"period\" : %llu, \"mode\" : "
			"\"absolute\" } },\n\t\t\t\"p1\" : { \"loop\" : -1",
			r ? (unsigned long long)r : 1ULL, period + off);
		first++;
	}
	for (int k = 0; k < n; k++) {
		u64 r = runs[(first + k) % n] / 1000;

		fprintf(f,
			",\n\t\t\t\"runtime%d\" : %llu, \"timer%d\" : { \"ref\" : \"unique\", "
			"\"period\" : %llu, \"mode\" : \"absolute\" }",
			k, r ? (unsigned long long)r : 1ULL, k, period);
	}
	fprintf(f, "%s }%s\n", off ? " } }" : "", more ? "," : "");
}

/*
 * With background_runs (docs/validate.md, "The background's shape (issue 28, step 16)": the
 * recordings' foreign runs while the file runs, their distribution as nruns lengths), CPU C's
 * kworker-bgC runs the lengths in turn, one at each wake-up (bg_task), from the (C x nruns /
 * cpus)-th on, its timer C/cpus of a period later than CPU 0's: the CPUs' runs do not come
 * together (the recordings' are apart: 13.5% of CPU 0's foreign runs start within 100 us of
 * one of CPU 1's, against 74.4% in the model's background without it). With
 * background_long_rate/background_long_run (the recordings' foreign runs of 1 ms or more), a
 * second task per CPU, "kworker-lgC", pinned to C, a timer of period 10^6/long_rate us and a
 * runtime of long_run us, (2C+1)/(2 x cpus) of a period late; with background_long_free, not
 * pinned (the recordings' long runs are the harness's and the guest agent's user tasks, which
 * the kernel places where there is room: 1279 of the 1635 start on an idle vCPU). A kind is
 * left out when its rate or run is 0.
 *
 * With background_pinned (per 1000, docs/validate.md "Step 19"), only that share of the rate is
 * CPU C's pinned kworker-bgC (its period 1000/pinned times the rate's); the rest is a task per
 * CPU, "kworker-ubC", not pinned (the recordings' foreign tasks are mostly unbound, and go to an
 * idle vCPU where a pinned one takes its busy CPU from a thread of the file), of the same runs,
 * its period 1000/(1000 - pinned) times the rate's, (2C+1)/(2 x cpus) of it late. Unset: every
 * task pinned, as before.
 *
 * phase_seed (background_phase_random, "The background's phases (issue 28, step 16)"): when not
 * 0, every CPU's timer, short and long, is late by its own draw in [0, period) us from a
 * generator seeded with it (the run's seed), with one length or several: a real vCPU's
 * background keeps its own phase, where the fixed stagger above sets them half a period apart
 * on 2 CPUs, the same in every run. The draws are in CPU order, the short kind's first (its
 * pinned tasks, then its free ones), the long kind's last.
 */
int sl_validate_background_json2(FILE *f, int cpus, const struct sl_mc_background *bg,
				 u64 phase_seed)
{
	unsigned long rate = bg->rate, long_rate = bg->long_rate;
	u64 run_ns = bg->run_ns, long_run_ns = bg->long_run_ns;
	const u64 *runs = bg->runs_ns;
	int nruns = bg->nruns;
	bool long_free = bg->long_free;
	bool shrt = rate && (run_ns || nruns), lng = long_rate && long_run_ns;
	unsigned long long period = shrt ? 1000000ULL / rate : 0,
			   run = run_ns / 1000 ? run_ns / 1000 : 1;
	/* background_pinned: the pinned tasks' share of the rate, the rest free tasks */
	unsigned pin = bg->pinned_set ? bg->pinned : 1000;
	bool pn = shrt && pin > 0, fr = shrt && pin < 1000;
	unsigned long long pperiod = pn ? period * 1000 / pin : 0,
			   fperiod = fr ? period * 1000 / (1000 - pin) : 0;
	unsigned long long lperiod = lng ? 1000000ULL / long_rate : 0;
	char name[32];
	struct sl_rng rng;

	if (phase_seed)
		sl_rng_seed(&rng, phase_seed);
	fprintf(f, "{\n\t\"tasks\" : {\n");
	for (int c = 0; pn && !nruns && phase_seed && c < cpus; c++) {
		snprintf(name, sizeof(name), "kworker-bg%d", c);
		bg_task(f, name, c, sl_rng_next(&rng) % pperiod, &run_ns, 1, 0, pperiod,
			c + 1 < cpus || fr || lng);
	}
	for (int c = 0; pn && !nruns && !phase_seed && c < cpus; c++)
		fprintf(f,
			"\t\t\"kworker-bg%d\" : { \"cpus\" : [%d], \"loop\" : -1, \"runtime\" : "
			"%llu,\n\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : %llu, "
			"\"mode\" : \"absolute\" } }%s\n",
			c, c, run, pperiod, c + 1 < cpus || fr || lng ? "," : "");
	for (int c = 0; pn && nruns && c < cpus; c++) {
		snprintf(name, sizeof(name), "kworker-bg%d", c);
		bg_task(f, name, c,
			phase_seed ? sl_rng_next(&rng) % pperiod
				   : pperiod * (unsigned)c / (unsigned)cpus,
			runs, nruns, c * nruns / cpus, pperiod, c + 1 < cpus || fr || lng);
	}
	/* the free share: one task per CPU, not pinned, its grid half a period off the pinned */
	for (int c = 0; fr && c < cpus; c++) {
		snprintf(name, sizeof(name), "kworker-ub%d", c);
		bg_task(f, name, -1,
			phase_seed ? sl_rng_next(&rng) % fperiod
				   : fperiod * (2ULL * (unsigned)c + 1) / (2ULL * (unsigned)cpus),
			nruns ? runs : &run_ns, nruns ? nruns : 1, nruns ? c * nruns / cpus : 0,
			fperiod, c + 1 < cpus || lng);
	}
	for (int c = 0; lng && c < cpus; c++) {
		snprintf(name, sizeof(name), "kworker-lg%d", c);
		bg_task(f, name, long_free ? -1 : c,
			phase_seed ? sl_rng_next(&rng) % lperiod
				   : lperiod * (2ULL * (unsigned)c + 1) / (2ULL * (unsigned)cpus),
			&long_run_ns, 1, 0, lperiod, c + 1 < cpus);
	}
	fprintf(f, "\t}\n}\n");
	return ferror(f) ? -1 : 0;
}

/*
 * The options of the simulated side that the command line gives (--kernel, --machine,
 * --cpuidle-governor, --seed), built alone: a typo is found before rt-app runs for real, not
 * after its whole duration. The default machine takes every governor and release.
 */
static int check_options(const struct sl_validate_opts *o, char *err, size_t errlen)
{
	struct sl_args a;
	struct sl_config cfg;

	memset(&a, 0, sizeof(a));
	a.kernel = o->kernel;
	a.machine = o->machine;
	a.governor = o->governor;
	a.seed = o->seed;
	if (sl_config_build(&cfg, &a, err, errlen))
		return -1;
	sl_config_free(&cfg);
	return 0;
}

/*
 * The background's phases' generator seed from the run's --seed (checked by check_options; 1
 * when not given, as the model's): never 0, which asks the fixed stagger.
 */
static u64 phase_seed(const struct sl_validate_opts *o)
{
	u64 seed = 1;
	char e[64];

	if (o->seed && sl_parse_u64(o->seed, &seed, e, sizeof(e)))
		seed = 1;
	return ((seed + 1) * 0x9E3779B97F4A7C15ULL) | 1;
}

/* conf: the real run's machine.conf, named when its lines do not build the model */
static int simulate(const char *json, const char *dir, double secs,
		    const struct sl_machine_conf *mc, const char *conf,
		    const struct sl_validate_opts *o, char *err, size_t errlen)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char wl[2 * PATH_MAX + 64], trace[PATH_MAX], dur[64], cpus[16], machine[PATH_MAX + 8];
	char copy[PATH_MAX], bgfile[PATH_MAX + 32], bgwl[PATH_MAX + 64];
	int rc;

	memset(&a, 0, sizeof(a));
	/* the file beside the logs: a short path for the workload's file= value */
	snprintf(copy, sizeof(copy), "%s/%s", dir, base_of(json));
	if (sl_outfile_copy(json, copy, err, errlen))
		return SL_RUN_EIO; /* the simulated side's directory takes no file */
	snprintf(wl, sizeof(wl), "rt-app:file=%s,logdir=%s", copy, dir);
	a.workloads[a.nworkloads++] = wl;
	if ((mc->bg.rate && (mc->bg.run_ns || mc->bg.nruns)) ||
	    (mc->bg.long_rate && mc->bg.long_run_ns)) {
		struct sl_outfile bo;

		snprintf(bgfile, sizeof(bgfile), "%s/machine-background.json", dir);
		if (sl_outfile_open(&bo, bgfile, err, errlen))
			return SL_RUN_EIO;
		if (sl_validate_background_json2(bo.f, mc->cpus, &mc->bg,
						 mc->bg.phase_random ? phase_seed(o) : 0)) {
			sl_outfile_abort(&bo);
			snprintf(err, errlen, "%s: write error", bgfile);
			return SL_RUN_EIO;
		}
		if (sl_outfile_commit(&bo, err, errlen))
			return SL_RUN_EIO;
		snprintf(bgwl, sizeof(bgwl), "rt-app:file=%s", bgfile);
		a.workloads[a.nworkloads++] = bgwl;
	}
	snprintf(trace, sizeof(trace), "%s/sim.trace", dir);
	a.trace_out = trace;
	snprintf(dur, sizeof(dur), "%.0fms", secs * 1000.0);
	a.duration = dur;
	snprintf(cpus, sizeof(cpus), "%d", mc->cpus);
	a.cpus = cpus;
	a.kernel = o->kernel ? o->kernel : mc->model_kernel;
	if (o->machine) {
		a.machine = o->machine;
	} else if (mc->idle_profile[0]) {
		snprintf(machine, sizeof(machine), "file:%s", mc->idle_profile);
		a.machine = machine;
	} else if (mc->builtin_profile[0]) {
		a.machine = mc->builtin_profile;
	} else {
		char known[256];
		size_t n = 0;

		known[0] = '\0';
		for (int i = 0; i < sl_nidle_profiles && n < sizeof(known); i++)
			if (sl_idle_profiles[i]->driver)
				n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s",
						      n ? ", " : "", sl_idle_profiles[i]->driver);
		snprintf(err, errlen,
			 "%s: cpuidle_driver %s: no built-in idle profile stands for it (%s do); "
			 "give --machine, an idle_profile line, or --calibration DIR of a "
			 "calibrate run on that machine",
			 conf, mc->cpuidle_driver, known);
		return -1;
	}
	a.governor = o->governor ? o->governor : mc->governor;
	a.seed = o->seed;
	for (int i = 0; i < mc->nparams; i++)
		a.params[a.nparams++] = mc->param[i];
	for (int i = 0; i < mc->ndisable; i++)
		a.cpuidle_disable[a.ncpuidle_disable++] = mc->disable[i];
	/* the command line's options were built alone (check_options): what fails now is the
	 * machine description's lines, taken as the options the message names */
	if (sl_config_build(&cfg, &a, err, errlen)) {
		char e[1024];

		snprintf(e, sizeof(e), "%s", err);
		snprintf(err, errlen, "%s%s%s%s, taken as options: %s", conf,
			 o->calibration ? " (and " : "", o->calibration ? o->calibration : "",
			 o->calibration ? "/machine.conf)" : "", e);
		return -1;
	}
	rc = sl_run(&cfg, &r, err, errlen);
	if (!rc)
		sl_run_free(&r);
	sl_config_free(&cfg);
	return rc;
}

/*
 * The model parameters and idle table measured by `calibrate` on the real side's machine
 * replace the defaults; the real run's own description (CPUs, kernel, governor) stays.
 */
static int calibrate_over(struct sl_machine_conf *mc, const char *dir, char *err, size_t errlen)
{
	struct sl_machine_conf cal;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/machine.conf", dir);
	if (sl_machine_conf_load(&cal, path, err, errlen))
		return -1;
	if (sl_machine_conf_same_machine(
		    &cal, path, mc, "the real run had",
		    "calibrate on the machine of the run (one command for a boot: "
		    "tools/machine_for_boot.sh, docs/validate.md)",
		    err, errlen))
		return -1;
	memcpy(mc->param, cal.param, sizeof(cal.param));
	mc->nparams = cal.nparams;
	mc->bg = cal.bg;
	if (cal.idle_profile[0]) {
		snprintf(mc->idle_profile, sizeof(mc->idle_profile), "%s", cal.idle_profile);
		memcpy(mc->disable, cal.disable, sizeof(cal.disable));
		mc->ndisable = cal.ndisable;
	}
	return 0;
}

/* ---- the report ---- */

static double rel(double real, double sim)
{
	if (real == 0)
		return sim == 0 ? 0 : NAN;
	return 100.0 * (sim - real) / fabs(real);
}

struct row {
	char what[96];
	double real, sim;
};

struct report {
	struct row *row;
	int n, cap;
};

static int add(struct report *rp, double real, double sim, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int add(struct report *rp, double real, double sim, const char *fmt, ...)
{
	va_list ap;

	if (rp->n == rp->cap) {
		int cap = rp->cap ? 2 * rp->cap : 64;
		void *p = realloc(rp->row, (size_t)cap * sizeof(*rp->row));

		if (!p)
			return -1;
		rp->row = p;
		rp->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(rp->row[rp->n].what, sizeof(rp->row[0].what), fmt, ap);
	va_end(ap);
	rp->row[rp->n].real = real;
	rp->row[rp->n].sim = sim;
	rp->n++;
	return 0;
}

static int task_logs(const struct side *s, const char *task, const struct sl_rtlog **out)
{
	int n = 0;

	for (int i = 0; i < s->nlogs; i++)
		if (!strcmp(s->log[i].task, task))
			out[n++] = &s->log[i];
	return n;
}

static int compare(struct report *rp, const struct rt_meta *m, const struct side *real,
		   const struct side *sim)
{
	static const enum sl_rtlog_col cols[] = {SL_RTLOG_RUN, SL_RTLOG_PERIOD, SL_RTLOG_SLACK};
	const struct sl_rtlog *lr[MAX_LOGS], *ls[MAX_LOGS];
	static const double pct[] = {50, 95, 99};
	double wr = (double)(real->tr->end - real->tr->start) / 1e9;
	double ws = (double)(sim->tr->end - sim->tr->start) / 1e9;

	for (int t = 0; t < m->ntasks; t++) {
		int nr = task_logs(real, m->task[t], lr), ns = task_logs(sim, m->task[t], ls);

		for (size_t c = 0; c < SL_ARRAY_SIZE(cols); c++) {
			struct sl_rtlog_col_stat a, b;

			if (sl_rtlog_col_stats(lr, nr, cols[c], &a) ||
			    sl_rtlog_col_stats(ls, ns, cols[c], &b))
				return -1;
			if (!a.n && !b.n)
				continue;
			if (add(rp, a.mean, b.mean, "%s %s mean (us)", m->task[t],
				sl_rtlog_col_name[cols[c]]) ||
			    add(rp, (double)a.p95, (double)b.p95, "%s %s p95 (us)", m->task[t],
				sl_rtlog_col_name[cols[c]]))
				return -1;
		}
		const struct sl_vt_task *x = &real->tr->task[t], *y = &sim->tr->task[t];

		for (size_t p = 0; p < SL_ARRAY_SIZE(pct); p++)
			if (add(rp, (double)sl_hist_percentile(&x->lat, pct[p]) / 1e3,
				(double)sl_hist_percentile(&y->lat, pct[p]) / 1e3,
				"%s wake-up latency p%g (us)", m->task[t], pct[p]))
				return -1;
		if (add(rp, (double)x->switches / wr, (double)y->switches / ws,
			"%s context switches /s", m->task[t]) ||
		    add(rp, (double)x->migrations / wr, (double)y->migrations / ws,
			"%s migrations /s", m->task[t]))
			return -1;
	}
	int ncpu = real->tr->ncpu > sim->tr->ncpu ? real->tr->ncpu : sim->tr->ncpu;
	int nst = real->tr->nstates > sim->tr->nstates ? real->tr->nstates : sim->tr->nstates;

	for (int c = 0; c < ncpu; c++)
		for (int st = 0; st < nst; st++) {
			const struct sl_vt_cpu *x = &real->tr->cpu[c], *y = &sim->tr->cpu[c];

			if (!x->entries[st] && !y->entries[st] && !x->time[st] && !y->time[st])
				continue;
			if (add(rp, (double)x->entries[st] / wr, (double)y->entries[st] / ws,
				"cpu%d state %d idle entries /s", c, st) ||
			    add(rp, 100.0 * (double)x->time[st] / (wr * 1e9),
				100.0 * (double)y->time[st] / (ws * 1e9),
				"cpu%d state %d residency (%%)", c, st))
				return -1;
		}
	return 0;
}

/*
 * Above this share of the CPUs' time in the compared window, other tasks' runs in the real
 * trace are a load the file did not ask for, and the comparison says so. An idle machine's own
 * background (kworkers, the tracer, rt-app's set-up thread) stays below it: 8 of the 9
 * recordings of tests/data/validate are below it, example5 at 2.4%; the agreement sets of
 * tests/data/validate-set* recorded beside other people's builds reach 15% to 85%. The figure
 * is printed, so the threshold decides only whether to warn.
 */
#define LOADED_PCT 2.0

/* The share of the real run's CPU time (window x CPUs) that other tasks took, in percent. */
static double other_pct(const struct side *real, const struct sl_machine_conf *mc)
{
	double cap = (double)(real->tr->end - real->tr->start) * (mc->cpus > 0 ? mc->cpus : 1);

	return cap > 0 ? 100.0 * (double)real->tr->other_ns / cap : 0;
}

/* The warnings of a comparison, one per line of buf: the real trace's lost events, a loaded
 * machine, a model without the machine's calibration. Returns how many. */
static int warnings(char w[3][320], const struct side *real, const struct sl_machine_conf *mc,
		    const struct sl_validate_opts *o)
{
	int n = 0;

	if (real->tr->lost)
		snprintf(w[n++], sizeof(w[0]),
			 "the real trace lost %llu events; its counts are lower bounds",
			 (unsigned long long)real->tr->lost);
	if (other_pct(real, mc) > LOADED_PCT)
		snprintf(w[n++], sizeof(w[0]),
			 "the machine was loaded during the real run: %d other task%s ran %.1f "
			 "ms, %.1f%% of its %d CPU%s time in the compared window (the simulation "
			 "runs the file alone)",
			 real->tr->nother, real->tr->nother == 1 ? "" : "s",
			 (double)real->tr->other_ns / 1e6, other_pct(real, mc), mc->cpus,
			 mc->cpus == 1 ? "'s" : "s'");
	if (!o->calibration)
		snprintf(w[n++], sizeof(w[0]),
			 "simulated without --calibration: the model's default parameters stand "
			 "for this machine's (schedlab calibrate measures them)");
	return n;
}

static void print_table(FILE *f, const struct report *rp, const char *json,
			const struct sl_machine_conf *mc, const char *real_dir,
			const struct side *real, const struct sl_validate_opts *o)
{
	char w[3][320];
	int nw = warnings(w, real, mc, o);

	fprintf(f, "validate %s: real (%s, %d CPUs, %s) vs simulated (--kernel %s)\n",
		base_of(json), real_dir, mc->cpus, mc->kernel_release,
		o->kernel ? o->kernel : mc->model_kernel);
	for (int i = 0; i < nw; i++)
		fprintf(f, "warning: %s\n", w[i]);
	fprintf(f, "%-52s %14s %14s %9s\n", "figure", "real", "simulated", "diff");
	for (int i = 0; i < rp->n; i++) {
		double d = rel(rp->row[i].real, rp->row[i].sim);

		if (isnan(d))
			fprintf(f, "%-52s %14.2f %14.2f %9s\n", rp->row[i].what, rp->row[i].real,
				rp->row[i].sim, "n/a");
		else
			fprintf(f, "%-52s %14.2f %14.2f %+8.1f%%\n", rp->row[i].what,
				rp->row[i].real, rp->row[i].sim, d);
	}
}

static int print_json(FILE *f, const struct report *rp, const char *json,
		      const struct sl_machine_conf *mc, const char *real_dir,
		      const struct side *real, const struct sl_validate_opts *opts)
{
	json_object *o = json_object_new_object(), *rows = json_object_new_array();
	json_object *warn = json_object_new_array();
	char w[3][320];
	int nw = warnings(w, real, mc, opts);

	if (!o || !rows || !warn)
		return -1;
	json_object_object_add(o, "file", json_object_new_string(json));
	json_object_object_add(o, "real_dir", json_object_new_string(real_dir));
	json_object_object_add(o, "cpus", json_object_new_int(mc->cpus));
	json_object_object_add(o, "kernel_release", json_object_new_string(mc->kernel_release));
	json_object_object_add(
		o, "model_kernel",
		json_object_new_string(opts->kernel ? opts->kernel : mc->model_kernel));
	json_object_object_add(o, "real_lost_events",
			       json_object_new_int64((int64_t)real->tr->lost));
	json_object_object_add(o, "real_other_tasks", json_object_new_int(real->tr->nother));
	json_object_object_add(o, "real_other_run_ns",
			       json_object_new_int64((int64_t)real->tr->other_ns));
	json_object_object_add(o, "calibrated", json_object_new_boolean(opts->calibration != NULL));
	for (int i = 0; i < nw; i++)
		json_object_array_add(warn, json_object_new_string(w[i]));
	json_object_object_add(o, "warnings", warn);
	for (int i = 0; i < rp->n; i++) {
		json_object *r = json_object_new_object();
		double d = rel(rp->row[i].real, rp->row[i].sim);

		json_object_object_add(r, "figure", json_object_new_string(rp->row[i].what));
		json_object_object_add(r, "real", json_object_new_double(rp->row[i].real));
		json_object_object_add(r, "simulated", json_object_new_double(rp->row[i].sim));
		json_object_object_add(r, "diff_pct", isnan(d) ? NULL : json_object_new_double(d));
		json_object_array_add(rows, r);
	}
	json_object_object_add(o, "figures", rows);
	sl_json_print(f, o);
	return 0;
}

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[PATH_MAX];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

int sl_validate(const struct sl_validate_opts *o, FILE *out, char *err, size_t errlen)
{
	struct rt_meta *m = calloc(1, sizeof(*m));
	struct sl_machine_conf mc;
	struct side real = {0}, sim = {0};
	struct report rp = {0};
	char simdir[PATH_MAX] = "/tmp/schedlab-validate-sim-XXXXXX", live[PATH_MAX], conf[PATH_MAX];
	const char *real_dir = o->real_dir;
	bool made_sim = false;
	int rc = -1;

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (read_meta(m, o->json, err, errlen))
		goto out;
	/* how long both sides run: the file's duration, else --duration, else 10 s */
	double secs = m->duration > 0 ? m->duration : 10.0;

	if (o->duration) {
		u64 ns;

		if (sl_parse_duration(o->duration, &ns, err, errlen))
			goto out;
		if (m->duration > 0) {
			snprintf(err, errlen,
				 "--duration: %s gives \"duration\": %g s (rt-app stops there)",
				 o->json, m->duration);
			goto out;
		}
		secs = (double)ns / 1e9;
	}
	if (check_options(o, err, errlen))
		goto out;
	/* a --calibration that does not load is found before the real run, not after it */
	if (o->calibration) {
		snprintf(conf, sizeof(conf), "%s/machine.conf", o->calibration);
		if (sl_machine_conf_load(&mc, conf, err, errlen))
			goto out;
	}
	/* and so are the directories it writes into */
	if ((!real_dir && o->out_dir && out_dir("--out", o->out_dir, 0755, err, errlen)) ||
	    (o->sim_out && out_dir("--sim-out", o->sim_out, 0777, err, errlen))) {
		rc = SL_VALIDATE_EOUTPUT;
		goto out;
	}
	if (!real_dir) {
		if (o->out_dir) {
			snprintf(live, sizeof(live), "%s", o->out_dir);
		} else {
			char tmpl[] = "/tmp/schedlab-validate-real-XXXXXX";

			if (!mkdtemp(tmpl)) {
				snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
				goto out;
			}
			snprintf(live, sizeof(live), "%s", tmpl);
		}
		if (run_real(o->json, live, m, secs, err, errlen))
			goto out;
		real_dir = live;
		fprintf(stderr, "schedlab: validate: the real run is kept in %s (--real %s)\n",
			live, live);
	}
	snprintf(conf, sizeof(conf), "%s/machine.conf", real_dir);
	if (sl_machine_conf_load(&mc, conf, err, errlen))
		goto out;
	if (o->calibration && calibrate_over(&mc, o->calibration, err, errlen))
		goto out;
	if (!o->kernel && !mc.model_kernel[0]) {
		snprintf(err, errlen,
			 "%s: no model of kernel %s (2.6.31, 2.6.32, and 6.18 for 6.6 and later): "
			 "give --kernel",
			 conf, mc.kernel_release);
		goto out;
	}
	if (read_side(&real, real_dir, m, secs, err, errlen) ||
	    sl_rtapp_calib_real(&mc, real.log, real.nlogs, err, errlen))
		goto out;
	/* --sim-out DIR: the simulated side kept for a look at its trace (made if missing) */
	if (o->sim_out) {
		snprintf(simdir, sizeof(simdir), "%s", o->sim_out);
	} else if (!mkdtemp(simdir)) {
		snprintf(err, errlen, "mkdtemp: %s", strerror(errno));
		goto out;
	} else {
		made_sim = true;
	}
	rc = simulate(o->json, simdir, secs, &mc, conf, o, err, errlen);
	if (rc) {
		/* the simulated side's logs or trace not written (a full disk): exit status 1 */
		rc = rc == SL_RUN_EIO ? SL_VALIDATE_EOUTPUT : -1;
		goto out;
	}
	rc = -1;
	if (read_side(&sim, simdir, m, secs, err, errlen))
		goto out;
	if (compare(&rp, m, &real, &sim)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (o->json_out) {
		if (print_json(out, &rp, o->json, &mc, real_dir, &real, o)) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	} else {
		print_table(out, &rp, o->json, &mc, real_dir, &real, o);
	}
	rc = 0;
out:
	if (made_sim)
		remove_tree(simdir);
	free_side(&real);
	free_side(&sim);
	free(rp.row);
	free(m);
	return rc;
}
