/*
 * cpuidle end to end: one CPU woken by a periodic timer every 10 ms, with nothing else, spends
 * almost all its idle time in the deepest state under every governor but poll, and poll costs
 * the most energy. haltpoll is a KVM guest's governor: it runs on the guest's two-state table.
 */
#include "helpers.h"
#include "experiment/run.h"

struct outcome {
	double deepest_share; /* of the idle time */
	double energy_j;
	u64 periods;
};

static struct outcome run_gov(const char *machine, const char *gov)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048];
	struct outcome o;

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.duration = "2s";
	a.machine = machine;
	a.governor = gov;
	a.workloads[a.nworkloads++] = "periodic:run=100us,period=10ms";
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	if (sl_run(&cfg, &r, err, sizeof(err)))
		fail_msg("%s", err);
	const struct sl_cpuidle_dev *dev = &sl_mcpu(r.sim, 0)->idle_dev;
	const struct sl_cpuidle_driver *drv = sl_machine_of(r.sim)->idle_drv;
	u64 idle = 0;

	for (int i = 0; i < drv->state_count; i++)
		idle += dev->time_ns[i];
	o.deepest_share = (double)dev->time_ns[drv->state_count - 1] / (double)idle;
	o.energy_j = (double)sl_cpuidle_cpu_energy_pj(r.sim, 0) / 1e12;
	o.periods = dev->periods;
	sl_run_free(&r);
	sl_config_free(&cfg);
	return o;
}

static void test_periodic_timer_goes_deep(void **state)
{
	static const char *const govs[] = {"ladder", "menu-2.6.31", "menu-tng",
					   "menu",   "teo",	    "oracle"};
	struct outcome poll = run_gov("nehalem", "poll");

	(void)state;
	/* 200 wake-ups in 2 s, plus the start */
	assert_true(poll.periods >= 200 && poll.periods <= 202);
	assert_true(poll.deepest_share < 0.01);
	for (size_t i = 0; i < SL_ARRAY_SIZE(govs); i++) {
		struct outcome o = run_gov("nehalem", govs[i]);

		if (o.deepest_share < 0.9)
			fail_msg("%s: only %.1f%% of idle in C6", govs[i], 100 * o.deepest_share);
		if (!(poll.energy_j > o.energy_j))
			fail_msg("%s: %.6f J is not below poll's %.6f J", govs[i], o.energy_j,
				 poll.energy_j);
	}
	struct outcome hp = run_gov("vm-haltpoll", "haltpoll"),
		       hpoll = run_gov("vm-haltpoll", "poll");

	assert_true(hp.deepest_share > 0.9);
	assert_true(hpoll.energy_j > hp.energy_j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_periodic_timer_goes_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
