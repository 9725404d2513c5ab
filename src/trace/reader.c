/*
 * The generic side of the trace readers: open the input, read its first SL_TRACE_PROBE_LEN
 * bytes, put the decompression under it (src/trace/input.c: xz, gzip, by their magic bytes),
 * pick the reader by the first bytes of text (the one asked for, else the registry's probes:
 * src/trace/registry.c) and hand it the input; the event names; a record's meaning in the event
 * stream. Nothing here knows a format, and no reader knows a compression.
 */
#include "trace/format.h"
#include "trace/input.h"
#include "trace/registry.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[SL_TR_NR_KINDS] = {
	[SL_TR_SCHED_SWITCH] = "sched_switch",
	[SL_TR_SCHED_WAKEUP] = "sched_wakeup",
	[SL_TR_SCHED_WAKEUP_NEW] = "sched_wakeup_new",
	[SL_TR_SCHED_WAKING] = "sched_waking",
	[SL_TR_SCHED_PROCESS_FORK] = "sched_process_fork",
	[SL_TR_SCHED_PROCESS_EXEC] = "sched_process_exec",
	[SL_TR_SCHED_PROCESS_EXIT] = "sched_process_exit",
	[SL_TR_SCHED_MIGRATE_TASK] = "sched_migrate_task",
	[SL_TR_CPU_IDLE] = "cpu_idle",
	[SL_TR_CPU_IDLE_MISS] = "cpu_idle_miss",
	[SL_TR_HRTIMER_START] = "hrtimer_start",
	[SL_TR_HRTIMER_EXPIRE_ENTRY] = "hrtimer_expire_entry",
	[SL_TR_HRTIMER_CANCEL] = "hrtimer_cancel",
	[SL_TR_TICK_STOP] = "tick_stop",
	[SL_TR_BLOCK_RQ_ISSUE] = "block_rq_issue",
	[SL_TR_BLOCK_RQ_COMPLETE] = "block_rq_complete",
	[SL_TR_IRQ_HANDLER_ENTRY] = "irq_handler_entry",
};

const char *sl_trace_kind_name(enum sl_trace_kind k)
{
	return k > SL_TR_UNKNOWN && k < SL_TR_NR_KINDS ? kind_names[k] : NULL;
}

/* The kind named name[0..len): by its length first (one to four names have each length),
 * then by the bytes; the compiler inlines each memcmp of a constant length. */
enum sl_trace_kind sl_trace_kind_of(const char *name, size_t len)
{
#define KIND(str, k)                                                                               \
	do {                                                                                       \
		if (!memcmp(name, str, sizeof(str) - 1))                                           \
			return k;                                                                  \
	} while (0)
	switch (len) {
	case 8:
		KIND("cpu_idle", SL_TR_CPU_IDLE);
		break;
	case 9:
		KIND("tick_stop", SL_TR_TICK_STOP);
		break;
	case 12:
		KIND("sched_switch", SL_TR_SCHED_SWITCH);
		KIND("sched_wakeup", SL_TR_SCHED_WAKEUP);
		KIND("sched_waking", SL_TR_SCHED_WAKING);
		break;
	case 13:
		KIND("cpu_idle_miss", SL_TR_CPU_IDLE_MISS);
		KIND("hrtimer_start", SL_TR_HRTIMER_START);
		break;
	case 14:
		KIND("hrtimer_cancel", SL_TR_HRTIMER_CANCEL);
		KIND("block_rq_issue", SL_TR_BLOCK_RQ_ISSUE);
		break;
	case 16:
		KIND("sched_wakeup_new", SL_TR_SCHED_WAKEUP_NEW);
		break;
	case 17:
		KIND("irq_handler_entry", SL_TR_IRQ_HANDLER_ENTRY);
		KIND("block_rq_complete", SL_TR_BLOCK_RQ_COMPLETE);
		break;
	case 18:
		KIND("sched_process_fork", SL_TR_SCHED_PROCESS_FORK);
		KIND("sched_process_exec", SL_TR_SCHED_PROCESS_EXEC);
		KIND("sched_process_exit", SL_TR_SCHED_PROCESS_EXIT);
		KIND("sched_migrate_task", SL_TR_SCHED_MIGRATE_TASK);
		break;
	case 20:
		KIND("hrtimer_expire_entry", SL_TR_HRTIMER_EXPIRE_ENTRY);
		break;
	default:
		break;
	}
#undef KIND
	return SL_TR_UNKNOWN;
}

static void copy_path(struct sl_trace_reader *r, const char *path)
{
	snprintf(r->path, sizeof(r->path), "%s", path);
}

/*
 * The head of r->f, the input over it, the reader (ops, or the probes' on the head as text),
 * its open. 0 or -1 (r->err set).
 */
