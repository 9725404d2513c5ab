/*
 * rt-app: a workload described by an rt-app JSON file (rtapp_parse.c reads it). spawn() builds
 * one task program per thread: its delay, then per phase and loop the events, framed by OP_NOTE
 * steps through which this file keeps rt-app's per-phase figures (perf, run, period, slack,
 * c_duration, c_period, wu_lat) for the log files that rtapp_log_write.c writes after the run.
 *
 * The events in the model: run N = N us of CPU time (calibration is accepted and ignored: the
 * simulated run is exact); runtime N = busy until N us of wall-clock time passed; sleep; timer
 * (OP_TIMER: absolute expiry advanced by the period, shared by every thread that names it, one
 * per thread for "unique..."); lock/unlock (group mutexes, not recursive); wait/signal/broad
 * (condition variables: a signal nobody waits for is lost); sync = signal then wait (the file
 * locks the mutex around it); barrier = rt-app's own mutex, condition and counter (struct
 * sl_barrier: the last to arrive broadcasts); suspend/resume = a wait / a broadcast on the
 * condition of the name, each inside a lock and unlock of the mutex of the name (the same objects
 * as a lock or a wait of that name: rt-app 1.0 finds resources by name and type; docs/rt-app.md);
 * yield; fork (a new thread from a task's definition); mem and iorun = CPU time at the
 * mem_mbps / io_mbps copy rates. Threads that can never run again stop the run with a
 * deadlock report (deadlock(), below).
 */
#include "workload/workload.h"
#include "workload/rtapp.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct rtapp_args {
	struct rta_file f;
	char file[SL_WL_VALUE_MAX];
	char logdir[SL_WL_VALUE_MAX];
	long ns_per_loop, mem_mbps, io_mbps;
};

#define A struct rtapp_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_FILE("file", A, file, "", "the rt-app JSON file"),
	SL_WL_KEY_DIR("logdir", A, logdir, "",
		      "write rt-app's per-thread logs there (default: none)"),
	SL_WL_KEY_INT("ns_per_loop", A, ns_per_loop, 1, 1000000000, "100",
		      "perf column: ns per loop when calibration names a CPU"),
	SL_WL_KEY_INT("mem_mbps", A, mem_mbps, 1, 1000000000, "4000",
		      "mem event: bytes written per us (MB/s) of CPU time"),
	SL_WL_KEY_INT("io_mbps", A, io_mbps, 1, 1000000000, "4000",
		      "iorun event: bytes written per us (MB/s) of CPU time"),
};
#undef A

static int check(void *args, char *err, size_t errlen)
{
	struct rtapp_args *a = args;

	if (!a->file[0]) {
		snprintf(err, errlen, "file: give the rt-app JSON file (file=F.json)");
		return -1;
	}
	if (sl_rta_load(a->file, &a->f, err, errlen))
		return -1;
	/* a fork target (instance 0) starts only from a running thread: none runs, an empty run */
	int started = 0;

	for (int i = 0; i < a->f.ntasks; i++)
		started += a->f.tasks[i].instance > 0;
	if (!started) {
		snprintf(err, errlen,
			 "%s:%d: every task has \"instance\": 0: no thread would start (expected "
			 "one task at least with an instance of 1 or more)",
			 a->file, a->f.ntasks ? a->f.tasks[0].line : 1);
		return -1;
	}
	if (a->f.ns_per_loop)
		a->ns_per_loop = a->f.ns_per_loop;
	return 0;
}

static void free_args(void *args)
{
	struct rtapp_args *a = args;

	if (a)
		sl_rta_free(&a->f);
	free(a);
}

/* Runnable threads (instances, and fork targets) with finite loops end by themselves. */
static bool finite(const void *args)
{
	const struct rta_file *f = &((const struct rtapp_args *)args)->f;

	for (int i = 0; i < f->ntasks; i++) {
		const struct rta_task *t = &f->tasks[i];
		bool forked = false;

		for (int k = 0; k < f->ntasks; k++)
			for (int p = 0; p < f->tasks[k].nph; p++)
				for (int e = 0; e < f->tasks[k].ph[p].nev; e++)
					forked |= f->tasks[k].ph[p].ev[e].kind == RTA_FORK &&
						  f->tasks[k].ph[p].ev[e].ref == i;
		if (!t->instance && !forked)
			continue;
		if (t->loop < 0)
			return false;
		for (int p = 0; p < t->nph; p++)
			if (t->ph[p].loop < 0)
				return false;
	}
	return true;
}

/* the file's global "duration" in seconds (-1: none) */
static long duration_s(const void *args)
{
	return ((const struct rtapp_args *)args)->f.duration_s;
}

