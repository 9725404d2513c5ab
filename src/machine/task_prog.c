/*
 * The task-program interpreter: a task's program (struct sl_prog, the opcodes of enum sl_op)
 * runs step by step while the task is on its CPU, until a step needs CPU time (the machine arms
 * the CPU's `work` timer) or blocks (schedule()).
 *
 * Each opcode has its own handler, and op_table maps an opcode to its handler: adding an opcode
 * is one handler and one line in the table (a _Static_assert catches a table shorter than enum
 * sl_op). The driver, sl_task_continue(), holds what every step shares: a mutex spinner, the
 * burst in progress, the bound on zero-time steps at one instant, the end of the program and
 * the check for ops on group objects.
 */
#include "machine/task_prog.h"
#include "machine/machine.h"
#include "machine/blockdev.h"
#include "machine/sleep_timers.h"
#include "sched/common.h"
#include "sched/class.h"

#include <stdio.h>

/* A program that runs this many zero-time steps at one instant makes no progress. */
#define MAX_STEPS_PER_INSTANT 100000

/* What a step leaves to the driver. */
enum step {
	STEP_NEXT, /* no time passed and p still runs: the next step, at this instant */
	STEP_STOP, /* p waits for its burst or spin (`work`), blocked, exited, or the run failed */
};

/*
 * A periodic task finished a frame: it was due at the end of the period it started in. Late
 * frames are what a video player's user sees.
 */
static void frame_done(struct sl_task *p, u64 now, u64 period, u64 next_start)
{
	struct sl_group *g = sl_mtask(p)->group;
	u64 due =
		sl_mtask(p)->frame_due ? sl_mtask(p)->frame_due : sl_mtask(p)->start_time + period;

	if (g) {
		g->frames++;
		if (now > due) {
			u64 late = now - due;

			g->frames_late++;
			g->late_sum += late;
			if (late > g->late_max)
				g->late_max = late;
		}
	}
	sl_mtask(p)->frame_due = next_start + period;
}

static void block(struct sl_task *p, enum sl_tstate st, enum sl_block why)
{
	p->state = st;
	sl_mtask(p)->blocked = why;
}

/* p blocks (state st, reason why) and leaves its CPU */
static enum step block_and_schedule(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				    enum sl_tstate st, enum sl_block why)
{
	block(p, st, why);
	sl_schedule(sim, rq);
	return STEP_STOP;
}

static void do_exit(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct sl_task *parent = p->parent;
	struct sl_event ev = {.type = SL_EV_EXIT, .cpu = rq->id, .pid = p->pid, .group = sl_gid(p)};

	p->state = TS_DEAD;
	sl_emit(sim, &ev);
	if (sl_mtask(p)->live_children)
		for (int i = 0; i < sl_machine_of(sim)->ntasks; i++)
			if (sl_sim_task(sim, i)->parent == p)
				sl_sim_task(sim, i)->parent = NULL;
	if (sl_mtask(p)->group && --sl_mtask(p)->group->live == 0)
		sl_mtask(p)->group->end = sim->now;
	/* the last task that could wake the others is gone */
	if (sl_mtask(p)->group && sl_mtask(p)->group->deadlock && sl_mtask(p)->group->live &&
	    sl_mtask(p)->group->sync_blocked >= sl_mtask(p)->group->live && !sim->error[0])
		sl_mtask(p)->group->deadlock(sim, sl_mtask(p)->group, NULL);
	if (parent) {
		sl_mtask(parent)->live_children--;
		/* __wake_up_parent wakes with the sync variant */
		if (sl_mtask(parent)->blocked == BLK_CHILD &&
		    sl_mtask(parent)->live_children < sl_mtask(parent)->wait_below)
			sl_try_to_wake_up(sim, parent, p, WF_SYNC);
	}
}

static void wake_peer(struct sl_sim *sim, struct sl_task *p, int sync)
{
	struct sl_task *q = sl_task_peer(p);

	if (!q || q->state == TS_DEAD)
		return;
	if (sl_mtask(q)->blocked == BLK_WAIT)
		sl_try_to_wake_up(sim, q, p, sync ? WF_SYNC : 0);
	else
		sl_mtask(q)->pending_wakes++;
}

