/*
 * trace: a recorded trace replayed as task programs (the design: docs/workloads.md, "trace
 * workload"). One pass over the records extracts, per task, its CPU bursts (switch-in to the
 * switch-out that blocks it, preemptions summed), its sleeps by kind (S woken by its own
 * hrtimer, S woken by a task, S woken by an interrupt, D) and its wake-ups of others, forks and
 * exit; spawn() turns them into programs where a wake-up by a task is a semaphore the waker ups
 * and the wakee downs, so a waker that runs later in the simulation wakes later too.
 */
#include "workload/trace.h"
#include "trace/format.h"
#include "core/parse.h"
#include "trace/run_account.h"
#include "machine/params.h"

#include <json-c/json.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* extraction states of a task */
enum { XS_UNSEEN, XS_RUN, XS_RUNNABLE, XS_BLOCKED, XS_DEAD };

/* the CPU's context: who runs there, and the interrupt or hrtimer being handled */
struct tw_cpu {
	int cur;      /* task index; -1: unknown, -2: idle */
	u64 idle_at;  /* cur -2: since when */
	u64 seq;      /* task switch-ins so far */
	bool hrt;     /* an hrtimer_wakeup expired here, its wake-up not seen yet */
	int hrt_task; /* whose (-1: the timer's start was not traced) */
	bool irq;     /* an interrupt was entered here since the last switch / wake-up */
	bool cause;   /* since the last switch: something that could preempt (SL_TW_YIELDS) */
	u64 irq_time;
	int lat_task; /* the task whose idle wake-up is measured here (-1: none; trace_wake.c) */
	int queued;   /* woken tasks that landed here and have not run since (vcpu_pack_irq) */
	int *pre;     /* tasks preempted here (SL_TW_PREEMPT_DEPS), some stale */
	int npre, cappre;
};

/* hrtimer id -> task index of the hrtimer_start with function hrtimer_wakeup */
struct tw_hrt {
	u64 *k;
	int *v;
	size_t cap, n;
};

/* counts by a u64 key (waker << 32 | wakee, or a pair of tasks): the key map of the hrtimers'
 * (struct tw_hrt) gives each key its slot in c */
struct tw_edges {
	struct tw_hrt slot;
	int *c;
	int n, cap;
};

struct tw_x {
	struct sl_tw *tw;
	struct tw_cpu *cpu;
	int ncpu;
	struct tw_hrt hrt;
	struct tw_edges edges;
	/* per pair of tasks (lower index << 32 | higher), its wake-ups either way that show a
	 * hold less those that are replies */
	struct tw_edges pairs;
	/* who ran where, as trace-stats accounts it: the bursts' CPU time (ids: index + 1) */
	struct sl_stats st;
	bool st_init;
	/* the idle wake-up latencies' samples (trace_wake.c) */
	struct sl_tw_lat_acc lat_remote, lat_local;
	bool oom;
};