/* ---- the run's state: per-thread figures through OP_NOTE ---- */

enum note_kind { N_BEGIN, N_END, N_RUN_BEGIN, N_RUN_END, N_TIMER_PRE, N_TIMER_POST };

struct thread_acc {
	struct rta_thread_log log;
	struct rta_row cur;
	u64 start_ns, run_ns, run_since;
	s64 slack_ns;
	u64 expected; /* the timer expiry it sleeps to, 0 if late */
};

struct timer_slot {
	int name;  /* index in f->timers */
	int owner; /* thread for a "unique" timer, else -1 */
};

/* the event each step of a program comes from, for the deadlock report */
struct prog_events {
	const struct sl_prog *prog;
	const struct rta_event **ev; /* by step; NULL: the frame's own (delay, notes, loops) */
	int n;
};

struct run_state {
	const struct rtapp_args *a;
	struct prog_events *pe;
	int npe;
	struct thread_acc *th; /* by log index */
	int nth;
	int *by_pid; /* pid -> log index + 1 */
	int npid;
	struct sl_prog **progs; /* thread i's program; forks' at ninst + task */
	int ninst;
	const struct sl_prog **fork_prog; /* per task definition */
	struct timer_slot *slots;
	int nslots;
};

static void state_free(void *v)
{
	struct run_state *s = v;

	if (!s)
		return;
	for (int i = 0; i < s->nth; i++) {
		for (int b = 0; b < s->th[i].log.nblocks; b++)
			free(s->th[i].log.blocks[b]);
		free(s->th[i].log.blocks);
	}
	for (int i = 0; i < s->npe; i++)
		free(s->pe[i].ev);
	free(s->pe);
	free(s->th);
	free(s->by_pid);
	free(s->progs);
	free(s->fork_prog);
	free(s->slots);
	free(s);
}

/* The thread a task is: instances were registered at spawn; a forked one on its first note. */
static struct thread_acc *thread_of(struct sl_sim *sim, struct run_state *s, struct sl_task *p)
{
	if (p->pid >= s->npid) {
		int n = p->pid * 2 + 16;
		int *a = realloc(s->by_pid, sizeof(*a) * (size_t)n);

		if (!a) {
			sim->oom = true;
			return NULL;
		}
		memset(a + s->npid, 0, sizeof(*a) * (size_t)(n - s->npid));
		s->by_pid = a;
		s->npid = n;
	}
	if (!s->by_pid[p->pid]) {
		struct thread_acc *t = realloc(s->th, sizeof(*t) * (size_t)(s->nth + 1));

		if (!t) {
			sim->oom = true;
			return NULL;
		}
		s->th = t;
		memset(&t[s->nth], 0, sizeof(t[0]));
		t[s->nth].log.idx = s->nth;
		t[s->nth].log.policy = p->policy;
		t[s->nth].log.prio = p->policy == SL_SCHED_NORMAL ? p->nice : p->rt_priority;
		snprintf(t[s->nth].log.name, sizeof(t[0].log.name), "%s", sl_mtask(p)->comm);
		/* the full task name (comm holds 15 characters) */
		for (int k = 0; k < s->a->f.ntasks; k++)
			if (s->fork_prog[k] == sl_mtask(p)->prog)
				snprintf(t[s->nth].log.name, sizeof(t[0].log.name), "%s",
					 s->a->f.tasks[k].name);
		s->by_pid[p->pid] = ++s->nth;
	}
	return &s->th[s->by_pid[p->pid] - 1];
}

static u64 ns_to_us(u64 ns)
{
	return ns / NSEC_PER_USEC;
}

