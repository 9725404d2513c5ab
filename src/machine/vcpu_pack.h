/*
 * The measured guest's wake-up placement rules (vcpu_pack.c), each a machine parameter's
 * situation: on the CPU cpu that the policy chose for p, woken by waker (NULL: an interrupt)
 * from CPU from, each returns the CPU the task goes to.
 */
#ifndef SCHEDLAB_VCPU_PACK_H
#define SCHEDLAB_VCPU_PACK_H

#include <stdbool.h>

#include "sched/sched.h"

/* every rule in its order: what sl_try_to_wake_up applies to the policy's choice */
int sl_vcpu_place(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		  int from, int cpu);
/* p became runnable: vcpu_pack_wait's list of the runnable tasks takes it (vcpu_pack.c) */
void sl_vcpu_pack_runnable(struct sl_sim *sim, struct sl_task *p);
/* one draw of the scheduler's generator: true per1000 times in 1000 */
bool sl_per1000_draw(struct sl_sim *sim, u64 per1000);

/* vcpu_pack: a wake-up sent to an idle CPU stays on the task's previous, busy CPU */
int sl_vcpu_pack(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker, int from,
		 int cpu);
/* vcpu_pack_waker (vcpu_pack_queued): a task's wake-up kept on its and the waker's CPU */
int sl_vcpu_pack_waker(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		       int from, int cpu);
/* vcpu_pack_irq (vcpu_pack_irq_busy): an interrupt's wake-up stays on the task's CPU */
int sl_vcpu_pack_irq(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		     int from, int cpu);
/* vcpu_pack_irq_move: both CPUs busy, an interrupt's wakee leaves its crowded CPU */
int sl_vcpu_pack_irq_move(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
			  int from, int cpu);
/* vcpu_pack_busy: both CPUs busy, a wakee leaves the more crowded one */
int sl_vcpu_pack_busy(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu);
/* vcpu_pack_wait: both CPUs busy, a wakee leaves its waker's CPU where one as important waits */
int sl_vcpu_pack_wait(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu);
/* vcpu_pack_stay: both CPUs busy, a wakee stays on its previous CPU whose task runs alone */
int sl_vcpu_pack_stay(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu);
/* vcpu_pack_other: a task last elsewhere joins a waker alone on its CPU */
int sl_vcpu_pack_other(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		       int from, int cpu);

#endif
