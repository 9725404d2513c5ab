#include "core/parse.h"

#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sl_parse_s64(const char *s, s64 *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!*s || isspace((unsigned char)*s) || *end) {
		snprintf(err, errlen, "'%s' is not an integer", s);
		return -1;
	}
	if (errno == ERANGE) {
		snprintf(err, errlen, "'%s' is out of range (the limit is %lld..%lld)", s,
			 (long long)INT64_MIN, (long long)INT64_MAX);
		return SL_PARSE_RANGE;
	}
	*out = v;
	return 0;
}

int sl_parse_u64(const char *s, u64 *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	if (!isdigit((unsigned char)*s)) {
		snprintf(err, errlen, "'%s' is not a non-negative integer", s);
		return -1;
	}
	unsigned long long v = strtoull(s, &end, 10);
	if (*end) {
		snprintf(err, errlen, "'%s' is not a non-negative integer", s);
		return -1;
	}
	if (errno == ERANGE) {
		snprintf(err, errlen, "'%s' is out of range (the limit is %llu)", s,
			 (unsigned long long)UINT64_MAX);
		return SL_PARSE_RANGE;
	}
	*out = v;
	return 0;
}

int sl_parse_duration(const char *s, u64 *out, char *err, size_t errlen)
{
	static const struct {
		const char *unit;
		u64 mult;
	} units[] = {{"ns", 1}, {"us", NSEC_PER_USEC}, {"ms", NSEC_PER_MSEC}, {"s", NSEC_PER_SEC}};
	u64 ip = 0, frac = 0, fscale = 1;
	const char *p = s;

	if (*p == '-') {
		snprintf(err, errlen, "duration '%s' is negative", s);
		return -1;
	}
	if (!isdigit((unsigned char)*p))
		goto bad;
	while (isdigit((unsigned char)*p)) {
		if (ip > (UINT64_MAX - 9) / 10)
			goto big;
		ip = ip * 10 + (u64)(*p++ - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			goto bad;
		while (isdigit((unsigned char)*p)) {
			if (fscale < NSEC_PER_SEC) {
				frac = frac * 10 + (u64)(*p - '0');
				fscale *= 10;
			}
			p++;
		}
	}
	for (size_t i = 0; i < SL_ARRAY_SIZE(units); i++) {
		if (strcmp(p, units[i].unit))
			continue;
		if (ip > UINT64_MAX / units[i].mult / 2)
			goto big;
		/* The fraction is exact to the nanosecond; finer digits are dropped. */
		*out = ip * units[i].mult + frac * units[i].mult / fscale;
		return 0;
	}
bad:
	snprintf(err, errlen,
		 "'%s' is not a duration (expected a number and a unit: ns, us, ms, s)", s);
	return -1;
big:
	snprintf(err, errlen, "duration '%s' is too large", s);
	return -1;
}

void sl_format_duration(u64 ns, char *buf, size_t len)
{
	if (ns && ns % NSEC_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(ns / NSEC_PER_SEC));
	else if (ns && ns % NSEC_PER_MSEC == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / NSEC_PER_MSEC));
	else if (ns && ns % NSEC_PER_USEC == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / NSEC_PER_USEC));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
}

int sl_parse_size(const char *s, u64 *out, char *err, size_t errlen)
{
	char *end;
	u64 mult = 1;

	errno = 0;
	if (!isdigit((unsigned char)*s))
		goto bad;
	unsigned long long v = strtoull(s, &end, 10);

	if (errno)
		goto bad;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm':
	case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g':
	case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	default:
		goto bad;
	}
	if (*end || v > UINT64_MAX / mult)
		goto bad;
	*out = v * mult;
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not a size (expected a number with k, m or g: 4k, 128k, 1m)",
		 s);
	return -1;
}

void sl_append(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (!len || *off >= len - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (w < 0)
		return;
	*off = *off + (size_t)w < len ? *off + (size_t)w : len - 1;
}

int sl_read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}
