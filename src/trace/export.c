#include "trace/export.h"
#include "machine/machine.h"
#include "sched/rt.h"
#include "core/outfile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sl_exporter {
	FILE *f; /* out.f */
	struct sl_outfile out;
	bool json, first, failed;
	int failed_errno;   /* errno of the first failed write, for the message */
	struct sl_sim *sim; /* written only to stop the run when the file cannot be written */
	int *cur;	    /* per CPU: the pid running there (0: idle) */
	u64 *run_since;	    /* per CPU: when it started (JSON slices) */
	int *idle_state;
	u64 *idle_since;
};

static const struct sl_task *task(const struct sl_exporter *x, int pid)
{
	return pid >= 1 && pid <= x->sim->ntasks ? x->sim->tasks[pid - 1] : NULL;
}

static const char *comm(const struct sl_exporter *x, int pid)
{
	const struct sl_task *t = task(x, pid);

	return pid == 0 ? "swapper" : t ? t->comm : "?";
}

static int prio(const struct sl_exporter *x, int pid)
{
	const struct sl_task *t = task(x, pid);

	/* the kernel's prio: 99 - rt_priority for SCHED_FIFO / SCHED_RR, 120 + nice otherwise */
	return pid == 0 ? 120 : t ? sl_task_prio(t) : 120;
}

struct sl_exporter *sl_export_open(const char *path, struct sl_sim *sim, char *err, size_t errlen)
{
	struct sl_exporter *x = calloc(1, sizeof(*x));
	size_t n = strlen(path);
	char e[4400];

