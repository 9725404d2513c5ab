/*
 * calibrate --recordings: how long a wake-up on an idle vCPU takes to run its task, by how long
 * the vCPU had been idle (wake_idle.h), woken by its own timer or from another CPU. On this
 * machine both grow with the idle length (the host lets a long-idle core sleep deeper, and the
 * guest's path runs on cold caches): docs/validate.md, "The noise floor, measured".
 */
#include "validate/wake_idle.h"
#include "trace/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 256

struct sample {
	double x;    /* log10 of the idle length in ms */
	double lat;  /* ns */
	bool direct; /* the CPU's first switch after the wake-up ran the task */
};

struct acc {
	struct sample *s;
	size_t n, cap;
};

/* a wake-up in flight on an idle CPU: by its own interrupt, or from another CPU (remote) */
struct pending {
	int pid;
	u64 at;
	double x;
	bool direct; /* nothing else ran on the CPU yet */
};

static int push(struct acc *a, double x, double lat, bool direct)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 4096;
		struct sample *s = realloc(a->s, sizeof(*s) * cap);

		if (!s)
			return -1;
		a->s = s;
		a->cap = cap;
	}
	a->s[a->n].x = x;
	a->s[a->n].direct = direct;
	a->s[a->n++].lat = lat;
	return 0;
}

static bool cpu_ok(int cpu)
{
	return cpu >= 0 && cpu < MAX_CPUS;
}

