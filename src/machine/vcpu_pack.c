/*
 * Where the measured 2-vCPU guest puts a woken task, past its policy's choice. Its kernel has
 * a private boot option (sched_vcpu_pack) whose code is not known; its recordings show how it
 * places wake-ups in a few situations where mainline would not (docs/validate.md). Each rule is
 * one such situation and one machine parameter, a rate per 1000 measured from recordings or by
 * calibrate, 0 (off) by default, the same for every policy: it looks at the CPU the policy (and
 * the rules before it) chose and may change it. A rule draws from the scheduler's generator
 * only when its parameter is set and its situation holds, so a run without it keeps the same
 * sequence. A new rule is one function here and one row of the table at the end; the order of
 * the rows is the order they apply in, which is part of each rule's meaning (a later rule sees
 * the CPU an earlier one chose).
 */
#include "machine/vcpu_pack.h"

#include "core/rng.h"
#include "machine/machine.h"
#include "machine/params.h"
#include "machine/task_prog.h"
#include "machine/vcpu_util.h"
#include "sched/class.h"
#include "sched/release.h"

/*
 * The wake-up rules below that the measured kernel follows some times in 1000: one draw of the
 * scheduler's generator, true per1000 times in 1000. A rule draws only once its situation
 * holds, so a run without the parameter keeps the generator's sequence.
 */
bool sl_per1000_draw(struct sl_sim *sim, u64 per1000)
{
	return sl_rng_next(&sim->sched_rng) % 1000 < per1000;
}

/*
 * vcpu_pack_sis_gate: the measured kernel's both-busy moves show where the LLC's SIS_UTIL
 * idle-scan budget is > 0 and mostly not where it is 0 (docs/validate.md, issue 28 step 30), as
 * if the private patch acted inside select_idle_cpu's scan, which a budget of 0 skips. True
 * when the gate is set and the fair policy says the budget of cpu's LLC is 0; a policy without
 * such a budget (no idle_scan, or -1) never shuts it.
 */
static bool sis_gate_shut(struct sl_sim *sim, int cpu)
{
	const struct sl_sched_class *fair = sim->rel->fair;

	return sl_machine_of(sim)->p->vcpu_pack_sis_gate && fair->idle_scan &&
	       fair->idle_scan(sim, cpu) == 0;
}

/*
 * The vcpu_pack parameter: the observable effect of the measured kernel's non-mainline
 * sched_vcpu_pack boot option (docs/validate.md), not its code: a wake-up that the policy sends
 * to an idle CPU while the task's previous CPU runs something stays on the previous CPU
 * vcpu_pack times in 1000 (a draw of the scheduler's generator, only when the parameter is set).
 */
int sl_vcpu_pack(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker, int from,
		 int cpu)
{
	int prev = p->cpu;

	(void)waker; /* the rule holds for a task's and an interrupt's wake-up alike */
	(void)from;

	if (!sl_machine_of(sim)->p->vcpu_pack || prev < 0 || prev == cpu || !sim->cpus[prev].curr ||
	    !sl_rq_idle(&sim->cpus[cpu]) || !sl_cpu_allowed(p, prev))
		return cpu;
	return sl_per1000_draw(sim, sl_machine_of(sim)->p->vcpu_pack) ? prev : cpu;
}

/*
 * The vcpu_pack_irq parameter: an interrupt (the task's own sleep timer, armed where it slept)
 * on an idle CPU wakes a task that last ran there while another woken task waits to run there,
 * so the CPU is no longer idle and mainline's select_idle_sibling takes another, idle one. The
 * recordings of the 2-vCPU guest keep every such wake-up where it was (docs/workloads.md,
 * "Fresh recordings"): of 1000, vcpu_pack_irq stay (a draw, only in this situation).
 * vcpu_pack_irq_busy: the same interrupt on a CPU that runs another task. Mainline takes the
 * idle CPU; the recordings keep 87% there (docs/validate.md, issue 28, browser), which is what
 * keeps an Event thread's timer wake-up beside the task it interrupted.
 * vcpu_pack_irq_same: the rate instead where the running task's prio is the wakee's (the
 * recordings keep fewer of those: tools/wake_irq.py, docs/validate.md, "Keeping the
 * interrupt's wakee, and why it loses (issue 28)").
 * vcpu_pack_irq_alone: the rate instead where the running task is the CPU's only runnable task
 * (nr_running counts no delayed task): the recordings keep 95% of those and 36% of the others,
 * so what waits there, not the wakee or the runner, is what the patch looks at (issue 28, step
 * 19); with it set, _busy and _same are the rates with others waiting.
 */
