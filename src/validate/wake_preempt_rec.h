/*
 * The wake-up preemption of a waker, measured in real traces (calibrate --recordings): of the
 * wake-ups by a running task of a task asleep for 1 ms or more onto the waker's own CPU, made
 * inside the waker's first base slice (1.4 ms of 6.18 on 2 CPUs: mainline's slice protection
 * keeps the waker there), how many set need_resched (the 'N' of the flags column of
 * sched_wakeup: the wakee ran first). The machine parameter wake_preempt, per 1000.
 */
#ifndef SCHEDLAB_WAKE_PREEMPT_REC_H
#define SCHEDLAB_WAKE_PREEMPT_REC_H

#include <schedlab/types.h>

/* the waker's slice and the wakee's least sleep of a counted wake-up, ns */
#define SL_WP_SLICE_NS 1400000ULL
#define SL_WP_SLEPT_NS 1000000ULL
/* fewer counted wake-ups than this give no parameter line */
#define SL_WP_MIN 20

struct sl_wake_preempt {
	u64 n;	       /* wake-ups counted */
	u64 resched;   /* of them, with need_resched set */
	u64 per1000;   /* resched per 1000 of n, rounded (0 when n is 0) */
	u64 unflagged; /* sched_wakeup lines without a flags column (not counted) */
};

/*
 * Reads the traces paths[0..n) (text ftrace with its flags column, as `validate --out` keeps
 * real.trace.xz) into w. 0, or -1 with err naming the file.
 */
int sl_wake_preempt_measure(const char *const *paths, int n, struct sl_wake_preempt *w, char *err,
			    size_t errlen);

#endif
