/*
 * The ftrace text reader: /sys/kernel/tracing/trace, trace_pipe and `trace-cmd report` output,
 * plain, xz or gzip (recognised by their magic bytes, also on stdin). Streaming in fixed
 * memory: a 256 KiB buffer of decompressed text, lines of at most SL_TRACE_MAX_LINE - 1 bytes
 * parsed in place, no allocation per line, no regex.
 */
#include "trace/ftrace_text.h"

#include <errno.h>
#include <limits.h>
#include <lzma.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>

/*
 * The text buffer and the compressed-input buffer. The fuzz build makes both small
 * (-DSL_TRACE_BUF_SIZE=8192 -DSL_TRACE_IN_SIZE=512) so that inputs of a few KiB already cross
 * refills and lines that straddle them; the text buffer must hold a line of SL_TRACE_MAX_LINE.
 */
#ifdef SL_TRACE_BUF_SIZE
#define BUF_SIZE SL_TRACE_BUF_SIZE
#else
#define BUF_SIZE (256 * 1024)
#endif
#ifdef SL_TRACE_IN_SIZE
#define IN_SIZE SL_TRACE_IN_SIZE
#else
#define IN_SIZE (64 * 1024)
#endif
/*
 * The most memory the xz decoder may take. The dictionary size comes from the file's header, up
 * to 4 GiB: without a limit a 200-byte file made the decoder allocate that much (found by
 * fuzz_ftrace). xz -9, the largest preset, needs 65 MiB to decompress.
 */
#define XZ_MEMLIMIT (256ULL << 20)
_Static_assert(BUF_SIZE >= SL_TRACE_MAX_LINE, "a line must fit the text buffer");
_Static_assert(IN_SIZE >= SL_TRACE_PROBE_LEN, "the probed head must fit the input buffer");

enum src_kind { SRC_PLAIN, SRC_XZ, SRC_GZ };

/*
 * liblzma's allocations. Its dictionary (8 MiB for xz -6) is written through as the first
 * megabytes decompress: 2048 page faults, a few milliseconds of a virtual machine's time while
 * the parser waits for the first blocks. Allocations of a MiB or more are mapped on their own,
 * aligned to 2 MiB and marked for transparent huge pages (used where the kernel's setting is
 * "madvise" or "always"): a fault per 2 MiB. A header before each block says how to free it.
 */
#define BIG_MIN	  ((size_t)1 << 20)
#define BIG_ALIGN ((size_t)2 << 20)

struct xz_hdr {
	void *base; /* the mapping; NULL: from malloc */
	size_t len;
};

static void *xz_alloc(void *opaque, size_t nmemb, size_t size)
{
	struct xz_hdr *h;
	size_t n;

	(void)opaque;
	if (__builtin_mul_overflow(nmemb, size, &n) || n > SIZE_MAX / 2)
		return NULL;
	if (n < BIG_MIN) {
		h = malloc(sizeof(*h) + n);
		if (!h)
			return NULL;
		h->base = NULL;
		return h + 1;
	}
	size_t len = sizeof(*h) + BIG_ALIGN + n;
	char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(m, len, MADV_HUGEPAGE);
#endif
	/* the block at the first 2 MiB boundary after room for the header */
	char *d = m + ((BIG_ALIGN - ((uintptr_t)m + sizeof(*h)) % BIG_ALIGN) % BIG_ALIGN) +
		  sizeof(*h);

	h = (struct xz_hdr *)d - 1;
	h->base = m;
	h->len = len;
	return d;
}

static void xz_free(void *opaque, void *ptr)
{
	struct xz_hdr *h = ptr ? (struct xz_hdr *)ptr - 1 : NULL;

	(void)opaque;
	if (!h)
		return;
	if (h->base)
		munmap(h->base, h->len);
	else
		free(h);
}

static const lzma_allocator xz_allocator = {xz_alloc, xz_free, NULL};

/* Zeroed memory from the same (the decoder thread's blocks: 2 MiB); free with xz_free. */
static void *big_calloc(size_t n)
{
	void *p = xz_alloc(NULL, 1, n);

	if (p && !((struct xz_hdr *)p - 1)->base)
		memset(p, 0, n); /* from malloc (a mapping's pages are zero) */
	return p;
}

/*
 * Decompression on its own thread: a decoder thread fills NBLOCKS blocks of BUF_SIZE bytes with
 * what src_read_direct returns (its end or its error included) and the parser takes them in
 * order, so decompressing the next block overlaps parsing this one. The bytes, and an error's
 * place and message, are the ones the direct reads give; only when they are computed changes.
 * A decoder that has filled them all waits until half are free again, so that it sleeps and
 * wakes once per NBLOCKS / 2 blocks and the parser has as many left while it wakes (waking a
 * thread on a virtual CPU took up to a millisecond).
 */
#define NBLOCKS 8