static void note(struct sl_sim *sim, struct sl_task *p, const struct sl_step *st)
{
	struct run_state *s = sl_mtask(p)->group->state;
	struct thread_acc *t = thread_of(sim, s, p);
	struct rta_row *r;

	if (!t)
		return;
	r = &t->cur;
	switch ((enum note_kind)st->arg) {
	case N_BEGIN:
		memset(r, 0, sizeof(*r));
		t->start_ns = sim->now;
		t->run_ns = 0;
		t->slack_ns = 0;
		break;
	case N_RUN_BEGIN:
		t->run_since = sim->now;
		break;
	case N_RUN_END:
		/* run: the wall-clock time the run events took; perf: their loops */
		t->run_ns += sim->now - t->run_since;
		r->perf += st->d.a * NSEC_PER_USEC /
			   (s->a->f.ns_per_loop || !sl_machine_of(sim)->p->rtapp_calib_ns
				    ? (u64)s->a->ns_per_loop
				    : sl_machine_of(sim)->p->rtapp_calib_ns);
		r->c_duration += st->d.a;
		break;
	case N_TIMER_PRE: {
		const struct sl_abstimer *tm = &sl_mtask(p)->group->timers[st->arg2];
		u64 next =
			(tm->init ? tm->next : sl_mtask(p)->group->start) + st->d.a * NSEC_PER_USEC;
		s64 slack = (s64)next - (s64)sim->now;

		t->slack_ns = s->a->f.cumulative_slack ? t->slack_ns + slack : slack;
		r->c_period += st->d.a;
		t->expected = sim->now < next ? next : 0;
		/* rt-app 1.0 zeroes the phase's wake-up latency when the timer is missed */
		if (!t->expected)
			r->wu_lat = 0;
		break;
	}
	case N_TIMER_POST:
		/* the wake-up latency: from the expiry to running again */
		if (t->expected)
			r->wu_lat += ns_to_us(sim->now - t->expected);
		t->expected = 0;
		break;
	case N_END: {
		struct rta_thread_log *l = &t->log;

		r->start = ns_to_us(t->start_ns);
		r->end = ns_to_us(sim->now);
		r->period = ns_to_us(sim->now - t->start_ns);
		r->rel_st = ns_to_us(t->start_ns - sl_mtask(p)->group->start);
		r->run = ns_to_us(t->run_ns);
		r->slack = t->slack_ns / (s64)NSEC_PER_USEC;
		if (l->n == l->nblocks * SL_RTA_BLOCK) {
			struct rta_row **b =
				realloc(l->blocks, sizeof(*b) * (size_t)(l->nblocks + 1));

			if (!b) {
				sim->oom = true;
				return;
			}
			l->blocks = b;
			if (!(b[l->nblocks] = malloc(sizeof(**b) * SL_RTA_BLOCK))) {
				sim->oom = true;
				return;
			}
			l->nblocks++;
		}
		l->blocks[l->n / SL_RTA_BLOCK][l->n % SL_RTA_BLOCK] = *r;
		l->n++;
		break;
	}
	}
}

static int finish(struct sl_sim *sim, struct sl_group *g)
{
	struct run_state *s = g->state;
	char err[256];

	if (!s || !s->a->logdir[0])
		return 0;
	struct rta_thread_log *logs = calloc((size_t)s->nth + 1, sizeof(*logs));

	if (!logs) {
		sim->oom = true;
		return -1;
	}
	for (int i = 0; i < s->nth; i++)
		logs[i] = s->th[i].log;
	int rc = sl_rta_log_write(s->a->logdir, s->a->f.log_basename, logs, s->nth, err,
				  sizeof(err));

	free(logs);
	if (rc) {
		snprintf(sim->error, sizeof(sim->error), "rt-app logs: %s", err);
		sim->eio = true; /* a log that could not be written, not bad input */
	}
	return rc;
}

/* ---- programs ---- */

static int timer_slot(struct sl_sim *sim, struct run_state *s, int name, int owner)
{
	for (int i = 0; i < s->nslots; i++)
		if (s->slots[i].name == name && s->slots[i].owner == owner)
			return i;
	struct timer_slot *a = realloc(s->slots, sizeof(*a) * (size_t)(s->nslots + 1));

	if (!a) {
		sim->oom = true;
		return -1;
	}
	s->slots = a;
	s->slots[s->nslots].name = name;
	s->slots[s->nslots].owner = owner;
	return s->nslots++;
}

static int add(struct sl_sim *sim, struct sl_prog *p, enum sl_op op, u64 d, int arg, int arg2)
{
	return sl_prog_add(sim, p, op, sl_dist_fixed(d), arg, arg2, NULL);
}

/*
 * The CPU time of "run": N us, or, when the machine's rt-app loop is calibrated (rtapp_kloop,
 * rtapp_calib: docs/validate.md), what rt-app 1.0's loadwait() does: N us become loops of the
 * calibrated ns per loop p (whole seconds as 10^9/p loops each, the rest as rest*1000/p, integer
 * divisions), each loop costing rtapp_kloop/1000 ns on this machine, plus rtapp_cold per run; the
 * run is drawn with the per-loop standard deviation rtapp_kloop_sd scaled likewise.
 */
struct sl_dist sl_rta_run_cost(const struct sl_params *prm, long file_ns_per_loop, u64 us)
{
	u64 p = file_ns_per_loop > 0 ? (u64)file_ns_per_loop : prm->rtapp_calib_ns;
	u64 loops, secs = us / 1000000;
	struct sl_dist d = sl_dist_fixed(us * NSEC_PER_USEC);

