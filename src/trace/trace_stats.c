#include "trace/trace_stats.h"

#include "core/fmt.h"
#include "trace/run_account.h"

#include <float.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

static void iacct_init(struct sl_trace_iacct *a)
{
	a->cur = a->max = -1;
	for (int k = 0; k < SL_TRACE_MAX_CSTATES; k++)
		a->is[k].min = DBL_MAX;
}

static const struct sl_trace_cstates *igroup_cpu(const struct sl_trace_summary *s, int cpu)
{
	return &s->rd.cstates[cpu];
}

/* idlestat's topology order: cluster, then core, then CPU number */
struct topo_key {
	int cluster, core, cpu;
};

static int topo_cmp(const void *pa, const void *pb)
{
	const struct topo_key *x = pa, *y = pb;

	if (x->cluster != y->cluster)
		return x->cluster < y->cluster ? -1 : 1;
	if (x->core != y->core)
		return x->core < y->core ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static void igroup_add(struct sl_trace_summary *s, bool cluster, const int *m, int n)
{
	struct sl_trace_igroup *g = &s->igroup[s->nigroup];
	const struct sl_trace_cstates *c = igroup_cpu(s, m[0]);

	g->cluster = cluster;
	g->cluster_id = c->cluster;
	g->id = cluster ? c->cluster : c->core;
	g->first_cpu = m[0];
	g->cpus = m;
	g->ncpu = n;
	/* create_states: the first CPU's target residencies */
	memcpy(g->target_us, c->target_us, sizeof(g->target_us));
	iacct_init(&g->acct);
	for (int i = 0; i < n; i++) {
		if (cluster)
			s->cpu[m[i]].is_cluster = s->nigroup;
		else
			s->cpu[m[i]].is_core = s->nigroup;
	}
	s->iorder[s->niorder++] = s->nigroup++;
}

/*
 * idlestat's clusters and cores of several CPUs from the header's topology, and the order of
 * its report (topology.c: dump_cpu_topo_info): per cluster (by letter) its line, then per
 * core (by number) the core's line if it has several CPUs, then its CPUs' (by number). CPUs
 * the topology leaves out (idlestat itself does not report them) follow, by number.
 */
static int igroups_build(struct sl_trace_summary *s)
{
	int n = s->rd.cstates_ncpu < s->ncpu ? s->rd.cstates_ncpu : s->ncpu, *m;
	struct topo_key *key;

	s->imember = calloc((size_t)(n ? n : 1), sizeof(int));
	s->igroup = calloc(2 * (size_t)n + 1, sizeof(*s->igroup));
	s->iorder = malloc(sizeof(int) * (3 * (size_t)n + 1));
	if (!s->imember || !s->igroup || !s->iorder)
		return -1;
	m = s->imember;
	key = malloc(sizeof(*key) * (size_t)(n ? n : 1));
	if (!key)
		return -1;
	for (int i = 0; i < n; i++)
		key[i] = (struct topo_key){igroup_cpu(s, i)->cluster, igroup_cpu(s, i)->core, i};
	qsort(key, (size_t)n, sizeof(*key), topo_cmp);
	for (int i = 0; i < n; i++)
		m[i] = key[i].cpu;
	free(key);
	for (int i = 0; i < n;) {
		int cl = igroup_cpu(s, m[i])->cluster, j = i;

		if (cl < 0) { /* not in the topology: sorted first */
			i++;
			continue;
		}
		while (j < n && igroup_cpu(s, m[j])->cluster == cl)
			j++;
		igroup_add(s, true, m + i, j - i);
		for (int k = i; k < j;) {
			int co = igroup_cpu(s, m[k])->core, e = k;

			while (e < j && igroup_cpu(s, m[e])->core == co)
				e++;
			if (e - k > 1)
				igroup_add(s, false, m + k, e - k);
			for (; k < e; k++)
				s->iorder[s->niorder++] = -1 - m[k];
		}
		i = j;
	}
	for (int i = 0; i < n; i++)
		if (igroup_cpu(s, i)->cluster < 0)
			s->iorder[s->niorder++] = -1 - i;
	return 0;
}

static int summary_start(struct sl_trace_summary *s)
{
	s->ncpu = sl_run_account_ncpu(&s->rd);
	if (sl_stats_init(&s->st, 0, s->ncpu))
		return -1;
	s->st_init = true;
	s->cpu = calloc((size_t)s->ncpu, sizeof(*s->cpu));
	if (!s->cpu)
		return -1;
	/* a CPU's idle histogram (59 KiB) is made at its first idle interval: a trace without a
	 * CPU count has 256 CPUs here, and making them all took 35 ms */
	for (int i = 0; i < s->ncpu; i++) {
		s->cpu[i].idle_state = -2;
		iacct_init(&s->cpu[i].is);
		s->cpu[i].is_cluster = s->cpu[i].is_core = -1;
	}
	return s->rd.cstates ? igroups_build(s) : 0;
}

/*
 * Room for one more id in the task table, and for `pid` in the pid map. Both grow without
 * touching their new parts: the task table by realloc (an entry is written when its id is
 * made), the map by calloc and a copy (its new part is the kernel's zero pages until a pid
 * there is seen).
 */
static int dense_grow(struct sl_trace_summary *s, int pid)
{
	if (s->nused >= s->ntask) {
		int n = s->ntask ? s->ntask * 2 : 256;
		struct sl_trace_task *a = realloc(s->task, sizeof(*a) * (size_t)n);

		if (!a)
			return -1;
		s->task = a;
		s->ntask = n;
	}
	if (pid >= s->npidmap) {
		int n = s->npidmap ? s->npidmap : 4096;
		int *m;

		while (n <= pid)
			n *= 2;
		if (n > SL_TRACE_MAX_PID + 1)
			n = SL_TRACE_MAX_PID + 1;
		m = calloc((size_t)n, sizeof(*m));
		if (!m)
			return -1;
		if (s->npidmap)
			memcpy(m, s->pidmap, sizeof(*m) * (size_t)s->npidmap);
		free(s->pidmap);
		s->pidmap = m;
		s->npidmap = n;
	}
	return 0;
}

static inline int pid_id(const struct sl_trace_summary *s, int pid)
{
	return pid > 0 && pid < s->npidmap ? s->pidmap[pid] : 0;
}

int sl_trace_summary_id(const struct sl_trace_summary *s, int pid)
{
	return pid_id(s, pid);
}

/* A new id for pid (> 0, not seen yet); 0 when out of memory (the readers refuse pids above
 * SL_TRACE_MAX_PID: one here would be out of memory too). */
static int __attribute__((noinline)) dense_new(struct sl_trace_summary *s, int pid)
{
	if (!s->nused)
		s->nused = 1;
	if (pid > SL_TRACE_MAX_PID || dense_grow(s, pid)) {
		s->oom = true;
		return 0;
	}
	s->pidmap[pid] = s->nused;
	s->task[s->nused] = (struct sl_trace_task){.pid = pid};
	return s->nused++;
}

/* The dense id of a pid > 0, made on first sight; 0 for pid <= 0 or out of memory. */
static inline int dense_of(struct sl_trace_summary *s, int pid)
{
	int id = pid_id(s, pid);

	return (id && !s->task[id].dead) || pid <= 0 ? id : dense_new(s, pid);
}

/* The id of `pid` (> 0), made on first sight, and marked seen (listed in the report); 0 for
 * pid <= 0 or out of memory. */
static int seen_id(struct sl_trace_summary *s, int pid)
{
	int id = dense_of(s, pid);

	if (id)
		s->task[id].seen = true;
	return id;
}

/* The last comm seen of task id (0: none), unless the line gave none. */
static void set_comm(struct sl_trace_summary *s, int id, const char *comm)
{
	/* a record's comm is a string in an array of the task's comm's size: the whole array
	 * is copied (one fixed-size copy; what follows its NUL is never read) */
	_Static_assert(sizeof(s->task[id].comm) == SL_TRACE_COMM_LEN, "a record's comm fits");
	if (id && comm[0])
		memcpy(s->task[id].comm, comm, SL_TRACE_COMM_LEN);
}

static void idle_event(struct sl_trace_summary *s, int cpu, int state, u64 t)
{
	if (cpu < 0 || cpu >= s->ncpu)
		return;
	struct sl_trace_cpu *c = &s->cpu[cpu];

	if (state < 0) {
		if (c->idle_state >= 0) {
			u64 d = t - c->idle_since;

			if (!c->idle.b && sl_hist_init(&c->idle)) {
				s->oom = true;
				return;
			}
			sl_hist_add(&c->idle, d);
			if (c->idle_state < SL_TRACE_MAX_STATES) {
				struct sl_hist **h = &c->state_idle[c->idle_state];

				if (!*h) {
					*h = calloc(1, sizeof(**h));
					if (!*h || sl_hist_init(*h)) {
						free(*h);
						*h = NULL;
						s->oom = true;
					}
				}
				if (*h)
					sl_hist_add(*h, d);
			}
		}
		c->idle_state = -1;
	} else {
		c->idle_state = state;
		c->idle_since = t;
	}
}

/*
 * idlestat 0.8's accounting of one unit's (a CPU's, a core's, a cluster's) change to `state`
 * (-1: not idle), from its idlestat.c (record_cstate_event, cstate_begin, cstate_end): an
 * event for the state the unit is already in is ignored; any other ends the current state and
 * an entry begins the new one. The duration is taken as idlestat takes it, the difference of
 * the two timestamps as doubles of seconds, times 10^6 (t / 1e9 is the double idlestat's
 * sscanf("%lf") reads from the same decimal); an interval of 0 or less is not counted. Over:
 * shorter than the state's target residency; under: at least the next deeper state's, if
 * that is above 0 and the unit has entered a state at least that deep.
 */
static void iacct_event(struct sl_trace_iacct *a, int state, u64 t, const int *target)
{
	if (state == a->cur)
		return;
	if (a->cur >= 0) {
		struct sl_trace_istate *k = &a->is[a->cur];
		double d = (double)t / 1e9 - (double)a->begin / 1e9;

		if (d > 0) {
			d *= 1e6;
			if (d < target[a->cur]) {
				k->over++;
			} else if (a->cur + 1 <= a->max) {
				int tr = target[a->cur + 1];

				if (tr > 0 && d >= tr)
					k->under++;
			}
			k->min = d < k->min ? d : k->min;
			k->max = d > k->max ? d : k->max;
			k->avg = k->avg + (d - k->avg) / (double)(k->hits + 1);
			k->total += d;
			k->hits++;
		}
		a->cur = -1;
	}
	if (state >= 0) {
		a->begin = t;
		a->cur = state;
		if (state > a->max)
			a->max = state;
	}
}

/* A group's state (topology.c: *_get_least_cstate): the shallowest of its CPUs' (-1 if one
 * of them is not idle). */
static void igroup_update(struct sl_trace_summary *s, int g, u64 t)
{
	struct sl_trace_igroup *p = &s->igroup[g];
	int least = SL_TRACE_MAX_CSTATES;

	for (int i = 0; i < p->ncpu; i++)
		if (s->cpu[p->cpus[i]].is.cur < least)
			least = s->cpu[p->cpus[i]].is.cur;
	iacct_event(&p->acct, least, t, p->target_us);
}

/*
 * A cpu_idle event as idlestat 0.8's store_data takes it: an exit before the CPU's first
 * entry is ignored altogether; otherwise the CPU's state changes, then its core's and its
 * cluster's. States beyond idlestat's 16 are ignored.
 */
static void idlestat_event(struct sl_trace_summary *s, int cpu, int state, u64 t)
{
	static const int none[SL_TRACE_MAX_CSTATES] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	};

	if (cpu < 0 || cpu >= s->ncpu || state >= SL_TRACE_MAX_CSTATES)
		return;
	struct sl_trace_cpu *c = &s->cpu[cpu];

	if (state < 0 && c->is.max < 0)
		return;
	/* while reading: the reader's header */
	iacct_event(&c->is, state, t,
		    cpu < s->rd.cstates_ncpu ? s->rd.cstates[cpu].target_us : none);
	if (c->is_core >= 0)
		igroup_update(s, c->is_core, t);
	if (c->is_cluster >= 0)
		igroup_update(s, c->is_cluster, t);
}

