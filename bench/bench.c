/*
 * schedlab-bench: simulated events per second and simulated-to-wall time for a 64-CPU `make`
 * (4 sockets x 8 cores x 2 threads, make -j128), the figure the README quotes. Each
 * configuration runs --repeat times (default 5); the best wall time is reported, as hyperfine's
 * min, because the simulation's work is the same every time (it is deterministic).
 *
 *   build/schedlab-bench [--duration 30s] [--repeat 5]
 *
 * --sweep [--runs N]: simulations per second of the 32768-scheduler sweep of the README's
 * 1-second desktop workload (`--features all`, make -j20 under nice 19, an xmodmap-like client,
 * pingpong, video), in one process: N runs (default 2048) spread evenly over the 32768, each
 * simulated and formatted as its row, and the time the whole sweep would take on 1 and 2 cores.
 */
#include "config/config.h"
#include "experiment/run.h"
#include "experiment/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static u64 wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
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
	struct sl_args a;
	struct sl_config cfg;
	char err[2048];
	const char *duration = "30s";
	int repeat = 5;

	int sweep_runs = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sweep")) {
			sweep_runs = sweep_runs ? sweep_runs : 2048;
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
			sweep_runs = atoi(argv[++i]);
			if (sweep_runs < 1 || sweep_runs > 32768) {
				fprintf(stderr, "schedlab-bench: --runs expects 1..32768\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			duration = argv[++i];
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > 1000) {
				fprintf(stderr, "schedlab-bench: --repeat expects 1..1000\n");
				return 2;
			}
		} else {
			fprintf(stderr,
				"usage: schedlab-bench [--duration D] [--repeat N] | --sweep "
				"[--runs N]\n");
			return 2;
		}
	}
	if (sweep_runs)
		return bench_sweep(sweep_runs);
	memset(&a, 0, sizeof(a));
	a.topology = "4x8x2";
	a.duration = duration;
	a.workloads[a.nworkloads++] = "make:jobs=128,count=10000000";
	if (sl_config_build(&cfg, &a, err, sizeof(err))) {
		fprintf(stderr, "schedlab-bench: %s\n", err);
		return 2;
	}
	u64 best = UINT64_MAX, events = 0, simulated = 0;

	for (int i = 0; i < repeat; i++) {
		struct sl_run r;

		if (sl_run(&cfg, &r, err, sizeof(err))) {
			fprintf(stderr, "schedlab-bench: %s\n", err);
			return 1;
		}
		if (r.wall_ns < best)
			best = r.wall_ns;
		events = r.sim->nr_events;
		simulated = r.sim->now;
		sl_run_free(&r);
	}
	printf("workload: make:jobs=128 on 64 CPUs (4x8x2), kernel 2.6.31, %s simulated\n",
	       duration);
	printf("events:           %llu\n", (unsigned long long)events);
	printf("wall (best of %d): %.3f s\n", repeat, (double)best / 1e9);
	printf("events/s:         %.0f\n", (double)events / ((double)best / 1e9));
	printf("simulated/wall:   %.1fx\n", (double)simulated / (double)best);
	sl_config_free(&cfg);
	return 0;
}
