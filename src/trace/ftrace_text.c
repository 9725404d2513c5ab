/*
 * The ftrace text reader: /sys/kernel/tracing/trace, trace_pipe and `trace-cmd report` output.
 * Its lines come from the input layer (src/trace/input.c: plain, xz or gzip, decompressed
 * before any reader sees them), in place; fields are parsed without allocation or regex.
 */
#include "trace/ftrace_text.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static void set_err(struct sl_trace_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
}

/* " [digits]" after "-digits" on the line [s, e): the common columns of an event line */
static bool event_line(const char *s, const char *e)
{
	for (const char *b = s; b + 2 < e; b++) {
		const char *d = b + 2, *p = b;

		if (b[0] != ' ' || b[1] != '[' || (unsigned)(b[2] - '0') > 9)
			continue;
		while (d < e && (unsigned)(*d - '0') <= 9)
			d++;
		if (d == e || *d != ']')
			continue;
		while (p > s && p[-1] == ' ')
			p--;
		if (p > s && (unsigned)(p[-1] - '0') <= 9) {
			while (p > s && (unsigned)(p[-1] - '0') <= 9)
				p--;
			if (p > s && p[-1] == '-')
				return true;
		}
	}
	return false;
}

/*
 * Text whose first line is a header ("# tracer: ..."), trace-cmd's "cpus=N" or an event line.
 * The formats whose first bytes say more (trace.dat, idlestat) are probed before this one; a
 * text no probe claims comes here too, as the registry's fallback, to be told what is
 * malformed on which line.
 */
static bool ftrace_probe(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *end = s + len, *e;

	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	e = memchr(s, '\n', (size_t)(end - s));
	if (!e)
		e = end;
	return (s < end && *s == '#') || (end - s >= 5 && !memcmp(s, "cpus=", 5)) ||
	       event_line(s, e);
}

/* ---- field parsing ---- */

/*
 * The field readers are small and called with literal keys: inlined, each strlen and compare
 * of a key becomes a few instructions.
 */
#define FIELD static inline __attribute__((always_inline))

/*
 * A place in a line: s moves, end is the line's terminating NUL (the line may hold an earlier
 * NUL: the parsers stop at the first, as string functions would; end only bounds the reads).
 */
struct cur {
	const char *s;
	const char *what; /* what was expected, when failed */
	const char *end;
};

FIELD bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Eight bytes at a time where the line has them (little-endian machines): the byte tests
 * below flag each byte's high bit, in memory order from the lowest.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR  1
#define ONES  0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

FIELD u64 load8(const char *p)
{
	u64 w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* the bytes that are zero: exact up to the first (a borrow can flag later ones) */
FIELD u64 zero_bytes(u64 w)
{
	return (w - ONES) & ~w & HIGHS;
}

/* the bytes that are not zero: exact for every byte */
FIELD u64 nonzero_bytes(u64 w)
{
	return (((w & ~HIGHS) + ~HIGHS) | w) & HIGHS;
}

FIELD size_t first_flagged(u64 t)
{
	return (size_t)__builtin_ctzll(t) / 8;
}

/*
 * The leading decimal digits of the 8 bytes at p: their count (0 to 8) in *k, their value
 * returned. A byte is a digit when byte - '0' is below 10: the subtraction's borrows and the
 * test's carries only reach bytes after a non-digit, so the first flagged byte is exact. The
 * digits, moved to the top of the word (zeros before them), are combined in three multiplies
 * (pairs, fours, eight: the first byte is the most significant digit).
 */
FIELD u64 digits8(const char *p, size_t *k)
{
	u64 x = load8(p) - ONES * '0';
	u64 nd = ((x + ONES * 0x76) | x) & HIGHS;
	size_t n = nd ? first_flagged(nd) : 8;

	*k = n;
	if (!n)
		return 0;
	x <<= 8 * (8 - n);
	x = x * 10 + (x >> 8);
	return (((x & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
		(((x >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
	       32;
}
#else
#define SWAR 0
#endif

/* The first byte at or after p (p <= end, *end == 0) that is a, b or NUL. */
FIELD const char *scan_to(const char *p, const char *end, char a, char b)
{
#ifdef __SSE2__
	/* sixteen bytes a compare where the line has them (every x86-64 has SSE2) */
	const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), z = _mm_setzero_si128();

	for (; end - p >= 16; p += 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, z), _mm_cmpeq_epi8(w, va)),
				     _mm_cmpeq_epi8(w, vb)));

		if (m)
			return p + __builtin_ctz(m);
	}
#endif
#if SWAR
	u64 ma = ONES * (unsigned char)a, mb = ONES * (unsigned char)b;

	/* the first flagged byte of each test is exact, so the first of all three is */
	for (; end - p >= 8; p += 8) {
		u64 w = load8(p), t = zero_bytes(w) | zero_bytes(w ^ ma) | zero_bytes(w ^ mb);

		if (t)
			return p + first_flagged(t);
	}
#else
	(void)end;
#endif
	while (*p && *p != a && *p != b)
		p++;
	return p;
}

FIELD void skip_sp(struct cur *c)
{
	const char *p = c->s;

	/* mostly no space, or one between fields */
	if (*p != ' ' && *p != '\t')
		return;
	if (p[1] != ' ' && p[1] != '\t') {
		c->s = p + 1;
		return;
	}
#ifdef __SSE2__
	{
		const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');

		for (; c->end - p >= 16; p += 16) {
			__m128i w = _mm_loadu_si128((const __m128i *)(const void *)p);
			unsigned m = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(
					     _mm_cmpeq_epi8(w, sp), _mm_cmpeq_epi8(w, tab))) &
				     0xffffu;

			if (m) {
				c->s = p + __builtin_ctz(m);
				return;
			}
		}
	}
#endif
#if SWAR
	for (; c->end - p >= 8; p += 8) {
		u64 w = load8(p);
		u64 t = nonzero_bytes(w ^ (ONES * ' ')) & nonzero_bytes(w ^ (ONES * '\t'));

		if (t) {
			c->s = p + first_flagged(t);
			return;
		}
	}
#endif
	while (*p == ' ' || *p == '\t')
		p++;
	c->s = p;
}

/*
 * s (before end, the line's terminating NUL) begins with the literal l: as
 * strncmp(s, l, strlen(l)) == 0 (l holds no NUL, so equal bytes mean no NUL among them; with
 * fewer bytes left than l has, the NUL at end differs), by one memcmp of a length the compiler
 * knows.
 */
FIELD bool starts(const char *s, const char *end, const char *l)
{
	size_t n = strlen(l);

	if ((size_t)(end - s) < n)
		return false;
	/*
	 * memcmp(s, l, n) == 0 by pieces (gcc calls memcmp for the longer keys); the last piece
	 * of a literal of more than 8 bytes is its last 8, overlapping the one before
	 */
	for (; n >= 8; s += 8, l += 8, n -= 8) {
		u64 a, b;

		if (n > 8 && n < 16) {
			memcpy(&a, s + n - 8, 8);
			memcpy(&b, l + n - 8, 8);
			if (a != b)
				return false;
			n = 8;
		}
		memcpy(&a, s, 8);
		memcpy(&b, l, 8);
		if (a != b)
			return false;
	}
	if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, l, 4);
		if (a != b)
			return false;
		s += 4, l += 4, n -= 4;
	}
	for (; n; s++, l++, n--)
		if (*s != *l)
			return false;
	return true;
}

