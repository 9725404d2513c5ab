/*
 * The seeded PRNG: xoshiro256** (Blackman and Vigna, 2018), seeded by running splitmix64 over the
 * 64-bit seed, as its authors recommend. Chosen because it is small, fast, passes BigCrush, and
 * its output is defined bit for bit, so a seed gives the same stream on every machine. Each
 * simulation owns its generator: nothing global.
 */
#ifndef SCHEDLAB_RNG_H
#define SCHEDLAB_RNG_H

#include <schedlab/types.h>

struct sl_rng {
	u64 s[4];
};

void sl_rng_seed(struct sl_rng *r, u64 seed);
u64 sl_rng_next(struct sl_rng *r);
/* Uniform double in [0, 1) from the top 53 bits. */
double sl_rng_double(struct sl_rng *r);

/*
 * A duration distribution, as workloads take it: "10ms" (fixed), "uniform:1ms:5ms",
 * "exp:10ms" (mean), "normal:10ms:2ms" (mean, standard deviation; drawn values below 0 are 0).
 */
enum sl_dist_kind { SL_DIST_FIXED, SL_DIST_UNIFORM, SL_DIST_EXP, SL_DIST_NORMAL };
struct sl_dist {
	enum sl_dist_kind kind;
	u64 a, b; /* fixed: a; uniform: [a, b]; exp: mean a; normal: mean a, sd b */
};

static inline struct sl_dist sl_dist_fixed(u64 v)
{
	struct sl_dist d = {SL_DIST_FIXED, v, 0};
	return d;
}
u64 sl_dist_draw(const struct sl_dist *d, struct sl_rng *r);
/* Parse; on error returns -1 and writes the reason to err. */
int sl_dist_parse(const char *s, struct sl_dist *d, char *err, size_t errlen);
void sl_dist_format(const struct sl_dist *d, char *buf, size_t len);
u64 sl_dist_mean(const struct sl_dist *d);

#endif