static size_t hash_u64(u64 k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

static int idx_find(const struct sl_tw *tw, int pid)
{
	if (!tw->hcap)
		return -1;
	for (size_t i = hash_u64((u64)pid) & (tw->hcap - 1);; i = (i + 1) & (tw->hcap - 1)) {
		if (tw->hk[i] == -1)
			return -1;
		if (tw->hk[i] == pid)
			return tw->hv[i];
	}
}

static int idx_put(struct sl_tw *tw, int pid, int idx)
{
	if ((tw->hn + 1) * 2 > tw->hcap) {
		size_t cap = tw->hcap ? tw->hcap * 2 : 256;
		int *k = malloc(cap * sizeof(int)), *v = malloc(cap * sizeof(int));

		if (!k || !v) {
			free(k);
			free(v);
			return -1;
		}
		memset(k, 0xff, cap * sizeof(int));
		for (size_t i = 0; i < tw->hcap; i++) {
			if (tw->hk[i] == -1)
				continue;
			size_t j = hash_u64((u64)tw->hk[i]) & (cap - 1);

			while (k[j] != -1)
				j = (j + 1) & (cap - 1);
			k[j] = tw->hk[i];
			v[j] = tw->hv[i];
		}
		free(tw->hk);
		free(tw->hv);
		tw->hk = k;
		tw->hv = v;
		tw->hcap = cap;
	}
	size_t i = hash_u64((u64)pid) & (tw->hcap - 1);

	while (tw->hk[i] != -1 && tw->hk[i] != pid)
		i = (i + 1) & (tw->hcap - 1);
	if (tw->hk[i] == -1)
		tw->hn++;
	tw->hk[i] = pid;
	tw->hv[i] = idx;
	return 0;
}

static int hrt_find(const struct tw_hrt *h, u64 id)
{
	if (!h->cap)
		return -1;
	for (size_t i = hash_u64(id) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		if (h->v[i] == -2)
			return -1;
		if (h->k[i] == id)
			return h->v[i];
	}
}

static int hrt_put(struct tw_hrt *h, u64 id, int task)
{
	if ((h->n + 1) * 2 > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 256;
		u64 *k = malloc(cap * sizeof(u64));
		int *v = malloc(cap * sizeof(int));

		if (!k || !v) {
			free(k);
			free(v);
			return -1;
		}
		for (size_t i = 0; i < cap; i++)
			v[i] = -2;
		for (size_t i = 0; i < h->cap; i++) {
			if (h->v[i] == -2)
				continue;
			size_t j = hash_u64(h->k[i]) & (cap - 1);

			while (v[j] != -2)
				j = (j + 1) & (cap - 1);
			k[j] = h->k[i];
			v[j] = h->v[i];
		}
		free(h->k);
		free(h->v);
		h->k = k;
		h->v = v;
		h->cap = cap;
	}
	size_t i = hash_u64(id) & (h->cap - 1);

	while (h->v[i] != -2 && h->k[i] != id)
		i = (i + 1) & (h->cap - 1);
	if (h->v[i] == -2)
		h->n++;
	h->k[i] = id;
	h->v[i] = task;
	return 0;
}

/*
 * The task of pid, created on first sight and again when the pid comes back after its task
 * died (pids are reused); -1 when out of memory
 */
static int sl_task_of(struct tw_x *x, int pid, const char *comm)
{
	struct sl_tw *tw = x->tw;
	int i = idx_find(tw, pid);

	if (i >= 0 && tw->t[i].state != XS_DEAD)
		return i;
	if (i >= 0)
		tw->pid_reuse++;
	if (tw->n == tw->cap) {
		int cap = tw->cap ? tw->cap * 2 : 64;
		struct sl_tw_task *t = realloc(tw->t, sizeof(*t) * (size_t)cap);

		if (!t)
			goto oom;
		tw->t = t;
		tw->cap = cap;
	}
	i = tw->n;
	if (idx_put(tw, pid, i))
		goto oom;
	tw->n++;
	struct sl_tw_task *t = &tw->t[i];

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->parent = -1;
	t->prio = 120;
	t->last_cpu = -1;
	t->pre_cpu = t->pre_dep = t->woke = -1;
	t->ipi_waker = -1;
	t->queued_on = t->irq_pack_from = -1;
	t->last_block = t->woken_by = t->last_cin = t->stretch_cin = t->early_by = -1;
	t->state = XS_UNSEEN;
	t->block_since = tw->t0;
	t->block_kind = 'S';
	snprintf(t->comm, sizeof(t->comm), "%s", comm && comm[0] ? comm : "task");
	return i;
oom:
	x->oom = true;
	return -1;
}

static int push(struct tw_x *x, struct sl_tw_task *t, int kind, u64 ns, int arg, int arg2, int cost)
{
	if (t->nops == t->cap) {
		int cap = t->cap ? t->cap * 2 : 8;
		struct sl_tw_op *o = realloc(t->ops, sizeof(*o) * (size_t)cap);

		if (!o) {
			x->oom = true;
			return -1;
		}
		t->ops = o;
		t->cap = cap;
	}
	if (kind == TW_SLEEP || kind == TW_OPEN || kind == TW_IO || kind == TW_WAIT)
		t->last_block = t->nops;
	t->ops[t->nops++] = (struct sl_tw_op){.ns = ns,
					      .arg = arg,
					      .arg2 = (short)arg2,
					      .kind = (unsigned char)kind,
					      .cost = (unsigned char)cost};
	x->tw->nops++;
	return 0;
}

static u64 since(u64 now, u64 then)
{
	return now > then ? now - then : 0;
}

/*
 * The burst so far ends here (a wake-up, a fork or blocking): one TW_RUN of the CPU time the
 * run account charged the task since its last one (run_account.h: the same as trace-stats').
 */
static void flush_run(struct tw_x *x, struct sl_tw_task *t, u64 now)
{
	u64 ns = sl_run_account_ns(&x->st, (int)(t - x->tw->t) + 1, now);

	if (ns > t->flushed) {
		push(x, t, TW_RUN, ns - t->flushed, 0, 0, 0);
		t->cpu_ns += ns - t->flushed;
		t->flushed = ns;
	}
}

static struct tw_cpu *cpu_of(struct tw_x *x, int c)
{
	if (c < 0 || c >= SL_TRACE_MAX_CPUS)
		return NULL;
	if (c >= x->ncpu) {
		struct tw_cpu *a = realloc(x->cpu, sizeof(*a) * (size_t)(c + 1));

		if (!a) {
			x->oom = true;
			return NULL;
		}
		for (int i = x->ncpu; i <= c; i++)
			a[i] = (struct tw_cpu){.cur = -1, .hrt_task = -1, .lat_task = -1};
		x->cpu = a;
		x->ncpu = c + 1;
	}
	return &x->cpu[c];
}

static void set_prio(struct sl_tw_task *t, int prio, const char *comm)
{
	t->prio = prio;
	if (comm && comm[0])
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/*
 * The idle wake-up latencies (trace_wake.c). A wake-up of task i seen at r (its sched_waking,
 * or its sched_wakeup in a trace without them) starts one.
 */
static void lat_waking(struct tw_x *x, const struct sl_trace_record *r)
{
	int i = idx_find(x->tw, r->task_pid);

	if (i < 0)
		return;
	x->tw->t[i].lat_state = 1;
	x->tw->t[i].lat_at = r->time;
	x->tw->t[i].lat_from = r->cpu;
}

/*
 * vcpu_pack_irq, as the recording shows it: a wake-up sent by an interrupt (pid 0 on an idle
 * CPU) of a task that last ran on that CPU, while another woken task waits to run there and
 * some other CPU is idle with nothing waiting, is counted where it lands (pack_lands).
 */
static void pack_waking(struct tw_x *x, const struct sl_trace_record *r)
{
	int i = idx_find(x->tw, r->task_pid), f = r->cpu;
	struct sl_tw_task *t;

	if (i < 0 || r->pid != 0 || f < 0 || f >= x->ncpu)
		return;
	t = &x->tw->t[i];
	t->irq_pack_from = -1;
	if (t->last_cpu != f || x->cpu[f].cur != -2 || x->cpu[f].queued - (t->queued_on == f) < 1)
		return;
	for (int c = 0; c < x->ncpu; c++)
		if (c != f && x->cpu[c].cur == -2 && !x->cpu[c].queued) {
			t->irq_pack_from = f;
			return;
		}
}

/* task i's wake-up lands on cpu: it waits there until it runs (pack_ran), and is counted */
static void pack_lands(struct tw_x *x, int i, int cpu)
{
	struct sl_tw_task *t = &x->tw->t[i];

	if (t->irq_pack_from >= 0) {
		x->tw->irq_pack_n++;
		x->tw->irq_pack_stay += cpu == t->irq_pack_from;
		t->irq_pack_from = -1;
	}
	if (t->queued_on < 0 && cpu >= 0 && cpu < x->ncpu && x->cpu[cpu].cur != i) {
		t->queued_on = cpu;
		x->cpu[cpu].queued++;
	}
}

/*
 * A woken task pulled to another CPU before it ran (an idle balance's sched_migrate_task)
 * waits there now: counted on its old CPU until its switch-in, it would make that CPU look
 * busy to pack_waking and the new one free.
 */
static void pack_moved(struct tw_x *x, struct sl_tw_task *t, int cpu)
{
	if (!x->cpu || t->queued_on < 0 || cpu < 0 || cpu >= x->ncpu || cpu == t->queued_on)
		return;
	x->cpu[t->queued_on].queued--;
	x->cpu[cpu].queued++;
	t->queued_on = cpu;
}

static void pack_ran(struct tw_x *x, struct sl_tw_task *t)
{
	if (t->queued_on >= 0)
		x->cpu[t->queued_on].queued--;
	t->queued_on = -1;
}

/*
 * Its sched_wakeup says it landed on cpu: measured when that CPU was idle since before and no
 * other wake-up landed there waits to run (one that does waits behind it: a run queue's wait,
 * which the simulation makes itself, not the CPU's wake-up).
 */
static void lat_lands(struct tw_x *x, int i, int cpu)
{
	struct sl_tw_task *t = &x->tw->t[i];
	struct tw_cpu *c = cpu >= 0 && cpu < x->ncpu ? &x->cpu[cpu] : NULL;

	if (t->lat_state != 1)
		return;
	t->lat_state = 0;
	if (!c || c->cur != -2 || c->idle_at > t->lat_at)
		return;
	if (c->lat_task >= 0) {
		x->tw->t[c->lat_task].lat_state = 0;
		return;
	}
	t->lat_state = 2;
	t->lat_cpu = cpu;
	c->lat_task = i;
}

/*
 * Task i's switch-in on cpu at now: the sample, when it is the first task to run where it
 * landed (not pulled away, and not behind another task), and the end of what cpu waited for.
 */
static void lat_switch_in(struct tw_x *x, struct tw_cpu *c, int i, int cpu, u64 now)
{
	struct sl_tw_task *t = &x->tw->t[i];

	if (c->lat_task >= 0 && c->lat_task != i)
		x->tw->t[c->lat_task].lat_state = 0;
	c->lat_task = -1;
	if (t->lat_state == 2 && t->lat_cpu == cpu &&
	    sl_tw_lat_push(t->lat_from != cpu ? &x->lat_remote : &x->lat_local,
			   since(now, t->lat_at)))
		x->oom = true;
	t->lat_state = 0;
}

/* task i starts running on CPU cpu at now (a switch-in) */
static void switch_in(struct tw_x *x, struct tw_cpu *c, int cpu, int i, u64 now)
{
	struct sl_tw *tw = x->tw;
	struct sl_tw_task *t = &tw->t[i];

	lat_switch_in(x, c, i, cpu, now);
	pack_ran(x, t);

	if (t->state == XS_BLOCKED) {
		/* no wake-up was seen: the sleep is replayed for its recorded length */
		u64 d = since(now, t->block_since);

		tw->un.no_wake++;
		push(x, t, t->block_kind == 'D' ? TW_IO : TW_OPEN, d, 0, 0, 0);
		if (t->block_kind == 'D') {
			t->n_io++;
			t->ns_io += d;
		} else {
			t->n_open++;
			t->ns_open += d;
		}
	}
	/* the machine's switch-in cost of this switch: docs/workloads.md */
	if (!push(x, t, TW_CIN, now, t->last_cpu, cpu,
		  t->last_cpu == cpu && c->seq != t->last_seq)) {
		/* the first since it last blocked begins a stretch without blocking */
		if (t->last_cin < t->last_block || t->last_cin < 0)
			t->stretch_cin = t->nops - 1;
		t->last_cin = t->nops - 1;
	}
	c->seq++;
	t->last_seq = c->seq;
	t->last_cpu = cpu;
	t->switch_in++;
	t->pre_cpu = -1;
	t->state = XS_RUN;
	t->run_since = now;
	c->cur = i;
}

/*
 * A record in task pid's context on CPU cpu: pid runs there. When the trace did not say so
 * (a switch-in from idle that was not traced, which real captures show), it is switched in at
 * the CPU's last idle record, and the task it replaces is taken as preempted then.
 */
static int ensure_running(struct tw_x *x, int cpu, int pid, const char *comm, u64 now)
{
	struct sl_tw *tw = x->tw;
	struct tw_cpu *c = cpu_of(x, cpu);
	int i = sl_task_of(x, pid, comm);

	if (!c || i < 0)
		return -1;
	struct sl_tw_task *t = &tw->t[i];

	if (t->state == XS_RUN && c->cur == i)
		return i;
	if (t->state == XS_UNSEEN && c->cur == -1) {
		/* running since before the trace: charged from the CPU's first record */
		tw->un.first_burst++;
		t->state = XS_RUN;
		t->run_since = now;
		t->last_cpu = cpu;
		c->cur = i;
		return i;
	}
	/* charged from here (the run account), the CPU's time before it to nobody */
	tw->un.missed_switch_in++;
	if (c->cur >= 0) {
		struct sl_tw_task *o = &tw->t[c->cur];

		tw->un.missing_switch++;
		if (o->state == XS_RUN)
			o->state = XS_RUNNABLE;
	}
	if (t->state == XS_RUN) {
		/* running elsewhere as far as the trace said: that CPU lost a switch */
		tw->un.missing_switch++;
		t->state = XS_RUNNABLE;
		if (t->last_cpu >= 0 && t->last_cpu < x->ncpu && x->cpu[t->last_cpu].cur == i)
			x->cpu[t->last_cpu].cur = -1;
	}
	switch_in(x, c, cpu, i, now);
	return i;
}

/* task i is preempted on CPU cpu by the task it woke: it waits there for it to block */
static void preempted(struct tw_x *x, struct tw_cpu *c, int cpu, int i)
{
	x->tw->t[i].pre_cpu = cpu;
	for (int k = 0; k < c->npre; k++)
		if (c->pre[k] == i)
			return;
	if (c->npre == c->cappre) {
		int cap = c->cappre ? c->cappre * 2 : 8;
		int *a = realloc(c->pre, sizeof(int) * (size_t)cap);

		if (!a) {
			x->oom = true;
			return;
		}
		c->pre = a;
		c->cappre = cap;
	}
	c->pre[c->npre++] = i;
}

/*
 * Task w blocked on CPU cpu, where tasks it preempted after they woke it still wait: each of
 * them resumes after w's burst (SL_TW_PREEMPT_DEPS). The entries of tasks no longer waiting
 * there go.
 */
static void blocked_over(struct tw_x *x, struct tw_cpu *c, int cpu, int w)
{
	struct sl_tw *tw = x->tw;
	int n = 0;

	for (int k = 0; k < c->npre; k++) {
		int i = c->pre[k];
		struct sl_tw_task *t = &tw->t[i];

		if (t->state != XS_RUNNABLE || t->pre_cpu != cpu || i == w)
			continue;
		c->pre[n++] = i;
		if (t->pre_dep != w)
			continue;
		t->pre_dep = -1;
		/* t's burst before its preemption, then the wait for w's */
		flush_run(x, t, 0);
		push(x, &tw->t[w], TW_WAKE, 0, i, 0, 0);
		push(x, t, TW_WAIT, 0, w, 0, 0);
		/* released by w, as a wake-up by w would (hold_start's replies) */
		t->woken_by = w;
		t->unblocked_at = tw->t[w].block_since;
		tw->preempt_deps++;
	}
	c->npre = n;
}

static void early(struct tw_x *x, int i, bool blocks, u64 now);

static void on_switch(struct tw_x *x, const struct sl_trace_record *r)
{
	struct sl_tw *tw = x->tw;
	struct tw_cpu *c = cpu_of(x, r->cpu);
	u64 now = r->time;

	if (!c)
		return;
	c->hrt = c->irq = false;
	if (r->task_pid > 0) {
		int i = ensure_running(x, r->cpu, r->task_pid, r->task_comm, now);

		if (i < 0)
			return;
		struct sl_tw_task *t = &tw->t[i];
		char st = r->prev_state[0] ? r->prev_state[0] : 'R';

		set_prio(t, r->task_prio, r->task_comm);
		if (t->early_by >= 0) {
			early(x, i, st == 'S', now);
			if (t->state == XS_RUNNABLE && st == 'S') {
				/* blocked and already woken: its burst is over */
				if (tw->flags & SL_TW_PREEMPT_DEPS)
					blocked_over(x, c, r->cpu, i);
				goto next;
			}
		}
		/* dead (2.6.3x print TASK_DEAD as x); an exiting task can still be preempted */
		if (st == 'X' || st == 'Z' || st == 'x') {
			flush_run(x, t, now);
			t->bursts++;
			t->state = XS_DEAD;
			t->exited = true;
		} else if (st == 'R' && !c->cause && (tw->flags & SL_TW_YIELDS)) {
			/* nothing here could have preempted it: it yielded */
			flush_run(x, t, now);
			push(x, t, TW_YIELD, 0, 0, 0, 0);
			tw->yields++;
			t->state = XS_RUNNABLE;
		} else if (st == 'R') {
			t->state = XS_RUNNABLE;
			int n = r->next_pid > 0 ? idx_find(tw, r->next_pid) : -1;

			/* preempted by the task it woke in this stretch */
			if ((tw->flags & SL_TW_PREEMPT_DEPS) && n >= 0 && n == t->woke &&
			    t->woke_at >= t->run_since) {
				t->pre_dep = n;
				preempted(x, c, r->cpu, i);
			}
		} else {
			flush_run(x, t, now);
			t->bursts++;
			t->state = XS_BLOCKED;
			t->block_kind = st == 'D' ? 'D' : 'S';
			t->block_since = now;
			if (tw->flags & SL_TW_PREEMPT_DEPS)
				blocked_over(x, c, r->cpu, i);
		}
	}
next:
	c->cur = -2;
	c->idle_at = now;
	c->cause = false;
	if (r->next_pid > 0) {
		int i = sl_task_of(x, r->next_pid, r->next_comm);

		if (i < 0)
			return;
		set_prio(&tw->t[i], r->next_prio, r->next_comm);
		if (tw->t[i].state == XS_RUN) {
			/* running elsewhere as far as the trace said: that CPU lost a switch */
			struct sl_tw_task *t = &tw->t[i];

			tw->un.missing_switch++;
			if (t->last_cpu >= 0 && t->last_cpu < x->ncpu &&
			    x->cpu[t->last_cpu].cur == i)
				x->cpu[t->last_cpu].cur = -1;
		}
		switch_in(x, c, r->cpu, i, now);
	}
}

/*
 * Task i's pending wake-up by a task lands on CPU cpu (its sched_wakeup's target_cpu; the
 * sched_waking's is the CPU it last ran on). A wake-up onto another CPU that was idle since
 * before it was sent an IPI, which the waker's burst after the wake-up holds (the recording
 * machine's wake_ipi): its TW_WAKE is marked so that the replay takes that cost out once
 * (docs/workloads.md, "Costs counted once").
 */
static void wake_lands(struct tw_x *x, int i, int cpu)
{
	struct sl_tw *tw = x->tw;
	struct sl_tw_task *t = &tw->t[i];
	const struct tw_cpu *c = cpu >= 0 && cpu < x->ncpu ? &x->cpu[cpu] : NULL;

	if (t->ipi_waker < 0)
		return;
	if (cpu != t->ipi_from && c && c->cur == -2 && c->idle_at <= t->ipi_at) {
		tw->t[t->ipi_waker].ops[t->ipi_op].cost = 1;
		tw->ipi_wakes++;
	}
	t->ipi_waker = -1;
}

/* key into the set, its count + delta; -1: out of memory */
static int edge_add(struct tw_edges *e, u64 key, int delta)
{
	int i = hrt_find(&e->slot, key);

	if (i < 0) {
		if (e->n == e->cap) {
			int cap = e->cap ? e->cap * 2 : 256;
			int *c = realloc(e->c, sizeof(*c) * (size_t)cap);

			if (!c)
				return -1;
			e->c = c;
			e->cap = cap;
		}
		if (hrt_put(&e->slot, key, e->n))
			return -1;
		i = e->n++;
		e->c[i] = 0;
	}
	e->c[i] += delta;
	return 0;
}

/* key's count (0: not in the set) */
static int edge_get(const struct tw_edges *e, u64 key)
{
	int i = hrt_find(&e->slot, key);

	return i < 0 ? 0 : e->c[i];
}

static void edges_free(struct tw_edges *e)
{
	free(e->slot.k);
	free(e->slot.v);
	free(e->c);
}

static u64 edge_key(int waker, int wakee)
{
	return (u64)(unsigned)waker << 32 | (unsigned)wakee;
}

static u64 pair_key(int a, int b)
{
	return a < b ? edge_key(a, b) : edge_key(b, a);
}

/* a wake-up between a and b with a hold (+1) or a reply (-1), for finish() */
static void pair_count(struct tw_x *x, int a, int b, int hold)
{
	if (hold != -1 && edge_add(&x->pairs, pair_key(a, b), hold >= 0 ? 1 : -1))
		x->oom = true;
}

/*
 * The last switch-in of w at or before time tb among its ops from lo on (-1: none).
 * Switch-ins are in time order, so a binary search, each probe going back to the switch-in
 * that began the burst it lands in.
 */
static int cin_before(const struct sl_tw_task *w, int lo, u64 tb)
{
	int hi = w->last_cin - 1, best = -1;

	if (w->last_cin < lo)
		return -1;
	/* most often: running since before tb */
	if (w->ops[w->last_cin].ns <= tb)
		return w->last_cin;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, j = mid;

		while (j >= lo && w->ops[j].kind != TW_CIN)
			j--;
		if (j < lo) {
			lo = mid + 1;
		} else if (w->ops[j].ns <= tb) {
			best = j;
			lo = mid + 1;
		} else {
			hi = j - 1;
		}
	}
	return best;
}

static int ho_put(struct tw_x *x, const struct sl_tw_handoff *ho)
{
	struct sl_tw *tw = x->tw;

	if (tw->nho == tw->capho) {
		int cap = tw->capho ? tw->capho * 2 : 64;
		struct sl_tw_handoff *a = realloc(tw->ho, sizeof(*a) * (size_t)cap);

		if (!a)
			return -1;
		tw->ho = a;
		tw->capho = cap;
	}
	tw->ho[tw->nho++] = *ho;
	return 0;
}

/*
 * Task wi wakes task i (blocked since i->block_since, tb): where wi's hold on what i waited
 * for begins, or -1 with the reason counted (SL_TW_HANDOFFS). wi's wake-up ends a stretch
 * of it without blocking (no blocking op since its first switch-in after its last block,
 * s); it held from the later of s and its last switch-in at or before tb. A wake-up of i
 * that answers i's wake-up of wi is a reply, not a release: wi last woken by i, and either
 * in the burst i then blocked at, or not run again before tb (a pipe's reader answering the
 * writer it read from).
 */
static int hold_start(struct sl_tw *tw, const struct sl_tw_task *w, int i, u64 tb)
{
	const struct sl_tw_task *t = &tw->t[i];
	int s = w->stretch_cin > w->last_block ? w->stretch_cin : -1;
	bool ran;

	/* running since before the trace, never blocked: its stretch began with the trace
	 */
	if (w->last_block < 0 && w->nops && w->ops[0].kind != TW_CIN && !w->created)
		s = 0;
	if (s < 0) {
		tw->fixed.waker_off++;
		return -1;
	}
	ran = w->ops[s].kind != TW_CIN || w->ops[s].ns <= tb;
	if (w->woken_by == i && (w->unblocked_at >= t->run_since || !ran)) {
		tw->fixed.reply++;
		return -2;
	}
	if (!ran)
		return s;
	int h = cin_before(w, s, tb);

	return h < 0 ? s : h;
}

/*
 * Task i's next record after a wake-up traced while it still ran (on another CPU): when it
 * is the switch-out that blocks it (blocks: S), that wake-up ended this block
 * (try_to_wake_up raced the wakee's schedule(): the wakee was already off its run queue,
 * its switch-out traced after), a wait with the wake-up at its point of the waker's burst;
 * else the wake-up found it running (wake_not_blocked) and its WAKE op goes. tw->early
 * counts the first.
 */
static void early(struct tw_x *x, int i, bool blocks, u64 now)
{
	struct sl_tw *tw = x->tw;
	struct sl_tw_task *t = &tw->t[i], *w;
	int wi = t->early_by;

	if (wi < 0)
		return;
	t->early_by = -1;
	w = &tw->t[wi];
	if (!blocks) {
		/* a RUN of 0 is no step (build) and no cost (burst_credits) */
		w->ops[t->early_wake] = (struct sl_tw_op){.kind = TW_RUN};
		tw->un.wake_not_blocked++;
		/* and its hand-off's reason, counted when it was traced, goes too */
		if (t->early_hold == -2)
			tw->fixed.reply--;
		else if (t->early_hold == -1 && (tw->flags & SL_TW_HANDOFFS))
			tw->fixed.waker_off--;
		return;
	}
	struct sl_tw_handoff ho = {
		.waker = wi, .wakee = i, .hold = t->early_hold, .wake = t->early_wake};

	flush_run(x, t, now);
	t->bursts++;
	t->block_since = now;
	ho.wait = t->nops;
	push(x, t, TW_WAIT, 0, wi, 0, 0);
	t->state = XS_RUNNABLE;
	t->woken_by = wi;
	t->unblocked_at = t->early_at;
	w->wakes_given++;
	w->woke = i;
	w->woke_at = t->early_at;
	t->n_wait++;
	tw->deps++;
	tw->early++;
	if (edge_add(&x->edges, edge_key(wi, i), 1))
		x->oom = true;
	if (tw->flags & SL_TW_HANDOFFS)
		pair_count(x, wi, i, ho.hold);
	if (ho.hold >= 0 && ho_put(x, &ho))
		x->oom = true;
}

static void on_wake(struct tw_x *x, const struct sl_trace_record *r)
{
	struct sl_tw *tw = x->tw;
	struct tw_cpu *c = cpu_of(x, r->cpu);
	u64 now = r->time;
	int i = sl_task_of(x, r->task_pid, r->task_comm);

	if (!c || i < 0)
		return;
	struct sl_tw_task *t = &tw->t[i];

	if (t->state == XS_UNSEEN) {
		/* blocked since before the trace: from its start */
		t->state = XS_BLOCKED;
		t->block_since = tw->t0;
	}
	if (t->state == XS_RUN && t->early_by < 0 && c->cur >= 0 && c->cur != i &&
	    tw->t[c->cur].state == XS_RUN && !(c->hrt && (c->hrt_task < 0 || c->hrt_task == i)) &&
	    !(c->irq && now - c->irq_time <= tw->irq_window) &&
	    (r->kind == SL_TR_SCHED_WAKING || !tw->have_waking)) {
		/* perhaps the wake-up of a block whose switch-out is not traced yet:
		 * early() */
		struct sl_tw_task *w = &tw->t[c->cur];

		flush_run(x, w, now);
		t->early_by = c->cur;
		t->early_at = now;
		t->early_wake = w->nops;
		t->early_hold = (tw->flags & SL_TW_HANDOFFS) ? hold_start(tw, w, i, now) : -1;
		push(x, w, TW_WAKE, 0, i, 0, 0);
		return;
	}
	if (t->state != XS_BLOCKED) {
		if (r->kind == SL_TR_SCHED_WAKING || !tw->have_waking)
			tw->un.wake_not_blocked++;
		return;
	}
	u64 d = since(now, t->block_since);
	bool timer = c->hrt && (c->hrt_task < 0 || c->hrt_task == i);
	bool irq = c->irq && now - c->irq_time <= tw->irq_window;

	t->state = XS_RUNNABLE;
	t->woken_by = -1;
	t->unblocked_at = now;
	if (t->block_kind == 'D') {
		push(x, t, TW_IO, d, 0, 0, 0);
		t->n_io++;
		t->ns_io += d;
		tw->io++;
	} else if (timer) {
		push(x, t, TW_SLEEP, d, 0, 0, 0);
		t->n_sleep++;
		t->ns_sleep += d;
		tw->timed++;
	} else if (!irq && c->cur >= 0 && c->cur != i && tw->t[c->cur].state == XS_RUN) {
		int wi = c->cur;
		struct sl_tw_task *w = &tw->t[wi];
		struct sl_tw_handoff ho = {.waker = wi, .wakee = i, .hold = -1};

		flush_run(x, w, now);
		if (tw->flags & SL_TW_HANDOFFS) {
			ho.hold = hold_start(tw, w, i, t->block_since);
			pair_count(x, wi, i, ho.hold);
		}
		ho.wake = w->nops;
		ho.wait = t->nops;
		if (!push(x, w, TW_WAKE, 0, i, 0, 0)) {
			t->ipi_waker = wi;
			t->ipi_op = w->nops - 1;
			t->ipi_from = r->cpu;
			t->ipi_at = now;
			/* without sched_waking in the trace, this sched_wakeup says where
			 */
			if (!tw->have_waking)
				wake_lands(x, i, r->target_cpu);
		}
		w->wakes_given++;
		w->woke = i;
		w->woke_at = now;
		push(x, t, TW_WAIT, d, wi, 0, 0);
		t->woken_by = wi;
		if (edge_add(&x->edges, edge_key(wi, i), 1))
			x->oom = true;
		if (ho.hold >= 0 && ho_put(x, &ho))
			x->oom = true;
		t->n_wait++;
		t->ns_wait += d;
		tw->deps++;
	} else {
		if (irq)
			tw->un.irq_wake++;
		else
			tw->un.idle_wake++;
		push(x, t, TW_OPEN, d, 0, 0, 0);
		t->n_open++;
		t->ns_open += d;
	}
	if (timer)
		c->hrt = false;
	c->irq = false;
}

/* the record into the run account (run_account.h), with the tasks it names made first */
static void account(struct tw_x *x, const struct sl_trace_record *r)
{
	int id = 0, prev = 0, next = 0;

	if (r->pid > 0)
		id = sl_task_of(x, r->pid, r->comm) + 1;
	if (r->kind == SL_TR_SCHED_SWITCH) {
		if (r->task_pid > 0)
			prev = sl_task_of(x, r->task_pid, r->task_comm) + 1;
		if (r->next_pid > 0)
			next = sl_task_of(x, r->next_pid, r->next_comm) + 1;
	}
	if (!x->oom)
		sl_run_account_record(&x->st, &x->tw->ra, x->tw->t0, r, id, prev, next);
	if (x->st.oom)
		x->oom = true;
}

static void on_record(struct tw_x *x, const struct sl_trace_record *r)
{
	struct sl_tw *tw = x->tw;
	struct tw_cpu *c;
	int i;

	account(x, r);
	if (x->oom)
		return;
	/* what could preempt the task running on a CPU (SL_TW_YIELDS) */
	switch (r->kind) {
	case SL_TR_SCHED_WAKING:
	case SL_TR_SCHED_WAKEUP:
	case SL_TR_SCHED_WAKEUP_NEW:
		if ((c = cpu_of(x, r->target_cpu)))
			c->cause = true;
		/* fall through */
	case SL_TR_HRTIMER_EXPIRE_ENTRY:
	case SL_TR_IRQ_HANDLER_ENTRY:
	case SL_TR_BLOCK_RQ_COMPLETE:
		if ((c = cpu_of(x, r->cpu)))
			c->cause = true;
		break;
	case SL_TR_SCHED_MIGRATE_TASK:
		if ((c = cpu_of(x, r->dest_cpu)))
			c->cause = true;
		break;
	default:
		break;
	}
	if (r->pid > 0 && r->kind != SL_TR_SCHED_SWITCH) {
		if ((i = ensure_running(x, r->cpu, r->pid, r->comm, r->time)) < 0)
			return;
		early(x, i, false, r->time);
	}
	switch (r->kind) {
	case SL_TR_SCHED_SWITCH:
		on_switch(x, r);
		break;
	case SL_TR_SCHED_WAKING:
		tw->have_waking = true;
		on_wake(x, r);
		lat_waking(x, r);
		pack_waking(x, r);
		break;
	case SL_TR_SCHED_WAKEUP:
		if (!tw->have_waking) {
			on_wake(x, r);
			lat_waking(x, r);
		} else if ((i = idx_find(tw, r->task_pid)) >= 0) {
			wake_lands(x, i, r->target_cpu);
		}
		if ((i = idx_find(tw, r->task_pid)) >= 0) {
			lat_lands(x, i, r->target_cpu);
			pack_lands(x, i, r->target_cpu);
		}
		break;
	case SL_TR_SCHED_MIGRATE_TASK:
		if ((i = idx_find(tw, r->task_pid)) >= 0)
			pack_moved(x, &tw->t[i], r->dest_cpu);
		break;
	case SL_TR_SCHED_WAKEUP_NEW:
		i = sl_task_of(x, r->task_pid, r->task_comm);
		if (i >= 0 && tw->t[i].state == XS_UNSEEN) {
			/* no fork traced: it appears here */
			tw->t[i].created = since(r->time, tw->t0);
			tw->t[i].state = XS_RUNNABLE;
		}
		break;
	case SL_TR_SCHED_PROCESS_FORK: {
		int p = sl_task_of(x, r->task_pid, r->task_comm);
		int ch = sl_task_of(x, r->next_pid, r->next_comm);

		if (p < 0 || ch < 0 || tw->t[ch].state != XS_UNSEEN)
			break;
		struct sl_tw_task *pt = &tw->t[p], *ct = &tw->t[ch];

		if (pt->state == XS_UNSEEN) {
			pt->state = XS_RUN; /* running since before the trace */
			pt->run_since = r->time;
			tw->un.first_burst++;
		}
		flush_run(x, pt, r->time);
		push(x, pt, TW_FORK, 0, ch, 0, 0);
		pt->forks++;
		ct->parent = p;
		ct->created = since(r->time, tw->t0);
		ct->prio = pt->prio;
		ct->state = XS_RUNNABLE;
		/* the child shares the parent's warm cache on this CPU (sl_do_fork) */
		ct->last_cpu = r->cpu;
		if ((c = cpu_of(x, r->cpu)))
			ct->last_seq = c->seq;
		break;
	}
	case SL_TR_SCHED_PROCESS_EXEC:
		tw->exec++;
		break;
	case SL_TR_SCHED_PROCESS_EXIT:
		i = sl_task_of(x, r->task_pid, r->task_comm);
		if (i >= 0)
			tw->t[i].exited = true;
		tw->exits++;
		break;
	case SL_TR_HRTIMER_START:
		if (!strncmp(r->str, "hrtimer_wakeup", 14) && r->pid > 0) {
			i = sl_task_of(x, r->pid, r->comm);
			if (i >= 0 && hrt_put(&x->hrt, r->hrtimer, i))
				x->oom = true;
		}
		break;
	case SL_TR_HRTIMER_EXPIRE_ENTRY:
		if (!(c = cpu_of(x, r->cpu)))
			break;
		if (!strncmp(r->str, "hrtimer_wakeup", 14)) {
			c->hrt = true;
			c->hrt_task = hrt_find(&x->hrt, r->hrtimer);
		} else {
			c->irq = true;
			c->irq_time = r->time;
		}
		break;
	case SL_TR_IRQ_HANDLER_ENTRY:
	case SL_TR_BLOCK_RQ_COMPLETE:
		if ((c = cpu_of(x, r->cpu))) {
			c->irq = true;
			c->irq_time = r->time;
		}
		break;
	case SL_TR_BLOCK_RQ_ISSUE:
		if (r->pid > 0 && (i = sl_task_of(x, r->pid, r->comm)) >= 0)
			tw->t[i].io_reqs++;
		break;
	default:
		break;
	}
}

/*
 * The trace ended: running tasks end their burst, blocked ones drop their last sleep. Every
 * task's CPU time charged and not yet in a RUN (a blocked or dead task seen running after
 * its switch-out) ends its ops, so that its RUNs add up to the account's.
 */
static void finish(struct tw_x *x)
{
	struct sl_tw *tw = x->tw;

	sl_run_account_finish(&x->st, &tw->ra, tw->tend);
	for (int i = 0; i < tw->n; i++) {
		struct sl_tw_task *t = &tw->t[i];

		flush_run(x, t, tw->tend);
		if (t->state == XS_RUN || t->state == XS_RUNNABLE)
			t->bursts++;
		else if (t->state == XS_BLOCKED)
			tw->un.blocked_at_end++;
		if (!t->switch_in && !t->cpu_ns)
			tw->woken_only++;
		if (t->prio < 0)
			tw->un.rt_deadline++;
	}
	/*
	 * A lock is taken in turn: a hand-off needs each of the two to wake the other at
	 * least half as often as the other wakes it. A producer wakes its consumer far more
	 * often than the reverse (only when its pipe was full), or only one way: fixed
	 * dependencies.
	 */
	int n = 0;

	for (int k = 0; k < tw->nho; k++) {
		const struct sl_tw_handoff *h = &tw->ho[k];

		int there = edge_get(&x->edges, edge_key(h->waker, h->wakee)),
		    back = edge_get(&x->edges, edge_key(h->wakee, h->waker));

		if (back * 2 < there || there * 2 < back)
			tw->fixed.one_way++;
		else if (edge_get(&x->pairs, pair_key(h->waker, h->wakee)) < 0)
			tw->fixed.channel++;
		else
			tw->ho[n++] = *h;
	}
	tw->nho = n;
}

int sl_tw_extract(struct sl_tw *tw, const char *path, unsigned flags, u64 irq_window, char *err,
		  size_t errlen)
{
	struct sl_trace_reader r;
	struct sl_trace_record *rec = malloc(sizeof(*rec));
	struct tw_x x = {.tw = tw};
	bool first = true;
	int rc;

	memset(tw, 0, sizeof(*tw));
	tw->flags = flags;
	tw->irq_window = irq_window;
	snprintf(tw->path, sizeof(tw->path), "%s", path);
	if (!rec) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (sl_trace_open(&r, NULL, path, false, err, errlen)) {
		free(rec);
		return -1;
	}
	while ((rc = sl_trace_next(&r, rec)) == 1 && !x.oom) {
		/* time order is the reader's: it refuses a record before the previous one
		 */
		if (first) {
			tw->t0 = rec->time;
			first = false;
			if (sl_stats_init(&x.st, 0, sl_run_account_ncpu(&r))) {
				x.oom = true;
				break;
			}
			x.st_init = true;
		}
		tw->records++;
		if (rec->time > tw->tend)
			tw->tend = rec->time;
		on_record(&x, rec);
	}
	if (rc < 0)
		snprintf(err, errlen, "%s", r.err);
	else if (rc >= 0 && x.oom)
		snprintf(err, errlen, "%s: out of memory at line %lu", path, r.lines);
	tw->ncpu = r.ncpu > x.ncpu ? r.ncpu : x.ncpu;
	tw->lost_events = r.lost_events;
	sl_trace_close(&r);
	free(rec);
	for (int c = 0; c < x.ncpu; c++)
		free(x.cpu[c].pre);
	free(x.cpu);
	free(x.hrt.k);
	free(x.hrt.v);
	sl_tw_lat_finish(&x.lat_remote, &tw->wake_remote);
	sl_tw_lat_finish(&x.lat_local, &tw->wake_local);
	if (rc < 0 || x.oom) {
		if (x.st_init)
			sl_stats_free(&x.st);
		edges_free(&x.edges);
		edges_free(&x.pairs);
		sl_tw_free(tw);
		return -1;
	}
	if (x.st_init)
		finish(&x);
	edges_free(&x.edges);
	edges_free(&x.pairs);
	if (x.st_init)
		sl_stats_free(&x.st);
	if (x.oom) {
		snprintf(err, errlen, "%s: out of memory", path);
		sl_tw_free(tw);
		return -1;
	}
	u64 in = 0;

	for (int i = 0; i < tw->n; i++)
		in += tw->t[i].switch_in;
	if (!in) {
		snprintf(err, errlen,
			 "%s: no sched_switch that runs a task: nothing to replay (the "
			 "trace needs "
			 "sched_switch and sched_waking or sched_wakeup)",
			 path);
		sl_tw_free(tw);
		return -1;
	}
	return 0;
}

void sl_tw_free(struct sl_tw *tw)
{
	for (int i = 0; i < tw->n; i++)
		free(tw->t[i].ops);
	free(tw->t);
	free(tw->ho);
	free(tw->hk);
	free(tw->hv);
	memset(tw, 0, sizeof(*tw));
}

/* ---- the workload ---- */

#define A struct sl_tw_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_FILE("file", A, file, "",
		       "the trace (any format the trace readers take, .xz/.gz included)"),
	SL_WL_KEY_STR("tasks", A, tasks, "",
		      "replay only tasks whose comm matches this POSIX extended regex (all)"),
	SL_WL_KEY_BOOL("sync", A, sync, "0",
		       "1: every task-to-task wake-up carries the WF_SYNC hint (pipes do)"),
	SL_WL_KEY_TIME("irq_window", A, irq_window, "100us",
		       "a wake-up this soon after an interrupt's entry on its CPU is the "
		       "interrupt's"),
	SL_WL_KEY_BOOL("preempt", A, preempt, "1",
		       "1: a task preempted by the task it woke resumes only after that task "
		       "blocks"),
	SL_WL_KEY_BOOL("handoff", A, handoff, "1",
		       "1: a wake-up the trace shows as the release of something the waker held "
		       "blocks its wakee only while the waker holds (a lock, not a fixed order)"),
	SL_WL_KEY_BOOL("yield", A, yield, "1",
		       "1: a runnable switch-out with nothing on its CPU that could preempt is a "
		       "sched_yield"),
	SL_WL_KEY_DIR("calibration", A, calibration, "",
		      "the recording machine's calibrate directory (default: "
		      "T.machine.conf beside "
		      "the trace; none: the model's defaults)"),
};
#undef A