/* The line goes on with the literal l: skip it, else what = l. */
FIELD bool lit(struct cur *c, const char *l)
{
	if (!starts(c->s, c->end, l)) {
		c->what = l;
		return false;
	}
	c->s += strlen(l);
	return true;
}

/* The first place at or after s where `pat` (which begins with a space: " key=") begins, as
 * strstr(s, pat); NULL if none. */
FIELD const char *find_sp(const char *s, const char *end, const char *pat)
{
	for (;; s++) {
		s = scan_to(s, end, ' ', ' ');
		if (!*s)
			return NULL;
		if (starts(s + 1, end, pat + 1))
			return s;
	}
}

/*
 * Most numbers of a line have one to three digits (CPUs, prios, pids, cpu_id): read by their
 * bytes, each a test whose outcome is the same for the same field of every line, rather than
 * through digits8's chain of multiplies. Each byte looked at follows a digit, so it is at most
 * the line's terminating NUL. The count of such digits at s (then a non-digit), their value in
 * *v (below 1000); 0 when s does not begin so. Unsigned bytes: no sign extension of each, the
 * '0's taken off the sum at once.
 */
FIELD size_t dec3(const char *s, unsigned *v)
{
	const unsigned char *u = (const unsigned char *)s;

	if (!is_digit(s[0]))
		return 0;
	if (!is_digit(s[1])) {
		*v = u[0] - (unsigned)'0';
		return 1;
	}
	if (!is_digit(s[2])) {
		*v = u[0] * 10u + u[1] - 11u * '0';
		return 2;
	}
	if (!is_digit(s[3])) {
		*v = u[0] * 100u + u[1] * 10u + u[2] - 111u * '0';
		return 3;
	}
	return 0;
}

/* u64_dec where dec3 found no short number */
FIELD bool u64_dec_long(struct cur *c, u64 *v)
{
	const char *s = c->s;
	u64 x;

	if (!is_digit(*s)) {
		c->what = "a number";
		return false;
	}
#if SWAR
	/* up to 16 digits (below 2^64) eight at a time */
	if (c->end - s >= 8) {
		size_t k, k2;

		x = digits8(s, &k);
		if (k < 8) {
			c->s = s + k;
			*v = x;
			return true;
		}
		if (c->end - s >= 16) {
			static const u64 pow10[8] = {1,	    10,	    100,     1000,
						     10000, 100000, 1000000, 10000000};
			u64 y = digits8(s + 8, &k2);

			if (k2 < 8) {
				c->s = s + 8 + k2;
				*v = x * pow10[k2] + y;
				return true;
			}
		} else {
			/* near the line's end (now= in ns ends a line): under 16 bytes, so at
			 * most 15 digits, below 2^64; the rest after the first eight */
			for (s += 8; is_digit(*s); s++)
				x = x * 10 + (u64)(*s - '0');
			c->s = s;
			*v = x;
			return true;
		}
	}
#endif
	x = (u64)(*s++ - '0');
	/* 19 digits are below 10^19 < 2^64: no overflow to check */
	for (int i = 1; i < 19 && is_digit(*s); i++)
		x = x * 10 + (u64)(*s++ - '0');
	while (is_digit(*s)) {
		u64 d = (u64)(*s - '0');

		if (x > (UINT64_MAX - d) / 10) {
			c->what = "a number below 2^64";
			c->s = s;
			return false;
		}
		x = x * 10 + d;
		s++;
	}
	c->s = s;
	*v = x;
	return true;
}

FIELD bool u64_dec(struct cur *c, u64 *v)
{
	unsigned x;
	size_t k = dec3(c->s, &x);

	if (k) {
		c->s += k;
		*v = x;
		return true;
	}
	return u64_dec_long(c, v);
}

FIELD bool int_dec(struct cur *c, int *v)
{
	bool neg = *c->s == '-';
	unsigned small;
	u64 x;

	if (neg)
		c->s++;
	size_t k = dec3(c->s, &small);

	if (k) {
		c->s += k;
		*v = neg ? -(int)small : (int)small;
		return true;
	}
	if (!u64_dec_long(c, &x))
		return false;
	/* -(int)x overflowed for x = 2^31 (UBSan in fuzz_ftrace), and a bigger x wrapped */
	if (x > (neg ? (u64)INT_MAX + 1 : (u64)INT_MAX)) {
		c->what = "a number that fits an int";
		return false;
	}
	*v = neg ? (int)-(s64)x : (int)x;
	return true;
}

#if SWAR
/*
 * The bytes of w that are decimal digits, exact for every byte (digits8's test is exact only
 * up to its first flag): each byte's high bit is set before the subtraction, which then
 * borrows from no other byte, and the sum stays below 0x100; bytes of 0x80 and up are none.
 */
FIELD u64 digit_bytes(u64 w)
{
	u64 lo7 = ~HIGHS, d = ((w & lo7) | HIGHS) - ONES * '0';

	return d & ~((d & lo7) + ONES * 0x76) & ~w & HIGHS;
}

/* the last flagged byte of t (not 0) */
FIELD size_t last_flagged(u64 t)
{
	return (size_t)(63 - __builtin_clzll(t)) / 8;
}

/*
 * The leading hex digits (0-9, a-f, A-F) of the 8 bytes at p: their count in *k, their value
 * returned, as digits8 does for decimal. Two tests are combined, so each must be exact for
 * every byte, as digit_bytes is: a letter is (byte | 0x20) - 'a' below 6 (| 0x20 maps only
 * A-F onto a-f), with the high bit set first; bytes of 0x80 and up are neither. A digit's value is
 * its low nibble, a letter's its low nibble + 9; the nibbles, moved to the top of the word, are
 * packed in three steps.
 */
FIELD u64 hex8(const char *p, size_t *k)
{
	u64 w = load8(p), lo7 = ~HIGHS;
	u64 l = (((w | ONES * 0x20) & lo7) | HIGHS) - ONES * 'a';
	u64 isd = digit_bytes(w);
	u64 isl = l & ~((l & lo7) + ONES * 0x7a) & HIGHS;
	u64 bad = (~(isd | isl) | w) & HIGHS;
	size_t n = bad ? first_flagged(bad) : 8;

	*k = n;
	if (!n)
		return 0;
	u64 x = (w & (ONES * 0x0f)) + (isl >> 7) * 9;

	x <<= 8 * (8 - n);
	/* bytes (first char lowest) to pairs, quads, the whole: the first char most significant */
	x = ((x & 0x0f000f000f000f00ULL) >> 8) | ((x & 0x000f000f000f000fULL) << 4);
	x = ((x & 0x00ff000000ff0000ULL) >> 16) | ((x & 0x000000ff000000ffULL) << 8);
	return ((x & 0x0000ffff00000000ULL) >> 32) | ((x & 0xffffULL) << 16);
}
#endif

