#include "sched/features.h"
#include "core/parse.h"

#include <stdio.h>
#include <string.h>

static const char *const names[F_NR_FEATS] = {
	[F_NEW_FAIR_SLEEPERS] = "NEW_FAIR_SLEEPERS",
	[F_NORMALIZED_SLEEPER] = "NORMALIZED_SLEEPER",
	[F_ADAPTIVE_GRAN] = "ADAPTIVE_GRAN",
	[F_WAKEUP_PREEMPT] = "WAKEUP_PREEMPT",
	[F_START_DEBIT] = "START_DEBIT",
	[F_AFFINE_WAKEUPS] = "AFFINE_WAKEUPS",
	[F_CACHE_HOT_BUDDY] = "CACHE_HOT_BUDDY",
	[F_SYNC_WAKEUPS] = "SYNC_WAKEUPS",
	[F_HRTICK] = "HRTICK",
	[F_DOUBLE_TICK] = "DOUBLE_TICK",
	[F_ASYM_GRAN] = "ASYM_GRAN",
	[F_LB_BIAS] = "LB_BIAS",
	[F_LB_WAKEUP_UPDATE] = "LB_WAKEUP_UPDATE",
	[F_ASYM_EFF_LOAD] = "ASYM_EFF_LOAD",
	[F_WAKEUP_OVERLAP] = "WAKEUP_OVERLAP",
	[F_LAST_BUDDY] = "LAST_BUDDY",
	[F_OWNER_SPIN] = "OWNER_SPIN",
	[F_FAIR_SLEEPERS] = "FAIR_SLEEPERS",
	[F_GENTLE_FAIR_SLEEPERS] = "GENTLE_FAIR_SLEEPERS",
	[F_WAKEUP_SYNC] = "WAKEUP_SYNC",
	[F_WAKEUP_RUNNING] = "WAKEUP_RUNNING",
	[F_SYNC_LESS] = "SYNC_LESS",
	[F_SYNC_MORE] = "SYNC_MORE",
	[F_NEXT_BUDDY] = "NEXT_BUDDY",
	[F_ARCH_POWER] = "ARCH_POWER",
	[F_LB_SHARES_UPDATE] = "LB_SHARES_UPDATE",
	[F_PLACE_LAG] = "PLACE_LAG",
	[F_PLACE_DEADLINE_INITIAL] = "PLACE_DEADLINE_INITIAL",
	[F_PLACE_REL_DEADLINE] = "PLACE_REL_DEADLINE",
	[F_RUN_TO_PARITY] = "RUN_TO_PARITY",
	[F_PREEMPT_SHORT] = "PREEMPT_SHORT",
	[F_PICK_BUDDY] = "PICK_BUDDY",
	[F_DELAY_DEQUEUE] = "DELAY_DEQUEUE",
	[F_DELAY_ZERO] = "DELAY_ZERO",
	[F_WAKEUP_PREEMPTION] = "WAKEUP_PREEMPTION",
	[F_HRTICK_DL] = "HRTICK_DL",
	[F_NONTASK_CAPACITY] = "NONTASK_CAPACITY",
	[F_TTWU_QUEUE] = "TTWU_QUEUE",
	[F_SIS_UTIL] = "SIS_UTIL",
	[F_WARN_DOUBLE_CLOCK] = "WARN_DOUBLE_CLOCK",
	[F_RT_PUSH_IPI] = "RT_PUSH_IPI",
	[F_RT_RUNTIME_SHARE] = "RT_RUNTIME_SHARE",
	[F_LB_MIN] = "LB_MIN",
	[F_ATTACH_AGE_LOAD] = "ATTACH_AGE_LOAD",
	[F_WA_IDLE] = "WA_IDLE",
	[F_WA_WEIGHT] = "WA_WEIGHT",
	[F_WA_BIAS] = "WA_BIAS",
	[F_UTIL_EST] = "UTIL_EST",
	[F_LATENCY_WARN] = "LATENCY_WARN",
	[F_NI_RANDOM] = "NI_RANDOM",
};

const char *sl_feat_name(enum sl_feat f)
{
	return (unsigned)f < F_NR_FEATS ? names[f] : "?";
}

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
	char valid[1024];

	list_valid(t, valid, sizeof(valid));
	snprintf(err, errlen,
		 "unknown sched feature '%s' (the kernel would answer -EINVAL); valid names, each "
		 "optionally prefixed by NO_: %s",
		 word, valid);
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
