/*
 * The wake-up of an idle vCPU, measured in real traces (calibrate --recordings): from
 * sched_waking to the sched_switch that runs the task, against how long the CPU had been idle.
 * Two rows: woken by its own timer (local: the machine parameters wake_local, the median at 1
 * ms of idle, wake_local_decade, what a tenfold longer idle adds, and wake_local_sd), and woken
 * from another CPU (remote: wake_remote, wake_remote_decade, wake_remote_sd).
 */
#ifndef SCHEDLAB_WAKE_IDLE_H
#define SCHEDLAB_WAKE_IDLE_H

#include <schedlab/types.h>
#include <stdbool.h>
#include <stddef.h>

/* half-decades of idle length from 10 us to 10 s (log10 of ms from -2 to 4) */
#define SL_WI_BINS 12

struct sl_wake_idle_row {
	bool ok;		     /* the line could be fitted */
	u64 n;			     /* wake-ups measured */
	u64 bin_n[SL_WI_BINS];	     /* of them, by idle length */
	double bin_idle[SL_WI_BINS]; /* the bin's median log10(idle ms) */
	double bin_lat[SL_WI_BINS];  /* the bin's median latency, ns */
	u64 at_1ms, per_decade, sd;  /* the fit (ns) */
	/* the tail: the wake-ups whose CPU ran the task first, their residuals' 90th, 95th,
	 * 97.5th and 99th percentiles (ns), the share per 1000 and the mean (ns) of the extra
	 * delay fitted to them (0: none; fewer than SL_WI_TAIL_MIN wake-ups: not fitted) */
	u64 n_direct;
	double second_p50; /* the others' median latency, ns (the CPU ran another task first) */
	double tail_q[4];
	u64 tail, tail_mean;
};

struct sl_wake_idle {
	struct sl_wake_idle_row local;	/* woken by the idle CPU's own interrupt */
	struct sl_wake_idle_row remote; /* woken from another CPU onto the idle one */
};

/*
 * Reads the traces paths[0..n) (text ftrace, as `validate --out` keeps real.trace.xz) and fits,
 * per row, the latency medians of the idle-length bins (a line in log10 of the idle length,
 * weighted by the bins' counts; bins of fewer than SL_WI_MIN wake-ups left out), and the
 * tail of a fitted row (SL_WI_TAIL_MIN or more wake-ups run first: wake_idle.c's fit_tail). 0
 * when at least one row could be fitted (row.ok), or -1 with err naming the file or saying why.
 */
#define SL_WI_MIN      20
#define SL_WI_TAIL_MIN 100
int sl_wake_idle_measure(const char *const *paths, int n, struct sl_wake_idle *w, char *err,
			 size_t errlen);

#endif
