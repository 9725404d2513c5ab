/*
 * calibrate --recordings: the wake-up preemption of a waker (wake_preempt_rec.h). This
 * machine's kernel lets a task woken onto its waker's vCPU run first at most such wake-ups,
 * where mainline 6.18 keeps the waker inside its protected slice (docs/validate.md, "The
 * wake-up preemption of a waker").
 */
#include "validate/wake_preempt_rec.h"
#include "trace/format.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 256

/* the last switch-out of a pid: a small open-addressed table (pids of one trace) */
struct out_map {
	int *pid;
	u64 *at;
	size_t cap, n;
};

static u64 *slot(struct out_map *m, int pid, bool add)
{
	if (add && (m->n + 1) * 2 > m->cap) {
		struct out_map g = {NULL, NULL, m->cap ? m->cap * 2 : 1024, 0};

		g.pid = calloc(g.cap, sizeof(*g.pid));
		g.at = calloc(g.cap, sizeof(*g.at));
		if (!g.pid || !g.at) {
			free(g.pid);
			free(g.at);
			return NULL;
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->pid[i])
				*slot(&g, m->pid[i], true) = m->at[i];
		free(m->pid);
		free(m->at);
		*m = g;
	}
	if (!m->cap)
		return NULL;
	for (size_t i = (size_t)pid * 2654435761u % m->cap;; i = (i + 1) % m->cap) {
		if (m->pid[i] == pid)
			return &m->at[i];
		if (!m->pid[i]) {
			if (!add)
				return NULL;
			m->pid[i] = pid;
			m->n++;
			return &m->at[i];
		}
	}
}

/* a wake-up from task context: the flags' third column is '.' (not h, s, H, z, Z) */
static bool task_context(const char *f)
{
	return strlen(f) >= 4 && f[2] == '.';
}

static int one_trace(const char *path, struct sl_wake_preempt *w, char *err, size_t errlen)
{
	static int cur[MAX_CPUS];
	static u64 in_at[MAX_CPUS];
	struct out_map out = {NULL, NULL, 0, 0};
	struct sl_trace_reader rd;
	struct sl_trace_record r;
	int rc;

	memset(cur, 0, sizeof(cur));
	if (sl_trace_open(&rd, NULL, path, false, err, errlen))
		return -1;
	while ((rc = sl_trace_next(&rd, &r)) == 1) {
		if (r.cpu < 0 || r.cpu >= MAX_CPUS)
			continue;
		if (r.kind == SL_TR_SCHED_SWITCH) {
			u64 *o = r.task_pid ? slot(&out, r.task_pid, true) : NULL;

			if (r.task_pid && !o) {
				snprintf(err, errlen, "out of memory");
				rc = -1;
				break;
			}
			if (o)
				*o = r.time;
			cur[r.cpu] = r.next_pid;
			in_at[r.cpu] = r.time;
		} else if (r.kind == SL_TR_SCHED_WAKEUP && r.target_cpu == r.cpu) {
			const u64 *o;

			if (!r.flags[0]) {
				w->unflagged++;
				continue;
			}
			/* the waker is the task running there, inside its first slice; the wakee
			 * slept long enough not to be one end of a hand-off in progress */
			if (!task_context(r.flags) || !r.pid || cur[r.cpu] != r.pid ||
			    r.task_pid == r.pid || r.time - in_at[r.cpu] >= SL_WP_SLICE_NS ||
			    !(o = slot(&out, r.task_pid, false)) || r.time - *o < SL_WP_SLEPT_NS)
				continue;
			w->n++;
			w->resched += r.flags[1] != '.';
		}
	}
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s", rd.err);
	sl_trace_close(&rd);
	free(out.pid);
	free(out.at);
	return rc < 0 ? -1 : 0;
}

int sl_wake_preempt_measure(const char *const *paths, int n, struct sl_wake_preempt *w, char *err,
			    size_t errlen)
{
	memset(w, 0, sizeof(*w));
	err[0] = '\0';
	for (int i = 0; i < n; i++)
		if (one_trace(paths[i], w, err, errlen))
			return -1;
	w->per1000 = w->n ? (w->resched * 1000 + w->n / 2) / w->n : 0;
	return 0;
}