/*
 * Hex digits, after an optional "0x"; more than 16 keep the value's low 64 bits (as x * 16 + d
 * in u64 does), never an error: the hrtimer ids are only compared.
 */
FIELD bool u64_hex(struct cur *c, u64 *v)
{
	u64 x = 0;
	int n = 0;

	if (c->s[0] == '0' && c->s[1] == 'x')
		c->s += 2;
#if SWAR
	while (c->end - c->s >= 8) {
		size_t k;
		u64 y = hex8(c->s, &k);

		/* k digits: x * 16^k + y (k = 8: a shift of 32, never 64) */
		x = k ? (x << (4 * k)) | y : x;
		n += (int)k;
		c->s += k;
		if (k < 8)
			goto done;
	}
#endif
	for (;; n++) {
		char ch = *c->s;

		if (is_digit(ch))
			x = x * 16 + (u64)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			x = x * 16 + (u64)(ch - 'a' + 10);
		else if (ch >= 'A' && ch <= 'F')
			x = x * 16 + (u64)(ch - 'A' + 10);
		else
			break;
		c->s++;
	}
#if SWAR
done:
#endif
	if (!n) {
		c->what = "a hex number";
		return false;
	}
	*v = x;
	return true;
}

FIELD void copy_str(char *dst, size_t size, const char *s, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/*
 * The same for a string of the line (s + n <= end): a short one (most comms, event names,
 * states) by one or two copies of 16 bytes, where the line has them and dst has room, instead
 * of a call to memcpy of n bytes. The bytes after dst's NUL are then the line's: nothing reads
 * past a string's NUL.
 */
FIELD void copy_line(char *dst, size_t size, const char *s, size_t n, const char *end)
{
	if (n < 16 && size >= 16 && end - s >= 16) {
		memcpy(dst, s, 16);
		dst[n] = '\0';
		return;
	}
	if (n < 32 && size >= 32 && end - s >= 32) {
		memcpy(dst, s, 32);
		dst[n] = '\0';
		return;
	}
	copy_str(dst, size, s, n);
}

/*
 * A pid: at most Linux's PID_MAX_LIMIT (4 Mi on 64-bit), as no kernel writes a larger one (a
 * negative one is kept: the consumers skip pids <= 0, and the tests take pid=-1). The
 * statistics index a table by pid: an unbounded one (a line with pid 2000000000) made
 * trace-stats overflow an int and try to allocate hundreds of GiB. (SL_PID_MAX_LIMIT:
 * <schedlab/types.h>.)
 */

FIELD bool pid_dec(struct cur *c, int *v)
{
#if SWAR
	/*
	 * Pids of one to seven digits by digits8, without dec3's test per digit and the
	 * second reading of four digits and more: what int_dec gives them (a trace mixes the
	 * lengths; a make's pids have four and five digits)
	 */
	if (c->end - c->s >= 8) {
		size_t k;
		u64 x = digits8(c->s, &k);

		if (k - 1 < 7) {
			c->s += k;
			*v = (int)x;
			if (x > SL_PID_MAX_LIMIT) {
				c->what = "a pid from 0 to 4194304";
				return false;
			}
			return true;
		}
	}
#endif
	if (!int_dec(c, v))
		return false;
	if (*v < 0 || *v > SL_PID_MAX_LIMIT) {
		c->what = "a pid from 0 to 4194304";
		return false;
	}
	return true;
}

FIELD bool kv_pid(struct cur *c, const char *key, int *v)
{
	return lit(c, key) && pid_dec(c, v);
}

/* key=INT followed by a space or the end */
FIELD bool kv_int(struct cur *c, const char *key, int *v)
{
	return lit(c, key) && int_dec(c, v);
}

FIELD bool kv_u64(struct cur *c, const char *key, u64 *v)
{
	return lit(c, key) && u64_dec(c, v);
}

/* a word up to the next space (or the end) */
FIELD bool word(struct cur *c, char *dst, size_t size)
{
	const char *e = c->s;

	e = scan_to(e, c->end, ' ', ' ');
	copy_line(dst, size, c->s, (size_t)(e - c->s), c->end);
	c->s = e;
	return true;
}

/*
 * key=VALUE where VALUE may hold spaces: it ends where `next` (" key2=") begins, and the line
 * goes on after `next` (found whole, so not compared again).
 */
FIELD bool kv_str_until(struct cur *c, const char *key, const char *next, char *dst, size_t size)
{
	if (!lit(c, key))
		return false;
	const char *e = find_sp(c->s, c->end, next);

	if (!e) {
		c->what = next + 1;
		return false;
	}
	copy_line(dst, size, c->s, (size_t)(e - c->s), c->end);
	c->s = e + strlen(next);
	return true;
}

FIELD bool sp(struct cur *c)
{
	if (*c->s != ' ') {
		c->what = "a space";
		return false;
	}
	skip_sp(c);
	return true;
}

/*
 * A space (or several, or tabs) then the literal l + 1, as sp(c) && lit(c, l + 1) with the same
 * outcome and the same message; l is " key=", whose second byte is not a space or a tab, so a
 * line that goes on with l itself has one space here (the common case: one compare).
 */
FIELD bool sp_lit(struct cur *c, const char *l)
{
	if (starts(c->s, c->end, l)) {
		c->s += strlen(l);
		return true;
	}
	return sp(c) && lit(c, l + 1);
}

FIELD bool sp_kv_int(struct cur *c, const char *key, int *v)
{
	return sp_lit(c, key) && int_dec(c, v);
}

/* Old layout: "comm:pid [prio]" where comm may hold ':' (split on the last one before " ["). */
static bool old_task(struct cur *c, char *comm, size_t size, int *pid, int *prio)
{
	const char *b = find_sp(c->s, c->end, " [");

	if (!b) {
		c->what = "comm:pid [prio]";
		return false;
	}
	const char *colon = b;

	while (colon > c->s && colon[-1] != ':')
		colon--;
	if (colon == c->s) {
		c->what = "comm:pid";
		return false;
	}
	copy_line(comm, size, c->s, (size_t)(colon - 1 - c->s), c->end);
	c->s = colon;
	return pid_dec(c, pid) && lit(c, " [") && int_dec(c, prio) && lit(c, "]");
}

/*
 * prev_state as the kernels (and libtraceevent's sched plugin) print it: one letter of
 * TASK_REPORT (RSDTtXZPI) or the 2.6.3x and 4.x extras (x dead, K wakekill, W waking, N noload,
 * p parked), several joined by '|', then '+' when preempted. Anything else ("ZZZZ") is no state,
 * and the statistics would take its first letter for one.
 */
/* The kernel's task state letters, RSDTtXZPIKWNxp: a table, not a strchr call per letter. */
static const bool state_letter[256] = {
	['R'] = true, ['S'] = true, ['D'] = true, ['T'] = true, ['t'] = true,
	['X'] = true, ['Z'] = true, ['P'] = true, ['I'] = true, ['K'] = true,
	['W'] = true, ['N'] = true, ['x'] = true, ['p'] = true,
};

FIELD bool task_state(struct cur *c, const char *st)
{
	const char *p = st;

	for (;;) {
		if (!state_letter[(unsigned char)*p])
			goto bad;
		if (*++p != '|')
			break;
		p++;
	}
	if (*p == '+')
		p++;
	if (!*p)
		return true;
bad:
	c->what = "a prev_state of the kernel's letters (one of RSDTtXZPIKWNxp, several joined "
		  "by |, then + when preempted)";
	return false;
}

/* the older layouts of sched_switch's fields (2.6.3x, trace-cmd report) */
static bool switch_old(struct cur *c, struct sl_trace_record *o)
{
	if (starts(c->s, c->end, "task ")) {
		/* 2.6.3x: task bash:2159 [120] (S) ==> swapper:0 [120] */
		c->s += 5;
		if (!old_task(c, o->task_comm, sizeof(o->task_comm), &o->task_pid, &o->task_prio) ||
		    !lit(c, " ("))
			return false;
		const char *e = scan_to(c->s, c->end, ')', ')');

		if (!*e) {
			c->what = ")";
			return false;
		}
		copy_line(o->prev_state, sizeof(o->prev_state), c->s, (size_t)(e - c->s), c->end);
		c->s = e + 1;
		return lit(c, " ==> ") &&
		       old_task(c, o->next_comm, sizeof(o->next_comm), &o->next_pid, &o->next_prio);
	}
	/* trace-cmd report (libtraceevent's sched plugin):
	 * bash:4938 [120] S ==> sleep:4940 [120] */
	if (!old_task(c, o->task_comm, sizeof(o->task_comm), &o->task_pid, &o->task_prio) ||
	    !lit(c, " "))
		return false;
	const char *e = find_sp(c->s, c->end, " ==> ");

	if (!e) {
		c->what = " ==> ";
		return false;
	}
	copy_line(o->prev_state, sizeof(o->prev_state), c->s, (size_t)(e - c->s), c->end);
	c->s = e + 5;
	return old_task(c, o->next_comm, sizeof(o->next_comm), &o->next_pid, &o->next_prio);
}

/*
 * The event parsers take the line's cursor by its address (a table of them), and each store
 * into the record, of chars, could change it as far as the compiler knows, so that every step
 * read it again from memory: the common layouts are read on a copy of it, whose address no
 * call takes (the helpers are inlined), and only what was expected is handed back.
 */
#define LOCAL_CUR(name, fields)                                                                    \
	static bool name(struct cur *cp, struct sl_trace_record *o)                                \
	{                                                                                          \
		struct cur c = *cp;                                                                \
		bool ok = fields(&c, o);                                                           \
                                                                                                   \
		cp->what = c.what;                                                                 \
		return ok;                                                                         \
	}

/* prev_comm=bash prev_pid=2159 prev_prio=120 prev_state=S ==> next_comm=... */
FIELD bool switch_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "prev_comm=", " prev_pid=", o->task_comm, sizeof(o->task_comm)) &&
	       pid_dec(c, &o->task_pid) && sp_kv_int(c, " prev_prio=", &o->task_prio) && sp(c) &&
	       kv_str_until(c, "prev_state=", " ==> ", o->prev_state, sizeof(o->prev_state)) &&
	       kv_str_until(c, "next_comm=", " next_pid=", o->next_comm, sizeof(o->next_comm)) &&
	       pid_dec(c, &o->next_pid) && sp_kv_int(c, " next_prio=", &o->next_prio);
}