struct dec_block {
	long len; /* bytes; 0: the end; -1: an error (err) */
	char err[sizeof(((struct sl_trace_reader *)0)->err)];
	char data[BUF_SIZE];
};

struct dec_thread {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct dec_block blk[NBLOCKS];
	int head, count;	       /* the oldest filled block, the filled blocks */
	size_t pos;		       /* bytes of the oldest block already taken */
	bool stop;		       /* the reader is closing */
	struct sl_trace_reader shadow; /* the decoder's own copy: its errors go here */
};

struct ftrace_priv {
	struct dec_thread *dt; /* NULL until the first compressed read, and for plain text */
	FILE *f;	       /* the generic layer's (src/trace/reader.c) */
	enum src_kind kind;
	lzma_stream xz;
	z_stream gz;
	bool in_eof, dec_end;
	bool kind_direct; /* no decoder thread could be started: decompress in the parser's */
	unsigned char in[IN_SIZE];
	size_t in_pos, in_len;
	/*
	 * Lines are served in place from a region of text: buf (plain text, or compressed text
	 * decompressed in this thread) or the decoder thread's oldest block (held: given back
	 * when its lines are all served). A line that runs past the region's end is gathered in
	 * carry (clen bytes so far) from the regions that follow.
	 */
	char *txt;
	size_t pos, len;
	bool held;
	bool eof;
	size_t clen;
	char carry[SL_TRACE_MAX_LINE + 1];
	char buf[BUF_SIZE];
};

static void set_err(struct sl_trace_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
}

/* ---- byte sources ---- */

static int fill_in(struct ftrace_priv *p)
{
	if (p->in_pos < p->in_len || p->in_eof)
		return 0;
	p->in_len = fread(p->in, 1, sizeof(p->in), p->f);
	p->in_pos = 0;
	if (p->in_len < sizeof(p->in)) {
		if (ferror(p->f))
			return -1;
		p->in_eof = true;
	}
	return 0;
}

/* Up to n decompressed bytes into dst; 0 at the end; -1 on error (r->err set). */
static long src_read_direct(struct sl_trace_reader *r, char *dst, size_t n)
{
	struct ftrace_priv *p = r->priv;
	size_t got = 0;

	while (got == 0) {
		if (p->kind == SRC_PLAIN && p->in_pos == p->in_len && !p->in_eof) {
			/* plain text past the probed head: read into dst itself, no copy */
			size_t k = fread(dst, 1, n, p->f);

			if (k < n) {
				if (ferror(p->f)) {
					set_err(r, "%s: read error: %s", r->path, strerror(errno));
					return -1;
				}
				p->in_eof = true;
			}
			return (long)k;
		}
		if (fill_in(p)) {
			set_err(r, "%s: read error: %s", r->path, strerror(errno));
			return -1;
		}
		if (p->kind == SRC_PLAIN) {
			size_t k = p->in_len - p->in_pos;

			if (!k)
				return 0;
			if (k > n)
				k = n;
			memcpy(dst, p->in + p->in_pos, k);
			p->in_pos += k;
			got = k;
		} else if (p->kind == SRC_XZ) {
			if (p->dec_end)
				return 0;
			p->xz.next_in = p->in + p->in_pos;
			p->xz.avail_in = p->in_len - p->in_pos;
			p->xz.next_out = (uint8_t *)dst;
			p->xz.avail_out = n;
			lzma_ret ret = lzma_code(
				&p->xz, p->in_eof && p->xz.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);

			p->in_pos = p->in_len - p->xz.avail_in;
			got = n - p->xz.avail_out;
			if (ret == LZMA_STREAM_END) {
				p->dec_end = true;
			} else if (ret == LZMA_MEMLIMIT_ERROR) {
				set_err(r,
					"%s: the xz data needs more than %d MiB to decompress (a "
					"dictionary beyond xz -9's 64 MiB): recompress it",
					r->path, (int)(XZ_MEMLIMIT >> 20));
				return -1;
			} else if (ret != LZMA_OK) {
				set_err(r, "%s: xz decompression failed (lzma error %d)", r->path,
					(int)ret);
				return -1;
			} else if (!got && p->in_eof && p->in_pos == p->in_len) {
				set_err(r, "%s: truncated xz data", r->path);
				return -1;
			}
		} else {
			if (p->dec_end)
				return 0;
			if (p->in_pos == p->in_len && p->in_eof) {
				set_err(r, "%s: truncated gzip data", r->path);
				return -1;
			}
			p->gz.next_in = p->in + p->in_pos;
			p->gz.avail_in = (uInt)(p->in_len - p->in_pos);
			p->gz.next_out = (Bytef *)dst;
			p->gz.avail_out = (uInt)n;
			int ret = inflate(&p->gz, Z_NO_FLUSH);

			p->in_pos = p->in_len - p->gz.avail_in;
			got = n - p->gz.avail_out;
			if (ret == Z_STREAM_END) {
				/* another gzip member may follow */
				if (fill_in(p) == 0 && p->in_pos < p->in_len)
					inflateReset(&p->gz);
				else
					p->dec_end = true;
			} else if (ret != Z_OK && ret != Z_BUF_ERROR) {
				set_err(r, "%s: gzip decompression failed (zlib error %d)", r->path,
					ret);
				return -1;
			}
		}
	}
	return (long)got;
}