	if (!prm->rtapp_kloop_ns || !p)
		return d;
	loops = secs * (1000000000ULL / p) + (us - secs * 1000000) * 1000 / p;
	d.a = prm->rtapp_cold_ns + loops * prm->rtapp_kloop_ns / 1000;
	if (prm->rtapp_kloop_sd_ns) {
		d.kind = SL_DIST_NORMAL;
		d.b = loops * prm->rtapp_kloop_sd_ns / 1000;
	}
	return d;
}

/* steps [from, p->n) of p come from event e */
static int mark_steps(struct sl_sim *sim, struct run_state *s, const struct sl_prog *p, int from,
		      const struct rta_event *e)
{
	struct prog_events *pe = NULL;

	for (int i = 0; i < s->npe && !pe; i++)
		if (s->pe[i].prog == p)
			pe = &s->pe[i];
	if (!pe) {
		struct prog_events *a = realloc(s->pe, sizeof(*a) * (size_t)(s->npe + 1));

		if (!a)
			goto oom;
		s->pe = a;
		pe = &s->pe[s->npe++];
		memset(pe, 0, sizeof(*pe));
		pe->prog = p;
	}
	if (pe->n < p->n) {
		const struct rta_event **v = realloc(pe->ev, sizeof(*v) * (size_t)p->n);

		if (!v)
			goto oom;
		memset(v + pe->n, 0, sizeof(*v) * (size_t)(p->n - pe->n));
		pe->ev = v;
		pe->n = p->n;
	}
	for (int k = from; k < p->n; k++)
		pe->ev[k] = e;
	return 0;
oom:
	sim->oom = true;
	return -1;
}

/* OP_LOCK's arg2: rt-app's mutexes are glibc's default pthread mutexes, futexes */
#define FUTEX 1

static int emit_event(struct sl_sim *sim, struct sl_group *g, struct run_state *s,
		      struct sl_prog *p, const struct rta_event *e, int owner)
{
	const struct rtapp_args *a = s->a;
	u64 us_ns = e->val * NSEC_PER_USEC;
	int slot, bm, bc;

	switch (e->kind) {
	case RTA_RUN:
		return add(sim, p, OP_NOTE, 0, N_RUN_BEGIN, 0) ||
		       sl_prog_add(sim, p, OP_RUN,
				   sl_rta_run_cost(sl_machine_of(sim)->p, a->f.ns_per_loop, e->val),
				   0, 0, NULL) ||
		       add(sim, p, OP_NOTE, e->val, N_RUN_END, 0);
	case RTA_RUNTIME:
		return add(sim, p, OP_NOTE, 0, N_RUN_BEGIN, 0) ||
		       add(sim, p, OP_RUNTIME, us_ns, 0, 0) ||
		       add(sim, p, OP_NOTE, e->val, N_RUN_END, 0);
	case RTA_SLEEP:
		return add(sim, p, OP_SLEEP, us_ns, 0, 0);
	case RTA_TIMER:
		slot = timer_slot(sim, s, e->ref, e->unique ? owner : -1);
		return slot < 0 || add(sim, p, OP_NOTE, e->val, N_TIMER_PRE, slot) ||
		       add(sim, p, OP_TIMER, us_ns, slot, e->relative) ||
		       add(sim, p, OP_NOTE, 0, N_TIMER_POST, slot);
	case RTA_LOCK:
		return add(sim, p, OP_LOCK, 0, e->ref, FUTEX);
	case RTA_UNLOCK:
		return add(sim, p, OP_UNLOCK, 0, e->ref, 0);
	case RTA_WAIT:
		/* pthread_cond_wait: the mutex is released, and held again on return */
		return add(sim, p, OP_CWAIT, 0, e->ref, e->mutex) ||
		       add(sim, p, OP_LOCK, 0, e->mutex, FUTEX);
	case RTA_SIGNAL:
		return add(sim, p, OP_CSIGNAL, 0, e->ref, 0);
	case RTA_BROAD:
		return add(sim, p, OP_CBROAD, 0, e->ref, 0);
	case RTA_SYNC:
		/* a signal then a wait; the mutex is the file's to lock around it */
		return add(sim, p, OP_CSIGNAL, 0, e->ref, 0) ||
		       add(sim, p, OP_CWAIT, 0, e->ref, e->mutex) ||
		       add(sim, p, OP_LOCK, 0, e->mutex, FUTEX);
	case RTA_SUSPEND:
		/* a wait inside its own lock and unlock of the mutex of the name */
		return add(sim, p, OP_LOCK, 0, e->mutex, FUTEX) ||
		       add(sim, p, OP_CWAIT, 0, e->ref, e->mutex) ||
		       add(sim, p, OP_LOCK, 0, e->mutex, FUTEX) ||
		       add(sim, p, OP_UNLOCK, 0, e->mutex, 0);
	case RTA_RESUME:
		/* a broadcast under the mutex of the name: lost when nobody waits */
		return add(sim, p, OP_LOCK, 0, e->mutex, FUTEX) ||
		       add(sim, p, OP_CBROAD, 0, e->ref, 0) ||
		       add(sim, p, OP_UNLOCK, 0, e->mutex, 0);
	case RTA_BARRIER:
		/*
		 * rt-app's: under the barrier's own mutex, the last to arrive broadcasts, the
		 * others wait on its condition (enum sl_barrier_step: the layout is fixed)
		 */
		bm = a->f.mutexes.n + e->ref;
		bc = a->f.conds.n + e->ref;
		return add(sim, p, OP_LOCK, 0, bm, FUTEX) ||
		       add(sim, p, OP_BARRIER, 0, e->ref, SL_BAR_ARRIVE) ||
		       add(sim, p, OP_CBROAD, 0, bc, 0) ||
		       add(sim, p, OP_BARRIER, 0, e->ref, SL_BAR_SKIP) ||
		       add(sim, p, OP_CWAIT, 0, bc, bm) || add(sim, p, OP_LOCK, 0, bm, FUTEX) ||
		       add(sim, p, OP_BARRIER, 0, e->ref, SL_BAR_BACK) ||
		       add(sim, p, OP_UNLOCK, 0, bm, 0);
	case RTA_YIELD:
		return add(sim, p, OP_YIELD, 0, 0, 0);
	case RTA_FORK:
		return sl_prog_fork(sim, p, s->fork_prog[e->ref]);
	case RTA_MEM:
		return add(sim, p, OP_RUN, e->val * NSEC_PER_USEC / (u64)a->mem_mbps, 0, 0);
	case RTA_IORUN:
		return add(sim, p, OP_RUN, e->val * NSEC_PER_USEC / (u64)a->io_mbps, 0, 0);
	}
	(void)g;
	return -1;
}

