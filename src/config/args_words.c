/*
 * A configuration's words as a user would type them again: what repro --workload and compare
 * print beside each setting, so that a row of theirs can be rerun with `schedlab run`.
 */
#include "config/config.h"
#include "core/parse.h"

#include <stddef.h>
#include <stdio.h>

void sl_args_words(const struct sl_args *a, const char *kernel, char *buf, size_t len)
{
	static const struct {
		const char *opt;
		size_t off;
	} one[] = {
		{"--cpus", offsetof(struct sl_args, cpus)},
		{"--topology", offsetof(struct sl_args, topology)},
		{"--machine", offsetof(struct sl_args, machine)},
		{"--idle-driver", offsetof(struct sl_args, idle_driver)},
		{"--idle", offsetof(struct sl_args, idle)},
		{"--cpuidle-governor", offsetof(struct sl_args, governor)},
		{"--irq-affinity", offsetof(struct sl_args, irq_affinity)},
		{"--duration", offsetof(struct sl_args, duration)},
	};
	size_t off = 0;

	buf[0] = '\0';
	sl_append(buf, len, &off, "--kernel %s", kernel);
	for (size_t i = 0; i < SL_ARRAY_SIZE(one); i++) {
		const char *v = *(const char *const *)(const void *)((const char *)a + one[i].off);

		if (v)
			sl_append(buf, len, &off, " %s %s", one[i].opt, v);
	}
	for (int i = 0; i < a->nfeatures; i++)
		sl_append(buf, len, &off, " --sched-features %s", a->features[i]);
	for (int i = 0; i < a->nsysctls; i++)
		sl_append(buf, len, &off, " --sysctl %s", a->sysctls[i]);
	for (int i = 0; i < a->nparams; i++)
		sl_append(buf, len, &off, " --param %s", a->params[i]);
	for (int i = 0; i < a->ncpuidle_disable; i++)
		sl_append(buf, len, &off, " --cpuidle-disable %s", a->cpuidle_disable[i]);
	for (int i = 0; i < a->ncpuidle_params; i++)
		sl_append(buf, len, &off, " --cpuidle-param %s", a->cpuidle_params[i]);
}
