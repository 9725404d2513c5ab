/*
 * The host's functions a policy plug-in calls (struct schedlab_host, include/schedlab/policy.h):
 * each takes the machine handle (the simulation) and answers from the machine's own state, so
 * that a policy never reads a struct of this program. A feature read goes through sched_feat,
 * which records it: the sweep's reuse of runs that agree on every flag they read holds for a
 * plug-in's flags as for the in-tree ones.
 */
#include "sched/plugin/plugin.h"
#include "sched/class.h"
#include "sched/common.h"

#define SIM(s) ((struct sl_sim *)(void *)(s))
#define P(t)   ((struct sl_task *)(void *)(t))

static int h_nr_cpus(struct schedlab_sched *s)
{
	return SIM(s)->ncpu;
}

static uint64_t h_now(struct schedlab_sched *s)
{
	return SIM(s)->now;
}

static uint64_t h_tick_ns(struct schedlab_sched *s)
{
	return SIM(s)->tick_ns;
}

static bool h_feature(struct schedlab_sched *s, int i)
{
	const struct sl_sim *sim = SIM(s);

	if (i < 0 || i >= sl_plugin_of(sim)->pol->nr_features)
		return false;
	return sched_feat(sim, SL_FEAT_OWN(i));
}

static int64_t h_sysctl(struct schedlab_sched *s, int i)
{
	const struct sl_sim *sim = SIM(s);
	const struct sl_plugin *pl = sl_plugin_of(sim);

	if (i < 0 || i >= pl->pol->nr_sysctls)
		return 0;
	/* kept as the kernel's unsigned int (sysctl.c): a negative bound makes it an int */
	u64 v = sim->tun.policy[i];

	return pl->sysctls[i].is_int ? (int64_t)(s32)(u32)v : (int64_t)(u32)v;
}

static void *h_global(struct schedlab_sched *s)
{
	return sl_plugin_state(SIM(s))->global;
}

static void *h_cpu_data(struct schedlab_sched *s, int cpu)
{
	const struct sl_sim *sim = SIM(s);
	const struct sl_plugin_state *st = sl_plugin_state(sim);

	if (!st->cpus || cpu < 0 || cpu >= sim->ncpu)
		return NULL;
	return st->cpus + (size_t)cpu * sl_plugin_of(sim)->pol->cpu_size;
}

static void *h_task_data(struct schedlab_sched *s, struct schedlab_task *t)
{
	return t ? sl_plugin_task_area(SIM(s), P(t)) : NULL;
}

static bool cpu_ok(const struct sl_sim *sim, int cpu)
{
	return cpu >= 0 && cpu < sim->ncpu;
}

static struct schedlab_task *h_cpu_curr(struct schedlab_sched *s, int cpu)
{
	const struct sl_sim *sim = SIM(s);
	struct sl_task *p = cpu_ok(sim, cpu) ? sim->cpus[cpu].curr : NULL;

	return p && p->sched_class == &sl_plugin_class ? (struct schedlab_task *)(void *)p : NULL;
}

static bool h_cpu_idle(struct schedlab_sched *s, int cpu)
{
	const struct sl_sim *sim = SIM(s);

	return cpu_ok(sim, cpu) && !sim->cpus[cpu].curr && !sim->cpus[cpu].need_resched;
}

static unsigned h_cpu_nr_running(struct schedlab_sched *s, int cpu)
{
	const struct sl_sim *sim = SIM(s);

	return cpu_ok(sim, cpu) ? (unsigned)sim->cpus[cpu].nr_running : 0;
}

static int h_cpu_socket(struct schedlab_sched *s, int cpu)
{
	const struct sl_sim *sim = SIM(s);

	return cpu_ok(sim, cpu) ? sim->cpus[cpu].socket : -1;
}

static void h_resched_cpu(struct schedlab_sched *s, int cpu)
{
	struct sl_sim *sim = SIM(s);

	if (cpu_ok(sim, cpu))
		sl_resched_cpu(sim, &sim->cpus[cpu]);
}

static int h_task_pid(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	return P(t)->pid;
}

static int h_task_nice(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	return P(t)->nice;
}

static uint64_t h_task_weight(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	return sl_prio_to_weight[P(t)->nice + 20];
}

static int h_task_policy(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	switch (P(t)->policy) {
	case SL_SCHED_BATCH:
		return SCHEDLAB_POLICY_BATCH;
	case SL_SCHED_IDLE:
		return SCHEDLAB_POLICY_IDLE;
	default:
		return SCHEDLAB_POLICY_NORMAL;
	}
}

static int h_task_cpu(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	return P(t)->cpu;
}

static bool h_task_allowed(struct schedlab_sched *s, struct schedlab_task *t, int cpu)
{
	return cpu_ok(SIM(s), cpu) && sl_cpu_allowed(P(t), cpu);
}

static bool h_task_running(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	return P(t)->on_cpu;
}

static uint64_t h_task_runtime(struct schedlab_sched *s, struct schedlab_task *t)
{
	(void)s;
	return P(t)->se.sum_exec_runtime;
}

static int h_migrate(struct schedlab_sched *s, struct schedlab_task *t, int cpu)
{
	return sl_plugin_migrate(SIM(s), P(t), cpu);
}

const struct schedlab_host sl_plugin_host = {
	.abi = SCHEDLAB_POLICY_ABI,
	.nr_cpus = h_nr_cpus,
	.now = h_now,
	.tick_ns = h_tick_ns,
	.feature = h_feature,
	.sysctl = h_sysctl,
	.global = h_global,
	.cpu_data = h_cpu_data,
	.task_data = h_task_data,
	.cpu_curr = h_cpu_curr,
	.cpu_idle = h_cpu_idle,
	.cpu_nr_running = h_cpu_nr_running,
	.cpu_socket = h_cpu_socket,
	.resched_cpu = h_resched_cpu,
	.task_pid = h_task_pid,
	.task_nice = h_task_nice,
	.task_weight = h_task_weight,
	.task_policy = h_task_policy,
	.task_cpu = h_task_cpu,
	.task_allowed = h_task_allowed,
	.task_running = h_task_running,
	.task_runtime = h_task_runtime,
	.migrate = h_migrate,
};