static u64 mask_of(const int *cpus, int n)
{
	u64 m = 0;

	for (int i = 0; i < n; i++)
		m |= 1ULL << cpus[i]; /* CPUs below 64: checked by spawn */
	return m;
}

static int build(struct sl_sim *sim, struct sl_group *g, struct run_state *s,
		 const struct rta_task *t, struct sl_prog *p, int owner)
{
	bool phase_cpus = false;
	int top;

	p->cpus_allowed = mask_of(t->cpus, t->ncpus);
	for (int k = 0; k < t->nph; k++)
		phase_cpus |= t->ph[k].ncpus > 0;

	if (t->delay_us && add(sim, p, OP_SLEEP, t->delay_us * NSEC_PER_USEC, 0, 0))
		return -1;
	if (t->loop == 0)
		return sl_prog_exit(sim, p);
	top = p->n;
	for (int k = 0; k < t->nph; k++) {
		const struct rta_phase *ph = &t->ph[k];
		int start = p->n;

		if (ph->loop == 0)
			continue;
		/* a phase's "cpus", else the task's, from the phase's start */
		if (phase_cpus) {
			u64 m = ph->ncpus ? mask_of(ph->cpus, ph->ncpus) : p->cpus_allowed;

			if (add(sim, p, OP_AFFINITY, m, 0, 0))
				return -1;
			start = p->n;
		}
		if (add(sim, p, OP_NOTE, 0, N_BEGIN, k))
			return -1;
		for (int e = 0; e < ph->nev; e++) {
			int from = p->n;

			if (emit_event(sim, g, s, p, &ph->ev[e], owner) ||
			    mark_steps(sim, s, p, from, &ph->ev[e]))
				return -1;
		}
		if (add(sim, p, OP_NOTE, 0, N_END, k))
			return -1;
		if (ph->loop != 1 &&
		    add(sim, p, OP_LOOP, 0, start, ph->loop < 0 ? 0 : (int)ph->loop))
			return -1;
	}
	if (t->loop != 1 && add(sim, p, OP_LOOP, 0, top, t->loop < 0 ? 0 : (int)t->loop))
		return -1;
	return sl_prog_exit(sim, p);
}

/* ---- the deadlock report ---- */

#define REPORT_MAX 2048