static int start(struct sl_trace_reader *r, const struct sl_trace_reader_ops *ops)
{
	unsigned char head[SL_TRACE_PROBE_LEN], text[SL_TRACE_PROBE_LEN];
	size_t len = fread(head, 1, sizeof(head), r->f), n;

	if (len < sizeof(head) && ferror(r->f)) {
		snprintf(r->err, sizeof(r->err), "%s: read error: %s", r->path, strerror(errno));
		return -1;
	}
	if (sl_trace_input_open(r, r->f, head, len))
		return -1;
	n = sl_trace_peek_text(head, len, text, sizeof(text));
	r->ops = ops ? ops : sl_trace_reader_probe(text, n);
	return r->ops->open(r, text, n);
}

static int fail(struct sl_trace_reader *r, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", r->err);
	sl_trace_close(r);
	return -1;
}

int sl_trace_open(struct sl_trace_reader *r, const struct sl_trace_reader_ops *ops,
		  const char *path, bool lenient, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->lenient = lenient;
	copy_path(r, path);
	if (!strcmp(path, "-")) {
		r->f = stdin;
	} else {
		r->f = fopen(path, "rb");
		if (!r->f) {
			snprintf(r->err, sizeof(r->err), "%s: %s", path, strerror(errno));
			return fail(r, err, errlen);
		}
		r->close_f = true;
	}
	return start(r, ops) ? fail(r, err, errlen) : 0;
}

int sl_trace_open_stream(struct sl_trace_reader *r, const struct sl_trace_reader_ops *ops, FILE *f,
			 const char *name, bool lenient, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->lenient = lenient;
	copy_path(r, name);
	r->f = f;
	return start(r, ops) ? fail(r, err, errlen) : 0;
}

int sl_trace_next(struct sl_trace_reader *r, struct sl_trace_record *out)
{
	out->flags[0] = '\0'; /* only ftrace's text has the column */
	return r->ops->next(r, out);
}

int sl_trace_next_event(struct sl_trace_reader *r, struct sl_event *ev)
{
	struct sl_trace_record rec;
	int rc;

	if (r->ops->next_event)
		return r->ops->next_event(r, ev);
	while ((rc = r->ops->next(r, &rec)) == 1)
		if (sl_trace_record_to_event(&rec, ev))
			return 1;
	return rc;
}

void sl_trace_close(struct sl_trace_reader *r)
{
	if (r->ops)
		r->ops->close(r);
	sl_trace_input_close(r);
	if (r->f && r->close_f)
		fclose(r->f);
	r->f = NULL;
	r->ops = NULL;
}

bool sl_trace_overflowed(const struct sl_trace_reader *r)
{
	return r->lost_lines || (r->have_entries && r->entries_in_buffer < r->entries_written);
}

bool sl_trace_record_to_event(const struct sl_trace_record *rec, struct sl_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->time = rec->time;
	ev->cpu = rec->cpu;
	ev->group = ev->next_group = -1;
	ev->orig_cpu = -1;
	switch (rec->kind) {
	case SL_TR_SCHED_SWITCH:
		ev->type = SL_EV_SWITCH;
		ev->pid = rec->task_pid;
		ev->next_pid = rec->next_pid;
		ev->prev_state = rec->prev_state[0] ? rec->prev_state[0] : 'R';
		return true;
	case SL_TR_SCHED_WAKEUP:
	case SL_TR_SCHED_WAKEUP_NEW:
		ev->type = rec->kind == SL_TR_SCHED_WAKEUP ? SL_EV_WAKEUP : SL_EV_WAKEUP_NEW;
		ev->pid = rec->task_pid;
		ev->cpu = rec->target_cpu;
		return true;
	case SL_TR_SCHED_PROCESS_FORK:
		ev->type = SL_EV_FORK;
		ev->pid = rec->task_pid;
		ev->next_pid = rec->next_pid;
		return true;
	case SL_TR_SCHED_PROCESS_EXEC:
		ev->type = SL_EV_EXEC;
		ev->pid = rec->task_pid;
		return true;
	case SL_TR_SCHED_PROCESS_EXIT:
		ev->type = SL_EV_EXIT;
		ev->pid = rec->task_pid;
		return true;
	case SL_TR_SCHED_MIGRATE_TASK:
		ev->type = SL_EV_MIGRATE;
		ev->pid = rec->task_pid;
		ev->orig_cpu = rec->orig_cpu;
		ev->cpu = rec->dest_cpu;
		return true;
	case SL_TR_CPU_IDLE:
		ev->type = SL_EV_IDLE;
		ev->cpu = rec->cpu_id;
		ev->state = rec->state;
		return true;
	default:
		return false;
	}
}