static void blk_issue(struct sl_trace_summary *s, const struct sl_trace_record *r)
{
	unsigned dev = r->dev_major << 20 | r->dev_minor;

	for (size_t i = 0; i < s->npend; i++) {
		if (s->pend[i].dev == dev && s->pend[i].sector == r->sector) {
			s->pend[i].t = r->time; /* reissued */
			return;
		}
	}
	/* a hostile trace of issues that never complete must not grow this (nor its scan) */
	if (s->npend == SL_TRACE_MAX_INFLIGHT) {
		s->blk_untracked++;
		return;
	}
	if (s->npend == s->cap_pend) {
		size_t n = s->cap_pend ? s->cap_pend * 2 : 64;
		struct sl_trace_blk_pending *a = realloc(s->pend, n * sizeof(*a));

		if (!a) {
			s->oom = true;
			return;
		}
		s->pend = a;
		s->cap_pend = n;
	}
	s->pend[s->npend++] = (struct sl_trace_blk_pending){dev, r->sector, r->time};
}

static void blk_complete(struct sl_trace_summary *s, const struct sl_trace_record *r)
{
	unsigned dev = r->dev_major << 20 | r->dev_minor;

	for (size_t i = 0; i < s->npend; i++) {
		if (s->pend[i].dev == dev && s->pend[i].sector == r->sector) {
			sl_hist_add(&s->blk, r->time - s->pend[i].t);
			s->pend[i] = s->pend[--s->npend];
			return;
		}
	}
	s->blk_unmatched++;
}