FIELD bool switch_new(struct cur *c, struct sl_trace_record *o)
{
	return switch_fields(c, o) && task_state(c, o->prev_state);
}
LOCAL_CUR(switch_local, switch_new)

static bool parse_switch(struct cur *c, struct sl_trace_record *o)
{
	if (starts(c->s, c->end, "prev_comm="))
		return switch_local(c, o);
	return switch_old(c, o) && task_state(c, o->prev_state);
}

/* the older layouts of the wake-ups' fields (2.6.3x, trace-cmd report) */
static bool wakeup_old(struct cur *c, struct sl_trace_record *o)
{
	if (starts(c->s, c->end, "task ")) {
		/* 2.6.3x: task bash:2159 [120] success=1 [001] */
		c->s += 5;
		return old_task(c, o->task_comm, sizeof(o->task_comm), &o->task_pid,
				&o->task_prio) &&
		       lit(c, " success=") && int_dec(c, &o->success) && lit(c, " [") &&
		       int_dec(c, &o->target_cpu) && lit(c, "]");
	}
	/* trace-cmd report (sched plugin): sleep:4940 [120] [success=1] CPU:001 */
	if (!old_task(c, o->task_comm, sizeof(o->task_comm), &o->task_pid, &o->task_prio))
		return false;
	o->success = 1;
	if (starts(c->s, c->end, " success=") && (!lit(c, " success=") || !int_dec(c, &o->success)))
		return false;
	return lit(c, " CPU:") && int_dec(c, &o->target_cpu);
}

/* comm=bash pid=2159 prio=120 [success=1 ]target_cpu=001 */
FIELD bool wakeup_new(struct cur *c, struct sl_trace_record *o)
{
	if (!kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) ||
	    !pid_dec(c, &o->task_pid) || !sp_kv_int(c, " prio=", &o->task_prio) || !sp(c))
		return false;
	o->success = 1;
	if (starts(c->s, c->end, "success="))
		if (!kv_int(c, "success=", &o->success) || !sp(c))
			return false;
	return kv_int(c, "target_cpu=", &o->target_cpu);
}
LOCAL_CUR(wakeup_local, wakeup_new)

static bool parse_wakeup(struct cur *c, struct sl_trace_record *o)
{
	if (starts(c->s, c->end, "comm="))
		return wakeup_local(c, o);
	return wakeup_old(c, o);
}

FIELD bool fork_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) &&
	       pid_dec(c, &o->task_pid) && sp(c) &&
	       kv_str_until(c, "child_comm=", " child_pid=", o->next_comm, sizeof(o->next_comm)) &&
	       pid_dec(c, &o->next_pid);
}
LOCAL_CUR(parse_fork, fork_fields)

