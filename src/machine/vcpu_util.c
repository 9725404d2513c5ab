/*
 * The vcpu_pack_room parameter: where the measured kernel's non-mainline sched_vcpu_pack
 * boot option puts a task woken by another while a CPU is idle, as real traces of it show
 * (docs/validate.md, "Placement, from the recordings"; tools/wake_pack.py). Its source is
 * not known; what the traces show is a rule on utilizations: a wakee that last ran on
 * another CPU joins its waker when the waker is alone on its CPU, the wakee is small and the
 * two together leave room. The utilizations are PELT-like signals kept here, by the machine,
 * for every policy alike (and only while the parameter is set: the other runs do not pay for
 * them; wake_preempt_ratio and vcpu_pack_wait_hot read them too): a CPU's busy time and a task's
 * running time, decayed with a 32 ms half-life, on the 0..1024 scale of util_avg. Not the kernel's
 * code: a continuous decay, no 1 ms periods, no util_est, no frequency invariance.
 */
#include "machine/vcpu_util.h"

#include "machine/machine.h"

#define UTIL_SHIFT 20 /* fixed point: 1024 << UTIL_SHIFT is always busy */
#define UTIL_FULL  (1024ULL << UTIL_SHIFT)
#define UTIL_HALF  (32ULL * 1024000ULL) /* ns: 32 periods of 1024 us halve a signal */

/* 2^(-k/32) x 2^32 for k = 0..32, rounded: a 32nd of a half-life per entry (exact at 0, 32) */
static const u64 y_q32[33] = {
	4294967296u, 4202935003u, 4112874773u, 4024744348u, 3938502376u, 3854108391u, 3771522796u,
	3690706840u, 3611622603u, 3534232978u, 3458501653u, 3384393094u, 3311872529u, 3240905930u,
	3171459999u, 3103502151u, 3037000500u, 2971923842u, 2908241642u, 2845924021u, 2784941738u,
	2725266179u, 2666869345u, 2609723834u, 2553802834u, 2499080105u, 2445529972u, 2393127307u,
	2341847524u, 2291666561u, 2242560872u, 2194507417u, 2147483648u};

/* v (at most UTIL_FULL) after dt ns of decay; within a 32nd, linear between the entries */
static u64 decay(u64 v, u64 dt)
{
	u64 halves = dt / UTIL_HALF, rem = dt % UTIL_HALF;
	u64 k = rem * 32 / UTIL_HALF, sub = rem * 32 % UTIL_HALF;
	u64 f = y_q32[k] - (y_q32[k] - y_q32[k + 1]) * sub / UTIL_HALF;

	if (halves >= 64)
		return 0;
	return ((v >> halves) * f) >> 32;
}

/* the signal at now, from its value at t and whether it was on since */
static u64 signal_at(u64 v, u64 t, bool on, u64 now)
{
	u64 dt = now > t ? now - t : 0;

	return decay(v, dt) + (on ? UTIL_FULL - decay(UTIL_FULL, dt) : 0);
}

void sl_vcpu_util_switch(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev,
			 struct sl_task *next)
{
	if (!sl_machine_of(sim)->p->vcpu_pack_room && !sl_machine_of(sim)->p->wake_preempt_ratio &&
	    !sl_machine_of(sim)->p->vcpu_pack_wait_hot)
		return;
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	mc->util = signal_at(mc->util, mc->util_t, prev != NULL, sim->now);
	mc->util_t = sim->now;
	if (prev && sl_task_ext(sim, prev)) {
		struct sl_task_ext *x = sl_mtask(prev)->ext;

		x->util = signal_at(x->util, x->util_t, true, sim->now);
		x->util_t = sim->now;
	}
	if (next && sl_task_ext(sim, next)) {
		struct sl_task_ext *x = sl_mtask(next)->ext;

		x->util = signal_at(x->util, x->util_t, false, sim->now);
		x->util_t = sim->now;
	}
}

u64 sl_vcpu_util_cpu(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	const struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	return signal_at(mc->util, mc->util_t, rq->curr != NULL, sim->now) >> UTIL_SHIFT;
}

u64 sl_vcpu_util_task(const struct sl_sim *sim, const struct sl_task *p)
{
	const struct sl_task_ext *x = sl_mtask(p)->ext;

	if (!x)
		return 0;
	return signal_at(x->util, x->util_t, p->on_cpu, sim->now) >> UTIL_SHIFT;
}

bool sl_vcpu_util_ratio(const struct sl_sim *sim, const struct sl_task *a, const struct sl_task *b,
			u64 ratio)
{
	/* a quotient of integers: ua / ub >= R exactly when ua >= R ub, with no overflow */
	return (sl_vcpu_util_task(sim, a) + 1) / (sl_vcpu_util_task(sim, b) + 1) >= ratio;
}

int sl_vcpu_kprio(const struct sl_task *p)
{
	return p->rt_priority ? p->prio : 120 + p->nice;
}

/*
 * vcpu_pack_room_sum: the utilizations of the live tasks whose last CPU is cpu, running or not
 * (the kernel's cfs_rq util_avg keeps a sleeper's blocked contribution there until it wakes
 * elsewhere); a walk of every task, paid only by a machine that sets the flag
 */
u64 sl_vcpu_util_attached(const struct sl_sim *sim, int cpu)
{
	u64 sum = 0;

	for (int i = 0; i < sl_machine_of(sim)->ntasks; i++) {
		const struct sl_task *t = sl_sim_task(sim, i);

		if (t->cpu == cpu && t->state != TS_DEAD)
			sum += sl_vcpu_util_task(sim, t);
	}
	return sum;
}

int sl_vcpu_pack_room(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu)
{
	const struct sl_cpu *f;
	u64 up, uf;

	if (!sl_machine_of(sim)->p->vcpu_pack_room || !waker || from < 0 || from == cpu ||
	    p->cpu == from)
		return cpu;
	f = &sim->cpus[from];
	if (f->curr != waker || f->nr_running > 1 || !sl_rq_idle(&sim->cpus[cpu]) ||
	    !sl_cpu_allowed(p, from))
		return cpu;
	if (sl_machine_of(sim)->p->vcpu_pack_prio &&
	    (u64)sl_vcpu_kprio(p) >= sl_machine_of(sim)->p->vcpu_pack_prio)
		return cpu;
	up = sl_vcpu_util_task(sim, p);
	if (up >= sl_machine_of(sim)->p->vcpu_pack_small)
		return cpu;
	uf = sl_machine_of(sim)->p->vcpu_pack_room_sum ? sl_vcpu_util_attached(sim, from)
						       : sl_vcpu_util_cpu(sim, f);
	if (uf + up >= sl_machine_of(sim)->p->vcpu_pack_room)
		return cpu;
	return from;
}