static void free_args(void *p)
{
	struct sl_tw_args *a = p;

	if (a)
		sl_tw_free(&a->tw);
	free(a);
}

/* one idle wake-up latency of the trace, for wake_note: what it is and where it goes */
static void wake_note_one(const struct sl_tw_args *a, const struct sl_tw_wake_lat *w,
			  const char *what, const char *param)
{
	fprintf(stderr, "%s ", what);
	if (w->n < SL_TW_WAKE_MIN)
		fprintf(stderr, "%llu, fewer than %d: not taken", (unsigned long long)w->n,
			SL_TW_WAKE_MIN);
	else
		fprintf(stderr, "p50 %.1f us, sd %.1f us (%llu): %s%s", (double)w->p50 / 1e3,
			(double)w->sd / 1e3, (unsigned long long)w->n,
			sl_tw_costs_sets(&a->costs, param) ? "not taken, its machine.conf sets "
							   : "",
			param);
}

/*
 * The trace's own wake-up latencies of an idle CPU, which the run takes as the machine's
 * (config.c, sl_tw_wake_apply) where the machine.conf and --param say nothing: said once, when
 * the trace is read (a sweep builds many runs of it).
 */
static void wake_note(const struct sl_tw_args *a)
{
	if (a->tw.irq_pack_n >= SL_TW_WAKE_MIN)
		fprintf(stderr,
			"schedlab: %s: its machine kept %llu of %llu wake-ups by an interrupt of a "
			"task last on that idle CPU, another woken task waiting there, another CPU "
			"idle: vcpu_pack_irq %llu (--param vcpu_pack_irq=0 leaves it out)\n",
			a->file, (unsigned long long)a->tw.irq_pack_stay,
			(unsigned long long)a->tw.irq_pack_n,
			(unsigned long long)sl_tw_irq_pack_rate(a->tw.irq_pack_n,
								a->tw.irq_pack_stay));
	/* a trace of the model's own (--trace-out): nothing beyond what it charges */
	if ((a->tw.wake_remote.n < SL_TW_WAKE_MIN || !a->tw.wake_remote.p50) &&
	    (a->tw.wake_local.n < SL_TW_WAKE_MIN || !a->tw.wake_local.p50))
		return;
	fprintf(stderr,
		"schedlab: %s: its machine's wake-up of an idle CPU, sched_waking to the "
		"switch-in: ",
		a->file);
	wake_note_one(a, &a->tw.wake_remote, "from another CPU", "wake_remote");
	wake_note_one(a, &a->tw.wake_local, "; by its own interrupt", "wake_local");
	fprintf(stderr, " (wake_remote less the model's IPI and exit latency; --param "
			"wake_remote=0ns or wake_local=0ns leaves one out)\n");
}

