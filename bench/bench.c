/*
 * schedlab-bench: simulated events per second and simulated-to-wall time for a 64-CPU `make`
 * (4 sockets x 8 cores x 2 threads, make -j128), the figure the README quotes. Each
 * configuration runs --repeat times (default 5); the best wall time is reported, as hyperfine's
 * min, because the simulation's work is the same every time (it is deterministic).
 *
 *   build/schedlab-bench [--duration 30s] [--repeat 5]
 */
#include "config/config.h"
#include "experiment/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct sl_args a;
	struct sl_config cfg;
	char err[2048];
	const char *duration = "30s";
	int repeat = 5;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			duration = argv[++i];
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			repeat = atoi(argv[++i]);
			if (repeat < 1 || repeat > 1000) {
				fprintf(stderr, "schedlab-bench: --repeat expects 1..1000\n");
				return 2;
			}
		} else {
			fprintf(stderr, "usage: schedlab-bench [--duration D] [--repeat N]\n");
			return 2;
		}
	}
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