static void on_record(struct sl_trace_summary *s, const struct sl_trace_record *r)
{
	struct sl_event ev;
	struct sl_trace_task *t;
	int id, a = 0, b = 0;

	if (!s->count[0]++)
		s->first = r->time;
	if (r->time > s->last)
		s->last = r->time;
	if (r->cpu > s->maxcpu)
		s->maxcpu = r->cpu;
	s->count[r->kind]++;
	/*
	 * The ids of the line's task, then of the tasks the event names, made in this order on
	 * first sight (the ids are the order of appearance); the tasks a report lists are those
	 * of the line and of a switch, wake-up, fork or exec.
	 */
	id = r->pid > 0 ? seen_id(s, r->pid) : 0;
	switch (r->kind) {
	case SL_TR_SCHED_SWITCH:
	case SL_TR_SCHED_PROCESS_FORK:
		a = seen_id(s, r->task_pid);
		b = seen_id(s, r->next_pid);
		break;
	case SL_TR_SCHED_WAKEUP:
	case SL_TR_SCHED_WAKEUP_NEW:
	case SL_TR_SCHED_PROCESS_EXEC:
		a = seen_id(s, r->task_pid);
		break;
	case SL_TR_SCHED_PROCESS_EXIT:
	case SL_TR_SCHED_MIGRATE_TASK:
		a = dense_of(s, r->task_pid);
		break;
	default:
		break;
	}
	/* the line's own task is on the CPU: if it was waiting after a wake-up, its switch-in
	 * was not in the trace */
	if (id) {
		t = &s->task[id];
		if (t->waking) {
			t->waking = false;
			s->missed_switch_in++;
		}
		t->running = true;
	}
	switch (r->kind) {
	case SL_TR_SCHED_SWITCH:
		set_comm(s, a, r->task_comm);
		set_comm(s, b, r->next_comm);
		if (a)
			s->task[a].running = false;
		if (b) {
			t = &s->task[b];
			t->running = true;
			if (t->waking) {
				u64 l = r->time - t->wake_ts;

				t->waking = false;
				t->lat_n++;
				t->lat_sum += l;
				if (l > t->lat_max)
					t->lat_max = l;
			}
		}
		break;
	case SL_TR_SCHED_WAKEUP:
	case SL_TR_SCHED_WAKEUP_NEW:
		set_comm(s, a, r->task_comm);
		/* modern kernels trace sched_wakeup for a task still running (ttwu_runnable) */
		if (a && !s->task[a].waking && !s->task[a].running) {
			s->task[a].waking = true;
			s->task[a].wake_ts = r->time;
		}
		break;
	case SL_TR_SCHED_PROCESS_FORK:
		set_comm(s, a, r->task_comm);
		set_comm(s, b, r->next_comm);
		break;
	case SL_TR_SCHED_PROCESS_EXEC:
		set_comm(s, a, r->comm);
		break;
	case SL_TR_CPU_IDLE:
		idle_event(s, r->cpu_id, r->state, r->time);
		idlestat_event(s, r->cpu_id, r->state, r->time);
		break;
	case SL_TR_BLOCK_RQ_ISSUE:
		blk_issue(s, r);
		break;
	case SL_TR_BLOCK_RQ_COMPLETE:
		blk_complete(s, r);
		break;
	default:
		break;
	}
	/* who runs where: the account the trace workload reads the trace through too */
	sl_run_account_record(&s->st, NULL, s->first, r, id, a, b);
	if (r->kind != SL_TR_SCHED_SWITCH && sl_trace_record_to_event(r, &ev)) {
		/* the statistics index by pid: they get the dense ids (the event's pid is the
		 * record's task_pid, its next_pid the record's next_pid) */
		if (ev.pid > 0)
			ev.pid = a;
		if (ev.next_pid > 0)
			ev.next_pid = b;
		sl_stats_on_event(&s->st, &ev);
	}
	/*
	 * A task switched out dead (X; Z, and x as 2.6.3x print TASK_DEAD) is gone: its pid, when
	 * it comes back, is a new task with its own line, as the trace workload splits it (until
	 * then the pid still finds the dead task: sl_trace_summary_id).
	 */
	if (r->kind == SL_TR_SCHED_SWITCH && a &&
	    (r->prev_state[0] == 'X' || r->prev_state[0] == 'Z' || r->prev_state[0] == 'x'))
		s->task[a].dead = true;
}

