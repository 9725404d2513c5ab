/*
 * The sweep's resume reader: the --out file a killed sweep left, read back to learn which runs
 * are done. The same bytes go to three sweeps of 4 runs (flags NEW_FAIR_SLEEPERS and
 * START_DEBIT, hog:tasks=2 on 1 CPU for 5 ms): a CSV one, a JSON Lines one, and a CSV one that
 * is shard 2/2. Every run a reader marks done must be one of the sweep's own.
 */
#include "experiment/sweep.h"
#include "fuzz.h"

#define NRUNS 4

static struct sl_sweep sweeps[3];
static bool ready;

static void prepare(struct sl_sweep *sw, const char *out, const char *shard)
{
	char *argv[] = {"--features", "NEW_FAIR_SLEEPERS,START_DEBIT",
			"--out",      (char *)out,
			"--shard",    (char *)shard};
	int argc = shard ? 6 : 4;
	char err[SL_FUZZ_ERR_LEN];

	memset(sw, 0, sizeof(*sw));
	for (int i = 0; i < argc; i++)
		if (sl_sweep_option(sw, argc, argv, &i, err, sizeof(err)) != 1)
			goto fail;
	sw->base.workloads[sw->base.nworkloads++] = "hog:tasks=2";
	sw->base.cpus = "1";
	sw->base.duration = "5ms";
	if (!sl_sweep_prepare(sw, err, sizeof(err)) && sw->nruns == NRUNS)
		return;
fail:
	fprintf(stderr, "fuzz sweep_resume: cannot set up the sweep: %s\n", err);
	abort();
}

SL_FUZZ_TARGET(sweep_resume)
{
	int rc = 0;

	if (!ready) {
		prepare(&sweeps[0], "fuzz.csv", NULL);
		prepare(&sweeps[1], "fuzz.jsonl", NULL);
		prepare(&sweeps[2], "fuzz.csv", "2/2");
		ready = true;
	}
	for (int i = 0; i < 3; i++) {
		bool done[NRUNS] = {false};
		u64 ndone = 0, count = 0;
		off_t good = 0;
		char e[SL_FUZZ_ERR_LEN];
		FILE *f = fmemopen((void *)data, size, "r");

		if (!f)
			abort();
		if (sl_sweep_resume_read(&sweeps[i], f, done, &ndone, &good, e, sizeof(e))) {
			if (!rc)
				snprintf(err, errlen, "%s", e);
			rc = -1;
		} else if (good < 0 || (size_t)good > size) {
			abort();
		}
		fclose(f);
		for (int k = 0; k < NRUNS; k++)
			count += done[k];
		if (count != ndone)
			abort();
	}
	return rc;
}
