/*
 * The cpuidle framework: the governor registry, the poll driver, and the figures a user of
 * schedlab wants beside sysfs's (energy, the oracle's choice). Idle entry and exit as the
 * kernel's core runs them (drivers/cpuidle/cpuidle.c) are the machine's (machine/idle.c).
 */
#include "cpuidle/cpuidle.h"
#include "core/suggest.h"

#include <stdio.h>
#include <string.h>

#define GOVERNORS(X)                                                                               \
	X(sl_gov_poll)                                                                             \
	X(sl_gov_ladder)                                                                           \
	X(sl_gov_menu_2_6_31)                                                                      \
	X(sl_gov_menu_tng)                                                                         \
	X(sl_gov_menu)                                                                             \
	X(sl_gov_teo)                                                                              \
	X(sl_gov_haltpoll)                                                                         \
	X(sl_gov_oracle)

#define DECLARE(ops) extern const struct sl_cpuidle_governor ops;
#define ENTRY(ops)   &ops,
GOVERNORS(DECLARE)

/* The registry of governors: one line per governor file. */
const struct sl_cpuidle_governor *const sl_cpuidle_governors[] = {GOVERNORS(ENTRY)};
const int sl_cpuidle_ngovernors = (int)SL_ARRAY_SIZE(sl_cpuidle_governors);

/* x86 of 2009: index 0 is the poll loop, exit latency 0, POLL | TIME_VALID */
const struct sl_cpuidle_driver sl_cpuidle_poll_driver = {
	.name = "poll",
	.state_count = 1,
	.states = {{"POLL", 0, 0, 0, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID, 0}},
};

static u64 *param_field(struct sl_gov_params *gp, const struct sl_gov_param *p)
{
	return (u64 *)(void *)((char *)gp + p->offset);
}

void sl_gov_params_default(struct sl_gov_params *gp)
{
	memset(gp, 0, sizeof(*gp));
	for (int g = 0; g < sl_cpuidle_ngovernors; g++)
		for (int i = 0; i < sl_cpuidle_governors[g]->nparams; i++)
			*param_field(gp, &sl_cpuidle_governors[g]->params[i]) =
				sl_cpuidle_governors[g]->params[i].def;
}

int sl_gov_param_set(struct sl_gov_params *gp, const char *name, u64 v, char *err, size_t errlen)
{
	for (int g = 0; g < sl_cpuidle_ngovernors; g++) {
		for (int i = 0; i < sl_cpuidle_governors[g]->nparams; i++) {
			const struct sl_gov_param *p = &sl_cpuidle_governors[g]->params[i];

			if (strcmp(p->name, name))
				continue;
			if (v > p->max) {
				if (p->max == 1)
					snprintf(err, errlen, "--cpuidle-param %s: expected 0 or 1",
						 name);
				else
					snprintf(err, errlen, "--cpuidle-param %s: at most %llu",
						 name, (unsigned long long)p->max);
				return -1;
			}
			*param_field(gp, p) = v;
			return 0;
		}
	}
	return -2;
}

void sl_gov_param_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int g = 0; g < sl_cpuidle_ngovernors; g++)
		for (int i = 0; i < sl_cpuidle_governors[g]->nparams && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						sl_cpuidle_governors[g]->params[i].name);
}

const struct sl_cpuidle_governor *sl_cpuidle_find_governor(const char *name)
{
	for (int i = 0; i < sl_cpuidle_ngovernors; i++)
		if (!strcmp(sl_cpuidle_governors[i]->name, name))
			return sl_cpuidle_governors[i];
	return NULL;
}

const char *sl_cpuidle_governor_hint(const char *name, char *buf, size_t len)
{
	struct sl_suggest sg;

	sl_suggest_init(&sg, name, strlen(name));
	for (int i = 0; i < sl_cpuidle_ngovernors; i++)
		sl_suggest_add(&sg, sl_cpuidle_governors[i]->name);
	return sl_suggest_text(&sg, buf, len);
}

static bool usable(const struct sl_cpuidle_driver *drv, const struct sl_cpuidle_dev *dev, int i)
{
	return !dev->disabled[i] && drv->states[i].exit_latency_ns <= dev->latency_req_ns;
}

u64 sl_cpuidle_energy_pj(const struct sl_cpuidle_driver *drv, int i, u64 ns)
{
	/* mW x ns = pJ */
	return drv->states[i].power_mw * ns + drv->states[i].entry_energy_nj * 1000;
}

int sl_cpuidle_oracle_choice(const struct sl_cpuidle_driver *drv, const struct sl_cpuidle_dev *dev,
			     u64 ns)
{
	int best = 0;
	u64 best_e = UINT64_MAX;

	for (int i = 0; i < drv->state_count; i++) {
		u64 e = sl_cpuidle_energy_pj(drv, i, ns);

		/* ties go to the shallower state */
		if (usable(drv, dev, i) && e < best_e) {
			best_e = e;
			best = i;
		}
	}
	return best;
}
