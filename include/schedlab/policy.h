/*
 * The public scheduling-policy API of schedlab: a policy written in one C file, built as a shared
 * object with nothing but this header (cc -shared -fPIC -I include -o p.so p.c) and run with
 * `schedlab run --policy ./p.so ...` wherever --kernel is taken. docs/policy-api.md is the guide.
 *
 * The policy is the machine's fair class (under the RT class, as every release's is): the machine
 * calls its callbacks, in the kernel's vocabulary, at the same points it calls an in-tree class,
 * and the policy answers through the host's functions (struct schedlab_host), never through the
 * machine's own structures: tasks are opaque handles, CPUs are numbers 0..nr_cpus-1. So the .so
 * needs no symbol of the executable and the machine's structures may change under it.
 *
 * The ABI rule: SCHEDLAB_POLICY_ABI changes whenever a struct here changes in a way an old .so
 * would misread (a member added, removed or moved, a callback's meaning changed); the loader
 * refuses a .so built for another number. `abi` stays the first member of struct
 * schedlab_policy and of struct schedlab_host forever, so that the check itself can be read.
 */
#ifndef SCHEDLAB_POLICY_H
#define SCHEDLAB_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCHEDLAB_POLICY_ABI 1

/* the symbol the loader looks up (a function, see the end of this file) */
#define SCHEDLAB_POLICY_ENTRY "schedlab_policy_register"

/* the most features and sysctls one policy may declare */
#define SCHEDLAB_POLICY_MAX_FEATURES 8
#define SCHEDLAB_POLICY_MAX_SYSCTLS  8

/* one simulated machine (the policy's callbacks receive it and hand it back to the host) */
struct schedlab_sched;
/* one task of the policy */
struct schedlab_task;

/* enqueue's flags */
#define SCHEDLAB_ENQ_WAKEUP  0x1 /* the task woke up (try_to_wake_up) */
#define SCHEDLAB_ENQ_NEW     0x2 /* its first enqueue, after fork (wake_up_new_task) */
#define SCHEDLAB_ENQ_MIGRATE 0x4 /* host->migrate moves it here from another CPU */

/* dequeue's flags */
#define SCHEDLAB_DEQ_SLEEP   0x1 /* it blocks or exits */
#define SCHEDLAB_DEQ_MIGRATE 0x4 /* host->migrate moves it to another CPU */
#define SCHEDLAB_DEQ_RUNNING 0x8 /* it is the CPU's running task: not in the policy's queue */

/* select_cpu's reason */
#define SCHEDLAB_SELECT_WAKE 0x1 /* SD_BALANCE_WAKE: a wake-up */
#define SCHEDLAB_SELECT_FORK 0x2 /* SD_BALANCE_FORK: a new task */

/* balance's reason */
#define SCHEDLAB_BALANCE_TICK 1 /* the CPU's periodic tick (trigger_load_balance) */
#define SCHEDLAB_BALANCE_IDLE 2 /* the CPU has nothing to run (the newidle balance) */

/* a task's scheduling policy (SCHED_*) as the workload set it */
#define SCHEDLAB_POLICY_NORMAL 0
#define SCHEDLAB_POLICY_BATCH  1
#define SCHEDLAB_POLICY_IDLE   2

/* A feature of the policy's own, written with --sched-features NAME / NO_NAME. */
struct schedlab_feature {
	const char *name; /* upper case, letters, digits and '_' */
	bool def;	  /* on at boot */
	const char *help;
};

/* A tunable of the policy's own, written with --sysctl NAME=VALUE (a decimal integer). */
struct schedlab_sysctl {
	const char *name; /* letters, digits, '_' and '.' */
	int64_t def, min, max;
	const char *unit; /* "ns", "percent", ... (documentation) */
	const char *help;
};

/*
 * What the machine offers the policy. Every function takes the machine handle its callback was
 * given; none may be called outside a callback. A task handle stays valid for the whole run.
 */
