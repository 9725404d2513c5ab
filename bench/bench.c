/*
 * schedlab-bench: the simulator's speed, as a suite of runs and a scaling table, each figure
 * also as a ratio to a bare heap's pop+push timed on the same machine in the same run (the floor
 * of any discrete-event loop: one event is at least one pop and one push of the timer queue).
 *
 *   build/schedlab-bench [--repeat N] [--quick] [--json] [--only NAME]
 *
 * Every row is simulated --repeat times (default 3), each time in a child process (so its peak
 * RSS is its own); the median CPU time is reported (building the machine and the run; the cores
 * are shared with other users, so CPU time, not wall time, and the median resists their cache
 * and frequency effects). "wall" below is that CPU time. Columns: events, simulated time, ns per
 * event, wall time per simulated second, the ns/event as a multiple of the heap floor, peak RSS,
 * and RSS per task created.
 * --quick leaves out the largest scaling rows (4096 CPUs, 100k tasks). The scaling rows' marginal
 * cost (the CPU time of the longer run less the shorter one's, over its extra events) is then
 * compared pair by pair, each case's large row over its small one's (the table "scaling").
 *
 * --sweep [--runs N]: simulations per second of the 32768-scheduler sweep of the README's
 * 1-second desktop workload (`--features all`, make -j20 under nice 19, an xmodmap-like client,
 * pingpong, video), in one process: N runs (default 2048) spread evenly over the 32768, each
 * simulated and formatted as its row, and the time the whole sweep would take on 1 and 2 cores.
 */
#include "config/config.h"
#include "core/timerq.h"
#include "experiment/run.h"
#include "experiment/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SCHEDLAB_SOURCE_DIR
#define SCHEDLAB_SOURCE_DIR "."
#endif

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

