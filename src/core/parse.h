/*
 * Strict parsing of the numbers users type. Every parser rejects trailing junk, signs where none
 * are allowed and overflow, and writes a message naming the text and what was expected: bad input
 * is an error, never a silent zero.
 */
#ifndef SCHEDLAB_PARSE_H
#define SCHEDLAB_PARSE_H

#include <schedlab/types.h>

/* "2s", "1.5ms", "100us", "250ns"; a bare number is refused (the unit is the point). */
int sl_parse_duration(const char *s, u64 *out, char *err, size_t errlen);
/*
 * A plain decimal integer, as the kernel's proc_dointvec takes it (optional sign). -1: not an
 * integer; SL_PARSE_RANGE: an integer beyond 64 bits (err names the limit; a caller with a
 * narrower range names its own).
 */
#define SL_PARSE_RANGE (-2)
int sl_parse_s64(const char *s, s64 *out, char *err, size_t errlen);
int sl_parse_u64(const char *s, u64 *out, char *err, size_t errlen);
void sl_format_duration(u64 ns, char *buf, size_t len);
/*
 * printf onto the end of buf (length len) at *off, which advances; output that does not fit is
 * cut and *off stays at most len - 1, so a series of calls never overruns. For the lists of
 * valid names the error messages give.
 */
void sl_append(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * The first line of a file such as a sysfs attribute, its line end ("\n" or "\r\n") cut: 0, or
 * -1 with errno when the file cannot be read or is empty (EIO).
 */
int sl_read_first_line(const char *path, char *buf, size_t len);
/* A size as fio takes it: "512", "4k", "128K", "1m", "2g" (powers of 1024). */
int sl_parse_size(const char *s, u64 *out, char *err, size_t errlen);

#endif
