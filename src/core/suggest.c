#include "core/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define SL_EDIT_MAX 64

int sl_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
	/* optimal string alignment distance over three rows; longer words are capped */
	int rows[3][SL_EDIT_MAX + 1];
	int *pp = rows[0], *p = rows[1], *c = rows[2];

	if (na > SL_EDIT_MAX || nb > SL_EDIT_MAX)
		return SL_EDIT_MAX;
	for (size_t j = 0; j <= nb; j++)
		p[j] = (int)j;
	for (size_t i = 1; i <= na; i++) {
		c[0] = (int)i;
		for (size_t j = 1; j <= nb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			int d = p[j - 1] + (ca != cb);

			if (p[j] + 1 < d)
				d = p[j] + 1;
			if (c[j - 1] + 1 < d)
				d = c[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			c[j] = d;
		}
		int *t = pp;

		pp = p;
		p = c;
		c = t;
	}
	return p[nb] < SL_EDIT_MAX ? p[nb] : SL_EDIT_MAX;
}

void sl_suggest_init(struct sl_suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->len = len;
	s->best = NULL;
	s->dist = SL_EDIT_MAX + 1;
}

void sl_suggest_add(struct sl_suggest *s, const char *cand)
{
	size_t n = strlen(cand);
	int d = sl_edit_distance(s->word, s->len, cand, n);
	int limit = (int)(s->len / 3);

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	/* the candidate with a prefix the user left out: kernel.sched_latency_ns */
	if (d > limit && n > s->len && s->len >= 3 &&
	    (cand[n - s->len - 1] == '.' || cand[n - s->len - 1] == '_') &&
	    !strncasecmp(cand + n - s->len, s->word, s->len))
		d = limit;
	if (d <= limit && d < s->dist) {
		s->best = cand;
		s->dist = d;
	}
}

const char *sl_suggest_text(const struct sl_suggest *s, char *buf, size_t len)
{
	if (s->best)
		snprintf(buf, len, "; did you mean '%s'?", s->best);
	else if (len)
		buf[0] = '\0';
	return buf;
}