/* the run stops with an error about p (fmt takes p's comm and pid) */
static enum step fail(struct sl_sim *sim, const char *fmt, const struct sl_task *p)
{
	if (!sim->error[0])
		snprintf(sim->error, sizeof(sim->error), fmt, sl_mtask(p)->comm, p->pid);
	sim->end = sim->now; /* stop the run */
	return STEP_STOP;
}

/* the program is over: the driver's next step exits */
static void end_prog(struct sl_task *p)
{
	sl_mtask(p)->pc = sl_mtask(p)->prog->n;
}

/*
 * When a sleep that asked for `when` really ends. hrtimer_nanosleep gives the timer the window
 * [when, when + timer_slack_ns] and the clock event is programmed for the window's end; a
 * real-time task gets no slack (hrtimer_nanosleep sets it to 0 for rt tasks, 2.6.28 to 6.x).
 * An interrupt inside the window that runs the timer earlier (coalescing with the tick or
 * another timer) is not modelled.
 */
static u64 sleep_expiry(const struct sl_sim *sim, const struct sl_task *p, u64 when)
{
	if (p->policy == SL_SCHED_FIFO || p->policy == SL_SCHED_RR)
		return when;
	return when + sl_machine_of(sim)->p->timer_slack_ns;
}

/* an interruptible sleep until `expiry` (the timer's own time: no slack is added here) */
static enum step timer_sleep(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p, u64 expiry)
{
	sl_task_timer_arm(sim, p, rq->id, expiry, false);
	return block_and_schedule(sim, rq, p, TS_SLEEPING, BLK_TIMER);
}

/* io_schedule: p is in iowait on this CPU until it runs again (sl_schedule) */
static void enter_iowait(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	sl_mcpu(sim, rq->id)->nr_iowait++;
	sl_mtask(p)->iowait_cpu = rq->id;
}

/* p sleeps on a condition's queue (out of memory: p goes on running) */
static enum step wait_on(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 struct sl_waitq *q)
{
	if (sl_push_task(sim, &q->w, &q->n, &q->cap, p))
		return STEP_STOP;
	block(p, TS_SLEEPING, BLK_COND);
	sl_group_sync_sleep(sim, p);
	sl_schedule(sim, rq);
	return STEP_STOP;
}

/* p wakes the first of q's waiters, or all of them */
static void wake_waiters(struct sl_sim *sim, struct sl_task *p, struct sl_waitq *q, bool all)
{
	while (q->n) {
		sl_try_to_wake_up(sim, sl_pop_first(q->w, &q->n), p, 0);
		if (!all)
			break;
	}
}

/*
 * After a step that woke a task (a system call): with syscall_preempt, the return to user mode
 * is a preemption point, so a wake-up that set need_resched on this CPU switches now (the
 * resched event at this instant schedules; the task's next step runs when it runs again).
 */
static enum step syscall_return(const struct sl_sim *sim, const struct sl_cpu *rq)
{
	return sl_machine_of(sim)->p->syscall_preempt && rq->need_resched ? STEP_STOP : STEP_NEXT;
}

/* ---- the handlers, one per opcode: p->pc is the step's, p is rq's current task ---- */

static enum step op_run(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			const struct sl_step *st)
{
	(void)rq;
	sl_mtask(p)->pc++;
	sl_add_run(sim, p, sl_dist_draw(&st->d, &sim->rng));
	return STEP_NEXT;
}

static enum step op_sleep(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			  const struct sl_step *st)
{
	u64 d = sl_dist_draw(&st->d, &sim->rng);

	sl_mtask(p)->pc++;
	return timer_sleep(sim, rq, p, sleep_expiry(sim, p, sim->now + d));
}

static enum step op_sleep_period(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				 const struct sl_step *st)
{
	u64 d = sl_dist_draw(&st->d, &sim->rng), when = sim->now + d;

	sl_mtask(p)->pc++;
	if (d) {
		when = sl_mtask(p)->start_time + ((sim->now - sl_mtask(p)->start_time) / d + 1) * d;
		frame_done(p, sim->now, d, when);
	}
	return timer_sleep(sim, rq, p, sleep_expiry(sim, p, when));
}

