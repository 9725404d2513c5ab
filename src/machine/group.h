/*
 * A workload group: the tasks one workload instance created, its programs, its synchronisation
 * objects and its figures. The configuration layer creates one per --workload and arms its start.
 */
#ifndef SCHEDLAB_GROUP_H
#define SCHEDLAB_GROUP_H

#include "core/hist.h"
#include "machine/sync.h"

struct sl_workload_inst;
struct sl_step;

struct sl_group {
	int id;
	char name[32];
	char spec[256];
	bool finite;
	int uid;	/* its tasks' user (a program may name another: sl_prog.uid) */
	int ntasks;	/* tasks ever created in the group */
	int live;	/* not yet exited */
	u64 start, end; /* completion time when finite */
	struct sl_mutex *mutexes;
	int nmutex;
	struct sl_prog **progs; /* owned */
	int nprogs;
	const struct sl_workload_inst *wl;
	struct sl_timer start_timer;
	bool spawned;
	/* block I/O of the group's tasks */
	bool io;
	u64 io_bytes, io_ops;
	struct sl_hist *clat;
	/* periodic tasks' frames */
	u64 frames, frames_late, late_sum, late_max;
	/* rt-app's synchronisation objects (owned) */
	struct sl_cond *conds;
	int nconds;
	struct sl_abstimer *timers;
	int ntimers;
	struct sl_barrier *barriers;
	int nbarriers;
	struct sl_sem *sems; /* the trace workload's wake-up dependencies (owned) */
	int nsems;
	struct sl_handoffs handoffs; /* and its lock hand-offs (h owned) */
	/*
	 * its tasks' sched_yield()s (OP_YIELD), and those after which the yielder ran on (its
	 * CPU had nothing else to run: no switch), with the steps' d summed over these: a trace
	 * workload's yield carries the recorded switch cost its next burst gave back, which the
	 * switch-in that did not happen would have charged again (trace.c)
	 */
	u64 yields, yields_kept, yields_kept_ns;
	/* likewise its semaphore and hand-off waits that did not block (OP_SEM_DOWN,
	 * OP_HANDOFF_DOWN: the wake-up made before, or the lock free) */
	u64 waits_kept, waits_kept_ns;
	/* switch-ins of its tasks and the switch costs charged at them, credits taken off
	 * (switch_in_cost, machine.c): what a trace workload's schedule adds is this less
	 * what its bursts gave back (trace.c) */
	u64 switch_ins, switch_cost_ns;
	/* tasks asleep on the group's mutexes, conditions, barriers and semaphores: only
	 * the group's own tasks can wake them, so all of its live tasks asleep there is a
	 * deadlock; deadlock() (NULL: not checked) then reports it in sim->error and stops the
	 * run, with `cycle` the task that closed a cycle of mutex waits (NULL: every task asleep)
	 */
	int sync_blocked;
	void (*deadlock)(struct sl_sim *sim, struct sl_group *g, const struct sl_task *cycle);
	/* a workload's per-run state: OP_NOTE calls note(); finish() runs after the run (its
	 * failure fails the run), state_free() when the simulation is freed */
	void *state;
	void (*note)(struct sl_sim *sim, struct sl_task *p, const struct sl_step *st);
	int (*finish)(struct sl_sim *sim, struct sl_group *g);
	void (*state_free)(void *state);
};

#endif