static void *dec_main(void *arg)
{
	struct sl_trace_reader *r = arg;
	struct dec_thread *dt = ((struct ftrace_priv *)r->priv)->dt;

	for (int i = 0;; i = (i + 1) % NBLOCKS) {
		pthread_mutex_lock(&dt->mu);
		if (dt->count == NBLOCKS)
			while (dt->count > NBLOCKS / 2 && !dt->stop)
				pthread_cond_wait(&dt->cv, &dt->mu);
		bool stop = dt->stop;

		pthread_mutex_unlock(&dt->mu);
		if (stop)
			return NULL;
		/* the block at i is free: only this thread touches it until it is counted */
		struct dec_block *b = &dt->blk[i];

		b->len = src_read_direct(r, b->data, sizeof(b->data));
		if (b->len < 0)
			memcpy(b->err, r->err, sizeof(b->err));
		pthread_mutex_lock(&dt->mu);
		dt->count++;
		pthread_cond_broadcast(&dt->cv);
		pthread_mutex_unlock(&dt->mu);
		if (b->len <= 0)
			return NULL;
	}
}

/* Start the decoder thread (xz, gzip) at the first read: 0, or -1 (r->err set). Without a
 * thread (pthread_create failed), kind_direct: the parser's thread decompresses. */
static int dec_begin(struct sl_trace_reader *r)
{
	struct ftrace_priv *p = r->priv;
	struct dec_thread *dt;

	if (p->dt || p->kind_direct)
		return 0;
	dt = big_calloc(sizeof(*dt));
	if (!dt) {
		set_err(r, "%s: out of memory", r->path);
		return -1;
	}
	dt->shadow = *r;
	pthread_mutex_init(&dt->mu, NULL);
	pthread_cond_init(&dt->cv, NULL);
	p->dt = dt;
	if (pthread_create(&dt->th, NULL, dec_main, &dt->shadow)) {
		/* no thread: read in this one */
		pthread_mutex_destroy(&dt->mu);
		pthread_cond_destroy(&dt->cv);
		xz_free(NULL, dt);
		p->dt = NULL;
		p->kind_direct = true;
	}
	return 0;
}

/* The oldest filled block, once there is one. An end (len 0) or an error (len -1) stays
 * counted: later reads find it again. */
static struct dec_block *dec_head(struct dec_thread *dt)
{
	pthread_mutex_lock(&dt->mu);
	while (!dt->count)
		pthread_cond_wait(&dt->cv, &dt->mu);
	pthread_mutex_unlock(&dt->mu);
	return &dt->blk[dt->head];
}

/* The oldest block is used up: the decoder may fill it again. */
static void dec_release(struct dec_thread *dt)
{
	dt->pos = 0;
	pthread_mutex_lock(&dt->mu);
	dt->head = (dt->head + 1) % NBLOCKS;
	/* the decoder waits for half of the blocks */
	if (--dt->count == NBLOCKS / 2)
		pthread_cond_broadcast(&dt->cv);
	pthread_mutex_unlock(&dt->mu);
}

/* Up to n decompressed bytes, from the decoder thread (started at the first read) for xz and
 * gzip; as src_read_direct. */
static long src_read(struct sl_trace_reader *r, char *dst, size_t n)
{
	struct ftrace_priv *p = r->priv;

	if (p->kind == SRC_PLAIN)
		return src_read_direct(r, dst, n);
	if (dec_begin(r))
		return -1;
	if (p->kind_direct)
		return src_read_direct(r, dst, n);
	struct dec_thread *dt = p->dt;
	struct dec_block *b = dec_head(dt);

	if (b->len < 0) {
		memcpy(r->err, b->err, sizeof(r->err));
		return -1;
	}
	if (b->len == 0)
		return 0;
	size_t k = (size_t)b->len - dt->pos;

	if (k > n)
		k = n;
	memcpy(dst, b->data + dt->pos, k);
	dt->pos += k;
	if (dt->pos == (size_t)b->len)
		dec_release(dt);
	return (long)k;
}

/*
 * The next region of text into p->txt: a block of the decoder thread's (held until
 * region_release), else buf. 1, 0 at the end, -1 on error (r->err set).
 */
