#include "stats/sched_stats.h"

#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>

int sl_stats_init(struct sl_stats *s, int ngroups, int ncpu)
{
	memset(s, 0, sizeof(*s));
	s->ngroups = ngroups;
	s->ncpu = ncpu;
	s->g = calloc((size_t)(ngroups ? ngroups : 1), sizeof(*s->g));
	s->c = calloc((size_t)ncpu, sizeof(*s->c));
	if (!s->g || !s->c)
		return -1;
	for (int i = 0; i < ncpu; i++)
		s->c[i].cur = -1;
	for (int i = 0; i < ngroups; i++)
		if (sl_hist_init(&s->g[i].lat))
			return -1;
	return sl_hist_init(&s->wake_delay) || sl_hist_init(&s->pred_err) ? -1 : 0;
}

void sl_stats_free(struct sl_stats *s)
{
	for (int i = 0; s->g && i < s->ngroups; i++)
		sl_hist_free(&s->g[i].lat);
	sl_hist_free(&s->wake_delay);
	sl_hist_free(&s->pred_err);
	free(s->g);
	free(s->c);
	free(s->pid);
	memset(s, 0, sizeof(*s));
}

/*
 * The pages of a large new part of the array made present in one call (MADV_POPULATE_WRITE)
 * before they are written: otherwise a page fault each (a trap into the kernel and back
 * per 4 KB; ~3% of the 64-CPU make under 6.18, whose 58k forks grow the array to 5.6 MB). A
 * hint: where the kernel refuses it, the stores fault them in as before.
 */
static void prefault(void *p, size_t len)
{
	uintptr_t pg = 4096, a = ((uintptr_t)p + pg - 1) & ~(pg - 1),
		  e = ((uintptr_t)p + len) & ~(pg - 1);

	if (len >= 16 * pg && e > a)
		madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}

static struct sl_pid_stat *pid_stat(struct sl_stats *s, int pid, int group)
{
	if (pid <= 0)
		return NULL;
	if (pid >= s->npid) {
		int n = s->npid ? s->npid : 64;

		while (n <= pid)
			n *= 2;
		/* pids stop at the kernel's limit: no doubling past it */
		if (n > SL_PID_MAX_LIMIT + 1 && pid <= SL_PID_MAX_LIMIT)
			n = SL_PID_MAX_LIMIT + 1;
		struct sl_pid_stat *a = realloc(s->pid, sizeof(*a) * (size_t)n);

		if (!a) {
			s->oom = true;
			return NULL;
		}
		prefault(a + s->npid, sizeof(*a) * (size_t)(n - s->npid));
		/* zeroed with no group, in one pass over the new part */
		for (int i = s->npid; i < n; i++)
			a[i] = (struct sl_pid_stat){.group = -1};
		s->pid = a;
		s->npid = n;
	}
	struct sl_pid_stat *p = &s->pid[pid];

	if (group >= 0 && group < s->ngroups)
		p->group = group;
	return p;
}

static struct sl_group_stat *group_of(struct sl_stats *s, const struct sl_pid_stat *p)
{
	return p->group >= 0 ? &s->g[p->group] : NULL;
}

static void end_wait(struct sl_stats *s, struct sl_pid_stat *p, u64 t)
{
	struct sl_group_stat *g = group_of(s, p);
	u64 w = t - p->runnable_since;

	p->runnable = false;
	p->wait_total += w;
	p->wait_n++;
	if (w > p->wait_max || p->wait_n == 1) {
		p->wait_max = w;
		p->wait_max_at = t;
	}
	if (g) {
		g->wait_total += w;
		if (w > g->wait_max)
			g->wait_max = w;
	}
}

static void end_latency(struct sl_stats *s, struct sl_pid_stat *p, u64 t)
{
	struct sl_group_stat *g = group_of(s, p);

	p->waking = false;
	if (g)
		sl_hist_add(&g->lat, t - p->wake_ts);
}

static void end_run(struct sl_stats *s, struct sl_pid_stat *p, u64 t)
{
	struct sl_group_stat *g = group_of(s, p);
	u64 d = t > p->run_since ? t - p->run_since : 0;

	p->running = false;
	p->cpu_ns += d;
	if (g)
		g->cpu_ns += d;
	if (p->run_cpu >= 0 && p->run_cpu < s->ncpu)
		s->c[p->run_cpu].busy_ns += d;
}

static void start_run(struct sl_stats *s, struct sl_pid_stat *p, int cpu, u64 t);

