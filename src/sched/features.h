/*
 * SCHED_FEAT flags. The model keeps one bit per flag *name* across all releases (the union of
 * the 2.6.31, 2.6.32 and 6.18 lists: at most 64), so code reads sched_feat(sim, F_LAST_BUDDY)
 * whatever the release; each release's table (in its own file) says which names exist, in which
 * debugfs order, and with which defaults. A flag a release lacks is never set for it.
 */
#ifndef SCHEDLAB_FEATURES_H
#define SCHEDLAB_FEATURES_H

#include <schedlab/types.h>

enum sl_feat {
	F_NEW_FAIR_SLEEPERS,
	F_NORMALIZED_SLEEPER,
	F_ADAPTIVE_GRAN,
	F_WAKEUP_PREEMPT,
	F_START_DEBIT,
	F_AFFINE_WAKEUPS,
	F_CACHE_HOT_BUDDY,
	F_SYNC_WAKEUPS,
	F_HRTICK,
	F_DOUBLE_TICK,
	F_ASYM_GRAN,
	F_LB_BIAS,
	F_LB_WAKEUP_UPDATE,
	F_ASYM_EFF_LOAD,
	F_WAKEUP_OVERLAP,
	F_LAST_BUDDY,
	F_OWNER_SPIN,
	F_FAIR_SLEEPERS,
	F_GENTLE_FAIR_SLEEPERS,
	F_WAKEUP_SYNC,
	F_WAKEUP_RUNNING,
	F_SYNC_LESS,
	F_SYNC_MORE,
	F_NEXT_BUDDY,
	F_ARCH_POWER,
	F_LB_SHARES_UPDATE,
	/* 6.18 (EEVDF) names; NEXT_BUDDY, CACHE_HOT_BUDDY and HRTICK are shared above */
	F_PLACE_LAG,
	F_PLACE_DEADLINE_INITIAL,
	F_PLACE_REL_DEADLINE,
	F_RUN_TO_PARITY,
	F_PREEMPT_SHORT,
	F_PICK_BUDDY,
	F_DELAY_DEQUEUE,
	F_DELAY_ZERO,
	F_WAKEUP_PREEMPTION,
	F_HRTICK_DL,
	F_NONTASK_CAPACITY,
	F_TTWU_QUEUE,
	F_SIS_UTIL,
	F_WARN_DOUBLE_CLOCK,
	F_RT_PUSH_IPI,
	F_RT_RUNTIME_SHARE,
	F_LB_MIN,
	F_ATTACH_AGE_LOAD,
	F_WA_IDLE,
	F_WA_WEIGHT,
	F_WA_BIAS,
	F_UTIL_EST,
	F_LATENCY_WARN,
	F_NI_RANDOM,
	F_NR_FEATS
};
/* a feature set is a u64 of these bits */
_Static_assert(F_NR_FEATS <= 64, "sched feature ids must fit a u64");

/*
 * A policy's own flags (a plug-in's, or an in-tree policy's that no other release has): bits
 * SL_FEAT_OWN(0) .. SL_FEAT_OWN(SL_FEAT_OWN_MAX - 1), named only by that release's table. One
 * release runs at a time, so every policy may use them; a policy with flags of its own adds no
 * line to the enum above, its folder's table names them and its code reads
 * sched_feat(sim, SL_FEAT_OWN(i)).
 */
#define SL_FEAT_OWN_BASE 56
#define SL_FEAT_OWN_MAX	 8
#define SL_FEAT_OWN(i)	 ((enum sl_feat)(SL_FEAT_OWN_BASE + (i)))
_Static_assert(F_NR_FEATS <= SL_FEAT_OWN_BASE, "the shared flags reach a policy's own bits");
_Static_assert(SL_FEAT_OWN_BASE + SL_FEAT_OWN_MAX <= 64, "a policy's own flags must fit a u64");

struct sl_feat_desc {
	enum sl_feat id;
	const char *name;
	bool def;
	/* false: the flag only acts with CONFIG_FAIR_GROUP_SCHED (or an arch hook x86 lacks). */
	bool acts;
};

struct sl_feat_table {
	const struct sl_feat_desc *flags; /* in the kernel's file order = bit order */
	int n;
};

/* The kernel's bit mask (bit = position in the release's file) of a feature set. */
u64 sl_feat_kernel_mask(const struct sl_feat_table *t, u64 set);
u64 sl_feat_defaults(const struct sl_feat_table *t);
/* The release's sched_features file has flag f. */
bool sl_feat_known(const struct sl_feat_table *t, enum sl_feat f);
/* "NEW_FAIR_SLEEPERS NO_NORMALIZED_SLEEPER ... \n", exactly as debugfs printed it. */
void sl_feat_format(const struct sl_feat_table *t, u64 set, char *buf, size_t len);
/*
 * Apply one debugfs write ("NAME" or "NO_NAME"). Unlike 2.6.31's strncmp, a word must match a
 * name exactly: "NEW_FAIR_SLEEPERSX" is refused rather than taken as NEW_FAIR_SLEEPERS.
 */
int sl_feat_write(const struct sl_feat_table *t, u64 *set, const char *word, char *err,
		  size_t errlen);
/* Apply a whitespace-separated list of words, in order. */
int sl_feat_write_list(const struct sl_feat_table *t, u64 *set, const char *list, char *err,
		       size_t errlen);

#endif