FIELD bool exec_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "filename=", " pid=", o->str, sizeof(o->str)) &&
	       pid_dec(c, &o->task_pid) && sp(c) && kv_pid(c, "old_pid=", &o->old_pid);
}
LOCAL_CUR(parse_exec, exec_fields)

FIELD bool exit_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) &&
	       pid_dec(c, &o->task_pid) && sp_kv_int(c, " prio=", &o->task_prio);
}
LOCAL_CUR(parse_exit, exit_fields)

FIELD bool migrate_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) &&
	       pid_dec(c, &o->task_pid) && sp_kv_int(c, " prio=", &o->task_prio) &&
	       sp_kv_int(c, " orig_cpu=", &o->orig_cpu) && sp_kv_int(c, " dest_cpu=", &o->dest_cpu);
}
LOCAL_CUR(parse_migrate, migrate_fields)

FIELD bool idle_state(struct cur *c, int *state)
{
	u64 v;

	if (!kv_u64(c, "state=", &v))
		return false;
	*state = v == 4294967295ULL || v == UINT64_MAX ? -1 : (int)v;
	return true;
}

FIELD bool cpu_idle_fields(struct cur *c, struct sl_trace_record *o)
{
	return idle_state(c, &o->state) && sp(c) && kv_int(c, "cpu_id=", &o->cpu_id);
}
LOCAL_CUR(parse_cpu_idle, cpu_idle_fields)

FIELD bool cpu_idle_miss_fields(struct cur *c, struct sl_trace_record *o)
{
	if (!kv_int(c, "cpu_id=", &o->cpu_id) || !sp(c) || !idle_state(c, &o->state) || !sp(c) ||
	    !lit(c, "type="))
		return false;
	o->below = starts(c->s, c->end, "below");
	return word(c, o->str, sizeof(o->str));
}
LOCAL_CUR(parse_cpu_idle_miss, cpu_idle_miss_fields)

/*
 * function=NAME; trace-cmd report prints the symbol with its offset ("tick_nohz_handler/0x0"),
 * cut at its first '/' when "0x" follows, within what dst keeps of the word (size - 1 bytes):
 * one scan to a '/' or the space, not a copy of the word and a strchr in it.
 */
FIELD bool func_word(struct cur *c, char *dst, size_t size)
{
	if (!lit(c, "function="))
		return false;
	const char *s = c->s, *e = scan_to(s, c->end, ' ', '/');
	size_t n = (size_t)(e - s);

	if (*e == '/') {
		/* the first '/' cuts when its "0x" is in what dst keeps */
		bool cut = e[1] == '0' && e[2] == 'x' && n + 2 < size - 1;

		e = scan_to(e, c->end, ' ', ' ');
		if (!cut)
			n = (size_t)(e - s);
	}
	copy_line(dst, size, s, n, c->end);
	c->s = e;
	return true;
}

FIELD bool hrtimer_start_fields(struct cur *c, struct sl_trace_record *o)
{
	return lit(c, "hrtimer=") && u64_hex(c, &o->hrtimer) && sp(c) &&
	       func_word(c, o->str, sizeof(o->str)) && sp(c) &&
	       kv_u64(c, "expires=", &o->expires) && sp(c) &&
	       kv_u64(c, "softexpires=", &o->softexpires);
}
LOCAL_CUR(parse_hrtimer_start, hrtimer_start_fields)

FIELD bool hrtimer_expire_fields(struct cur *c, struct sl_trace_record *o)
{
	if (!lit(c, "hrtimer=") || !u64_hex(c, &o->hrtimer) || !sp(c))
		return false;
	/* trace-cmd report's timer plugin: now= before function= */
	if (starts(c->s, c->end, "now="))
		return kv_u64(c, "now=", &o->now) && sp(c) && func_word(c, o->str, sizeof(o->str));
	return func_word(c, o->str, sizeof(o->str)) && sp(c) && kv_u64(c, "now=", &o->now);
}
LOCAL_CUR(parse_hrtimer_expire, hrtimer_expire_fields)

FIELD bool hrtimer_cancel_fields(struct cur *c, struct sl_trace_record *o)
{
	return lit(c, "hrtimer=") && u64_hex(c, &o->hrtimer);
}
LOCAL_CUR(parse_hrtimer_cancel, hrtimer_cancel_fields)

FIELD bool tick_stop_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_int(c, "success=", &o->success) && sp(c) && lit(c, "dependency=") &&
	       word(c, o->str, sizeof(o->str));
}
LOCAL_CUR(parse_tick_stop, tick_stop_fields)

static bool dev_rwbs(struct cur *c, struct sl_trace_record *o)
{
	int maj, min;

	if (!int_dec(c, &maj) || !lit(c, ",") || !int_dec(c, &min) || !sp(c))
		return false;
	o->dev_major = (unsigned)maj;
	o->dev_minor = (unsigned)min;
	word(c, o->rwbs, sizeof(o->rwbs));
	if (!o->rwbs[0]) {
		c->what = "rwbs";
		return false;
	}
	return sp(c);
}

/* "(cmd) sector + nr" */
static bool cmd_sector(struct cur *c, struct sl_trace_record *o)
{
	u64 nr;

	if (!lit(c, "("))
		return false;
	const char *e = scan_to(c->s, c->end, ')', ')');

	if (!*e) {
		c->what = ")";
		return false;
	}
	c->s = e + 1;
	if (!sp(c) || !u64_dec(c, &o->sector) || !lit(c, " + ") || !u64_dec(c, &nr))
		return false;
	o->nr_sectors = (unsigned)nr;
	return true;
}

static bool parse_block_issue(struct cur *c, struct sl_trace_record *o)
{
	u64 bytes;

	if (!dev_rwbs(c, o) || !u64_dec(c, &bytes) || !sp(c) || !cmd_sector(c, o))
		return false;
	o->bytes = (unsigned)bytes;
	/* optional ioprio, then [comm] */
	const char *b = strrchr(c->s, '[');

	if (b) {
		const char *e = strchr(b, ']');

		if (e)
			copy_str(o->task_comm, sizeof(o->task_comm), b + 1, (size_t)(e - b - 1));
	}
	return true;
}

static bool parse_block_complete(struct cur *c, struct sl_trace_record *o)
{
	if (!dev_rwbs(c, o) || !cmd_sector(c, o))
		return false;
	const char *b = strrchr(c->s, '[');

	if (b) {
		struct cur e = {b + 1, NULL, c->end};

		int_dec(&e, &o->error);
	}
	return true;
}

FIELD bool irq_fields(struct cur *c, struct sl_trace_record *o)
{
	return kv_int(c, "irq=", &o->irq) && sp(c) && lit(c, "name=") &&
	       word(c, o->str, sizeof(o->str));
}
LOCAL_CUR(parse_irq, irq_fields)

typedef bool (*parse_fn)(struct cur *c, struct sl_trace_record *o);

