/*
 * Task programs: what a simulated task does, as a list of steps (burn CPU, sleep, wait, fork,
 * do I/O, ...). Workloads are data: each workload builds programs, the machine interprets them
 * (machine.c), the scheduler never sees them.
 */
#ifndef SCHEDLAB_PROG_H
#define SCHEDLAB_PROG_H

#include <schedlab/types.h>

#include "core/rng.h"

enum sl_op {
	OP_RUN,		 /* burn CPU time d */
	OP_SLEEP,	 /* interruptible sleep for d (a timer on this CPU) */
	OP_SLEEP_PERIOD, /* sleep until the next multiple of d since the task started */
	OP_IO,		 /* uninterruptible wait on the fixed-latency device, d */
	OP_WAKE,	 /* wake the peer (a pipe write); arg = sync hint */
	OP_WAIT,	 /* wait to be woken (a pipe read); consumes one pending wake-up */
	OP_FORK,	 /* fork a child running `child` */
	OP_EXEC,	 /* exec: the address space (and the cache warmth) is new */
	OP_EXIT,
	OP_WAIT_BELOW, /* wait(2) for children while live children >= arg */
	OP_LOOP,       /* jump to step arg, arg2 times in all (0: forever) */
	OP_YIELD,      /* sched_yield() */
	OP_LOCK,       /* lock mutex arg of the group (arg2 1: a futex, below) */
	OP_UNLOCK,
	OP_BIO,	     /* synchronous direct I/O of d bytes to the task's disk (arg2: SL_BIO_*) */
	OP_AIO_FILL, /* libaio: submit until arg requests are in flight */
	OP_AIO_WAIT, /* libaio: io_getevents(min 1): reap completions, or sleep for one */
	OP_UNTIL,    /* exit once d has passed since the task started (fio runtime=) */
	/* rt-app's events (src/workload/rtapp.c) */
	OP_NOTE,     /* call the group's note hook: a workload's bookkeeping, no time passes */
	OP_TIMER,    /* sleep until group timer arg's next expiry (next += d); arg2: relative */
	OP_RUNTIME,  /* burn CPU until d of wall-clock time has passed */
	OP_CWAIT,    /* release group mutex arg2 (if >= 0) and wait on group condition arg */
	OP_CSIGNAL,  /* wake the first waiter of condition arg (none: the signal is lost) */
	OP_CBROAD,   /* wake every waiter of condition arg */
	OP_BARRIER,  /* group barrier arg's counter; arg2: the step's part (enum sl_barrier_step) */
	OP_AFFINITY, /* sched_setaffinity(mask d.a; 0: every CPU): leaves a CPU no longer allowed */
	OP_SEM_DOWN, /* take group semaphore arg, or sleep on it until an OP_SEM_UP (trace.c) */
	OP_SEM_UP,   /* wake semaphore arg's first sleeper (arg2: WF_SYNC hint), else count it */
	OP_CREDIT,   /* the task's next switch-in is charged up to d less (switch_credit_ns) */
	OP_HOLD,     /* group hand-off arg: its waker holds from here (trace.c) */
	OP_HANDOFF_DOWN, /* hand-off arg's wait: as OP_SEM_DOWN, but none before its OP_HOLD */
	OP_HANDOFF_UP,	 /* hand-off arg's wake-up (arg2: WF_SYNC), unless its wait went by */
	SL_NR_OPS,	 /* not an opcode: their number (src/machine/task_prog.c's table) */
};

/*
 * OP_BARRIER's arg2. rt-app's barrier is eight steps (src/workload/rtapp.c): 0 lock its mutex,
 * 1 ARRIVE, 2 broadcast its condition, 3 SKIP, 4 wait on the condition (releasing the mutex),
 * 5 lock the mutex again, 6 BACK, 7 unlock. ARRIVE goes to 2 when the counter is 0 (the last
 * to arrive), else takes one off and goes to 4; SKIP takes the last from 3 to 7; BACK puts the
 * waiter's one back. The distances are the layout's.
 */
enum sl_barrier_step {
	SL_BAR_ARRIVE,
	SL_BAR_SKIP,
	SL_BAR_BACK,
};
#define SL_BAR_TO_WAIT	 3 /* ARRIVE -> the wait: steps forward */
#define SL_BAR_TO_UNLOCK 4 /* SKIP -> the unlock */

struct sl_prog;
struct sl_step {
	enum sl_op op;
	struct sl_dist d;
	int arg, arg2;
	const struct sl_prog *child;
};

struct sl_prog {
	char comm[16];
	int nice;
	int policy;
	int rt_priority;   /* 1..99 for SL_SCHED_FIFO / SL_SCHED_RR, else 0 */
	u64 sched_runtime; /* sched_setattr: 6.18's custom slice (0: the base slice) */
	u64 cpus_allowed;  /* the tasks' affinity: bit c allows CPU c; 0: every CPU */
	int uid;	   /* > 0: the tasks' user id instead of the group's; 0: the group's */
	bool uid_root;	   /* the tasks run as root (uid 0) whatever the group's */
	/*
	 * The cost of a recorded switch-in that the burst after it was too short to give back
	 * (the trace workload, docs/workloads.md "Costs counted once"): the task's first
	 * switch-in is charged up to this much less; OP_CREDIT sets it for a later one (0: none).
	 */
	u64 switch_credit_ns;
	int n, cap;
	struct sl_step *steps;
};

#endif
