/*
 * The input under every trace reader (src/trace/reader.c opens it before any reader is chosen):
 * the file or stdin, decompressed when its magic bytes say xz or gzip, served as bytes or as
 * lines in place. Streaming in fixed memory: regions of BUF_SIZE bytes of text, lines of at
 * most SL_TRACE_MAX_LINE - 1 bytes, no allocation per line. A compressed input decompresses on
 * a thread of its own, ahead of the reader that parses it.
 */
#include "trace/input.h"

#include <errno.h>
#include <lzma.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
/*
 * liblzma decodes into its dictionary and then copies what it decoded to the caller's buffer.
 * Asked for a whole block (256 KiB) at once it decodes all of it, far more than the first-level
 * cache, before copying: the copy then reads the dictionary from the second level. Asked for
 * 8 KiB at a time (xz's own buffer size), it copies each piece while it is still in the first
 * level: the decoder thread took 4-6% less CPU time (docs/performance.md, "The decoder's
 * round"). The bytes are the same: a call ends where the single call would have.
 */
#define XZ_CHUNK ((size_t)8192)
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

/*
 * Decompression on its own thread: a decoder thread fills NBLOCKS blocks of BUF_SIZE bytes with
 * what src_read_direct returns (its end or its error included) and the parser takes them in
 * order, so decompressing the next block overlaps parsing this one. The bytes, and an error's
 * place and message, are the ones the direct reads give; only when they are computed changes.
 *
 * The hand-off costs a block no lock: the filled blocks are a count that each side changes
 * atomically (one producer, one consumer). A side that must wait says so in a flag and sleeps
 * on the condition variable; the other wakes it only when that flag is set and the wait is
 * over, after dropping the mutex, so that the woken side does not sleep again on the mutex.
 * Each side waits for several blocks at once: a decoder that has filled them all until half are
 * free again, a parser that has used them all until DEC_PARSER_WAKE are filled (or the last one
 * is in). On this VM a wake-up cost the waker a system call and, when the other vCPU was busy,
 * put the woken thread on the waker's vCPU, preempting it (docs/performance.md, "The decoder's
 * round").
 */
#define NBLOCKS		8
#define DEC_PARSER_WAKE (NBLOCKS / 2)

struct dec_block {
	long len; /* bytes; 0: the end; -1: an error (err) */
	char err[sizeof(((struct sl_trace_reader *)0)->err)];
	char *data; /* BUF_SIZE bytes of ring */
};

struct dec_thread {
	pthread_t th;
	pthread_mutex_t mu; /* only around a wait, and to wake one */
	pthread_cond_t cv;
	struct dec_block blk[NBLOCKS];
	/*
	 * The blocks' bytes: 2 MiB from xz_alloc, one huge page. Apart from the rest, which a
	 * first write would otherwise have made a second huge page to clear (0.2 ms, before the
	 * decoder thread could start).
	 */
	char *ring;
	atomic_int count;	       /* the filled blocks */
	atomic_bool last;	       /* the decoder's last block (an end or an error) is in */
	atomic_bool parser_waits;      /* for DEC_PARSER_WAKE blocks, or the last */
	atomic_bool decoder_waits;     /* for half of the blocks to be free */
	atomic_bool stop;	       /* the reader is closing */
	int head;		       /* the oldest filled block (the parser's alone) */
	size_t pos;		       /* bytes of the oldest block already taken */
	struct sl_trace_reader shadow; /* the decoder's own copy: its errors go here */
};

struct sl_trace_input {
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

static int fill_in(struct sl_trace_input *p)
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
	struct sl_trace_input *p = r->input;
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
			lzma_action act = p->in_eof && p->xz.avail_in == 0 ? LZMA_FINISH : LZMA_RUN;
			lzma_ret ret;

