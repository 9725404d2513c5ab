/*
 * Did-you-mean: the nearest of a list of names to a word the user typed, by edit distance
 * (insertions, deletions, substitutions and swaps of two neighbours, case ignored), for the
 * messages that refuse a command, an option, a flag, a sysctl, a workload or a key.
 */
#ifndef SCHEDLAB_SUGGEST_H
#define SCHEDLAB_SUGGEST_H

#include <stddef.h>

/* The edit distance of a[0..na) and b[0..nb), case ignored; capped at 64. */
int sl_edit_distance(const char *a, size_t na, const char *b, size_t nb);

/*
 * A running search: feed every candidate with sl_suggest_add, then read best (NULL: none near
 * enough). Near enough: a distance of at most a third of the word's length (at least 1, at most
 * 3), or the word is the candidate without a dotted or underscored prefix
 * ("sched_latency_ns" for "kernel.sched_latency_ns").
 */
struct sl_suggest {
	const char *word;
	size_t len;
	const char *best;
	int dist;
};

void sl_suggest_init(struct sl_suggest *s, const char *word, size_t len);
void sl_suggest_add(struct sl_suggest *s, const char *cand);
/* "; did you mean 'X'?" into buf when there is a suggestion, else ""; returns buf */
const char *sl_suggest_text(const struct sl_suggest *s, char *buf, size_t len);

#endif