static enum step op_io(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
		       const struct sl_step *st)
{
	u64 d = sl_dist_draw(&st->d, &sim->rng);

	sl_mtask(p)->pc++;
	enter_iowait(sim, rq, p);
	/* the device's completion interrupt, routed to the issuing CPU */
	sl_task_timer_arm(sim, p, rq->id, sim->now + d, true);
	return block_and_schedule(sim, rq, p, TS_UNINTERRUPTIBLE, BLK_IO);
}

static enum step op_wake(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	sl_mtask(p)->pc++;
	wake_peer(sim, p, st->arg);
	return syscall_return(sim, rq);
}

static enum step op_wait(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	(void)st;
	sl_mtask(p)->pc++;
	if (sl_mtask(p)->pending_wakes > 0) {
		sl_mtask(p)->pending_wakes--;
		return STEP_NEXT;
	}
	return block_and_schedule(sim, rq, p, TS_SLEEPING, BLK_WAIT);
}

static enum step op_fork(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	sl_mtask(p)->pc++;
	sl_do_fork(sim, rq, p, st->child, st->arg);
	return STEP_NEXT;
}

static enum step op_exec(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	struct sl_event ev = {.type = SL_EV_EXEC, .cpu = rq->id, .pid = p->pid, .group = sl_gid(p)};

	(void)st;
	sl_mtask(p)->pc++;
	/* a new image: nothing of it is cached yet */
	sl_add_run(sim, p, sl_machine_of(sim)->p->exec_cold_ns);
	sl_emit(sim, &ev);
	return STEP_NEXT;
}

static enum step op_exit(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	(void)sim;
	(void)rq;
	(void)st;
	end_prog(p);
	return STEP_NEXT;
}

static enum step op_wait_below(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			       const struct sl_step *st)
{
	if (sl_mtask(p)->live_children >= st->arg) {
		sl_mtask(p)->wait_below = st->arg;
		return block_and_schedule(sim, rq, p, TS_SLEEPING, BLK_CHILD);
	}
	sl_mtask(p)->pc++;
	return STEP_NEXT;
}

static enum step op_loop(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	int *cnt;

	(void)sim;
	(void)rq;
	if (st->arg2 == 0) { /* for ever: no counter (new_task allocates none for it) */
		sl_mtask(p)->pc = st->arg;
		return STEP_NEXT;
	}
	cnt = &sl_mtask(p)->ext->loopcnt[sl_mtask(p)->pc]; /* a counted loop: new_task made the
							      counters */
	if (++*cnt < st->arg2) {
		sl_mtask(p)->pc = st->arg;
	} else {
		*cnt = 0;
		sl_mtask(p)->pc++;
	}
	return STEP_NEXT;
}

static enum step op_yield(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			  const struct sl_step *st)
{
	struct sl_group *g = sl_mtask(p)->group;

	sl_mtask(p)->pc++;
	p->sched_class->yield_task(sim, rq);
	sl_schedule(sim, rq);
	if (g) {
		g->yields++;
		if (rq->curr == p) {
			g->yields_kept++;
			g->yields_kept_ns += st->d.a;
		}
	}
	return STEP_STOP;
}

static enum step op_credit(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   const struct sl_step *st)
{
	struct sl_task_ext *e = sl_task_ext(sim, p); /* made at its creation: prog_needs_ext */

	(void)rq;
	sl_mtask(p)->pc++;
	if (!e)
		return fail(sim, "task %s-%d: out of memory", p);
	e->switch_credit = sl_dist_draw(&st->d, &sim->rng);
	return STEP_NEXT;
}

/*
 * p waits for m: does the chain of owners, each waiting for another mutex (asleep or
 * spinning), come back to p? (At most `bound` links: a cycle without p ends the walk too.)
 * A mutex is not recursive (glibc's default type): its owner locking it again is a cycle.
 */
static bool lock_cycle(const struct sl_task *p, const struct sl_mutex *m, int bound)
{
	const struct sl_task *o = m->owner;

	for (int i = 0; o && i <= bound; i++) {
		if (o == p)
			return true;
		if ((sl_mtask(o)->blocked != BLK_MUTEX && !sl_mtask(o)->spinning) ||
		    !sl_mtask(o)->ext || !sl_mtask(o)->ext->lock_wait)
			return false;
		o = sl_mtask(o)->ext->lock_wait->owner;
	}
	return false;
}

