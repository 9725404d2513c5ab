/*
 * The sleep timers of each CPU (sleep_timers.c): what the timer_coalesce parameter's interrupt
 * looks through, kept per CPU as the kernel's hrtimer bases are.
 */
#ifndef SCHEDLAB_SLEEP_TIMERS_H
#define SCHEDLAB_SLEEP_TIMERS_H

#include <stdbool.h>

#include "sched/sched.h"

/* p's own timer fires on CPU cpu at when: a sleep's hrtimer, or a device's interrupt (irq) */
void sl_task_timer_arm(struct sl_sim *sim, struct sl_task *p, int cpu, u64 when, bool irq);
/* the sleep timer of CPU cpu that the same interrupt runs next, if any (timer_coalesce) */
struct sl_task *sl_next_expired_sleep(struct sl_sim *sim, int cpu);
/* frees every CPU's list (at the end of the simulation) */
void sl_sleep_timers_free(struct sl_sim *sim);

#endif