struct schedlab_host {
	unsigned abi; /* SCHEDLAB_POLICY_ABI of the schedlab that loads the policy */

	/* ---- the machine ---- */
	int (*nr_cpus)(struct schedlab_sched *s);
	uint64_t (*now)(struct schedlab_sched *s);     /* the simulated clock, ns */
	uint64_t (*tick_ns)(struct schedlab_sched *s); /* the period of the tick, ns (1/HZ) */
	/* the policy's feature i (its index in .features) and sysctl i, as --sched-features,
	 * --sysctl and --at set them now */
	bool (*feature)(struct schedlab_sched *s, int i);
	int64_t (*sysctl)(struct schedlab_sched *s, int i);
	/* the policy's areas, zeroed at start: machine-wide (.global_size), per CPU (.cpu_size),
	 * per task (.task_size) */
	void *(*global)(struct schedlab_sched *s);
	void *(*cpu_data)(struct schedlab_sched *s, int cpu);
	void *(*task_data)(struct schedlab_sched *s, struct schedlab_task *t);

	/* ---- a CPU ---- */
	/* its running task (NULL: idle, or a task of a higher class, RT, runs) */
	struct schedlab_task *(*cpu_curr)(struct schedlab_sched *s, int cpu);
	/* idle: nothing runs and no reschedule is pending */
	bool (*cpu_idle)(struct schedlab_sched *s, int cpu);
	/* the runnable tasks whose CPU is cpu, the running one included: the policy's and the
	 * RT class's above it */
	unsigned (*cpu_nr_running)(struct schedlab_sched *s, int cpu);
	/* the cache the CPU shares: CPUs of one socket share the last level */
	int (*cpu_socket)(struct schedlab_sched *s, int cpu);
	/* resched_curr: cpu schedules (picks again) soon; an idle one wakes up */
	void (*resched_cpu)(struct schedlab_sched *s, int cpu);

	/* ---- a task ---- */
	int (*task_pid)(struct schedlab_sched *s, struct schedlab_task *t);
	int (*task_nice)(struct schedlab_sched *s, struct schedlab_task *t);
	/* the kernel's sched_prio_to_weight[nice + 20]: 1024 at nice 0, 335 at nice 5 */
	uint64_t (*task_weight)(struct schedlab_sched *s, struct schedlab_task *t);
	int (*task_policy)(struct schedlab_sched *s,
			   struct schedlab_task *t); /* SCHEDLAB_POLICY_ */
	/* the CPU it is queued on or runs on (task_cpu) */
	int (*task_cpu)(struct schedlab_sched *s, struct schedlab_task *t);
	bool (*task_allowed)(struct schedlab_sched *s, struct schedlab_task *t, int cpu);
	bool (*task_running)(struct schedlab_sched *s, struct schedlab_task *t);
	/* its total CPU time so far, ns (sum_exec_runtime) */
	uint64_t (*task_runtime)(struct schedlab_sched *s, struct schedlab_task *t);

	/*
	 * Move a queued, not running task t to cpu (for .balance): the policy's dequeue on t's CPU
	 * (SCHEDLAB_DEQ_MIGRATE), the task's CPU changes, its enqueue on cpu
	 * (SCHEDLAB_ENQ_MIGRATE), then check_preempt there. Returns 0, or -1 (nothing done) if t
	 * runs, is not queued, or may not run on cpu.
	 */
	int (*migrate)(struct schedlab_sched *s, struct schedlab_task *t, int cpu);
};

/*
 * A policy. NULL callbacks marked optional have the default said; the others are required (the
 * loader refuses a policy without them). The machine calls everything from one thread, in an
 * order fixed by the simulation: a policy that keeps its state in its areas and draws nothing
 * from outside is as deterministic as the in-tree ones.
 */