/* appends to the report b (truncated when full) */
static void say(char *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(char *b, const char *fmt, ...)
{
	size_t n = strlen(b);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b + n, REPORT_MAX - n, fmt, ap);
	va_end(ap);
}

/* a thread as its log file names it: NAME-IDX */
static void say_thread(char *b, const struct run_state *s, const struct sl_task *t)
{
	if (t->pid < s->npid && s->by_pid[t->pid])
		say(b, "%s-%d", s->th[s->by_pid[t->pid] - 1].log.name,
		    s->th[s->by_pid[t->pid] - 1].log.idx);
	else
		say(b, "%s", sl_mtask(t)->comm);
}

/* what t waits for: the event (file line), and the object */
static void say_wait(char *b, const struct sl_group *g, const struct run_state *s,
		     const struct sl_task *t)
{
	const struct rta_file *f = &s->a->f;
	const struct sl_prog *prog = sl_mtask(t)->prog;
	bool on_lock = sl_mtask(t)->blocked == BLK_MUTEX || sl_mtask(t)->spinning;
	int pc = sl_mtask(t)->pc;
	/*
	 * a lock waits at its step, and so does a signal or broadcast that waits for the
	 * condition's woken waiters to run (cond_groups); a condition's wait has moved past it
	 */
	bool at_step = on_lock || (pc < prog->n && (prog->steps[pc].op == OP_CSIGNAL ||
						    prog->steps[pc].op == OP_CBROAD));
	const struct sl_step *st;
	const struct rta_event *e = NULL;

	if (!at_step)
		pc--;
	st = &prog->steps[pc];
	for (int i = 0; i < s->npe; i++)
		if (s->pe[i].prog == prog && pc < s->pe[i].n)
			e = s->pe[i].ev[pc];
	say_thread(b, s, t);
	if (e)
		say(b, " (line %d, %s)", e->line, sl_rta_kind_name(e->kind));
	if (on_lock) {
		const struct sl_mutex *m = sl_mtask(t)->ext->lock_wait;
		int mi = (int)(m - g->mutexes); /* each barrier's mutex after the file's */

		if (mi < f->mutexes.n)
			say(b, " waits for mutex \"%s\" held by ", f->mutexes.v[mi]);
		else
			say(b, " waits for barrier \"%s\"'s mutex held by ",
			    f->barriers.v[mi - f->mutexes.n]);
		say_thread(b, s, m->owner);
	} else if (st->op != OP_CWAIT && !at_step) {
		say(b, " waits"); /* no step of the file's waits here: not expected */
	} else {
		bool bar = st->arg >= f->conds.n; /* each barrier's condition after the file's */
		const char *name = bar ? f->barriers.v[st->arg - f->conds.n] : f->conds.v[st->arg];

		if (at_step)
			say(b, " waits to signal %s \"%s\" until the waiters it woke have run",
			    bar ? "barrier" : "condition", name);
		else if (bar)
			say(b, " waits at barrier \"%s\"", name);
		else
			say(b, " waits on condition \"%s\"", name);
	}
}

/*
 * rt-app's threads can never run again: every one asleep on a mutex, a condition or a barrier
 * (cycle NULL: none is left to wake another), or `cycle` closed a cycle of mutex waits. The
 * report names the threads and what each waits for. Without a duration (the file's or
 * --duration) rt-app would wait for ever: the run stops with the report as its error. With
 * one, rt-app's threads stay blocked until it ends and its logs are what they are: the report
 * goes to stderr at once and the run goes on (checked no more for this group).
 */
static void deadlock(struct sl_sim *sim, struct sl_group *g, const struct sl_task *cycle)
{
	const struct run_state *s = g->state;
	char b[REPORT_MAX];
	int n = 0;

	snprintf(b, sizeof(b), "%s: deadlock at t=%.3f ms: ", s->a->f.path,
		 (double)(sim->now - g->start) / 1e6);
	if (cycle) {
		const struct sl_task *t = cycle;

		do {
			say(b, "%s", n++ ? "; " : "");
			say_wait(b, g, s, t);
			t = sl_mtask(t)->ext->lock_wait->owner;
		} while (t != cycle && n <= g->ntasks);
		say(b, " (a cycle of mutex waits)");
	} else {
		for (int i = 0; i < sl_machine_of(sim)->ntasks; i++) {
			const struct sl_task *t = sl_sim_task(sim, i);

			if (sl_mtask(t)->group != g || t->state == TS_DEAD)
				continue;
			say(b, "%s", n++ ? "; " : "");
			say_wait(b, g, s, t);
		}
		say(b, " (every thread asleep: none is left to wake another)");
	}
	if (!sl_machine_of(sim)->duration_set) {
		snprintf(sim->error, sizeof(sim->error), "%s", b);
		sim->end = sim->now; /* stop the run */
		return;
	}
	fprintf(stderr, "schedlab: warning: %s; they stay blocked until the run ends at %.3f s\n",
		b, (double)sim->end / 1e9);
	g->deadlock = NULL;
}

