/*
 * The generic side of the trace writers: pick the writer by the file's name (the registry,
 * src/trace/registry.c), write through core/outfile.h, stop the run on a failed write, and hand
 * every event of the stream to the writer. Nothing here knows a format.
 */
#include "trace/export.h"
#include "trace/registry.h"
#include "machine/machine.h"
#include "sched/prio.h"
#include "core/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sl_exporter {
	struct sl_trace_writer w;
	struct sl_outfile out;
	bool failed;
	int failed_errno;   /* errno of the first failed write, for the message */
	struct sl_sim *sim; /* written only to stop the run when the file cannot be written */
};

static const struct sl_task *task(const struct sl_trace_writer *w, int pid)
{
	return pid >= 1 && pid <= sl_machine_of(w->sim)->ntasks ? sl_sim_task(w->sim, pid - 1)
								: NULL;
}

const char *sl_trace_writer_comm(const struct sl_trace_writer *w, int pid)
{
	const struct sl_task *t = task(w, pid);

	return pid == 0 ? "swapper" : t ? sl_mtask(t)->comm : "?";
}

int sl_trace_writer_prio(const struct sl_trace_writer *w, int pid)
{
	const struct sl_task *t = task(w, pid);

	/* the kernel's prio: 99 - rt_priority for SCHED_FIFO / SCHED_RR, 120 + nice otherwise */
	return pid == 0 ? 120 : t ? sl_task_prio(t) : 120;
}

struct sl_exporter *sl_export_open(const char *path, struct sl_sim *sim, char *err, size_t errlen)
{
	struct sl_exporter *x = calloc(1, sizeof(*x));
	char e[4400];

	if (!x) {
		snprintf(err, errlen, "--trace-out: out of memory");
		return NULL;
	}
	x->sim = sim;
	x->w.ops = sl_trace_writer_for_path(path);
	x->w.sim = sim;
	if (sl_outfile_open(&x->out, path, e, sizeof(e))) {
		snprintf(err, errlen, "--trace-out %s", e);
		if (x->out.f)
			sl_outfile_abort(&x->out);
		free(x);
		return NULL;
	}
	x->w.f = x->out.f;
	if (x->w.ops->open(&x->w)) {
		snprintf(err, errlen, "--trace-out: out of memory");
		sl_outfile_abort(&x->out);
		free(x);
		return NULL;
	}
	return x;
}

void sl_export_event(void *ctx, const struct sl_event *ev)
{
	struct sl_exporter *x = ctx;

	if (x->failed)
		return;
	x->w.ops->write_event(&x->w, ev);
	if (ferror(x->w.f)) {
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
	x->w.ops->close(&x->w);
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
	free(x);
	return rc;
}