			/* one call's bytes, XZ_CHUNK at a time (see XZ_CHUNK) */
			do {
				size_t room = n - got;

				p->xz.avail_out = room < XZ_CHUNK ? room : XZ_CHUNK;
				ret = lzma_code(&p->xz, act);
				got = (size_t)((char *)p->xz.next_out - dst);
			} while (ret == LZMA_OK && !p->xz.avail_out && got < n);
			/*
			 * A piece that filled exactly may be followed by a call that decodes
			 * nothing (the input used up); liblzma answers a second such call in a
			 * row with LZMA_BUF_ERROR. The single call never made one: nothing
			 * decoded is its LZMA_OK, judged below as ever.
			 */
			if (ret == LZMA_BUF_ERROR)
				ret = LZMA_OK;
			p->in_pos = p->in_len - p->xz.avail_in;
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

/* The other side waits on dt->cv, or is about to: wake it (once this thread has held the
 * mutex, that side is asleep or has seen the change) */
static void dec_wake(struct dec_thread *dt)
{
	pthread_mutex_lock(&dt->mu);
	pthread_mutex_unlock(&dt->mu);
	pthread_cond_broadcast(&dt->cv);
}

static bool dec_room(struct dec_thread *dt)
{
	return atomic_load(&dt->count) <= NBLOCKS / 2 || atomic_load(&dt->stop);
}

static void *dec_main(void *arg)
{
	struct sl_trace_reader *r = arg;
	struct dec_thread *dt = ((struct sl_trace_input *)r->input)->dt;

	for (int i = 0;; i = (i + 1) % NBLOCKS) {
		if (atomic_load(&dt->count) == NBLOCKS) {
			pthread_mutex_lock(&dt->mu);
			atomic_store(&dt->decoder_waits, true);
			while (!dec_room(dt))
				pthread_cond_wait(&dt->cv, &dt->mu);
			atomic_store(&dt->decoder_waits, false);
			pthread_mutex_unlock(&dt->mu);
		}
		if (atomic_load(&dt->stop))
			return NULL;
		/* the block at i is free: only this thread touches it until it is counted */
		struct dec_block *b = &dt->blk[i];

		b->len = src_read_direct(r, b->data, BUF_SIZE);
		if (b->len < 0)
			memcpy(b->err, r->err, sizeof(b->err));
		int n = atomic_fetch_add(&dt->count, 1) + 1;

		if (b->len <= 0)
			atomic_store(&dt->last, true); /* after the count: a parser seeing it finds
							  the block counted */
		if (atomic_load(&dt->parser_waits) && (n >= DEC_PARSER_WAKE || b->len <= 0))
			dec_wake(dt);
		if (b->len <= 0)
			return NULL;
	}
}

/* Start the decoder thread (xz, gzip) when the input is opened: 0, or -1 (r->err set).
 * Without a thread (pthread_create failed), kind_direct: the parser's thread decompresses. */
static int dec_begin(struct sl_trace_reader *r)
{
	struct sl_trace_input *p = r->input;
	struct dec_thread *dt;

	if (p->dt || p->kind_direct)
		return 0;
	dt = calloc(1, sizeof(*dt));
	if (dt)
		dt->ring = xz_alloc(NULL, NBLOCKS, BUF_SIZE);
	if (!dt || !dt->ring) {
		free(dt);
		set_err(r, "%s: out of memory", r->path);
		return -1;
	}
	for (int i = 0; i < NBLOCKS; i++)
		dt->blk[i].data = dt->ring + (size_t)i * BUF_SIZE;
	dt->shadow = *r;
	pthread_mutex_init(&dt->mu, NULL);
	pthread_cond_init(&dt->cv, NULL);
	atomic_init(&dt->count, 0);
	atomic_init(&dt->last, false);
	atomic_init(&dt->parser_waits, false);
	atomic_init(&dt->decoder_waits, false);
	atomic_init(&dt->stop, false);
	p->dt = dt;
	if (pthread_create(&dt->th, NULL, dec_main, &dt->shadow)) {
		/* no thread: read in this one */
		pthread_mutex_destroy(&dt->mu);
		pthread_cond_destroy(&dt->cv);
		xz_free(NULL, dt->ring);
		free(dt);
		p->dt = NULL;
		p->kind_direct = true;
	}
	return 0;
}

static bool dec_enough(struct dec_thread *dt)
{
	return atomic_load(&dt->count) >= DEC_PARSER_WAKE || atomic_load(&dt->last);
}

/* The oldest filled block, once there is one. An end (len 0) or an error (len -1) stays
 * counted: later reads find it again. */
static struct dec_block *dec_head(struct dec_thread *dt)
{
	if (!atomic_load(&dt->count)) {
		pthread_mutex_lock(&dt->mu);
		atomic_store(&dt->parser_waits, true);
		while (!dec_enough(dt))
			pthread_cond_wait(&dt->cv, &dt->mu);
		atomic_store(&dt->parser_waits, false);
		pthread_mutex_unlock(&dt->mu);
	}
	return &dt->blk[dt->head];
}

/* The oldest block is used up: the decoder may fill it again. */
static void dec_release(struct dec_thread *dt)
{
	dt->pos = 0;
	dt->head = (dt->head + 1) % NBLOCKS;
	if (atomic_fetch_sub(&dt->count, 1) - 1 <= NBLOCKS / 2 && atomic_load(&dt->decoder_waits))
		dec_wake(dt);
}

/* Up to n decompressed bytes, from the decoder thread (started when the input is opened) for
 * xz and gzip; as src_read_direct. */
long sl_trace_read(struct sl_trace_reader *r, void *dst, size_t n)
{
	struct sl_trace_input *p = r->input;

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
	struct sl_trace_input *p = r->input;
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

static void region_release(struct sl_trace_input *p)
{
	if (p->held) {
		p->held = false;
		dec_release(p->dt);
	}
	p->pos = p->len = 0;
}

static void dec_stop(struct sl_trace_input *p)
{
	struct dec_thread *dt = p->dt;

	if (!dt)
		return;
	atomic_store(&dt->stop, true);
	dec_wake(dt);
	pthread_join(dt->th, NULL);
	pthread_mutex_destroy(&dt->mu);
	pthread_cond_destroy(&dt->cv);
	xz_free(NULL, dt->ring);
	free(dt);
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

/* zstd's frame magic 0xFD2FB528, little-endian (RFC 8878) */
static bool is_zstd(const unsigned char *head, size_t len)
{
	return len >= 4 && !memcmp(head, "\x28\xb5\x2f\xfd", 4);
}

int sl_trace_input_open(struct sl_trace_reader *r, FILE *f, const unsigned char *head, size_t len)
{
	struct sl_trace_input *p;

	/* no libzstd here: said plainly, rather than a malformed first line of binary */
	if (is_zstd(head, len)) {
		set_err(r,
			"%s: zstd-compressed, which this schedlab does not decompress (xz, gzip "
			"and plain text it does): `zstd -dc FILE | schedlab ... -`",
			r->path);
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		set_err(r, "%s: out of memory", r->path);
		return -1;
	}
	r->input = p;
	p->f = f;
	p->txt = p->buf;
	memcpy(p->in, head, len);
	p->in_len = len;
	p->in_eof = len < SL_TRACE_PROBE_LEN;
	if (is_xz(p->in, p->in_len)) {
		p->kind = SRC_XZ;
		p->xz.allocator = &xz_allocator;
		if (lzma_stream_decoder(&p->xz, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
			set_err(r, "%s: cannot start the xz decoder", r->path);
			return -1;
		}
	} else if (is_gz(p->in, p->in_len)) {
		p->kind = SRC_GZ;
		if (inflateInit2(&p->gz, 15 + 16) != Z_OK) {
			set_err(r, "%s: cannot start the gzip decoder", r->path);
			return -1;
		}
	}
	/* decompressing while the reader is chosen and reads the header (0.3 ms) */
	if (p->kind != SRC_PLAIN)
		return dec_begin(r);
	return 0;
}

bool sl_trace_input_plain(const struct sl_trace_reader *r)
{
	return r->input && r->input->kind == SRC_PLAIN;
}

void sl_trace_input_close(struct sl_trace_reader *r)
{
	struct sl_trace_input *p = r->input;

	if (!p)
		return;
	dec_stop(p);
	if (p->kind == SRC_XZ)
		lzma_end(&p->xz);
	else if (p->kind == SRC_GZ)
		inflateEnd(&p->gz);
	free(p);
	r->input = NULL;
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
 * memchr(s, '\n', n): a line is about 100-200 bytes, and the region it is in up to BUF_SIZE;
 * sixteen bytes a compare inline (SSE2, every x86-64) for its first 256 bytes (find_nl_head:
 * NULL if not there, *done the bytes it looked at), then the library's for the rest (find_nl),
 * rather than a call for every line.
 */
static inline __attribute__((nonnull, always_inline)) char *find_nl_head(char *s, size_t n,
									 size_t *done)
{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	size_t i = 0;

	/* 32 bytes a test (two compares' masks in one word): a test, a branch and the loop's
	 * count for every 32 bytes instead of every 16 */
	for (; i + 32 <= n && i < 256; i += 32) {
		unsigned lo = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(s + i)), nl));
		unsigned hi = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(s + i + 16)), nl));
		unsigned m = lo | hi << 16;