static const parse_fn parsers[SL_TR_NR_KINDS] = {
	[SL_TR_SCHED_SWITCH] = parse_switch,
	[SL_TR_SCHED_WAKEUP] = parse_wakeup,
	[SL_TR_SCHED_WAKEUP_NEW] = parse_wakeup,
	[SL_TR_SCHED_WAKING] = parse_wakeup,
	[SL_TR_SCHED_PROCESS_FORK] = parse_fork,
	[SL_TR_SCHED_PROCESS_EXEC] = parse_exec,
	[SL_TR_SCHED_PROCESS_EXIT] = parse_exit,
	[SL_TR_SCHED_MIGRATE_TASK] = parse_migrate,
	[SL_TR_CPU_IDLE] = parse_cpu_idle,
	[SL_TR_CPU_IDLE_MISS] = parse_cpu_idle_miss,
	[SL_TR_HRTIMER_START] = parse_hrtimer_start,
	[SL_TR_HRTIMER_EXPIRE_ENTRY] = parse_hrtimer_expire,
	[SL_TR_HRTIMER_CANCEL] = parse_hrtimer_cancel,
	[SL_TR_TICK_STOP] = parse_tick_stop,
	[SL_TR_BLOCK_RQ_ISSUE] = parse_block_issue,
	[SL_TR_BLOCK_RQ_COMPLETE] = parse_block_complete,
	[SL_TR_IRQ_HANDLER_ENTRY] = parse_irq,
};

/* ---- the line ---- */

static void count_unknown(struct sl_trace_reader *r, const char *name, size_t n)
{
	r->unknown++;
	if (n >= SL_TRACE_NAME_LEN)
		n = SL_TRACE_NAME_LEN - 1;
	for (int i = 0; i < r->nunknown; i++) {
		if (!strncmp(r->unknown_ev[i].name, name, n) && !r->unknown_ev[i].name[n]) {
			r->unknown_ev[i].count++;
			return;
		}
	}
	if (r->nunknown == SL_TRACE_MAX_UNKNOWN) {
		r->unknown_other++;
		return;
	}
	copy_str(r->unknown_ev[r->nunknown].name, SL_TRACE_NAME_LEN, name, n);
	r->unknown_ev[r->nunknown++].count = 1;
}

static void parse_header(struct sl_trace_reader *r, const char *s)
{
	const char *e = strstr(s, "entries-in-buffer/entries-written:");

	if (e) {
		struct cur c = {e + 34, NULL, s + strlen(s)};

		skip_sp(&c);
		if (u64_dec(&c, &r->entries_in_buffer) && lit(&c, "/") &&
		    u64_dec(&c, &r->entries_written))
			r->have_entries = true;
	}
	const char *p = strstr(s, "#P:");

	if (p) {
		struct cur c = {p + 3, NULL, s + strlen(s)};
		int n;

		if (int_dec(&c, &n) && n > 0 && n <= SL_TRACE_MAX_CPUS)
			r->ncpu = n;
	}
}

/* The timestamp "S.F" (F: 1 to 9 digits) followed by ':'. */
FIELD bool timestamp(struct cur *c, u64 *t)
{
	u64 sec, frac = 0;
	int nd = 0;

	if (!u64_dec(c, &sec) || !lit(c, "."))
		return false;
#if SWAR
	if (c->end - c->s >= 8) {
		size_t k;

		frac = digits8(c->s, &k);
		nd = (int)k;
		c->s += k;
	}
#endif
	/* frac * 10^(9 - nd): nanoseconds */
	static const u64 to_ns[10] = {0,     100000000, 10000000, 1000000, 100000,
				      10000, 1000,	100,	  10,	   1};

	/* a ninth digit (nanoseconds) after digits8's eight */
	if (nd == 8 && is_digit(*c->s)) {
		frac = frac * 10 + (u64)(*c->s++ - '0');
		nd = 9;
	}
	while (is_digit(*c->s)) {
		if (nd < 9) {
			frac = frac * 10 + (u64)(*c->s - '0');
			nd++;
		}
		c->s++;
	}
	if (!nd || *c->s != ':') {
		c->what = "a timestamp (seconds.fraction:)";
		return false;
	}
	c->s++;
	*t = sec * NSEC_PER_SEC + frac * to_ns[nd];
	return true;
}

/*
 * The columns "comm-pid [cpu]" of a line (start at its first byte after the leading spaces, end
 * its NUL), wherever they are: the first " [digits]" whose digits end at a ']', the pid's digits
 * and '-' before its spaces, the comm before them. 0 with *bp at the '[', *dq at the ']', *cpup
 * (up to 9 digits), the comm and the pid in o; -1 and *what when malformed.
 */
static int cols_scan(const char *start, const char *end, struct sl_trace_record *o, const char **bp,
		     const char **dq, u64 *cpup, const char **what)
{
	/* comm-pid, then spaces, then [cpu]: find " [digits]" (its value kept: up to 9 digits
	 * fit an int) */
	const char *b = start, *d;
	u64 cpu;

	for (;;) {
		b = scan_to(b, end, '[', '[');
		if (!*b) {
			*what = "comm-pid [cpu]";
			return -1;
		}
		if (b > start && b[-1] == ' ' && is_digit(b[1])) {
			const unsigned char *u = (const unsigned char *)b;

			/* mostly three digits ("[003]"): the loop below would stop at b + 4 */
			if (is_digit(b[2]) && is_digit(b[3]) && b[4] == ']') {
				d = b + 4;
				cpu = u[1] * 100u + u[2] * 10u + u[3] - 111u * '0';
				break;
			}
			for (d = b + 1, cpu = 0; is_digit(*d); d++)
				cpu = cpu * 10 + (u64)(*d - '0');
			if (*d == ']')
				break;
		}
		b++;
	}
	/* back over the pid's padding and its digits: eight bytes a test where the comm has them */
	const char *e = b;

#if SWAR
	if (e - start >= 8) {
		u64 t = nonzero_bytes(load8(e - 8) ^ (ONES * ' '));

		e = t ? e - 8 + last_flagged(t) + 1 : e - 8;
	}
#endif
	while (e > start && e[-1] == ' ')
		e--;
	const char *dp = e;

#if SWAR
	if (dp - start >= 8) {
		u64 t = ~digit_bytes(load8(dp - 8)) & HIGHS;

		dp = t ? dp - 8 + last_flagged(t) + 1 : dp - 8;
	}
#endif
	while (dp > start && is_digit(dp[-1]))
		dp--;
	if (dp == e || dp == start || dp[-1] != '-') {
		*what = "comm-pid before [cpu]";
		return -1;
	}
	copy_line(o->comm, sizeof(o->comm), start, (size_t)(dp - 1 - start), end);
	{
		struct cur k = {dp, NULL, end};

		if (!pid_dec(&k, &o->pid)) {
			*what = k.what;
			return -1;
		}
	}
	*bp = b;
	*dq = d;
	*cpup = cpu;
	return 0;
}

