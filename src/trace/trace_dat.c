/*
 * The binary trace.dat reader (trace-cmd record / extract), through libtracecmd, picked by the
 * file's magic "\x17\x08Dtracing" (also inside xz or gzip). libtraceevent prints each event as
 * `trace-cmd report -t` prints it (the same plugins, nanosecond timestamps), and the line goes
 * to the ftrace text parser, so a trace.dat and its report read alike. Events come in time order,
 * merged from the per-CPU streams (ties: the lower CPU first). The buffer read is the top one,
 * or, when it holds no event, the first instance buffer that does (`trace-cmd record -B NAME`).
 * The line number of an error is the event's number in that order.
 *
 * Built without libtracecmd (the CMake option SCHEDLAB_LIBTRACECMD, or libtracecmd-dev absent),
 * the probe still recognises the file and open refuses it, naming the library.
 */
#include "trace/ftrace_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef SCHEDLAB_HAVE_LIBTRACECMD
#include <trace-cmd.h>
#include <unistd.h>
#endif

static bool dat_probe(const unsigned char *head, size_t len)
{
	unsigned char text[32];
	size_t n = sl_trace_peek_text(head, len, text, sizeof(text));

	return sl_trace_dat_magic(text, n);
}

#ifndef SCHEDLAB_HAVE_LIBTRACECMD