/* The records of an opened reader into the summary; `path` names the input in messages. */
static int summarize_open(struct sl_trace_summary *s, const char *path, char *err, size_t errlen)
{
	struct sl_trace_record rec;
	int rc;

	while ((rc = sl_trace_next(&s->rd, &rec)) == 1) {
		if (!s->st_init && summary_start(s)) {
			s->oom = true;
			break;
		}
		on_record(s, &rec);
		if (s->oom)
			break;
	}
	if (rc < 0)
		snprintf(err, errlen, "%s", s->rd.err);
	if (rc >= 0 && s->rd.cstates) {
		size_t sz = (size_t)s->rd.cstates_ncpu * sizeof(*s->cstates);

		/* a table even of no CPUs: its presence says the trace named C-states */
		s->cstates = malloc(sz ? sz : 1);
		if (s->cstates) {
			memcpy(s->cstates, s->rd.cstates, sz);
			s->cstates_ncpu = s->rd.cstates_ncpu;
		} else {
			s->oom = true;
		}
	}
	sl_trace_close(&s->rd);
	if (rc >= 0 && (s->oom || s->st.oom)) {
		snprintf(err, errlen, "%s: out of memory", path);
		rc = -1;
	}
	/* nothing at all read (an empty file, /dev/null, every line skipped by --lenient): a
	 * report of zeros would say nothing */
	if (rc >= 0 && !s->rd.records && !s->rd.unknown) {
		char skipped[64] = "";

		if (s->rd.malformed)
			snprintf(skipped, sizeof(skipped), ", %llu malformed ones skipped",
				 (unsigned long long)s->rd.malformed);
		snprintf(
			err, errlen,
			"%s: no trace events in its %lu lines%s (expected ftrace text, a trace-cmd "
			"report, a trace.dat or an idlestat trace)",
			path, s->rd.lines, skipped);
		rc = -1;
	}
	if (rc < 0)
		return -1;
	if (!s->st_init && summary_start(s)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	sl_run_account_finish(&s->st, NULL, s->last);
	return 0;
}

static int summary_init(struct sl_trace_summary *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->maxcpu = -1;
	if (sl_hist_init(&s->blk)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int sl_trace_summarize(struct sl_trace_summary *s, const char *path, bool lenient, char *err,
		       size_t errlen)
{
	if (summary_init(s, err, errlen) || sl_trace_open(&s->rd, NULL, path, lenient, err, errlen))
		return -1;
	return summarize_open(s, path, err, errlen);
}

int sl_trace_summarize_stream(struct sl_trace_summary *s, FILE *f, const char *name, bool lenient,
			      char *err, size_t errlen)
{
	if (summary_init(s, err, errlen) ||
	    sl_trace_open_stream(&s->rd, NULL, f, name, lenient, err, errlen))
		return -1;
	return summarize_open(s, name, err, errlen);
}

void sl_trace_summary_free(struct sl_trace_summary *s)
{
	if (s->st_init)
		sl_stats_free(&s->st);
	for (int i = 0; s->cpu && i < s->ncpu; i++) {
		sl_hist_free(&s->cpu[i].idle);
		for (int k = 0; k < SL_TRACE_MAX_STATES; k++) {
			if (s->cpu[i].state_idle[k]) {
				sl_hist_free(s->cpu[i].state_idle[k]);
				free(s->cpu[i].state_idle[k]);
			}
		}
	}
	free(s->cpu);
	free(s->cstates);
	free(s->igroup);
	free(s->iorder);
	free(s->imember);
	free(s->task);
	free(s->pidmap);
	free(s->pend);
	sl_hist_free(&s->blk);
	memset(s, 0, sizeof(*s));
}

/* ---- report ---- */

static const char *const sort_names[SL_TRACE_SORT_NR] = {
	[SL_TRACE_SORT_PID] = "pid",	   [SL_TRACE_SORT_RUNTIME] = "runtime",
	[SL_TRACE_SORT_SWITCH] = "switch", [SL_TRACE_SORT_AVG] = "avg",
	[SL_TRACE_SORT_MAX] = "max",
};

int sl_trace_sort_parse(const char *spec, struct sl_trace_sort *sort, char *err, size_t errlen)
{
	const char *p = spec;

	memset(sort, 0, sizeof(*sort));
	while (*p) {
		size_t n = strcspn(p, ",");
		int k;

		while (n && *p == ' ') {
			p++;
			n--;
		}
		for (k = 0; k < SL_TRACE_SORT_NR; k++)
			if (strlen(sort_names[k]) == n && !strncmp(p, sort_names[k], n))
				break;
		if (k == SL_TRACE_SORT_NR || sort->n == SL_TRACE_SORT_NR) {
			snprintf(err, errlen,
				 "--sort: '%.*s' is not a key (pid, runtime, switch, avg, max, "
				 "comma-separated)",
				 (int)n, p);
			return -1;
		}
		sort->key[sort->n++] = k;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!sort->n) {
		snprintf(err, errlen, "--sort: give keys (pid, runtime, switch, avg, max)");
		return -1;
	}
	return 0;
}

struct sort_ctx {
	const struct sl_trace_summary *s;
	const struct sl_trace_sort *sort;
};

static const struct sl_pid_stat *pstat(const struct sl_trace_summary *s, int id)
{
	static const struct sl_pid_stat none;

	return id < s->st.npid ? &s->st.pid[id] : &none;
}

static u64 wait_avg(const struct sl_pid_stat *p)
{
	return p->wait_n ? p->wait_total / p->wait_n : 0;
}

/* As perf sched latency: pid ascending, the figures descending; ties by pid. */
static int cmp_task(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	int ia = *(const int *)a, ib = *(const int *)b;
	const struct sl_pid_stat *pa = pstat(c->s, ia), *pb = pstat(c->s, ib);
	int x = c->s->task[ia].pid, y = c->s->task[ib].pid;

	for (int k = 0; k < c->sort->n; k++) {
		u64 u = 0, v = 0;

		switch (c->sort->key[k]) {
		case SL_TRACE_SORT_PID:
			if (x != y)
				return (x > y) - (x < y);
			continue;
		case SL_TRACE_SORT_RUNTIME:
			u = pa->cpu_ns, v = pb->cpu_ns;
			break;
		case SL_TRACE_SORT_SWITCH:
			u = pa->switches, v = pb->switches;
			break;
		case SL_TRACE_SORT_AVG:
			u = wait_avg(pa), v = wait_avg(pb);
			break;
		case SL_TRACE_SORT_MAX:
		case SL_TRACE_SORT_NR:
			u = pa->wait_max, v = pb->wait_max;
			break;
		}
		if (u != v)
			return (u < v) - (u > v);
	}
	/* one pid reused by a later task: the earlier task (the smaller id) first */
	if (x != y)
		return (x > y) - (x < y);
	return (ia > ib) - (ia < ib);
}

/* The ids of the tasks seen, in the report's order (malloc'ed; free it); NULL with *n = 0. */
static int *sorted_ids(const struct sl_trace_summary *s, int *n)
{
	int *ids = s->nused > 1 ? malloc(sizeof(*ids) * (size_t)s->nused) : NULL;
	struct sl_trace_sort by_pid = {.n = 1, .key = {SL_TRACE_SORT_PID}};
	struct sort_ctx c = {s, s->sort.n ? &s->sort : &by_pid};

	*n = 0;
	if (!ids)
		return NULL;
	for (int id = 1; id < s->nused; id++)
		if (s->task[id].seen)
			ids[(*n)++] = id;
	qsort_r(ids, (size_t)*n, sizeof(*ids), cmp_task, &c);
	return ids;
}

static u64 lost_switches(const struct sl_trace_summary *s, u64 *unattributed)
{
	u64 n = 0;

	*unattributed = 0;
	for (int i = 0; i < s->ncpu; i++) {
		n += s->st.c[i].lost_switches;
		*unattributed += s->st.c[i].unattributed_ns;
	}
	return n;
}

static int ncpu_shown(const struct sl_trace_summary *s)
{
	int n = s->rd.ncpu > 0 ? s->rd.ncpu : s->maxcpu + 1;

	return n > s->ncpu ? s->ncpu : n;
}

static const char *cstate_name(const struct sl_trace_summary *s, int cpu, int state)
{
	return cpu < s->cstates_ncpu ? s->cstates[cpu].name[state] : "";
}

/* idlestat's display_factored_time: us below 1000 as "%.0fus", then "%.2fms", then "%.2fs" */
static const char *factored(char *buf, size_t size, double us)
{
	if (us < 1000)
		snprintf(buf, size, "%.0fus", us);
	else if (us < 1000000)
		snprintf(buf, size, "%.2fms", us / 1000.0);
	else
		snprintf(buf, size, "%.2fs", us / 1000000.0);
	return buf;
}

/* Line `i` of idlestat's report: its label ("clusterA", "core0", "cpu0"), the CPU whose state
 * names it shows and its states. */
static const struct sl_trace_iacct *iline(const struct sl_trace_summary *s, int i, char *label,
					  size_t size, int *name_cpu)
{
	int o = s->iorder[i];

	if (o < 0) {
		snprintf(label, size, "cpu%d", -1 - o);
		*name_cpu = -1 - o;
		return &s->cpu[-1 - o].is;
	}
	const struct sl_trace_igroup *g = &s->igroup[o];

	if (g->cluster)
		snprintf(label, size, "cluster%c", g->id + 'A');
	else
		snprintf(label, size, "core%d", g->id);
	*name_cpu = g->first_cpu;
	return &g->acct;
}

static void print_idlestat(const struct sl_trace_summary *s, FILE *out)
{
	fprintf(out, "\nidle states as idlestat reports them (C-state names and target residencies "
		     "from its header):\n");
	fprintf(out, "  %-9s %5s %-10s %10s %10s %10s %10s %7s %6s %6s\n", "unit", "state", "name",
		"min", "max", "avg", "total", "hits", "over", "under");
	for (int i = 0; i < s->niorder; i++) {
		char label[32];
		int nc;
		const struct sl_trace_iacct *a = iline(s, i, label, sizeof(label), &nc);

		for (int k = 0; k < SL_TRACE_MAX_CSTATES; k++) {
			const struct sl_trace_istate *q = &a->is[k];
			char b[4][32];

			if (!q->hits)
				continue;
			fprintf(out, "  %-9s %5d %-10s %10s %10s %10s %10s %7llu %6llu %6llu\n",
				label, k, cstate_name(s, nc, k),
				factored(b[0], sizeof(b[0]), q->min),
				factored(b[1], sizeof(b[1]), q->max),
				factored(b[2], sizeof(b[2]), q->avg),
				factored(b[3], sizeof(b[3]), q->total), (unsigned long long)q->hits,
				(unsigned long long)q->over, (unsigned long long)q->under);
		}
	}
}

static json_object *hist_json(const struct sl_hist *h)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "count", json_object_new_int64((int64_t)h->count));
	json_object_object_add(o, "p50_ns",
			       json_object_new_int64((int64_t)sl_hist_percentile(h, 50)));
	json_object_object_add(o, "p99_ns",
			       json_object_new_int64((int64_t)sl_hist_percentile(h, 99)));
	json_object_object_add(o, "max_ns", json_object_new_int64((int64_t)h->max));
	return o;
}

static void print_json(const struct sl_trace_summary *s, FILE *out)
{
	json_object *root = json_object_new_object(), *o, *a;
	const struct sl_trace_reader *r = &s->rd;

	json_object_object_add(root, "cpus", json_object_new_int(ncpu_shown(s)));
	json_object_object_add(root, "duration_ns",
			       json_object_new_int64((int64_t)(s->last - s->first)));
	o = json_object_new_object();
	for (int k = 1; k < SL_TR_NR_KINDS; k++)
		if (s->count[k])
			json_object_object_add(o, sl_trace_kind_name(k),
					       json_object_new_int64((int64_t)s->count[k]));
	json_object_object_add(root, "events", o);
	o = json_object_new_object();
	for (int i = 0; i < r->nunknown; i++)
		json_object_object_add(o, r->unknown_ev[i].name,
				       json_object_new_int64((int64_t)r->unknown_ev[i].count));
	json_object_object_add(root, "unknown_events", o);
	json_object_object_add(root, "unknown_other",
			       json_object_new_int64((int64_t)r->unknown_other));
	json_object_object_add(root, "malformed_skipped",
			       json_object_new_int64((int64_t)r->malformed));
	json_object_object_add(root, "lost_events", json_object_new_int64((int64_t)r->lost_events));
	json_object_object_add(root, "lost_lines", json_object_new_int64((int64_t)r->lost_lines));
	json_object_object_add(root, "overflowed", json_object_new_boolean(sl_trace_overflowed(r)));
	u64 unattr, nlost = lost_switches(s, &unattr);

	json_object_object_add(root, "lost_switches", json_object_new_int64((int64_t)nlost));
	json_object_object_add(root, "unattributed_ns", json_object_new_int64((int64_t)unattr));

	a = json_object_new_array();
	int n, *ids = sorted_ids(s, &n);

	for (int i = 0; i < n; i++) {
		const struct sl_trace_task *t = &s->task[ids[i]];
		const struct sl_pid_stat *p = ids[i] < s->st.npid ? &s->st.pid[ids[i]] : NULL;
		const struct sl_pid_stat *q = pstat(s, ids[i]);

		o = json_object_new_object();
		json_object_object_add(o, "pid", json_object_new_int(t->pid));
		json_object_object_add(o, "comm", json_object_new_string(t->comm));
		/* the names of run's JSON for the same figures (docs/json.md) */
		json_object_object_add(o, "cpu_time_ns",
				       json_object_new_int64(p ? (int64_t)p->cpu_ns : 0));
		json_object_object_add(o, "context_switches",
				       json_object_new_int64(p ? (int64_t)p->switches : 0));
		json_object_object_add(o, "wakeups", json_object_new_int64((int64_t)t->lat_n));
		json_object_object_add(
			o, "wakeup_latency_avg_ns",
			json_object_new_int64(t->lat_n ? (int64_t)(t->lat_sum / t->lat_n) : 0));
		json_object_object_add(o, "wakeup_latency_max_ns",
				       json_object_new_int64((int64_t)t->lat_max));
		json_object_object_add(o, "runqueue_waits",
				       json_object_new_int64((int64_t)q->wait_n));
		json_object_object_add(o, "runqueue_wait_total_ns",
				       json_object_new_int64((int64_t)q->wait_total));
		json_object_object_add(o, "runqueue_wait_avg_ns",
				       json_object_new_int64((int64_t)wait_avg(q)));
		json_object_object_add(o, "runqueue_wait_max_ns",
				       json_object_new_int64((int64_t)q->wait_max));
		json_object_object_add(o, "runqueue_wait_max_at_ns",
				       json_object_new_int64((int64_t)q->wait_max_at));
		json_object_array_add(a, o);
	}
	free(ids);
	json_object_object_add(root, "per_task", a);

	a = json_object_new_array();
	for (int i = 0; i < ncpu_shown(s); i++) {
		const struct sl_trace_cpu *c = &s->cpu[i];
		json_object *st = json_object_new_object();

		o = json_object_new_object();
		json_object_object_add(o, "cpu", json_object_new_int(i));
		json_object_object_add(o, "busy_ns",
				       json_object_new_int64((int64_t)s->st.c[i].busy_ns));
		json_object_object_add(o, "context_switches",
				       json_object_new_int64((int64_t)s->st.c[i].switches));
		json_object_object_add(o, "lost_switches",
				       json_object_new_int64((int64_t)s->st.c[i].lost_switches));
		json_object_object_add(o, "unattributed_ns",
				       json_object_new_int64((int64_t)s->st.c[i].unattributed_ns));
		json_object_object_add(o, "idle", hist_json(&c->idle));
		for (int k = 0; k < SL_TRACE_MAX_STATES; k++) {
			char key[16];

			if (!c->state_idle[k])
				continue;
			snprintf(key, sizeof(key), "%d", k);
			json_object_object_add(st, key, hist_json(c->state_idle[k]));
		}
		json_object_object_add(o, "idle_by_state", st);
		json_object_array_add(a, o);
	}
	json_object_object_add(root, "per_cpu", a);
	if (s->cstates) {
		a = json_object_new_array();
		for (int i = 0; i < s->niorder; i++) {
			char label[32], cl[2] = {0, 0};
			int nc, g = s->iorder[i];
			const struct sl_trace_iacct *ac = iline(s, i, label, sizeof(label), &nc);

			if (g >= 0)
				cl[0] = (char)(s->igroup[g].cluster_id + 'A');
			for (int k = 0; k < SL_TRACE_MAX_CSTATES; k++) {
				const struct sl_trace_istate *q = &ac->is[k];

				if (!q->hits)
					continue;
				o = json_object_new_object();
				json_object_object_add(o, "unit", json_object_new_string(label));
				if (g < 0) {
					json_object_object_add(o, "cpu",
							       json_object_new_int(-1 - g));
				} else {
					json_object_object_add(o, "cluster",
							       json_object_new_string(cl));
					if (!s->igroup[g].cluster)
						json_object_object_add(
							o, "core",
							json_object_new_int(s->igroup[g].id));
				}
				json_object_object_add(o, "state", json_object_new_int(k));
				json_object_object_add(
					o, "name", json_object_new_string(cstate_name(s, nc, k)));
				json_object_object_add(o, "hits",
						       json_object_new_int64((int64_t)q->hits));
				json_object_object_add(o, "min_us", json_object_new_double(q->min));
				json_object_object_add(o, "max_us", json_object_new_double(q->max));
				json_object_object_add(o, "avg_us", json_object_new_double(q->avg));
				json_object_object_add(o, "total_us",
						       json_object_new_double(q->total));
				json_object_object_add(o, "over",
						       json_object_new_int64((int64_t)q->over));
				json_object_object_add(o, "under",
						       json_object_new_int64((int64_t)q->under));
				json_object_array_add(a, o);
			}
		}
		json_object_object_add(root, "idlestat", a);
	}
	o = hist_json(&s->blk);
	json_object_object_add(o, "unmatched_completes",
			       json_object_new_int64((int64_t)s->blk_unmatched));
	json_object_object_add(o, "outstanding", json_object_new_int64((int64_t)s->npend));
	json_object_object_add(o, "untracked_issues",
			       json_object_new_int64((int64_t)s->blk_untracked));
	json_object_object_add(root, "block_io", o);
	fprintf(out, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	json_object_put(root);
}

static double ms(u64 ns)
{
	return (double)ns / 1e6;
}

static double us(u64 ns)
{
	return (double)ns / 1e3;
}

/*
 * One row of the task table, as fprintf would print
 * "  %7d %-16s %12.3f %9llu %8llu %12.1f %12.1f %8llu %12.1f %12.1f " then "%16.6f\n" (the
 * longest delay's end) or "%16s\n" ("-"), with the figures ms(run), us(latencies, delays) and
 * seconds of the trace clock: written by core/fmt.h (the same characters, several times
 * faster; the rows are most of a large trace's report).
 */
static void task_row(FILE *out, const struct sl_trace_task *t, const struct sl_pid_stat *p,
		     const struct sl_pid_stat *q)
{
	char line[SL_TRACE_COMM_LEN + 256], *e = line;
	size_t n = strlen(t->comm);

	if (t->pid < 0) { /* the readers give pids > 0: printf's own then */
		e += sprintf(e, "  %7d ", t->pid);
	} else {
		*e++ = ' ';
		*e++ = ' ';
		e = sl_fmt_u64(e, (u64)t->pid, 7);
		*e++ = ' ';
	}
	memcpy(e, t->comm, n); /* "%-16s" */
	e += n;
	for (; n < 16; n++)
		*e++ = ' ';
	*e++ = ' ';
	e = sl_fmt_ratio(e, p ? p->cpu_ns : 0, 1000000, 3, 12);
	*e++ = ' ';
	e = sl_fmt_u64(e, p ? p->switches : 0, 9);
	*e++ = ' ';
	e = sl_fmt_u64(e, t->lat_n, 8);
	*e++ = ' ';
	e = sl_fmt_ratio(e, t->lat_n ? t->lat_sum / t->lat_n : 0, 1000, 1, 12);
	*e++ = ' ';
	e = sl_fmt_ratio(e, t->lat_max, 1000, 1, 12);
	*e++ = ' ';
	e = sl_fmt_u64(e, q->wait_n, 8);
	*e++ = ' ';
	e = sl_fmt_ratio(e, wait_avg(q), 1000, 1, 12);
	*e++ = ' ';
	e = sl_fmt_ratio(e, q->wait_max, 1000, 1, 12);
	*e++ = ' ';
	if (q->wait_n) {
		e = sl_fmt_ratio(e, q->wait_max_at, 1000000000, 6, 16);
	} else {
		memset(e, ' ', 15);
		e[15] = '-';
		e += 16;
	}
	*e++ = '\n';
	fwrite(line, 1, (size_t)(e - line), out);
}

static void hist_line(FILE *out, const char *label, const struct sl_hist *h)
{
	fprintf(out, "  %-12s %8llu %10.1f %10.1f %10.1f\n", label, (unsigned long long)h->count,
		us(sl_hist_percentile(h, 50)), us(sl_hist_percentile(h, 99)), us(h->max));
}

static void print_human(const struct sl_trace_summary *s, FILE *out)
{
	const struct sl_trace_reader *r = &s->rd;

	fprintf(out, "trace: %s, %d CPUs, %.3f ms, %lu lines\n", r->path, ncpu_shown(s),
		ms(s->last - s->first), r->lines);
	fprintf(out, "\nevents:\n");
	for (int k = 1; k < SL_TR_NR_KINDS; k++)
		if (s->count[k])
			fprintf(out, "  %-22s %10llu\n", sl_trace_kind_name(k),
				(unsigned long long)s->count[k]);
	for (int i = 0; i < r->nunknown; i++)
		fprintf(out, "  %-22s %10llu (unknown, skipped)\n", r->unknown_ev[i].name,
			(unsigned long long)r->unknown_ev[i].count);
	if (r->unknown_other)
		fprintf(out, "  %-22s %10llu (unknown, skipped)\n", "(other)",
			(unsigned long long)r->unknown_other);
	fprintf(out,
		"woken tasks seen running without a traced switch-in: %llu (no latency sample)\n",
		(unsigned long long)s->missed_switch_in);
	fprintf(out, "malformed lines skipped: %llu; lost events: %llu (%llu LOST lines)%s\n",
		(unsigned long long)r->malformed, (unsigned long long)r->lost_events,
		(unsigned long long)r->lost_lines,
		sl_trace_overflowed(r) ? "; the ring buffer overflowed" : "");
	u64 unattr, nlost = lost_switches(s, &unattr);

	fprintf(out,
		"switches missing from the trace: %llu (%.3f ms between the last sighting of a "
		"task "
		"and the next, charged to nobody)\n",
		(unsigned long long)nlost, ms(unattr));

	fprintf(out, "\n  %7s %-16s %12s %9s %8s %12s %12s %8s %12s %12s %16s\n", "pid", "comm",
		"run ms", "switches", "wakeups", "lat avg us", "lat max us", "delays",
		"delay avg us", "delay max us", "max delay at s");
	int n, *ids = sorted_ids(s, &n);

	for (int i = 0; i < n; i++) {
		const struct sl_trace_task *t = &s->task[ids[i]];
		const struct sl_pid_stat *p = ids[i] < s->st.npid ? &s->st.pid[ids[i]] : NULL;

		task_row(out, t, p, pstat(s, ids[i]));
	}
	free(ids);
	fprintf(out, "\n  %-4s %12s %8s %9s %6s %14s\n", "cpu", "busy ms", "busy %", "switches",
		"lost", "unattrib. ms");
	for (int i = 0; i < ncpu_shown(s); i++) {
		u64 d = s->last - s->first;

		fprintf(out, "  %-4d %12.3f %8.1f %9llu %6llu %14.3f\n", i, ms(s->st.c[i].busy_ns),
			d ? 100.0 * (double)s->st.c[i].busy_ns / (double)d : 0.0,
			(unsigned long long)s->st.c[i].switches,
			(unsigned long long)s->st.c[i].lost_switches,
			ms(s->st.c[i].unattributed_ns));
	}
	fprintf(out, "\nidle intervals (us):\n  %-12s %8s %10s %10s %10s\n", "cpu/state", "count",
		"p50", "p99", "max");
	for (int i = 0; i < ncpu_shown(s); i++) {
		char label[32];

		snprintf(label, sizeof(label), "cpu%d", i);
		hist_line(out, label, &s->cpu[i].idle);
		for (int k = 0; k < SL_TRACE_MAX_STATES; k++) {
			if (!s->cpu[i].state_idle[k])
				continue;
			snprintf(label, sizeof(label), "cpu%d/s%d", i, k);
			hist_line(out, label, s->cpu[i].state_idle[k]);
		}
	}
	if (s->cstates)
		print_idlestat(s, out);
	fprintf(out, "\nblock I/O latency (us), issue to complete by dev+sector:\n");
	fprintf(out, "  %-12s %8s %10s %10s %10s\n", "", "count", "p50", "p99", "max");
	hist_line(out, "all", &s->blk);
	fprintf(out, "  unmatched completes: %llu, outstanding at the end: %zu\n",
		(unsigned long long)s->blk_unmatched, s->npend);
	if (s->blk_untracked)
		fprintf(out, "  issues not tracked (over %d in flight): %llu\n",
			SL_TRACE_MAX_INFLIGHT, (unsigned long long)s->blk_untracked);
}

void sl_trace_summary_print(const struct sl_trace_summary *s, bool json, FILE *out)
{
	if (json)
		print_json(s, out);
	else
		print_human(s, out);
}

int sl_trace_stats(const char *path, bool lenient, const struct sl_trace_sort *sort, bool json,
		   FILE *out, char *err, size_t errlen)
{
	struct sl_trace_summary *s = malloc(sizeof(*s));
	int rc;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = sl_trace_summarize(s, path, lenient, err, errlen);
	if (sort)
		s->sort = *sort;
	if (!rc)
		sl_trace_summary_print(s, json, out);
	sl_trace_summary_free(s);
	free(s);
	return rc;
}