int sl_vcpu_pack_irq(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		     int from, int cpu)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	const struct sl_task *curr;
	u64 per1000;

	if (waker || from < 0 || from == cpu || p->cpu != from || !sl_rq_idle(&sim->cpus[cpu]) ||
	    !sl_cpu_allowed(p, from))
		return cpu;
	curr = sim->cpus[from].curr;
	if (!curr)
		per1000 = mp->vcpu_pack_irq;
	else if (mp->vcpu_pack_irq_alone && sim->cpus[from].nr_running <= 1)
		per1000 = mp->vcpu_pack_irq_alone;
	else if (mp->vcpu_pack_irq_same && sl_vcpu_kprio(curr) == sl_vcpu_kprio(p))
		per1000 = mp->vcpu_pack_irq_same;
	else
		per1000 = mp->vcpu_pack_irq_busy;
	if (!per1000)
		return cpu;
	return sl_per1000_draw(sim, per1000) ? from : cpu;
}

/*
 * The vcpu_pack_irq_move parameter: on 2 CPUs both running a task, an interrupt on CPU from
 * wakes a task that last ran there while others wait there; mainline finds no idle CPU and
 * keeps it. The recordings send it to the other CPU when that CPU's task runs alone (nothing
 * waiting): 166 of 269, against 1-6% where nothing waits on from or something waits on the
 * other too (tools/wake_irq.py, issue 28 step 19): what waits on each vCPU, as with
 * vcpu_pack_irq_alone, is what the measured kernel compares. The observed effect, not the
 * kernel's code; a draw only in this situation.
 */
int sl_vcpu_pack_irq_move(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
			  int from, int cpu)
{
	u64 per1000 = sl_machine_of(sim)->p->vcpu_pack_irq_move;
	int other = 1 - from;

	if (!per1000 || waker || p->se.sched_delayed || sim->ncpu != 2 || from < 0 || from > 1 ||
	    cpu != from || p->cpu != from || !sim->cpus[from].curr ||
	    sim->cpus[from].nr_running < 2 || !sim->cpus[other].curr ||
	    sim->cpus[other].nr_running != 1 || !sl_cpu_allowed(p, other))
		return cpu;
	return sl_per1000_draw(sim, per1000) ? other : cpu;
}

/*
 * The vcpu_pack_waker parameter: the same boot option's second measured effect (calibrate's
 * free ping-pong, docs/validate.md): a wake-up by the task running on CPU from, of a task that
 * last ran on from too, that the policy sends to another, idle CPU stays on from
 * vcpu_pack_waker times in 1000 (a draw of the scheduler's generator, only when the parameter
 * is set and the situation is this one). A wakee last on the idle CPU goes there, as mainline:
 * measured, it joins its waker 0 to 11 times in 1000. With vcpu_pack_queued set, a wake-up
 * while other tasks are queued on from stays at that rate instead: the recordings of this
 * machine keep 99% of the wakees with the waker alone and 49% with others waiting there
 * (tools/wake_pack.py --fit, 403 of 827; docs/validate.md, "Lost lines").
 */
int sl_vcpu_pack_waker(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		       int from, int cpu)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	u64 per1000 = mp->vcpu_pack_waker;

	if (from >= 0 && mp->vcpu_pack_queued && sim->cpus[from].nr_running > 1)
		per1000 = mp->vcpu_pack_queued;
	if (!per1000 || !waker || from < 0 || from == cpu || p->cpu != from ||
	    sim->cpus[from].curr != waker || !sl_rq_idle(&sim->cpus[cpu]) ||
	    !sl_cpu_allowed(p, from))
		return cpu;
	return sl_per1000_draw(sim, per1000) ? from : cpu;
}

