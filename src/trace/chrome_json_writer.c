/*
 * The Chrome Trace Event JSON writer (chrome://tracing, Perfetto, speedscope). Three processes
 * of tracks, so that a track's id never collides whatever the CPU count: pid 1 "CPUs" with a
 * thread per CPU holding the task slices, pid 2 "idle states" with a thread per CPU holding the
 * idle-state slices, pid 3 "wake-ups" with a thread per CPU holding a zero-length slice per
 * wake-up. A flow ("s" on the wake-up, "f" on the switch-in) links each wake-up to the slice
 * where the woken task next runs.
 *
 * Slices are B/E pairs, never X: `ts` is printed from the integer nanoseconds as microseconds
 * with exactly three decimals, so a slice that ends when the next begins prints the same text
 * for both, which every parser turns into the same double: they touch and cannot overlap by
 * rounding (an X event's ts + dur is a sum of two rounded decimals and can overshoot the next
 * ts). On a track, an E is written before the B of the same instant. The B of a task slice
 * carries args {pid, comm, prio, cpu}; its E carries {prev_state} (viewers merge the two).
 */
#include "core/json_out.h"
#include "trace/format.h"
#include "machine/machine.h"

#include <stdlib.h>
#include <string.h>

enum { TRACK_CPU = 1, TRACK_IDLE = 2, TRACK_WAKE = 3 };

struct json_out {
	bool first;
	int *cur; /* per CPU: the pid running there (0: idle) */
	/* per CPU: the comm its open task slice began with, repeated as the E event's name (an
	 * exec may change the task's comm before the slice ends) */
	char (*cur_comm)[SL_TRACE_COMM_LEN];
	int *idle_state;
	u64 *flow; /* per pid (index pid): the id of a pending wake-up flow, 0: none */
	int nflow; /* entries of flow */
	u64 nextflow;
};

static void json_free(struct json_out *x)
{
	free(x->cur);
	free(x->cur_comm);
	free(x->idle_state);
	free(x->flow);
	free(x);
}

