/*
 * The synchronisation objects tasks block on: pthread-like mutexes (with 2.6.32's OWNER_SPIN
 * spinners), wait queues for condition variables and barriers, and rt-app's shared timers.
 */
#ifndef SCHEDLAB_SYNC_H
#define SCHEDLAB_SYNC_H

#include "sched/sched.h"

/* A FIFO of tasks sleeping on a condition variable or a barrier. */
struct sl_waitq {
	struct sl_task **w;
	int n, cap;
};

/* rt-app's timer: an absolute expiry shared by the threads that name it. */
struct sl_abstimer {
	u64 next;
	bool init;
};

/*
 * A condition variable: its FIFO of waiters, and with cond_groups glibc's groups (2.25 to
 * 2.40, nptl/pthread_cond_common.c): the first g1 waiters of q are G1, which signals take
 * from; the rest are G2, where new waiters go. refs counts G1's waiters not yet signalled and
 * those a signal woke in their sleep that have not run since (glibc's __g_refs): a signal or
 * broadcast that must make G2 the new G1 first waits, on quiesce, until refs is 0.
 */
struct sl_cond {
	struct sl_waitq q;
	int g1, refs;
	struct sl_waitq quiesce;
};

/*
 * rt-app's barrier (rt-app.c, its "barrier" event): a mutex, a condition (the group's, at the
 * indices the workload gives them) and this counter, users - 1 at the start. Under the mutex, an
 * arrival that finds it 0 broadcasts; any other takes one off and waits on the condition, and
 * puts it back once it holds the mutex again. A woken waiter that has not yet put its one back
 * lets a thread come round again and pass alone: rt-app's race, kept.
 */
struct sl_barrier {
	int waiting;
};

/* A counting semaphore: an up with nobody sleeping is kept for the next down (a pipe's data). */
struct sl_sem {
	u64 count;
	struct sl_waitq q;
};

/*
 * The trace workload's lock hand-offs (docs/workloads.md, "Lock hand-offs"): a wake-up of
 * semaphore `sem`'s task that its waker makes only while it holds. FREE: the waker has not
 * reached its hold; HELD: it has (OP_HOLD); GIVEN: it woke (OP_HANDOFF_UP); VOID: the wakee got
 * there before the hold, went on without blocking, and the wake-up is not made.
 */
enum { SL_HO_FREE, SL_HO_HELD, SL_HO_GIVEN, SL_HO_VOID };

struct sl_handoff {
	int sem;
	int state;
};

struct sl_handoffs {
	struct sl_handoff *h;
	int n;
	/* how the wakees' waits went: released (the waker not yet holding), given (its wake-up
	 * made before), waited (asleep until the waker's wake-up) */
	u64 released, given, waited;
};

struct sl_mutex {
	struct sl_task *owner;
	struct sl_task **waiters; /* FIFO of sleepers */
	int nwait, capw;
	struct sl_task **spinners; /* FIFO of OWNER_SPIN spinners */
	int nspin, capspin;
};

#endif
