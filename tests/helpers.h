/* Test helpers: a simulation without workloads, and tasks placed by hand. */
#ifndef SCHEDLAB_TEST_HELPERS_H
#define SCHEDLAB_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "machine/machine.h"
#include "sched/cfs/cfs.h"

struct fixture {
	struct sl_config cfg;
	struct sl_sim *sim;
};

/* features: a debugfs write list applied after the release's defaults, or NULL */
static inline struct fixture *fixture_new(const char *kernel, const char *cpus,
					  const char *features)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sl_args a;
	char err[2048];

	assert_non_null(f);
	memset(&a, 0, sizeof(a));
	a.kernel = kernel;
	a.cpus = cpus;
	if (features) {
		a.features[0] = features;
		a.nfeatures = 1;
	}
	if (sl_config_build(&f->cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	f->sim = sl_sim_new(&f->cfg);
	assert_non_null(f->sim);
	return f;
}

static inline void fixture_free(struct fixture *f)
{
	sl_sim_free(f->sim);
	sl_config_free(&f->cfg);
	free(f);
}

/* A bare task (no program) on cpu, not queued. */
static inline struct sl_task *bare_task(int nice, int policy, int cpu)
{
	/* the machine's task around it, as every task the machine makes (freed through p) */
	struct sl_machine_task *mt = calloc(1, sizeof(*mt));
	struct sl_task *p;

	if (!mt)
		abort(); /* out of memory in a unit test: nothing to test */
	p = &mt->task;
	p->nice = nice;
	p->policy = (enum sl_policy)policy;
	p->cpu = cpu;
	sl_mtask(p)->last_cpu = -1;
	sl_mtask(p)->iowait_cpu = -1;
	p->state = TS_RUNNING;
	sl_set_load_weight(p);
	return p;
}

#endif
