#include "core/rng.h"
#include "core/parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static u64 splitmix64(u64 *x)
{
	u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sl_rng_seed(struct sl_rng *r, u64 seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline u64 rotl(u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

u64 sl_rng_next(struct sl_rng *r)
{
	u64 *s = r->s;
	u64 result = rotl(s[1] * 5, 7) * 9;
	u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double sl_rng_double(struct sl_rng *r)
{
	return (double)(sl_rng_next(r) >> 11) * 0x1.0p-53;
}

static u64 clamp_ns(double v)
{
	if (!(v > 0))
		return 0;
	if (v > 1.8e19)
		return UINT64_MAX;
	return (u64)(v + 0.5);
}

u64 sl_dist_draw(const struct sl_dist *d, struct sl_rng *r)
{
	switch (d->kind) {
	case SL_DIST_FIXED:
		return d->a;
	case SL_DIST_UNIFORM:
		/* Integer draw in [a, b]: no floating point, exact on every machine. */
		return d->a + sl_rng_next(r) % (d->b - d->a + 1);
	case SL_DIST_EXP:
		return clamp_ns(-log(1.0 - sl_rng_double(r)) * (double)d->a);
	case SL_DIST_NORMAL: {
		/* Box-Muller; one of the pair is dropped so each draw costs two numbers, always. */
		double u1 = 1.0 - sl_rng_double(r), u2 = sl_rng_double(r);
		double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);

		return clamp_ns((double)d->a + z * (double)d->b);
	}
	}
	return d->a;
}

u64 sl_dist_mean(const struct sl_dist *d)
{
	return d->kind == SL_DIST_UNIFORM ? d->a + (d->b - d->a) / 2 : d->a;
}

int sl_dist_parse(const char *s, struct sl_dist *d, char *err, size_t errlen)
{
	char buf[128];
	char *parts[3] = {NULL, NULL, NULL};
	int n = 0;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "distribution '%.40s...' is too long", s);
		return -1;
	}
	memcpy(buf, s, strlen(s) + 1);
	parts[n++] = buf;
	for (char *p = buf; *p; p++) {
		if (*p == ':') {
			if (n == 3) {
				snprintf(err, errlen, "distribution '%s' has too many ':' fields",
					 s);
				return -1;
			}
			*p = '\0';
			parts[n++] = p + 1;
		}
	}
	memset(d, 0, sizeof(*d));
	const char *kind = parts[0];
	int want;

	if (n == 1) {
		d->kind = SL_DIST_FIXED;
		return sl_parse_duration(parts[0], &d->a, err, errlen);
	}
	if (!strcmp(kind, "fixed")) {
		d->kind = SL_DIST_FIXED;
		want = 2;
	} else if (!strcmp(kind, "uniform")) {
		d->kind = SL_DIST_UNIFORM;
		want = 3;
	} else if (!strcmp(kind, "exp")) {
		d->kind = SL_DIST_EXP;
		want = 2;
	} else if (!strcmp(kind, "normal")) {
		d->kind = SL_DIST_NORMAL;
		want = 3;
	} else {
		snprintf(
			err, errlen,
			"unknown distribution '%s' (expected a duration, fixed:D, uniform:MIN:MAX, "
			"exp:MEAN or normal:MEAN:SD)",
			kind);
		return -1;
	}
	if (n != want) {
		snprintf(err, errlen, "distribution '%s' takes %d value(s)", kind, want - 1);
		return -1;
	}
	if (sl_parse_duration(parts[1], &d->a, err, errlen))
		return -1;
	if (want == 3 && sl_parse_duration(parts[2], &d->b, err, errlen))
		return -1;
	if (d->kind == SL_DIST_UNIFORM && d->b < d->a) {
		snprintf(err, errlen, "uniform:%s:%s has MAX below MIN", parts[1], parts[2]);
		return -1;
	}
	return 0;
}

void sl_dist_format(const struct sl_dist *d, char *buf, size_t len)
{
	char a[32] = "", b[32] = "";

	sl_format_duration(d->a, a, sizeof(a));
	sl_format_duration(d->b, b, sizeof(b));
	switch (d->kind) {
	case SL_DIST_FIXED:
		snprintf(buf, len, "%s", a);
		break;
	case SL_DIST_UNIFORM:
		snprintf(buf, len, "uniform:%s:%s", a, b);
		break;
	case SL_DIST_EXP:
		snprintf(buf, len, "exp:%s", a);
		break;
	case SL_DIST_NORMAL:
		snprintf(buf, len, "normal:%s:%s", a, b);
		break;
	}
}
