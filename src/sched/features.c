#include "core/suggest.h"
#include "sched/features.h"
#include "core/parse.h"

#include <stdio.h>
#include <string.h>

u64 sl_feat_kernel_mask(const struct sl_feat_table *t, u64 set)
{
	u64 m = 0;

	for (int i = 0; i < t->n; i++)
		if (set & (1ULL << t->flags[i].id))
			m |= 1ULL << i;
	return m;
}

u64 sl_feat_defaults(const struct sl_feat_table *t)
{
	u64 set = 0;

	for (int i = 0; i < t->n; i++)
		if (t->flags[i].def)
			set |= 1ULL << t->flags[i].id;
	return set;
}

void sl_feat_format(const struct sl_feat_table *t, u64 set, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->n; i++) {
		bool on = set & (1ULL << t->flags[i].id);

		sl_append(buf, len, &off, "%s%s ", on ? "" : "NO_", t->flags[i].name);
	}
	sl_append(buf, len, &off, "\n");
}

static void list_valid(const struct sl_feat_table *t, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < t->n; i++)
		sl_append(buf, len, &off, "%s%s", i ? " " : "", t->flags[i].name);
}

int sl_feat_write(const struct sl_feat_table *t, u64 *set, const char *word, char *err,
		  size_t errlen)
{
	const char *name = word;
	bool neg = false;

	if (!strncmp(word, "NO_", 3)) {
		neg = true;
		name = word + 3;
	}
	for (int i = 0; i < t->n; i++) {
		if (strcmp(name, t->flags[i].name))
			continue;
		if (neg)
			*set &= ~(1ULL << t->flags[i].id);
		else
			*set |= 1ULL << t->flags[i].id;
		return 0;
	}
	char valid[1024], hint[128] = "";
	struct sl_suggest sg;

	sl_suggest_init(&sg, name, strlen(name));
	for (int i = 0; i < t->n; i++)
		sl_suggest_add(&sg, t->flags[i].name);
	if (sg.best)
		snprintf(hint, sizeof(hint), "; did you mean '%s%s'?", neg ? "NO_" : "", sg.best);
	list_valid(t, valid, sizeof(valid));
	snprintf(err, errlen,
		 "unknown sched feature '%s'%s (the kernel would answer -EINVAL); valid names, "
		 "each optionally prefixed by NO_: %s",
		 word, hint, valid);
	return -1;
}

int sl_feat_write_list(const struct sl_feat_table *t, u64 *set, const char *list, char *err,
		       size_t errlen)
{
	char word[64];
	const char *p = list;
	int words = 0;

	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ',')
			p++;
		if (!*p)
			break;
		size_t n = strcspn(p, " \t\n,");

		if (n >= sizeof(word)) {
			snprintf(err, errlen, "sched feature word '%.*s...' is too long", 40, p);
			return -1;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		if (sl_feat_write(t, set, word, err, errlen))
			return -1;
		words++;
		p += n;
	}
	if (!words) {
		snprintf(err, errlen, "empty sched features list");
		return -1;
	}
	return 0;
}

bool sl_feat_known(const struct sl_feat_table *t, enum sl_feat f)
{
	for (int i = 0; i < t->n; i++)
		if (t->flags[i].id == f)
			return true;
	return false;
}