static int region_next(struct sl_trace_reader *r)
{
	struct ftrace_priv *p = r->priv;
	long got;

	p->pos = p->len = 0;
	if (p->kind != SRC_PLAIN) {
		if (dec_begin(r))
			return -1;
		if (!p->kind_direct) {
			struct dec_block *b = dec_head(p->dt);

			if (b->len < 0) {
				memcpy(r->err, b->err, sizeof(r->err));
				return -1;
			}
			if (b->len == 0)
				return 0;
			p->txt = b->data;
			p->len = (size_t)b->len;
			p->held = true;
			return 1;
		}
	}
	/* the decoder thread's call, so that the bytes are the same without one */
	got = src_read_direct(r, p->buf, sizeof(p->buf));
	if (got <= 0)
		return (int)got;
	p->txt = p->buf;
	p->len = (size_t)got;
	return 1;
}

static void region_release(struct ftrace_priv *p)
{
	if (p->held) {
		p->held = false;
		dec_release(p->dt);
	}
	p->pos = p->len = 0;
}

static void dec_stop(struct ftrace_priv *p)
{
	struct dec_thread *dt = p->dt;

	if (!dt)
		return;
	pthread_mutex_lock(&dt->mu);
	dt->stop = true;
	pthread_cond_broadcast(&dt->cv);
	pthread_mutex_unlock(&dt->mu);
	pthread_join(dt->th, NULL);
	pthread_mutex_destroy(&dt->mu);
	pthread_cond_destroy(&dt->cv);
	xz_free(NULL, dt);
	p->dt = NULL;
}

static bool is_xz(const unsigned char *head, size_t len)
{
	return len >= 6 && !memcmp(head,
				   "\xfd"
				   "7zXZ\0",
				   6);
}

