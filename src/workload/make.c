/*
 * make: a build. The parent (make) does a little work per target, keeps at most `jobs` children
 * alive (wait(2) when it has that many), and forks each job; a job execs the compiler, reads its
 * source (a small uninterruptible I/O), compiles (a CPU burst) and exits. fork() and exit()
 * cost the fork/exit parameters, exec the exec parameter plus a cold cache.
 */
#include "workload/workload.h"

struct make_args {
	long jobs, count, nice;
	struct sl_dist burst, io, parent, as;
	long pipe;
};

#define A struct make_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("jobs", A, jobs, 1, 100000, "4", "parallel jobs (make -jN)"),
	SL_WL_KEY_INT("count", A, count, 1, 10000000, "100", "compile jobs in the build"),
	SL_WL_KEY_INT("nice", A, nice, -20, 19, "0",
		      "nice value of make and its jobs (nice -n 19 make)"),
	SL_WL_KEY_DIST("burst", A, burst, "uniform:10ms:50ms", "CPU time of one compile"),
	SL_WL_KEY_DIST("io", A, io, "100us", "the job's uninterruptible read of its source"),
	SL_WL_KEY_DIST("parent", A, parent, "200us",
		       "make's own CPU time per target (dependency checks)"),
	SL_WL_KEY_INT(
		"pipe", A, pipe, 0, 1000, "0",
		"gcc -pipe: cc1 forks an assembler and writes its output in N chunks (0: no)"),
	SL_WL_KEY_DIST("as", A, as, "1ms", "the assembler's CPU time per chunk"),
};
#undef A

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct make_args *a = args;
	struct sl_prog *job = sl_prog_new(sim, g, "cc1", (int)a->nice, SL_SCHED_NORMAL);
	struct sl_prog *mk = sl_prog_new(sim, g, "make", (int)a->nice, SL_SCHED_NORMAL);
	struct sl_dist z = sl_dist_fixed(0);

	if (!job || !mk)
		return -1;
	if (sl_prog_run(sim, job, sl_dist_fixed(sl_machine_of(sim)->p->exec_ns)) ||
	    sl_prog_add(sim, job, OP_EXEC, z, 0, 0, NULL) ||
	    sl_prog_add(sim, job, OP_IO, a->io, 0, 0, NULL))
		return -1;
	if (a->pipe) {
		/* cc1 | as: cc1 forks the assembler with a pipe, then compiles in `pipe` chunks,
		 * writing each (a sync wake-up); as execs, reads and assembles each chunk */
		struct sl_prog *as = sl_prog_new(sim, g, "as", (int)a->nice, SL_SCHED_NORMAL);
		struct sl_dist chunk = a->burst;

		if (!as)
			return -1;
		chunk.a /= (u64)a->pipe;
		chunk.b /= chunk.kind == SL_DIST_UNIFORM || chunk.kind == SL_DIST_NORMAL
				   ? (u64)a->pipe
				   : 1;
		if (sl_prog_run(sim, as, sl_dist_fixed(sl_machine_of(sim)->p->exec_ns)) ||
		    sl_prog_add(sim, as, OP_EXEC, z, 0, 0, NULL) ||
		    sl_prog_add(sim, as, OP_WAIT, z, 0, 0, NULL) || sl_prog_run(sim, as, a->as) ||
		    sl_prog_add(sim, as, OP_LOOP, z, 2, (int)a->pipe, NULL) ||
		    sl_prog_exit(sim, as))
			return -1;
		int loop_at = job->n + 2; /* after the fork's two steps */

		if (sl_prog_run(sim, job, sl_dist_fixed(sl_machine_of(sim)->p->fork_ns)) ||
		    sl_prog_add(sim, job, OP_FORK, z, 1, 0, as) || sl_prog_run(sim, job, chunk) ||
		    sl_prog_add(sim, job, OP_WAKE, z, 1, 0, NULL) ||
		    sl_prog_add(sim, job, OP_LOOP, z, loop_at, (int)a->pipe, NULL) ||
		    sl_prog_add(sim, job, OP_WAIT_BELOW, z, 1, 0, NULL))
			return -1;
	} else if (sl_prog_run(sim, job, a->burst)) {
		return -1;
	}
	if (sl_prog_exit(sim, job))
		return -1;
	/* 0: run; 1: wait while jobs children live; 2-3: fork; 4: loop; 5: wait for all */
	if (sl_prog_run(sim, mk, a->parent) ||
	    sl_prog_add(sim, mk, OP_WAIT_BELOW, z, (int)a->jobs, 0, NULL) ||
	    sl_prog_fork(sim, mk, job) ||
	    sl_prog_add(sim, mk, OP_LOOP, z, 0, (int)a->count, NULL) ||
	    sl_prog_add(sim, mk, OP_WAIT_BELOW, z, 1, 0, NULL) || sl_prog_exit(sim, mk))
		return -1;
	return sl_spawn(sim, g, mk) ? 0 : -1;
}

/* every task it creates over the run (make, and each compile job (with its assembler under pipe),
 * bounded by count + 1 forks): checked against SL_MAX_TASKS first */
static u64 max_tasks(const void *args)
{
	const struct make_args *a = args;

	return 1 + ((u64)a->count + 1) * (a->pipe ? 2 : 1);
}

const struct sl_workload_ops sl_wl_make = {
	.name = "make",
	.help = "a parallel build: make forks up to J jobs that exec, read, compile and exit",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct make_args),
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = sl_wl_always_finite,
};
