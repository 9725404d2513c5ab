/*
 * What the measured guest's wake-up does once its task is enqueued, past the placement
 * (vcpu_pack.c): whether the wakee runs first, and whether the task it waits behind is held.
 * The traced kernel decides these far from mainline's rules in a few situations
 * (docs/validate.md); each rule is one such situation and one machine parameter, a rate per
 * 1000 measured from recordings or by calibrate, 0 (off) by default, the same for every
 * policy. A rule draws from the scheduler's generator only when its parameter is set and its
 * situation holds, so a run without it keeps the same sequence. A new rule is three small
 * functions (whether its parameters are set, its rate in the wake-up's situation, what it
 * does) and one row of the table at the end; the order of the rows is the order they apply
 * in, which is part of each rule's meaning (a later rule sees the wakee a rule before it let
 * run first, and the generator's numbers are drawn in that order).
 */
#include "machine/wake_rules.h"

#include "machine/machine.h"
#include "machine/params.h"
#include "machine/vcpu_pack.h"
#include "machine/vcpu_util.h"
#include "sched/class.h"
#include "sched/common.h"

#include <stdint.h>

/* a row's rate that acts without a draw of the generator (the policy's own check) */
#define NO_DRAW UINT64_MAX

/* the wakee runs first, forced past its policy's check */
static void wakee_first(struct sl_sim *sim, struct sl_wake *w)
{
	w->p->sched_class->wakee_first(sim, w->rq, w->p, true);
}

/*
 * The irq_wake_preempt parameters: an interrupt's wake-up of a task kept on the interrupt's own
 * CPU, which runs a task of the wakee's class, is decided by a measured rate alone (the
 * policy's check left out; 0: the policy decides). irq_wake_preempt_up is the rate where the
 * running task's utilization is wake_preempt_ratio times the wakee's or more: the traced
 * kernel lets such a wakee run at once 822 times in 1000, where the model's EEVDF let about
 * half and a good part of the rest preempt later; irq_wake_preempt the rate of the others
 * (docs/validate.md, the slow five per cent). The rate, or 0.
 */
static u64 irq_wake_preempt_rate(const struct sl_sim *sim, const struct sl_wake *w)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	const struct sl_cpu *rq = w->rq;
	const struct sl_task *p = w->p;

	if ((!mp->irq_wake_preempt && !mp->irq_wake_preempt_up) || w->waker || rq->id != w->from ||
	    !rq->curr || rq->need_resched || p->sched_class != rq->curr->sched_class ||
	    !p->sched_class->wakee_first)
		return 0;
	if (mp->irq_wake_preempt_up && mp->wake_preempt_ratio &&
	    sl_vcpu_util_ratio(sim, rq->curr, p, mp->wake_preempt_ratio))
		return mp->irq_wake_preempt_up;
	return mp->irq_wake_preempt;
}

/*
 * wake_preempt_all: the rates decide alone (the policy's own check is left out) for a wake-up
 * by the running task of its CPU, of its class, inside its first wake_preempt_window; with
 * wake_preempt_long_policy, not for a wakee asleep wake_preempt_sleep or more (a hand-off's
 * second half aside, which wake_preempt_again rates): those go to the policy's check. With
 * wake_again_policy a hand-off's second half goes there too, whatever its sleep.
 */
static bool wake_preempt_decides(const struct sl_sim *sim, const struct sl_wake *w)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	const struct sl_task *p = w->p, *waker = w->waker;

	if (w->again && mp->wake_again_policy)
		return false;
	if (!mp->wake_preempt_all || !waker || w->rq->curr != waker || w->rq->need_resched ||
	    p->sched_class != waker->sched_class || !p->sched_class->wakee_first ||
	    sim->now - sl_mtask(waker)->switched_in >= mp->wake_preempt_window_ns)
		return false;
	return !mp->wake_preempt_long_policy || (w->again && mp->wake_preempt_again) ||
	       sim->now - sl_mtask(p)->slept_at < mp->wake_preempt_sleep_ns;
}

/* the policy's own check, where no rule decided alone */
static u64 policy_rate(const struct sl_sim *sim, const struct sl_wake *w)
{
	(void)sim;
	return w->ruled || w->decides ? 0 : NO_DRAW;
}

/*
 * The machine's flags on the policy's check: irq_wake_unprotected for an interrupt's wake-up
 * onto the interrupt's own CPU, wake_skip_delayed for every wake-up
 */
static void policy_check(struct sl_sim *sim, struct sl_wake *w)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	int flags = w->wake_flags;

	if (mp->irq_wake_unprotected && !w->waker && w->rq->id == w->from)
		flags |= WF_UNPROTECTED;
	if (mp->wake_skip_delayed)
		flags |= WF_SKIP_DELAYED;
	sl_check_preempt_curr(sim, w->rq, w->p, flags);
}