/*
 * How many pieces glibc's regcomp builds for a pattern, bounded above: it copies a repeated
 * atom once per repetition it must spell out (x+ is x x*, x{2,5} five copies, x* and x? one),
 * so repetitions applied to repetitions multiply, and "x++++..." grows as 2^n until the
 * process runs out of memory (found by fuzzing tasks=). Each atom costs 1, a group the sum of
 * its atoms, a repeated atom its cost times its copies; counting stops above REGEX_PIECES.
 */
#define REGEX_PIECES 10000

/* the digits at *q, read until the value passes REGEX_PIECES (enough to refuse it) */
static u64 regex_number(const char **q)
{
	u64 v = 0;

	while (**q >= '0' && **q <= '9' && v <= REGEX_PIECES)
		v = v * 10 + (u64)(*(*q)++ - '0');
	return v;
}

static u64 regex_bound(const char *s)
{
	u64 cost[32] = {0}, last[32] = {0};
	int d = 0;

	for (; *s; s++) {
		u64 k = 0;

		if (*s == '(') {
			if (d == 31)
				return REGEX_PIECES + 1; /* deeper than any task name needs */
			d++;
			cost[d] = last[d] = 0;
			continue;
		}
		if (*s == ')' && d > 0) {
			u64 g = cost[d] ? cost[d] : 1;

			d--;
			cost[d] += g;
			last[d] = g;
		} else if (*s == '*' || *s == '?') {
			k = 1;
		} else if (*s == '+') {
			k = 2;
		} else if (*s == '{' && last[d]) {
			const char *q = s + 1;
			u64 m, n;

			m = regex_number(&q);
			n = m;
			if (*q == ',') {
				q++;
				n = *q >= '0' && *q <= '9' ? regex_number(&q)
							   : m + 1; /* {m,}: m + 1 */
			}
			if (*q == '}' && q > s + 1) {
				k = n > m ? n : m;
				k = k ? k : 1;
				s = q;
			} else {
				cost[d]++;
				last[d] = 1;
			}
		} else if (*s == '[') {
			/* a bracket expression is one atom: skip to its ']' ("[]" and "[^]" start
			 * one) */
			const char *q = s + 1;

			q += *q == '^';
			q += *q == ']';
			while (*q && *q != ']')
				q += (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=') &&
				      strchr(q + 2, ']'))
					     ? strchr(q + 2, ']') - q + 1
					     : 1;
			s = *q ? q : q - 1;
			cost[d]++;
			last[d] = 1;
		} else {
			s += *s == '\\' && s[1];
			cost[d]++;
			last[d] = 1;
		}
		if (k && last[d]) {
			u64 grown = last[d] * k;

			cost[d] += grown - last[d];
			last[d] = grown;
		} else if (k) {
			cost[d]++;
			last[d] = 1;
		}
		if (cost[d] > REGEX_PIECES || last[d] > REGEX_PIECES)
			return REGEX_PIECES + 1;
	}
	while (d > 0) {
		u64 g = cost[d] ? cost[d] : 1;

		d--;
		cost[d] += g;
	}
	return cost[0];
}