static int one_trace(const char *path, struct acc *loc, struct acc *rem, char *err, size_t errlen)
{
	static u64 since[MAX_CPUS];
	static bool idle[MAX_CPUS];
	/* one in flight per CPU and kind, so that the local row is the same with or without
	 * remote wake-ups around it */
	static struct pending pend[2][MAX_CPUS];
	struct sl_trace_reader rd;
	struct sl_trace_record r;
	int rc, ncpu = 0; /* the highest CPU switched on so far */

	memset(idle, 0, sizeof(idle));
	memset(pend, 0, sizeof(pend));
	if (sl_trace_open(&rd, NULL, path, false, err, errlen))
		return -1;
	while ((rc = sl_trace_next(&rd, &r)) == 1) {
		int t = r.target_cpu;
		bool remote = t != r.cpu;

		if (r.kind == SL_TR_CPU_IDLE && cpu_ok(r.cpu_id)) {
			idle[r.cpu_id] = r.state >= 0;
			if (r.state >= 0)
				since[r.cpu_id] = r.time;
		} else if (r.kind == SL_TR_SCHED_WAKING && cpu_ok(r.cpu) && cpu_ok(t) && idle[t] &&
			   r.time > since[t] && !pend[remote][t].pid) {
			/* onto an idle CPU: by its own interrupt (local), or from another CPU,
			 * which the IPI brings out of its idle state (remote) */
			pend[remote][t].pid = r.task_pid;
			pend[remote][t].at = r.time;
			pend[remote][t].x = log10((double)(r.time - since[t]) / 1e6);
			pend[remote][t].direct = true;
		} else if (r.kind == SL_TR_SCHED_SWITCH && cpu_ok(r.cpu)) {
			/* a remotely woken task that ran elsewhere first (pulled by another CPU
			 * before its target got to it) is no wake-up of the idle one: counted, it
			 * would add its next run there (one 180 us median of 215 in the calibration
			 * half) */
			if (r.cpu > ncpu)
				ncpu = r.cpu;
			for (int c = 0; c <= ncpu; c++)
				if (c != r.cpu && pend[1][c].pid == r.next_pid)
					pend[1][c].pid = 0;
			/* the first switch after: to the woken task, or something else ran first
			 * (a softirq thread, another wake-up): both are the vCPU's path */
			for (int k = 0; k < 2; k++) {
				struct pending *p = &pend[k][r.cpu];

				if (p->pid && r.next_pid != p->pid)
					p->direct = false;
				if (!p->pid || r.next_pid != p->pid)
					continue;
				if (push(k ? rem : loc, p->x, (double)(r.time - p->at),
					 p->direct)) {
					snprintf(err, errlen, "out of memory");
					rc = -1;
					break;
				}
				p->pid = 0;
			}
			if (rc < 0)
				break;
		}
	}
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s", rd.err);
	sl_trace_close(&rd);
	return rc < 0 ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the median of v[0..n), n > 0 (sorts v) */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* the normal's distribution function */
static double phi(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

/*
 * P(X <= x) for X the normal of sd (mean 0) plus, for a share s of draws, an exponential of
 * mean m: the exponentially modified normal's closed form for those. sd 0: a step at 0.
 */
static double mix_cdf(double x, double sd, double s, double m)
{
	double core = sd > 0 ? phi(x / sd) : x >= 0, l = 1 / m, emg;

	if (sd > 0)
		emg = core - exp(-l * x + l * l * sd * sd / 2) * phi(x / sd - l * sd);
	else
		emg = x >= 0 ? 1 - exp(-l * x) : 0;
	return (1 - s) * core + s * emg;
}

/*
 * The tail (wake_*_tail, wake_*_tail_mean): the residuals from the line of the wake-ups whose
 * CPU ran the task first (one that ran another woken task first waited for that task's run,
 * which a model makes itself) have a long right tail; the normal of the row's sd plus, for a
 * share of the draws, an exponential extra is fitted to their 90th, 95th, 97.5th and 99th
 * percentiles (least squares on the distribution function, over shares of 5-1000 per 1000 in
 * steps of 5 and means of 0.5-200 us in steps of 0.5 us; a pair whose closed form overflows, a
 * mean far under the sd, is skipped). None when the 99th percentile is within the normal's own
 * (2.326 sd).
 */
#define N_TAIL_Q 4
static int fit_tail(const struct acc *a, struct sl_wake_idle_row *w, double icpt, double slope)
{
	static const double qp[N_TAIL_Q] = {0.90, 0.95, 0.975, 0.99};
	double *v = malloc(sizeof(*v) * (a->n ? a->n : 1)), rq[N_TAIL_Q], sd = (double)w->sd;
	double best = -1;
	size_t k = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < a->n; i++)
		if (a->s[i].direct)
			v[k++] = a->s[i].lat - (icpt + slope * a->s[i].x);
	w->n_direct = k;
	/* the others: how long the wake-ups run second took (printed, not a parameter) */
	if (a->n > k) {
		size_t j = 0;

		for (size_t i = 0; i < a->n; i++)
			if (!a->s[i].direct)
				v[k + j++] = a->s[i].lat;
		w->second_p50 = median(v + k, j);
	}
	if (k < SL_WI_TAIL_MIN) {
		free(v);
		return 0;
	}
	qsort(v, k, sizeof(*v), cmp_double);
	for (int q = 0; q < N_TAIL_Q; q++)
		rq[q] = v[(size_t)((double)k * qp[q])];
	for (int q = 0; q < N_TAIL_Q; q++)
		w->tail_q[q] = rq[q];
	free(v);
	if (rq[N_TAIL_Q - 1] <= 2.326 * sd)
		return 0;
	for (int s = 5; s <= 1000; s += 5)
		for (int m = 1; m <= 400; m++) {
			double e = 0;

			for (int q = 0; q < N_TAIL_Q; q++) {
				double d = mix_cdf(rq[q], sd, s / 1000.0, m * 500.0) - qp[q];

				e += d * d;
			}
			if (!isfinite(e))
				continue;
			if (best < 0 || e < best) {
				best = e;
				w->tail = (u64)s;
				w->tail_mean = (u64)m * 500;
			}
		}
	return 0;
}

/* the fit of one row from its samples a (row->ok false: fewer than two bins to fit) */
static int fit(const struct acc *a, struct sl_wake_idle_row *w)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, slope, icpt, d;
	double *v = malloc(sizeof(*v) * (a->n ? a->n : 1));

	if (!v)
		return -1;
	w->n = a->n;
	/* per half-decade bin: the median idle length and latency */
	for (int b = 0; b < SL_WI_BINS; b++) {
		double lo = -2 + 0.5 * b, hi = lo + 0.5;
		size_t k = 0;

		for (size_t i = 0; i < a->n; i++)
			if (a->s[i].x >= lo && a->s[i].x < hi)
				v[k++] = a->s[i].x;
		w->bin_n[b] = k;
		if (k < SL_WI_MIN)
			continue;
		w->bin_idle[b] = median(v, k);
		k = 0;
		for (size_t i = 0; i < a->n; i++)
			if (a->s[i].x >= lo && a->s[i].x < hi)
				v[k++] = a->s[i].lat;
		w->bin_lat[b] = median(v, k);
		sw += (double)k;
		sx += (double)k * w->bin_idle[b];
		sy += (double)k * w->bin_lat[b];
		sxx += (double)k * w->bin_idle[b] * w->bin_idle[b];
		sxy += (double)k * w->bin_idle[b] * w->bin_lat[b];
	}
	if (sw == 0 || sw * sxx - sx * sx <= 0) {
		free(v);
		return 0;
	}
	slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
	icpt = (sy - slope * sx) / sw;
	w->at_1ms = icpt > 0 ? (u64)icpt : 0;
	w->per_decade = slope > 0 ? (u64)slope : 0;
	/* the spread around the line: half the 16th-84th percentile range of the residuals */
	for (size_t i = 0; i < a->n; i++)
		v[i] = a->s[i].lat - (icpt + slope * a->s[i].x);
	qsort(v, a->n, sizeof(*v), cmp_double);
	d = (v[a->n * 84 / 100] - v[a->n * 16 / 100]) / 2;
	w->sd = d > 0 ? (u64)d : 0;
	w->ok = true;
	free(v);
	return fit_tail(a, w, icpt, slope);
}

int sl_wake_idle_measure(const char *const *paths, int n, struct sl_wake_idle *w, char *err,
			 size_t errlen)
{
	struct acc loc = {NULL, 0, 0}, rem = {NULL, 0, 0};
	int rc = -1;

	memset(w, 0, sizeof(*w));
	err[0] = '\0';
	for (int i = 0; i < n; i++)
		if (one_trace(paths[i], &loc, &rem, err, errlen))
			goto out;
	if (fit(&loc, &w->local) || fit(&rem, &w->remote)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (!w->local.ok && !w->remote.ok) {
		snprintf(err, errlen,
			 "%d trace(s): %llu timer wake-ups of an idle CPU and %llu from another "
			 "CPU, fewer than two idle lengths with %d or more",
			 n, (unsigned long long)loc.n, (unsigned long long)rem.n, SL_WI_MIN);
		goto out;
	}
	rc = 0;
out:
	free(loc.s);
	free(rem.s);
	return rc;
}