/*
 * wake_preempt_ratio: the traces' rate follows the two tasks' sizes (docs/validate.md, step
 * 8): a waker many times its wakee's utilization lets it run first far more often than a
 * waker many times smaller. The row of the table for this wake-up, or 0 (the plain rate).
 */
static u64 wake_preempt_by_util(const struct sl_sim *sim, const struct sl_task *p,
				const struct sl_task *waker, bool short_sleep)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;

	if (!mp->wake_preempt_ratio || !waker)
		return 0;
	if (sl_vcpu_util_ratio(sim, waker, p, mp->wake_preempt_ratio))
		return short_sleep ? mp->wake_preempt_short_up : mp->wake_preempt_up;
	if (sl_vcpu_util_ratio(sim, p, waker, mp->wake_preempt_ratio))
		return short_sleep ? mp->wake_preempt_short_down : mp->wake_preempt_down;
	return 0;
}

/*
 * The wake_preempt parameter: the measured kernel lets a task woken onto its waker's own CPU
 * run first far more often than mainline 6.18's EEVDF rule would (docs/validate.md, "The
 * wake-up preemption of a waker"). Where the policy did not preempt, the wakee runs next
 * wake_preempt times in 1000 (a draw of the scheduler's generator, only in this situation);
 * with wake_preempt_short set, a wakee asleep under wake_preempt_sleep draws at that rate
 * instead (the traces' short sleepers preempt far more often than those asleep 1 ms or more),
 * at wake_preempt_short_late once the waker has run wake_preempt_short_run since its switch-in
 * (the longer it ran, the more often its wakee goes first), and with wake_preempt_again a
 * mutex's waiter woken by the release on its own CPU (again), unless wake_again_policy leaves
 * that one to the policy's check alone.
 */
static u64 wake_preempt_rate(const struct sl_sim *sim, const struct sl_wake *w)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	const struct sl_cpu *rq = w->rq;
	const struct sl_task *p = w->p, *waker = w->waker;
	u64 per1000 = mp->wake_preempt;
	bool short_sleep;
	u64 by_util;

	if (!waker || rq->curr != waker || rq->need_resched ||
	    p->sched_class != waker->sched_class || !p->sched_class->wakee_first ||
	    (w->again && mp->wake_again_policy))
		return 0;
	short_sleep = sim->now - sl_mtask(p)->slept_at < mp->wake_preempt_sleep_ns;
	by_util = wake_preempt_by_util(sim, p, waker, short_sleep);
	if (mp->wake_preempt_short && short_sleep)
		per1000 = mp->wake_preempt_short;
	if (mp->wake_preempt_short_run_ns && short_sleep &&
	    sim->now - sl_mtask(waker)->switched_in >= mp->wake_preempt_short_run_ns)
		per1000 = mp->wake_preempt_short_late;
	if (by_util)
		per1000 = by_util;
	if (w->again && mp->wake_preempt_again)
		per1000 = mp->wake_preempt_again;
	return per1000;
}

/* forced where the rates decide alone, or for wake_preempt_again's waiter */
static void wake_preempt(struct sl_sim *sim, struct sl_wake *w)
{
	w->p->sched_class->wakee_first(
		sim, w->rq, w->p,
		w->decides || (w->again && sl_machine_of(sim)->p->wake_preempt_again));
}

/*
 * The wake_move_preempt parameter: the traced kernel's moves of a wakee off its waker's CPU onto
 * the other, busy one are mostly followed by the wakee preempting there (docs/validate.md,
 * packed wakees): the placement sends it where it runs. A wake-up by a task of a task last on
 * the waker's CPU, placed on another CPU that runs a task of its class, is forced first there
 * at the rate.
 */
static u64 wake_move_preempt_rate(const struct sl_sim *sim, const struct sl_wake *w)
{
	const struct sl_cpu *rq = w->rq;
	u64 per1000 = sl_machine_of(sim)->p->wake_move_preempt;

	if (!per1000 || !w->waker || rq->id == w->from || w->prev != w->from || !rq->curr ||
	    rq->need_resched || w->p->sched_class != rq->curr->sched_class ||
	    !w->p->sched_class->wakee_first)
		return 0;
	return per1000;
}

/*
 * The wake_hold parameters: in the traced kernel a wakee left waiting behind a running task is
 * almost never let in later (docs/validate.md, packed wakees); the task runs on until it
 * blocks. While a hold lasts (the same run of the held task, before hold_until) a reschedule
 * of its CPU asked outside a wake-up's own decision (the tick, a renewal of its deadline) is
 * dropped.
 */