static int check(void *args, char *err, size_t errlen)
{
	struct sl_tw_args *a = args;
	regex_t re;

	if (a->tasks[0] && regex_bound(a->tasks) > REGEX_PIECES) {
		snprintf(err, errlen,
			 "tasks=%s: a regex whose repetitions would spell out more than %d pieces "
			 "(repetitions of repetitions, a bound too high, or groups over 31 deep); "
			 "write it more simply",
			 a->tasks, REGEX_PIECES);
		return -1;
	}
	if (a->tasks[0]) {
		int e = regcomp(&re, a->tasks, REG_EXTENDED | REG_NOSUB);

		if (e) {
			char m[128];

			regerror(e, &re, m, sizeof(m));
			snprintf(err, errlen, "tasks=%s: not a POSIX extended regex (%s)", a->tasks,
				 m);
			return -1;
		}
		regfree(&re);
	}
	if (!a->file[0]) {
		snprintf(err, errlen, "file= is required: the trace to replay");
		return -1;
	}
	if (sl_tw_extract(&a->tw, a->file,
			  (a->preempt ? SL_TW_PREEMPT_DEPS : 0) | (a->yield ? SL_TW_YIELDS : 0) |
				  (a->handoff ? SL_TW_HANDOFFS : 0),
			  a->irq_window, err, errlen))
		return -1;
	/* a selection of nothing would replay an empty group: an empty result, not a run */
	bool *sel = calloc((size_t)a->tw.n + 1, sizeof(bool));
	int nsel = sel ? sl_tw_select(a, sel) : -1;

	free(sel);
	if (nsel < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!nsel) {
		char comms[256] = "";
		size_t off = 0;
		int shown = 0;

		for (int i = 0; i < a->tw.n && shown < 8; i++) {
			bool seen = false;

			for (int j = 0; j < i && !seen; j++)
				seen = !strcmp(a->tw.t[j].comm, a->tw.t[i].comm);
			if (!seen)
				sl_append(comms, sizeof(comms), &off, "%s%s", shown++ ? ", " : "",
					  a->tw.t[i].comm);
		}
		snprintf(err, errlen,
			 "tasks=%s matches no task of the trace %s (expected a regex that selects "
			 "one; its comms include %s)",
			 a->tasks, a->file, comms);
		return -1;
	}
	if (sl_tw_costs_load(&a->costs, a->file, a->calibration, err, errlen))
		return -1;
	if (!a->costs.n && strcmp(a->calibration, "none"))
		fprintf(stderr,
			"schedlab: warning: %s: no calibration of the machine it was "
			"recorded on "
			"(calibration=DIR, or a .machine.conf beside it: `schedlab "
			"record` writes one): its switch and cache costs are taken as the "
			"model's 2009 defaults unless --param sets them\n",
			a->file);
	if (strcmp(a->calibration, "none")) {
		a->costs.remote = a->tw.wake_remote;
		a->costs.local = a->tw.wake_local;
		a->costs.irq_pack_n = a->tw.irq_pack_n;
		a->costs.irq_pack_stay = a->tw.irq_pack_stay;
		wake_note(a);
	}
	return 0;
}

