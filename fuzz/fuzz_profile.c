/*
 * Machine-profile files (--machine file:PATH, docs/idle-profile-format.md), parsed from memory.
 * A table that is accepted must survive its own writer: written with sl_idle_profile_write and
 * parsed again, it gives the same states.
 */
#include "cpuidle/profiles.h"
#include "fuzz.h"

static void same_or_abort(const struct sl_cpuidle_driver *a, const struct sl_cpuidle_driver *b,
			  const char *text)
{
	bool same = a->state_count == b->state_count && a->busy_power_mw == b->busy_power_mw;

	for (int i = 0; same && i < a->state_count; i++) {
		const struct sl_idle_state *x = &a->states[i], *y = &b->states[i];

		same = !strcmp(x->name, y->name) && x->exit_latency_ns == y->exit_latency_ns &&
		       x->target_residency_ns == y->target_residency_ns &&
		       x->power_mw == y->power_mw && x->flags == y->flags &&
		       x->entry_energy_nj == y->entry_energy_nj;
	}
	if (!same) {
		fprintf(stderr, "profile: the written table reads back differently:\n%s", text);
		abort();
	}
}

SL_FUZZ_TARGET(profile)
{
	struct sl_cpuidle_driver drv, back;
	FILE *f = fmemopen((void *)data, size, "r");
	char *text = NULL, e[SL_FUZZ_ERR_LEN];
	size_t len = 0;
	int rc;

	if (!f)
		abort();
	rc = sl_idle_profile_parse(f, "fuzz.profile", &drv, err, errlen);
	fclose(f);
	if (rc)
		return rc;
	f = open_memstream(&text, &len);
	if (!f || sl_idle_profile_write(f, &drv))
		abort();
	fclose(f);
	f = fmemopen(text, len, "r");
	if (!f)
		abort();
	if (sl_idle_profile_parse(f, "fuzz.profile", &back, e, sizeof(e))) {
		fprintf(stderr, "profile: the written table is refused: %s\n%s", e, text);
		abort();
	}
	fclose(f);
	same_or_abort(&drv, &back, text);
	free(text);
	return 0;
}