static bool is_gz(const unsigned char *head, size_t len)
{
	return len >= 2 && head[0] == 0x1f && head[1] == 0x8b;
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

size_t sl_trace_peek_text(const unsigned char *head, size_t len, unsigned char *out, size_t cap)
{
	size_t n = 0;

	if (is_xz(head, len)) {
		lzma_stream xz = LZMA_STREAM_INIT;

		if (lzma_stream_decoder(&xz, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
			return 0;
		xz.next_in = head;
		xz.avail_in = len;
		xz.next_out = out;
		xz.avail_out = cap;
		lzma_ret ret = lzma_code(&xz, LZMA_RUN);

		n = ret == LZMA_OK || ret == LZMA_STREAM_END ? cap - xz.avail_out : 0;
		lzma_end(&xz);
	} else if (is_gz(head, len)) {
		z_stream gz;

		memset(&gz, 0, sizeof(gz));
		if (inflateInit2(&gz, 15 + 16) != Z_OK)
			return 0;
		gz.next_in = (unsigned char *)head;
		gz.avail_in = (unsigned)len;
		gz.next_out = out;
		gz.avail_out = (unsigned)cap;
		(void)inflate(&gz, Z_SYNC_FLUSH);
		n = cap - gz.avail_out;
		inflateEnd(&gz);
	} else {
		n = len < cap ? len : cap;
		memcpy(out, head, n);
	}
	return n;
}

bool sl_trace_compressed(const unsigned char *head, size_t len)
{
	return is_xz(head, len) || is_gz(head, len);
}

bool sl_trace_dat_magic(const unsigned char *text, size_t len)
{
	return len >= 10 && !memcmp(text,
				    "\x17\x08"
				    "Dtracing",
				    10);
}

bool sl_idlestat_magic(const unsigned char *text, size_t len)
{
	return len >= 19 && !memcmp(text, "idlestat version = ", 19);
}

/*
 * xz or gzip (decompressed here: whatever they hold is read as ftrace text, unless it is a
 * trace.dat or an idlestat file, whose readers come next in the registry), or text whose first
 * line is a header ("# tracer: ..."), trace-cmd's "cpus=N" or an event line. A text no probe
 * claims comes here too (the first reader of the registry), to be told what is malformed.
 */
static bool ftrace_probe(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head, *end = s + len, *e;

	if (is_xz(head, len) || is_gz(head, len)) {
		unsigned char text[32];
		size_t n = sl_trace_peek_text(head, len, text, sizeof(text));

		return !sl_trace_dat_magic(text, n) && !sl_idlestat_magic(text, n);
	}
	if (sl_trace_dat_magic(head, len) || sl_idlestat_magic(head, len))
		return false;
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	e = memchr(s, '\n', (size_t)(end - s));
	if (!e)
		e = end;
	return (s < end && *s == '#') || (end - s >= 5 && !memcmp(s, "cpus=", 5)) ||
	       event_line(s, e);
}

/* The stream's first bytes are in head: recognise the compression and start its decoder. */
static int ftrace_open(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len)
{
	struct ftrace_priv *p = calloc(1, sizeof(*p));
	const char *path = r->path;

	if (!p) {
		set_err(r, "%s: out of memory", path);
		return -1;
	}
	r->priv = p;
	p->f = f;
	p->txt = p->buf;
	memcpy(p->in, head, len);
	p->in_len = len;
	p->in_eof = len < SL_TRACE_PROBE_LEN;
	if (is_xz(p->in, p->in_len)) {
		p->kind = SRC_XZ;
		p->xz.allocator = &xz_allocator;
		if (lzma_stream_decoder(&p->xz, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
			set_err(r, "%s: cannot start the xz decoder", path);
			return -1;
		}
	} else if (is_gz(p->in, p->in_len)) {
		p->kind = SRC_GZ;
		if (inflateInit2(&p->gz, 15 + 16) != Z_OK) {
			set_err(r, "%s: cannot start the gzip decoder", path);
			return -1;
		}
	}
	return 0;
}

static void ftrace_close(struct sl_trace_reader *r)
{
	struct ftrace_priv *p = r->priv;

	if (!p)
		return;
	dec_stop(p);
	if (p->kind == SRC_XZ)
		lzma_end(&p->xz);
	else if (p->kind == SRC_GZ)
		inflateEnd(&p->gz);
	free(p);
	r->priv = NULL;
}

/* Line s of n bytes (its '\n' at s[n], or its end): NUL-terminated, a final '\r' dropped. */
static char *line_end(char *s, size_t n, size_t *lenp)
{
	s[n] = '\0';
	if (n && s[n - 1] == '\r')
		s[--n] = '\0';
	*lenp = n;
	return s;
}

static char *line_too_long(struct sl_trace_reader *r, unsigned long line, int *rc)
{
	set_err(r, "%s:%lu: line longer than %d bytes", r->path, line, SL_TRACE_MAX_LINE - 1);
	*rc = -1;
	return NULL;
}

/*
 * The next line, NUL-terminated in place (no '\n'); NULL at the end or on error. A line of
 * SL_TRACE_MAX_LINE bytes or more is refused as soon as that many of its bytes are in; a read
 * or decompression error is reported when the bytes before it are used up.
 */
static char *next_line(struct sl_trace_reader *r, size_t *lenp, int *rc)
{
	struct ftrace_priv *p = r->priv;

	*rc = 0;
	for (;;) {
		char *s = p->txt + p->pos;
		size_t avail = p->len - p->pos;

		if (avail) {
			char *nl = memchr(s, '\n', avail);

			if (nl) {
				size_t q = (size_t)(nl - s);

				r->lines++;
				if (p->clen + q >= SL_TRACE_MAX_LINE)
					return line_too_long(r, r->lines, rc);
				p->pos += q + 1;
				if (!p->clen)
					return line_end(s, q, lenp);
				memcpy(p->carry + p->clen, s, q);
				q += p->clen;
				p->clen = 0;
				return line_end(p->carry, q, lenp);
			}
			/* the region ends inside this line: gather it */
			if (p->clen + avail >= SL_TRACE_MAX_LINE)
				return line_too_long(r, r->lines + 1, rc);
			memcpy(p->carry + p->clen, s, avail);
			p->clen += avail;
			p->pos = p->len;
		}
		if (p->eof) {
			size_t n = p->clen;

			if (!n)
				return NULL;
			p->clen = 0;
			r->lines++;
			return line_end(p->carry, n, lenp);
		}
		region_release(p);
		int got = region_next(r);

		if (got < 0) {
			*rc = -1;
			return NULL;
		}
		if (!got)
			p->eof = true;
	}
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
	/* memcmp(s, l, n) == 0 by pieces (gcc calls memcmp for the longer keys) */
	for (; n >= 8; s += 8, l += 8, n -= 8) {
		u64 a, b;

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

FIELD bool u64_dec(struct cur *c, u64 *v)
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

FIELD bool int_dec(struct cur *c, int *v)
{
	bool neg = *c->s == '-';
	u64 x;

	if (neg)
		c->s++;
	if (!u64_dec(c, &x))
		return false;
	/* -(int)x overflowed for x = 2^31 (UBSan in fuzz_ftrace), and a bigger x wrapped */
	if (x > (neg ? (u64)INT_MAX + 1 : (u64)INT_MAX)) {
		c->what = "a number that fits an int";
		return false;
	}
	*v = neg ? (int)-(s64)x : (int)x;
	return true;
}

static bool u64_hex(struct cur *c, u64 *v)
{
	u64 x = 0;
	int n = 0;

	if (c->s[0] == '0' && c->s[1] == 'x')
		c->s += 2;
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
 * A pid: at most Linux's PID_MAX_LIMIT (4 Mi on 64-bit), as no kernel writes a larger one (a
 * negative one is kept: the consumers skip pids <= 0, and the tests take pid=-1). The
 * statistics index a table by pid: an unbounded one (a line with pid 2000000000) made
 * trace-stats overflow an int and try to allocate hundreds of GiB. (SL_PID_MAX_LIMIT:
 * <schedlab/types.h>.)
 */

FIELD bool pid_dec(struct cur *c, int *v)
{
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
	copy_str(dst, size, c->s, (size_t)(e - c->s));
	c->s = e;
	return true;
}

/* key=VALUE where VALUE may hold spaces: it ends where `next` (" key2=") begins. */
FIELD bool kv_str_until(struct cur *c, const char *key, const char *next, char *dst, size_t size)
{
	if (!lit(c, key))
		return false;
	const char *e = find_sp(c->s, c->end, next);

	if (!e) {
		c->what = next + 1;
		return false;
	}
	copy_str(dst, size, c->s, (size_t)(e - c->s));
	c->s = e + 1;
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
	copy_str(comm, size, c->s, (size_t)(colon - 1 - c->s));
	c->s = colon;
	return pid_dec(c, pid) && lit(c, " [") && int_dec(c, prio) && lit(c, "]");
}

/*
 * prev_state as the kernels (and libtraceevent's sched plugin) print it: one letter of
 * TASK_REPORT (RSDTtXZPI) or the 2.6.3x and 4.x extras (x dead, K wakekill, W waking, N noload,
 * p parked), several joined by '|', then '+' when preempted. Anything else ("ZZZZ") is no state,
 * and the statistics would take its first letter for one.
 */
static bool task_state(struct cur *c, const char *st)
{
	static const char letters[] = "RSDTtXZPIKWNxp";
	const char *p = st;

	for (;;) {
		if (!*p || !strchr(letters, *p))
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

static bool switch_fields(struct cur *c, struct sl_trace_record *o)
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
		copy_str(o->prev_state, sizeof(o->prev_state), c->s, (size_t)(e - c->s));
		c->s = e + 1;
		return lit(c, " ==> ") &&
		       old_task(c, o->next_comm, sizeof(o->next_comm), &o->next_pid, &o->next_prio);
	}
	if (!starts(c->s, c->end, "prev_comm=")) {
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
		copy_str(o->prev_state, sizeof(o->prev_state), c->s, (size_t)(e - c->s));
		c->s = e + 5;
		return old_task(c, o->next_comm, sizeof(o->next_comm), &o->next_pid, &o->next_prio);
	}
	return kv_str_until(c, "prev_comm=", " prev_pid=", o->task_comm, sizeof(o->task_comm)) &&
	       kv_pid(c, "prev_pid=", &o->task_pid) && sp(c) &&
	       kv_int(c, "prev_prio=", &o->task_prio) && sp(c) &&
	       kv_str_until(c, "prev_state=", " ==> ", o->prev_state, sizeof(o->prev_state)) &&
	       lit(c, "==> ") &&
	       kv_str_until(c, "next_comm=", " next_pid=", o->next_comm, sizeof(o->next_comm)) &&
	       kv_pid(c, "next_pid=", &o->next_pid) && sp(c) &&
	       kv_int(c, "next_prio=", &o->next_prio);
}

static bool parse_switch(struct cur *c, struct sl_trace_record *o)
{
	return switch_fields(c, o) && task_state(c, o->prev_state);
}

static bool parse_wakeup(struct cur *c, struct sl_trace_record *o)
{
	if (starts(c->s, c->end, "task ")) {
		/* 2.6.3x: task bash:2159 [120] success=1 [001] */
		c->s += 5;
		return old_task(c, o->task_comm, sizeof(o->task_comm), &o->task_pid,
				&o->task_prio) &&
		       lit(c, " success=") && int_dec(c, &o->success) && lit(c, " [") &&
		       int_dec(c, &o->target_cpu) && lit(c, "]");
	}
	if (!starts(c->s, c->end, "comm=")) {
		/* trace-cmd report (sched plugin): sleep:4940 [120] [success=1] CPU:001 */
		if (!old_task(c, o->task_comm, sizeof(o->task_comm), &o->task_pid, &o->task_prio))
			return false;
		o->success = 1;
		if (starts(c->s, c->end, " success=") &&
		    (!lit(c, " success=") || !int_dec(c, &o->success)))
			return false;
		return lit(c, " CPU:") && int_dec(c, &o->target_cpu);
	}
	if (!kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) ||
	    !kv_pid(c, "pid=", &o->task_pid) || !sp(c) || !kv_int(c, "prio=", &o->task_prio) ||
	    !sp(c))
		return false;
	o->success = 1;
	if (starts(c->s, c->end, "success="))
		if (!kv_int(c, "success=", &o->success) || !sp(c))
			return false;
	return kv_int(c, "target_cpu=", &o->target_cpu);
}

static bool parse_fork(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) &&
	       kv_pid(c, "pid=", &o->task_pid) && sp(c) &&
	       kv_str_until(c, "child_comm=", " child_pid=", o->next_comm, sizeof(o->next_comm)) &&
	       kv_pid(c, "child_pid=", &o->next_pid);
}

static bool parse_exec(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "filename=", " pid=", o->str, sizeof(o->str)) &&
	       kv_pid(c, "pid=", &o->task_pid) && sp(c) && kv_pid(c, "old_pid=", &o->old_pid);
}

static bool parse_exit(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) &&
	       kv_pid(c, "pid=", &o->task_pid) && sp(c) && kv_int(c, "prio=", &o->task_prio);
}

static bool parse_migrate(struct cur *c, struct sl_trace_record *o)
{
	return kv_str_until(c, "comm=", " pid=", o->task_comm, sizeof(o->task_comm)) &&
	       kv_pid(c, "pid=", &o->task_pid) && sp(c) && kv_int(c, "prio=", &o->task_prio) &&
	       sp(c) && kv_int(c, "orig_cpu=", &o->orig_cpu) && sp(c) &&
	       kv_int(c, "dest_cpu=", &o->dest_cpu);
}

static bool idle_state(struct cur *c, int *state)
{
	u64 v;

	if (!kv_u64(c, "state=", &v))
		return false;
	*state = v == 4294967295ULL || v == UINT64_MAX ? -1 : (int)v;
	return true;
}

static bool parse_cpu_idle(struct cur *c, struct sl_trace_record *o)
{
	return idle_state(c, &o->state) && sp(c) && kv_int(c, "cpu_id=", &o->cpu_id);
}

static bool parse_cpu_idle_miss(struct cur *c, struct sl_trace_record *o)
{
	if (!kv_int(c, "cpu_id=", &o->cpu_id) || !sp(c) || !idle_state(c, &o->state) || !sp(c) ||
	    !lit(c, "type="))
		return false;
	o->below = starts(c->s, c->end, "below");
	return word(c, o->str, sizeof(o->str));
}

/* function=NAME; trace-cmd report prints the symbol with its offset ("tick_nohz_handler/0x0") */
static bool func_word(struct cur *c, char *dst, size_t size)
{
	char *slash;

	if (!lit(c, "function=") || !word(c, dst, size))
		return false;
	slash = strchr(dst, '/');
	if (slash && slash[1] == '0' && slash[2] == 'x')
		*slash = 0;
	return true;
}

static bool parse_hrtimer_start(struct cur *c, struct sl_trace_record *o)
{
	return lit(c, "hrtimer=") && u64_hex(c, &o->hrtimer) && sp(c) &&
	       func_word(c, o->str, sizeof(o->str)) && sp(c) &&
	       kv_u64(c, "expires=", &o->expires) && sp(c) &&
	       kv_u64(c, "softexpires=", &o->softexpires);
}

static bool parse_hrtimer_expire(struct cur *c, struct sl_trace_record *o)
{
	if (!lit(c, "hrtimer=") || !u64_hex(c, &o->hrtimer) || !sp(c))
		return false;
	/* trace-cmd report's timer plugin: now= before function= */
	if (starts(c->s, c->end, "now="))
		return kv_u64(c, "now=", &o->now) && sp(c) && func_word(c, o->str, sizeof(o->str));
	return func_word(c, o->str, sizeof(o->str)) && sp(c) && kv_u64(c, "now=", &o->now);
}

static bool parse_hrtimer_cancel(struct cur *c, struct sl_trace_record *o)
{
	return lit(c, "hrtimer=") && u64_hex(c, &o->hrtimer);
}

static bool parse_tick_stop(struct cur *c, struct sl_trace_record *o)
{
	return kv_int(c, "success=", &o->success) && sp(c) && lit(c, "dependency=") &&
	       word(c, o->str, sizeof(o->str));
}

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

static bool parse_irq(struct cur *c, struct sl_trace_record *o)
{
	return kv_int(c, "irq=", &o->irq) && sp(c) && lit(c, "name=") &&
	       word(c, o->str, sizeof(o->str));
}

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
static bool timestamp(struct cur *c, u64 *t)
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
	while (nd++ < 9)
		frac *= 10;
	*t = sec * NSEC_PER_SEC + frac;
	return true;
}

/* 1: a record, 0: not a record (header, LOST line, unknown event), -1: malformed. */
static int parse_line(struct sl_trace_reader *r, char *s, size_t n, struct sl_trace_record *o,
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
	if (starts(c.s, c.end, "CPU:")) {
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
	if (starts(c.s, c.end, "cpus=")) { /* trace-cmd report */
		struct cur k = {c.s + 5, NULL, c.end};
		int m;

		if (int_dec(&k, &m) && m > 0 && m <= SL_TRACE_MAX_CPUS && !k.s[0])
			r->ncpu = m;
		return 0;
	}
	/* comm-pid, then spaces, then [cpu]: find " [digits]" */
	const char *start = c.s, *b = c.s;

	for (;;) {
		b = scan_to(b, c.end, '[', '[');
		if (!*b) {
			*what = "comm-pid [cpu]";
			return -1;
		}
		if (b > start && b[-1] == ' ' && is_digit(b[1])) {
			const char *d = b + 1;

			while (is_digit(*d))
				d++;
			if (*d == ']')
				break;
		}
		b++;
	}
	const char *e = b;

	while (e > start && e[-1] == ' ')
		e--;
	const char *dp = e;

	while (dp > start && is_digit(dp[-1]))
		dp--;
	if (dp == e || dp == start || dp[-1] != '-') {
		*what = "comm-pid before [cpu]";
		return -1;
	}
	copy_str(o->comm, sizeof(o->comm), start, (size_t)(dp - 1 - start));
	{
		struct cur k = {dp, NULL, c.end};

		if (!pid_dec(&k, &o->pid)) {
			*what = k.what;
			return -1;
		}
	}
	c.s = b + 1;
	if (!int_dec(&c, &o->cpu)) {
		*what = "a CPU number that fits an int";
		return -1;
	}
	c.s++; /* ']' */
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
			skip_sp(&c);
		} else {
			c.s = f;
		}
	}
	if (!timestamp(&c, &o->time)) {
		*what = "a timestamp (seconds.fraction:)";
		return -1;
	}
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
	memcpy(o->event, ev, evlen);
	o->event[evlen] = '\0';
	if (!parsers[o->kind](&c, o)) {
		*what = c.what ? c.what : "the event's fields";
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
	bool cpu_id = false, migrate = false;

	switch (o->kind) {
	case SL_TR_SCHED_MIGRATE_TASK:
		migrate = true;
		break;
	case SL_TR_CPU_IDLE:
	case SL_TR_CPU_IDLE_MISS:
		cpu_id = true;
		break;
	default:
		break;
	}
	if (o->cpu >= SL_TRACE_MAX_CPUS || (cpu_id && o->cpu_id >= SL_TRACE_MAX_CPUS) ||
	    (migrate && (o->orig_cpu >= SL_TRACE_MAX_CPUS || o->dest_cpu >= SL_TRACE_MAX_CPUS))) {
		*what = "CPUs below 8192 (the largest NR_CPUS)";
		return false;
	}
	return true;
}

int sl_ftrace_parse(struct sl_trace_reader *r, char *s, size_t n, unsigned long line,
		    struct sl_trace_record *o)
{
	int rc;

	/* reset only what parsers leave optional */
	o->task_comm[0] = o->next_comm[0] = o->str[0] = o->prev_state[0] = '\0';
	o->error = 0;
	o->kind = SL_TR_UNKNOWN;
	const char *what = NULL;

	/* the parsers only read s: an error can quote it */
	rc = parse_line(r, s, n, o, &what);
	if (rc == 1 && !in_limits(o, &what))
		rc = -1;
	/*
	 * Every format read here is merged in time order (ftrace's trace file, trace-cmd report,
	 * the .dat reader's merge): a record before the previous one is a damaged or edited file,
	 * and taken as it is it wraps the differences the reports are made of.
	 */
	if (rc == 1 && r->records && o->time < r->last_time) {
		char msg[96];

		snprintf(msg, sizeof(msg), "a timestamp not before line %lu's (%llu.%09llu)",
			 r->last_line, (unsigned long long)(r->last_time / NSEC_PER_SEC),
			 (unsigned long long)(r->last_time % NSEC_PER_SEC));
		if (r->lenient) {
			r->malformed++;
			return 0;
		}
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

long sl_ftrace_read(struct sl_trace_reader *r, void *dst, size_t n)
{
	return src_read(r, dst, n);
}

char *sl_ftrace_next_line(struct sl_trace_reader *r, size_t *lenp, int *rc)
{
	return next_line(r, lenp, rc);
}

static int ftrace_next(struct sl_trace_reader *r, struct sl_trace_record *o)
{
	for (;;) {
		size_t n;
		int rc;
		char *s = next_line(r, &n, &rc);

		if (!s)
			return rc;
		rc = sl_ftrace_parse(r, s, n, r->lines, o);
		if (rc)
			return rc;
	}
}

static int ftrace_next_event(struct sl_trace_reader *r, struct sl_event *ev)
{
	struct sl_trace_record rec;
	int rc;

	while ((rc = ftrace_next(r, &rec)) == 1)
		if (sl_trace_record_to_event(&rec, ev))
			return 1;
	return rc;
}

const struct sl_trace_reader_ops sl_ftrace_text_reader = {
	.name = "ftrace-text",
	.probe = ftrace_probe,
	.open = ftrace_open,
	.next = ftrace_next,
	.next_event = ftrace_next_event,
	.close = ftrace_close,
};
