#include "experiment/row_stats.h"
#include "machine/machine.h"

#include <stdlib.h>
#include <string.h>

int sl_row_stats_init(struct sl_row_stats *rs, int nrows, int ncpu, sl_row_of_fn row_of, void *ctx)
{
	memset(rs, 0, sizeof(*rs));
	rs->row_of = row_of;
	rs->ctx = ctx;
	rs->nrows = nrows;
	rs->first = calloc((size_t)nrows + 1, sizeof(u64));
	rs->last = calloc((size_t)nrows + 1, sizeof(u64));
	rs->exits = calloc((size_t)nrows + 1, sizeof(int));
	rs->tasks = calloc((size_t)nrows + 1, sizeof(int));
	return !rs->first || !rs->last || !rs->exits || !rs->tasks ||
	       sl_stats_init(&rs->st, nrows, ncpu);
}

void sl_row_stats_free(struct sl_row_stats *rs)
{
	sl_stats_free(&rs->st);
	free(rs->pid_row);
	free(rs->first);
	free(rs->last);
	free(rs->exits);
	free(rs->tasks);
}

/* the row of pid's task (-1: none), at an event of time t */
static int row_at(struct sl_row_stats *rs, int pid, u64 t)
{
	if (pid <= 0 || pid > sl_machine_of(rs->sim)->ntasks)
		return -1;
	if (pid >= rs->npid) {
		int n = rs->npid ? rs->npid : 256;

		while (n <= pid)
			n *= 2;
		int *a = realloc(rs->pid_row, sizeof(int) * (size_t)n);

		if (!a) {
			rs->oom = true;
			return -1;
		}
		memset(a + rs->npid, 0, sizeof(int) * (size_t)(n - rs->npid));
		rs->pid_row = a;
		rs->npid = n;
	}
	if (!rs->pid_row[pid]) {
		int k = rs->row_of(rs->ctx, sl_sim_task(rs->sim, pid - 1));

		rs->pid_row[pid] = k >= 0 && k < rs->nrows ? k + 2 : 1;
		if (k >= 0 && k < rs->nrows && !rs->tasks[k]++)
			rs->first[k] = t;
	}
	return rs->pid_row[pid] - 2;
}

static void on_event(void *ctx, const struct sl_event *ev)
{
	struct sl_row_stats *rs = ctx;
	struct sl_event e = *ev;

	e.group = row_at(rs, ev->pid, ev->time);
	if (ev->type == SL_EV_SWITCH || ev->type == SL_EV_FORK)
		e.next_group = row_at(rs, ev->next_pid, ev->time);
	if (ev->type == SL_EV_EXIT && e.group >= 0) {
		rs->last[e.group] = ev->time;
		rs->exits[e.group]++;
	}
	sl_stats_on_event(&rs->st, &e);
}

int sl_row_stats_attach(void *ctx, struct sl_sim *sim)
{
	struct sl_row_stats *rs = ctx;

	rs->sim = sim;
	return sl_sim_subscribe(sim, on_event, rs);
}

u64 sl_row_stats_switches(const struct sl_stats *s, int g)
{
	u64 n = 0;

	for (int pid = 1; pid <= s->maxpid && pid < s->npid; pid++)
		if (s->pid[pid].group1 == g + 1)
			n += s->pid[pid].switches;
	return n;
}
