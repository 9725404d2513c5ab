/*
 * The ftrace text writers, one code for three layouts (src/trace/ftrace_text.c reads all three
 * back; docs/model/formats.md §3):
 *  - ftrace-text (.txt, .trace, and any name no writer claims): /sys/kernel/tracing/trace as the
 *    simulated release writes it: the entries-in-buffer/entries-written counts and #P, 6.18's
 *    5-character flags, swapper/N, R+ and Z; for 2.6.3x no flags column and its
 *    sched_switch/sched_wakeup layouts;
 *  - systrace-text (.systrace): the same with 4 flag characters, which Perfetto's importer needs;
 *  - trace-cmd-report (.report): `trace-cmd report -t` (cpus=N, libtraceevent's sched plugin
 *    layouts), which traceshark reads.
 * Timestamps keep the run's nanoseconds (9 decimals; the kernel prints 6) so a run reads back
 * exactly. sched_waking precedes each sched_wakeup on 3.x+ (Perfetto draws arrows from it).
 * A wake-up is written on the CPU that ran it, preceded by hrtimer_expire_entry (the task's
 * sleep timer) or irq_handler_entry (a device) when no task did, so that the trace workload
 * (src/workload/trace.c) tells who woke whom as it does in a kernel's trace.
 */
#include "trace/format.h"
#include "machine/machine.h"
#include "sched/release.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum ftrace_mode {
	MODE_KERNEL,   /* /sys/kernel/tracing/trace of the simulated release */
	MODE_SYSTRACE, /* the same with a 4-character flags column (Perfetto's importer) */
	MODE_REPORT,   /* `trace-cmd report -t` with libtraceevent's sched plugin */
};

struct ftrace_out {
	enum ftrace_mode mode;
	bool old; /* a 2.6.3x release: its sched_switch/sched_wakeup layouts, no flags */
	int *cur; /* per CPU: the pid running there (0: idle) */
	FILE *out;
	long count_at; /* where the entries count is, patched at the end (-1: none) */
	u64 nlines;
	/* a wakee's sched_migrate_task, held until its wake-up's sched_waking is written: the
	 * kernel picks the CPU after sched_waking, and the simulator emits the move first */
	struct sl_event held;
	bool has_held;
};

static void header(struct sl_trace_writer *w, FILE *f);

static int ftrace_open_mode(struct sl_trace_writer *w, enum ftrace_mode mode)
{
	struct ftrace_out *x = calloc(1, sizeof(*x));

	if (!x || !(x->cur = calloc((size_t)w->sim->ncpu, sizeof(int)))) {
		free(x);
		return -1;
	}
	x->mode = mode;
	x->count_at = -1;
	x->old = mode == MODE_KERNEL && w->sim->rel && w->sim->rel->ftrace_2_6;
	x->out = w->f;
	w->priv = x;
	header(w, w->f);
	return 0;
}

static int ftrace_open(struct sl_trace_writer *w)
{
	return ftrace_open_mode(w, MODE_KERNEL);
}

static int systrace_open(struct sl_trace_writer *w)
{
	return ftrace_open_mode(w, MODE_SYSTRACE);
}

static int report_open(struct sl_trace_writer *w)
{
	return ftrace_open_mode(w, MODE_REPORT);
}

/* The header, now that the number of events is known. */
static void header(struct sl_trace_writer *w, FILE *f)
{
	struct ftrace_out *x = w->priv;

	if (x->mode == MODE_REPORT) {
		fprintf(f, "cpus=%d\n", w->sim->ncpu);
		return;
	}
	if (x->old) {
		/* 2.6.3x: no entries line, no flags column */
		fprintf(f, "# tracer: nop\n#\n#           TASK-PID    CPU#    TIMESTAMP  FUNCTION\n"
			   "#              | |       |          |         |\n");
		return;
	}
	/* the count is known at the end: a field wide enough for any count, patched then
	 * (the spaces after it end the line) */
	fprintf(f, "# tracer: nop\n#\n# entries-in-buffer/entries-written: ");
	x->count_at = ftell(f);
	fprintf(f, "%-48s\n#\n", "0/0");
	if (x->mode == MODE_SYSTRACE)
		fprintf(f, "#                                _-----=> irqs-off\n"
			   "#                               / _----=> need-resched\n"
			   "#                              | / _---=> hardirq/softirq\n"
			   "#                              || / _--=> preempt-depth\n"
			   "#                              ||| /     delay\n"
			   "#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
			   "#              | |         |   ||||      |         |\n");
	else
		fprintf(f, "#                                _-----=> irqs-off/BH-disabled\n"
			   "#                               / _----=> need-resched\n"
			   "#                              | / _---=> hardirq/softirq\n"
			   "#                              || / _--=> preempt-depth\n"
			   "#                              ||| / _-=> migrate-disable\n"
			   "#                              |||| /     delay\n"
			   "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
			   "#              | |         |   |||||     |         |\n");
}

