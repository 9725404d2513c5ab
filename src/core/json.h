/*
 * A small JSON reader for input files that json-c cannot serve: it keeps an object's members in
 * file order, duplicates included (rt-app's examples repeat "run" in one object), remembers the
 * line and column of every value, and accepts what rt-app's json-c reading accepts beyond
 * RFC 8259 in the files it ships: comments (slash-star and slash-slash) and one trailing comma
 * before a closing bracket. It refuses hostile input with a named limit instead of recursing or
 * allocating without bound: the parser is iterative with an explicit stack.
 *
 * sl_json_parse() does no I/O (a fuzzer calls it on a buffer); the tree is a flat array of nodes
 * linked by index.
 */
#ifndef SCHEDLAB_JSON_H
#define SCHEDLAB_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define SL_JSON_MAX_SIZE    (16u << 20) /* bytes of input */
#define SL_JSON_MAX_DEPTH   64		/* nested arrays and objects */
#define SL_JSON_MAX_STRING  4096	/* bytes of one decoded string or key */
#define SL_JSON_MAX_NODES   1000000	/* values in the whole document */
#define SL_JSON_MAX_MEMBERS 100000	/* members of one object or elements of one array */

enum sl_json_type {
	SL_JSON_NULL,
	SL_JSON_BOOL,
	SL_JSON_NUMBER,
	SL_JSON_STRING,
	SL_JSON_ARRAY,
	SL_JSON_OBJECT,
};

struct sl_json {
	enum sl_json_type type;
	int line, col;	/* where the value starts, from 1 */
	char *key;	/* the member's name inside an object, else NULL */
	int key_line;	/* where the key starts */
	char *str;	/* SL_JSON_STRING (NUL-terminated; an embedded \u0000 is refused) */
	double num;	/* SL_JSON_NUMBER */
	bool is_int;	/* written without fraction or exponent and fits in long long */
	long long ival; /* when is_int */
	bool b;		/* SL_JSON_BOOL */
	int first;	/* first child (array element or object member), -1 if none */
	int next;	/* next sibling, -1 at the end */
	int nchild;
};

struct sl_json_doc {
	struct sl_json *nodes; /* nodes[0] is the root */
	int n, cap;
};

/* Parses buf[0..len). Returns 0, or -1 with err = "LINE:COLUMN: what was expected". */
int sl_json_parse(const char *buf, size_t len, struct sl_json_doc *doc, char *err, size_t errlen);
void sl_json_free(struct sl_json_doc *doc);

static inline const struct sl_json *sl_json_at(const struct sl_json_doc *d, int i)
{
	return i >= 0 ? &d->nodes[i] : NULL;
}

const char *sl_json_type_name(enum sl_json_type t);

#endif