/* `pid` (>= 0) runs on CPU `cpu` (in range) from t: what ran there before is over. */
static void cpu_takes(struct sl_stats *s, int cpu, int pid, u64 t)
{
	struct sl_cpu_stat *c = &s->c[cpu];

	if (c->cur == pid) {
		c->seen = t;
		return;
	}
	if (c->cur >= 0 || c->lost) {
		/* no traced switch between the last sighting and this one */
		c->lost_switches++;
		c->unattributed_ns += t > c->seen ? t - c->seen : 0;
	}
	if (c->cur > 0) {
		struct sl_pid_stat *q = c->cur < s->npid ? &s->pid[c->cur] : NULL;

		if (q && q->running && q->run_cpu == cpu)
			end_run(s, q, c->seen);
	}
	c->cur = pid;
	c->lost = false;
	c->seen = t;
	if (pid > 0) {
		struct sl_pid_stat *p = pid_stat(s, pid, -1);

		/* running since a switch-in the trace does not hold: the wait it ended has
		 * no known end, so it gives no sample */
		if (p) {
			p->waking = false;
			p->runnable = false;
			start_run(s, p, cpu, t);
		}
	}
}

/*
 * p runs on cpu from t. If it was running on another CPU, that CPU missed its switch-out: its
 * run there ends at its last sighting and that CPU's current task becomes unknown.
 */
static void start_run(struct sl_stats *s, struct sl_pid_stat *p, int cpu, u64 t)
{
	if (p->running && p->run_cpu != cpu && p->run_cpu >= 0 && p->run_cpu < s->ncpu) {
		struct sl_cpu_stat *o = &s->c[p->run_cpu];

		end_run(s, p, o->seen);
		o->cur = -1;
		o->lost = true;
	} else if (p->running) {
		end_run(s, p, t);
	}
	p->running = true;
	p->run_cpu = cpu;
	p->run_since = t;
}

void sl_stats_seen(struct sl_stats *s, int cpu, int pid, u64 t)
{
	if (cpu < 0 || cpu >= s->ncpu || pid < 0)
		return;
	cpu_takes(s, cpu, pid, t);
}

void sl_stats_on_event(void *ctx, const struct sl_event *ev)
{
	struct sl_stats *s = ctx;
	struct sl_pid_stat *p, *n;
	struct sl_cpu_stat *c = ev->cpu >= 0 && ev->cpu < s->ncpu ? &s->c[ev->cpu] : NULL;

	switch (ev->type) {
	case SL_EV_WAKEUP:
	case SL_EV_WAKEUP_NEW:
		p = pid_stat(s, ev->pid, ev->group);
		if (!p || p->running)
			return;
		if (!p->waking) {
			p->waking = true;
			p->wake_ts = ev->time;
			if (group_of(s, p))
				group_of(s, p)->wakeups++;
		}
		if (!p->runnable) {
			p->runnable = true;
			p->runnable_since = ev->time;
		}
		break;
	case SL_EV_SWITCH:
		s->switches++;
		/* the switch is written by prev on its CPU: a different current task there
		 * means a switch was missed */
		if (c) {
			c->switches++;
			cpu_takes(s, ev->cpu, ev->pid, ev->time);
		}
		/* look both up before using either: growing the table moves it */
		pid_stat(s, ev->pid > ev->next_pid ? ev->pid : ev->next_pid, -1);
		p = pid_stat(s, ev->pid, ev->group);
		n = pid_stat(s, ev->next_pid, ev->next_group);
		if (p && p->running && (!c || p->run_cpu == ev->cpu)) {
			p->switches++;
			end_run(s, p, ev->time);
			if (ev->prev_state == 'R') {
				p->runnable = true;
				p->runnable_since = ev->time;
			}
		}
		if (n) {
			if (n->waking)
				end_latency(s, n, ev->time);
			if (n->runnable)
				end_wait(s, n, ev->time);
			if (c)
				start_run(s, n, ev->cpu, ev->time);
			else {
				n->running = true;
				n->run_cpu = -1;
				n->run_since = ev->time;
			}
		}
		if (c) {
			c->cur = ev->next_pid;
			c->lost = false;
			c->seen = ev->time;
		}
		break;
	case SL_EV_MIGRATE:
		s->migrations++;
		break;
	case SL_EV_IDLE:
		if (ev->state == -1 && ev->predicted)
			sl_hist_add(&s->pred_err, ev->predicted > ev->measured
							  ? ev->predicted - ev->measured
							  : ev->measured - ev->predicted);
		break;
	case SL_EV_WAKE_DELAY:
		s->delayed_wakeups++;
		sl_hist_add(&s->wake_delay, ev->latency);
		break;
	default:
		break;
	}
}

void sl_stats_finish(struct sl_stats *s, u64 end)
{
	if (s->finished)
		return;
	s->finished = true;
	for (int i = 0; i < s->npid; i++) {
		struct sl_pid_stat *p = &s->pid[i];

		if (p->running)
			end_run(s, p, end);
		if (p->waking)
			end_latency(s, p, end);
		if (p->runnable)
			end_wait(s, p, end);
	}
}
