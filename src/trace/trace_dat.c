/*
 * The binary trace.dat reader (trace-cmd record / extract), through libtracecmd, picked by the
 * file's magic "\x17\x08Dtracing" (also inside xz or gzip). libtraceevent prints each event as
 * `trace-cmd report -t` prints it (the same plugins, nanosecond timestamps), and the line goes
 * to the ftrace text parser, so a trace.dat and its report read alike. Events come in time order,
 * merged from the per-CPU streams (ties: the lower CPU first). The buffer read is the top one,
 * or, when it holds no event, the first instance buffer that does (`trace-cmd record -B NAME`).
 * The line number of an error is the event's number in that order.
 *
 * libtracecmd runs in a child process (see below): a crash inside it is this file's error.
 *
 * Built without libtracecmd (the CMake option SCHEDLAB_LIBTRACECMD, or libtracecmd-dev absent),
 * the probe still recognises the file and open refuses it, naming the library.
 */
#include "trace/ftrace_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef SCHEDLAB_HAVE_LIBTRACECMD
#include <signal.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>
#endif

/* trace.dat's magic: "\x17\x08\x44tracing" (trace-cmd's lib/trace-cmd/trace-output.c) */
static bool dat_magic(const unsigned char *text, size_t len)
{
	return len >= 10 && !memcmp(text,
				    "\x17\x08"
				    "Dtracing",
				    10);
}

static bool dat_probe(const unsigned char *head, size_t len)
{
	return dat_magic(head, len);
}

#ifndef SCHEDLAB_HAVE_LIBTRACECMD

static int dat_open(struct sl_trace_reader *r, const unsigned char *head, size_t len)
{
	(void)head;
	(void)len;
	snprintf(r->err, sizeof(r->err),
		 "%s: a binary trace.dat (trace-cmd's format), which this schedlab was built "
		 "without libtracecmd to read (Debian: libtracecmd-dev, then rebuild); convert it "
		 "with `trace-cmd report -t FILE > FILE.txt`",
		 r->path);
	return -1;
}

static int dat_next(struct sl_trace_reader *r, struct sl_trace_record *o)
{
	(void)r;
	(void)o;
	return -1;
}

static void dat_close(struct sl_trace_reader *r)
{
	(void)r;
}

#else

/*
 * libtracecmd and libtraceevent trust the file: a malformed trace.dat crashes them (SIGSEGV in
 * tracecmd_open_fd, overflows in the printk formats). So they run in a child process, which
 * prints the events and sends each line through a pipe; a crash there is this file's error
 * (exit status 2 naming it), not the end of schedlab. Before that, the header's fixed fields
 * are checked here.
 */
enum frame_type { F_NCPU = 'N', F_LINE = 'L', F_ERROR = 'E', F_END = 'Z' };

/* One message from the child: a header, then len bytes (a line, or an error's text). */
struct frame {
	char type;
	int value;	  /* F_NCPU: the CPUs; F_LINE: the event's CPU */
	long long missed; /* F_LINE: events lost before it (-1: some, count unknown) */
	unsigned len;
};

struct dat_priv {
	pid_t child;
	int in; /* the pipe from the child (-1: closed) */
	bool ended;
	char line[SL_TRACE_MAX_LINE];
	/* what was read from the pipe and not yet taken: buf[bpos..blen) */
	size_t bpos, blen;
	unsigned char buf[65536];
};

/*
 * The input as a file descriptor libtracecmd can seek: the file's own, or a temporary copy of
 * the input's bytes (a pipe, a memory stream, or xz or gzip, decompressed by the input layer).
 */
