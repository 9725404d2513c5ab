/*
 * The one parser of workload keys (workload.h): the spec's key=value list against typed rows,
 * then each row's value, given or default, converted into its field. The pairs are separated by
 * commas, as is a CPU list (fio's cpus_allowed=0,2,4): after a CPU-list key, words without '='
 * belong to its value. The text is checked whole
 * (unknown keys, keys given twice, empty or overlong values) before any value is converted, so a
 * misspelt key is reported as such even when another value is bad.
 */
#include "workload/workload.h"
#include "core/parse.h"
#include "core/suggest.h"
#include "core/outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct sl_wl_key sl_wl_common_keys[] = {
	SL_WL_KEY_TIME("start", struct sl_wl_common, start, "0s", "when the tasks are created"),
	/* the tasks' user, whose task group they join under --param group_sched=1 (1000: a
	 * desktop's first user; uid 0 is root's group, with twice the shares) */
	SL_WL_KEY_INT("uid", struct sl_wl_common, uid, 0, 2147483647L, "1000",
		      "the tasks' user id (their task group with group_sched=1)"),
};
const int sl_wl_ncommon_keys = (int)SL_ARRAY_SIZE(sl_wl_common_keys);

const struct sl_wl_choice sl_wl_policies[] = {
	{"normal", SL_SCHED_NORMAL},
	{"batch", SL_SCHED_BATCH},
	{"idle", SL_SCHED_IDLE},
	{"fifo", SL_SCHED_FIFO},
	{"rr", SL_SCHED_RR},
	/* BFS's SCHED_ISO: refused by the other releases (config.c) */
	{"iso", SL_SCHED_ISO},
	{NULL, 0},
};

int sl_wl_check_rtprio(int policy, long rtprio, char *err, size_t errlen)
{
	bool rt = policy == SL_SCHED_FIFO || policy == SL_SCHED_RR;

	/* sched_setscheduler: 1..99 for the RT policies, 0 for the others (else -EINVAL) */
	if (rt && rtprio < 1) {
		snprintf(err, errlen, "policy=%s needs rtprio=1..99",
			 policy == SL_SCHED_FIFO ? "fifo" : "rr");
		return -1;
	}
	if (!rt && rtprio) {
		snprintf(err, errlen,
			 "rtprio=%ld: only policy=fifo or rr takes a priority (rtprio=0)", rtprio);
		return -1;
	}
	return 0;
}

/* "1-15", "0,2,4-6": a mask of CPUs below 64; -1 on anything else */
static int cpu_list(const char *s, u64 *mask)
{
	*mask = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0 || a > 63)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a || b > 63)
				return -1;
		}
		for (long c = a; c <= b; c++)
			*mask |= 1ULL << c;
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

static int parse_int(const struct sl_wl_key *k, const char *v, long *out, char *err, size_t errlen)
{
	s64 x;
	char e[160];
	int rc = sl_parse_s64(v, &x, e, sizeof(e));

	if (rc == SL_PARSE_RANGE) {
		snprintf(err, errlen, "%s=%s is out of range [%lld, %lld]", k->name, v,
			 (long long)k->min, (long long)k->max);
		return -1;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", k->name, e);
		return -1;
	}
	if (x < k->min || x > k->max) {
		snprintf(err, errlen, "%s=%lld is out of range [%lld, %lld]", k->name, (long long)x,
			 (long long)k->min, (long long)k->max);
		return -1;
	}
	*out = (long)x;
	return 0;
}

static int parse_size(const struct sl_wl_key *k, const char *v, u64 *out, char *err, size_t errlen)
{
	char e[200];

	if (sl_parse_size(v, out, e, sizeof(e))) {
		snprintf(err, errlen, "%s: %s", k->name, e);
		return -1;
	}
	if (k->step && *out % (u64)k->step) {
		snprintf(err, errlen, "%s: must be a multiple of %lld", k->name,
			 (long long)k->step);
		return -1;
	}
	if (*out < (u64)k->min) {
		snprintf(err, errlen, "%s=%s is below %lld", k->name, v, (long long)k->min);
		return -1;
	}
	if (k->max && *out > (u64)k->max) {
		snprintf(err, errlen, "%s=%s is above %lld", k->name, v, (long long)k->max);
		return -1;
	}
	return 0;
}

static int parse_enum(const struct sl_wl_key *k, const char *v, int *out, char *err, size_t errlen)
{
	size_t off = 0;
	int n = 0;

	for (const struct sl_wl_choice *c = k->choices; c->name; c++, n++) {
		if (!strcmp(c->name, v)) {
			*out = c->value;
			return 0;
		}
	}
	/* "expected a, b or c" */
	sl_append(err, errlen, &off, "%s='%s': expected ", k->name, v);
	for (int i = 0; i < n; i++)
		sl_append(err, errlen, &off, "%s%s",
			  i == 0       ? ""
			  : i == n - 1 ? " or "
				       : ", ",
			  k->choices[i].name);
	return -1;
}

