/*
 * The one event stream. The simulator emits, through one hook table, the events the kernel's
 * tracepoints would show; every statistic subscribes to it, so a printed figure and an exported
 * trace cannot disagree. Fields are plain ids (pids, CPU numbers), never pointers, so that a
 * trace reader can produce the very same values from a real capture.
 */
#ifndef SCHEDLAB_EVENT_H
#define SCHEDLAB_EVENT_H

#include <schedlab/types.h>

enum sl_event_type {
	SL_EV_SWITCH,	  /* sched_switch: pid -> next_pid on cpu; prev_state */
	SL_EV_WAKEUP,	  /* sched_wakeup: pid woken onto target cpu */
	SL_EV_WAKEUP_NEW, /* sched_wakeup_new: a forked child onto cpu */
	SL_EV_FORK,	  /* sched_process_fork: pid (parent) forks next_pid (child) */
	SL_EV_EXEC,	  /* sched_process_exec */
	SL_EV_EXIT,	  /* sched_process_exit */
	SL_EV_MIGRATE,	  /* sched_migrate_task: pid, orig_cpu -> cpu */
	SL_EV_IDLE,	  /* cpu_idle: state (-1 = exit) */
	SL_EV_WAKE_DELAY, /* a wake-up on cpu waited `latency` for the CPU to leave its C-state */
	SL_EV_WAKING,	  /* sched_waking alone: a wake-up whose enqueue comes later (its
			   * SL_EV_WAKEUP then has latency, the time since, and no sched_waking) */
	SL_EV_NR_TYPES
};

/* What ran a wake-up (sched_wakeup's `reason`): the waker's context, as a trace shows it. */
enum sl_wake_src { SL_WAKE_SRC_TASK, SL_WAKE_SRC_TIMER, SL_WAKE_SRC_IRQ };

/* Why a task's CPU changed (sched_migrate_task's `reason`): inside a wake-up (the kernel's
 * try_to_wake_up, where sched_waking comes first, then sched_migrate_task, then sched_wakeup),
 * or anything else (a balance, a fork, an affinity change). */
enum sl_migrate_reason { SL_MIGRATE_OTHER, SL_MIGRATE_WAKE };

/* prev_state of a switch, as sched_switch prints it. */
enum sl_task_state_char { SL_PREV_R = 'R', SL_PREV_S = 'S', SL_PREV_D = 'D', SL_PREV_X = 'X' };

struct sl_event {
	enum sl_event_type type;
	u64 time;
	int cpu;
	int pid;      /* the subject task (prev for a switch; 0 = idle) */
	int next_pid; /* switch: next; fork: child */
	int group;    /* workload group of pid, -1 if unknown (real traces) */
	int next_group;
	char prev_state;
	int orig_cpu;  /* migrate; wakeup: the CPU the wake-up ran on (-1: unknown) */
	int state;     /* idle: C-state index, -1 on exit */
	u64 latency;   /* idle exit: the exit latency the wake-up pays; wakeup: since its
			* SL_EV_WAKING (0: none, the sched_waking is this event's) */
	int reason;    /* idle exit: enum sl_wake_reason; wakeup: enum sl_wake_src; migrate:
			* enum sl_migrate_reason */
	u64 predicted; /* idle exit: what the governor expected (0: no prediction) */
	u64 measured;  /* idle exit: the residency */
};

typedef void (*sl_event_fn)(void *ctx, const struct sl_event *ev);

#endif