static int fail_spawn(struct sl_sim *sim, const struct rta_file *f, const struct rta_task *t,
		      int cpu)
{
	if (cpu >= 64)
		snprintf(sim->error, sizeof(sim->error),
			 "%s:%d: task \"%s\": cpus names CPU %d: affinity masks hold CPUs 0..63",
			 f->path, t->line, t->name, cpu);
	else
		snprintf(sim->error, sizeof(sim->error),
			 "%s:%d: task \"%s\": cpus names CPU %d, the machine has CPUs 0..%d",
			 f->path, t->line, t->name, cpu, sim->ncpu - 1);
	return -1;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct rtapp_args *a = args;
	const struct rta_file *f = &a->f;
	struct run_state *s = calloc(1, sizeof(*s));
	int ninst = 0, owner = 0;

	if (!s)
		return -1;
	g->state = s;
	g->state_free = state_free;
	g->note = note;
	g->finish = finish;
	g->deadlock = deadlock;
	s->a = a;
	for (int i = 0; i < f->ntasks; i++) {
		ninst += (int)f->tasks[i].instance;
		for (int c = 0; c < f->tasks[i].ncpus; c++)
			if (f->tasks[i].cpus[c] >= sim->ncpu || f->tasks[i].cpus[c] >= 64)
				return fail_spawn(sim, f, &f->tasks[i], f->tasks[i].cpus[c]);
		for (int p = 0; p < f->tasks[i].nph; p++)
			for (int c = 0; c < f->tasks[i].ph[p].ncpus; c++)
				if (f->tasks[i].ph[p].cpus[c] >= sim->ncpu ||
				    f->tasks[i].ph[p].cpus[c] >= 64)
					return fail_spawn(sim, f, &f->tasks[i],
							  f->tasks[i].ph[p].cpus[c]);
	}
	if (ninst < 0 || f->ntasks < 0)
		return -1; /* the parser bounds both: cannot happen */
	s->ninst = ninst;
	s->progs = calloc((size_t)(unsigned)ninst + 1, sizeof(*s->progs));
	s->fork_prog = calloc((size_t)(unsigned)f->ntasks + 1, sizeof(*s->fork_prog));
	if (!s->progs || !s->fork_prog)
		return -1;
	/* every definition has a program a fork can start (made before any refers to it) */
	for (int i = 0; i < f->ntasks; i++) {
		struct sl_prog *fp =
			sl_prog_new(sim, g, f->tasks[i].name, f->tasks[i].nice, f->tasks[i].policy);

		if (!fp)
			return -1;
		fp->rt_priority = f->tasks[i].rt_priority;
		s->fork_prog[i] = fp;
	}
	for (int i = 0; i < f->ntasks; i++)
		if (build(sim, g, s, &f->tasks[i], (struct sl_prog *)s->fork_prog[i], -2 - i))
			return -1;
	for (int i = 0; i < f->ntasks; i++) {
		for (long k = 0; k < f->tasks[i].instance; k++, owner++) {
			struct sl_prog *p = sl_prog_new(sim, g, f->tasks[i].name, f->tasks[i].nice,
							f->tasks[i].policy);

			if (!p)
				return -1;
			p->rt_priority = f->tasks[i].rt_priority;
			if (build(sim, g, s, &f->tasks[i], p, owner))
				return -1;
			s->progs[owner] = p;
		}
	}
	/* the synchronisation objects the programs name; each barrier's mutex and condition last */
	if ((f->mutexes.n + f->barriers.n &&
	     sl_group_mutexes(sim, g, f->mutexes.n + f->barriers.n)))
		return -1;
	g->conds = calloc((size_t)(f->conds.n + f->barriers.n) + 1, sizeof(*g->conds));
	g->barriers = calloc((size_t)f->barriers.n + 1, sizeof(*g->barriers));
	g->timers = calloc((size_t)s->nslots + 1, sizeof(*g->timers));
	if (!g->conds || !g->barriers || !g->timers) {
		sim->oom = true;
		return -1;
	}
	g->nconds = f->conds.n + f->barriers.n;
	g->nbarriers = f->barriers.n;
	g->ntimers = s->nslots;
	for (int i = 0; i < f->barriers.n; i++)
		g->barriers[i].waiting = f->barrier_users[i] - 1; /* rt-app: -1, +1 per user */
	/* threads in file order; their log index is their creation order, as rt-app's */
	for (int i = 0; i < ninst; i++) {
		struct sl_task *p = sl_spawn(sim, g, s->progs[i]);

		if (!p || !thread_of(sim, s, p))
			return -1;
	}
	/* the full names of the instances (comm keeps 15 characters) */
	owner = 0;
	for (int i = 0; i < f->ntasks; i++)
		for (long k = 0; k < f->tasks[i].instance; k++, owner++)
			snprintf(s->th[owner].log.name, sizeof(s->th[0].log.name), "%s",
				 f->tasks[i].name);
	return 0;
}

