/*
 * Numbers written into a caller's buffer with the characters printf would write, for reports
 * with many rows (trace-stats' task table): no format string to interpret, no double to
 * convert where the figure is a ratio of integers.
 */
#ifndef SCHEDLAB_FMT_H
#define SCHEDLAB_FMT_H

#include <schedlab/types.h>

/* "%*llu" of v at p (no NUL): v right-aligned in at least width columns; returns the end. */
char *sl_fmt_u64(char *p, u64 v, int width);

/*
 * "%*.*f" of the double (double)n / div at p (no NUL), where div is a power of ten of at least
 * 10^decimals (1e3 for us from ns, 1e6 for ms, 1e9 for s); returns the end. Written from the
 * integer n where that gives printf's characters, else by snprintf.
 */
char *sl_fmt_ratio(char *p, u64 n, u64 div, int decimals, int width);

#endif
