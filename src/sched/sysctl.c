#include "core/suggest.h"
#include "sched/sysctl.h"
#include "core/parse.h"

#include <stdio.h>
#include <string.h>

#define T(f)	offsetof(struct sl_tunables, f)
#define INTMIN	(-2147483648LL)
#define INTMAX	2147483647LL
#define UINTMAX 4294967295LL

const struct sl_sysctl_desc sl_sysctls[] = {
	{"kernel.sched_child_runs_first", T(sched_child_runs_first), INTMIN, INTMAX, false, true,
	 SL_SYSCTL_CFS, false, false},
	{"kernel.sched_min_granularity_ns", T(sched_min_granularity), 100000, 1000000000, true,
	 true, SL_SYSCTL_CFS, false, false},
	{"kernel.sched_latency_ns", T(sched_latency), 100000, 1000000000, true, true, SL_SYSCTL_CFS,
	 false, false},
	{"kernel.sched_wakeup_granularity_ns", T(sched_wakeup_granularity), 0, 1000000000, false,
	 true, SL_SYSCTL_CFS, false, false},
	{"kernel.sched_shares_ratelimit", T(sched_shares_ratelimit), INTMIN, INTMAX, false, false,
	 SL_SYSCTL_CFS, false, false},
	{"kernel.sched_shares_thresh", T(sched_shares_thresh), 0, INTMAX, false, false,
	 SL_SYSCTL_CFS, false, false},
	{"kernel.sched_features", (size_t)-1, INTMIN, INTMAX, false, true, SL_SYSCTL_CFS, false,
	 false},
	{"kernel.sched_migration_cost", T(sched_migration_cost), INTMIN, INTMAX, false, true,
	 SL_SYSCTL_CFS, false, false},
	{"kernel.sched_nr_migrate", T(sched_nr_migrate), INTMIN, INTMAX, false, true, SL_SYSCTL_CFS,
	 false, false},
	{"kernel.sched_compat_yield", T(sched_compat_yield), INTMIN, INTMAX, false, true,
	 SL_SYSCTL_CFS, false, false},
	/* 6.18: debugfs u32 files (any 32-bit value), and tunable_scaling (< 3) */
	{"base_slice_ns", T(sched_base_slice), 0, UINTMAX, false, true, SL_SYSCTL_EEVDF, false,
	 false},
	{"migration_cost_ns", T(sched_migration_cost), 0, UINTMAX, false, true, SL_SYSCTL_EEVDF,
	 false, false},
	{"nr_migrate", T(sched_nr_migrate), 0, UINTMAX, false, true, SL_SYSCTL_EEVDF, false, false},
	{"tunable_scaling", T(sched_tunable_scaling), 0, 2, false, true, SL_SYSCTL_EEVDF, true,
	 false},
	/* the RT class's bandwidth (rt.c), in every release: ints, -1 = RUNTIME_INF;
	 * sched_rt_handler's checks */
	{"kernel.sched_rt_period_us", T(sched_rt_period_us), 1, INTMAX, false, true,
	 SL_SYSCTL_CFS | SL_SYSCTL_EEVDF, false, true},
	{"kernel.sched_rt_runtime_us", T(sched_rt_runtime_us), -1, INTMAX, false, true,
	 SL_SYSCTL_CFS | SL_SYSCTL_EEVDF, false, true},
};
const int sl_nsysctls = (int)SL_ARRAY_SIZE(sl_sysctls);

bool sl_sysctl_exists(const struct sl_release *rel, const struct sl_sysctl_desc *d)
{
	if (d >= sl_sysctls && d < sl_sysctls + sl_nsysctls)
		return (rel->sysctls & d->kernels) != 0;
	return d >= rel->own_sysctls && d < rel->own_sysctls + rel->nown_sysctls;
}

int sl_sysctl_count(const struct sl_release *rel)
{
	int n = rel->nown_sysctls;

	for (int i = 0; i < sl_nsysctls; i++)
		n += sl_sysctl_exists(rel, &sl_sysctls[i]);
	return n;
}

const struct sl_sysctl_desc *sl_sysctl_nth(const struct sl_release *rel, int k)
{
	for (int i = 0; i < sl_nsysctls; i++)
		if (sl_sysctl_exists(rel, &sl_sysctls[i]) && !k--)
			return &sl_sysctls[i];
	return k < rel->nown_sysctls ? &rel->own_sysctls[k] : NULL;
}

const char *sl_sysctl_short(const struct sl_sysctl_desc *d)
{
	return strncmp(d->name, "kernel.", 7) ? d->name : d->name + 7;
}