/* ---- figures for the report ---- */

int sl_rta_group_threads(const struct sl_group *g)
{
	extern const struct sl_workload_ops sl_wl_rtapp;

	if (!g->wl || g->wl->ops != &sl_wl_rtapp || !g->state)
		return -1;
	return ((const struct run_state *)g->state)->nth;
}

/*
 * v[0..n) sorted ascending, with tmp[0..n) as scratch: an LSD radix sort, a byte at a time, of
 * the values with their sign bit flipped (so that the unsigned order is the signed one); the
 * bytes every value shares are skipped. The same sorted array as qsort gave (the order of
 * integers is total), without a call per comparison.
 */
static void sort_s64(s64 *v, s64 *tmp, u64 n)
{
	u64 count[8][256] = {{0}};
	const u64 flip = 1ULL << 63;

	for (u64 i = 0; i < n; i++) {
		u64 x = (u64)v[i] ^ flip;

		for (int d = 0; d < 8; d++)
			count[d][(x >> (8 * d)) & 0xff]++;
	}
	for (int d = 0; d < 8; d++) {
		u64 pos = 0, *c = count[d];

		if (c[((u64)v[0] ^ flip) >> (8 * d) & 0xff] == n)
			continue; /* every value has this byte */
		for (int b = 0; b < 256; b++) {
			u64 k = c[b];

			c[b] = pos;
			pos += k;
		}
		for (u64 i = 0; i < n; i++)
			tmp[c[((u64)v[i] ^ flip) >> (8 * d) & 0xff]++] = v[i];
		memcpy(v, tmp, sizeof(*v) * n);
	}
}

/* v[0..n) sorted in place (tmp: n values of scratch); n > 0 */
static void stat_of(s64 *v, s64 *tmp, u64 n, struct rta_stat *st)
{
	double sum = 0;

	sort_s64(v, tmp, n);
	for (u64 i = 0; i < n; i++)
		sum += (double)v[i];
	st->mean = sum / (double)n;
	st->min = v[0];
	st->max = v[n - 1];
	/* nearest rank: the ceil(0.95 n)-th smallest */
	st->p95 = v[(n * 95 + 99) / 100 - 1];
}

int sl_rta_group_summary(const struct sl_group *g, int i, struct rta_summary *out)
{
	const struct run_state *s = g->state;
	const struct rta_thread_log *l = &s->th[i].log;
	u64 n = (u64)l->n;
	s64 *v;

	memset(out, 0, sizeof(*out));
	out->name = l->name;
	out->idx = l->idx;
	out->phases = n;
	if (!n)
		return 0;
	v = calloc(2 * n, sizeof(*v)); /* zeroed: the analyzer cannot see the loops fill it */
	if (!v)
		return -1;
	for (u64 k = 0; k < n; k++)
		v[k] = (s64)sl_rta_row(l, (int)k)->run;
	stat_of(v, v + n, n, &out->run);
	for (u64 k = 0; k < n; k++)
		v[k] = (s64)sl_rta_row(l, (int)k)->period;
	stat_of(v, v + n, n, &out->period);
	for (u64 k = 0; k < n; k++)
		v[k] = sl_rta_row(l, (int)k)->slack;
	stat_of(v, v + n, n, &out->slack);
	for (u64 k = 0; k < n; k++)
		v[k] = (s64)sl_rta_row(l, (int)k)->wu_lat;
	stat_of(v, v + n, n, &out->wu_lat);
	free(v);
	return 0;
}

const struct sl_workload_ops sl_wl_rtapp = {
	.name = "rt-app",
	.help = "an rt-app JSON file (schedlab run F.json is short for it)",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct rtapp_args),
	.check = check,
	.spawn = spawn,
	.finite = finite,
	.free_args = free_args,
	.duration_s = duration_s,
	.report_table = sl_rta_report_table,
	.report_json_key = "rtapp_threads",
	.report_json = sl_rta_report_json,
};
