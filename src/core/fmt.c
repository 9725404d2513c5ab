#include "core/fmt.h"

#include <stdio.h>

char *sl_fmt_u64(char *p, u64 v, int width)
{
	char d[24];
	int n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (; width > n; width--)
		*p++ = ' ';
	while (n)
		*p++ = d[--n];
	return p;
}

/*
 * printf rounds the double's exact binary value to the nearest decimal of that many digits.
 * With m = div / 10^decimals, n = q m + rem: the exact quotient n / div rounds to q or q + 1
 * by whether 2 rem is below or above m, and when it is not a tie (2 rem - m is a nonzero
 * integer) it lies at least 1 / (2 div) from the rounding boundary. The double, correctly
 * rounded from it (n below 2^53 is exact as a double, div a power of ten up to 10^22 too), is
 * within n / div * 2^-53 of it, less than 1 / (2 div) for n < 2^52: on the same side, so
 * printf rounds it the same way. At a tie the double's own error decides (1234500 / 1e6 is
 * 1.23449999..., printed 1.234; 1500 / 1e6 is 0.00150000..., printed 0.002), and from 2^52 on
 * the margin is gone: those go to snprintf.
 */
char *sl_fmt_ratio(char *p, u64 n, u64 div, int decimals, int width)
{
	u64 m = div, q, scale = 1;

	for (int i = 0; i < decimals; i++) {
		m /= 10;
		scale *= 10;
	}
	if (!m || n >= (1ULL << 52) || 2 * (n % m) == m)
		return p + sprintf(p, "%*.*f", width, decimals, (double)n / (double)div);
	q = n / m;
	q += 2 * (n % m) > m;
	/* the integer part right-aligned in what the point and the decimals leave */
	p = sl_fmt_u64(p, q / scale, decimals ? width - decimals - 1 : width);
	if (decimals) {
		*p++ = '.';
		for (int i = decimals - 1; i >= 0; i--) {
			p[i] = (char)('0' + q % 10);
			q /= 10;
		}
		p += decimals;
	}
	return p;
}
