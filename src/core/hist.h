/*
 * A log-linear histogram of nanosecond values (HdrHistogram's idea): exact below 256 ns, then
 * 128 buckets per power of two, so a percentile is within 0.8% of the true value, in fixed memory
 * and O(1) per sample. The maximum is kept exactly.
 */
#ifndef SCHEDLAB_HIST_H
#define SCHEDLAB_HIST_H

#include <schedlab/types.h>

#define SL_HIST_BUCKETS (256 + 56 * 128)

struct sl_hist {
	u64 count, sum, max;
	u64 *b;
};

int sl_hist_init(struct sl_hist *h);
void sl_hist_free(struct sl_hist *h);
void sl_hist_add(struct sl_hist *h, u64 v);
/* The p-th percentile (0 < p <= 100): the midpoint of the bucket holding the ceil(p% * n)-th
 * smallest sample, never above the maximum. 0 when empty. */
u64 sl_hist_percentile(const struct sl_hist *h, double p);

#endif