/*
 * The vcpu_pack_other parameter: the same option's effect on a wakee that last ran on another
 * CPU, as the recordings show it (tools/wake_pack.py --fit: 19.3% of such wake-ups by a waker
 * alone on its CPU joined it in the calibration half, 948 of 4913; 15.7% before the recording
 * harness's lost tasks were left out of the waiting): a wake-up by the one task runnable on
 * CPU from, of a task last elsewhere, that the policy sends to an idle CPU stays on from
 * vcpu_pack_other times in 1000 (a draw, only then). Why these and not others is not known:
 * one rate for all of them is what the traces give without a fit to a file. Once there, the
 * wakee stays with a waker that wakes it again by vcpu_pack_waker's rule.
 */
int sl_vcpu_pack_other(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		       int from, int cpu)
{
	if (!sl_machine_of(sim)->p->vcpu_pack_other || !waker || from < 0 || from == cpu ||
	    p->cpu == from || sim->cpus[from].curr != waker || sim->cpus[from].nr_running > 1 ||
	    !sl_rq_idle(&sim->cpus[cpu]) || !sl_cpu_allowed(p, from))
		return cpu;
	return sl_per1000_draw(sim, sl_machine_of(sim)->p->vcpu_pack_other) ? from : cpu;
}

/*
 * The vcpu_pack_busy parameter: on the 2-vCPU guest, with both vCPUs running a task, mainline's
 * select_task_rq_fair finds no idle CPU and leaves a wakee whose previous CPU is its waker's
 * there, yet the recordings move it to the other vCPU at 21% when more tasks wait on its
 * previous vCPU than on the other (1.5% otherwise; docs/validate.md, after step 6): the
 * observed effect, not its code. A task's wake-up that the policy leaves on the wakee's
 * previous CPU goes to the other vCPU vcpu_pack_busy times in 1000 then (a draw, only in this
 * situation); on any other number of CPUs the rule does nothing.
 */
int sl_vcpu_pack_busy(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu)
{
	u64 per1000 = sl_machine_of(sim)->p->vcpu_pack_busy;
	int other = 1 - cpu;

	(void)from; /* the waker's CPU need not be the wakee's previous one */

	/* a task still queued where it slept (EEVDF's delayed dequeue) is requeued there */
	if (!per1000 || !waker || p->se.sched_delayed || sim->ncpu != 2 || cpu < 0 || cpu > 1 ||
	    p->cpu != cpu || !sim->cpus[cpu].curr || sim->cpus[cpu].curr == p ||
	    !sim->cpus[other].curr || sim->cpus[cpu].nr_running <= sim->cpus[other].nr_running ||
	    !sl_cpu_allowed(p, other) || sis_gate_shut(sim, cpu))
		return cpu;
	return sl_per1000_draw(sim, per1000) ? other : cpu;
}

/* vcpu_pack_wait's rates split by what waits on the other CPU (any of the four lines set) */
static bool wait_split(const struct sl_params *mp)
{
	return mp->vcpu_pack_wait_alone || mp->vcpu_pack_wait_lower_alone ||
	       mp->vcpu_pack_wait_crowded || mp->vcpu_pack_wait_lower_crowded;
}

/*
 * vcpu_pack_wait's look at what waits on a CPU goes through the runnable tasks, not every task
 * the machine made: the machine's list of them (struct sl_machine's runnable), kept only while
 * the rule's parameters are set (fixed for a run). A task joins it when it becomes runnable
 * (sl_try_to_wake_up, wake_up_new_task) unless it is on it still, and leaves it at the first
 * look that finds it not runnable: so every runnable task is on it once, and the looks cost
 * what the runqueues hold plus, once, each task that went to sleep since.
 */
void sl_vcpu_pack_runnable(struct sl_sim *sim, struct sl_task *p)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	struct sl_machine *m = sl_machine_of(sim);

	if ((!mp->vcpu_pack_wait && !mp->vcpu_pack_wait_lower && !mp->vcpu_pack_wait_none &&
	     !mp->vcpu_pack_wait_hot && !wait_split(mp) && !mp->vcpu_pack_stay &&
	     !mp->vcpu_pack_join && !mp->vcpu_pack_stay_queued) ||
	    sl_mtask(p)->on_runnable)
		return;
	/* out of memory: sim->oom is set and the run stops */
	if (!sl_push_task(sim, &m->runnable, &m->nrunnable, &m->caprunnable, p))
		sl_mtask(p)->on_runnable = true;
}

