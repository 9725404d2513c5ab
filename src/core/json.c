/*
 * The JSON reader (see json.h). One pass over the buffer; containers open and close on an
 * explicit stack of at most SL_JSON_MAX_DEPTH entries, so no input can exhaust the C stack.
 */
#include "core/json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	const char *buf;
	size_t len, pos;
	int line;
	size_t line_start;
	struct sl_json_doc *doc;
	char *err;
	size_t errlen;
	int stack[SL_JSON_MAX_DEPTH];
	int last[SL_JSON_MAX_DEPTH]; /* last child of each open container, -1 if none */
	int depth;
};

const char *sl_json_type_name(enum sl_json_type t)
{
	static const char *const names[] = {"null",	"a boolean", "a number",
					    "a string", "an array",  "an object"};

	return names[t];
}

static int col(const struct reader *r)
{
	return (int)(r->pos - r->line_start) + 1;
}

static int fail_at(struct reader *r, int line, int column, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%d:%d: %s", line, column, msg);
	return -1;
}

#define FAIL(r, ...) fail_at((r), (r)->line, col(r), __VA_ARGS__)

static void newline(struct reader *r)
{
	r->line++;
	r->line_start = r->pos + 1;
}

/* Skips blanks and comments; -1 on an unterminated comment. */
static int skip_ws(struct reader *r)
{
	while (r->pos < r->len) {
		char c = r->buf[r->pos];

		if (c == '\n') {
			newline(r);
			r->pos++;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			r->pos++;
		} else if (c == '/' && r->pos + 1 < r->len && r->buf[r->pos + 1] == '*') {
			int line = r->line, column = col(r);

			r->pos += 2;
			for (;;) {
				if (r->pos + 1 >= r->len)
					return fail_at(r, line, column,
						       "comment opened here is not closed by */");
				if (r->buf[r->pos] == '*' && r->buf[r->pos + 1] == '/') {
					r->pos += 2;
					break;
				}
				if (r->buf[r->pos] == '\n')
					newline(r);
				r->pos++;
			}
		} else if (c == '/' && r->pos + 1 < r->len && r->buf[r->pos + 1] == '/') {
			while (r->pos < r->len && r->buf[r->pos] != '\n')
				r->pos++;
		} else {
			break;
		}
	}
	return 0;
}

static int new_node(struct reader *r, enum sl_json_type t)
{
	struct sl_json_doc *d = r->doc;

	if (d->n == SL_JSON_MAX_NODES)
		return FAIL(r, "more than %d values (limit SL_JSON_MAX_NODES)", SL_JSON_MAX_NODES);
	if (d->n == d->cap) {
		int cap = d->cap ? d->cap * 2 : 64;
		struct sl_json *a = realloc(d->nodes, sizeof(*a) * (size_t)cap);

		if (!a)
			return FAIL(r, "out of memory");
		d->nodes = a;
		d->cap = cap;
	}
	struct sl_json *v = &d->nodes[d->n];

	memset(v, 0, sizeof(*v));
	v->type = t;
	v->line = r->line;
	v->col = col(r);
	v->first = v->next = -1;
	return d->n++;
}

static void put_utf8(char *out, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xC0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		out[(*n)++] = (char)(0xE0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[(*n)++] = (char)(0x80 | (cp & 0x3F));
	} else {
		out[(*n)++] = (char)(0xF0 | (cp >> 18));
		out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[(*n)++] = (char)(0x80 | (cp & 0x3F));
	}
}

