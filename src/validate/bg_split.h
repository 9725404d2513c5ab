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

#include <stdbool.h>
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

/*
 * The same split record by record, for a reader that reads the trace anyway (calibrate's
 * background trace, read by sl_vtrace_read_each): sl_bg_acc_init, every record of the trace in
 * order to sl_bg_acc_record, then sl_bg_acc_finish, or sl_bg_acc_free to drop it.
 */
struct sl_trace_record;
struct sl_bg_cpu;

struct sl_bg_acc {
	struct sl_bg_cpu *cpu; /* NULL: out of memory (sl_bg_acc_finish says so) */
	const char *const *skip;
	int nskip, ncpu;
	bool started;
	u64 first, last;
};

/* 0, or -1 when out of memory */
int sl_bg_acc_init(struct sl_bg_acc *a, const char *const *skip, int nskip);
void sl_bg_acc_record(struct sl_bg_acc *a, const struct sl_trace_record *r);
/* the split of the records given (s zeroed first), path naming the trace in err: 0, or -1 with
 * err; frees a */
int sl_bg_acc_finish(struct sl_bg_acc *a, struct sl_bg_split *s, const char *path, char *err,
		     size_t errlen);
void sl_bg_acc_free(struct sl_bg_acc *a);

#endif
