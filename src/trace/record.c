/*
 * `schedlab record -o FILE [--events LIST] -- CMD...`: record a real trace of CMD on this
 * machine through tracefs, with the events the reader understands. It needs root; without root
 * or without tracefs it says so and changes nothing. It mounts tracefs if it is not mounted
 * (and unmounts it afterwards).
 *
 * With libtracefs (the build finds it with pkg-config, Debian libtracefs-dev) it records into a
 * private tracefs instance, instances/schedlab-PID: its own ring buffer and event switches, so
 * the global buffer and anyone else's tracing are untouched. It creates the instance, enables
 * the events there, runs CMD, saves the instance's `trace` (through a temporary file, renamed
 * when complete) and removes the instance, also when SIGINT, SIGTERM or SIGHUP arrives (the
 * signal is passed to CMD; the trace until then is saved; exit status 130).
 *
 * Without libtracefs it uses the global buffer: it remembers every setting it changes (each
 * event's enable, tracing_on, the buffer size), clears the buffer, and puts the settings back.
 */
#include "trace/record.h"
#include "core/outfile.h"
#include "core/suggest.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef SCHEDLAB_HAVE_LIBTRACEFS
#include <tracefs.h>
#endif

#define TRACEFS "/sys/kernel/tracing"
/* per CPU, while recording: about 20 s of a busy 2-CPU machine's default events */
#define RECORD_BUFFER_KB 32768

static const char *const default_events[] = {
	"sched/sched_switch",	    "sched/sched_wakeup",	  "sched/sched_wakeup_new",
	"sched/sched_waking",	    "sched/sched_process_fork",	  "sched/sched_process_exec",
	"sched/sched_process_exit", "sched/sched_migrate_task",	  "power/cpu_idle",
	"timer/hrtimer_start",	    "timer/hrtimer_expire_entry", "timer/hrtimer_cancel",
	"timer/tick_stop",	    "block/block_rq_issue",	  "block/block_rq_complete",
	"irq/irq_handler_entry",
};

/*
 * "; did you mean 'sched/sched_switch'?" for an event tracefs does not have: the nearest of this
 * machine's available_events (SYSTEM:EVENT lines there), and of the default events.
 */
static const char *event_hint(const char *ev, char *buf, size_t len)
{
	struct sl_suggest sg;
	char line[256], best[256];
	FILE *f = fopen(TRACEFS "/available_events", "r");

	sl_suggest_init(&sg, ev, strlen(ev));
	for (size_t i = 0; i < SL_ARRAY_SIZE(default_events); i++)
		sl_suggest_add(&sg, default_events[i]);
	while (f && fgets(line, sizeof(line), f)) {
		const char *was = sg.best;
		char *colon = strchr(line, ':');

		line[strcspn(line, "\n")] = '\0';
		if (colon)
			*colon = '/';
		sl_suggest_add(&sg, line);
		if (sg.best != was) { /* line is overwritten by the next one */
			snprintf(best, sizeof(best), "%s", line);
			sg.best = best;
		}
	}
	if (f)
		fclose(f);
	return sl_suggest_text(&sg, buf, len);
}

int sl_record_check_events(const char *const *events, int nevents, char *err, size_t errlen)
{
	struct stat st;
	char p[640], hint[320];

	for (int i = 0; i < nevents; i++) {
		const char *slash = strchr(events[i], '/');

		if (!slash || slash == events[i] || slash - events[i] >= 128 || !slash[1]) {
			snprintf(err, errlen, "record: event %s: expected SYSTEM/EVENT", events[i]);
			return -1;
		}
		/* tracefs not mounted yet: record mounts it, and the recording checks then */
		if (stat(TRACEFS "/events", &st))
			continue;
		snprintf(p, sizeof(p), TRACEFS "/events/%s/enable", events[i]);
		if (stat(p, &st)) {
			snprintf(err, errlen, "record: no event %s in " TRACEFS "/events%s",
				 events[i], event_hint(events[i], hint, sizeof(hint)));
			return -1;
		}
	}
	return 0;
}

#ifndef SCHEDLAB_HAVE_LIBTRACEFS
/* the global buffer's settings, put back afterwards */
struct saved {
	char path[512];
	char old;
};

static int write_file(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	int rc = fputs(s, f) < 0 ? -1 : 0;

	if (fclose(f))
		rc = -1;
	return rc;
}

static int read_char(const char *path, char *c)
{
	FILE *f = fopen(path, "r");
	int ch;

	if (!f)
		return -1;
	ch = fgetc(f);
	fclose(f);
	if (ch == EOF)
		return -1;
	*c = (char)ch;
	return 0;
}

