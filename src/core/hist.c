#include "core/hist.h"

#include <math.h>
#include <stdlib.h>

int sl_hist_init(struct sl_hist *h)
{
	h->count = h->sum = h->max = 0;
	h->b = calloc(SL_HIST_BUCKETS, sizeof(u64));
	return h->b ? 0 : -1;
}

void sl_hist_free(struct sl_hist *h)
{
	free(h->b);
	h->b = NULL;
}

static int msb(u64 v)
{
	return 63 - __builtin_clzll(v);
}

static int bucket_of(u64 v)
{
	if (v < 256)
		return (int)v;
	int e = msb(v);

	return 256 + (e - 8) * 128 + (int)((v >> (e - 7)) & 127);
}

static void bucket_range(int i, u64 *lo, u64 *hi)
{
	if (i < 256) {
		*lo = *hi = (u64)i;
		return;
	}
	int e = (i - 256) / 128 + 8, sub = (i - 256) % 128;

	*lo = (128ULL + (u64)sub) << (e - 7);
	*hi = *lo + (1ULL << (e - 7)) - 1;
}

void sl_hist_add(struct sl_hist *h, u64 v)
{
	h->b[bucket_of(v)]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
}

u64 sl_hist_percentile(const struct sl_hist *h, double p)
{
	if (!h->count)
		return 0;
	u64 rank = (u64)ceil(p / 100.0 * (double)h->count), seen = 0;

	if (rank < 1)
		rank = 1;
	for (int i = 0; i < SL_HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen >= rank) {
			u64 lo, hi;

			bucket_range(i, &lo, &hi);
			u64 mid = lo + (hi - lo) / 2;

			return mid < h->max ? mid : h->max;
		}
	}
	return h->max;
}