static int dat_fd(struct sl_trace_reader *r)
{
	FILE *f = r->f, *tmp;
	char buf[65536];
	long k;
	int fd;

	/* a file (not a pipe, not a memory stream): libtracecmd reads it itself */
	if (sl_trace_input_plain(r) && fileno(f) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		fd = dup(fileno(f));
		if (fd < 0)
			snprintf(r->err, sizeof(r->err), "%s: %s", r->path, strerror(errno));
		return fd;
	}
	tmp = tmpfile();
	if (!tmp) {
		snprintf(r->err, sizeof(r->err), "%s: cannot create a temporary file: %s", r->path,
			 strerror(errno));
		return -1;
	}
	while ((k = sl_trace_read(r, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)k, tmp);
	if (k < 0) {
		fclose(tmp);
		return -1;
	}
	if (fflush(tmp) || ferror(tmp)) {
		snprintf(r->err, sizeof(r->err), "%s: cannot write a temporary file: %s", r->path,
			 strerror(errno));
		fclose(tmp);
		return -1;
	}
	fd = dup(fileno(tmp));
	fclose(tmp); /* the file lives on while fd is open */
	if (fd >= 0)
		lseek(fd, 0, SEEK_SET);
	else
		snprintf(r->err, sizeof(r->err), "%s: %s", r->path, strerror(errno));
	return fd;
}

/*
 * The header's fixed part (trace-cmd's trace-dat(5)): the magic, the version as decimal digits
 * and a NUL (6 or 7 are what libtracecmd reads), the endianness (0 little, 1 big), the size of
 * a long (4 or 8) and the page size (a power of two, 4 KiB to 1 MiB).
 */
static int dat_header(struct sl_trace_reader *r, int fd)
{
	unsigned char h[32];
	ssize_t n = pread(fd, h, sizeof(h), 0);
	size_t v = 10;
	unsigned page;
	const char *what = NULL;

	if (n < 0) {
		snprintf(r->err, sizeof(r->err), "%s: %s", r->path, strerror(errno));
		return -1;
	}
	while (v < (size_t)n && v < 14 && h[v] >= '0' && h[v] <= '9')
		v++;
	if (n < 10 || !dat_magic(h, (size_t)n))
		what = "the trace.dat magic";
	else if (v == 10 || v >= (size_t)n || h[v] || (v != 11 || (h[10] != '6' && h[10] != '7')))
		what = "version 6 or 7 (a NUL-terminated decimal)";
	else if ((size_t)n < v + 7)
		what = "the endianness, long size and page size after the version";
	else if (h[v + 1] > 1)
		what = "an endianness byte of 0 or 1";
	else if (h[v + 2] != 4 && h[v + 2] != 8)
		what = "a long size of 4 or 8";
	else {
		unsigned char *p = h + v + 3;

		page = h[v + 1] ? (unsigned)p[0] << 24 | (unsigned)p[1] << 16 |
					  (unsigned)p[2] << 8 | p[3]
				: (unsigned)p[3] << 24 | (unsigned)p[2] << 16 |
					  (unsigned)p[1] << 8 | p[0];
		if (page < 4096 || page > (1u << 20) || (page & (page - 1)))
			what = "a page size that is a power of two from 4096 to 1048576";
	}
	if (!what)
		return 0;
	snprintf(r->err, sizeof(r->err), "%s: a malformed trace.dat header: expected %s", r->path,
		 what);
	return -1;
}

static bool put_frame(FILE *out, char type, int value, long long missed, const char *s, size_t len)
{
	struct frame fr;

	memset(&fr, 0, sizeof(fr)); /* the padding too: the bytes go down the pipe */
	fr.type = type;
	fr.value = value;
	fr.missed = missed;
	fr.len = (unsigned)len;
	return fwrite(&fr, sizeof(fr), 1, out) == 1 && (!len || fwrite(s, 1, len, out) == len);
}

/* Reads each CPU's first event of h; true when there is one. */
static bool dat_start(struct tracecmd_input *h, struct tep_record **next, int ncpu)
{
	bool any = false;

	for (int c = 0; c < ncpu; c++) {
		next[c] = tracecmd_read_data(h, c);
		any |= next[c] != NULL;
	}
	return any;
}

static void dat_drop(struct tep_record **next, int ncpu)
{
	for (int c = 0; c < ncpu; c++) {
		if (next[c])
			tracecmd_free_record(next[c]);
		next[c] = NULL;
	}
}

/*
 * The child: opens fd with libtracecmd and sends every event of the buffer read (the top one,
 * or the first instance that holds events) as the ftrace text line trace-cmd report -t prints,
 * merged from the per-CPU streams in time order (ties: the lower CPU first). Its exit status:
 * 0 when all was sent. It never returns.
 */
static void __attribute__((noreturn)) dat_child(int fd, int wfd)
{
	FILE *out = fdopen(wfd, "w");
	struct tracecmd_input *top, *h;
	struct tep_record **next;
	struct tep_handle *tep;
	struct trace_seq seq;
	char line[SL_TRACE_MAX_LINE];
	int ncpu;

	if (!out)
		_exit(3);
	/* a crash here is the file's: die of it (the parent names the signal) rather than run a
	 * handler inherited from the parent (a sanitizer's, a fuzzer's) */
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

	for (size_t i = 0; i < SL_ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	top = tracecmd_open_fd(fd, 0);
	if (!top) {
		static const char e[] = "a trace.dat that libtracecmd cannot read (truncated, "
					"or a version it does not know)";

		put_frame(out, F_ERROR, 0, 0, e, sizeof(e) - 1);
		fflush(out);
		_exit(0);
	}
	ncpu = tep_get_cpus(tracecmd_get_tep(top));
	if (!put_frame(out, F_NCPU, ncpu, 0, NULL, 0) || ncpu <= 0 || ncpu > SL_TRACE_MAX_CPUS) {
		fflush(out);
		_exit(0);
	}
	next = calloc((size_t)ncpu, sizeof(*next));
	if (!next)
		_exit(3);
	h = top;
	if (!dat_start(h, next, ncpu)) {
		int nb = tracecmd_buffer_instances(top);

		dat_drop(next, ncpu);
		h = NULL;
		for (int i = 0; i < nb && !h; i++) {
			struct tracecmd_input *b = tracecmd_buffer_instance_handle(top, i);

			if (!b)
				continue;
			if (dat_start(b, next, ncpu))
				h = b;
			else
				dat_drop(next, ncpu);
		}
	}
	trace_seq_init(&seq);
	tep = h ? tracecmd_get_tep(h) : NULL;
	for (;;) {
		int c = -1;

		for (int k = 0; h && k < ncpu; k++)
			if (next[k] && (c < 0 || next[k]->ts < next[c]->ts))
				c = k;
		if (c < 0)
			break;
		struct tep_record *rec = next[c];
		struct tep_event *ev;
		unsigned long long ts = rec->ts;
		long long missed = rec->missed_events;
		int pid, n;

		next[c] = tracecmd_read_data(h, c);
		ev = tep_find_event_by_record(tep, rec);
		pid = tep_data_pid(tep, rec);
		trace_seq_reset(&seq);
		if (ev)
			tep_print_event(tep, &seq, rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		n = snprintf(line, sizeof(line), "%s-%d [%03d] %llu.%09llu: %s: %s",
			     tep_data_comm_from_pid(tep, pid), pid, c, ts / 1000000000ULL,
			     ts % 1000000000ULL, ev ? ev->name : "unknown_event",
			     seq.buffer ? seq.buffer : "");
		tracecmd_free_record(rec);
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof(line))
			n = (int)sizeof(line) - 1;
		if (!put_frame(out, F_LINE, c, missed, line, (size_t)n))
			_exit(0); /* the reader stopped reading: nothing more to do */
	}
	put_frame(out, F_END, 0, 0, NULL, 0);
	fflush(out);
	_exit(0);
}

/* The child's end: reaped, killed first if it still runs. Its wait status, or -1. */
static int dat_reap(struct dat_priv *p, bool kill_it)
{
	int status = -1;

	if (p->child <= 0)
		return -1;
	if (kill_it)
		kill(p->child, SIGKILL);
	while (waitpid(p->child, &status, 0) < 0 && errno == EINTR)
		;
	p->child = 0;
	return status;
}

static void dat_close(struct sl_trace_reader *r)
{
	struct dat_priv *p = r->priv;

	if (!p)
		return;
	if (p->in >= 0)
		close(p->in);
	dat_reap(p, true);
	free(p);
	r->priv = NULL;
}

/* The pipe ended before the child said it was done: what became of the child. */
static int dat_died(struct sl_trace_reader *r, struct dat_priv *p)
{
	int st = dat_reap(p, false);

	char how[64];

	/* a signal, or a sanitizer's exit status 1 in the ASan build */
	if (st != -1 && WIFSIGNALED(st))
		snprintf(how, sizeof(how), "%s", strsignal(WTERMSIG(st)));
	else
		snprintf(how, sizeof(how), "exit status %d",
			 st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	snprintf(r->err, sizeof(r->err),
		 "%s:%lu: libtracecmd crashed reading this trace.dat (%s) after %lu events: a "
		 "malformed file",
		 r->path, r->lines + 1, how, r->lines);
	return -1;
}

/*
 * n bytes from the pipe, through a buffer (a read per 64 KiB, not two per event); false at its
 * end or on an error. A read interrupted by a signal the program catches without SA_RESTART
 * (libFuzzer's timeout alarm, a caller's handler) is made again: taken for the pipe's end, it
 * would call a child that is still writing dead, then wait for it.
 */
static bool pipe_take(struct dat_priv *p, void *dst, size_t n)
{
	unsigned char *d = dst;

	while (n) {
		size_t k;

		if (p->bpos == p->blen) {
			ssize_t got = read(p->in, p->buf, sizeof(p->buf));

			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				return false;
			p->bpos = 0;
			p->blen = (size_t)got;
		}
		k = p->blen - p->bpos < n ? p->blen - p->bpos : n;
		memcpy(d, p->buf + p->bpos, k);
		p->bpos += k;
		d += k;
		n -= k;
	}
	return true;
}

/* The next frame; its text (len bytes) in p->line. 1, or -1 (r->err set). */
static int dat_frame(struct sl_trace_reader *r, struct dat_priv *p, struct frame *fr)
{
	if (!pipe_take(p, fr, sizeof(*fr)))
		return dat_died(r, p);
	if (fr->len >= sizeof(p->line) || !pipe_take(p, p->line, fr->len))
		return dat_died(r, p);
	p->line[fr->len] = '\0';
	return 1;
}

static int dat_open(struct sl_trace_reader *r, const unsigned char *head, size_t len)
{
	struct dat_priv *p;
	struct frame fr;
	int fd = dat_fd(r), pfd[2];

	(void)head;
	(void)len;
	if (fd < 0)
		return -1;
	if (dat_header(r, fd)) {
		close(fd);
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (p)
		p->in = -1;
	if (!p || pipe(pfd)) {
		snprintf(r->err, sizeof(r->err), "%s: %s", r->path,
			 p ? strerror(errno) : "out of memory");
		free(p);
		close(fd);
		return -1;
	}
	r->priv = p;
	fflush(NULL); /* nothing buffered is written twice */
	p->child = fork();
	if (p->child == 0) {
		close(pfd[0]);
		dat_child(fd, pfd[1]);
	}
	close(pfd[1]);
	close(fd);
	if (p->child < 0) {
		snprintf(r->err, sizeof(r->err), "%s: fork: %s", r->path, strerror(errno));
		close(pfd[0]);
		return -1;
	}
	p->in = pfd[0];
	if (dat_frame(r, p, &fr) < 0)
		return -1;
	if (fr.type == F_ERROR) {
		snprintf(r->err, sizeof(r->err), "%s: %s", r->path, p->line);
		return -1;
	}
	if (fr.type != F_NCPU || fr.value <= 0 || fr.value > SL_TRACE_MAX_CPUS) {
		snprintf(r->err, sizeof(r->err), "%s: a trace.dat of %d CPUs: expected 1 to %d",
			 r->path, fr.value, SL_TRACE_MAX_CPUS);
		return -1;
	}
	r->ncpu = fr.value;
	return 0;
}

static int dat_next(struct sl_trace_reader *r, struct sl_trace_record *o)
{
	struct dat_priv *p = r->priv;

	for (;;) {
		struct frame fr;
		int rc;

		if (p->ended)
			return 0;
		if (dat_frame(r, p, &fr) < 0)
			return -1;
		if (fr.type == F_END) {
			p->ended = true;
			dat_reap(p, false);
			return 0;
		}
		if (fr.type != F_LINE)
			return dat_died(r, p);
		r->lines++;
		if (fr.missed) {
			r->lost_lines++;
			if (fr.missed > 0)
				r->lost_events += (u64)fr.missed;
		}
		rc = sl_ftrace_parse(r, p->line, fr.len, r->lines, o);
		if (rc)
			return rc;
	}
}

#endif

const struct sl_trace_reader_ops sl_trace_dat_reader = {
	.name = "trace-dat",
	.probe = dat_probe,
	.open = dat_open,
	.next = dat_next,
	.close = dat_close,
};
