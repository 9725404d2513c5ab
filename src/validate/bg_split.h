/*
 * The machine's background of a trace split in two (docs/validate.md, "The background,
 * interrupts against tasks (issue 28, step 14)"), as tools/irq_background.py splits it:
 * interrupt-only idle exits (an idle exit followed by the CPU's next idle entry with no switch
 * on it between) per second of idle time and their length, and the switch-ins of tasks other
 * than the idle task and the ones named per second of the window and their runs. The window
 * is the first sched_ line to the last line. Figures are the mean over the CPUs (a length over
 * the CPUs that have one).
 */
#ifndef SCHEDLAB_BG_SPLIT_H
#define SCHEDLAB_BG_SPLIT_H

#include <stddef.h>
#include <schedlab/types.h>

struct sl_bg_split {
	int ncpu;
	u64 irq_rate_milli;  /* interrupt-only exits per 1000 s of idle time */
	u64 irq_run_ns;	     /* their mean length */
	u64 task_rate_milli; /* background switch-ins per 1000 s */
	u64 task_run_ns;     /* their mean run */
};

/* reads path, the tasks named skip[0..nskip) not counted: 0, or -1 with err */
int sl_bg_split_read(struct sl_bg_split *s, const char *path, const char *const *skip, int nskip,
		     char *err, size_t errlen);

#endif
