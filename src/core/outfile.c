#include "core/outfile.h"
#include <schedlab/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The temporaries currently open, for sl_outfile_cleanup() in a signal handler. This is the one
 * piece of global state: a signal handler has no other way to find them. A run has at most a
 * few outputs open at once; one beyond the table is still removed on every normal path, just not
 * by the handler.
 */
#define SL_OUTFILE_LIVE 8
static struct sl_outfile *volatile live[SL_OUTFILE_LIVE];

static void track(struct sl_outfile *o, bool on)
{
	for (int i = 0; i < SL_OUTFILE_LIVE; i++) {
		if (on && !live[i]) {
			live[i] = o;
			return;
		}
		if (!on && live[i] == o) {
			live[i] = NULL;
			return;
		}
	}
}

void sl_outfile_cleanup(void)
{
	for (int i = 0; i < SL_OUTFILE_LIVE; i++) {
		struct sl_outfile *o = live[i];

		if (o)
			unlink(o->tmp);
	}
}

static int fail(struct sl_outfile *o, int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", o->path, strerror(e));
	return -1;
}

bool sl_outfile_stale(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *p = name + pl;
	char *end;
	long pid;

	if (strncmp(name, prefix, pl) || *p != '.' || p[1] < '1' || p[1] > '9')
		return false;
	pid = strtol(p + 1, &end, 10);
	if (*end != '.' || strlen(end + 1) != 6 || pid > SL_PID_MAX_LIMIT || pid == (long)getpid())
		return false;
	/* alive (or not ours to ask about): its temporary is in use */
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

/*
 * The temporaries of killed runs (kill -9 leaves them; they can be as large as the output):
 * .NAME.PID.XXXXXX beside the final file, removed when process PID no longer exists. Only
 * the names this writer makes for this output are touched.
 */
static void remove_stale(const char *dir, const char *base)
{
	char prefix[4200];
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	snprintf(prefix, sizeof(prefix), ".%s", base);
	while ((de = readdir(d))) {
		char stale[8400];

		if (!sl_outfile_stale(de->d_name, prefix))
			continue;
		snprintf(stale, sizeof(stale), "%s/%s", dir, de->d_name);
		unlink(stale);
	}
	closedir(d);
}

int sl_outfile_open(struct sl_outfile *o, const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path);
	char dir[4096], base[4096];
	struct stat st;

	memset(o, 0, sizeof(*o));
	if (!n || n >= sizeof(o->path)) {
		snprintf(err, errlen, "%.64s...: %s", path,
			 n ? "path too long" : "empty file name");
		return -1;
	}
	memcpy(o->path, path, n + 1);
	/*
	 * A FIFO, a device, a terminal: written through as it is, not replaced by a regular file
	 * (-o /dev/full must not replace /dev/full). There is no old content to keep there.
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (!(o->f = fopen(path, "w")))
			return fail(o, errno, err, errlen);
		return 0;
	}
	/* dirname/basename may modify their argument: give each its own copy */
	memcpy(dir, path, n + 1);
	memcpy(base, path, n + 1);
	const char *dn = dirname(dir), *bn = basename(base);

	remove_stale(dn, bn);
	snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.%d.XXXXXX", dn, bn, (int)getpid());
	int fd = mkstemp(o->tmp);

	if (fd < 0)
		return fail(o, errno, err, errlen);
	/* mkstemp makes the file 0600; the final file gets what open(2) would give it */
	mode_t mask = umask(0);

	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(o->tmp);
		return fail(o, e, err, errlen);
	}
	track(o, true);
	return 0;
}

/* A file written through (not a regular file): flushed and closed, nothing renamed. */
static int commit_through(struct sl_outfile *o, char *err, size_t errlen)
{
	int e = 0;

	if (fflush(o->f))
		e = errno;
	if (!e && ferror(o->f))
		e = errno ? errno : EIO;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	return e ? fail(o, e, err, errlen) : 0;
}

int sl_outfile_commit(struct sl_outfile *o, char *err, size_t errlen)
{
	int e = 0;

	if (!o->tmp[0])
		return commit_through(o, err, errlen);

	/*
	 * fflush first: it retries what is buffered and sets errno now (ENOSPC on a full disk); an
	 * earlier failed write leaves ferror set, and errno from that write if nothing reset it.
	 */
	if (fflush(o->f))
		e = errno;
	if (!e && ferror(o->f))
		e = errno ? errno : EIO;
	if (!e && fsync(fileno(o->f)))
		e = errno;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (!e && rename(o->tmp, o->path))
		e = errno;
	if (e) {
		unlink(o->tmp);
		track(o, false);
		return fail(o, e, err, errlen);
	}
	track(o, false);
	/* make the rename itself durable: fsync the directory (best effort) */
	char dir[4096];

	memcpy(dir, o->path, strlen(o->path) + 1);
	int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

void sl_outfile_abort(struct sl_outfile *o)
{
	if (o->f) {
		fclose(o->f);
		o->f = NULL;
	}
	if (o->tmp[0]) {
		unlink(o->tmp);
		track(o, false);
	}
}

int sl_stdout_close(void)
{
	int e = 0;

	if (fflush(stdout))
		e = errno;
	if (!e && ferror(stdout))
		e = errno ? errno : EIO;
	if (e) {
		fprintf(stderr, "schedlab: standard output: %s\n", strerror(e));
		return -1;
	}
	return 0;
}

/*
 * The files this process reads, by device and inode: an output given the name of one (-o
 * pointing at the trace, --trace-out at the replayed one) would replace it with the output,
 * losing the input a re-run needs. A fixed table: inputs past it are not guarded.
 */
#define SL_OUTFILE_INPUTS 64
static struct {
	dev_t dev;
	ino_t ino;
} inputs[SL_OUTFILE_INPUTS];
static int ninputs;

void sl_outfile_input(const char *path)
{
	struct stat st;

	if (ninputs < SL_OUTFILE_INPUTS && path && !stat(path, &st) && S_ISREG(st.st_mode)) {
		inputs[ninputs].dev = st.st_dev;
		inputs[ninputs++].ino = st.st_ino;
	}
}

bool sl_outfile_is_input(const char *path)
{
	struct stat st;
	/* asked between a failed write and sl_outfile_commit, which reads that write's errno: the
	 * stat of a file not yet renamed into place must not leave ENOENT there */
	int saved = errno;
	bool in = false;

	if (path && !stat(path, &st) && S_ISREG(st.st_mode))
		for (int i = 0; i < ninputs && !in; i++)
			in = inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino;
	errno = saved;
	return in;
}

int sl_outfile_mkdir(const char *dir, unsigned mode)
{
	struct stat st;

	if (mkdir(dir, (mode_t)mode) && errno != EEXIST)
		return errno;
	if (stat(dir, &st))
		return errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	/* a directory there already that cannot take files (a read-only file system) is found
	 * now, not after the measuring or the real run that fills it */
	return access(dir, W_OK | X_OK) ? errno : 0;
}