/* The first line of a small file, without its newline: 0, or -1. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		rc = 0;
	}
	fclose(f);
	return rc;
}

#endif

int sl_record_clean_stale(const char *instances_dir)
{
	DIR *d = opendir(instances_dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end, path[4096];
		long pid;

		if (strncmp(de->d_name, "schedlab-", 9) || de->d_name[9] < '1' ||
		    de->d_name[9] > '9')
			continue;
		pid = strtol(de->d_name + 9, &end, 10);
		if (*end || pid > SL_PID_MAX_LIMIT || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* a record still running */
		snprintf(path, sizeof(path), "%s/%s", instances_dir, de->d_name);
		if (!rmdir(path)) {
			fprintf(stderr,
				"schedlab: record: removed the tracefs instance %s left by a "
				"killed record (pid %ld)\n",
				de->d_name, pid);
			n++;
		}
	}
	closedir(d);
	return n;
}

/*
 * What both ways of recording check first: root, a command, tracefs mounted (mounting it when
 * it is not: *mounted says so, for the unmount at the end); no events named means the default
 * set.
 */
static int record_begin(char *const *cmd, const char *const **events, int *nevents, bool *mounted,
			char *err, size_t errlen)
{
	struct stat st;

	if (geteuid() != 0) {
		snprintf(err, errlen, "record: needs root (tracefs is writable by root only)");
		return -1;
	}
	if (!cmd || !cmd[0]) {
		snprintf(err, errlen, "record: give a command after --");
		return -1;
	}
	if (stat(TRACEFS "/trace", &st)) {
		if (mount("nodev", TRACEFS, "tracefs", 0, NULL)) {
			snprintf(err, errlen,
				 "record: tracefs is not mounted at " TRACEFS
				 " and mounting it failed: %s",
				 strerror(errno));
			return -1;
		}
		*mounted = true;
	}
	if (!*events || !*nevents) {
		*events = default_events;
		*nevents = (int)SL_ARRAY_SIZE(default_events);
	}
	sl_record_clean_stale(TRACEFS "/instances");
	return 0;
}