/*
 * what waits on CPU cpu besides p (runnable, not running): 2 when a task whose prio is p's or
 * higher does, 1 when only lower ones do, 0 when none (whatever the list's order)
 */
static int waiting(struct sl_sim *sim, int cpu, const struct sl_task *p)
{
	struct sl_machine *m = sl_machine_of(sim);
	int found = 0;

	for (int i = 0; i < m->nrunnable;) {
		const struct sl_task *q = m->runnable[i];

		if (q->state != TS_RUNNING) {
			/* off the list: its last task takes slot i, looked at next */
			sl_mtask(q)->on_runnable = false;
			m->runnable[i] = m->runnable[--m->nrunnable];
			continue;
		}
		i++;
		if (q == p || q->cpu != cpu || q->on_cpu || q->se.sched_delayed ||
		    sim->cpus[cpu].curr == q)
			continue;
		if (sl_vcpu_kprio(q) <= sl_vcpu_kprio(p))
			return 2;
		found = 1;
	}
	return found;
}

/*
 * The vcpu_pack_wait parameter: on the 2-vCPU guest, with both vCPUs running a task, a task's
 * wake-up by the task running on its previous CPU, which the policy leaves there (mainline: no
 * idle CPU, prev is the waker's), goes to the other vCPU this many times in 1000 when a task
 * as important as the wakee or more waits there (the wakee would wait behind it): the
 * calibration half's recordings move 193 of 850 of these, 122 of 749 with only less important
 * tasks waiting and 60 of 4253 with none (tools/wake_situations.py, a task whose later lines
 * were lost not waiting; docs/validate.md, issue 28, the wake-up situations, and "Lost lines").
 * vcpu_pack_wait_lower: the same when only less important tasks wait there (122 of 749,
 * 162): the moves that part a waker and its wakee which
 * the model lacked most (tools/pair_flips.py; docs/validate.md, "Pairs made and unmade").
 * vcpu_pack_wait_none: the same when nothing waits there, the waker alone (60 of 4253, 14):
 * the moves that leave a wakee behind a busy vCPU (docs/validate.md, issue 28 step 15).
 * vcpu_pack_wait_hot: that none case with nothing waiting on the other vCPU either, whose busy
 * time (vcpu_util.c's signal) is vcpu_pack_hot_util or more: the recordings move 1-12 per 1000
 * under 768 of 1024 and 64-247 over it (step 28; tested, not adopted).
 * The observed effect, not the kernel's code; on any other number of CPUs it does nothing.
 */
int sl_vcpu_pack_wait(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	int other = 1 - cpu;
	int w;
	u64 per1000;

	if ((!mp->vcpu_pack_wait && !mp->vcpu_pack_wait_lower && !mp->vcpu_pack_wait_none &&
	     !mp->vcpu_pack_wait_hot && !wait_split(mp)) ||
	    !waker || p->se.sched_delayed || sim->ncpu != 2 || cpu < 0 || cpu > 1 || from != cpu ||
	    p->cpu != cpu || sim->cpus[cpu].curr != waker || !sim->cpus[other].curr ||
	    !sl_cpu_allowed(p, other) || sis_gate_shut(sim, from))
		return cpu;
	w = waiting(sim, cpu, p);
	per1000 = w == 2   ? mp->vcpu_pack_wait
		  : w == 1 ? mp->vcpu_pack_wait_lower
			   : mp->vcpu_pack_wait_none;
	if (w && wait_split(mp)) {
		bool crowded = waiting(sim, other, p) != 0;

		if (w == 2)
			per1000 = crowded ? mp->vcpu_pack_wait_crowded : mp->vcpu_pack_wait_alone;
		else
			per1000 = crowded ? mp->vcpu_pack_wait_lower_crowded
					  : mp->vcpu_pack_wait_lower_alone;
	}
	/* vcpu_pack_wait_hot: nothing waits on either side, and the other CPU has been busy */
	if (!w && mp->vcpu_pack_wait_hot && !waiting(sim, other, p) &&
	    sl_vcpu_util_cpu(sim, &sim->cpus[other]) >= mp->vcpu_pack_hot_util)
		per1000 = mp->vcpu_pack_wait_hot;
	if (!per1000)
		return cpu;
	return sl_per1000_draw(sim, per1000) ? other : cpu;
}