static u64 max_tasks(const void *args)
{
	return (u64)((const struct sl_tw_args *)args)->tw.n;
}

/*
 * What the recorded IPIs of marked wake-ups (TW_WAKE with cost 1) come to at the price ipi:
 * n such wake-ups, ns in all, left of it the part the RUNs after them in their burst are
 * too short to give back, in bursts bursts (counted: the simulation's own IPI charges it
 * again).
 */
struct tw_ipi {
	u64 ipi, n, ns, left, bursts;
};

/* the recorded switch-ins of the replayed tasks and the part of their cost their bursts gave
 * back (the rest is the credit of a simulated switch-in), against which the run's report sets
 * the switch costs its own switch-ins were charged (struct sl_group.switch_cost_ns) */
struct tw_sw {
	u64 cins, given;
};

/* the recorded pid of each program, for sl_tw_orig_pid */
struct tw_state {
	int n;
	const struct sl_prog **prog;
	int *pid;
	/* the marked wake-ups of its tasks at the price ipi.ipi, from ipi_from ("": the
	 * run's wake_ipi), for the run's report (report_table, report_json) */
	struct tw_ipi ipi;
	char ipi_from[512];
	struct tw_sw sw;
};

static void state_free(void *p)
{
	struct tw_state *s = p;

	if (s) {
		free(s->prog);
		free(s->pid);
	}
	free(s);
}

/* the recording machine's costs (NULL: none found) */
static const struct sl_tw_costs *recorded(const void *args)
{
	const struct sl_tw_args *a = args;

	return a && (a->costs.n || a->costs.remote.n >= SL_TW_WAKE_MIN ||
		     a->costs.local.n >= SL_TW_WAKE_MIN)
		       ? &a->costs
		       : NULL;
}

int sl_tw_orig_pid(const struct sl_group *g, const struct sl_prog *prog)
{
	const struct tw_state *s = g->state;

	if (!g->wl || g->wl->ops != &sl_wl_trace || !s)
		return -1;
	for (int i = 0; i < s->n; i++)
		if (s->prog[i] == prog)
			return s->pid[i];
	return -1;
}

/*
 * The machine's cost of a recorded switch-in (switch_in_cost in machine.c); sim NULL: each
 * CPU a core of its own (the report's, which has no simulated machine)
 */
static u64 cin_cost(const struct sl_params *p, const struct sl_sim *sim, const struct sl_tw_op *o)
{
	u64 cost = p->ctx_switch_ns;

	if (o->arg < 0)
		return cost;
	if (o->arg == o->arg2)
		return cost + (o->cost ? p->cache_refill_ns : 0);
	if (!sim || o->arg >= sim->ncpu || o->arg2 >= sim->ncpu)
		return cost + p->migrate_core_ns;
	const struct sl_cpu *a = &sim->cpus[o->arg], *b = &sim->cpus[o->arg2];

	if (a->socket != b->socket)
		return cost + sl_machine_of(sim)->p->migrate_socket_ns;
	if (a->core != b->core)
		return cost + sl_machine_of(sim)->p->migrate_core_ns;
	return cost + sl_machine_of(sim)->p->migrate_smt_ns;
}

static void policy_of(int prio, int *policy, int *nice, int *rtprio)
{
	*policy = SL_SCHED_NORMAL;
	*nice = 0;
	*rtprio = 0;
	if (prio < 0) {
		/* SCHED_DEADLINE: no such class here; the highest FIFO priority */
		*policy = SL_SCHED_FIFO;
		*rtprio = 99;
	} else if (prio < 100) {
		/* an RT task's prio is MAX_RT_PRIO - 1 - rt_priority */
		*policy = SL_SCHED_FIFO;
		*rtprio = 99 - prio;
	} else {
		*nice = prio - 120;
		if (*nice > 19)
			*nice = 19;
	}
}

/* an op after which the task is switched in again: a burst (a segment of ops) ends there */
static bool ends_burst(int kind)
{
	return kind == TW_SLEEP || kind == TW_OPEN || kind == TW_IO || kind == TW_WAIT ||
	       kind == TW_YIELD;
}

/* d less what of *credit it can give back */
static u64 give_back(u64 *credit, u64 d)
{
	u64 take = *credit < d ? *credit : d;

	*credit -= take;
	return d - take;
}

/*
 * Per burst of t (the ops up to each ends_burst op, then the rest), the cost of its
 * recorded switch-ins at p's prices (sim NULL: each CPU a core) that its RUNs are too short
 * to give back: a credit of the switch-in that begins it, so that no cost is charged twice
 * and none is taken from another burst. n + 1 entries (malloc'ed), n the bursts' ends;
 * NULL: no memory. A RUN after a marked wake-up gives back that wake-up's IPI (ip->ipi)
 * first: what it cannot give back has no switch-in to be credited on, and is counted in ip
 * (build does the same).
 */
static u64 *burst_credits(const struct sl_params *p, const struct sl_sim *sim,
			  const struct sl_tw_task *t, int *n, struct tw_ipi *ip)
{
	int nb = 0, b = 0;
	u64 cost = 0, ipi = 0, *left;

	for (int k = 0; k < t->nops; k++)
		nb += ends_burst(t->ops[k].kind);
	left = calloc((size_t)nb + 1, sizeof(u64));
	if (!left)
		return NULL;
	for (int k = 0; k < t->nops; k++) {
		const struct sl_tw_op *o = &t->ops[k];

		if (o->kind == TW_CIN) {
			cost += cin_cost(p, sim, o);
		} else if (o->kind == TW_WAKE && o->cost && ip->ipi) {
			ipi += ip->ipi;
			ip->n++;
			ip->ns += ip->ipi;
		} else if (o->kind == TW_RUN) {
			give_back(&cost, give_back(&ipi, o->ns));
		} else if (ends_burst(o->kind)) {
			left[b++] = cost;
			cost = 0;
			ip->left += ipi;
			ip->bursts += ipi > 0;
			ipi = 0;
		}
	}
	left[b] = cost;
	ip->left += ipi;
	ip->bursts += ipi > 0;
	*n = nb;
	return left;
}

/*
 * The recorded switch cost that the burst after t's op k (an ends_burst op) gives back: its
 * switch-ins' cost at p's prices less credit, the part left to its switch-in (burst_credits).
 * Where the simulation does not switch at op k (a yield that finds nothing else to run, a
 * wait whose wake-up was made before or whose lock was free), that switch-in is not made and
 * this much of the recorded CPU time goes with it: the replay counts it (the d of OP_YIELD,
 * OP_SEM_DOWN and OP_HANDOFF_DOWN, unused otherwise; the group's yields_kept_ns and
 * waits_kept_ns), as nothing may go silently.
 */