#ifndef SCHEDLAB_HAVE_LIBTRACEFS
int sl_record(const char *out, const char *const *events, int nevents, char *const *cmd, char *err,
	      size_t errlen)
{
	struct saved saved[64];
	char old_kb[32] = "";
	bool resized = false;
	int nsaved = 0, rc = -1, status = 0;
	bool mounted = false;
	char p[640], on = '1';

	if (record_begin(cmd, &events, &nevents, &mounted, err, errlen))
		return -1;
	if (nevents > (int)SL_ARRAY_SIZE(saved)) {
		snprintf(err, errlen, "record: at most %d events", (int)SL_ARRAY_SIZE(saved));
		goto out;
	}
	read_char(TRACEFS "/tracing_on", &on);
	write_file(TRACEFS "/tracing_on", "0");
	/*
	 * A bigger ring buffer: the default (1.4 MB a CPU here) holds a few seconds of a busy
	 * machine's scheduling events, and an overflowed trace undercounts. Put back afterwards.
	 */
	if (!read_line(TRACEFS "/buffer_size_kb", old_kb, sizeof(old_kb)) &&
	    strtoul(old_kb, NULL, 10) < RECORD_BUFFER_KB) {
		char kb[32];

		snprintf(kb, sizeof(kb), "%d", RECORD_BUFFER_KB);
		if (!write_file(TRACEFS "/buffer_size_kb", kb))
			resized = true;
	}
	for (int i = 0; i < nevents; i++) {
		snprintf(p, sizeof(p), TRACEFS "/events/%s/enable", events[i]);
		if (read_char(p, &saved[nsaved].old)) {
			char hint[320];

			snprintf(err, errlen, "record: no event %s in " TRACEFS "/events%s",
				 events[i], event_hint(events[i], hint, sizeof(hint)));
			goto out;
		}
		snprintf(saved[nsaved].path, sizeof(saved[nsaved].path), "%s", p);
		nsaved++;
		if (write_file(p, "1")) {
			snprintf(err, errlen, "record: cannot enable %s: %s", events[i],
				 strerror(errno));
			goto out;
		}
	}
	write_file(TRACEFS "/trace", ""); /* clear the buffer */
	write_file(TRACEFS "/tracing_on", "1");
	pid_t pid = fork();

	if (pid < 0) {
		snprintf(err, errlen, "record: fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "schedlab: record: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	write_file(TRACEFS "/tracing_on", "0");
	char e[4400];

	if (sl_outfile_copy(TRACEFS "/trace", out, e, sizeof(e))) {
		snprintf(err, errlen, "record: cannot write the trace: %s", e);
		rc = 1; /* an I/O error: exit status 1 */
		goto out;
	}
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
	if (rc)
		snprintf(err, errlen, "record: %s exited with status %d (the trace is saved)",
			 cmd[0], WIFEXITED(status) ? WEXITSTATUS(status) : 128);
out:
	/* put back what was changed */
	if (resized)
		write_file(TRACEFS "/buffer_size_kb", old_kb);
	for (int i = nsaved - 1; i >= 0; i--) {
		char v[2] = {saved[i].old, '\0'};

		write_file(saved[i].path, v);
	}
	if (!mounted) {
		char v[2] = {on, '\0'};

		write_file(TRACEFS "/tracing_on", v);
	} else {
		umount(TRACEFS);
	}
	return rc;
}
#else

static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;

/* Remember the signal and pass it to CMD: the recording stops when CMD does. */
static void on_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

int sl_record(const char *out, const char *const *events, int nevents, char *const *cmd, char *err,
	      size_t errlen)
{
	struct sigaction sa, old[SL_ARRAY_SIZE(caught)];
	struct tracefs_instance *inst = NULL;
	char name[64], *path;
	int rc = -1, status = 0;
	bool mounted = false, saved = false;

	if (record_begin(cmd, &events, &nevents, &mounted, err, errlen))
		return -1;
	got_signal = 0;
	child_pid = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t k = 0; k < SL_ARRAY_SIZE(caught); k++)
		sigaction(caught[k], &sa, &old[k]);
	snprintf(name, sizeof(name), "schedlab-%d", (int)getpid());
	inst = tracefs_instance_create(name);
	if (!inst) {
		snprintf(err, errlen,
			 "record: cannot create the tracefs instance %s/instances/%s: %s", TRACEFS,
			 name, strerror(errno));
		goto out;
	}
	tracefs_trace_off(inst);
	/* a bigger ring buffer than the default (1.4 MB a CPU here): an overflow undercounts */
	{
		char kb[32];

		snprintf(kb, sizeof(kb), "%d", RECORD_BUFFER_KB);
		tracefs_instance_file_write(inst, "buffer_size_kb", kb);
	}
	/* again, not a repeat of the command line's check: that one ran before record_begin
	 * mounted tracefs (then it checks the names' form only), validate and calibrate do not
	 * make it, and the copy of SYSTEM into sys[128] below relies on its length check */
	if (sl_record_check_events(events, nevents, err, errlen))
		goto out;
	for (int i = 0; i < nevents; i++) {
		char sys[128];
		const char *slash = strchr(events[i], '/');

		memcpy(sys, events[i], (size_t)(slash - events[i]));
		sys[slash - events[i]] = '\0';
		if (tracefs_event_enable(inst, sys, slash + 1)) {
			char hint[320];

			snprintf(err, errlen, "record: no event %s in " TRACEFS "/events%s",
				 events[i], event_hint(events[i], hint, sizeof(hint)));
			goto out;
		}
	}
	if (got_signal)
		goto out;
	tracefs_trace_on(inst);
	pid_t pid = fork();

	if (pid < 0) {
		snprintf(err, errlen, "record: fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		for (size_t k = 0; k < SL_ARRAY_SIZE(caught); k++)
			sigaction(caught[k], &old[k], NULL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "schedlab: record: cannot run %s: %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	child_pid = pid;
	if (got_signal) /* before child_pid was set: the handler could not pass it on */
		kill(pid, got_signal);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	child_pid = 0;
	tracefs_trace_off(inst);
	path = tracefs_instance_get_file(inst, "trace");
	if (!path) {
		snprintf(err, errlen, "record: out of memory");
		goto out;
	}
	char e[4400];

	if (sl_outfile_copy(path, out, e, sizeof(e))) {
		snprintf(err, errlen, "record: cannot write the trace: %s", e);
		tracefs_put_tracing_file(path);
		rc = 1; /* an I/O error: exit status 1 */
		goto out;
	}
	saved = true;
	tracefs_put_tracing_file(path);
	rc = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
	if (rc)
		snprintf(err, errlen, "record: %s exited with status %d (the trace is saved)",
			 cmd[0], WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
out:
	if (inst) {
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
	}
	if (mounted)
		umount(TRACEFS);
	if (got_signal) {
		snprintf(err, errlen, "record: interrupted by %s%s", strsignal(got_signal),
			 saved ? " (the trace until then is saved)" : "; nothing saved");
		rc = SL_RECORD_INTERRUPTED;
	}
	for (size_t k = 0; k < SL_ARRAY_SIZE(caught); k++)
		sigaction(caught[k], &old[k], NULL);
	return rc;
}

#endif