/*
 * The vcpu_pack_stay parameter: on the 2-vCPU guest, with both vCPUs running a task, a task's
 * wake-up by the task running alone on CPU from (nothing waits there), of a task last on the
 * other vCPU, whose task runs alone there too: mainline's wake_affine_weight compares the two
 * CPUs' PELT loads and often takes the waker's, yet the recordings leave the wakee on its
 * previous vCPU at 951-973 per 1000 on five sets, two kernel builds (tools/wake_situations.py,
 * "stayed on B"; docs/validate.md, issue 28 step 27), where the model's policy kept 835. A wake-up
 * the policy sends away from that previous CPU goes back to it this many times in 1000 (a draw only
 * then). vcpu_pack_join: the same wake-up where others wait behind the task on its previous vCPU
 * (the "join" case) goes to the waker's vCPU this many times in 1000 where the policy left it on
 * the previous one: 730 recorded (validate-v1300c's calibration half), 136 in the model without it.
 * Together with vcpu_pack_wait split by what waits on the other vCPU
 * (_alone, _crowded), the measured kernel seems to compare what waits on each vCPU: a wakee
 * goes where nothing waits, and stays where it was when both stand alike. What waits is
 * counted as vcpu_pack_wait counts it (a delayed task does not wait).
 * vcpu_pack_stay_queued: the same wake-up with others waiting behind the waker on its vCPU,
 * wherever B stands: mainline's load comparison takes the waker's vCPU at times (the model's
 * policy 23% in browser-long), the recordings leave the wakee on its previous vCPU at 962 per
 * 1000 (step 29). The observed effect, not the kernel's code; on any other number of CPUs it
 * does nothing.
 */
int sl_vcpu_pack_stay(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	u64 per1000 = mp->vcpu_pack_stay, join = mp->vcpu_pack_join;
	u64 stayq = mp->vcpu_pack_stay_queued;
	int prev = p->cpu;

	if ((!per1000 && !join && !stayq) || !waker || p->se.sched_delayed || sim->ncpu != 2 ||
	    from < 0 || from > 1 || prev != 1 - from || sim->cpus[from].curr != waker ||
	    !sim->cpus[prev].curr || sim->cpus[prev].curr == p || !sl_cpu_allowed(p, prev) ||
	    sis_gate_shut(sim, from))
		return cpu;
	if (waiting(sim, from, p)) {
		if (!stayq || cpu == prev)
			return cpu;
		return sl_per1000_draw(sim, stayq) ? prev : cpu;
	}
	if (waiting(sim, prev, p)) {
		if (!join || cpu == from || !sl_cpu_allowed(p, from))
			return cpu;
		return sl_per1000_draw(sim, join) ? from : cpu;
	}
	if (!per1000 || cpu == prev)
		return cpu;
	return sl_per1000_draw(sim, per1000) ? prev : cpu;
}

/* the rules in the order they apply: each sees the CPU the ones before it chose */
static int (*const rules[])(struct sl_sim *sim, const struct sl_task *p,
			    const struct sl_task *waker, int from, int cpu) = {
	sl_vcpu_pack,	   sl_vcpu_pack_waker, sl_vcpu_pack_other,
	sl_vcpu_pack_room, sl_vcpu_pack_busy,  sl_vcpu_pack_wait,
	sl_vcpu_pack_stay, sl_vcpu_pack_irq,   sl_vcpu_pack_irq_move,
};

int sl_vcpu_place(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		  int from, int cpu)
{
	for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]); k++)
		cpu = rules[k](sim, p, waker, from, cpu);
	return cpu;
}