#if SWAR && defined(__SSE2__)
/*
 * The same where the columns are where the kernel prints them, "%16s-%-7d [%03d]" (or a pid of
 * "%-5d"): the comm right-aligned in the line's first 16 bytes, '-' at byte 16, the pid's digits
 * from byte 17 and spaces up to " [" within byte 25, three digits and ']'. Then the first '['
 * of the line is b (none in the comm's bytes, nor a NUL; digits and spaces after the '-'), and
 * the scan above finds what this does: the comm from start to byte 16, the pid and the CPU. A
 * few tests and one 16-byte compare instead of the scans to the '[' and back over the padding
 * and the pid. False, and the scan reads the line, in every other case (a longer comm or pid,
 * a '[' in the comm, a pid beyond the limit: its error is the scan's).
 */
FIELD bool cols_fixed(const char *s, const char *end, const char *start, const char **bp, u64 *cpu,
		      int *pid)
{
	if (end - s < 32 || start >= s + 16 || s[16] != '-')
		return false;
	__m128i w = _mm_loadu_si128((const __m128i *)(const void *)s);

	if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('[')),
					   _mm_cmpeq_epi8(w, _mm_setzero_si128()))))
		return false;
	size_t k;
	u64 x = digits8(s + 17, &k);

	if (k - 1 >= 7 || x > SL_PID_MAX_LIMIT)
		return false;
	/* the bytes after the digits that are not spaces: none (the '[' at 25), or the '[' */
	u64 rest = nonzero_bytes(load8(s + 17) ^ (ONES * ' ')) & ~((1ULL << (8 * k)) - 1);
	const char *b = s + 25;

	if (rest) {
		size_t j = first_flagged(rest);

		if (j == k)
			return false;
		b = s + 17 + j;
	}
	if (b[0] != '[' || !is_digit(b[1]) || !is_digit(b[2]) || !is_digit(b[3]) || b[4] != ']')
		return false;
	const unsigned char *u = (const unsigned char *)b;

	*cpu = u[1] * 100u + u[2] * 10u + u[3] - 111u * '0';
	*pid = (int)x;
	*bp = b;
	return true;
}
#endif

#if SWAR
/*
 * The flags and the timestamp where the kernel prints them after "[cpu]": " fffff %5llu.%09llu:"
 * (p at the space after ']'): five flag bytes (no space, tab or NUL; the first not a digit),
 * a space, the seconds right-aligned in five bytes (spaces, then one to five digits), '.',
 * nine digits, ':'. Then the general reading below (skip_sp, the flags token, skip_sp,
 * timestamp) takes the same bytes to the same flags, time and place; every other line (tabs,
 * more seconds, a microsecond clock, no flags) is read by it. The place after the ':' returned,
 * or NULL.
 */
FIELD const char *flags_ts_fixed(const char *p, const char *end, struct sl_trace_record *o, u64 *t)
{
	if (end - p < 24 || p[0] != ' ' || p[6] != ' ' || p[12] != '.' || p[22] != ':' ||
	    is_digit(p[1]))
		return NULL;
	u64 w = load8(p + 1);
	u64 ok = nonzero_bytes(w) & nonzero_bytes(w ^ (ONES * ' ')) &
		 nonzero_bytes(w ^ (ONES * '\t'));

	if ((ok & 0x8080808080ULL) != 0x8080808080ULL)
		return NULL;
	const char *q = p + 7;

	while (q < p + 11 && *q == ' ')
		q++;
	/* mostly one to three digits (dec3), else up to five */
	unsigned s3;
	size_t k = dec3(q, &s3), k2;
	u64 sec = k ? s3 : digits8(q, &k), frac = digits8(p + 13, &k2);

	if (k != (size_t)(p + 12 - q) || k2 != 8 || !is_digit(p[21]))
		return NULL;
	memcpy(o->flags, p + 1, 8);
	o->flags[5] = '\0';
	*t = sec * NSEC_PER_SEC + frac * 10 + (u64)(p[21] - '0');
	return p + 23;
}
#endif

/*
 * 1: a record, 0: not a record (header, LOST line, unknown event), -1: malformed, 2: a lenient
 * read's known event before the last record (malformed, its fields not read).
 */
static inline __attribute__((always_inline)) int parse_line(struct sl_trace_reader *r, char *s,
							    size_t n, struct sl_trace_record *o,
							    const char **what)
{
	struct cur c = {s, NULL, s + n};

	skip_sp(&c);
	if (!*c.s)
		return 0;
	if (*c.s == '#') {
		parse_header(r, c.s);
		return 0;
	}
	if (*c.s == 'C' && starts(c.s, c.end, "CPU:")) {
		/* CPU:N [LOST M EVENTS] */
		const char *l = strstr(c.s, "[LOST ");

		if (l) {
			struct cur k = {l + 6, NULL, c.end};
			u64 m;

			r->lost_lines++;
			if (u64_dec(&k, &m))
				r->lost_events += m;
			return 0;
		}
	}
	if (*c.s == 'c' && starts(c.s, c.end, "cpus=")) { /* trace-cmd report */
		struct cur k = {c.s + 5, NULL, c.end};
		int m;

		if (int_dec(&k, &m) && m > 0 && m <= SL_TRACE_MAX_CPUS && !k.s[0])
			r->ncpu = m;
		return 0;
	}
	/* comm-pid, then spaces, then [cpu] */
	const char *start = c.s, *b, *d;
	u64 cpu;
	bool fixed = false;
#if SWAR && defined(__SSE2__)
	int pid;

	fixed = cols_fixed(s, c.end, start, &b, &cpu, &pid);
	if (fixed) {
		d = b + 4;
		copy_line(o->comm, sizeof(o->comm), start, (size_t)(s + 16 - start), c.end);
		o->pid = pid;
	}
#ifdef SL_FTRACE_CHECK_COLS
	/* -DSL_FTRACE_CHECK_COLS: the scan's reading of every line the fixed columns took */
	if (fixed) {
		struct sl_trace_record chk;
		const char *cb, *cd, *cw = NULL;
		u64 ccpu;

		if (cols_scan(start, c.end, &chk, &cb, &cd, &ccpu, &cw) || cb != b || cd != d ||
		    ccpu != cpu || chk.pid != o->pid || strcmp(chk.comm, o->comm))
			abort();
	}
#endif
#endif
	if (!fixed && cols_scan(start, c.end, o, &b, &d, &cpu, what))
		return -1;
	if (d - b <= 10) {
		o->cpu = (int)cpu;
		c.s = d + 1;
	} else {
		c.s = b + 1;
		if (!int_dec(&c, &o->cpu)) {
			*what = "a CPU number that fits an int";
			return -1;
		}
		c.s++; /* ']' */
	}
#if SWAR
	{
		const char *e = flags_ts_fixed(c.s, c.end, o, &o->time);

#ifdef SL_FTRACE_CHECK_COLS
		/* -DSL_FTRACE_CHECK_COLS: the general reading of every line the fixed one took */
		if (e) {
			struct sl_trace_record chk;
			struct cur k = c;
			const char *f;

			skip_sp(&k);
			f = k.s;
			k.s = scan_to(k.s, k.end, ' ', ' ');
			if (is_digit(*f) && k.s[-1] == ':')
				abort();
			if (k.s - f != 5 || memcmp(f, o->flags, 5))
				abort();
			skip_sp(&k);
			if (!timestamp(&k, &chk.time) || chk.time != o->time || k.s != e)
				abort();
		}
#endif
		if (e) {
			c.s = e;
			goto event;
		}
	}
#endif
	skip_sp(&c);
	/* flags (absent, 4 or 5 characters) or the timestamp "digits.digits:" */
	{
		const char *f = c.s;

		c.s = scan_to(c.s, c.end, ' ', ' ');
		if (!(is_digit(*f) && c.s[-1] == ':')) {
			if (c.s - f > 8) {
				*what = "the flags column or a timestamp";
				return -1;
			}
			memcpy(o->flags, f, (size_t)(c.s - f));
			o->flags[c.s - f] = '\0';
			skip_sp(&c);
		} else {
			c.s = f;
		}
	}
	if (!timestamp(&c, &o->time)) {
		*what = "a timestamp (seconds.fraction:)";
		return -1;
	}
#if SWAR
event:
#endif
	skip_sp(&c);
	const char *ev = c.s;

	c.s = scan_to(c.s, c.end, ':', ' ');
	if (*c.s != ':' || c.s == ev) {
		*what = "an event name followed by ':'";
		return -1;
	}
	size_t evlen = (size_t)(c.s - ev);

	c.s++;
	skip_sp(&c);
	o->kind = sl_trace_kind_of(ev, evlen);
	if (o->kind == SL_TR_UNKNOWN) {
		count_unknown(r, ev, evlen);
		return 0;
	}
	/*
	 * A lenient read counts a known event's line that goes back in time as malformed, as it
	 * does a line whose fields are malformed or out of limits: the same outcome whatever the
	 * fields hold, so they are not read (ftrace_parse counts it). The consumers read only the
	 * fields of a record's kind, which its own line sets.
	 */
	if (r->lenient && r->records && o->time < r->last_time)
		return 2;
	copy_line(o->event, sizeof(o->event), ev, evlen, c.end);
	/* a copy for the event's parser, so that c, whose address is not taken, stays in
	 * registers through the columns above */
	struct cur f = c;

	if (!parsers[o->kind](&f, o)) {
		*what = f.what ? f.what : "the event's fields";
		return -1;
	}
	(void)n;
	return 1;
}

