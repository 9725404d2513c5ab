/*
 * The machine's per-task state: struct sl_machine_task around the scheduler's struct sl_task
 * (as struct sl_machine is around struct sl_sim), and struct sl_task_ext for what only some
 * tasks need.
 */
#ifndef SCHEDLAB_MACHINE_MTASK_H
#define SCHEDLAB_MACHINE_MTASK_H

#include <stddef.h>
#include <stdint.h>

#include "sched/sched.h"

/* what a sleeping task waits for (struct sl_machine_task's blocked) */
enum sl_block { BLK_NONE, BLK_TIMER, BLK_IO, BLK_WAIT, BLK_CHILD, BLK_MUTEX, BLK_AIO, BLK_COND };

/*
 * What only some tasks need, in one allocation made when a task first needs any of it
 * (machine.c's sl_task_ext: at fork for a program with a counted loop, a lock or an
 * OP_RUNTIME; by sl_task_io_init; when a peer is set): a task without it has no counters, no
 * requests, no mutex, no peer and no wall-clock burst (sl_task_peer, sl_task_runtime_end).
 */
struct sl_task_ext {
	int *loopcnt; /* by step: the counted loops' counters (NULL: the program has none) */
	/* block I/O (machine/blockdev.h): the request pool and counters of a task given one by
	 * sl_task_io_init (fio's jobs); NULL for every other task, which does no block I/O */
	struct sl_task_io *io;
	struct sl_mutex *lock_wait; /* the mutex spun or slept on */
	struct sl_task *peer;	    /* the other end of its pipe (OP_WAKE wakes it) */
	u64 runtime_end;   /* OP_RUNTIME: the wall-clock end of the current burst, 0 if none */
	u64 switch_credit; /* its next switch-in is charged up to this less (OP_CREDIT) */
	u64 util, util_t; /* machine/vcpu_util.c: its running, decayed as PELT's (vcpu_pack_room) */
};

/*
 * A task as the machine keeps it: the scheduler's struct sl_task (all that sched/ sees) and
 * what only the machine and the layers above read: its program and where it is in it, the run
 * step under way, its sleep timer, why it blocks, cache warmth. Every task lives in a chunk as
 * one of these, so sl_mtask(p) reaches it. Ordered by size, as struct sl_task is.
 */
struct sl_machine_task {
	struct sl_task task;
	u64 frame_due;	/* a periodic task's current frame is due then */
	u64 steps_time; /* the instant steps_at_now counts at */
	const struct sl_prog *prog;
	const char *comm;	/* its program's name (prog->comm, which outlives the task) */
	struct sl_group *group; /* its workload group (NULL: none) */
	u64 run_target;		/* sum_exec_runtime at which the current run ends */
	u64 start_time;
	u64 slept_at;	       /* its last switch-out asleep (wake_preempt_short reads the sleep) */
	u64 switched_in;       /* its last switch-in (wake_preempt_all reads a waker's run) */
	u64 tail_due;	       /* wake_tail_unlock: a wake-up's tail, run at its next step */
	u64 cold_due;	       /* wake_cold: its cold start, run at its next step */
	bool out_asleep;       /* its last switch-out left it asleep (wake_cold) */
	struct sl_timer timer; /* sleep / I/O completion */
	/* wake_enqueue_busy: a wake-up called, its enqueue due at enqueue's expiry (machine.c) */
	struct sl_timer enqueue;
	struct sl_task *enq_waker;
	int enq_cpu, enq_from, enq_prev, enq_flags;
	bool enq_again;
	bool enq_pending; /* between the call and the enqueue (a second wake-up does nothing) */

	/* what only some tasks need (NULL: none of it), see struct sl_task_ext */
	struct sl_task_ext *ext;
	/* cond_groups: the condition whose G1 reference it holds, woken there, until it runs */
	struct sl_cond *cond_ref;

	/* Cache warmth: where it last ran (last_cpu below) and what that CPU's switch count was
	 * then. */
	u64 last_switch_seq;

	int wait_below; /* OP_WAIT_BELOW threshold while blocked on children */
	int iowait_cpu; /* rq whose nr_iowait counts this task */
	int live_children;
	int pc;
	int pending_wakes;
	int last_cpu;
	int sleep_slot; /* 1 + its place in its timer CPU's sleepers (sleep_timers.c); 0: none */
	/* zero-time steps run at steps_time: at most MAX_STEPS_PER_INSTANT + 1 (task_prog.c),
	 * then the run fails */
	u32 steps_at_now;
	uint8_t blocked;   /* enum sl_block */
	bool spinning;	   /* OWNER_SPIN: busy-waiting on a mutex */
	bool cwait_queued; /* cwait_preempt: on a condition's queue, preempted before its sleep */
	bool in_run;
	/* sib_idle_rate: run_target's remaining part is CPU time at the rate of a CPU whose
	 * pair sibling idles (set while it runs so; a new run starts clear) */
	bool sib_slow;
	bool cache_cold;
	bool on_runnable; /* on the machine's list of runnable tasks (vcpu_pack.c) */
};

/* the machine's task whose scheduler part p is (every task is made by the machine) */
static inline struct sl_machine_task *sl_mtask(const struct sl_task *p)
{
	return (struct sl_machine_task *)(void *)((char *)(uintptr_t)p -
						  offsetof(struct sl_machine_task, task));
}

static inline struct sl_task *sl_task_peer(const struct sl_task *p)
{
	return sl_mtask(p)->ext ? sl_mtask(p)->ext->peer : NULL;
}

static inline u64 sl_task_runtime_end(const struct sl_task *p)
{
	return sl_mtask(p)->ext ? sl_mtask(p)->ext->runtime_end : 0;
}

#endif