/* ns as microseconds with three decimals, exactly ("1619237.361"). */
static void json_ts(FILE *f, u64 ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

static void json_sep(struct sl_trace_writer *w)
{
	struct json_out *x = w->priv;

	fputs(x->first ? "" : ",\n", w->f);
	x->first = false;
}

static void json_meta(struct sl_trace_writer *w, int pid, int tid, const char *what,
		      const char *name, int cpu)
{
	json_sep(w);
	if (tid < 0)
		fprintf(w->f,
			"{\"ph\":\"M\",\"pid\":%d,\"name\":\"%s\",\"args\":{\"name\":\"%s\"}}", pid,
			what, name);
	else
		fprintf(w->f,
			"{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":"
			"\"%s%d%s\"}}",
			pid, tid, what, "CPU ", cpu, name);
}

static int json_open(struct sl_trace_writer *w)
{
	struct json_out *x = calloc(1, sizeof(*x));
	int ncpu = w->sim->ncpu;

	if (!x)
		return -1;
	x->first = true;
	x->cur = calloc((size_t)ncpu, sizeof(int));
	x->cur_comm = calloc((size_t)ncpu, sizeof(*x->cur_comm));
	x->idle_state = calloc((size_t)ncpu, sizeof(int));
	x->nflow = sl_machine_of(w->sim)->ntasks + 1;
	x->flow = calloc((size_t)x->nflow, sizeof(u64));
	if (!x->cur || !x->cur_comm || !x->idle_state || !x->flow) {
		json_free(x);
		return -1;
	}
	w->priv = x;
	for (int c = 0; c < ncpu; c++)
		x->idle_state[c] = -1;
	fprintf(w->f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
	json_meta(w, TRACK_CPU, -1, "process_name", "CPUs", 0);
	json_meta(w, TRACK_IDLE, -1, "process_name", "idle states", 0);
	json_meta(w, TRACK_WAKE, -1, "process_name", "wake-ups", 0);
	for (int c = 0; c < ncpu; c++) {
		json_meta(w, TRACK_CPU, c, "thread_name", "", c);
		json_meta(w, TRACK_IDLE, c, "thread_name", " idle", c);
		json_meta(w, TRACK_WAKE, c, "thread_name", " wake-ups", c);
	}
	return 0;
}

/* The pending-flow slot of pid (> 0), the table grown as tasks are forked; NULL: no memory. */
static u64 *flow_of(struct json_out *x, int pid)
{
	if (pid >= x->nflow) {
		int n = x->nflow * 2 > pid ? x->nflow * 2 : pid + 1;
		u64 *a = realloc(x->flow, sizeof(*a) * (size_t)n);

		if (!a)
			return NULL;
		memset(a + x->nflow, 0, sizeof(*a) * (size_t)(n - x->nflow));
		x->flow = a;
		x->nflow = n;
	}
	return &x->flow[pid];
}

static void task_begin(struct sl_trace_writer *w, int cpu, int pid, u64 t)
{
	struct json_out *x = w->priv;
	const char *comm = sl_trace_writer_comm(w, pid);

	snprintf(x->cur_comm[cpu], sizeof(x->cur_comm[cpu]), "%s", comm);
	json_sep(w);
	fprintf(w->f, "{\"ph\":\"B\",\"pid\":%d,\"tid\":%d,\"name\":\"", TRACK_CPU, cpu);
	sl_json_put_escaped(w->f, comm);
	fprintf(w->f, "-%d\",\"ts\":", pid);
	json_ts(w->f, t);
	fprintf(w->f, ",\"args\":{\"pid\":%d,\"comm\":\"", pid);
	sl_json_put_escaped(w->f, comm);
	fprintf(w->f, "\",\"prio\":%d,\"cpu\":%d}}", sl_trace_writer_prio(w, pid), cpu);
}

/*
 * The E event repeats its B's name: speedscope ends a slice only on an E of the same name (it
 * leaves the slice open, and nests everything after under it, when the E has none).
 */
static void task_end(struct sl_trace_writer *w, int cpu, u64 t, char prev_state)
{
	struct json_out *x = w->priv;

	json_sep(w);
	fprintf(w->f, "{\"ph\":\"E\",\"pid\":%d,\"tid\":%d,\"name\":\"", TRACK_CPU, cpu);
	sl_json_put_escaped(w->f, x->cur_comm[cpu]);
	fprintf(w->f, "-%d\",\"ts\":", x->cur[cpu]);
	json_ts(w->f, t);
	if (prev_state)
		fprintf(w->f, ",\"args\":{\"prev_state\":\"%c\"}", prev_state);
	fputs("}", w->f);
}

/* An idle slice's B or E: the same name and args on both (speedscope matches them) */
static void idle_mark(struct sl_trace_writer *w, char ph, int cpu, int state, u64 t)
{
	const struct sl_cpuidle_driver *drv = sl_machine_of(w->sim)->idle_drv;

	json_sep(w);
	fprintf(w->f, "{\"ph\":\"%c\",\"pid\":%d,\"tid\":%d,\"name\":\"", ph, TRACK_IDLE, cpu);
	sl_json_put_escaped(w->f, state < drv->state_count ? drv->states[state].name : "?");
	fputs("\",\"ts\":", w->f);
	json_ts(w->f, t);
	fprintf(w->f, ",\"args\":{\"state\":%d}}", state);
}

static void json_write_event(struct sl_trace_writer *w, const struct sl_event *ev)
{
	struct json_out *x = w->priv;

	switch (ev->type) {
	case SL_EV_SWITCH:
		if (x->cur[ev->cpu])
			task_end(w, ev->cpu, ev->time, ev->prev_state);
		x->cur[ev->cpu] = ev->next_pid;
		if (!ev->next_pid)
			break;
		u64 *fl = flow_of(x, ev->next_pid);

		if (fl && *fl) {
			/* binds to the slice that begins here (the next one on the track) */
			json_sep(w);
			fprintf(w->f,
				"{\"ph\":\"f\",\"pid\":%d,\"tid\":%d,\"name\":\"wakeup\","
				"\"cat\":\"wakeup\",\"id\":%llu,\"ts\":",
				TRACK_CPU, ev->cpu, (unsigned long long)*fl);
			json_ts(w->f, ev->time);
			fputs("}", w->f);
			*fl = 0;
		}
		task_begin(w, ev->cpu, ev->next_pid, ev->time);
		break;
	case SL_EV_IDLE:
		if (x->idle_state[ev->cpu] >= 0) {
			idle_mark(w, 'E', ev->cpu, x->idle_state[ev->cpu], ev->time);
			x->idle_state[ev->cpu] = -1;
		}
		if (ev->state >= 0) {
			idle_mark(w, 'B', ev->cpu, ev->state, ev->time);
			x->idle_state[ev->cpu] = ev->state;
		}
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW: {
		const char *comm = sl_trace_writer_comm(w, ev->pid);

		json_sep(w);
		fprintf(w->f, "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"name\":\"%s ", TRACK_WAKE,
			ev->cpu, ev->type == SL_EV_WAKEUP ? "wakeup" : "wakeup_new");
		sl_json_put_escaped(w->f, comm);
		fprintf(w->f, "-%d\",\"ts\":", ev->pid);
		json_ts(w->f, ev->time);
		fprintf(w->f, ",\"dur\":0,\"args\":{\"pid\":%d,\"comm\":\"", ev->pid);
		sl_json_put_escaped(w->f, comm);
		fprintf(w->f, "\",\"prio\":%d,\"target_cpu\":%d}}",
			sl_trace_writer_prio(w, ev->pid), ev->cpu);
		u64 *fl = ev->pid > 0 ? flow_of(x, ev->pid) : NULL;

		if (fl && !*fl) {
			*fl = ++x->nextflow;
			json_sep(w);
			fprintf(w->f,
				"{\"ph\":\"s\",\"pid\":%d,\"tid\":%d,\"name\":\"wakeup\","
				"\"cat\":\"wakeup\",\"id\":%llu,\"ts\":",
				TRACK_WAKE, ev->cpu, (unsigned long long)x->nextflow);
			json_ts(w->f, ev->time);
			fputs("}", w->f);
		}
		break;
	}
	default:
		break;
	}
}

static void json_close(struct sl_trace_writer *w)
{
	struct json_out *x = w->priv;

	/* close the slices still open at the end */
	for (int c = 0; c < w->sim->ncpu; c++) {
		if (x->cur[c])
			task_end(w, c, w->sim->now, 0);
		if (x->idle_state[c] >= 0)
			idle_mark(w, 'E', c, x->idle_state[c], w->sim->now);
	}
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