static int dat_open(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len)
{
	(void)f;
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

struct dat_priv {
	struct tracecmd_input *top; /* the file */
	struct tracecmd_input *h;   /* the buffer read: top or an instance's */
	struct tep_handle *tep;
	int ncpu;
	struct tep_record **next; /* per CPU: its next event, NULL at its end */
	struct trace_seq seq;
	bool seq_init;
	char line[SL_TRACE_MAX_LINE];
};

/* The input as a file descriptor libtracecmd can seek: the file's own, or a temporary copy. */
static int dat_fd(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len)
{
	bool plain = !sl_trace_compressed(head, len);
	FILE *tmp;
	int fd;

	/* a file (not a pipe, not a memory stream): libtracecmd reads it itself */
	if (plain && fileno(f) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
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
	if (plain) {
		/* a pipe: what the probe read, then the rest */
		char buf[65536];
		size_t k;

		fwrite(head, 1, len, tmp);
		while ((k = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, k, tmp);
		if (ferror(f)) {
			snprintf(r->err, sizeof(r->err), "%s: read error: %s", r->path,
				 strerror(errno));
			fclose(tmp);
			return -1;
		}
	} else {
		/* xz or gzip: decompressed by the text reader's byte source */
		char buf[65536];
		long k;

		if (sl_ftrace_text_reader.open(r, f, head, len)) {
			sl_ftrace_text_reader.close(r);
			fclose(tmp);
			return -1;
		}
		while ((k = sl_ftrace_read(r, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)k, tmp);
		sl_ftrace_text_reader.close(r);
		if (k < 0) {
			fclose(tmp);
			return -1;
		}
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

/* Reads each CPU's first event of h; true when there is one. */
static bool dat_start(struct dat_priv *p, struct tracecmd_input *h)
{
	bool any = false;

	p->h = h;
	p->tep = tracecmd_get_tep(h);
	for (int c = 0; c < p->ncpu; c++) {
		p->next[c] = tracecmd_read_data(h, c);
		any |= p->next[c] != NULL;
	}
	return any;
}

static void dat_drop(struct dat_priv *p)
{
	for (int c = 0; c < p->ncpu; c++) {
		if (p->next[c])
			tracecmd_free_record(p->next[c]);
		p->next[c] = NULL;
	}
	if (p->h && p->h != p->top)
		tracecmd_close(p->h);
	p->h = NULL;
}

static void dat_close(struct sl_trace_reader *r)
{
	struct dat_priv *p = r->priv;

	if (!p)
		return;
	if (p->next)
		dat_drop(p);
	free(p->next);
	if (p->top)
		tracecmd_close(p->top);
	if (p->seq_init)
		trace_seq_destroy(&p->seq);
	free(p);
	r->priv = NULL;
}

static int dat_open(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len)
{
	struct dat_priv *p;
	int fd = dat_fd(r, f, head, len);

	if (fd < 0)
		return -1;
	p = calloc(1, sizeof(*p));
	if (!p) {
		close(fd);
		snprintf(r->err, sizeof(r->err), "%s: out of memory", r->path);
		return -1;
	}
	r->priv = p;
	p->top = tracecmd_open_fd(fd, 0); /* owns fd from here, also on failure */
	if (!p->top) {
		snprintf(r->err, sizeof(r->err),
			 "%s: a trace.dat that libtracecmd cannot read (truncated, or a version "
			 "it does not know)",
			 r->path);
		return -1;
	}
	p->ncpu = tep_get_cpus(tracecmd_get_tep(p->top));
	if (p->ncpu <= 0 || p->ncpu > SL_TRACE_MAX_CPUS) {
		snprintf(r->err, sizeof(r->err), "%s: a trace.dat of %d CPUs: expected 1 to %d",
			 r->path, p->ncpu, SL_TRACE_MAX_CPUS);
		return -1;
	}
	r->ncpu = p->ncpu;
	p->next = calloc((size_t)p->ncpu, sizeof(*p->next));
	if (!p->next) {
		snprintf(r->err, sizeof(r->err), "%s: out of memory", r->path);
		return -1;
	}
	trace_seq_init(&p->seq);
	p->seq_init = true;
	if (!dat_start(p, p->top)) {
		int nb = tracecmd_buffer_instances(p->top);

		dat_drop(p);
		for (int i = 0; i < nb; i++) {
			struct tracecmd_input *h = tracecmd_buffer_instance_handle(p->top, i);

			if (!h)
				continue;
			if (dat_start(p, h))
				break;
			dat_drop(p);
		}
	}
	return 0;
}

/* The CPU whose next event comes first (the lower CPU on a tie); -1 when all have ended. */
static int dat_first_cpu(const struct dat_priv *p)
{
	int best = -1;

	for (int c = 0; c < p->ncpu; c++)
		if (p->next[c] && (best < 0 || p->next[c]->ts < p->next[best]->ts))
			best = c;
	return best;
}

static int dat_next(struct sl_trace_reader *r, struct sl_trace_record *o)
{
	struct dat_priv *p = r->priv;

	for (;;) {
		int c = p->h ? dat_first_cpu(p) : -1;

		if (c < 0)
			return 0;
		struct tep_record *rec = p->next[c];
		struct tep_event *ev;
		int pid, n, rc;
		unsigned long long ts = rec->ts;

		p->next[c] = tracecmd_read_data(p->h, c);
		r->lines++;
		if (rec->missed_events) {
			r->lost_lines++;
			if (rec->missed_events > 0)
				r->lost_events += (u64)rec->missed_events;
		}
		ev = tep_find_event_by_record(p->tep, rec);
		pid = tep_data_pid(p->tep, rec);
		trace_seq_reset(&p->seq);
		if (ev)
			tep_print_event(p->tep, &p->seq, rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&p->seq);
		n = snprintf(p->line, sizeof(p->line), "%s-%d [%03d] %llu.%09llu: %s: %s",
			     tep_data_comm_from_pid(p->tep, pid), pid, c, ts / 1000000000ULL,
			     ts % 1000000000ULL, ev ? ev->name : "unknown_event",
			     p->seq.buffer ? p->seq.buffer : "");
		tracecmd_free_record(rec);
		if (n < 0)
			n = 0;
		if ((size_t)n >= sizeof(p->line))
			n = (int)sizeof(p->line) - 1;
		rc = sl_ftrace_parse(r, p->line, (size_t)n, r->lines, o);
		if (rc)
			return rc;
	}
}

#endif

static int dat_next_event(struct sl_trace_reader *r, struct sl_event *ev)
{
	struct sl_trace_record rec;
	int rc;

	while ((rc = dat_next(r, &rec)) == 1)
		if (sl_trace_record_to_event(&rec, ev))
			return 1;
	return rc;
}

const struct sl_trace_reader_ops sl_trace_dat_reader = {
	.name = "trace-dat",
	.probe = dat_probe,
	.open = dat_open,
	.next = dat_next,
	.next_event = dat_next_event,
	.close = dat_close,
};