static u64 given_back_after(const struct sl_params *p, const struct sl_sim *sim,
			    const struct sl_tw_task *t, int k, u64 credit)
{
	u64 cost = 0;

	for (int j = k + 1; j < t->nops && !ends_burst(t->ops[j].kind); j++)
		if (t->ops[j].kind == TW_CIN)
			cost += cin_cost(p, sim, &t->ops[j]);
	return cost > credit ? cost - credit : 0;
}

/* a hand-off's op in one task's ops (sl_tw_handoff): lists sorted by task, then op */
struct tw_ref {
	int task, op, id;
};

struct tw_refs {
	struct tw_ref *r;
	int *first; /* task i's refs: r[first[i]] to r[first[i + 1] - 1] */
};

/* the hand-offs' holds, wakes and waits, each as the lists of the tasks that have them */
struct tw_ho_ops {
	struct tw_refs hold, wake, wait;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct tw_ref *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->op != y->op)
		return x->op < y->op ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* the refs of hand-offs selected (both ends replayed); which: 0 hold, 1 wake, 2 wait */
static int refs_make(struct tw_refs *rs, const struct sl_tw *tw, const bool *sel, int which)
{
	int n = 0;

	rs->r = calloc((size_t)tw->nho + 1, sizeof(*rs->r));
	rs->first = calloc((size_t)tw->n + 1, sizeof(int));
	if (!rs->r || !rs->first)
		return -1;
	for (int k = 0; k < tw->nho; k++) {
		const struct sl_tw_handoff *h = &tw->ho[k];

		if (!sel[h->waker] || !sel[h->wakee])
			continue;
		rs->r[n++] = (struct tw_ref){.task = which == 2 ? h->wakee : h->waker,
					     .op = which == 0	? h->hold
						   : which == 1 ? h->wake
								: h->wait,
					     .id = k};
	}
	qsort(rs->r, (size_t)n, sizeof(*rs->r), ref_cmp);
	for (int i = 0, j = 0; i <= tw->n; i++) {
		while (j < n && rs->r[j].task < i)
			j++;
		rs->first[i] = j;
	}
	return 0;
}

static void refs_free(struct tw_refs *rs)
{
	free(rs->r);
	free(rs->first);
}

/* the hand-off of task ti's op k in rs (its cursor *c moves on), -1: none */
static int ref_at(const struct tw_refs *rs, int ti, int *c, int k)
{
	if (*c < rs->first[ti + 1] && rs->r[*c].op == k)
		return rs->r[(*c)++].id;
	return -1;
}

static int build(struct sl_sim *sim, const struct sl_tw_args *a, const struct sl_tw_task *t,
		 struct sl_prog *p, struct sl_prog **progs, const bool *sel, const int *sem,
		 struct tw_ipi *ip, struct tw_sw *sw, const struct tw_ho_ops *ho)
{
	u64 slack = p->policy == SL_SCHED_FIFO ? 0 : sl_machine_of(sim)->p->timer_slack_ns,
	    cost = 0, ipi = 0;
	const struct sl_tw_task *tt = a->tw.t;
	int nb, b = 0, ret = -1, ti = (int)(t - tt);
	int ch = ho->hold.first[ti], cw = ho->wake.first[ti], cv = ho->wait.first[ti];
	u64 *left = burst_credits(sl_machine_of(sim)->p, sim, t, &nb, ip);

	if (!left)
		return -1;

	/*
	 * After its last sleep, an exiting task's wake-up of its parent is
	 * do_notify_parent's
	 * __wake_up_parent, a sync wake-up (kernel/exit.c, kernel/signal.c)
	 */
	int last_block = -1;

	for (int k = 0; k < t->nops; k++)
		if (t->ops[k].kind != TW_RUN && t->ops[k].kind != TW_CIN &&
		    t->ops[k].kind != TW_WAKE && t->ops[k].kind != TW_YIELD)
			last_block = k;
	/*
	 * A task forked by one not replayed, or appearing later: it starts when it did (the
	 * credit of its first burst for the switch-in after that sleep); else its first
	 * switch-in is its spawn's or fork's.
	 */
	if (t->created && (t->parent < 0 || !sel[t->parent])) {
		if ((left[0] &&
		     sl_prog_add(sim, p, OP_CREDIT, sl_dist_fixed(left[0]), 0, 0, NULL)) ||
		    sl_prog_add(sim, p, OP_SLEEP, sl_dist_fixed(t->created), 0, 0, NULL))
			goto out;
	} else if (t->nops && t->ops[0].kind != TW_CIN && !t->created) {
		/*
		 * There at the trace's start, running or blocked: the recording has no
		 * switch-in before its first burst or wait, so the spawn's is not charged
		 */
		p->switch_credit_ns = UINT64_MAX;
	} else {
		p->switch_credit_ns = left[0];
	}
	for (int k = 0; k < t->nops; k++) {
		const struct sl_tw_op *o = &t->ops[k];
		int rc = 0, id;
		u64 d = o->ns, given = 0;

		/* from here it holds what the wakees of these hand-offs wait for */
		while ((id = ref_at(&ho->hold, ti, &ch, k)) >= 0)
			if (sl_prog_add(sim, p, OP_HOLD, sl_dist_fixed(0), id, 0, NULL))
				goto out;

		/* the next burst's credit, for the switch-in that ends this op's wait */
		if (ends_burst(o->kind)) {
			cost = ipi = 0;
			if (left[++b] &&
			    sl_prog_add(sim, p, OP_CREDIT, sl_dist_fixed(left[b]), 0, 0, NULL))
				goto out;
			/* what goes if the simulation does not switch here: counted */
			given = given_back_after(sl_machine_of(sim)->p, sim, t, k, left[b]);
		}
		switch (o->kind) {
		case TW_CIN:
			cost += cin_cost(sl_machine_of(sim)->p, sim, o);
			sw->cins++;
			break;
		case TW_RUN:
			/*
			 * the recorded burst holds the IPIs of its marked wake-ups before
			 * this RUN and the switch-in costs the machine adds again; what
			 * does not fit in it is, of the switch-ins, its switch-in's credit
			 * (burst_credits)
			 */
			d = give_back(&ipi, d);
			sw->given += d;
			d = give_back(&cost, d);
			sw->given -= d;
			if (d)
				rc = sl_prog_run(sim, p, sl_dist_fixed(d));
			break;
		case TW_WAIT:
			if ((id = ref_at(&ho->wait, ti, &cv, k)) >= 0) {
				rc = sl_prog_add(sim, p, OP_HANDOFF_DOWN, sl_dist_fixed(given), id,
						 0, NULL);
				break;
			}
			if (sel[o->arg]) {
				rc = sl_prog_add(sim, p, OP_SEM_DOWN, sl_dist_fixed(given),
						 sem[t - tt], 0, NULL);
				break;
			}
			/* the waker is not replayed: the wake-up comes after the recorded
			 * time */
			/* fall through */
		case TW_SLEEP:
		case TW_OPEN:
			/* the recorded time holds the slack the sleep is given again */
			d = d > slack ? d - slack : 0;
			rc = sl_prog_add(sim, p, OP_SLEEP, sl_dist_fixed(d), 0, 0, NULL);
			break;
		case TW_IO:
			rc = sl_prog_add(sim, p, OP_IO, sl_dist_fixed(d), 0, 0, NULL);
			break;
		case TW_YIELD:
			rc = sl_prog_add(sim, p, OP_YIELD, sl_dist_fixed(given), 0, 0, NULL);
			break;
		case TW_WAKE: {
			bool sync = a->sync || (t->exited && k > last_block && o->arg == t->parent);

			/* the recorded IPI, given back by the RUNs after it (burst_credits)
			 */
			if (o->cost)
				ipi += ip->ipi;
			if ((id = ref_at(&ho->wake, ti, &cw, k)) >= 0)
				rc = sl_prog_add(sim, p, OP_HANDOFF_UP, sl_dist_fixed(0), id, sync,
						 NULL);
			else if (sel[o->arg])
				rc = sl_prog_add(sim, p, OP_SEM_UP, sl_dist_fixed(0), sem[o->arg],
						 sync, NULL);
			break;
		}
		case TW_FORK:
			if (sel[o->arg])
				rc = sl_prog_add(sim, p, OP_FORK, sl_dist_fixed(0), 0, 0,
						 progs[o->arg]);
			break;
		default:
			break;
		}
		if (rc)
			goto out;
		/*
		 * The credit set before this wait is for the switch-in that ends it; where
		 * the simulation did not switch here (a yield alone on its CPU, a wait
		 * already satisfied) that switch-in and its cost are gone, and the credit
		 * must not discount a later switch-in whose recorded cost its own burst
		 * gave back
		 */
		if (ends_burst(o->kind) && left[b] &&
		    sl_prog_add(sim, p, OP_CREDIT, sl_dist_fixed(0), 0, 0, NULL))
			goto out;
	}
	ret = 0;
out:
	free(left);
	return ret;
}

int sl_tw_cost_report(struct sl_tw *tw, const struct sl_tw_costs *c)
{
	struct sl_params p;
	char e[256];

	sl_params_default(&p);
	for (int k = 0; c && k < c->n; k++)
		sl_params_set(&p, c->param[k], e, sizeof(e)); /* checked when loaded */
	sl_tw_bare_price(&p);
	snprintf(tw->cost_from, sizeof(tw->cost_from), "%s",
		 c && c->n ? c->path : "the model's defaults");
	tw->cost_ns = tw->cost_left_ns = 0;
	tw->cost_left_tasks = 0;
	struct tw_ipi ip = {.ipi = p.wake_ipi_ns};

	for (int i = 0; i < tw->n; i++) {
		int nb;
		u64 *left = burst_credits(&p, NULL, &tw->t[i], &nb, &ip), sum = 0;

		if (!left)
			return -1;
		for (int k = 0; k < tw->t[i].nops; k++)
			if (tw->t[i].ops[k].kind == TW_CIN)
				tw->cost_ns += cin_cost(&p, NULL, &tw->t[i].ops[k]);
		for (int k = 0; k <= nb; k++)
			sum += left[k];
		free(left);
		tw->cost_left_ns += sum;
		tw->cost_left_tasks += sum > 0;
	}
	tw->ipi_cost_ns = ip.ns;
	tw->ipi_left_ns = ip.left;
	tw->ipi_left_bursts = ip.bursts;
	return 0;
}