static int hex4(struct reader *r, unsigned *out)
{
	unsigned v = 0;

	if (r->pos + 4 > r->len)
		return FAIL(r, "expected 4 hex digits after \\u");
	for (int i = 0; i < 4; i++) {
		char c = r->buf[r->pos + (size_t)i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return FAIL(r, "expected 4 hex digits after \\u");
	}
	r->pos += 4;
	*out = v;
	return 0;
}

/* Reads a string at r->pos (on its opening quote) into a new malloc'ed buffer. */
static int read_string(struct reader *r, char **out)
{
	int line = r->line, column = col(r);
	char *s = malloc(SL_JSON_MAX_STRING + 1);
	size_t n = 0;

	if (!s)
		return FAIL(r, "out of memory");
	r->pos++;
	for (;;) {
		if (r->pos >= r->len) {
			free(s);
			return fail_at(r, line, column, "string opened here is not closed by \"");
		}
		unsigned char c = (unsigned char)r->buf[r->pos];

		if (c == '"') {
			r->pos++;
			break;
		}
		if (c < 0x20) {
			free(s);
			return FAIL(r,
				    "control character in a string (a string cannot span lines)");
		}
		if (n + 4 > SL_JSON_MAX_STRING) {
			free(s);
			return fail_at(r, line, column,
				       "string longer than %d bytes (limit "
				       "SL_JSON_MAX_STRING)",
				       SL_JSON_MAX_STRING);
		}
		if (c != '\\') {
			s[n++] = (char)c;
			r->pos++;
			continue;
		}
		if (++r->pos >= r->len)
			continue;
		char e = r->buf[r->pos++];
		unsigned cp = 0;

		switch (e) {
		case '"':
		case '\\':
		case '/':
			s[n++] = e;
			break;
		case 'b':
			s[n++] = '\b';
			break;
		case 'f':
			s[n++] = '\f';
			break;
		case 'n':
			s[n++] = '\n';
			break;
		case 'r':
			s[n++] = '\r';
			break;
		case 't':
			s[n++] = '\t';
			break;
		case 'u':
			if (hex4(r, &cp)) {
				free(s);
				return -1;
			}
			if (cp >= 0xD800 && cp < 0xDC00) {
				unsigned lo = 0;

				if (r->pos + 2 > r->len || r->buf[r->pos] != '\\' ||
				    r->buf[r->pos + 1] != 'u') {
					free(s);
					return FAIL(r, "expected the low half of a surrogate pair");
				}
				r->pos += 2;
				if (hex4(r, &lo) || lo < 0xDC00 || lo > 0xDFFF) {
					free(s);
					return FAIL(r, "expected the low half of a surrogate pair");
				}
				cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
			} else if (cp >= 0xDC00 && cp < 0xE000) {
				free(s);
				return FAIL(r, "lone low surrogate \\u%04X", cp);
			}
			if (cp == 0) {
				free(s);
				return FAIL(r, "\\u0000 is not allowed in a string");
			}
			put_utf8(s, &n, cp);
			break;
		default:
			free(s);
			r->pos--;
			return FAIL(r, "unknown escape \\%c", e);
		}
	}
	s[n] = '\0';
	/* give back the unused part of the limit-sized buffer */
	char *t = realloc(s, n + 1);

	*out = t ? t : s;
	return 0;
}

static int read_number(struct reader *r, struct sl_json *v)
{
	size_t start = r->pos, p = r->pos;
	bool integral = true;
	char tmp[64];

	if (p < r->len && r->buf[p] == '-')
		p++;
	if (p >= r->len || r->buf[p] < '0' || r->buf[p] > '9')
		return FAIL(r, "expected a digit");
	if (r->buf[p] == '0')
		p++;
	else
		while (p < r->len && r->buf[p] >= '0' && r->buf[p] <= '9')
			p++;
	if (p < r->len && r->buf[p] == '.') {
		integral = false;
		p++;
		if (p >= r->len || r->buf[p] < '0' || r->buf[p] > '9') {
			r->pos = p;
			return FAIL(r, "expected a digit after the decimal point");
		}
		while (p < r->len && r->buf[p] >= '0' && r->buf[p] <= '9')
			p++;
	}
	if (p < r->len && (r->buf[p] == 'e' || r->buf[p] == 'E')) {
		integral = false;
		p++;
		if (p < r->len && (r->buf[p] == '+' || r->buf[p] == '-'))
			p++;
		if (p >= r->len || r->buf[p] < '0' || r->buf[p] > '9') {
			r->pos = p;
			return FAIL(r, "expected a digit in the exponent");
		}
		while (p < r->len && r->buf[p] >= '0' && r->buf[p] <= '9')
			p++;
	}
	if (p - start >= sizeof(tmp))
		return FAIL(r, "number longer than %zu characters", sizeof(tmp) - 1);
	memcpy(tmp, r->buf + start, p - start);
	tmp[p - start] = '\0';
	v->num = strtod(tmp, NULL);
	if (integral) {
		errno = 0;
		v->ival = strtoll(tmp, NULL, 10);
		v->is_int = errno == 0;
	}
	r->pos = p;
	return 0;
}

static bool word(struct reader *r, const char *w)
{
	size_t n = strlen(w);

	if (r->len - r->pos < n || memcmp(r->buf + r->pos, w, n))
		return false;
	r->pos += n;
	return true;
}

/* Links node i as the last child of the innermost open container. */
static int attach(struct reader *r, int i)
{
	if (!r->depth)
		return 0;
	int top = r->stack[r->depth - 1];
	struct sl_json *c = &r->doc->nodes[top];

	if (c->nchild == SL_JSON_MAX_MEMBERS)
		return fail_at(r, c->line, c->col,
			       "more than %d members (limit SL_JSON_MAX_MEMBERS)",
			       SL_JSON_MAX_MEMBERS);
	if (r->last[r->depth - 1] < 0)
		c->first = i;
	else
		r->doc->nodes[r->last[r->depth - 1]].next = i;
	r->last[r->depth - 1] = i;
	c->nchild++;
	return 0;
}

/* Reads `"key" :` inside an object. */
static int read_key(struct reader *r, char **key, int *line)
{
	if (r->pos >= r->len || r->buf[r->pos] != '"')
		return FAIL(r, "expected a member name in double quotes");
	*line = r->line;
	if (read_string(r, key))
		return -1;
	if (skip_ws(r))
		return -1;
	if (r->pos >= r->len || r->buf[r->pos] != ':')
		return FAIL(r, "expected ':' after the member name \"%s\"", *key);
	r->pos++;
	return skip_ws(r);
}

/* Reads one scalar, or opens a container, at r->pos; key (owned) names it in an object. */
static int read_value(struct reader *r, char *key, int key_line, bool *opened)
{
	int i;
	char c;

	*opened = false;
	if (r->pos >= r->len) {
		free(key);
		return FAIL(r, "expected a value, found the end of the file");
	}
	c = r->buf[r->pos];
	switch (c) {
	case '{':
	case '[':
		if (r->depth == SL_JSON_MAX_DEPTH) {
			free(key);
			return FAIL(r, "nesting deeper than %d (limit SL_JSON_MAX_DEPTH)",
				    SL_JSON_MAX_DEPTH);
		}
		i = new_node(r, c == '{' ? SL_JSON_OBJECT : SL_JSON_ARRAY);
		r->pos++;
		*opened = true;
		break;
	case '"':
		i = new_node(r, SL_JSON_STRING);
		if (i >= 0 && read_string(r, &r->doc->nodes[i].str))
			i = -1;
		break;
	case 't':
	case 'f':
	case 'n':
		i = new_node(r, c == 'n' ? SL_JSON_NULL : SL_JSON_BOOL);
		if (i >= 0) {
			if (word(r, "true"))
				r->doc->nodes[i].b = true;
			else if (!word(r, "false") && !word(r, "null"))
				i = FAIL(r, "expected a value (true, false, null, a number, a "
					    "string, [ or {)");
		}
		break;
	default:
		if (c == '-' || (c >= '0' && c <= '9')) {
			i = new_node(r, SL_JSON_NUMBER);
			if (i >= 0 && read_number(r, &r->doc->nodes[i]))
				i = -1;
		} else {
			i = FAIL(r,
				 "expected a value (a number, a string, true, false, null, [ or "
				 "{), found '%c'",
				 c);
		}
	}
	if (i < 0) {
		free(key);
		return -1;
	}
	r->doc->nodes[i].key = key;
	r->doc->nodes[i].key_line = key_line;
	if (attach(r, i))
		return -1;
	if (*opened) {
		r->stack[r->depth] = i;
		r->last[r->depth] = -1;
		r->depth++;
	}
	return 0;
}

int sl_json_parse(const char *buf, size_t len, struct sl_json_doc *doc, char *err, size_t errlen)
{
	struct reader r = {
		.buf = buf, .len = len, .line = 1, .doc = doc, .err = err, .errlen = errlen};
	bool opened;

	memset(doc, 0, sizeof(*doc));
	if (len > SL_JSON_MAX_SIZE) {
		snprintf(err, errlen, "1:1: file larger than %u bytes (limit SL_JSON_MAX_SIZE)",
			 SL_JSON_MAX_SIZE);
		return -1;
	}
	if (memchr(buf, '\0', len)) {
		const char *z = memchr(buf, '\0', len);

		r.pos = (size_t)(z - buf);
		for (size_t k = 0; k < r.pos; k++)
			if (buf[k] == '\n') {
				r.line++;
				r.line_start = k + 1;
			}
		FAIL(&r, "NUL byte in the file");
		goto fail;
	}
	if (skip_ws(&r) || read_value(&r, NULL, 0, &opened))
		goto fail;
	while (r.depth) {
		int top = r.stack[r.depth - 1];
		bool obj = doc->nodes[top].type == SL_JSON_OBJECT;
		char close = obj ? '}' : ']';

		if (skip_ws(&r))
			goto fail;
		if (r.pos < r.len && r.buf[r.pos] == close) {
			r.pos++;
			r.depth--;
			continue;
		}
		if (doc->nodes[top].nchild) {
			if (r.pos >= r.len || r.buf[r.pos] != ',') {
				FAIL(&r, "expected ',' or '%c'%s", close,
				     r.pos >= r.len ? ", found the end of the file" : "");
				goto fail;
			}
			r.pos++;
			if (skip_ws(&r))
				goto fail;
			/* json-c accepts one trailing comma, and rt-app's examples have them */
			if (r.pos < r.len && r.buf[r.pos] == close) {
				r.pos++;
				r.depth--;
				continue;
			}
		}
		char *key = NULL;
		int key_line = 0;

		if (obj && read_key(&r, &key, &key_line)) {
			free(key);
			goto fail;
		}
		if (read_value(&r, key, key_line, &opened))
			goto fail;
	}
	if (skip_ws(&r))
		goto fail;
	if (r.pos < r.len) {
		FAIL(&r, "expected the end of the file after the top-level value");
		goto fail;
	}
	return 0;
fail:
	sl_json_free(doc);
	return -1;
}

void sl_json_free(struct sl_json_doc *doc)
{
	for (int i = 0; i < doc->n; i++) {
		free(doc->nodes[i].key);
		free(doc->nodes[i].str);
	}
	free(doc->nodes);
	memset(doc, 0, sizeof(*doc));
}