/*
 * A mutex's lock. A kernel mutex (arg2 0) sleeps uninterruptibly (D) and, with OWNER_SPIN,
 * spins first while its owner runs. A user-space one (arg2 1: glibc's default pthread mutex,
 * rt-app's) waits in futex_wait, interruptible (S, as the recordings trace it), and never
 * spins: the kernel's futex wait has no owner spinning and glibc's default type none of its own.
 */
static enum step op_lock(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	struct sl_group *g = sl_mtask(p)->group;
	struct sl_mutex *m = &g->mutexes[st->arg];
	bool cycle;

	if (!m->owner) {
		m->owner = p;
		sl_mtask(p)->pc++;
		return STEP_NEXT;
	}
	sl_mtask(p)->ext->lock_wait = m; /* new_task made ext for a program that locks */
	cycle = g->deadlock && lock_cycle(p, m, g->ntasks);
	/* mutex_spin_on_owner: spin while the owner runs on another CPU */
	if (!st->arg2 && sched_feat(sim, F_OWNER_SPIN) && m->owner->on_cpu) {
		sl_mtask(p)->spinning = true;
		sl_push_task(sim, &m->spinners, &m->nspin, &m->capspin, p);
		sl_mtask(p)->in_run = true;
		sl_mtask(p)->run_target = RUN_FOREVER;
		sl_arm_work(sim, rq, p);
		if (cycle && !sim->error[0])
			g->deadlock(sim, g, p);
		return STEP_STOP;
	}
	block(p, st->arg2 ? TS_SLEEPING : TS_UNINTERRUPTIBLE, BLK_MUTEX);
	sl_push_task(sim, &m->waiters, &m->nwait, &m->capw, p);
	if (cycle && !sim->error[0])
		g->deadlock(sim, g, p);
	sl_group_sync_sleep(sim, p);
	sl_schedule(sim, rq);
	return STEP_STOP;
}

static enum step op_unlock(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   const struct sl_step *st)
{
	sl_mtask(p)->pc++;
	sl_mutex_release(sim, p, &sl_mtask(p)->group->mutexes[st->arg]);
	return syscall_return(sim, rq);
}

/* requests in flight (a task without a request pool has none) */
static int io_inflight(const struct sl_task *p)
{
	const struct sl_task_io *io = sl_task_io(p);

	return io ? io->inflight : 0;
}

/* pread(O_DIRECT): submit, then io_schedule() until the completion */
static enum step op_bio(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			const struct sl_step *st)
{
	sl_mtask(p)->pc++;
	if (!sl_bio_submit(sim, p, st->d.a, (unsigned)st->arg2)) {
		end_prog(p); /* its size is done: the job ends */
		return STEP_NEXT;
	}
	sl_task_io(p)->reaped_pending = 0; /* it has a pool: the submission took a request */
	enter_iowait(sim, rq, p);
	return block_and_schedule(sim, rq, p, TS_UNINTERRUPTIBLE, BLK_IO);
}

/* io_submit up to the queue depth; each request costs the submission path */
static enum step op_aio_fill(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			     const struct sl_step *st)
{
	u64 n = 0;

	(void)rq;
	sl_mtask(p)->pc++;
	while (io_inflight(p) < st->arg && sl_bio_submit(sim, p, st->d.a, (unsigned)st->arg2))
		n++;
	sl_add_run(sim, p, n * sl_machine_of(sim)->p->io_submit_ns);
	return STEP_NEXT;
}

/*
 * io_getevents(min_nr 1): read_events sleeps interruptibly, so a libaio waiter is not in iowait
 * (2.6.3x fs/aio.c)
 */
static enum step op_aio_wait(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			     const struct sl_step *st)
{
	(void)st;
	struct sl_task_io *io = sl_task_io(p);

	if (io && io->reaped_pending) {
		io->reaped_pending = 0;
		sl_mtask(p)->pc++;
		return STEP_NEXT;
	}
	if (!io_inflight(p) && !(io && io->io_left)) {
		end_prog(p);
		return STEP_NEXT;
	}
	return block_and_schedule(sim, rq, p, TS_SLEEPING, BLK_AIO);
}

static enum step op_until(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			  const struct sl_step *st)
{
	(void)rq;
	sl_mtask(p)->pc++;
	if (st->d.a && sim->now - sl_mtask(p)->start_time >= st->d.a && !io_inflight(p))
		end_prog(p);
	return STEP_NEXT;
}