int sl_tw_select(const struct sl_tw_args *a, bool *sel)
{
	regex_t re;
	int nsel = 0;

	if (a->tasks[0] && regcomp(&re, a->tasks, REG_EXTENDED | REG_NOSUB))
		return -1; /* not reached: parse() compiled it */
	for (int i = 0; i < a->tw.n; i++) {
		sel[i] = !a->tasks[0] || !regexec(&re, a->tw.t[i].comm, 0, NULL, 0);
		nsel += sel[i];
	}
	if (a->tasks[0])
		regfree(&re);
	return nsel;
}

/* the comms of the tasks tasks= selects, in the trace's order */
static int task_comms(const void *args, const char ***comms)
{
	const struct sl_tw_args *a = args;
	bool *sel = calloc((size_t)a->tw.n + 1, sizeof(bool));
	const char **c = calloc((size_t)a->tw.n + 1, sizeof(*c));
	int n = 0;

	if (!sel || !c || sl_tw_select(a, sel) < 0) {
		free(sel);
		free(c);
		return -1;
	}
	for (int i = 0; i < a->tw.n; i++)
		if (sel[i])
			c[n++] = a->tw.t[i].comm;
	free(sel);
	*comms = c;
	return n;
}

/*
 * The price of a marked wake-up's IPI in the recorded bursts: the recording machine's
 * wake_ipi when its calibration has one (from: its path), else the run's (the model's
 * default or
 * --param's), as the switch costs are taken (config.c takes the recorded ones for the run).
 */
static u64 ipi_price(const struct sl_tw_args *a, struct sl_sim *sim, char *from, size_t len)
{
	struct sl_params p;
	char e[256];

	from[0] = 0;
	for (int k = 0; k < a->costs.n; k++) {
		if (strncmp(a->costs.param[k], "wake_ipi=", 9))
			continue;
		sl_params_default(&p);
		sl_params_set(&p, a->costs.param[k], e, sizeof(e)); /* checked when loaded */
		snprintf(from, len, "%s", a->costs.path);
		return p.wake_ipi_ns;
	}
	return sl_machine_of(sim)->p->wake_ipi_ns;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct sl_tw_args *a = args;
	const struct sl_tw *tw = &a->tw;
	int n = tw->n, nsel = 0, rc = -1;
	bool *sel = calloc((size_t)n + 1, sizeof(bool));
	int *sem = calloc((size_t)n + 1, sizeof(int));
	struct sl_prog **progs = calloc((size_t)n + 1, sizeof(*progs));
	struct tw_state *s = calloc(1, sizeof(*s));
	struct tw_ho_ops ho = {0};

	if (!sel || !sem || !progs || !s || sl_tw_select(a, sel) < 0)
		goto out;
	for (int i = 0; i < n; i++)
		if (sel[i])
			sem[i] = nsel++;
	s->prog = calloc((size_t)nsel + 1, sizeof(*s->prog));
	s->pid = calloc((size_t)nsel + 1, sizeof(int));
	g->sems = calloc((size_t)nsel + 1, sizeof(*g->sems));
	if (!s->prog || !s->pid || !g->sems)
		goto out;
	g->nsems = nsel;
	g->state = s;
	g->state_free = state_free;
	s->ipi.ipi = ipi_price(a, sim, s->ipi_from, sizeof(s->ipi_from));
	for (int i = 0; i < n; i++) {
		int policy, nice, rtprio;

		if (!sel[i])
			continue;
		policy_of(tw->t[i].prio, &policy, &nice, &rtprio);
		progs[i] = sl_prog_new(sim, g, tw->t[i].comm, nice, policy);
		if (!progs[i])
			goto out_state;
		progs[i]->rt_priority = rtprio;
		s->prog[s->n] = progs[i];
		s->pid[s->n++] = tw->t[i].pid;
	}
	if (refs_make(&ho.hold, tw, sel, 0) || refs_make(&ho.wake, tw, sel, 1) ||
	    refs_make(&ho.wait, tw, sel, 2))
		goto out_state;
	g->handoffs.h = calloc((size_t)tw->nho + 1, sizeof(*g->handoffs.h));
	if (!g->handoffs.h)
		goto out_state;
	g->handoffs.n = tw->nho;
	for (int k = 0; k < tw->nho; k++)
		g->handoffs.h[k].sem = sem[tw->ho[k].wakee];
	for (int i = 0; i < n; i++)
		if (sel[i] &&
		    build(sim, a, &tw->t[i], progs[i], progs, sel, sem, &s->ipi, &s->sw, &ho))
			goto out_state;
	for (int i = 0; i < n; i++)
		if (sel[i] && (tw->t[i].parent < 0 || !sel[tw->t[i].parent]) &&
		    !sl_spawn(sim, g, progs[i]))
			goto out_state;
	rc = 0;
	goto out;
out_state:
	rc = -1;
out:
	if (g->state != s)
		state_free(s);
	refs_free(&ho.hold);
	refs_free(&ho.wake);
	refs_free(&ho.wait);
	free(sel);
	free(sem);
	free(progs);
	return rc;
}

/* the group's trace state, NULL when g is not a trace group or took no IPI out of a burst
 */
static const struct tw_state *ipi_state(const struct sl_group *g)
{
	const struct tw_state *s = g->state;

	return g->wl && g->wl->ops == &sl_wl_trace && s && s->ipi.ns ? s : NULL;
}

/* the run's table: what the marked wake-ups' IPIs took out of the bursts, and what not */
static void report_table(FILE *f, const struct sl_group *g, bool *head)
{
	const struct tw_state *s = ipi_state(g);

	if (!s)
		return;
	if (!*head) {
		fprintf(f, "\nrecorded wake-ups onto another, idle CPU (their IPI's cost, "
			   "wake_ipi, "
			   "counted once)\n");
		*head = true;
	}
	fprintf(f,
		"%s: %llu, at %llu ns (%s): %.3f ms taken out of the bursts after them; "
		"%.3f ms "
		"beyond %llu bursts (too short to give it back: charged again by the "
		"simulated "
		"IPIs)\n",
		g->name, (unsigned long long)s->ipi.n, (unsigned long long)s->ipi.ipi,
		s->ipi_from[0] ? s->ipi_from : "the run's wake_ipi",
		(double)(s->ipi.ns - s->ipi.left) / 1e6, (double)s->ipi.left / 1e6,
		(unsigned long long)s->ipi.bursts);
}

static json_object *report_json(const struct sl_group *g)
{
	const struct tw_state *s = ipi_state(g);
	json_object *o;

	if (!s)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(
		o, "prices",
		json_object_new_string(s->ipi_from[0] ? s->ipi_from : "the run's wake_ipi"));
	json_object_object_add(o, "wake_ipi_ns", json_object_new_uint64(s->ipi.ipi));
	json_object_object_add(o, "wakes", json_object_new_uint64(s->ipi.n));
	json_object_object_add(o, "recorded_ns", json_object_new_uint64(s->ipi.ns));
	json_object_object_add(o, "beyond_bursts_ns", json_object_new_uint64(s->ipi.left));
	json_object_object_add(o, "bursts_beyond", json_object_new_uint64(s->ipi.bursts));
	return o;
}

/* the group's trace state, NULL when g is not a trace group */
static const struct tw_state *trace_state(const struct sl_group *g)
{
	return g->wl && g->wl->ops == &sl_wl_trace ? g->state : NULL;
}

/*
 * The switch costs the replay charged against those its bursts gave back: the difference is
 * what the simulated schedule's switch-ins added to (or, negative, took from) the recorded
 * work ("Costs counted once", docs/workloads.md), printed so that it is not silent
 */
static void switch_table(FILE *f, const struct sl_group *g)
{
	const struct tw_state *s = trace_state(g);

	if (!s)
		return;
	fprintf(f,
		"\n%s: %llu simulated switch-ins charged %.3f ms of switch cost (credits taken "
		"off); the recording's %llu switch-ins gave back %.3f ms of their bursts: the "
		"schedule's switches add %+.3f ms\n",
		g->name, (unsigned long long)g->switch_ins, (double)g->switch_cost_ns / 1e6,
		(unsigned long long)s->sw.cins, (double)s->sw.given / 1e6,
		((double)g->switch_cost_ns - (double)s->sw.given) / 1e6);
}

static json_object *switch_json(const struct sl_group *g)
{
	const struct tw_state *s = trace_state(g);
	json_object *o;

	if (!s)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "switch_ins", json_object_new_uint64(g->switch_ins));
	json_object_object_add(o, "charged_ns", json_object_new_uint64(g->switch_cost_ns));
	json_object_object_add(o, "recorded_switch_ins", json_object_new_uint64(s->sw.cins));
	json_object_object_add(o, "given_back_ns", json_object_new_uint64(s->sw.given));
	return o;
}

/* the run's lines of a trace group: its lock hand-offs, its recorded IPIs, its switch costs */
static void report_table_all(FILE *f, const struct sl_group *g, bool *head)
{
	sl_tw_run_table(f, g, head);
	report_table(f, g, head);
	switch_table(f, g);
}

/* the group's own JSON keys: "handoffs", "yields", "waits_without_block",
 * "wake_ipi_credit" and "switch_costs", each where it has one */
static json_object *report_json_all(const struct sl_group *g)
{
	json_object *o = json_object_new_object(), *h = sl_tw_run_json(g), *w = report_json(g),
		    *y = sl_tw_run_yields_json(g), *k = sl_tw_run_waits_json(g),
		    *c = switch_json(g);

	if (h)
		json_object_object_add(o, "handoffs", h);
	if (y)
		json_object_object_add(o, "yields", y);
	if (k)
		json_object_object_add(o, "waits_without_block", k);
	if (w)
		json_object_object_add(o, "wake_ipi_credit", w);
	if (c)
		json_object_object_add(o, "switch_costs", c);
	if (!h && !w && !y && !k && !c) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

const struct sl_workload_ops sl_wl_trace = {
	.name = "trace",
	.help = "a recorded trace's tasks: bursts, sleeps, who woke whom (closed loop), "
		"forks",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct sl_tw_args),
	.check = check,
	.spawn = spawn,
	.finite = sl_wl_always_finite,
	.free_args = free_args,
	.max_tasks = max_tasks,
	.recorded = recorded,
	.task_comms = task_comms,
	.report_table = report_table_all,
	.report_json_key = NULL, /* report_json_all's keys */
	.report_json = report_json_all,
};