		if (m)
			return s + i + __builtin_ctz(m);
	}
	if (i + 16 <= n && i < 256) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(s + i)), nl));

		if (m)
			return s + i + __builtin_ctz(m);
		i += 16;
	}
	*done = i;
	return NULL;
#else
	size_t k = n < 256 ? n : 256;

	*done = k;
	return memchr(s, '\n', k);
#endif
}

static inline __attribute__((nonnull)) char *find_nl(char *s, size_t n)
{
	size_t i;
	char *nl = find_nl_head(s, n, &i);

	return nl ? nl : memchr(s + i, '\n', n - i);
}

/*
 * A line of SL_TRACE_MAX_LINE bytes or more is refused as soon as that many of its bytes are
 * in; a read or decompression error is reported when the bytes before it are used up.
 */
static __attribute__((noinline)) char *line_slow(struct sl_trace_reader *r, size_t *lenp, int *rc)
{
	struct sl_trace_input *p = r->input;

	*rc = 0;
	for (;;) {
		char *s = p->txt + p->pos;
		size_t avail = p->len - p->pos;

		if (avail) {
			char *nl = find_nl(s, avail);

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

/*
 * The common case first: a whole line in the region, none gathered before it; the rest (a line
 * across regions, the next region, the end, an error, a line too long) in line_slow, so that
 * this path saves no registers (its prologue and epilogue were a tenth of its instructions).
 */
char *sl_trace_line(struct sl_trace_reader *r, size_t *lenp, int *rc)
{
	struct sl_trace_input *p = r->input;
	size_t avail = p->len - p->pos;

	if (avail && !p->clen) {
		char *s = p->txt + p->pos;
		size_t i;
		/* not the memchr of a longer line: a call here made this path save registers */
		char *nl = find_nl_head(s, avail, &i);

		if (nl && (size_t)(nl - s) < SL_TRACE_MAX_LINE) {
			size_t q = (size_t)(nl - s);

			*rc = 0;
			r->lines++;
			p->pos += q + 1;
			return line_end(s, q, lenp);
		}
	}
	return line_slow(r, lenp, rc);
}