static enum step op_note(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	(void)rq;
	sl_mtask(p)->pc++;
	if (sl_mtask(p)->group && sl_mtask(p)->group->note)
		sl_mtask(p)->group->note(sim, p, st);
	return STEP_NEXT;
}

/*
 * rt-app's timer: the expiry advances by the period from its last value (from the group's start
 * at its first use); a late thread does not sleep, and a relative timer then restarts from now
 */
static enum step op_timer(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			  const struct sl_step *st)
{
	struct sl_abstimer *t = &sl_mtask(p)->group->timers[st->arg];

	sl_mtask(p)->pc++;
	if (!t->init) {
		t->init = true;
		t->next = sl_mtask(p)->group->start;
	}
	t->next += st->d.a;
	if (sim->now >= t->next) {
		if (st->arg2)
			t->next = sim->now;
		return STEP_NEXT;
	}
	return timer_sleep(sim, rq, p, sleep_expiry(sim, p, t->next));
}

static enum step op_runtime(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			    const struct sl_step *st)
{
	u64 d = sl_dist_draw(&st->d, &sim->rng);

	(void)rq;
	sl_mtask(p)->pc++;
	if (d) {
		sl_mtask(p)->ext->runtime_end = sim->now + d; /* new_task made ext for OP_RUNTIME */
		sl_add_run(sim, p, d);
	}
	return STEP_NEXT;
}

static bool waitq_holds(const struct sl_waitq *q, const struct sl_task *p)
{
	for (int i = 0; i < q->n; i++)
		if (q->w[i] == p)
			return true;
	return false;
}

/*
 * pthread_cond_wait: release the mutex and sleep, atomically; with cwait_preempt, as glibc:
 * registered on the condition first, then the release, whose futex wake returns through a
 * preemption point (syscall_return), then the sleep, which a signal taken meanwhile (the
 * waiter already off the queue) skips. The step runs again when a preempted waiter resumes.
 */
static enum step op_cwait(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			  const struct sl_step *st)
{
	struct sl_waitq *q = &sl_mtask(p)->group->conds[st->arg].q;
	struct sl_machine_task *mt = sl_mtask(p);

	if (!mt->cwait_queued && st->arg2 >= 0 && sl_machine_of(sim)->p->cwait_preempt) {
		if (sl_push_task(sim, &q->w, &q->n, &q->cap, p)) {
			mt->pc++;
			return STEP_STOP;
		}
		mt->cwait_queued = true;
		sl_mutex_release(sim, p, &mt->group->mutexes[st->arg2]);
		if (syscall_return(sim, rq) == STEP_STOP)
			return STEP_STOP;
		/*
		 * wake_tail_unlock: the release woke the mutex's waiter; the real task spends the
		 * tail on its way to the wait's system call, queued, so step runs it before this
		 * step comes again (and a signal meanwhile keeps it awake)
		 */
		if (mt->tail_due)
			return STEP_NEXT;
	}
	if (mt->cwait_queued) {
		mt->cwait_queued = false;
		mt->pc++;
		if (!waitq_holds(q, p))
			return STEP_NEXT;
		block(p, TS_SLEEPING, BLK_COND);
		sl_group_sync_sleep(sim, p);
		sl_schedule(sim, rq);
		return STEP_STOP;
	}
	mt->pc++;
	if (st->arg2 >= 0)
		sl_mutex_release(sim, p, &sl_mtask(p)->group->mutexes[st->arg2]);
	return wait_on(sim, rq, p, q);
}

/*
 * cond_groups: p signals the first waiter of c's G1. One asleep there keeps its reference
 * (glibc's __g_refs) until it runs (its first step drops it); one not yet asleep (cwait_preempt's
 * window) never took one.
 */
static void cond_signal_one(struct sl_sim *sim, struct sl_task *p, struct sl_cond *c)
{
	struct sl_task *w = sl_pop_first(c->q.w, &c->q.n);

	c->g1--;
	if (sl_mtask(w)->blocked == BLK_COND)
		sl_mtask(w)->cond_ref = c;
	else
		c->refs--;
	sl_try_to_wake_up(sim, w, p, 0);
}

/* cond_groups: G2 becomes G1, its waiters each holding a reference until signalled and run */
static void cond_switch(struct sl_cond *c)
{
	c->g1 = c->q.n;
	c->refs += c->q.n;
}

