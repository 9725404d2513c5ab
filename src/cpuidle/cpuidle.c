/*
 * The cpuidle framework: the governor registry, the poll driver, and the figures a user of
 * schedlab wants beside sysfs's (energy, the oracle's choice). Idle entry and exit as the
 * kernel's core runs them (drivers/cpuidle/cpuidle.c) are the machine's (machine/idle.c).
 */
#include "cpuidle/cpuidle.h"
#include "core/suggest.h"

#include <stdlib.h>
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

/*
 * Where gov's block starts in the store: after the blocks of the governors before it in the
 * registry, each rounded up to whole u64s. -1 for a governor outside the registry or a block
 * that does not fit (test_cpuidle_knobs checks that every registered one does).
 */
static long block_offset(const struct sl_cpuidle_governor *gov)
{
	size_t off = 0;

	for (int g = 0; g < sl_cpuidle_ngovernors; g++) {
		size_t size = (sl_cpuidle_governors[g]->tunables_size + sizeof(u64) - 1) &
			      ~(sizeof(u64) - 1);

		if (sl_cpuidle_governors[g] == gov)
			return off + size <= SL_GOV_TUNABLES_MAX ? (long)off : -1;
		off += size;
	}
	return -1;
}

static u64 *param_field(void *block, const struct sl_gov_param *p)
{
	return (u64 *)(void *)((char *)block + p->offset);
}

/* gov's block in gp, NULL when it has none */
static void *block(struct sl_gov_params *gp, const struct sl_cpuidle_governor *gov)
{
	long off = block_offset(gov);

	return off < 0 ? NULL : (char *)gp->store + off;
}

static void fill_defaults(void *blk, const struct sl_cpuidle_governor *gov)
{
	for (int i = 0; i < gov->nparams; i++)
		*param_field(blk, &gov->params[i]) = gov->params[i].def;
}

const void *sl_gov_tunables(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_governor *gov,
			    void *defaults)
{
	long off = dev->gp ? block_offset(gov) : -1;

	if (off >= 0)
		return (const char *)dev->gp->store + off;
	memset(defaults, 0, gov->tunables_size);
	fill_defaults(defaults, gov);
	return defaults;
}

void sl_gov_params_default(struct sl_gov_params *gp)
{
	memset(gp, 0, sizeof(*gp));
	for (int g = 0; g < sl_cpuidle_ngovernors; g++) {
		void *blk = block(gp, sl_cpuidle_governors[g]);

		if (blk)
			fill_defaults(blk, sl_cpuidle_governors[g]);
	}
}

/* The governor and row of a tunable's name (NULL: none has it). */
static const struct sl_gov_param *find_param(const char *name,
					     const struct sl_cpuidle_governor **gov)
{
	for (int g = 0; g < sl_cpuidle_ngovernors; g++) {
		for (int i = 0; i < sl_cpuidle_governors[g]->nparams; i++) {
			if (!strcmp(sl_cpuidle_governors[g]->params[i].name, name)) {
				*gov = sl_cpuidle_governors[g];
				return &sl_cpuidle_governors[g]->params[i];
			}
		}
	}
	return NULL;
}

int sl_gov_param_get(const struct sl_gov_params *gp, const char *name, u64 *v)
{
	const struct sl_cpuidle_governor *gov;
	const struct sl_gov_param *p = find_param(name, &gov);
	long off = p ? block_offset(gov) : -1;

	if (off < 0)
		return -2;
	*v = *(const u64 *)(const void *)((const char *)gp->store + off + p->offset);
	return 0;
}

int sl_gov_param_set(struct sl_gov_params *gp, const char *name, u64 v, char *err, size_t errlen)
{
	const struct sl_cpuidle_governor *gov;
	const struct sl_gov_param *p = find_param(name, &gov);
	void *blk;

	if (!p)
		return -2;
	if (v > p->max) {
		if (p->max == 1)
			snprintf(err, errlen, "--cpuidle-param %s: expected 0 or 1", name);
		else
			snprintf(err, errlen, "--cpuidle-param %s: at most %llu", name,
				 (unsigned long long)p->max);
		return -1;
	}
	blk = block(gp, gov);
	if (!blk) {
		snprintf(err, errlen,
			 "--cpuidle-param %s: governor %s's tunables do not fit the store "
			 "(SL_GOV_TUNABLES_MAX)",
			 name, gov->name);
		return -1;
	}
	*param_field(blk, p) = v;
	return 0;
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

void sl_gov_free_data(struct sl_cpuidle_dev *dev)
{
	free(dev->gov_data);
	dev->gov_data = NULL;
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
