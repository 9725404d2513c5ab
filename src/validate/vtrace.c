/* A trace's figures for `validate` (see vtrace.h). */
#include "validate/vtrace.h"

#include <stdio.h>
#include <string.h>

#include "trace/format.h"

struct pid_slot {
	int pid, task;
	bool waking, running, exited;
	u64 wake_ts;
};

struct pass {
	struct sl_vtrace *v;
	struct pid_slot pid[SL_VT_MAX_PIDS];
	int npid;
	bool window_only;
	int other_pid[SL_VT_MAX_PIDS]; /* the other tasks seen running in the window */
};

static int task_by_comm(const struct sl_vtrace *v, const char *comm)
{
	for (int i = 0; i < v->ntasks; i++)
		if (!strncmp(v->task[i].comm, comm, SL_VT_COMM - 1))
			return i;
	return -1;
}

/*
 * The slot of a pid that belongs to a task. A pid is a task thread once it is seen with the
 * task's comm; rt-app's threads are named when they start, so earlier events (as "rt-app") are
 * set-up, outside the comparison.
 */
static struct pid_slot *slot(struct pass *ps, int pid, const char *comm, char *err, size_t errlen,
			     int *fail)
{
	for (int i = 0; i < ps->npid; i++)
		if (ps->pid[i].pid == pid) {
			if (comm) {
				int t = task_by_comm(ps->v, comm);

				if (t < 0)
					return NULL; /* renamed away (exec) */
				ps->pid[i].task = t;
			}
			return &ps->pid[i];
		}
	if (!comm || pid <= 0)
		return NULL;
	int t = task_by_comm(ps->v, comm);

	if (t < 0)
		return NULL;
	if (ps->npid == SL_VT_MAX_PIDS) {
		snprintf(err, errlen, "more than %d threads of the tasks in the trace",
			 SL_VT_MAX_PIDS);
		*fail = 1;
		return NULL;
	}
	struct pid_slot *s = &ps->pid[ps->npid++];

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->task = t;
	ps->v->task[t].npids++;
	return s;
}

static void window(struct sl_vtrace *v, u64 t)
{
	if (!v->start || t < v->start)
		v->start = t;
	if (t > v->end)
		v->end = t;
}

static bool in_window(const struct sl_vtrace *v, u64 t)
{
	return t >= v->start && t <= v->end;
}

static void idle_event(struct sl_vtrace *v, const struct sl_trace_record *r)
{
	int c = r->cpu_id;

	if (c < 0 || c >= SL_VT_MAX_CPUS)
		return;
	struct sl_vt_cpu *cpu = &v->cpu[c];

	if (c >= v->ncpu)
		v->ncpu = c + 1;
	if (cpu->state >= 0) {
		/* the part of the idle period inside the window */
		u64 a = cpu->since > v->start ? cpu->since : v->start;
		u64 b = r->time < v->end ? r->time : v->end;

		if (b > a)
			cpu->time[cpu->state] += b - a;
		cpu->state = -1;
	}
	if (r->state >= 0 && r->state < SL_VT_MAX_STATES) {
		cpu->state = r->state;
		cpu->since = r->time;
		if (r->state >= v->nstates)
			v->nstates = r->state + 1;
		if (in_window(v, r->time))
			cpu->entries[r->state]++;
	}
}

/* CPU c stops running another task at t: its run inside the window is counted, and its pid */
static void other_stop(struct pass *ps, int c, u64 t)
{
	struct sl_vtrace *v = ps->v;
	struct sl_vt_cpu *cpu = &v->cpu[c];
	int i;

	if (!cpu->other)
		return;
	cpu->other = false;
	u64 a = cpu->other_since > v->start ? cpu->other_since : v->start;
	u64 b = t < v->end ? t : v->end;

	if (b <= a)
		return;
	v->other_ns += b - a;
	for (i = 0; i < v->nother && ps->other_pid[i] != cpu->other_pid; i++)
		;
	if (i == v->nother && v->nother < SL_VT_MAX_PIDS)
		ps->other_pid[v->nother++] = cpu->other_pid;
}

static void other_start(struct sl_vtrace *v, int c, int pid, u64 t)
{
	v->cpu[c].other = true;
	v->cpu[c].other_pid = pid;
	v->cpu[c].other_since = t;
}