/*
 * pthread_cond_signal. With cond_groups, as glibc: a waiter of G1 not yet signalled takes it;
 * else, with waiters in G2, the groups switch (after G1's woken waiters have run) and the
 * first of the new G1 takes it; with no waiter the signal is lost. A signaller that must
 * switch while G1's woken waiters have not run sleeps on the condition's quiesce queue
 * (holding whatever mutex it holds) with its step not done: the last of them wakes it, and it
 * runs the step again.
 */
static enum step op_csignal(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			    const struct sl_step *st)
{
	struct sl_cond *c = &sl_mtask(p)->group->conds[st->arg];

	if (!sl_machine_of(sim)->p->cond_groups) {
		sl_mtask(p)->pc++;
		wake_waiters(sim, p, &c->q, false);
		return syscall_return(sim, rq);
	}
	if (!c->g1 && c->q.n) {
		if (c->refs)
			return wait_on(sim, rq, p, &c->quiesce);
		cond_switch(c);
	}
	sl_mtask(p)->pc++;
	if (c->g1)
		cond_signal_one(sim, p, c);
	return syscall_return(sim, rq);
}

/*
 * pthread_cond_broadcast. With cond_groups, as glibc: every waiter left in G1 is signalled;
 * then, with waiters in G2, the groups switch once G1's woken waiters have run (p sleeps until
 * then, and comes back here to find G1 signalled) and every waiter of the new G1 is signalled.
 */
static enum step op_cbroad(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   const struct sl_step *st)
{
	struct sl_cond *c = &sl_mtask(p)->group->conds[st->arg];

	if (!sl_machine_of(sim)->p->cond_groups) {
		sl_mtask(p)->pc++;
		wake_waiters(sim, p, &c->q, true);
		return syscall_return(sim, rq);
	}
	while (c->g1)
		cond_signal_one(sim, p, c);
	if (c->q.n) {
		if (c->refs)
			return wait_on(sim, rq, p, &c->quiesce);
		cond_switch(c);
		while (c->g1)
			cond_signal_one(sim, p, c);
	}
	sl_mtask(p)->pc++;
	return syscall_return(sim, rq);
}

/*
 * rt-app's barrier counter (struct sl_barrier), its mutex held: the steps around this one are
 * the lock, broadcast and wait of the barrier's mutex and condition (enum sl_barrier_step)
 */
static enum step op_barrier(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			    const struct sl_step *st)
{
	struct sl_barrier *b = &sl_mtask(p)->group->barriers[st->arg];

	(void)sim;
	(void)rq;
	switch (st->arg2) {
	case SL_BAR_ARRIVE:
		if (!b->waiting) {
			sl_mtask(p)->pc++;
			break;
		}
		b->waiting--;
		sl_mtask(p)->pc += SL_BAR_TO_WAIT;
		break;
	case SL_BAR_SKIP:
		sl_mtask(p)->pc += SL_BAR_TO_UNLOCK;
		break;
	default:
		b->waiting++;
		sl_mtask(p)->pc++;
		break;
	}
	return STEP_NEXT;
}

/*
 * A CPU no longer allowed is left as the kernel's migration thread does: off it at once, placed
 * again as a wake-up would (a zero-length sleep)
 */
static enum step op_affinity(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			     const struct sl_step *st)
{
	sl_mtask(p)->pc++;
	p->cpus_allowed = st->d.a;
	if (sl_cpu_allowed(p, rq->id))
		return STEP_NEXT;
	return timer_sleep(sim, rq, p, sim->now);
}

/* down(): a count left by an earlier up is taken at once, else p sleeps on the queue */
/* a wait of g that did not block: counted, with what the step says its switch-in was worth */
static void kept_on(struct sl_group *g, const struct sl_step *st)
{
	g->waits_kept++;
	g->waits_kept_ns += st->d.a;
}

static enum step op_sem_down(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			     const struct sl_step *st)
{
	struct sl_group *g = sl_mtask(p)->group;
	struct sl_sem *s = &g->sems[st->arg];

	sl_mtask(p)->pc++;
	if (s->count) {
		s->count--;
		kept_on(g, st);
		return STEP_NEXT;
	}
	return wait_on(sim, rq, p, &s->q);
}

