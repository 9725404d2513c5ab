/*
 * The Chrome Trace Event JSON writer (chrome://tracing, Perfetto, Speedscope): one track per CPU
 * with the task slices, one per CPU with its idle states, wake-ups as instant events.
 */
#include "trace/format.h"
#include "machine/machine.h"

#include <stdlib.h>

struct json_out {
	bool first;
	int *cur;	/* per CPU: the pid running there (0: idle) */
	u64 *run_since; /* per CPU: when it started */
	int *idle_state;
	u64 *idle_since;
};

static void json_free(struct json_out *x)
{
	free(x->cur);
	free(x->run_since);
	free(x->idle_state);
	free(x->idle_since);
	free(x);
}

static int json_open(struct sl_trace_writer *w)
{
	struct json_out *x = calloc(1, sizeof(*x));
	int ncpu = w->sim->ncpu;

	if (!x)
		return -1;
	x->first = true;
	x->cur = calloc((size_t)ncpu, sizeof(int));
	x->run_since = calloc((size_t)ncpu, sizeof(u64));
	x->idle_state = calloc((size_t)ncpu, sizeof(int));
	x->idle_since = calloc((size_t)ncpu, sizeof(u64));
	if (!x->cur || !x->run_since || !x->idle_state || !x->idle_since) {
		json_free(x);
		return -1;
	}
	w->priv = x;
	for (int c = 0; c < ncpu; c++)
		x->idle_state[c] = -1;
	fprintf(w->f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	for (int c = 0; c < ncpu; c++) {
		fprintf(w->f,
			"%s{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
			"\"args\":{\"name\":\"CPU %d\"}}",
			x->first ? "" : ",\n", c, c);
		x->first = false;
		fprintf(w->f,
			",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
			"\"args\":{\"name\":\"CPU %d idle\"}}",
			1000 + c, c);
	}
	fprintf(w->f, ",\n{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\","
		      "\"args\":{\"name\":\"schedlab\"}}");
	return 0;
}

static void json_sep(struct sl_trace_writer *w)
{
	struct json_out *x = w->priv;

	fputs(x->first ? "" : ",\n", w->f);
	x->first = false;
}

static double us(u64 ns)
{
	return (double)ns / 1000.0;
}

static void json_slice(struct sl_trace_writer *w, int tid, const char *name, u64 from, u64 to)
{
	json_sep(w);
	fprintf(w->f,
		"{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"name\":\"%s\",\"ts\":%.3f,\"dur\":%.3f}", tid,
		name, us(from), us(to - from));
}

/* The slice of the task that ran on cpu from run_since until `to`. */
static void task_slice(struct sl_trace_writer *w, int cpu, u64 to)
{
	struct json_out *x = w->priv;
	int pid = x->cur[cpu];
	char name[48];

	snprintf(name, sizeof(name), "%s-%d", sl_trace_writer_comm(w, pid), pid);
	json_slice(w, cpu, name, x->run_since[cpu], to);
}

static void json_write_event(struct sl_trace_writer *w, const struct sl_event *ev)
{
	struct json_out *x = w->priv;

	switch (ev->type) {
	case SL_EV_SWITCH:
		if (x->cur[ev->cpu])
			task_slice(w, ev->cpu, ev->time);
		x->cur[ev->cpu] = ev->next_pid;
		x->run_since[ev->cpu] = ev->time;
		break;
	case SL_EV_IDLE:
		if (ev->state >= 0) {
			x->idle_state[ev->cpu] = ev->state;
			x->idle_since[ev->cpu] = ev->time;
		} else if (x->idle_state[ev->cpu] >= 0) {
			const struct sl_cpuidle_driver *drv = w->sim->idle_drv;
			int s = x->idle_state[ev->cpu];

			json_slice(w, 1000 + ev->cpu,
				   s < drv->state_count ? drv->states[s].name : "?",
				   x->idle_since[ev->cpu], ev->time);
			x->idle_state[ev->cpu] = -1;
		}
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		json_sep(w);
		fprintf(w->f,
			"{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,\"name\":\"wakeup %s-%d\","
			"\"ts\":%.3f}",
			ev->cpu, sl_trace_writer_comm(w, ev->pid), ev->pid, us(ev->time));
		break;
	default:
		break;
	}
}

static void json_close(struct sl_trace_writer *w)
{
	struct json_out *x = w->priv;

	/* close the slices still open at the end */
	for (int c = 0; c < w->sim->ncpu; c++)
		if (x->cur[c])
			task_slice(w, c, w->sim->now);
	fprintf(w->f, "\n]}\n");
	json_free(x);
	w->priv = NULL;
}

const struct sl_trace_writer_ops sl_chrome_json_writer = {
	.name = "chrome-json",
	.exts = {".json"},
	.open = json_open,
	.write_event = json_write_event,
	.close = json_close,
};