static int record(struct pass *ps, const struct sl_trace_record *r, char *err, size_t errlen)
{
	struct sl_vtrace *v = ps->v;
	struct pid_slot *s;
	int fail = 0;

	switch (r->kind) {
	case SL_TR_SCHED_SWITCH:
		s = slot(ps, r->task_pid, r->task_comm, err, errlen, &fail);
		if (s) {
			if (ps->window_only)
				window(v, r->time);
			else if (in_window(v, r->time))
				v->task[s->task].switches++;
			s->running = false;
		}
		if (!ps->window_only && r->cpu >= 0 && r->cpu < SL_VT_MAX_CPUS)
			other_stop(ps, r->cpu, r->time);
		s = slot(ps, r->next_pid, r->next_comm, err, errlen, &fail);
		if (!s && r->next_pid > 0 && !ps->window_only && r->cpu >= 0 &&
		    r->cpu < SL_VT_MAX_CPUS)
			other_start(v, r->cpu, r->next_pid, r->time);
		if (s) {
			if (ps->window_only)
				window(v, r->time);
			else if (s->waking && in_window(v, s->wake_ts))
				sl_hist_add(&v->task[s->task].lat, r->time - s->wake_ts);
			s->waking = false;
			s->running = true;
		}
		break;
	case SL_TR_SCHED_WAKING:
		s = slot(ps, r->task_pid, r->task_comm, err, errlen, &fail);
		/* a wake-up of a task still on its CPU is no wait */
		if (s && !s->running && !s->waking) {
			s->waking = true;
			s->wake_ts = r->time;
		}
		if (s && ps->window_only)
			window(v, r->time);
		break;
	case SL_TR_SCHED_MIGRATE_TASK:
		s = slot(ps, r->task_pid, r->task_comm, err, errlen, &fail);
		if (s && !ps->window_only && in_window(v, r->time))
			v->task[s->task].migrations++;
		break;
	case SL_TR_SCHED_PROCESS_EXIT:
		s = slot(ps, r->task_pid, NULL, err, errlen, &fail);
		if (s) {
			s->exited = true;
			if (ps->window_only)
				window(v, r->time);
		}
		break;
	case SL_TR_CPU_IDLE:
		/* a CPU going idle ran nothing since (a trace cut to the tasks' lines has no
		 * switch to the idle task) */
		if (!ps->window_only && r->state >= 0 && r->cpu_id >= 0 &&
		    r->cpu_id < SL_VT_MAX_CPUS)
			other_stop(ps, r->cpu_id, r->time);
		if (!ps->window_only)
			idle_event(v, r);
		break;
	default:
		break;
	}
	if (ps->window_only && r->time > v->last_any)
		v->last_any = r->time;
	return fail ? -1 : 0;
}

static int one_pass(struct sl_vtrace *v, const char *path, bool window_only, sl_vt_each each,
		    void *arg, char *err, size_t errlen)
{
	static struct pass ps; /* 64 KiB of slots: not on the stack */
	struct sl_trace_reader rd;
	struct sl_trace_record rec;
	int rc;

	memset(&ps, 0, sizeof(ps));
	ps.v = v;
	ps.window_only = window_only;
	if (sl_trace_open(&rd, NULL, path, false, err, errlen))
		return -1;
	while ((rc = sl_trace_next(&rd, &rec)) == 1) {
		if (each)
			each(&rec, arg);
		if (record(&ps, &rec, err, errlen)) {
			char m[256];

			snprintf(m, sizeof(m), "%s", err);
			snprintf(err, errlen, "%s:%lu: %s", path, rec.line, m);
			rc = -1;
			break;
		}
	}
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s", rd.err);
	else if (rc < 0 && rd.err[0])
		snprintf(err, errlen, "%s", rd.err);
	if (window_only) {
		v->alive = 0;
		for (int i = 0; i < ps.npid; i++)
			v->alive += !ps.pid[i].exited;
	} else {
		v->lost = rd.lost_events;
		if (rd.ncpu > v->ncpu && rd.ncpu <= SL_VT_MAX_CPUS)
			v->ncpu = rd.ncpu;
		/* close idle periods and other tasks' runs still open at the window's end */
		for (int c = 0; c < SL_VT_MAX_CPUS; c++)
			other_stop(&ps, c, v->end);
		for (int c = 0; c < v->ncpu; c++)
			if (v->cpu[c].state >= 0) {
				struct sl_trace_record end = {.kind = SL_TR_CPU_IDLE,
							      .time = v->end,
							      .cpu_id = c,
							      .state = -1};

				idle_event(v, &end);
			}
	}
	sl_trace_close(&rd);
	return rc < 0 ? -1 : 0;
}

int sl_vtrace_read(struct sl_vtrace *v, const char *path, const char *const *names, int n, u64 span,
		   char *err, size_t errlen)
{
	return sl_vtrace_read_each(v, path, names, n, span, NULL, NULL, err, errlen);
}

int sl_vtrace_read_each(struct sl_vtrace *v, const char *path, const char *const *names, int n,
			u64 span, sl_vt_each each, void *arg, char *err, size_t errlen)
{
	memset(v, 0, sizeof(*v));
	err[0] = '\0';
	if (n > SL_VT_MAX_TASKS) {
		snprintf(err, errlen, "%s: more than %d tasks to follow", path, SL_VT_MAX_TASKS);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		snprintf(v->task[i].comm, SL_VT_COMM, "%s", names[i]);
		if (sl_hist_init(&v->task[i].lat)) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		v->ntasks++;
	}
	for (int c = 0; c < SL_VT_MAX_CPUS; c++)
		v->cpu[c].state = -1;
	if (one_pass(v, path, true, NULL, NULL, err, errlen))
		return -1;
	if (!v->end) {
		snprintf(err, errlen, "%s: no event of the tasks (%s%s) in the trace", path,
			 n ? names[0] : "none", n > 1 ? ", ..." : "");
		return -1;
	}
	/*
	 * Both sides over the same time. The tasks' life ends at their last exit when every
	 * thread exited (rt-app's at the end of its duration, or earlier for a file that ends by
	 * itself), else with the trace (a simulation's threads are still alive at its end); and
	 * at most `span` after the first event.
	 */
	if (v->alive)
		v->end = v->last_any;
	if (span && v->end - v->start > span)
		v->end = v->start + span;
	for (int i = 0; i < n; i++)
		v->task[i].npids = 0;
	return one_pass(v, path, false, each, arg, err, errlen);
}

void sl_vtrace_free(struct sl_vtrace *v)
{
	for (int i = 0; i < v->ntasks; i++)
		sl_hist_free(&v->task[i].lat);
}
