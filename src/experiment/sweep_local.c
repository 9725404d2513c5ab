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

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n) {
		ssize_t r = read(fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
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
	while (read_all(in, &idx, sizeof(idx)) == 0) {
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

int sl_sweep_local(struct sl_sweep *sw)
{
	char err[2048];
	bool *done = calloc(sw->nruns, sizeof(*done));
	u64 ndone = 0, ntodo = 0;
	u64 *todo = NULL;
	int rc = 1;

	if (!done) {
		fprintf(stderr, "schedlab: sweep: out of memory for %llu runs\n",
			(unsigned long long)sw->nruns);
		return 1;
	}
	if (sl_sweep_resume(sw, done, &ndone, err, sizeof(err))) {
		fprintf(stderr, "schedlab: %s\n", err);
		free(done);
		return 2;
	}
	for (u64 i = 0; i < sw->nruns; i++)
		ntodo += !done[i] && sl_sweep_mine(sw, i);
	todo = malloc(sizeof(*todo) * (ntodo ? ntodo : 1));
	if (!todo) {
		free(done);
		return 1;
	}
	ntodo = 0;
	for (u64 i = 0; i < sw->nruns; i++)
		if (!done[i] && sl_sweep_mine(sw, i))
			todo[ntodo++] = i;
	free(done);

	struct writer w = {.path = sw->out};

	w.fd = sl_sweep_open_out(sw);
	if (w.fd < 0) {
		free(todo);
		return 1;
	}
	if (ndone)
		fprintf(stderr, "schedlab: sweep: %llu runs already in %s, %llu to do\n",
			(unsigned long long)ndone, sw->out, (unsigned long long)ntodo);
	int nw = sw->jobs;

	if ((u64)nw > ntodo)
		nw = ntodo ? (int)ntodo : 1;
	struct wk *wks = calloc((size_t)nw, sizeof(*wks));
	u64 window = (u64)WINDOW_PW * (u64)nw + DEPTH * (u64)nw;
	char **pending = calloc(window, sizeof(*pending)); /* ring by todo position */
	size_t *plen = calloc(window, sizeof(*plen));
	char *row = malloc(ROW_MAX);

	if (!wks || !pending || !plen || !row) {
		fprintf(stderr, "schedlab: sweep: out of memory\n");
		goto out;
	}
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;

	sigemptyset(&sa.sa_mask);
	stop_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	signal(SIGPIPE, SIG_IGN);

	bool inproc = nw == 1;

	for (int k = 0; k < nw && !inproc; k++) {
		int c[2], r[2];

		if (pipe2(c, O_CLOEXEC) || pipe2(r, O_CLOEXEC)) {
			fprintf(stderr, "schedlab: sweep: pipe: %s\n", strerror(errno));
			goto out;
		}
		fflush(NULL);
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "schedlab: sweep: fork: %s\n", strerror(errno));
			goto out;
		}
		if (pid == 0) {
			close(c[1]);
			close(r[0]);
			close(w.fd);
			for (int j = 0; j < k; j++) {
				close(wks[j].cmd);
				close(wks[j].res);
			}
			worker(sw, c[0], r[1]);
		}
		close(c[0]);
		close(r[1]);
		wks[k] = (struct wk){.pid = pid, .cmd = c[1], .res = r[0]};
	}

	u64 next_disp = 0, next_write = 0, inflight = 0;
	double t0 = now_s(), last_prog = 0;
	int failed = 0;

	while (next_write < ntodo && !failed) {
		/* dispatch */
		while (!stop_signal && !failed && next_disp < ntodo &&
		       next_disp < next_write + window - (u64)DEPTH * (u64)nw) {
			if (inproc) {
				int n = sl_sweep_run_one(sw, todo[next_disp], row, ROW_MAX, err,
							 sizeof(err));

				if (n < 0) {
					fprintf(stderr, "schedlab: sweep: %s\n", err);
					failed = 1;
					break;
				}
				if (put_line(&w, row, (size_t)n))
					failed = 1;
				next_disp++;
				next_write++;
				break; /* progress and signals between runs */
			}
			struct wk *best = NULL;

			for (int k = 0; k < nw; k++)
				if (wks[k].inflight < DEPTH &&
				    (!best || wks[k].inflight < best->inflight))
					best = &wks[k];
			if (!best)
				break;
			u64 idx = todo[next_disp];

			if (sl_write_all(best->cmd, &idx, sizeof(idx))) {
				fprintf(stderr, "schedlab: sweep: worker %d died\n",
					(int)best->pid);
				failed = 1;
				break;
			}
			best->running[best->inflight++] = next_disp;
			next_disp++;
			inflight++;
		}
		if (stop_signal && !inflight)
			break;
		/* collect */
		if (!inproc && inflight) {
			struct pollfd pfd[1024];

			for (int k = 0; k < nw; k++)
				pfd[k] = (struct pollfd){.fd = wks[k].res, .events = POLLIN};
			int pr = poll(pfd, (nfds_t)nw, 250);

			if (pr < 0 && errno != EINTR) {
				fprintf(stderr, "schedlab: sweep: poll: %s\n", strerror(errno));
				failed = 1;
			}
			for (int k = 0; pr > 0 && k < nw; k++) {
				if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				struct wk *x = &wks[k];
				struct msg m;
				u64 pos = x->running[0];

				if (!x->inflight || read_all(x->res, &m, sizeof(m)) ||
				    m.idx != todo[pos] || m.len >= ROW_MAX || m.len <= -ROW_MAX) {
					fprintf(stderr,
						"schedlab: sweep: worker %d died running run "
						"#%llu\n",
						(int)x->pid, (unsigned long long)todo[pos]);
					failed = 1;
					break;
				}
				size_t n = (size_t)(m.len < 0 ? -m.len : m.len);

				if (read_all(x->res, row, n)) {
					failed = 1;
					break;
				}
				memmove(x->running, x->running + 1,
					sizeof(x->running[0]) * (DEPTH - 1));
				x->inflight--;
				inflight--;
				if (m.len < 0) {
					fprintf(stderr, "schedlab: sweep: %.*s\n", (int)n, row);
					failed = 1;
					continue;
				}
				char *copy = malloc(n);

				if (!copy) {
					failed = 1;
					break;
				}
				memcpy(copy, row, n);
				pending[pos % window] = copy;
				plen[pos % window] = n;
			}
			/* write what is now in order */
			while (next_write < next_disp && pending[next_write % window]) {
				u64 s = next_write % window;

				if (!failed && put_line(&w, pending[s], plen[s]))
					failed = 1;
				free(pending[s]);
				pending[s] = NULL;
				next_write++;
			}
		}
		double t = now_s();

		if (t - w.last_sync > 1.0) {
			fdatasync(w.fd);
			w.last_sync = t;
		}
		if (sw->progress && (t - last_prog > 0.25 || next_write == ntodo)) {
			double rate = next_write / (t - t0 > 1e-9 ? t - t0 : 1e-9);
			char eta[32];

			fmt_eta(rate > 0 ? (double)(ntodo - next_write) / rate : 0, eta,
				sizeof(eta));
			fprintf(stderr, "\rsweep: %llu/%llu runs (%.1f%%), %.1f runs/s, ETA %s   ",
				(unsigned long long)ndone + next_write,
				(unsigned long long)ndone + ntodo,
				100.0 * (double)(ndone + next_write) /
					(double)(ndone + ntodo ? ndone + ntodo : 1),
				rate, eta);
			last_prog = t;
		}
	}
	if (sw->progress)
		fputc('\n', stderr);
	if (fsync(w.fd) && !failed) {
		fprintf(stderr, "schedlab: %s: %s\n", sw->out, strerror(errno));
		failed = 1;
	}
	double el = now_s() - t0;

	if (failed || w.failed) {
		fprintf(stderr, "schedlab: sweep: stopped; %llu finished runs are in %s\n",
			(unsigned long long)ndone + w.nwritten, sw->out);
		rc = 1;
	} else if (stop_signal) {
		fprintf(stderr,
			"schedlab: sweep: interrupted; %llu of %llu runs are in %s (run the same "
			"command to resume)\n",
			(unsigned long long)ndone + next_write, (unsigned long long)ndone + ntodo,
			sw->out);
		rc = 130;
	} else {
		fprintf(stderr, "schedlab: sweep: %llu runs in %.1f s (%.1f runs/s, %d %s); %s\n",
			(unsigned long long)ntodo, el, el > 0 ? (double)ntodo / el : 0.0, nw,
			nw == 1 ? "process" : "workers", sw->out);
		rc = 0;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
out:
	for (int k = 0; wks && k < nw; k++) {
		if (wks[k].pid <= 0)
			continue;
		close(wks[k].cmd);
		close(wks[k].res);
		if (rc)
			kill(wks[k].pid, SIGKILL);
		waitpid(wks[k].pid, NULL, 0);
	}
	for (u64 i = 0; pending && i < window; i++)
		free(pending[i]);
	free(pending);
	free(plen);
	free(row);
	free(wks);
	free(todo);
	close(w.fd);
	return rc;
}
