/*
 * Every SCHED_FEAT flag acts where the kernel acted on it: flipping a flag that acts in the
 * model changes the outcome of at least one of a few standard scenarios, and flipping one that
 * only acts with group scheduling (or an x86 hook the model lacks) changes nothing at all.
 * The baseline has HRTICK on so that DOUBLE_TICK, which only matters beside it, can show.
 */
#include "helpers.h"
#include "sched/cfs/cfs_releases.h"
#include "experiment/run.h"

static const char *const scenarios[][7] = {
	{"make:jobs=6,count=60", "pingpong:count=3000", "periodic:run=3ms,period=10ms",
	 "mutex:tasks=6,count=3000", "hog:tasks=2,nice=5", "periodic:run=1ms,period=7ms,nice=3",
	 NULL},
	{"pingpong:count=3000,think=200us", "pingpong:count=3000,sync=0,run=50us", NULL},
	{"hog:tasks=24", "periodic:run=1ms,period=7ms,tasks=4", NULL},
};

static char *report(const char *kernel, int scenario, const char *features)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048], *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(&a, 0, sizeof(a));
	a.kernel = kernel;
	a.cpus = "4";
	a.duration = "1s";
	for (int i = 0; scenarios[scenario][i]; i++)
		a.workloads[a.nworkloads++] = scenarios[scenario][i];
	a.features[a.nfeatures++] = "HRTICK";
	if (features)
		a.features[a.nfeatures++] = features;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	if (sl_run(&cfg, &r, err, sizeof(err)))
		fail_msg("%s", err);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	sl_report_table(f, &cfg, &r);
	fclose(f);
	sl_run_free(&r);
	sl_config_free(&cfg);
	/* drop the sched_features line: it differs by construction */
	char *l = strstr(buf, "sched_features:"), *e = l ? strchr(l, '\n') : NULL;

	if (l && e)
		memmove(l, e + 1, strlen(e + 1) + 1);
	return buf;
}

static void check_release(const struct sl_release *rel)
{
	const int nsc = (int)SL_ARRAY_SIZE(scenarios);
	char *base[SL_ARRAY_SIZE(scenarios)];

	for (int s = 0; s < nsc; s++)
		base[s] = report(rel->name, s, NULL);
	for (int i = 0; i < rel->feats.n; i++) {
		const struct sl_feat_desc *d = &rel->feats.flags[i];
		bool on = (sl_feat_defaults(&rel->feats) | (1ULL << F_HRTICK)) & (1ULL << d->id);
		char flip[64];
		int differs = 0;

		snprintf(flip, sizeof(flip), "%s%s", on ? "NO_" : "", d->name);
		for (int s = 0; s < nsc; s++) {
			char *x = report(rel->name, s, flip);

			differs += strcmp(x, base[s]) != 0;
			free(x);
		}
		/* 2.6.32 sets buddies only with nr_running >= sched_nr_latency and counts them hot
		 * only for a busy balancing CPU, a window these scenarios rarely hit: test_sched's
		 * test_task_hot checks that rule directly */
		if (rel == &sl_cfs_2_6_32 && d->id == F_CACHE_HOT_BUDDY)
			continue;
		if (d->acts && !differs)
			fail_msg("%s %s: acts in the kernel but changed nothing", rel->name, flip);
		if (!d->acts && differs)
			fail_msg(
				"%s %s: has no effect without group scheduling but changed the run",
				rel->name, flip);
	}
	for (int s = 0; s < nsc; s++)
		free(base[s]);
}

static void test_flags_2_6_31(void **state)
{
	(void)state;
	check_release(&sl_cfs_2_6_31);
}

static void test_flags_2_6_32(void **state)
{
	(void)state;
	check_release(&sl_cfs_2_6_32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_2_6_31),
		cmocka_unit_test(test_flags_2_6_32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
