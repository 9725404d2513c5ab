/*
 * The one account of a trace's running tasks (run_account.h): the record-to-state part that
 * trace-stats and the trace workload share, on top of the occupancy rules of sched_stats.c.
 */
#include "trace/run_account.h"

#include <string.h>

int sl_run_account_ncpu(const struct sl_trace_reader *rd)
{
	return rd->ncpu > 0 ? rd->ncpu : SL_RUN_ACCOUNT_DEFAULT_NCPU;
}

/* what the record says of CPU c before it is fed: its first record, a run begun unseen */
static void count(struct sl_stats *st, struct sl_run_counts *rc, u64 first,
		  const struct sl_trace_record *r, int id)
{
	const struct sl_cpu_stat *c = &st->c[r->cpu];
	bool first_here = c->cur == -1 && !c->lost;

	if (first_here && r->time > first) {
		rc->late_cpus++;
		rc->late_ns += r->time - first;
	}
	if (r->kind == SL_TR_SCHED_SWITCH || id <= 0 || c->cur == id)
		return;
	if (first_here)
		rc->at_start++;
	else
		rc->sighted++;
}

void sl_run_account_record(struct sl_stats *st, struct sl_run_counts *rc, u64 first,
			   const struct sl_trace_record *r, int id, int prev, int next)
{
	struct sl_event ev;

	if (rc && r->cpu >= 0 && r->cpu < st->ncpu)
		count(st, rc, first, r, id);
	if (r->kind != SL_TR_SCHED_SWITCH) {
		/* every line is written by the task running on its CPU */
		if (r->pid >= 0)
			sl_stats_seen(st, r->cpu, id, r->time);
		return;
	}
	memset(&ev, 0, sizeof(ev));
	ev.type = SL_EV_SWITCH;
	ev.time = r->time;
	ev.cpu = r->cpu;
	ev.group = ev.next_group = -1;
	ev.orig_cpu = -1;
	/* the statistics index by id: the switch's tasks by theirs (idle stays 0) */
	ev.pid = r->task_pid > 0 ? prev : r->task_pid;
	ev.next_pid = r->next_pid > 0 ? next : r->next_pid;
	ev.prev_state = r->prev_state[0] ? r->prev_state[0] : 'R';
	sl_stats_on_event(st, &ev);
}

u64 sl_run_account_ns(const struct sl_stats *st, int id, u64 now)
{
	if (id <= 0 || id >= st->npid)
		return 0;
	const struct sl_pid_stat *p = &st->pid[id];

	return p->cpu_ns + (p->running && now > p->run_since ? now - p->run_since : 0);
}

void sl_run_account_finish(struct sl_stats *st, struct sl_run_counts *rc, u64 end)
{
	sl_stats_finish(st, end);
	if (!rc)
		return;
	rc->lost_switches = rc->unattributed_ns = 0;
	for (int i = 0; i < st->ncpu; i++) {
		rc->lost_switches += st->c[i].lost_switches;
		rc->unattributed_ns += st->c[i].unattributed_ns;
	}
}