static enum step op_sem_up(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			   const struct sl_step *st)
{
	struct sl_sem *s = &sl_mtask(p)->group->sems[st->arg];

	sl_mtask(p)->pc++;
	if (s->q.n)
		sl_try_to_wake_up(sim, sl_pop_first(s->q.w, &s->q.n), p, st->arg2 ? WF_SYNC : 0);
	else
		s->count++;
	return syscall_return(sim, rq);
}

/* the waker reached its hold (sync.h): a wakee's wait from now on blocks until its wake-up */
static enum step op_hold(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			 const struct sl_step *st)
{
	struct sl_handoff *h = &sl_mtask(p)->group->handoffs.h[st->arg];

	(void)sim;
	(void)rq;
	sl_mtask(p)->pc++;
	if (h->state == SL_HO_FREE)
		h->state = SL_HO_HELD;
	return STEP_NEXT;
}

/*
 * A hand-off's wait: a wake-up already made is taken as by OP_SEM_DOWN; a waker not yet holding
 * would not have made p block (a lock nobody holds is taken), so p goes on and that wake-up is
 * void; else p sleeps until it
 */
static enum step op_handoff_down(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
				 const struct sl_step *st)
{
	struct sl_group *g = sl_mtask(p)->group;
	struct sl_handoffs *hs = &g->handoffs;
	struct sl_handoff *h = &hs->h[st->arg];
	struct sl_sem *s = &g->sems[h->sem];

	sl_mtask(p)->pc++;
	if (s->count) {
		s->count--;
		hs->given++;
		kept_on(g, st);
		return STEP_NEXT;
	}
	if (h->state == SL_HO_FREE) {
		h->state = SL_HO_VOID;
		hs->released++;
		kept_on(g, st);
		return STEP_NEXT;
	}
	hs->waited++;
	return wait_on(sim, rq, p, &s->q);
}

static enum step op_handoff_up(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			       const struct sl_step *st)
{
	struct sl_handoff *h = &sl_mtask(p)->group->handoffs.h[st->arg];
	struct sl_sem *s = &sl_mtask(p)->group->sems[h->sem];

	sl_mtask(p)->pc++;
	if (h->state == SL_HO_VOID)
		return STEP_NEXT;
	h->state = SL_HO_GIVEN;
	if (s->q.n)
		sl_try_to_wake_up(sim, sl_pop_first(s->q.w, &s->q.n), p, st->arg2 ? WF_SYNC : 0);
	else
		s->count++;
	return syscall_return(sim, rq);
}

static const struct {
	enum step (*fn)(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p,
			const struct sl_step *st);
	bool group; /* works on the group's objects: a task without a group fails the run */
} op_table[] = {
	[OP_RUN] = {.fn = op_run},
	[OP_SLEEP] = {.fn = op_sleep},
	[OP_SLEEP_PERIOD] = {.fn = op_sleep_period},
	[OP_IO] = {.fn = op_io},
	[OP_WAKE] = {.fn = op_wake},
	[OP_WAIT] = {.fn = op_wait},
	[OP_FORK] = {.fn = op_fork},
	[OP_EXEC] = {.fn = op_exec},
	[OP_EXIT] = {.fn = op_exit},
	[OP_WAIT_BELOW] = {.fn = op_wait_below},
	[OP_LOOP] = {.fn = op_loop},
	[OP_YIELD] = {.fn = op_yield},
	[OP_LOCK] = {.fn = op_lock, .group = true},
	[OP_UNLOCK] = {.fn = op_unlock, .group = true},
	[OP_BIO] = {.fn = op_bio},
	[OP_AIO_FILL] = {.fn = op_aio_fill},
	[OP_AIO_WAIT] = {.fn = op_aio_wait},
	[OP_UNTIL] = {.fn = op_until},
	[OP_NOTE] = {.fn = op_note, .group = true},
	[OP_TIMER] = {.fn = op_timer, .group = true},
	[OP_RUNTIME] = {.fn = op_runtime, .group = true},
	[OP_CWAIT] = {.fn = op_cwait, .group = true},
	[OP_CSIGNAL] = {.fn = op_csignal, .group = true},
	[OP_CBROAD] = {.fn = op_cbroad, .group = true},
	[OP_BARRIER] = {.fn = op_barrier, .group = true},
	[OP_AFFINITY] = {.fn = op_affinity},
	[OP_SEM_DOWN] = {.fn = op_sem_down, .group = true},
	[OP_SEM_UP] = {.fn = op_sem_up, .group = true},
	[OP_CREDIT] = {.fn = op_credit},
	[OP_HOLD] = {.fn = op_hold, .group = true},
	[OP_HANDOFF_DOWN] = {.fn = op_handoff_down, .group = true},
	[OP_HANDOFF_UP] = {.fn = op_handoff_up, .group = true},
};
_Static_assert(sizeof(op_table) / sizeof(op_table[0]) == SL_NR_OPS,
	       "op_table: an opcode of enum sl_op has no handler");