/* One value into its field: 0, or -1 with err naming the key and what was expected. */
static int parse_value(const struct sl_wl_key *k, const char *v, void *dst, char *err,
		       size_t errlen)
{
	void *f = (char *)dst + k->offset;
	char e[200];

	switch (k->type) {
	case SL_WL_INT:
		return parse_int(k, v, f, err, errlen);
	case SL_WL_BOOL: {
		long b;

		if (parse_int(k, v, &b, err, errlen))
			return -1;
		*(bool *)f = b != 0;
		return 0;
	}
	case SL_WL_TIME:
	case SL_WL_DIST: {
		struct sl_dist d;

		if (sl_dist_parse(v, &d, e, sizeof(e))) {
			snprintf(err, errlen, "%s: %s", k->name, e);
			return -1;
		}
		if (k->type == SL_WL_DIST) {
			*(struct sl_dist *)f = d;
			return 0;
		}
		if (d.kind != SL_DIST_FIXED) {
			snprintf(err, errlen, "%s: expected a fixed duration, not a distribution",
				 k->name);
			return -1;
		}
		*(u64 *)f = d.a;
		return 0;
	}
	case SL_WL_SIZE:
		return parse_size(k, v, f, err, errlen);
	case SL_WL_ENUM:
		return parse_enum(k, v, f, err, errlen);
	case SL_WL_FILE:
		/* an input: no output may replace it */
		sl_outfile_input(v);
		/* fallthrough */
	case SL_WL_STR:
	case SL_WL_DIR:
		snprintf(f, SL_WL_VALUE_MAX, "%s", v);
		return 0;
	case SL_WL_CPUS:
		if (cpu_list(v, f)) {
			snprintf(err, errlen,
				 "%s='%s': expected CPUs 0-63 as a list, e.g. 1-15 or 0,2,4",
				 k->name, v);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "%s: a key of unknown type %d", k->name, (int)k->type);
	return -1;
}

struct row {
	const struct sl_wl_key *k;
	void *dst;
	const char *given; /* NULL: the default */
	size_t len;
};

static struct row *find_row(struct row *rows, int n, const char *name, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(rows[i].k->name) == len && !strncmp(rows[i].k->name, name, len))
			return &rows[i];
	return NULL;
}

static void unknown_key(const char *wname, const struct row *rows, int n, const char *key,
			size_t len, char *err, size_t errlen)
{
	struct sl_suggest sg;
	char hint[128], names[256];
	size_t off = 0;

	sl_suggest_init(&sg, key, len);
	names[0] = '\0';
	for (int i = 0; i < n; i++) {
		sl_append(names, sizeof(names), &off, "%s%s", i ? ", " : "", rows[i].k->name);
		sl_suggest_add(&sg, rows[i].k->name);
	}
	snprintf(err, errlen, "--workload %s: unknown key '%.*s'%s (valid: %s)", wname, (int)len,
		 key, sl_suggest_text(&sg, hint, sizeof(hint)), names);
}

/* The spec's key=value pairs onto their rows, each at most once. */
static int collect(const char *wname, const char *text, struct row *rows, int n, char *err,
		   size_t errlen)
{
	struct row *last = NULL;

	for (const char *p = text; p && *p;) {
		size_t len = strcspn(p, ",");
		const char *eq = memchr(p, '=', len);

		/* a CPU list's own commas (cpus_allowed=0,2,4-6): the words go on its value */
		if (!eq && last && last->k->type == SL_WL_CPUS) {
			last->len = (size_t)(p + len - last->given);
			if (last->len >= SL_WL_VALUE_MAX) {
				snprintf(err, errlen,
					 "--workload %s: key '%s': value too long (at most %d "
					 "characters)",
					 wname, last->k->name, SL_WL_VALUE_MAX - 1);
				return -1;
			}
			p += len;
			if (*p == ',')
				p++;
			continue;
		}
		if (!eq) {
			snprintf(err, errlen, "--workload %s: '%.*s' is not KEY=VALUE", wname,
				 (int)len, p);
			return -1;
		}
		struct row *r = find_row(rows, n, p, (size_t)(eq - p));

		if (!r) {
			unknown_key(wname, rows, n, p, (size_t)(eq - p), err, errlen);
			return -1;
		}
		size_t vlen = len - (size_t)(eq - p) - 1;

		if (vlen == 0) {
			snprintf(err, errlen, "--workload %s: key '%s' needs a value", wname,
				 r->k->name);
			return -1;
		}
		/* a value too long for its buffer is not a missing value: say which it is */
		if (vlen >= SL_WL_VALUE_MAX) {
			snprintf(err, errlen,
				 "--workload %s: key '%s': value too long (at most %d characters)",
				 wname, r->k->name, SL_WL_VALUE_MAX - 1);
			return -1;
		}
		/* hog:tasks=1,tasks=2 means one of them: which is a guess */
		if (r->given) {
			snprintf(err, errlen, "--workload %s: key '%s' given twice", wname,
				 r->k->name);
			return -1;
		}
		r->given = eq + 1;
		r->len = vlen;
		last = r;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int sl_wl_keys_parse(const char *name, const char *text, const struct sl_wl_keyset *sets, int nsets,
		     char *err, size_t errlen)
{
	struct row rows[SL_WL_MAX_KEYS];
	int n = 0;

	for (int s = 0; s < nsets; s++) {
		for (int i = 0; i < sets[s].n; i++) {
			if (n == SL_WL_MAX_KEYS) {
				snprintf(err, errlen, "--workload %s: more than %d keys", name,
					 SL_WL_MAX_KEYS);
				return -1;
			}
			rows[n++] = (struct row){&sets[s].keys[i], sets[s].dst, NULL, 0};
		}
	}
	if (collect(name, text, rows, n, err, errlen))
		return -1;
	for (int i = 0; i < n; i++) {
		char v[SL_WL_VALUE_MAX], e[256];

		if (rows[i].given) {
			memcpy(v, rows[i].given, rows[i].len);
			v[rows[i].len] = '\0';
		} else {
			snprintf(v, sizeof(v), "%s", rows[i].k->def);
		}
		if (parse_value(rows[i].k, v, rows[i].dst, e, sizeof(e))) {
			snprintf(err, errlen, "--workload %s: %s", name, e);
			return -1;
		}
	}
	return 0;
}