	if (!x) {
		snprintf(err, errlen, "--trace-out: out of memory");
		return NULL;
	}
	x->json = n > 5 && !strcmp(path + n - 5, ".json");
	x->first = true;
	x->sim = sim;
	x->cur = calloc((size_t)sim->ncpu, sizeof(int));
	x->run_since = calloc((size_t)sim->ncpu, sizeof(u64));
	x->idle_state = calloc((size_t)sim->ncpu, sizeof(int));
	x->idle_since = calloc((size_t)sim->ncpu, sizeof(u64));
	if (!x->cur || !x->run_since || !x->idle_state || !x->idle_since ||
	    sl_outfile_open(&x->out, path, e, sizeof(e))) {
		if (!x->cur || !x->run_since || !x->idle_state || !x->idle_since)
			snprintf(err, errlen, "--trace-out: out of memory");
		else
			snprintf(err, errlen, "--trace-out %s", e);
		if (x->out.f)
			sl_outfile_abort(&x->out);
		free(x->cur);
		free(x->run_since);
		free(x->idle_state);
		free(x->idle_since);
		free(x);
		return NULL;
	}
	x->f = x->out.f;
	for (int c = 0; c < sim->ncpu; c++)
		x->idle_state[c] = -1;
	if (x->json) {
		fprintf(x->f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
		for (int c = 0; c < sim->ncpu; c++) {
			fprintf(x->f,
				"%s{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
				"\"args\":{\"name\":\"CPU %d\"}}",
				x->first ? "" : ",\n", c, c);
			x->first = false;
			fprintf(x->f,
				",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
				"\"args\":{\"name\":\"CPU %d idle\"}}",
				1000 + c, c);
		}
		fprintf(x->f, ",\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
			      "\"args\":{\"name\":\"schedlab\"}}");
	} else {
		fprintf(x->f,
			"# tracer: nop\n#\n# entries-in-buffer/entries-written: 0/0   #P:%d\n#\n"
			"#                                _-----=> irqs-off\n"
			"#                               / _----=> need-resched\n"
			"#                              | / _---=> hardirq/softirq\n"
			"#                              || / _--=> preempt-depth\n"
			"#                              ||| /     delay\n"
			"#           TASK-PID     CPU#  ||||   TIMESTAMP  FUNCTION\n"
			"#              | |         |   ||||      |         |\n",
			sim->ncpu);
	}
	return x;
}

/* One ftrace line: the task running on cpu is the line's context. */
static void line(struct sl_exporter *x, int cpu, u64 t, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void line(struct sl_exporter *x, int cpu, u64 t, const char *fmt, ...)
{
	int pid = cpu >= 0 && cpu < x->sim->ncpu ? x->cur[cpu] : 0;
	char c[40];
	va_list ap;

	snprintf(c, sizeof(c), "%s", pid ? comm(x, pid) : "<idle>");
	fprintf(x->f, "%16s-%-7d [%03d] .... %6llu.%09llu: ", c, pid, cpu < 0 ? 0 : cpu,
		(unsigned long long)(t / NSEC_PER_SEC), (unsigned long long)(t % NSEC_PER_SEC));
	va_start(ap, fmt);
	vfprintf(x->f, fmt, ap);
	va_end(ap);
	fputc('\n', x->f);
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

static void ftrace_event(struct sl_exporter *x, const struct sl_event *ev)
{
	switch (ev->type) {
	case SL_EV_SWITCH:
		line(x, ev->cpu, ev->time,
		     "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> "
		     "next_comm=%s next_pid=%d next_prio=%d",
		     comm(x, ev->pid), ev->pid, prio(x, ev->pid), state_str(ev->prev_state),
		     comm(x, ev->next_pid), ev->next_pid, prio(x, ev->next_pid));
		x->cur[ev->cpu] = ev->next_pid;
		break;
	case SL_EV_WAKEUP:
		line(x, ev->cpu, ev->time, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03d",
		     comm(x, ev->pid), ev->pid, prio(x, ev->pid), ev->cpu);
		line(x, ev->cpu, ev->time, "sched_wakeup: comm=%s pid=%d prio=%d target_cpu=%03d",
		     comm(x, ev->pid), ev->pid, prio(x, ev->pid), ev->cpu);
		break;
	case SL_EV_WAKEUP_NEW:
		line(x, ev->cpu, ev->time,
		     "sched_wakeup_new: comm=%s pid=%d prio=%d target_cpu=%03d", comm(x, ev->pid),
		     ev->pid, prio(x, ev->pid), ev->cpu);
		break;
	case SL_EV_FORK:
		line(x, ev->cpu, ev->time,
		     "sched_process_fork: comm=%s pid=%d child_comm=%s child_pid=%d",
		     comm(x, ev->pid), ev->pid, comm(x, ev->next_pid), ev->next_pid);
		break;
	case SL_EV_EXEC:
		line(x, ev->cpu, ev->time,
		     "sched_process_exec: filename=/usr/bin/%s pid=%d old_pid=%d", comm(x, ev->pid),
		     ev->pid, ev->pid);
		break;
	case SL_EV_EXIT:
		line(x, ev->cpu, ev->time,
		     "sched_process_exit: comm=%s pid=%d prio=%d group_dead=true", comm(x, ev->pid),
		     ev->pid, prio(x, ev->pid));
		break;
	case SL_EV_MIGRATE:
		line(x, ev->cpu, ev->time,
		     "sched_migrate_task: comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d",
		     comm(x, ev->pid), ev->pid, prio(x, ev->pid), ev->orig_cpu, ev->cpu);
		break;
	case SL_EV_IDLE:
		line(x, ev->cpu, ev->time, "cpu_idle: state=%u cpu_id=%d",
		     ev->state < 0 ? 4294967295U : (unsigned)ev->state, ev->cpu);
		break;
	default:
		break;
	}
}

static void json_sep(struct sl_exporter *x)
{
	fputs(x->first ? "" : ",\n", x->f);
	x->first = false;
}

static double us(u64 ns)
{
	return (double)ns / 1000.0;
}

static void json_slice(struct sl_exporter *x, int tid, const char *name, u64 from, u64 to)
{
	json_sep(x);
	fprintf(x->f,
		"{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":\"%s\",\"ts\":%.3f,\"dur\":%.3f}", tid,
		name, us(from), us(to - from));
}

static void json_event(struct sl_exporter *x, const struct sl_event *ev)
{
	char name[48];

	switch (ev->type) {
	case SL_EV_SWITCH: {
		int prev = x->cur[ev->cpu];

		if (prev) {
			snprintf(name, sizeof(name), "%s-%d", comm(x, prev), prev);
			json_slice(x, ev->cpu, name, x->run_since[ev->cpu], ev->time);
		}
		x->cur[ev->cpu] = ev->next_pid;
		x->run_since[ev->cpu] = ev->time;
		break;
	}
	case SL_EV_IDLE:
		if (ev->state >= 0) {
			x->idle_state[ev->cpu] = ev->state;
			x->idle_since[ev->cpu] = ev->time;
		} else if (x->idle_state[ev->cpu] >= 0) {
			const struct sl_cpuidle_driver *drv = x->sim->idle_drv;
			int s = x->idle_state[ev->cpu];

			json_slice(x, 1000 + ev->cpu,
				   s < drv->state_count ? drv->states[s].name : "?",
				   x->idle_since[ev->cpu], ev->time);
			x->idle_state[ev->cpu] = -1;
		}
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		json_sep(x);
		fprintf(x->f,
			"{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,\"name\":\"wakeup %s-%d\","
			"\"ts\":%.3f}",
			ev->cpu, comm(x, ev->pid), ev->pid, us(ev->time));
		break;
	default:
		break;
	}
}

void sl_export_event(void *ctx, const struct sl_event *ev)
{
	struct sl_exporter *x = ctx;

	if (x->failed)
		return;
	if (x->json)
		json_event(x, ev);
	else
		ftrace_event(x, ev);
	if (ferror(x->f)) {
		x->failed = true;
		x->failed_errno = errno;
		/* a full disk: stop the run now rather than simulate to the end for nothing */
		snprintf(x->sim->error, sizeof(x->sim->error), "--trace-out: write failed");
	}
}

bool sl_export_failed(const struct sl_exporter *x)
{
	return x && x->failed;
}

int sl_export_close(struct sl_exporter *x, bool ok, char *err, size_t errlen)
{
	int rc = 0;

	if (!x)
		return 0;
	if (x->json) {
		/* close the slices still open at the end */
		for (int c = 0; c < x->sim->ncpu; c++) {
			char name[48];

			if (x->cur[c]) {
				snprintf(name, sizeof(name), "%s-%d", comm(x, x->cur[c]),
					 x->cur[c]);
				json_slice(x, c, name, x->run_since[c], x->sim->now);
			}
		}
		fprintf(x->f, "\n]}\n");
	}
	if (ok && x->failed) {
		snprintf(err, errlen, "--trace-out %s: %s", x->out.path, strerror(x->failed_errno));
		sl_outfile_abort(&x->out);
		rc = -1;
	} else if (ok) {
		char e[4400];

		if (sl_outfile_commit(&x->out, e, sizeof(e))) {
			snprintf(err, errlen, "--trace-out %s", e);
			rc = -1;
		}
	} else {
		sl_outfile_abort(&x->out);
	}
	free(x->cur);
	free(x->run_since);
	free(x->idle_state);
	free(x->idle_since);
	free(x);
	return rc;
}
