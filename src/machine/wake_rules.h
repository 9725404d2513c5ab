/*
 * The measured guest's wake-up preemption rules (wake_rules.c): what a wake-up does, past the
 * placement (vcpu_pack.c), once its task is enqueued on the CPU chosen.
 */
#ifndef SCHEDLAB_WAKE_RULES_H
#define SCHEDLAB_WAKE_RULES_H

#include <stdbool.h>

#include "sched/sched.h"

/* one wake-up as the rules see it: p, enqueued on rq, woken by waker (NULL: an interrupt) */
struct sl_wake {
	struct sl_cpu *rq;
	struct sl_task *p;
	const struct sl_task *waker;
	int from; /* the CPU the wake-up ran on */
	int prev; /* p's CPU before the placement */
	int wake_flags;
	bool again; /* a mutex's waiter woken on the releasing task's CPU, kept there */
	/* set by sl_wake_rules: */
	bool decides; /* wake_preempt_all: the rates decide alone (the policy's check left out) */
	bool ruled;   /* a rule that decides alone applied (whatever its draw gave) */
};

#define SL_WAKE_RULES_MAX 8 /* rows of the table, at most */

/* the rows that can apply with sim's parameters (fixed for a run), kept in struct sl_machine */
void sl_wake_rules_init(struct sl_sim *sim);
/* those rows in their order (the policy's own check is one of them) */
void sl_wake_rules(struct sl_sim *sim, struct sl_wake *w);
/* wake_hold: rq's running task is held (a reschedule asked outside a wake-up is dropped) */
bool sl_wake_held(const struct sl_sim *sim, const struct sl_cpu *rq);

#endif