/* ---- the driver ---- */

/* a mutex spinner (OWNER_SPIN) goes on while the owner runs and its CPU needs no reschedule */
static enum step spin(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	struct sl_task *owner = sl_mtask(p)->ext->lock_wait->owner;

	if (owner && owner->on_cpu && !rq->need_resched)
		return STEP_STOP; /* keep spinning */
	sl_spinner_to_sleeper(sim, p);
	sl_schedule(sim, rq);
	return STEP_STOP;
}

/* p's burst goes on (`work` is armed for its end), or it is over (false) */
static bool burst_goes_on(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	u64 end = sl_task_runtime_end(p);
	bool wall_done = end && sim->now >= end;

	if (!wall_done && sl_task_progress(sim, p) < sl_mtask(p)->run_target) {
		sl_arm_work(sim, rq, p);
		return true;
	}
	sl_mtask(p)->in_run = false;
	if (sl_mtask(p)->ext)
		sl_mtask(p)->ext->runtime_end = 0;
	return false;
}

static enum step step(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	if (sl_mtask(p)->spinning)
		return spin(sim, rq, p);
	if (sl_mtask(p)->in_run && burst_goes_on(sim, rq, p))
		return STEP_STOP;
	if (++sl_mtask(p)->steps_at_now > MAX_STEPS_PER_INSTANT)
		return fail(sim, "task %s-%d runs steps without using time or blocking", p);
	/*
	 * cond_groups: a waiter woken from its sleep in G1 drops its reference as it runs, first
	 * thing after its futex wait (glibc's __condvar_dec_grefs); the last one wakes a
	 * signaller waiting for the switch, a system call
	 */
	if (sl_mtask(p)->cond_ref) {
		struct sl_cond *c = sl_mtask(p)->cond_ref;

		sl_mtask(p)->cond_ref = NULL;
		if (!--c->refs && c->quiesce.n) {
			wake_waiters(sim, p, &c->quiesce, true);
			return syscall_return(sim, rq);
		}
	}
	if (sl_mtask(p)->pc >= sl_mtask(p)->prog->n) {
		do_exit(sim, rq, p);
		sl_schedule(sim, rq);
		return STEP_STOP;
	}
	const struct sl_step *st = &sl_mtask(p)->prog->steps[sl_mtask(p)->pc];
	/* wake_cold: the cold start runs first, past a mutex's lock or unlock (glibc's) */
	if (sl_mtask(p)->cold_due && st->op != OP_LOCK && st->op != OP_UNLOCK) {
		sl_add_run(sim, p, sl_mtask(p)->cold_due);
		sl_mtask(p)->cold_due = 0;
		return STEP_NEXT;
	}
	/* wake_tail_unlock: a wake-up's tail runs after an unlock that follows it */
	if (sl_mtask(p)->tail_due && st->op != OP_UNLOCK) {
		sl_add_run(sim, p, sl_mtask(p)->tail_due);
		sl_mtask(p)->tail_due = 0;
		return STEP_NEXT;
	}

	/* the synchronisation ops work on the group's objects: a task always has one */
	if (!sl_mtask(p)->group && op_table[st->op].group)
		return fail(sim, "task %s-%d uses a group object without a group", p);
	return op_table[st->op].fn(sim, rq, p, st);
}

void sl_task_continue(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *p)
{
	if (sl_mtask(p)->steps_time != sim->now) {
		sl_mtask(p)->steps_time = sim->now;
		sl_mtask(p)->steps_at_now = 0;
	}
	while (step(sim, rq, p) == STEP_NEXT)
		;
}