struct schedlab_policy {
	unsigned abi; /* SCHEDLAB_POLICY_ABI it was built with */
	/* its name (as --kernel and the reports show it): letters, digits, '-', '_', '.' */
	const char *name;
	const char *description; /* one line */

	size_t task_size, cpu_size, global_size; /* the areas' sizes, bytes (0: none) */
	const struct schedlab_feature *features;
	int nr_features;
	const struct schedlab_sysctl *sysctls;
	int nr_sysctls;

	/* optional: after the machine is built, the areas zeroed; nonzero refuses the machine:
	 * the run fails at its start, naming the policy and the number of CPUs */
	int (*init)(struct schedlab_sched *s);
	/* optional: a new task t (its area zeroed), forked by parent (NULL: started by the
	 * workload's shell), before select_cpu places it */
	void (*task_fork)(struct schedlab_sched *s, struct schedlab_task *t,
			  struct schedlab_task *parent);
	/* t becomes runnable on cpu: into the policy's queue */
	void (*enqueue)(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned flags);
	/* t stops being runnable on cpu: out of the queue (unless SCHEDLAB_DEQ_RUNNING) */
	void (*dequeue)(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned flags);
	/*
	 * The task cpu runs next, taken out of the policy's queue; NULL: none (the CPU idles). A
	 * task queued on another CPU may be returned (a global queue): the host moves it to cpu.
	 */
	struct schedlab_task *(*pick_next)(struct schedlab_sched *s, int cpu);
	/* t stops running on cpu; still runnable: back into the queue */
	void (*put_prev)(struct schedlab_sched *s, int cpu, struct schedlab_task *t, bool runnable);
	/* optional: t, running on cpu, ran delta_ns more (update_curr; the host has already added
	 * it to task_runtime). Called before every other callback that concerns the running task
	 * (tick, put_prev, dequeue, yield, fork, check_preempt), so its charge is up to date. */
	void (*update_curr)(struct schedlab_sched *s, int cpu, struct schedlab_task *t,
			    uint64_t delta_ns);
	/* optional: the periodic tick of cpu while t runs; resched_cpu(cpu) preempts t */
	void (*task_tick)(struct schedlab_sched *s, int cpu, struct schedlab_task *t);
	/* optional: the CPU a waking (SCHEDLAB_SELECT_WAKE) or new (SCHEDLAB_SELECT_FORK) task goes
	 * to; this_cpu runs the wake-up or the fork (-1: an interrupt). Default: a wake-up stays on
	 * task_cpu, a new task goes to this_cpu. A CPU t may not run on is replaced by an allowed
	 * one. */
	int (*select_cpu)(struct schedlab_sched *s, struct schedlab_task *t, int this_cpu,
			  unsigned reason);
	/* optional: t, just woken or forked onto cpu, against curr running there: true preempts
	 * curr (the host reschedules cpu). Not called for an idle cpu (the host wakes it). Default:
	 * never (curr runs until the tick or it blocks). */
	bool (*check_preempt)(struct schedlab_sched *s, int cpu, struct schedlab_task *curr,
			      struct schedlab_task *t);
	/* optional: sched_yield() by t running on cpu (the host reschedules cpu after it) */
	void (*yield)(struct schedlab_sched *s, int cpu, struct schedlab_task *t);
	/* optional: load balancing on cpu (SCHEDLAB_BALANCE_*), with host->migrate */
	void (*balance)(struct schedlab_sched *s, int cpu, int reason);
};

/*
 * The entry point every policy .so defines: given the host's table (keep the pointer: it lives as
 * long as the process), return the policy (static storage), or NULL to refuse.
 */
#ifdef __cplusplus
extern "C" { /* a policy written in C++ exports the entry point unmangled */
#endif
typedef const struct schedlab_policy *(*schedlab_policy_register_fn)(
	const struct schedlab_host *host);
const struct schedlab_policy *schedlab_policy_register(const struct schedlab_host *host);

#ifdef __cplusplus
}
#endif

#endif
