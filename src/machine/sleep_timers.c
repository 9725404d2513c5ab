/*
 * The timer_coalesce parameter: an hrtimer interrupt runs every timer of its CPU whose soft
 * expiry (the sleep's own end, the window's start) has passed, in the order of their hard
 * expiries (the window's end, where task_prog.c's sleep_expiry arms it: timer_slack_ns later
 * for a task that is not real-time). Which timers those are is a look through the sleep timers
 * of that CPU: each CPU keeps the tasks whose own timer was last armed there as a sleep's (not
 * a device's interrupt), so the look costs what the CPU holds, not every task of the machine.
 * Kept only with the parameter set (it is fixed for a run), so the other runs pay nothing.
 *
 * A list holds more than the armed timers: a timer that fired or was cancelled leaves its task
 * there until the next look through that CPU drops it. Only sl_task_timer_arm arms a task's
 * timer anew (the dispatch's re-arm behind a C-state's exit follows the pop at once, before
 * any look), and it adds the task to its CPU's list, moving it from another's: so every task
 * whose timer is armed on a CPU as a sleep's is on that CPU's list, once. The result does not
 * depend on the list's order: the earliest (hard expiry, then arming sequence) wins, and no two
 * timers share a sequence.
 */
#include "machine/sleep_timers.h"

#include "machine/machine.h"
#include "machine/params.h"
#include "machine/task_prog.h"

#include <stdlib.h>

/* q goes to slot j of its CPU's list */
static void put(struct sl_machine_cpu *mc, int j, struct sl_task *q)
{
	mc->sleepers[j] = q;
	sl_mtask(q)->sleep_slot = j + 1;
}

static void drop(struct sl_machine_cpu *mc, struct sl_task *q)
{
	int i = sl_mtask(q)->sleep_slot - 1;

	sl_mtask(q)->sleep_slot = 0;
	if (i != --mc->nsleepers)
		put(mc, i, mc->sleepers[mc->nsleepers]);
}

void sl_task_timer_arm(struct sl_sim *sim, struct sl_task *p, int cpu, u64 when, bool irq)
{
	struct sl_timer *t = &sl_mtask(p)->timer;

	if (sl_machine_of(sim)->p->timer_coalesce) {
		if (sl_mtask(p)->sleep_slot && (irq || t->cpu != cpu))
			drop(sl_mcpu(sim, t->cpu), p);
		if (!irq && !sl_mtask(p)->sleep_slot) {
			struct sl_machine_cpu *mc = sl_mcpu(sim, cpu);

			/* out of memory: sim->oom is set and the run stops */
			if (!sl_push_task(sim, &mc->sleepers, &mc->nsleepers, &mc->capsleepers, p))
				sl_mtask(p)->sleep_slot = mc->nsleepers;
		}
	}
	t->cpu = cpu; /* hrtimers are per CPU */
	t->irq = irq;
	sl_arm(sim, t, when);
}

struct sl_task *sl_next_expired_sleep(struct sl_sim *sim, int cpu)
{
	u64 slack = sl_machine_of(sim)->p->timer_slack_ns;
	struct sl_machine_cpu *mc = sl_mcpu(sim, cpu);
	struct sl_task *best = NULL;

	for (int i = 0; i < mc->nsleepers;) {
		struct sl_task *q = mc->sleepers[i];
		const struct sl_timer *t = &sl_mtask(q)->timer;
		bool rt = q->policy == SL_SCHED_FIFO || q->policy == SL_SCHED_RR;
		u64 soft = rt || t->expires < slack ? t->expires : t->expires - slack;

		if (!sl_timer_armed(t)) {
			drop(mc, q); /* slot i now holds the list's last task: look at it next */
			continue;
		}
		i++;
		if (t->exit_delayed || sl_mtask(q)->blocked != BLK_TIMER || soft > sim->now)
			continue;
		if (!best || t->expires < sl_mtask(best)->timer.expires ||
		    (t->expires == sl_mtask(best)->timer.expires &&
		     t->seq < sl_mtask(best)->timer.seq))
			best = q;
	}
	return best;
}

void sl_sleep_timers_free(struct sl_sim *sim)
{
	for (int c = 0; c < sim->ncpu && sl_machine_of(sim)->cpus; c++)
		free(sl_mcpu(sim, c)->sleepers);
}