static void list_names(const struct sl_release *rel, char *buf, size_t len)
{
	size_t off = 0;
	int k = 0;

	buf[0] = '\0';
	for (int i = 0; i < sl_sysctl_count(rel); i++)
		sl_append(buf, len, &off, "%s%s", k++ ? " " : "", sl_sysctl_nth(rel, i)->name);
}

static u64 *field(struct sl_tunables *t, const struct sl_sysctl_desc *d)
{
	return (u64 *)(void *)((char *)t + d->offset);
}

s64 sl_sysctl_read(const struct sl_release *rel, const struct sl_tunables *t, u64 features,
		   const struct sl_sysctl_desc *d)
{
	if (d->offset == (size_t)-1)
		return (s64)sl_feat_kernel_mask(&rel->feats, features);
	u64 v = *(const u64 *)(const void *)((const char *)t + d->offset);

	return d->is_int ? (s64)(s32)(u32)v : (s64)v;
}

int sl_sysctl_write(const struct sl_release *rel, struct sl_tunables *t, u64 *features,
		    const char *assignment, char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	size_t n = eq ? (size_t)(eq - assignment) : strlen(assignment);
	char e[160];

	for (int i = 0; i < sl_nsysctls + rel->nown_sysctls; i++) {
		const struct sl_sysctl_desc *d =
			i < sl_nsysctls ? &sl_sysctls[i] : &rel->own_sysctls[i - sl_nsysctls];
		s64 v;

		if (strlen(d->name) != n || strncmp(d->name, assignment, n))
			continue;
		if (!sl_sysctl_exists(rel, d)) {
			char valid[768];

			list_names(rel, valid, sizeof(valid));
			snprintf(err, errlen,
				 "--sysctl %s: Linux %s has no such tunable%s; valid for --kernel "
				 "%s: %s",
				 d->name, rel->name, rel->sysctl_hint ? rel->sysctl_hint : "",
				 rel->name, valid);
			return -1;
		}
		if (!eq) {
			snprintf(err, errlen, "--sysctl %s: expected %s=VALUE", assignment,
				 d->name);
			return -1;
		}
		int prc = sl_parse_s64(eq + 1, &v, e, sizeof(e));

		if (prc && prc != SL_PARSE_RANGE) {
			snprintf(err, errlen,
				 "--sysctl %s: %s (the kernel takes a decimal integer)", d->name,
				 e);
			return -1;
		}
		if (prc || v < d->min || v > d->max) {
			snprintf(err, errlen,
				 "--sysctl %s=%s: out of range [%lld, %lld] (the kernel answers "
				 "-EINVAL)",
				 d->name, eq + 1, (long long)d->min, (long long)d->max);
			return -1;
		}
		u32 uv = (u32)v; /* the variable is an unsigned int */

		if (d->offset == (size_t)-1) {
			u64 set = 0;

			for (int b = 0; b < rel->feats.n; b++)
				if (uv & (1U << b))
					set |= 1ULL << rel->feats.flags[b].id;
			*features = set;
			return 0;
		}
		if (d->offset == T(sched_rt_runtime_us) && (s32)uv != -1 &&
		    (u64)(s32)uv > t->sched_rt_period_us) {
			snprintf(err, errlen,
				 "--sysctl %s=%s: more than kernel.sched_rt_period_us=%llu (the "
				 "kernel answers -EINVAL)",
				 d->name, eq + 1, (unsigned long long)t->sched_rt_period_us);
			return -1;
		}
		if (d->offset == T(sched_rt_period_us) && (s32)t->sched_rt_runtime_us != -1 &&
		    uv < t->sched_rt_runtime_us) {
			snprintf(err, errlen,
				 "--sysctl %s=%s: less than kernel.sched_rt_runtime_us=%llu (the "
				 "kernel answers -EINVAL)",
				 d->name, eq + 1, (unsigned long long)t->sched_rt_runtime_us);
			return -1;
		}
		*field(t, d) = uv;
		if (d->scaling_handler && rel->update_scaling)
			rel->update_scaling(t);
		if (d->nr_latency_handler) {
			u64 mg = t->sched_min_granularity;

			t->sched_nr_latency = (t->sched_latency + mg - 1) / mg;
		}
		return 0;
	}
	char valid[768], hint[160];
	struct sl_suggest sg;

	sl_suggest_init(&sg, assignment, n);
	for (int k = 0; k < sl_sysctl_count(rel); k++)
		sl_suggest_add(&sg, sl_sysctl_nth(rel, k)->name);
	list_names(rel, valid, sizeof(valid));
	snprintf(err, errlen, "unknown sysctl '%.*s'%s (valid: %s)", (int)n, assignment,
		 sl_suggest_text(&sg, hint, sizeof(hint)), valid);
	return -1;
}
