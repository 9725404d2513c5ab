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

struct sl_bg_cpu {
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

static void on_idle(struct sl_bg_cpu *c, const struct sl_trace_record *r)
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

static void on_switch(struct sl_bg_cpu *c, const struct sl_trace_record *r, const char *const *skip,
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

int sl_bg_acc_init(struct sl_bg_acc *a, const char *const *skip, int nskip)
{
	memset(a, 0, sizeof(*a));
	a->skip = skip;
	a->nskip = nskip;
	a->cpu = calloc(BG_MAX_CPUS, sizeof(*a->cpu));
	return a->cpu ? 0 : -1;
}

void sl_bg_acc_free(struct sl_bg_acc *a)
{
	free(a->cpu);
	a->cpu = NULL;
}

void sl_bg_acc_record(struct sl_bg_acc *a, const struct sl_trace_record *rec)
{
	int c = rec->kind == SL_TR_CPU_IDLE ? rec->cpu_id : rec->cpu;

	if (!a->cpu)
		return;
	/* the events may be turned on one by one: before the first sched_ line every exit would
	 * look interrupt-only */
	if (!a->started && !strncmp(rec->event, "sched_", 6)) {
		a->started = true;
		a->first = rec->time;
	}
	if (!a->started || c < 0 || c >= BG_MAX_CPUS)
		return;
	a->last = rec->time;
	if (c >= a->ncpu)
		a->ncpu = c + 1;
	if (rec->kind == SL_TR_CPU_IDLE)
		on_idle(&a->cpu[c], rec);
	else if (rec->kind == SL_TR_SCHED_SWITCH)
		on_switch(&a->cpu[c], rec, a->skip, a->nskip);
}

int sl_bg_acc_finish(struct sl_bg_acc *a, struct sl_bg_split *s, const char *path, char *err,
		     size_t errlen)
{
	const struct sl_bg_cpu *cpu = a->cpu;
	u64 first = a->first, last = a->last;
	int rc = 0, ncpu = a->ncpu;

	memset(s, 0, sizeof(*s));
	if (!cpu) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (!a->started || last <= first) {
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
	sl_bg_acc_free(a);
	return rc;
}

int sl_bg_split_read(struct sl_bg_split *s, const char *path, const char *const *skip, int nskip,
		     char *err, size_t errlen)
{
	struct sl_bg_acc a;
	struct sl_trace_reader rd;
	struct sl_trace_record rec;
	int rc;

	if (sl_bg_acc_init(&a, skip, nskip))
		return sl_bg_acc_finish(&a, s, path, err, errlen);
	if (sl_trace_open(&rd, NULL, path, false, err, errlen)) {
		sl_bg_acc_free(&a);
		memset(s, 0, sizeof(*s));
		return -1;
	}
	while ((rc = sl_trace_next(&rd, &rec)) == 1)
		sl_bg_acc_record(&a, &rec);
	if (rc < 0)
		snprintf(err, errlen, "%s", rd.err);
	sl_trace_close(&rd);
	if (rc < 0) {
		sl_bg_acc_free(&a);
		memset(s, 0, sizeof(*s));
		return -1;
	}
	return sl_bg_acc_finish(&a, s, path, err, errlen);
}
