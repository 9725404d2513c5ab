/*
 * The ftrace text writer: the layout of /sys/kernel/tracing/trace, with the 4-character flags
 * column and sched_waking before each sched_wakeup, which Perfetto's systrace importer needs.
 * A wake-up is written on the CPU that ran it, preceded by hrtimer_expire_entry (the task's
 * sleep timer) or irq_handler_entry (a device) when no task did, so that the trace workload
 * (src/workload/trace.c) tells who woke whom as it does in a kernel's trace.
 * What src/trace/ftrace_text.c reads back. The default writer: any name no other claims.
 */
#include "trace/format.h"
#include "machine/machine.h"

#include <stdarg.h>
#include <stdlib.h>

struct ftrace_out {
	int *cur; /* per CPU: the pid running there (0: idle) */
};

static int ftrace_open(struct sl_trace_writer *w)
{
	struct ftrace_out *x = calloc(1, sizeof(*x));

	if (!x || !(x->cur = calloc((size_t)w->sim->ncpu, sizeof(int)))) {
		free(x);
		return -1;
	}
	w->priv = x;
	fprintf(w->f,
		"# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n"
		"#                                _-----=> irqs-off\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| /     delay\n"
		"#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
		"#              | |         |   ||||      |         |\n",
		w->sim->ncpu);
	return 0;
}

/* One ftrace line: the task running on cpu is the line's context. */
static void line(struct sl_trace_writer *w, int cpu, u64 t, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void line(struct sl_trace_writer *w, int cpu, u64 t, const char *fmt, ...)
{
	struct ftrace_out *x = w->priv;
	int pid = cpu >= 0 && cpu < w->sim->ncpu ? x->cur[cpu] : 0;
	char c[40];
	va_list ap;

	snprintf(c, sizeof(c), "%s", pid ? sl_trace_writer_comm(w, pid) : "<idle>");
	fprintf(w->f, "%16s-%-7d [%03d] .... %6llu.%09llu: ", c, pid, cpu < 0 ? 0 : cpu,
		(unsigned long long)(t / NSEC_PER_SEC), (unsigned long long)(t % NSEC_PER_SEC));
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	fputc('\n', w->f);
}

static const char *state_str(char s)
{
	switch (s) {
	case 'S':
		return "S";
	case 'D':
		return "D";
	case 'X':
		return "X";
	default:
		return "R";
	}
}

static void ftrace_write_event(struct sl_trace_writer *w, const struct sl_event *ev)
{
	struct ftrace_out *x = w->priv;
	const char *comm = sl_trace_writer_comm(w, ev->pid);
	int prio = sl_trace_writer_prio(w, ev->pid);

	switch (ev->type) {
	case SL_EV_SWITCH:
		line(w, ev->cpu, ev->time,
		     "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
		     "next_comm=%s next_pid=%d next_prio=%d",
		     comm, ev->pid, prio, state_str(ev->prev_state),
		     sl_trace_writer_comm(w, ev->next_pid), ev->next_pid,
		     sl_trace_writer_prio(w, ev->next_pid));
		x->cur[ev->cpu] = ev->next_pid;
		break;
	case SL_EV_WAKEUP: {
		/* on the CPU the wake-up ran on, after what ran it: a task (the line's context),
		 * the task's sleep timer, or a device's interrupt, as a kernel's trace shows */
		int on = ev->orig_cpu >= 0 && ev->orig_cpu < w->sim->ncpu ? ev->orig_cpu : ev->cpu;

		if (ev->reason == SL_WAKE_SRC_TIMER)
			line(w, on, ev->time,
			     "hrtimer_expire_entry: hrtimer=%016x function=hrtimer_wakeup now=%llu",
			     (unsigned)ev->pid, (unsigned long long)ev->time);
		else if (ev->reason == SL_WAKE_SRC_IRQ)
			line(w, on, ev->time, "irq_handler_entry: irq=%d name=schedlab-dev", 16);
		line(w, on, ev->time, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03d", comm,
		     ev->pid, prio, ev->cpu);
		line(w, on, ev->time, "sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d", comm,
		     ev->pid, prio, ev->cpu);
		break;
	}
	case SL_EV_WAKEUP_NEW:
		line(w, ev->cpu, ev->time,
		     "sched_wakeup_new: comm=%s pid=%d prio=%d target_cpu=%03d", comm, ev->pid,
		     prio, ev->cpu);
		break;
	case SL_EV_FORK:
		line(w, ev->cpu, ev->time,
		     "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d", comm, ev->pid,
		     sl_trace_writer_comm(w, ev->next_pid), ev->next_pid);
		break;
	case SL_EV_EXEC:
		line(w, ev->cpu, ev->time,
		     "sched_process_exec: filename=/usr/bin/%s pid=%d old_pid=%d", comm, ev->pid,
		     ev->pid);
		break;
	case SL_EV_EXIT:
		line(w, ev->cpu, ev->time,
		     "sched_process_exit: comm=%s pid=%d prio=%d group_dead=true", comm, ev->pid,
		     prio);
		break;
	case SL_EV_MIGRATE:
		line(w, ev->cpu, ev->time,
		     "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", comm,
		     ev->pid, prio, ev->orig_cpu, ev->cpu);
		break;
	case SL_EV_IDLE:
		line(w, ev->cpu, ev->time, "cpu_idle: state=%u cpu_id=%d",
		     ev->state < 0 ? 4294967295U : (unsigned)ev->state, ev->cpu);
		break;
	default:
		break;
	}
}

static void ftrace_close(struct sl_trace_writer *w)
{
	struct ftrace_out *x = w->priv;

	free(x->cur);
	free(x);
	w->priv = NULL;
}

const struct sl_trace_writer_ops sl_ftrace_text_writer = {
	.name = "ftrace-text",
	.exts = {".txt", ".trace"},
	.open = ftrace_open,
	.write_event = ftrace_write_event,
	.close = ftrace_close,
};