/*
 * One ftrace line: the task running on cpu is the line's context; flags as 6.18 writes them for
 * the event (5 characters: irqs-off, need-resched, hard/softirq, preempt depth,
 * migrate-disable), cut to 4 for systrace, none for 2.6.3x.
 */
static void line(struct sl_trace_writer *w, int cpu, u64 t, const char *event, const char *flags,
		 const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void line(struct sl_trace_writer *w, int cpu, u64 t, const char *event, const char *flags,
		 const char *fmt, ...)
{
	struct ftrace_out *x = w->priv;
	int pid = cpu >= 0 && cpu < w->sim->ncpu ? x->cur[cpu] : 0;
	unsigned long long sec = t / NSEC_PER_SEC, ns = t % NSEC_PER_SEC;
	char c[40], name[48];
	va_list ap;

	snprintf(c, sizeof(c), "%s", pid ? sl_trace_writer_comm(w, pid) : "<idle>");
	if (x->mode == MODE_REPORT) {
		snprintf(name, sizeof(name), "%s:", event);
		fprintf(w->f, "%16s-%-5d [%03d] %5llu.%09llu: %-21s ", c, pid, cpu, sec, ns, name);
	} else if (x->old) {
		fprintf(w->f, "%16s-%-5d [%03d] %5llu.%09llu: %s: ", c, pid, cpu, sec, ns, event);
	} else {
		fprintf(w->f, "%16s-%-7d [%03d] %.*s %5llu.%09llu: %s: ", c, pid, cpu,
			x->mode == MODE_SYSTRACE ? 4 : 5, flags, sec, ns, event);
	}
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
	fputc('\n', w->f);
	x->nlines++;
}

/*
 * prev_state as the release prints it: a preempted task is "R+" on 6.x (TASK_REPORT_MAX,
 * __trace_sched_switch_state) and "R" on 2.6.3x; an exiting task's last switch is "Z" on 6.x
 * (its exit_state EXIT_ZOMBIE is in TASK_REPORT) and "x" on 2.6.3x (TASK_DEAD, 64).
 */
static const char *state_str(const struct ftrace_out *x, int pid, char s)
{
	if (!pid) /* the idle task is never preempted: R */
		return "R";
	switch (s) {
	case 'S':
		return "S";
	case 'D':
		return "D";
	case 'X':
		return x->old ? "x" : "Z";
	default:
		return x->old ? "R" : "R+";
	}
}

/* The comm of pid as the kernel names it in a field: the idle task is swapper/N since 3.x. */
static const char *field_comm(struct sl_trace_writer *w, int pid, int cpu, char *buf, size_t n)
{
	const struct ftrace_out *x = w->priv;

	if (pid || x->old)
		return sl_trace_writer_comm(w, pid);
	snprintf(buf, n, "swapper/%d", cpu);
	return buf;
}

/* sched_migrate_task of ev, on CPU on (the CPU whose code moved the task) */
static void migrate_line(struct sl_trace_writer *w, const struct sl_event *ev, int on)
{
	line(w, on, ev->time, "sched_migrate_task", "d..4.",
	     "comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", sl_trace_writer_comm(w, ev->pid),
	     ev->pid, sl_trace_writer_prio(w, ev->pid), ev->orig_cpu, ev->cpu);
}

/* the held move written where it was (its destination), when no wake-up of it came next */
static void flush_held(struct sl_trace_writer *w)
{
	struct ftrace_out *x = w->priv;

	if (x->has_held) {
		x->has_held = false;
		migrate_line(w, &x->held, x->held.cpu);
	}
}

static void ftrace_write_event(struct sl_trace_writer *w, const struct sl_event *ev)
{
	struct ftrace_out *x = w->priv;
	const char *comm = sl_trace_writer_comm(w, ev->pid);
	int prio = sl_trace_writer_prio(w, ev->pid);
	char pc[32], nc[32];
	const char *pcomm, *ncomm;
	int nprio;

	if (x->has_held &&
	    !(ev->type == SL_EV_WAKEUP && ev->pid == x->held.pid && ev->time == x->held.time))
		flush_held(w);
	switch (ev->type) {
	case SL_EV_SWITCH:
		pcomm = field_comm(w, ev->pid, ev->cpu, pc, sizeof(pc));
		ncomm = field_comm(w, ev->next_pid, ev->cpu, nc, sizeof(nc));
		nprio = sl_trace_writer_prio(w, ev->next_pid);
		if (x->mode == MODE_REPORT)
			line(w, ev->cpu, ev->time, "sched_switch", "",
			     "%s:%d [%d] %s ==> %s:%d [%d]", pcomm, ev->pid, prio,
			     state_str(x, ev->pid, ev->prev_state), ncomm, ev->next_pid, nprio);
		else if (x->old)
			line(w, ev->cpu, ev->time, "sched_switch", "",
			     "task %s:%d [%d] (%s) ==> %s:%d [%d]", pcomm, ev->pid, prio,
			     state_str(x, ev->pid, ev->prev_state), ncomm, ev->next_pid, nprio);
		else
			line(w, ev->cpu, ev->time, "sched_switch", "d..2.",
			     "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
			     "next_comm=%s next_pid=%d next_prio=%d",
			     pcomm, ev->pid, prio, state_str(x, ev->pid, ev->prev_state), ncomm,
			     ev->next_pid, nprio);
		x->cur[ev->cpu] = ev->next_pid;
		break;
	case SL_EV_WAKEUP: {
		/* on the CPU the wake-up ran on, after what ran it: a task (the line's context),
		 * the task's sleep timer, or a device's interrupt, as a kernel's trace shows */
		int on = ev->orig_cpu >= 0 && ev->orig_cpu < w->sim->ncpu ? ev->orig_cpu : ev->cpu;
		const char *hflags = x->old || x->mode == MODE_REPORT ? "" : "d.h1.";

		if (ev->reason == SL_WAKE_SRC_TIMER) {
			/* 2.6.3x and trace-cmd print now= before function=, 6.18 after */
			if (x->old || x->mode == MODE_REPORT)
				line(w, on, ev->time, "hrtimer_expire_entry", hflags,
				     "hrtimer=%016x now=%llu function=hrtimer_wakeup",
				     (unsigned)ev->pid, (unsigned long long)ev->time);
			else
				line(w, on, ev->time, "hrtimer_expire_entry", hflags,
				     "hrtimer=%016x function=hrtimer_wakeup now=%llu",
				     (unsigned)ev->pid, (unsigned long long)ev->time);
		} else if (ev->reason == SL_WAKE_SRC_IRQ) {
			line(w, on, ev->time, "irq_handler_entry", hflags,
			     "irq=%d name=schedlab-dev", 16);
		}
		if (x->old) {
			line(w, on, ev->time, "sched_wakeup", "",
			     "task %s:%d [%d] success=1 [%03d]", comm, ev->pid, prio, ev->cpu);
			break;
		}
		/* sched_waking (3.x on) first: Perfetto draws wake-up arrows from it; a deferred
		 * enqueue's (wake_enqueue_busy) was written at its SL_EV_WAKING. Then the wakee's
		 * move, on the CPU that ran the wake-up, as try_to_wake_up writes it */
		if (!ev->latency)
			line(w, on, ev->time, "sched_waking", "d..3.",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", comm, ev->pid, prio,
			     ev->cpu);
		if (x->has_held) {
			x->has_held = false;
			migrate_line(w, &x->held, on);
		}
		if (x->mode == MODE_REPORT)
			line(w, on, ev->time, "sched_wakeup", "", "%s:%d [%d] CPU:%03d", comm,
			     ev->pid, prio, ev->cpu);
		else
			line(w, on, ev->time, "sched_wakeup", "d..4.",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", comm, ev->pid, prio,
			     ev->cpu);
		break;
	}
	case SL_EV_WAKING:
		/* the call of a wake-up whose enqueue comes later (wake_enqueue_busy) */
		if (!x->old)
			line(w, ev->orig_cpu, ev->time, "sched_waking", "d..3.",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", comm, ev->pid, prio,
			     ev->cpu);
		break;
	case SL_EV_WAKEUP_NEW:
		if (x->mode == MODE_REPORT)
			line(w, ev->cpu, ev->time, "sched_wakeup_new", "", "%s:%d [%d] CPU:%03d",
			     comm, ev->pid, prio, ev->cpu);
		else if (x->old)
			line(w, ev->cpu, ev->time, "sched_wakeup_new", "",
			     "task %s:%d [%d] success=1 [%03d]", comm, ev->pid, prio, ev->cpu);
		else
			line(w, ev->cpu, ev->time, "sched_wakeup_new", "d..2.",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", comm, ev->pid, prio,
			     ev->cpu);
		break;
	case SL_EV_FORK:
		line(w, ev->cpu, ev->time, "sched_process_fork", ".....",
		     "comm=%s pid=%d child_comm=%s child_pid=%d", comm, ev->pid,
		     sl_trace_writer_comm(w, ev->next_pid), ev->next_pid);
		break;
	case SL_EV_EXEC:
		line(w, ev->cpu, ev->time, "sched_process_exec", ".....",
		     "filename=/usr/bin/%s pid=%d old_pid=%d", comm, ev->pid, ev->pid);
		break;
	case SL_EV_EXIT:
		line(w, ev->cpu, ev->time, "sched_process_exit", ".....",
		     "comm=%s pid=%d prio=%d group_dead=true", comm, ev->pid, prio);
		break;
	case SL_EV_MIGRATE:
		if (ev->reason == SL_MIGRATE_WAKE && !x->old) {
			x->held = *ev;
			x->has_held = true;
			break;
		}
		migrate_line(w, ev, ev->cpu);
		break;
	case SL_EV_IDLE:
		line(w, ev->cpu, ev->time, "cpu_idle", "d..1.", "state=%u cpu_id=%d",
		     ev->state < 0 ? 4294967295U : (unsigned)ev->state, ev->cpu);
		break;
	default:
		break;
	}
}

static void ftrace_close(struct sl_trace_writer *w)
{
	struct ftrace_out *x = w->priv;
	char cnt[64];

	flush_held(w);

	/*
	 * The end of the run: each busy CPU's scheduler tick there, in its task's context, as a
	 * kernel's trace shows ticks on a busy CPU. A reader counts a task's run time up to the
	 * last line it sees, so without it a task running at the end (8 hogs on 8 CPUs: from the
	 * start) would read back with the time since its last switch-in missing.
	 */
	for (int c = 0; c < w->sim->ncpu; c++) {
		const char *hflags = x->old || x->mode == MODE_REPORT ? "" : "d.h1.";
		unsigned long long now = (unsigned long long)w->sim->now;

		if (!x->cur[c])
			continue;
		if (x->old || x->mode == MODE_REPORT)
			line(w, c, w->sim->now, "hrtimer_expire_entry", hflags,
			     "hrtimer=%016x now=%llu function=tick_sched_timer", 0xf0000000u + c,
			     now);
		else
			line(w, c, w->sim->now, "hrtimer_expire_entry", hflags,
			     "hrtimer=%016x function=tick_sched_timer now=%llu", 0xf0000000u + c,
			     now);
	}

	/* the count of event lines into the header's field */
	if (x->count_at >= 0 && fflush(w->f) == 0) {
		long end = ftell(w->f);

		snprintf(cnt, sizeof(cnt), "%llu/%llu   #P:%d", (unsigned long long)x->nlines,
			 (unsigned long long)x->nlines, w->sim->ncpu);
		if (end >= 0 && fseek(w->f, x->count_at, SEEK_SET) == 0) {
			fprintf(w->f, "%-48s", cnt);
			fseek(w->f, end, SEEK_SET);
		}
	}
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

const struct sl_trace_writer_ops sl_systrace_text_writer = {
	.name = "systrace-text",
	.exts = {".systrace"},
	.open = systrace_open,
	.write_event = ftrace_write_event,
	.close = ftrace_close,
};

const struct sl_trace_writer_ops sl_trace_cmd_report_writer = {
	.name = "trace-cmd-report",
	.exts = {".report"},
	.open = report_open,
	.write_event = ftrace_write_event,
	.close = ftrace_close,
};
