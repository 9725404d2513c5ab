/*
 * The local engine: -j N worker processes forked from the parsed sweep, each a plain loop of
 * "read an index, simulate, write the line back" over a pair of pipes. Processes, not threads:
 * a simulation that crashes takes one worker with it and is reported by its index, and nothing in
 * the simulator has to be thread-safe.
 *
 * The parent alone writes --out, in index order (a small reorder buffer holds lines that finish
 * early), so -j 1, -j 8, a resumed run and an MPI run write byte-identical files. SIGINT or
 * SIGTERM stops the dispatching; the runs in flight finish (a run is milliseconds) and are
 * written, so an interrupted sweep loses nothing it had started, and exits 130.
 */
#include "experiment/sweep.h"
#include "core/escape.h"
#include "core/fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROW_MAX	  65536
#define DEPTH	  2  /* indices queued per worker, so none idles between runs */
#define WINDOW_PW 64 /* lines the reorder buffer may hold per worker */

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct msg {
	u64 idx;
	s64 len; /* < 0: an error message of -len bytes follows */
};

/* A worker: never returns. */
static void worker(const struct sl_sweep *sw, int in, int out)
{
	char *row = malloc(ROW_MAX), err[1024];
	u64 idx;

	signal(SIGINT, SIG_IGN); /* the parent decides when to stop */
	signal(SIGTERM, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	if (!row)
		_exit(3);
	while (sl_read_all(in, &idx, sizeof(idx)) == 0) {
		int n = sl_sweep_run_one(sw, idx, row, ROW_MAX, err, sizeof(err));
		struct msg m = {idx, n};
		const char *body = row;

		if (n < 0) {
			m.len = -(s64)strlen(err);
			body = err;
		}
		if (sl_write_all(out, &m, sizeof(m)) ||
		    sl_write_all(out, body, (size_t)(m.len < 0 ? -m.len : m.len)))
			_exit(3);
	}
	_exit(0);
}

struct wk {
	pid_t pid;
	int cmd, res;
	int inflight;
	u64 running[DEPTH]; /* FIFO of the indices it was given */
};

static void fmt_eta(double s, char *buf, size_t len)
{
	if (s > 359999)
		s = 359999;
	if (s >= 3600)
		snprintf(buf, len, "%dh%02dm", (int)s / 3600, (int)s / 60 % 60);
	else
		snprintf(buf, len, "%dm%02ds", (int)s / 60, (int)s % 60);
}

struct writer {
	int fd;
	const char *path;
	double last_sync;
	int failed;
	u64 nwritten; /* rows on disk: what a failed sweep says it kept */
};

static int put_line(struct writer *w, const char *line, size_t n)
{
	if (sl_append_line(w->fd, line, n)) {
		fprintf(stderr, "schedlab: %s: %s\n", w->path, strerror(errno));
		w->failed = 1;
		return -1;
	}
	w->nwritten++;
	return 0;
}

/* One local sweep: its runs, its output, its workers and how far it got. */
struct local {
	struct sl_sweep *sw;
	u64 *todo;	  /* the indices of the runs to do, in order */
	u64 ntodo, ndone; /* ndone: runs already in --out (a resumed sweep) */
	struct writer w;
	int nw;	     /* worker processes */
	bool inproc; /* one: the runs are done in this process, no worker is forked */
	struct wk *wks;
	u64 window;	/* the reorder buffer's size */
	char **pending; /* ring by todo position: lines that finished early */
	size_t *plen;
	char *row;
	u64 next_disp, next_write, inflight; /* todo positions dispatched, written; in flight */
	double t0, last_prog;
	int failed;
	struct sigaction old_int, old_term;
	char err[2048];
};

/* The runs to do: this process's share (sl_sweep_mine) of those not already in --out. */
static int plan_runs(struct local *l)
{
	struct sl_sweep *sw = l->sw;
	bool *done = calloc(sw->nruns, sizeof(*done));

	if (!done) {
		fprintf(stderr, "schedlab: sweep: out of memory for %llu runs\n",
			(unsigned long long)sw->nruns);
		return 1;
	}
	if (sl_sweep_resume(sw, done, &l->ndone, l->err, sizeof(l->err))) {
		sl_say(stderr, l->err);
		free(done);
		return 2;
	}
	for (u64 i = 0; i < sw->nruns; i++)
		l->ntodo += !done[i] && sl_sweep_mine(sw, i);
	l->todo = malloc(sizeof(*l->todo) * (l->ntodo ? l->ntodo : 1));
	if (!l->todo) {
		free(done);
		return 1;
	}
	l->ntodo = 0;
	for (u64 i = 0; i < sw->nruns; i++)
		if (!done[i] && sl_sweep_mine(sw, i))
			l->todo[l->ntodo++] = i;
	free(done);
	return 0;
}

static int open_out(struct local *l)
{
	struct sl_sweep *sw = l->sw;

	l->w = (struct writer){.path = sw->out};
	l->w.fd = sl_sweep_open_out(sw);
	if (l->w.fd < 0)
		return -1;
	if (l->ndone)
		fprintf(stderr, "schedlab: sweep: %llu runs already in %s, %llu to do\n",
			(unsigned long long)l->ndone, sw->out, (unsigned long long)l->ntodo);
	return 0;
}

/* The workers (no more than the runs) and the reorder buffer. */
static int alloc_buffers(struct local *l)
{
	int nw = l->sw->jobs;

	if ((u64)nw > l->ntodo)
		nw = l->ntodo ? (int)l->ntodo : 1;
	l->nw = nw;
	l->inproc = nw == 1;
	l->wks = calloc((size_t)nw, sizeof(*l->wks));
	l->window = (u64)WINDOW_PW * (u64)nw + DEPTH * (u64)nw;
	l->pending = calloc(l->window, sizeof(*l->pending));
	l->plen = calloc(l->window, sizeof(*l->plen));
	l->row = malloc(ROW_MAX);
	if (!l->wks || !l->pending || !l->plen || !l->row) {
		fprintf(stderr, "schedlab: sweep: out of memory\n");
		return -1;
	}
	return 0;
}

static void catch_signals(struct local *l)
{
	struct sigaction sa = {.sa_handler = on_signal};

	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	sigaction(SIGINT, &sa, &l->old_int);
	sigaction(SIGTERM, &sa, &l->old_term);
	signal(SIGPIPE, SIG_IGN);
}

static void restore_signals(struct local *l)
{
	sigaction(SIGINT, &l->old_int, NULL);
	sigaction(SIGTERM, &l->old_term, NULL);
}

/* Worker k, with its pair of pipes. */
static int spawn_worker(struct local *l, int k)
{
	int c[2], r[2];

	if (pipe2(c, O_CLOEXEC) || pipe2(r, O_CLOEXEC)) {
		fprintf(stderr, "schedlab: sweep: pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();

	if (pid < 0) {
		fprintf(stderr, "schedlab: sweep: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(c[1]);
		close(r[0]);
		close(l->w.fd);
		for (int j = 0; j < k; j++) {
			close(l->wks[j].cmd);
			close(l->wks[j].res);
		}
		worker(l->sw, c[0], r[1]);
	}
	close(c[0]);
	close(r[1]);
	l->wks[k] = (struct wk){.pid = pid, .cmd = c[1], .res = r[0]};
	return 0;
}

static int spawn_workers(struct local *l)
{
	for (int k = 0; k < l->nw && !l->inproc; k++)
		if (spawn_worker(l, k))
			return -1;
	return 0;
}

/* -j 1: the next run, in this process, written at once. */
static void run_here(struct local *l)
{
	int n = sl_sweep_run_one(l->sw, l->todo[l->next_disp], l->row, ROW_MAX, l->err,
				 sizeof(l->err));

	if (n < 0) {
		fprintf(stderr, "schedlab: sweep: %s\n", l->err);
		l->failed = 1;
		return;
	}
	if (put_line(&l->w, l->row, (size_t)n))
		l->failed = 1;
	l->next_disp++;
	l->next_write++;
}

/* The next run to the least loaded worker; -1: every worker is full, or the one chosen died. */
static int send_run(struct local *l)
{
	struct wk *best = NULL;

	for (int k = 0; k < l->nw; k++)
		if (l->wks[k].inflight < DEPTH && (!best || l->wks[k].inflight < best->inflight))
			best = &l->wks[k];
	if (!best)
		return -1;
	u64 idx = l->todo[l->next_disp];

	if (sl_write_all(best->cmd, &idx, sizeof(idx))) {
		fprintf(stderr, "schedlab: sweep: worker %d died\n", (int)best->pid);
		l->failed = 1;
		return -1;
	}
	best->running[best->inflight++] = l->next_disp;
	l->next_disp++;
	l->inflight++;
	return 0;
}

/* Runs out while the reorder buffer has room for their lines (no new one after a signal). */
static void dispatch(struct local *l)
{
	while (!stop_signal && !l->failed && l->next_disp < l->ntodo &&
	       l->next_disp < l->next_write + l->window - (u64)DEPTH * (u64)l->nw) {
		if (l->inproc) {
			run_here(l);
			return; /* progress and signals between runs */
		}
		if (send_run(l))
			return;
	}
}

/* Worker x's result for its oldest run into the reorder buffer; -1: x is lost (or no memory). */
static int read_result(struct local *l, struct wk *x)
{
	struct msg m;
	u64 pos = x->running[0];

	if (!x->inflight || sl_read_all(x->res, &m, sizeof(m)) || m.idx != l->todo[pos] ||
	    m.len >= ROW_MAX || m.len <= -ROW_MAX) {
		fprintf(stderr, "schedlab: sweep: worker %d died running run #%llu\n", (int)x->pid,
			(unsigned long long)l->todo[pos]);
		l->failed = 1;
		return -1;
	}
	size_t n = (size_t)(m.len < 0 ? -m.len : m.len);

	if (sl_read_all(x->res, l->row, n)) {
		l->failed = 1;
		return -1;
	}
	memmove(x->running, x->running + 1, sizeof(x->running[0]) * (DEPTH - 1));
	x->inflight--;
	l->inflight--;
	if (m.len < 0) {
		fprintf(stderr, "schedlab: sweep: %.*s\n", (int)n, l->row);
		l->failed = 1;
		return 0;
	}
	char *copy = malloc(n);

	if (!copy) {
		l->failed = 1;
		return -1;
	}
	memcpy(copy, l->row, n);
	l->pending[pos % l->window] = copy;
	l->plen[pos % l->window] = n;
	return 0;
}

/* The lines now in order go to --out (after a failure they are only dropped). */
static void write_in_order(struct local *l)
{
	while (l->next_write < l->next_disp && l->pending[l->next_write % l->window]) {
		u64 s = l->next_write % l->window;

		if (!l->failed && put_line(&l->w, l->pending[s], l->plen[s]))
			l->failed = 1;
		free(l->pending[s]);
		l->pending[s] = NULL;
		l->next_write++;
	}
}

/* The workers' results, waiting 250 ms at most, then the lines now in order. */
static void collect(struct local *l)
{
	struct pollfd pfd[1024];

	for (int k = 0; k < l->nw; k++)
		pfd[k] = (struct pollfd){.fd = l->wks[k].res, .events = POLLIN};
	int pr = poll(pfd, (nfds_t)l->nw, 250);

	if (pr < 0 && errno != EINTR) {
		fprintf(stderr, "schedlab: sweep: poll: %s\n", strerror(errno));
		l->failed = 1;
	}
	for (int k = 0; pr > 0 && k < l->nw; k++) {
		if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		if (read_result(l, &l->wks[k]))
			break;
	}
	write_in_order(l);
}

/* "runs done/total, rate, ETA" on stderr, over itself */
static void show_progress(struct local *l, double t)
{
	u64 ndone = l->ndone, ntodo = l->ntodo, next_write = l->next_write;
	double rate = next_write / (t - l->t0 > 1e-9 ? t - l->t0 : 1e-9);
	char eta[32];

	fmt_eta(rate > 0 ? (double)(ntodo - next_write) / rate : 0, eta, sizeof(eta));
	fprintf(stderr, "\rsweep: %llu/%llu runs (%.1f%%), %.1f runs/s, ETA %s   ",
		(unsigned long long)ndone + next_write, (unsigned long long)ndone + ntodo,
		100.0 * (double)(ndone + next_write) / (double)(ndone + ntodo ? ndone + ntodo : 1),
		rate, eta);
	l->last_prog = t;
}

/* --out reaches the disk every second; the progress line every 0.25 s and at the end. */
static void sync_and_progress(struct local *l)
{
	double t = now_s();

	if (t - l->w.last_sync > 1.0) {
		fdatasync(l->w.fd);
		l->w.last_sync = t;
	}
	if (l->sw->progress && (t - l->last_prog > 0.25 || l->next_write == l->ntodo))
		show_progress(l, t);
}

/*
 * Until every run is written, one fails, or a signal stopped the dispatching and the runs in
 * flight are in.
 */
static void run_all(struct local *l)
{
	l->t0 = now_s();
	while (l->next_write < l->ntodo && !l->failed) {
		dispatch(l);
		if (stop_signal && !l->inflight)
			break;
		if (!l->inproc && l->inflight)
			collect(l);
		sync_and_progress(l);
	}
}

/* The final fsync and the summary line; the exit code. */
static int report(struct local *l)
{
	struct sl_sweep *sw = l->sw;

	if (sw->progress)
		fputc('\n', stderr);
	if (fsync(l->w.fd) && !l->failed) {
		fprintf(stderr, "schedlab: %s: %s\n", sw->out, strerror(errno));
		l->failed = 1;
	}
	double el = now_s() - l->t0;

	if (l->failed || l->w.failed) {
		fprintf(stderr, "schedlab: sweep: stopped; %llu finished runs are in %s\n",
			(unsigned long long)l->ndone + l->w.nwritten, sw->out);
		return 1;
	}
	if (stop_signal) {
		fprintf(stderr,
			"schedlab: sweep: interrupted; %llu of %llu runs are in %s (run the same "
			"command to resume)\n",
			(unsigned long long)l->ndone + l->next_write,
			(unsigned long long)l->ndone + l->ntodo, sw->out);
		return 130;
	}
	fprintf(stderr, "schedlab: sweep: %llu runs in %.1f s (%.1f runs/s, %d %s); %s\n",
		(unsigned long long)l->ntodo, el, el > 0 ? (double)l->ntodo / el : 0.0, l->nw,
		l->nw == 1 ? "process" : "workers", sw->out);
	return 0;
}

/* The workers end (killed unless the sweep succeeded) and everything is freed. */
static void teardown(struct local *l, int rc)
{
	for (int k = 0; l->wks && k < l->nw; k++) {
		if (l->wks[k].pid <= 0)
			continue;
		close(l->wks[k].cmd);
		close(l->wks[k].res);
		if (rc)
			kill(l->wks[k].pid, SIGKILL);
		waitpid(l->wks[k].pid, NULL, 0);
	}
	for (u64 i = 0; l->pending && i < l->window; i++)
		free(l->pending[i]);
	free(l->pending);
	free(l->plen);
	free(l->row);
	free(l->wks);
	free(l->todo);
	close(l->w.fd);
}

int sl_sweep_local(struct sl_sweep *sw)
{
	struct local l = {.sw = sw};
	int rc = plan_runs(&l);

	if (rc)
		return rc;
	if (open_out(&l)) {
		free(l.todo);
		return 1;
	}
	rc = 1;
	if (alloc_buffers(&l))
		goto out;
	catch_signals(&l);
	if (spawn_workers(&l))
		goto out;
	run_all(&l);
	rc = report(&l);
	restore_signals(&l);
out:
	teardown(&l, rc);
	return rc;
}
