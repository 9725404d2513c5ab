/*
 * wake_placement: on the real machine, where does a task that slept 2 ms after running on CPU0
 * wake up, with a CPU-bound loop pinned to CPU0 (argv[1] = 0), to CPU1 (1) or none (-1)?
 * Mainline 6.18 on an otherwise idle 2-CPU LLC: hog on 0 -> CPU1 (prev busy, the scan finds
 * CPU1 idle); no hog or hog on 1 -> CPU0 (prev idle). The target's private sched_vcpu_pack
 * patch may change the first answer: this measures it. Needs an idle machine (check
 * /proc/stat). Build: cc -O2 -pthread -o wake_placement tools/wake_placement.c
 * Usage: wake_placement HOGCPU N
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	if (cpu < 0) {
		CPU_SET(0, &s);
		CPU_SET(1, &s);
	} else
		CPU_SET(cpu, &s);
	sched_setaffinity(0, sizeof(s), &s);
}
static void *hog(void *arg)
{
	pin(*(int *)arg);
	while (!stop)
		;
	return NULL;
}
static void spin_us(long us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}
int main(int argc, char **argv)
{
	int hogcpu, n, cnt[2] = {0, 0};

	if (argc != 3) {
		fprintf(stderr, "usage: wake_placement HOGCPU(-1, 0 or 1) N\n");
		return 2;
	}
	hogcpu = (int)strtol(argv[1], NULL, 10);
	n = (int)strtol(argv[2], NULL, 10);
	pthread_t t;
	if (hogcpu >= 0)
		pthread_create(&t, NULL, hog, &hogcpu);
	usleep(100000);
	for (int i = 0; i < n; i++) {
		pin(0);
		spin_us(200);
		pin(-1);
		usleep(2000);
		cnt[sched_getcpu() & 1]++;
	}
	stop = 1;
	if (hogcpu >= 0)
		pthread_join(t, NULL);
	printf("hog on %d: woke on CPU0 %d, CPU1 %d of %d\n", hogcpu, cnt[0], cnt[1], n);
	return 0;
}
