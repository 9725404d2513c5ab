/*
 * The background split (bg_split.h). One pass over the trace; per CPU: whether it idles, since
 * when, the exit that may turn out interrupt-only, the background task running and since when.
 */
#include "validate/bg_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/format.h"

#define BG_MAX_CPUS 256

struct bg_cpu {
	bool idle, exited;
	u64 entry, exit;
	u64 idle_ns, exits, exit_ns;
	int task_pid; /* the background task running (0: none) */
	u64 task_since;
	u64 tasks, task_ns;
};

static bool skipped(const char *comm, const char *const *skip, int nskip)
{
	for (int i = 0; i < nskip; i++)
		if (!strcmp(comm, skip[i]))
			return true;
	return false;
}

static void on_idle(struct bg_cpu *c, const struct sl_trace_record *r)
{
	if (r->state < 0) {
		if (c->idle) {
			c->idle_ns += r->time - c->entry;
			c->exit = r->time;
			c->exited = true;
		}
		c->idle = false;
		return;
	}
	if (c->exited) {
		c->exits++;
		c->exit_ns += r->time - c->exit;
	}
	c->exited = false;
	c->idle = true;
	c->entry = r->time;
}

static void on_switch(struct bg_cpu *c, const struct sl_trace_record *r, const char *const *skip,
		      int nskip)
{
	c->exited = false;
	if (c->task_pid && r->task_pid == c->task_pid) {
		c->task_ns += r->time - c->task_since;
		c->task_pid = 0;
	}
	if (r->next_pid > 0 && !skipped(r->next_comm, skip, nskip)) {
		c->tasks++;
		c->task_pid = r->next_pid;
		c->task_since = r->time;
	}
}

int sl_bg_split_read(struct sl_bg_split *s, const char *path, const char *const *skip, int nskip,
		     char *err, size_t errlen)
{
	struct bg_cpu *cpu = calloc(BG_MAX_CPUS, sizeof(*cpu));
	struct sl_trace_reader rd;
	struct sl_trace_record rec;
	u64 first = 0, last = 0;
	bool started = false;
	int rc, ncpu = 0;

	memset(s, 0, sizeof(*s));
	if (!cpu) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (sl_trace_open(&rd, NULL, path, false, err, errlen)) {
		free(cpu);
		return -1;
	}
	while ((rc = sl_trace_next(&rd, &rec)) == 1) {
		int c = rec.kind == SL_TR_CPU_IDLE ? rec.cpu_id : rec.cpu;

		/* the events may be turned on one by one: before the first sched_ line every
		 * exit would look interrupt-only */
		if (!started && !strncmp(rec.event, "sched_", 6)) {
			started = true;
			first = rec.time;
		}
		if (!started || c < 0 || c >= BG_MAX_CPUS)
			continue;
		last = rec.time;
		if (c >= ncpu)
			ncpu = c + 1;
		if (rec.kind == SL_TR_CPU_IDLE)
			on_idle(&cpu[c], &rec);
		else if (rec.kind == SL_TR_SCHED_SWITCH)
			on_switch(&cpu[c], &rec, skip, nskip);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s", rd.err);
	sl_trace_close(&rd);
	if (!rc && (!started || last <= first)) {
		snprintf(err, errlen,
			 "%s: expected sched_switch and cpu_idle lines, found no window", path);
		rc = -1;
	}
	u64 idle_rate = 0, irq_run = 0, task_rate = 0, task_run = 0;
	int with_idle = 0, with_exits = 0, with_tasks = 0;

	for (int c = 0; !rc && c < ncpu; c++) {
		if (cpu[c].idle_ns) {
			idle_rate += cpu[c].exits * 1000000000000ULL / cpu[c].idle_ns;
			with_idle++;
		}
		if (cpu[c].exits) {
			irq_run += cpu[c].exit_ns / cpu[c].exits;
			with_exits++;
		}
		task_rate += cpu[c].tasks * 1000000000000ULL / (last - first);
		if (cpu[c].tasks) {
			/* a run still open at the end counts as a switch-in, not in the mean */
			u64 closed = cpu[c].tasks - (cpu[c].task_pid != 0);

			if (closed) {
				task_run += cpu[c].task_ns / closed;
				with_tasks++;
			}
		}
	}
	if (!rc && !with_idle) {
		snprintf(err, errlen, "%s: expected cpu_idle lines, found no idle period", path);
		rc = -1;
	}
	if (!rc) {
		s->ncpu = ncpu;
		s->irq_rate_milli = idle_rate / (u64)with_idle;
		s->irq_run_ns = with_exits ? irq_run / (u64)with_exits : 0;
		s->task_rate_milli = task_rate / (u64)ncpu;
		s->task_run_ns = with_tasks ? task_run / (u64)with_tasks : 0;
	}
	free(cpu);
	return rc ? -1 : 0;
}