/*
 * CPUs within what a kernel can have (SL_TRACE_MAX_CPUS): the readers index tables by them.
 * Only the fields this kind of record sets are looked at. (Pids are checked as they are
 * parsed: pid_dec.)
 */
static bool in_limits(const struct sl_trace_record *o, const char **what)
{
	/* compares, not a switch: its jump by the kind of each line was an indirect branch */
	bool cpu_id = o->kind == SL_TR_CPU_IDLE || o->kind == SL_TR_CPU_IDLE_MISS;
	bool migrate = o->kind == SL_TR_SCHED_MIGRATE_TASK;

	if (o->cpu >= SL_TRACE_MAX_CPUS || (cpu_id && o->cpu_id >= SL_TRACE_MAX_CPUS) ||
	    (migrate && (o->orig_cpu >= SL_TRACE_MAX_CPUS || o->dest_cpu >= SL_TRACE_MAX_CPUS))) {
		*what = "CPUs below 8192 (the largest NR_CPUS)";
		return false;
	}
	return true;
}

/* sl_ftrace_parse, inlined into ftrace_next: the calls and their saved registers were 5% of a
 * line's instructions */
static inline __attribute__((always_inline)) int ftrace_parse(struct sl_trace_reader *r, char *s,
							      size_t n, unsigned long line,
							      struct sl_trace_record *o)
{
	int rc;

	/* reset only what parsers leave optional */
	o->task_comm[0] = o->next_comm[0] = o->str[0] = o->prev_state[0] = o->flags[0] = '\0';
	o->error = 0;
	o->kind = SL_TR_UNKNOWN;
	const char *what = NULL;

	/* the parsers only read s: an error can quote it */
	rc = parse_line(r, s, n, o, &what);
	if (rc == 2) {
		r->malformed++;
		return 0;
	}
	if (rc == 1 && !in_limits(o, &what))
		rc = -1;
	/*
	 * Every format read here is merged in time order (ftrace's trace file, trace-cmd report,
	 * the .dat reader's merge): a record before the previous one is a damaged or edited file,
	 * and taken as it is it wraps the differences the reports are made of.
	 */
	if (rc == 1 && r->records && o->time < r->last_time) {
		char msg[96];

		/* (a lenient read's such line is counted by parse_line's test, unformatted) */
		snprintf(msg, sizeof(msg), "a timestamp not before line %lu's (%llu.%09llu)",
			 r->last_line, (unsigned long long)(r->last_time / NSEC_PER_SEC),
			 (unsigned long long)(r->last_time % NSEC_PER_SEC));
		set_err(r, "%s:%lu: malformed line: expected %s: \"%.79s%s\"", r->path, line, msg,
			s, n >= 80 ? "..." : "");
		return -1;
	}
	if (rc == 1) {
		o->line = line;
		r->records++;
		r->last_time = o->time;
		r->last_line = line;
		return 1;
	}
	if (rc < 0) {
		if (r->lenient) {
			r->malformed++;
			return 0;
		}
		set_err(r, "%s:%lu: malformed line: expected %s: \"%.79s%s\"", r->path, line, what,
			s, n >= 80 ? "..." : "");
		return -1;
	}
	return 0;
}

int sl_ftrace_parse(struct sl_trace_reader *r, char *s, size_t n, unsigned long line,
		    struct sl_trace_record *o)
{
	return ftrace_parse(r, s, n, line, o);
}

/* Nothing to set up: the input layer holds the stream and the line buffer. */
static int ftrace_open(struct sl_trace_reader *r, const unsigned char *head, size_t len)
{
	(void)r;
	(void)head;
	(void)len;
	return 0;
}

static void ftrace_close(struct sl_trace_reader *r)
{
	(void)r;
}

static int ftrace_next(struct sl_trace_reader *r, struct sl_trace_record *o)
{
	for (;;) {
		size_t n;
		int rc;
		char *s = sl_trace_line(r, &n, &rc);

		if (!s)
			return rc;
		rc = ftrace_parse(r, s, n, r->lines, o);
		if (rc)
			return rc;
	}
}

const struct sl_trace_reader_ops sl_ftrace_text_reader = {
	.name = "ftrace-text",
	.probe = ftrace_probe,
	.open = ftrace_open,
	.next = ftrace_next,
	.close = ftrace_close,
};
