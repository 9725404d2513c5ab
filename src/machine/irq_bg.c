/*
 * The machine's interrupt background. A real vCPU of the measured guest leaves idle 50-200
 * times a second for an interrupt that wakes nothing (timers, IPIs, virtio; tools/
 * irq_background.py), and the same interrupts take their time from a running task. Each CPU
 * gets one every 1 / irq_bg_rate s, running irq_bg_run ns:
 *
 * - on an idle CPU the dispatch takes the CPU out of its C-state (the profile's exit latency,
 *   as every interrupt), the handler then holds the CPU out of idle for irq_bg_run, and the
 *   CPU goes back to idle (the governor selects again) unless a task was queued meanwhile;
 * - on a busy CPU the running task's burst ends irq_bg_run later (sl_machine_steal_quiet).
 *
 * A fixed period with a phase per CPU drawn from the seed, not a random arrival: the traces
 * give a rate, not the arrivals' law; the phase makes each run meet the workload's periodic
 * timers at its own point, as each real run does, and the period keeps the test exact. The
 * phase is its own splitmix step of the seed, so no other draw of the run changes.
 */
#include "machine/irq_bg.h"

static u64 period(const struct sl_sim *sim)
{
	return NSEC_PER_SEC / sl_machine_of(sim)->p->irq_bg_rate;
}

/* the handler's end on a CPU that was idle: back to idle unless something came meanwhile */
static void end_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_machine_cpu *mc = sl_container_of(t, struct sl_machine_cpu, irq_bg_end);
	struct sl_cpu *rq = &sim->cpus[mc->irq_bg_cpu];

	mc->irq_busy--;
	sl_machine_idle_if_done(sim, rq);
}

static void irq_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_cpu *rq = &sim->cpus[t->cpu];
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);
	u64 run = sl_machine_of(sim)->p->irq_bg_run_ns;

	sim->this_cpu = rq->id;
	sl_arm(sim, t, sim->now + period(sim));
	if (!run)
		return;
	if (rq->curr) {
		/* the interrupted task is charged the handler's time (no IRQ_TIME_ACCOUNTING);
		 * no update_curr: a real interrupt that wakes nothing runs no scheduler code, and
		 * the model's may reschedule */
		sl_machine_steal_quiet(sim, rq, run);
		return;
	}
	/* a second interrupt while the first is handled: the handler runs on from there */
	if (sl_timer_armed(&mc->irq_bg_end)) {
		sl_arm(sim, &mc->irq_bg_end, mc->irq_bg_end.expires + run);
	} else {
		mc->irq_busy++;
		sl_arm(sim, &mc->irq_bg_end, sim->now + run);
	}
	mc->busy_ns += run;
}

void sl_irq_bg_init_cpu(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	sl_timer_init(&mc->irq_bg, irq_fn, rq->id);
	/* an interrupt's, not a timer the governors see in the sleep length */
	mc->irq_bg.irq = true;
	/* the end is no event of the CPU: the dispatch must not take it out of idle for it */
	sl_timer_init(&mc->irq_bg_end, end_fn, -1);
	mc->irq_bg_cpu = rq->id;
}

void sl_irq_bg_start(struct sl_sim *sim, struct sl_cpu *rq)
{
	struct sl_machine *m = sl_machine_of(sim);
	u64 z = m->irq_bg_seed + 0x9e3779b97f4a7c15ULL * (2 + (u64)rq->id) + 0x69727162ULL;

	if (!m->p->irq_bg_rate)
		return;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z = (z ^ (z >> 31)) % period(sim);
	sl_arm(sim, &sl_mcpu(sim, rq->id)->irq_bg, z ? z : 1);
}