bool sl_wake_held(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	const struct sl_machine_cpu *mc = sl_mcpu(sim, rq->id);

	return mc->hold && rq->curr == mc->hold && !sl_machine_of(sim)->in_wakeup &&
	       sl_mtask(rq->curr)->switched_in == mc->hold_since && sim->now < mc->hold_until;
}

static u64 wake_hold_rate(const struct sl_sim *sim, const struct sl_wake *w)
{
	const struct sl_cpu *rq = w->rq;
	u64 per1000 = sl_machine_of(sim)->p->wake_hold;

	if (!per1000 || !rq->curr || rq->curr == w->p || rq->need_resched ||
	    w->p->sched_class != rq->curr->sched_class || sl_wake_held(sim, rq))
		return 0;
	return per1000;
}

static void wake_hold(struct sl_sim *sim, struct sl_wake *w)
{
	const struct sl_params *mp = sl_machine_of(sim)->p;
	struct sl_machine_cpu *mc = sl_mcpu(sim, w->rq->id);

	mc->hold = w->rq->curr;
	mc->hold_since = sl_mtask(w->rq->curr)->switched_in;
	mc->hold_until = mp->wake_hold_max_ns ? sim->now + mp->wake_hold_max_ns : UINT64_MAX;
}

/* whether each rule can apply with the machine's parameters (fixed for a run) */
static bool always(const struct sl_params *mp)
{
	(void)mp;
	return true;
}

static bool irq_wake_preempt_on(const struct sl_params *mp)
{
	return mp->irq_wake_preempt || mp->irq_wake_preempt_up;
}

static bool wake_preempt_on(const struct sl_params *mp)
{
	return mp->wake_preempt || mp->wake_preempt_short || mp->wake_preempt_short_late ||
	       mp->wake_preempt_ratio || mp->wake_preempt_again;
}

static bool wake_move_preempt_on(const struct sl_params *mp)
{
	return mp->wake_move_preempt;
}

static bool wake_hold_on(const struct sl_params *mp)
{
	return mp->wake_hold;
}

struct sl_wake_rule {
	/* the rule's parameters: whether one is set (else it is left out of the run) */
	bool (*on)(const struct sl_params *mp);
	/* in this wake-up's situation the rate per 1000, NO_DRAW, or 0 (the rule does not apply) */
	u64 (*rate)(const struct sl_sim *sim, const struct sl_wake *w);
	/* what it does when its draw comes out true */
	void (*act)(struct sl_sim *sim, struct sl_wake *w);
	/* where it applies it decides alone: the policy's own check is left out */
	bool alone;
	/* after the wake-up's decision: a reschedule asked then is subject to a hold */
	bool after;
};

/*
 * The rules in the order they apply: the interrupt's rate decides before the policy's check
 * (which it replaces), the rates for a task's wake-up see what the policy did, and the hold
 * comes last, once the wakee did not run first.
 */
static const struct sl_wake_rule rules[] = {
	{irq_wake_preempt_on, irq_wake_preempt_rate, wakee_first, true, false},
	{always, policy_rate, policy_check, false, false},
	{wake_preempt_on, wake_preempt_rate, wake_preempt, false, false},
	{wake_move_preempt_on, wake_move_preempt_rate, wakee_first, false, false},
	{wake_hold_on, wake_hold_rate, wake_hold, false, true},
};

_Static_assert(sizeof(rules) / sizeof(rules[0]) <= SL_WAKE_RULES_MAX,
	       "struct sl_machine's wake_rules holds every row");

/*
 * A wake-up goes through the rows that can apply in this run only: every run pays for the
 * policy's own check, a run with none of the rules' parameters set for nothing more.
 */
void sl_wake_rules_init(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);

	m->nwake_rules = 0;
	for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]); k++)
		if (rules[k].on(m->p))
			m->wake_rules[m->nwake_rules++] = &rules[k];
}

void sl_wake_rules(struct sl_sim *sim, struct sl_wake *w)
{
	struct sl_machine *m = sl_machine_of(sim);

	w->decides = wake_preempt_decides(sim, w);
	w->ruled = false;
	for (int k = 0; k < m->nwake_rules; k++) {
		const struct sl_wake_rule *r = m->wake_rules[k];
		u64 per1000;

		m->in_wakeup = !r->after;
		per1000 = r->rate(sim, w);
		if (!per1000)
			continue;
		w->ruled |= r->alone;
		if (per1000 == NO_DRAW || sl_per1000_draw(sim, per1000))
			r->act(sim, w);
	}
	m->in_wakeup = false;
}