/* CPU time of this process: what the figures use, since other users share the cores */
static u64 cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 median(u64 *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* ---- the floor: a bare heap of 64 timers, pop the first and push it back ---- */

static void noop_fn(struct sl_sim *sim, struct sl_timer *t)
{
	(void)sim;
	(void)t;
}

static double heap_floor_once(void)
{
	enum { NT = 64, OPS = 4000000 };
	static struct sl_timer t[NT];
	struct sl_timerq q;
	u64 x = 88172645463325252ULL, now = 0, t0, t1;

	if (sl_timerq_init(&q))
		return 0;
	for (int i = 0; i < NT; i++) {
		sl_timer_init(&t[i], noop_fn, 0);
		sl_timerq_arm(&q, &t[i], (u64)i * 1000);
	}
	t0 = cpu_ns();
	for (int i = 0; i < OPS; i++) {
		struct sl_timer *e = sl_timerq_pop(&q);

		now = e->expires;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		sl_timerq_arm(&q, e, now + 1 + x % 100000);
	}
	t1 = cpu_ns();
	sl_timerq_free(&q);
	return (double)(t1 - t0) / OPS;
}

static double heap_floor(int repeat)
{
	u64 v[1000];

	for (int i = 0; i < repeat; i++)
		v[i] = (u64)(heap_floor_once() * 1000);
	return (double)median(v, repeat) / 1000;
}

/* ---- one suite row ---- */

struct row {
	const char *name;
	const char *kernel, *cpus, *topology, *duration, *machine;
	const char *wl[4];
	int big;	  /* left out by --quick */
	const char *dur2; /* scaling rows: also run this long (4x); the marginal cost is the
			     difference */
};

struct result {
	u64 events, sim_ns, wall_ns, tasks;
	long rss_kb;
	int ok;
};

/* One run in a child: its own peak RSS (ru_maxrss of the child, from wait4). */
static int run_child(const struct row *rw, const char *dur, struct result *res, char *err,
		     size_t errlen)
{
	int fd[2];
	pid_t pid;

	memset(res, 0, sizeof(*res));
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct sl_args a;
		struct sl_config cfg;
		struct sl_run r;
		struct result out;
		char e[2048];

		close(fd[0]);
		memset(&a, 0, sizeof(a));
		memset(&out, 0, sizeof(out));
		a.kernel = rw->kernel;
		a.cpus = rw->cpus;
		a.topology = rw->topology;
		a.duration = dur;
		a.machine = rw->machine;
		for (int i = 0; i < 4 && rw->wl[i]; i++)
			a.workloads[a.nworkloads++] = rw->wl[i];
		u64 t0 = cpu_ns();

		if (sl_config_build(&cfg, &a, e, sizeof(e)) || sl_run(&cfg, &r, e, sizeof(e))) {
			if (write(fd[1], e, strlen(e) + 1) < 0)
				_exit(3);
			_exit(2);
		}
		out.events = r.sim->nr_events;
		out.sim_ns = r.sim->now;
		out.wall_ns = cpu_ns() - t0; /* building the machine included */
		out.tasks = (u64)sl_machine_of(r.sim)->ntasks;
		out.ok = 1;
		if (write(fd[1], &out, sizeof(out)) != (ssize_t)sizeof(out))
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	char buf[2048 + sizeof(*res)];
	ssize_t got = 0, k;

	while ((k = read(fd[0], buf + got, sizeof(buf) - (size_t)got)) > 0)
		got += k;
	close(fd[0]);
	int st;
	struct rusage ru;

	if (wait4(pid, &st, 0, &ru) < 0)
		return -1;
	if (!WIFEXITED(st) || WEXITSTATUS(st) || got != (ssize_t)sizeof(*res)) {
		snprintf(err, errlen, "%s: %.*s", rw->name, (int)(got > 0 ? got : 0), buf);
		return -1;
	}
	memcpy(res, buf, sizeof(*res));
	res->rss_kb = ru.ru_maxrss;
	return 0;
}

#define RTAPP_FILE SCHEDLAB_SOURCE_DIR "/tests/data/rtapp/affinity.json"

/* ROW(name, kernel, cpus, topology, duration, idle profile, big, workloads...) */
#define ROW(n, k, c, t, d, m, big, ...)                                                            \
	{                                                                                          \
		n, k, c, t, d, m, {__VA_ARGS__}, big, NULL                                         \
	}
/* a scaling row: also simulated for d2 (four times d) */
#define SROW(n, k, c, t, d, d2, m, big, ...)                                                       \
	{                                                                                          \
		n, k, c, t, d, m, {__VA_ARGS__}, big, d2                                           \
	}

static const struct row rows[] = {
	/* the suite */
	ROW("make64-2.6.31", "2.6.31", NULL, "4x8x2", "30s", NULL, 0, "make:jobs=128,count=900000"),
	ROW("make64-6.18", "6.18", NULL, "4x8x2", "30s", NULL, 0, "make:jobs=128,count=900000"),
	ROW("desktop-2.6.31", "2.6.31", "2", NULL, "10s", NULL, 0,
	    "make:jobs=8,nice=19,count=100000", "pingpong:count=1000000"),
	ROW("desktop-6.18", "6.18", "2", NULL, "10s", NULL, 0, "make:jobs=8,nice=19,count=100000",
	    "pingpong:count=1000000"),
	ROW("fio-12disk", NULL, NULL, "2x4x2", "10s", "nehalem", 0, "fio:disks=12"),
	ROW("rtapp-affinity", NULL, "4", NULL, "60s", NULL, 0, "rt-app:file=" RTAPP_FILE),
	/*
	 * Scaling (issue 32): each case at 64 and at 4096 CPUs, or at 1k and 100k tasks, for every
	 * release; `pairs` below names the two rows of each case. Durations: long enough that
	 * the longer run's extra three quarters hold a million events or more at 4096 CPUs, so
	 * that their CPU time is not lost in the build's.
	 *
	 * With CPUs, the bench mix: N/2 pingpong pairs (wake-ups across CPUs) and N/4 hogs; on one
	 * flat socket (--cpus) and on sockets (4x8x2 against 64x32x2).
	 */
	SROW("cpus-2-6.18", "6.18", "2", NULL, "2s", "8s", NULL, 0,
	     "pingpong:pairs=1,count=100000000,run=100us", "hog:tasks=1"),
	SROW("cpus-64-6.18", "6.18", "64", NULL, "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-512-6.18", "6.18", "512", NULL, "25ms", "100ms", NULL, 0,
	     "pingpong:pairs=256,count=100000000,run=100us", "hog:tasks=128"),
	SROW("cpus-4096-6.18", "6.18", "4096", NULL, "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	SROW("cpus-64-sock-6.18", "6.18", NULL, "4x8x2", "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-4096-sock-6.18", "6.18", NULL, "64x32x2", "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	SROW("cpus-2-2.6.32", "2.6.32", "2", NULL, "2s", "8s", NULL, 0,
	     "pingpong:pairs=1,count=100000000,run=100us", "hog:tasks=1"),
	SROW("cpus-64-2.6.32", "2.6.32", NULL, "4x8x2", "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-512-2.6.32", "2.6.32", NULL, "16x16x2", "25ms", "100ms", NULL, 0,
	     "pingpong:pairs=256,count=100000000,run=100us", "hog:tasks=128"),
	SROW("cpus-4096-2.6.32", "2.6.32", NULL, "64x32x2", "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	/* 2.6.32 on one flat socket: its wake-up looked for the task's CPU in a 4096-CPU span */
	SROW("cpus-64-flat-2.6.32", "2.6.32", "64", NULL, "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-4096-flat-2.6.32", "2.6.32", "4096", NULL, "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	SROW("cpus-64-flat-2.6.31", "2.6.31", "64", NULL, "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-4096-flat-2.6.31", "2.6.31", "4096", NULL, "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	SROW("cpus-64-sock-2.6.31", "2.6.31", NULL, "4x8x2", "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-4096-sock-2.6.31", "2.6.31", NULL, "64x32x2", "50ms", "200ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	SROW("cpus-64-bfs", "2.6.31-bfs", "64", NULL, "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-4096-bfs", "2.6.31-bfs", "4096", NULL, "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	SROW("cpus-64-sock-bfs", "2.6.31-bfs", NULL, "4x8x2", "1s", "4s", NULL, 0,
	     "pingpong:pairs=32,count=100000000,run=100us", "hog:tasks=16"),
	SROW("cpus-4096-sock-bfs", "2.6.31-bfs", NULL, "64x32x2", "20ms", "80ms", NULL, 1,
	     "pingpong:pairs=2048,count=100000000,run=100us", "hog:tasks=1024"),
	/* two hogs a CPU (the tick's balance of 6.18, BFS's slice expiries), on sockets and flat;
	 * a 64-CPU machine of hogs has few events a second (ticks, slice ends), so its runs are
	 * long; 2.6.31 forks the 8192 hogs onto one CPU and spreads them by balancing, with its
	 * latency scaled to 200 ms at 4096 CPUs: its runs start after that */
	SROW("hogs-64-6.18", "6.18", NULL, "4x8x2", "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-6.18", "6.18", NULL, "64x32x2", "100ms", "400ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-flat-6.18", "6.18", "64", NULL, "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-flat-6.18", "6.18", "4096", NULL, "100ms", "400ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-2.6.32", "2.6.32", NULL, "4x8x2", "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-2.6.32", "2.6.32", NULL, "64x32x2", "100ms", "400ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-flat-2.6.32", "2.6.32", "64", NULL, "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-flat-2.6.32", "2.6.32", "4096", NULL, "100ms", "400ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-2.6.31", "2.6.31", NULL, "4x8x2", "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-2.6.31", "2.6.31", NULL, "64x32x2", "400ms", "1600ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-flat-2.6.31", "2.6.31", "64", NULL, "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-flat-2.6.31", "2.6.31", "4096", NULL, "400ms", "1600ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-bfs", "2.6.31-bfs", NULL, "4x8x2", "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-bfs", "2.6.31-bfs", NULL, "64x32x2", "100ms", "400ms", NULL, 1,
	     "hog:tasks=8192"),
	SROW("hogs-64-flat-bfs", "2.6.31-bfs", "64", NULL, "4s", "16s", NULL, 0, "hog:tasks=128"),
	SROW("hogs-4096-flat-bfs", "2.6.31-bfs", "4096", NULL, "100ms", "400ms", NULL, 1,
	     "hog:tasks=8192"),
	/* scaling with tasks: runnable (the run queue's tree or list), sleeping (cpuidle's next
	 * timer; the 2.6.31 rows have no release suffix, their names are older) */
	SROW("tasks-1k-run-6.18", "6.18", "8", NULL, "20s", "80s", NULL, 0, "hog:tasks=1000"),
	SROW("tasks-10k-run-6.18", "6.18", "8", NULL, "20s", "80s", NULL, 0, "hog:tasks=10000"),
	SROW("tasks-100k-run-6.18", "6.18", "8", NULL, "20s", "80s", NULL, 1, "hog:tasks=100000"),
	SROW("tasks-1k-run-2.6.31", "2.6.31", "8", NULL, "20s", "80s", NULL, 0, "hog:tasks=1000"),
	SROW("tasks-100k-run-2.6.31", "2.6.31", "8", NULL, "20s", "80s", NULL, 1,
	     "hog:tasks=100000"),
	SROW("tasks-1k-run-2.6.32", "2.6.32", "8", NULL, "20s", "80s", NULL, 0, "hog:tasks=1000"),
	SROW("tasks-100k-run-2.6.32", "2.6.32", "8", NULL, "20s", "80s", NULL, 1,
	     "hog:tasks=100000"),
	SROW("tasks-1k-run-bfs", "2.6.31-bfs", "8", NULL, "20s", "80s", NULL, 0, "hog:tasks=1000"),
	SROW("tasks-100k-run-bfs", "2.6.31-bfs", "8", NULL, "20s", "80s", NULL, 1,
	     "hog:tasks=100000"),
	SROW("tasks-1k-sleep", NULL, "8", NULL, "2s", "8s", "skylake", 0,
	     "periodic:tasks=1000,run=50us,period=100ms"),
	SROW("tasks-10k-sleep", NULL, "8", NULL, "2s", "8s", "skylake", 0,
	     "periodic:tasks=10000,run=50us,period=1s"),
	SROW("tasks-100k-sleep", NULL, "8", NULL, "2s", "8s", "skylake", 1,
	     "periodic:tasks=100000,run=5us,period=1s"),
	SROW("tasks-1k-sleep-2.6.32", "2.6.32", "8", NULL, "2s", "8s", "skylake", 0,
	     "periodic:tasks=1000,run=50us,period=100ms"),
	SROW("tasks-100k-sleep-2.6.32", "2.6.32", "8", NULL, "2s", "8s", "skylake", 1,
	     "periodic:tasks=100000,run=5us,period=1s"),
	SROW("tasks-1k-sleep-6.18", "6.18", "8", NULL, "2s", "8s", "skylake", 0,
	     "periodic:tasks=1000,run=50us,period=100ms"),
	SROW("tasks-100k-sleep-6.18", "6.18", "8", NULL, "2s", "8s", "skylake", 1,
	     "periodic:tasks=100000,run=5us,period=1s"),
	SROW("tasks-1k-sleep-bfs", "2.6.31-bfs", "8", NULL, "2s", "8s", "skylake", 0,
	     "periodic:tasks=1000,run=50us,period=100ms"),
	SROW("tasks-100k-sleep-bfs", "2.6.31-bfs", "8", NULL, "2s", "8s", "skylake", 1,
	     "periodic:tasks=100000,run=5us,period=1s"),
	/* tasks that wake together, 100k wake-ups a second either way: BFS's global queue holds
	 * them all at once */
	SROW("tasks-1k-wake-bfs", "2.6.31-bfs", NULL, "2x16x2", "1s", "4s", NULL, 0,
	     "periodic:tasks=1000,run=50us,period=10ms"),
	SROW("tasks-100k-wake-bfs", "2.6.31-bfs", NULL, "2x16x2", "1s", "4s", NULL, 1,
	     "periodic:tasks=100000,run=50us,period=1s"),
	SROW("tasks-1k-wake-6.18", "6.18", NULL, "2x16x2", "1s", "4s", NULL, 0,
	     "periodic:tasks=1000,run=50us,period=10ms"),
	SROW("tasks-100k-wake-6.18", "6.18", NULL, "2x16x2", "1s", "4s", NULL, 1,
	     "periodic:tasks=100000,run=50us,period=1s"),
	SROW("tasks-1k-wake-2.6.31", "2.6.31", NULL, "2x16x2", "1s", "4s", NULL, 0,
	     "periodic:tasks=1000,run=50us,period=10ms"),
	SROW("tasks-100k-wake-2.6.31", "2.6.31", NULL, "2x16x2", "1s", "4s", NULL, 1,
	     "periodic:tasks=100000,run=50us,period=1s"),
	SROW("tasks-1k-wake-2.6.32", "2.6.32", NULL, "2x16x2", "1s", "4s", NULL, 0,
	     "periodic:tasks=1000,run=50us,period=10ms"),
	SROW("tasks-100k-wake-2.6.32", "2.6.32", NULL, "2x16x2", "1s", "4s", NULL, 1,
	     "periodic:tasks=100000,run=50us,period=1s"),
};

/*
 * The scaling targets of issue 32: each case's marginal cost per event in its large row (4096
 * CPUs, 100k tasks) within 3x of its small row's (64 CPUs, 1k tasks). Printed after the rows
 * when both of a pair ran, with the ratio, so that a regression shows.
 */
struct pair {
	const char *name, *small, *big;
};

static const struct pair pairs[] = {
	{"mix, flat, 2.6.31", "cpus-64-flat-2.6.31", "cpus-4096-flat-2.6.31"},
	{"mix, flat, 2.6.32", "cpus-64-flat-2.6.32", "cpus-4096-flat-2.6.32"},
	{"mix, flat, 6.18", "cpus-64-6.18", "cpus-4096-6.18"},
	{"mix, flat, bfs", "cpus-64-bfs", "cpus-4096-bfs"},
	{"mix, sockets, 2.6.31", "cpus-64-sock-2.6.31", "cpus-4096-sock-2.6.31"},
	{"mix, sockets, 2.6.32", "cpus-64-2.6.32", "cpus-4096-2.6.32"},
	{"mix, sockets, 6.18", "cpus-64-sock-6.18", "cpus-4096-sock-6.18"},
	{"mix, sockets, bfs", "cpus-64-sock-bfs", "cpus-4096-sock-bfs"},
	{"hogs, flat, 2.6.31", "hogs-64-flat-2.6.31", "hogs-4096-flat-2.6.31"},
	{"hogs, flat, 2.6.32", "hogs-64-flat-2.6.32", "hogs-4096-flat-2.6.32"},
	{"hogs, flat, 6.18", "hogs-64-flat-6.18", "hogs-4096-flat-6.18"},
	{"hogs, flat, bfs", "hogs-64-flat-bfs", "hogs-4096-flat-bfs"},
	{"hogs, sockets, 2.6.31", "hogs-64-2.6.31", "hogs-4096-2.6.31"},
	{"hogs, sockets, 2.6.32", "hogs-64-2.6.32", "hogs-4096-2.6.32"},
	{"hogs, sockets, 6.18", "hogs-64-6.18", "hogs-4096-6.18"},
	{"hogs, sockets, bfs", "hogs-64-bfs", "hogs-4096-bfs"},
	{"tasks runnable, 2.6.31", "tasks-1k-run-2.6.31", "tasks-100k-run-2.6.31"},
	{"tasks runnable, 2.6.32", "tasks-1k-run-2.6.32", "tasks-100k-run-2.6.32"},
	{"tasks runnable, 6.18", "tasks-1k-run-6.18", "tasks-100k-run-6.18"},
	{"tasks runnable, bfs", "tasks-1k-run-bfs", "tasks-100k-run-bfs"},
	{"tasks sleeping, 2.6.31", "tasks-1k-sleep", "tasks-100k-sleep"},
	{"tasks sleeping, 2.6.32", "tasks-1k-sleep-2.6.32", "tasks-100k-sleep-2.6.32"},
	{"tasks sleeping, 6.18", "tasks-1k-sleep-6.18", "tasks-100k-sleep-6.18"},
	{"tasks sleeping, bfs", "tasks-1k-sleep-bfs", "tasks-100k-sleep-bfs"},
	{"tasks waking together, 2.6.31", "tasks-1k-wake-2.6.31", "tasks-100k-wake-2.6.31"},
	{"tasks waking together, 2.6.32", "tasks-1k-wake-2.6.32", "tasks-100k-wake-2.6.32"},
	{"tasks waking together, 6.18", "tasks-1k-wake-6.18", "tasks-100k-wake-6.18"},
	{"tasks waking together, bfs", "tasks-1k-wake-bfs", "tasks-100k-wake-bfs"},
};

#define PAIR_TARGET 3.0

static double row_marginal(const double *margs, const char *name)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(rows); i++)
		if (!strcmp(rows[i].name, name))
			return margs[i];
	return 0;
}

/* the pairs whose two rows ran: the large row's marginal cost over the small one's */
static void print_pairs(const double *margs, bool json)
{
	bool first = true;

	if (json)
		printf("\n], \"pairs\": [");
	for (size_t i = 0; i < SL_ARRAY_SIZE(pairs); i++) {
		double a = row_marginal(margs, pairs[i].small),
		       b = row_marginal(margs, pairs[i].big);

		if (a <= 0 || b <= 0)
			continue;
		if (json) {
			printf("%s\n {\"case\": \"%s\", \"small\": \"%s\", \"big\": \"%s\", "
			       "\"small_marginal_ns\": %.2f, \"big_marginal_ns\": %.2f, \"ratio\": "
			       "%.2f}",
			       first ? "" : ",", pairs[i].name, pairs[i].small, pairs[i].big, a, b,
			       b / a);
		} else {
			if (first)
				printf("\nscaling: marginal ns/event of the large row over the "
				       "small "
				       "one's (target %.0fx)\n%-30s %9s %9s %7s\n",
				       PAIR_TARGET, "case", "small", "large", "ratio");
			printf("%-30s %9.1f %9.1f %6.2fx%s\n", pairs[i].name, a, b, b / a,
			       b / a > PAIR_TARGET ? "  over the target" : "");
		}
		first = false;
	}
	if (json)
		printf("\n]");
}

static int bench_suite(int repeat, bool quick, bool json, const char *only)
{
	double floor_ns = heap_floor(repeat);
	char err[4096];
	bool first = true;
	double margs[SL_ARRAY_SIZE(rows)] = {0}; /* each row's marginal ns/event, 0: not run */

	if (json)
		printf("{\"heap_floor_ns\": %.2f, \"repeat\": %d, \"rows\": [", floor_ns, repeat);
	else
		printf("floor: bare heap pop+push, 64 timers: %.1f ns CPU time (median of %d)\n"
		       "rows: median CPU time of %d runs, each in its own process\n\n"
		       "%-22s %10s %8s %9s %11s %7s %16s %9s %8s\n",
		       floor_ns, repeat, repeat, "row", "events", "sim", "ns/event", "wall/sim-s",
		       "x floor", "marginal x floor", "peak RSS", "B/task");
	for (size_t i = 0; i < SL_ARRAY_SIZE(rows); i++) {
		const struct row *rw = &rows[i];
		struct result res, last = {0};
		u64 walls[1000];

		if (only && !strstr(rw->name, only))
			continue;
		if (quick && rw->big)
			continue;
		long rss = 0;
		u64 walls2[1000];
		struct result last2 = {0};

		for (int k = 0; k < repeat; k++) {
			if (run_child(rw, rw->duration, &res, err, sizeof(err))) {
				fprintf(stderr, "schedlab-bench: %s\n", err);
				return 1;
			}
			walls[k] = res.wall_ns;
			if (res.rss_kb > rss)
				rss = res.rss_kb;
			last = res;
			if (!rw->dur2)
				continue;
			if (run_child(rw, rw->dur2, &res, err, sizeof(err))) {
				fprintf(stderr, "schedlab-bench: %s\n", err);
				return 1;
			}
			walls2[k] = res.wall_ns;
			last2 = res;
		}
		double w = (double)median(walls, repeat);
		/* the marginal cost of an event: the last three quarters of the longer run, so
		 * building the machine and forking the tasks are left out */
		double marg = 0;

		if (rw->dur2 && last2.events > last.events)
			marg = ((double)median(walls2, repeat) - w) /
			       (double)(last2.events - last.events);
		margs[i] = marg;
		double nspe = w / (double)(last.events ? last.events : 1);
		double per_s = w / 1e9 / ((double)last.sim_ns / 1e9);
		double bpt = (double)rss * 1024 / (double)(last.tasks ? last.tasks : 1);

		if (json) {
			printf("%s\n {\"name\": \"%s\", \"events\": %llu, \"sim_ns\": %llu, "
			       "\"wall_ns\": %.0f, \"ns_per_event\": %.2f, \"wall_per_sim_s\": "
			       "%.4f, "
			       "\"floor_ratio\": %.2f, \"marginal_ns_per_event\": %.2f, "
			       "\"marginal_floor_ratio\": %.2f, \"peak_rss_kb\": %ld, \"tasks\": "
			       "%llu, "
			       "\"rss_bytes_per_task\": %.0f}",
			       first ? "" : ",", rw->name, (unsigned long long)last.events,
			       (unsigned long long)last.sim_ns, w, nspe, per_s, nspe / floor_ns,
			       marg, marg / floor_ns, rss, (unsigned long long)last.tasks, bpt);
		} else {
			char m[32] = "";

			if (rw->dur2)
				snprintf(m, sizeof(m), "%9.1f %6.1fx", marg, marg / floor_ns);
			printf("%-22s %10llu %7.3fs %9.1f %10.3fs %6.1fx %16s %7.1fMB %8.0f\n",
			       rw->name, (unsigned long long)last.events, (double)last.sim_ns / 1e9,
			       nspe, per_s, nspe / floor_ns, m, (double)rss / 1024, bpt);
		}
		fflush(stdout);
		first = false;
	}
	print_pairs(margs, json);
	if (json)
		printf("}\n");
	return 0;
}

static int bench_sweep(int runs)
{
	static char *argv[] = {
		"--features",
		"all",
		"--out",
		"bench.csv",
		"--mix",
		"make:jobs=20,nice=19,count=300+xclient:start=200ms+pingpong:count=2000+video",
	};
	struct sl_sweep sw;
	char err[2048];
	static char row[65536];

	memset(&sw, 0, sizeof(sw));
	for (int i = 0; i < (int)SL_ARRAY_SIZE(argv); i++)
		if (sl_sweep_option(&sw, (int)SL_ARRAY_SIZE(argv), argv, &i, err, sizeof(err)) !=
		    1) {
			fprintf(stderr, "schedlab-bench: %s\n", err);
			return 2;
		}
	sw.base.duration = "1s";
	if (sl_sweep_prepare(&sw, err, sizeof(err))) {
		fprintf(stderr, "schedlab-bench: %s\n", err);
		return 2;
	}
	u64 stride = sw.nruns / (u64)runs, t0 = wall_ns();

	for (int i = 0; i < runs; i++)
		if (sl_sweep_run_one(&sw, (u64)i * stride, row, sizeof(row), err, sizeof(err)) <
		    0) {
			fprintf(stderr, "schedlab-bench: %s\n", err);
			return 1;
		}
	double s = (double)(wall_ns() - t0) / 1e9, rate = runs / s;

	printf("sweep: --features all (%llu schedulers), 1 s desktop workload\n",
	       (unsigned long long)sw.nruns);
	printf("runs timed:          %d (every %llu-th)\n", runs, (unsigned long long)stride);
	printf("simulations/s:       %.1f (one process)\n", rate);
	printf("whole sweep, 1 core: %.1f s\n", (double)sw.nruns / rate);
	printf("whole sweep, 2 cores: %.1f s (-j 2, if the two scale)\n",
	       (double)sw.nruns / rate / 2);
	sl_sweep_free(&sw);
	return 0;
}

int main(int argc, char **argv)
{
	int repeat = 3, sweep_runs = 0;
	bool quick = false, json = false;
	const char *only = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sweep")) {
			sweep_runs = sweep_runs ? sweep_runs : 2048;
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			sweep_runs = atoi(argv[++i]);
			if (sweep_runs < 1 || sweep_runs > 32768) {
				fprintf(stderr, "schedlab-bench: --runs expects 1..32768\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > 1000) {
				fprintf(stderr, "schedlab-bench: --repeat expects 1..1000\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strcmp(argv[i], "--quick")) {
			quick = true;
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else {
			fprintf(stderr, "usage: schedlab-bench [--repeat N] [--quick] [--json] "
					"[--only NAME] | --sweep [--runs N]\n");
			return 2;
		}
	}
	if (sweep_runs)
		return bench_sweep(sweep_runs);
	return bench_suite(repeat, quick, json, only);
}
