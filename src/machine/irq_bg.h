/*
 * The machine's interrupt background (irq_bg_rate, irq_bg_run: docs/validate.md, "The
 * background, interrupts against tasks (issue 28, step 14)"): interrupts on every CPU that wake
 * no task, handled in interrupt context. No task is made and no scheduler decision happens.
 */
#ifndef SCHEDLAB_IRQ_BG_H
#define SCHEDLAB_IRQ_BG_H

#include "machine/machine.h"

/* rq's two timers set up (sl_machine_init_cpu) */
void sl_irq_bg_init_cpu(struct sl_sim *sim, struct sl_cpu *rq);
/* rq's first interrupt armed at the start of the run (nothing when irq_bg_rate is 0) */
void sl_irq_bg_start(struct sl_sim *sim, struct sl_cpu *rq);

#endif
