/*
 * `schedlab calibrate`: the few machine parameters a VM changes, measured once on the real
 * machine by three micro-benchmarks, written as a machine description (machine_conf.h) with its
 * idle table. They are then fixed for every workload: nothing here looks at a workload.
 *
 *  1. Two threads pinned to CPU 0 pass a byte back and forth through two pipes: each hand-off
 *     is a write, a wake-up and a switch on one CPU. Its mean is the model's ctx_switch (the
 *     model charges one cost per switch and nothing for the system calls around it).
 *  2. The same with the threads on CPUs 0 and 1: each hand-off now wakes a CPU that went idle
 *     (halted) while waiting. What it costs beyond (1) and the IPI is the exit latency of the
 *     idle state, HLT in a guest without a cpuidle driver: the VM exit, the host's scheduling of
 *     the vCPU thread and the VM entry.
 *  3. One thread on an otherwise idle CPU sleeps 1 ms with clock_nanosleep, over and over: how
 *     late it wakes, less (2)'s exit latency and (1)'s switch, is the timer slack the model adds
 *     to a sleeping task's timer (Linux's default timer_slack_ns is 50 us for normal tasks).
 *  1b. (1) again with each thread walking its own working set of CACHE_WS bytes (a read and a
 *     write per cache line) before it passes the byte on. The walk of CPU 0's thread is timed
 *     each time it runs again after the other thread's walk, against the same walk done warm,
 *     back to back with no switch: the difference of the medians is what a task pays on a
 *     switch-in when another task's working set ran on the CPU meanwhile, the model's
 *     cache_refill, whose definition is the refill of a 256 KB working set. (1) itself is then
 *     ctx_switch, the switch of tasks whose working set is next to nothing. Before this row
 *     (1) was ctx_switch and the model still added its built-in 10 us refill to every such
 *     hand-off: 13.5 us where the machine took 3.5.
 *  1d. The switch alone, without the system calls around it (bare_switch): what a trace
 *     replay prices a switch at, since a recorded burst holds its own system calls.
 *  1c. One thread moved to the other of CPUs 0 and 1 (sched_setaffinity returns once it runs
 *     there) times its walk of the same working set after each move, against the warm walk:
 *     the refill after a migration. Written as migrate_smt, migrate_core or migrate_socket by
 *     what sysfs says CPUs 0 and 1 share (a core, a package, nothing). Timing the walks alone
 *     keeps the wake-ups and another user's tasks on a shared machine out of both figures.
 * Each takes the median of several batches, so a disturbance in one batch does not move it.
 */
#include "validate/calibrate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/outfile.h"
#include "core/parse.h"
#include "cpuidle/profiles.h"
#include "machine/machine_conf.h"
#include "machine/params.h"
#include "trace/record.h"
#include "validate/rtapp_log_read.h"
#include "validate/vtrace.h"

#define BATCHES 9
/* the working set of param cache_refill's definition (machine/params.c) */
#define CACHE_WS   (256 * 1024)
#define CACHE_LINE 64

const char *const sl_cal_migrate_param[3] = {"migrate_smt", "migrate_core", "migrate_socket"};

static u64 clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static u64 now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

struct pong {
	int in, out, cpu, rounds;
	unsigned char *ws; /* walked before each pass when not NULL */
	int rc;
};

/* written by walk() so that the compiler keeps the walk's reads */
static volatile unsigned char walk_sink;

/* a read and a write of every line of a working set, as a task using its data does */
static void walk(unsigned char *ws)
{
	unsigned char acc = 0;

	if (!ws)
		return;
	for (size_t i = 0; i < CACHE_WS; i += CACHE_LINE) {
		acc = (unsigned char)(acc + ws[i]);
		ws[i] = acc;
	}
	walk_sink = acc;
}

static void *pong_main(void *arg)
{
	struct pong *p = arg;
	char c;

	if (pin(p->cpu)) {
		p->rc = -1;
		return NULL;
	}
	for (int i = 0; i < p->rounds; i++) {
		if (read(p->in, &c, 1) != 1) {
			p->rc = -1;
			break;
		}
		walk(p->ws);
		if (write(p->out, &c, 1) != 1) {
			p->rc = -1;
			break;
		}
	}
	return NULL;
}

/* ns of one walk of ws */
static u64 timed_walk(unsigned char *ws)
{
	u64 t0 = now_ns();

	walk(ws);
	return now_ns() - t0;
}

static u64 median(u64 *v, int n);

/*
 * The mean of the round times of v[0..n) that are under 8 times their median: a round in which
 * another task of a shared machine ran on the CPU is left out (beside a hog pinned to CPU 0 the
 * plain mean of a same-CPU ping-pong was 1960 ns, this 1048, quiet 999), and a hand-off's
 * two ways (the wakee preempts the writer, or waits for its read) both stay in, which a median
 * would not keep (it takes one of the two). v is sorted.
 */
u64 sl_calibrate_undisturbed_mean(u64 *v, int n)
{
	u64 cap = median(v, n) * 8, sum = 0;
	int k = 0;

	while (k < n && v[k] < cap)
		sum += v[k++];
	return k ? sum / (u64)k : 0;
}

/*
 * Ns per one-way hand-off of `rounds` round trips between cpu a and cpu b: half the
 * undisturbed mean round trip, each round timed on its own. With working sets (two of
 * CACHE_WS bytes, or NULL) each side walks its own before passing the byte, and walks[i] is
 * the time of cpu a's walk in round i.
 */
static int pingpong(int a, int b, int rounds, unsigned char *ws[2], u64 *walks, u64 *out)
{
	int ab[2], ba[2];
	pthread_t th;
	struct pong p;
	char c = 'x';
	u64 t0, t1;
	u64 *trip = calloc((size_t)rounds, sizeof(*trip));
	int rc = 0;

	if (!trip)
		return -1;
	if (pipe(ab)) {
		free(trip);
		return -1;
	}
	if (pipe(ba)) {
		close(ab[0]);
		close(ab[1]);
		free(trip);
		return -1;
	}
	p = (struct pong){
		.in = ab[0], .out = ba[1], .cpu = b, .rounds = rounds, .ws = ws ? ws[1] : NULL};
	if (pin(a) || pthread_create(&th, NULL, pong_main, &p)) {
		rc = -1;
		goto out;
	}
	t0 = now_ns();
	for (int i = 0; i < rounds; i++) {
		if (ws)
			walks[i] = timed_walk(ws[0]);
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1) {
			rc = -1;
			break;
		}
		t1 = now_ns();
		trip[i] = t1 - t0;
		t0 = t1;
	}
	pthread_join(th, NULL);
	if (p.rc)
		rc = -1;
	if (!rc)
		*out = sl_calibrate_undisturbed_mean(trip, rounds) / 2;
out:
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	free(trip);
	return rc;
}

struct yielder {
	atomic_int stop;
	atomic_long calls; /* read by the other thread while this one counts */
	int rc;
};

static void *yield_main(void *arg)
{
	struct yielder *y = arg;

	if (pin(0)) {
		y->rc = -1;
		return NULL;
	}
	while (!atomic_load(&y->stop)) {
		sched_yield();
		atomic_fetch_add_explicit(&y->calls, 1, memory_order_relaxed);
	}
	return NULL;
}

/* the undisturbed mean of `rounds` sched_yield calls of this thread, each timed on its own */
static u64 timed_yields(u64 *t, int rounds)
{
	u64 t0 = now_ns(), t1;

	for (int i = 0; i < rounds; i++) {
		sched_yield();
		t1 = now_ns();
		t[i] = t1 - t0;
		t0 = t1;
	}
	return sl_calibrate_undisturbed_mean(t, rounds);
}

/*
 * 1d. The price of a context switch alone: two threads pinned to CPU 0 call sched_yield in a
 * loop, so that each call switches to the other (half the undisturbed mean time of one's call:
 * its switch out and the other's whole call), less a lone thread's sched_yield, which takes the
 * same system call and pick without a switch. A recorded burst holds its system calls, so this
 * is what a trace replay prices a switch at (param ctx_switch_bare: docs/workloads.md). 0 in
 * *out when the calls did not alternate (a kernel whose sched_yield does not switch).
 */
static int bare_switch(int rounds, u64 *out)
{
	struct yielder y = {.stop = 0};
	u64 *t = calloc((size_t)rounds, sizeof(*t));
	pthread_t th;
	u64 paired;
	int rc = 0;

	*out = 0;
	if (!t)
		return -1;
	if (pin(0) || pthread_create(&th, NULL, yield_main, &y)) {
		free(t);
		return -1;
	}
	sched_yield(); /* let it start */
	long before = atomic_load(&y.calls);

	paired = timed_yields(t, rounds) / 2;
	long theirs = atomic_load(&y.calls) - before;

	atomic_store(&y.stop, 1);
	pthread_join(th, NULL);
	u64 lone = timed_yields(t, rounds);

	if (y.rc)
		rc = -1;
	else if (theirs * 10 >= (long)rounds * 9 && paired > lone)
		*out = paired - lone;
	free(t);
	return rc;
}

/* walks[i]: a walk of ws that stays in the cache, `rounds` of them back to back */
static void warm_walks(unsigned char *ws, int rounds, u64 *walks)
{
	walk(ws);
	for (int i = 0; i < rounds; i++)
		walks[i] = timed_walk(ws);
}

/* walks[i]: the walk of ws after the i-th move to the other of CPUs 0 and 1 */
static int migrations(int rounds, unsigned char *ws, u64 *walks)
{
	if (pin(0))
		return -1;
	walk(ws);
	for (int i = 0; i < rounds; i++) {
		if (pin((i + 1) & 1))
			return -1;
		walks[i] = timed_walk(ws);
	}
	return 0;
}

/* one number of sysfs's topology of a CPU, or -1 */
static long topology_id(int cpu, const char *what)
{
	char path[96], line[32];
	s64 v;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	if (sl_read_first_line(path, line, sizeof(line)) || sl_parse_s64(line, &v, NULL, 0))
		return -1;
	return (long)v;
}

/*
 * What two CPUs share, as the model's three migration costs distinguish it: the same core
 * (SMT siblings), the same package, or nothing. Without sysfs: a package, the common case.
 */
static enum sl_cal_migrate cpu_distance(int a, int b)
{
	long pa = topology_id(a, "physical_package_id"), pb = topology_id(b, "physical_package_id");
	long ca = topology_id(a, "core_id"), cb = topology_id(b, "core_id");

	if (pa >= 0 && pb >= 0 && pa != pb)
		return SL_CAL_MIGRATE_SOCKET;
	if (ca >= 0 && ca == cb && pa == pb)
		return SL_CAL_MIGRATE_SMT;
	return SL_CAL_MIGRATE_CORE;
}

/* Mean ns by which a 1 ms relative sleep on `cpu` overshoots. */
static int oversleep(int cpu, int rounds, u64 *out)
{
	const struct timespec req = {0, 1000000};
	u64 sum = 0;

	if (pin(cpu))
		return -1;
	for (int i = 0; i < rounds; i++) {
		u64 t0 = now_ns();

		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL) == EINTR)
			;
		u64 d = now_ns() - t0;

		sum += d > 1000000 ? d - 1000000 : 0;
	}
	*out = sum / (u64)rounds;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return (x > y) - (x < y);
}

static u64 median(u64 *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

int sl_calibrate_measure(struct sl_calibration *c, int batches, char *err, size_t errlen)
{
	u64 same[BATCHES], cross[BATCHES], late[BATCHES], refill[BATCHES], moved[BATCHES],
		bare[BATCHES];
	unsigned char *ws[2];
	cpu_set_t orig;

	memset(c, 0, sizeof(*c));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		snprintf(err, errlen, "calibrate: needs at least 2 online CPUs");
		return -1;
	}
	if (sched_getaffinity(0, sizeof(orig), &orig)) {
		snprintf(err, errlen, "calibrate: sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	enum { WALKS = 2000, MOVES = 500 };
	u64 *walks = calloc(WALKS, sizeof(*walks));
	int rc = 0;

	ws[0] = calloc(1, CACHE_WS);
	ws[1] = calloc(1, CACHE_WS);
	if (!ws[0] || !ws[1] || !walks) {
		snprintf(err, errlen, "calibrate: out of memory");
		rc = -1;
	}
	if (batches < 1 || batches > BATCHES)
		batches = BATCHES;
	for (int i = 0; i < batches && !rc; i++) {
		u64 hot, moved_walk, warm, unused;

		if (pingpong(0, 0, 2000, NULL, NULL, &same[i]) ||
		    pingpong(0, 1, 2000, NULL, NULL, &cross[i]) || oversleep(1, 100, &late[i]) ||
		    pingpong(0, 0, WALKS, ws, walks, &unused) || bare_switch(4000, &bare[i])) {
			snprintf(err, errlen, "calibrate: a micro-benchmark failed: %s",
				 strerror(errno));
			rc = -1;
			break;
		}
		hot = median(walks, WALKS);
		if (migrations(MOVES, ws[0], walks)) {
			snprintf(err, errlen, "calibrate: cannot move between CPUs 0 and 1: %s",
				 strerror(errno));
			rc = -1;
			break;
		}
		moved_walk = median(walks, MOVES);
		warm_walks(ws[0], WALKS, walks);
		warm = median(walks, WALKS);
		refill[i] = hot > warm ? hot - warm : 0;
		moved[i] = moved_walk > warm ? moved_walk - warm : 0;
	}
	sched_setaffinity(0, sizeof(orig), &orig);
	free(ws[0]);
	free(ws[1]);
	free(walks);
	if (rc)
		return rc;
	c->same_cpu_ns = median(same, batches);
	c->bare_switch_ns = median(bare, batches);
	c->cross_cpu_ns = median(cross, batches);
	c->oversleep_ns = median(late, batches);
	c->cache_refill_ns = median(refill, batches);
	c->migrate_ns = median(moved, batches);
	c->migrate_level = cpu_distance(0, 1);
	c->cache_measured = true;
	return 0;
}

/*
 * 4. rt-app's loop as rt-app runs it (when rt-app is installed): rt-app itself, launched
 *    RTAPP_LAUNCHES times on a file of its own (nothing of a workload), calibrates its ns per
 *    loop on CPU0 as the files' "calibration": "CPU0" asks (rt-app itself under SCHED_FIFO, so
 *    that on a shared machine its calibration is what an idle CPU gives), then runs one
 *    SCHED_FIFO thread on
 *    CPU0 (no other task delays it) that alternates runs of RTAPP_SHORT_US and RTAPP_LONG_US
 *    with 5 ms sleeps (each run starts after the CPU halted). Its log gives, per run, the
 *    loops (perf) and the wall time (run). The two lengths separate a per-run cold cost from
 *    the per-loop cost: mean time = cold + loops x cost.
 */
#define RTAPP_LAUNCHES 3
#define RTAPP_SHORT_US 100
#define RTAPP_LONG_US  2000

static const char rtapp_cal_json[] =
	"{\n\t\"tasks\" : {\n\t\t\"cal\" : {\n\t\t\t\"policy\" : \"SCHED_FIFO\",\n"
	"\t\t\t\"priority\" : 50,\n\t\t\t\"cpus\" : [0],\n\t\t\t\"loop\" : -1,\n"
	"\t\t\t\"phases\" : {\n"
	"\t\t\t\t\"short\" : { \"loop\" : 100, \"run\" : 100, \"sleep\" : 5000 },\n"
	"\t\t\t\t\"long\" : { \"loop\" : 100, \"run\" : 2000, \"sleep\" : 5000 }\n"
	"\t\t\t}\n\t\t}\n\t},\n\t\"global\" : {\n"
	"\t\t\"duration\" : 3,\n\t\t\"calibration\" : \"CPU0\",\n"
	"\t\t\"logdir\" : \"./\",\n\t\t\"log_basename\" : \"cal\"\n\t}\n}\n";

/* One launch in dir: 0 with the log's rows appended to l, -1 if rt-app failed or logged none. */
static int rtapp_launch(const char *dir, struct sl_rtlog *l)
{
	char path[PATH_MAX + 32], err[256];
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		/* rt-app 1.0's calibration loop now and then never ends (docs/validate.md) */
		if (chdir(dir) == 0)
			execlp("timeout", "timeout", "-s", "INT", "30", "chrt", "-f", "50",
			       "rt-app", "cal.json", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/cal-cal-0.log", dir);
	if (sl_rtlog_read(l, path, "cal", err, sizeof(err)))
		return -1;
	unlink(path);
	return l->n ? 0 : -1;
}

int sl_calibrate_rtapp(struct sl_calibration *c, char *err, size_t errlen)
{
	char dir[] = "/tmp/schedlab-calibrate-XXXXXX", path[64];
	double sum[2] = {0, 0}, sq[2] = {0, 0}, loops[2] = {0, 0};
	u64 pload[RTAPP_LAUNCHES] = {0};
	long n[2] = {0, 0};
	int ok = 0;
	FILE *f;

	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "calibrate: mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/cal.json", dir);
	f = fopen(path, "w");
	if (!f || fputs(rtapp_cal_json, f) < 0 || fclose(f)) {
		snprintf(err, errlen, "calibrate: %s: cannot write", path);
		rmdir(dir);
		return -1;
	}
	for (int tries = 0; tries < 3 * RTAPP_LAUNCHES && ok < RTAPP_LAUNCHES; tries++) {
		struct sl_rtlog l;

		if (rtapp_launch(dir, &l))
			continue;
		for (size_t i = 0; i < l.n; i++) {
			s64 perf = l.row[i][SL_RTLOG_PERF], run = l.row[i][SL_RTLOG_RUN];
			int k = l.row[i][SL_RTLOG_C_DURATION] >= RTAPP_LONG_US;

			if (perf <= 0 || run <= 0)
				continue;
			/* per launch: rt-app's ns per loop from the short runs' loops */
			if (!k)
				pload[ok] = (u64)(RTAPP_SHORT_US * 1000 / perf);
			sum[k] += (double)run * 1000.0;
			sq[k] += (double)run * 1000.0 * (double)run * 1000.0;
			loops[k] += (double)perf;
			n[k]++;
		}
		sl_rtlog_free(&l);
		ok++;
	}
	unlink(path);
	rmdir(dir);
	if (ok < RTAPP_LAUNCHES || n[0] < 10 || n[1] < 10) {
		snprintf(err, errlen,
			 "calibrate: rt-app ran %d of %d times with logs (rt-app installed? its "
			 "calibration loop may not end on a busy machine)",
			 ok, RTAPP_LAUNCHES);
		return -1;
	}
	/* the mean run of each length: time = cold + loops x per-loop cost */
	double t0 = sum[0] / (double)n[0], t1 = sum[1] / (double)n[1];
	double l0 = loops[0] / (double)n[0], l1 = loops[1] / (double)n[1];
	double per = (t1 - t0) / (l1 - l0), cold = t0 - l0 * per;
	/* the long runs' spread, as a per-loop figure */
	double var = sq[1] / (double)n[1] - t1 * t1;

	c->rtapp_calib_ns = median(pload, RTAPP_LAUNCHES);
	c->rtapp_kloop_ns = per > 0 ? (u64)(per * 1000.0 + 0.5) : 0;
	c->rtapp_cold_ns = cold > 0 ? (u64)(cold + 0.5) : 0;
	c->rtapp_kloop_sd_ns = var > 0 ? (u64)(sqrt(var) / l1 * 1000.0 + 0.5) : 0;
	c->rtapp_short_ns = (u64)t0;
	c->rtapp_long_ns = (u64)t1;
	for (int i = 0; i < RTAPP_LAUNCHES; i++)
		c->rtapp_pload[i] = pload[i];
	c->rtapp_measured = true;
	return 0;
}

/*
 * 5. Wake-up placement (tools/wake_placement.c as a calibration): a loop pinned to CPU 0 keeps
 *    it busy; a task runs 200 us on CPU 0, is let free on both CPUs, sleeps 2 ms and, woken,
 *    notes its CPU, PLACEMENT_TRIES times. Mainline's select_idle_sibling sends it to the idle
 *    CPU 1 every time (its previous CPU is busy); how many of 1000 stay on the busy CPU 0 is
 *    the param vcpu_pack (275 here, under the non-mainline sched_vcpu_pack=15 boot option).
 */
#define PLACEMENT_TRIES 1000
#define WAKER_MIN_QUIET 100 /* quiet trials per mode for vcpu_pack_waker */

static volatile int hog_stop;

static void *hog_main(void *arg)
{
	(void)arg;
	if (pin(0))
		return NULL;
	while (!hog_stop)
		;
	return NULL;
}

static void spin_ns(u64 ns)
{
	u64 t0 = now_ns();

	while (now_ns() - t0 < ns)
		;
}

int sl_calibrate_placement(struct sl_calibration *c, char *err, size_t errlen)
{
	const struct timespec two_ms = {0, 2000000}, settle = {0, 100000000};
	cpu_set_t orig, both;
	pthread_t th;
	int on0 = 0;

	if (sched_getaffinity(0, sizeof(orig), &orig)) {
		snprintf(err, errlen, "calibrate: sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	CPU_ZERO(&both);
	CPU_SET(0, &both);
	CPU_SET(1, &both);
	hog_stop = 0;
	if (pthread_create(&th, NULL, hog_main, NULL)) {
		snprintf(err, errlen, "calibrate: pthread_create failed");
		return -1;
	}
	nanosleep(&settle, NULL);
	for (int i = 0; i < PLACEMENT_TRIES; i++) {
		pin(0);
		spin_ns(200000);
		sched_setaffinity(0, sizeof(both), &both);
		nanosleep(&two_ms, NULL);
		on0 += sched_getcpu() == 0;
	}
	hog_stop = 1;
	pthread_join(th, NULL);
	sched_setaffinity(0, sizeof(orig), &orig);
	c->placement_busy = (u64)on0 * 1000 / PLACEMENT_TRIES;
	return 0;
}

/*
 * 5b. Wake-ups by a running task (the sync case: a pipe write, the waker then blocks or keeps
 *     running), with the wakee's previous CPU idle: the wakee blocks in a pipe read after a
 *     short run on CPU 1 (so CPU 1 is its previous CPU, and halts), the waker, pinned to CPU 0,
 *     writes the pipe and then either reads a reply (blocks, as perf bench sched pipe) or runs
 *     200 us more. Mainline 6.18 sends the wakee to its idle previous CPU (wake_affine picks the
 *     waker's CPU, select_idle_sibling then takes the idle prev); how many of 1000 first run on
 *     the waker's CPU 0 instead, per mode, is printed (0 to 11 here: mainline's answer).
 *     vcpu_pack (5 above) is a timer wake-up beside a busy *previous* CPU: a distinct case,
 *     which a third mode asks of a pipe wake-up (the wakee last ran on the waker's CPU 0 and
 *     blocked there; printed beside vcpu_pack, not a param of its own).
 *     A trial counts only when, just before the write, the waker is the one runnable task of
 *     the machine (/proc/loadavg's running count is 1: CPU 1 idle); with fewer than
 *     WAKER_MIN_QUIET such trials per mode (a shared, busy machine) the figure means nothing.
 */
struct waker_ctx {
	int to_wakee[2], to_waker[2];
	int ready; /* __atomic: the wakee is about to block in its read */
	int cpu;   /* the CPU the wakee first ran on after its read returned */
	int stop;
};

static void *wakee_main(void *arg)
{
	struct waker_ctx *w = arg;
	cpu_set_t both;
	char b;

	CPU_ZERO(&both);
	CPU_SET(0, &both);
	CPU_SET(1, &both);
	/* trial i's mode is i % 3, as the waker counts: the third mode last ran on CPU 0 */
	for (int i = 0;; i++) {
		if (pin(i % 3 == 2 ? 0 : 1))
			return NULL;
		spin_ns(50000);
		sched_setaffinity(0, sizeof(both), &both);
		__atomic_store_n(&w->ready, 1, __ATOMIC_RELEASE);
		if (read(w->to_wakee[0], &b, 1) != 1)
			return NULL;
		w->cpu = sched_getcpu();
		if (__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE))
			return NULL;
		if (write(w->to_waker[1], &b, 1) != 1)
			return NULL;
	}
}

/*
 * How many tasks are runnable on the whole machine right now (/proc/loadavg's fourth field,
 * counting the reader): 1 says CPU 1 is idle while the waker runs. -1 if unreadable.
 */
static int runnable_now(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	int r = -1, all;
	float l1, l5, l15;

	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%f %f %f %d/%d", &l1, &l5, &l15, &r, &all) != 5)
		return -1;
	return r;
}

int sl_calibrate_waker_placement(struct sl_calibration *c, char *err, size_t errlen)
{
	struct waker_ctx w;
	cpu_set_t orig;
	pthread_t th;
	int on0[3] = {0, 0, 0}, n[3] = {0, 0, 0}, la;
	char b = 'x';

	memset(&w, 0, sizeof(w));
	if (sched_getaffinity(0, sizeof(orig), &orig)) {
		snprintf(err, errlen, "calibrate: sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	la = open("/proc/loadavg", O_RDONLY);
	if (la < 0 || pipe(w.to_wakee) || pipe(w.to_waker)) {
		snprintf(err, errlen, "calibrate: /proc/loadavg or pipe: %s", strerror(errno));
		return -1;
	}
	if (pin(0) || pthread_create(&th, NULL, wakee_main, &w)) {
		snprintf(err, errlen, "calibrate: pin or pthread_create failed");
		return -1;
	}
	/* 3 x PLACEMENT_TRIES trials, the modes in turn, then one that stops the wakee */
	for (int i = 0; i <= 3 * PLACEMENT_TRIES; i++) {
		int mode = i % 3, quiet;

		while (!__atomic_load_n(&w.ready, __ATOMIC_ACQUIRE))
			;
		/* the wakee is in its read by now, and CPU 1 halted unless someone else runs there
		 */
		spin_ns(300000);
		__atomic_store_n(&w.ready, 0, __ATOMIC_RELAXED);
		quiet = runnable_now(la) == 1;
		if (i == 3 * PLACEMENT_TRIES)
			__atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
		if (write(w.to_wakee[1], &b, 1) != 1 || i == 3 * PLACEMENT_TRIES)
			break;
		if (mode == 1)
			spin_ns(200000);
		if (read(w.to_waker[0], &b, 1) != 1)
			break;
		n[mode] += quiet;
		on0[mode] += quiet && w.cpu == 0;
	}
	pthread_join(th, NULL);
	sched_setaffinity(0, sizeof(orig), &orig);
	close(la);
	close(w.to_wakee[0]);
	close(w.to_wakee[1]);
	close(w.to_waker[0]);
	close(w.to_waker[1]);
	for (int m = 0; m < 3; m++) {
		c->waker_quiet[m] = (u64)n[m];
		c->waker_on[m] = n[m] ? (u64)on0[m] * 1000 / (u64)n[m] : 0;
	}
	return 0;
}

/*
 * 5c. The same wake-ups as they come in a free ping-pong (perf bench sched pipe's pattern):
 *     two threads on no pin pass a byte PINGPONG_TRIPS times; each wakee notes its CPU before
 *     blocking (its previous CPU) and after waking, the waker its own before the write, with
 *     the /proc/loadavg check of 5b. Per class: with the wakee's previous CPU the waker's, how
 *     many of 1000 stayed there (mainline: about 0, the idle CPU; written as the param
 *     vcpu_pack_waker with WAKER_MIN_QUIET such hand-offs or more); with it the other (idle)
 *     CPU, how many ran on the waker's instead (5b's question without the pins, printed).
 */
#define PINGPONG_TRIPS 20000
#define IPI_MIN_ROUNDS 100 /* quiet rounds of each kind for wake_ipi */

/*
 * wake_ipi from the two medians: a round whose write woke the other thread on the other CPU
 * against one that woke it on this CPU. Both rounds hold one write, one read and a switch out
 * and in of the writer; what the remote one adds is the wake-up's IPI. 0 (not measured) with
 * fewer than IPI_MIN_ROUNDS of either kind, or no difference.
 */
u64 sl_calibrate_wake_ipi(u64 remote_ns, int nremote, u64 local_ns, int nlocal)
{
	if (nremote < IPI_MIN_ROUNDS || nlocal < IPI_MIN_ROUNDS || remote_ns <= local_ns)
		return 0;
	return remote_ns - local_ns;
}

struct free_pp {
	int a2b[2], b2a[2];
	int *prev, *woke; /* the wakee's CPU before each read, and after it */
};

static void *free_pong(void *arg)
{
	struct free_pp *f = arg;
	char b;

	for (int i = 0; i < PINGPONG_TRIPS; i++) {
		f->prev[i] = sched_getcpu();
		if (read(f->a2b[0], &b, 1) != 1)
			return NULL;
		f->woke[i] = sched_getcpu();
		if (write(f->b2a[1], &b, 1) != 1)
			return NULL;
	}
	return NULL;
}

int sl_calibrate_free_pingpong(struct sl_calibration *c, char *err, size_t errlen)
{
	struct free_pp f;
	pthread_t th;
	int *mine = calloc(PINGPONG_TRIPS, sizeof(int)),
	    *quiet = calloc(PINGPONG_TRIPS, sizeof(int));
	u64 *round = calloc(PINGPONG_TRIPS, sizeof(u64)),
	    *remote = calloc(PINGPONG_TRIPS, sizeof(u64)),
	    *local = calloc(PINGPONG_TRIPS, sizeof(u64));
	int nremote = 0, nlocal = 0;
	int la = open("/proc/loadavg", O_RDONLY), i, rc = -1;
	u64 n[2] = {0, 0}, on[2] = {0, 0};
	char b = 'x';

	f.prev = calloc(PINGPONG_TRIPS, sizeof(int));
	f.woke = calloc(PINGPONG_TRIPS, sizeof(int));
	if (!mine || !quiet || !round || !remote || !local || !f.prev || !f.woke || la < 0 ||
	    pipe(f.a2b) || pipe(f.b2a) || pthread_create(&th, NULL, free_pong, &f)) {
		snprintf(err, errlen, "calibrate: the free ping-pong could not start");
		goto out;
	}
	for (i = 0; i < PINGPONG_TRIPS; i++) {
		quiet[i] = runnable_now(la) == 1;
		mine[i] = sched_getcpu();
		/* the round in this thread's own CPU time: its write's wake-up (and, when the
		 * other thread woke on the other CPU, the IPI that took) and its read */
		u64 t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);

		if (write(f.a2b[1], &b, 1) != 1 || read(f.b2a[0], &b, 1) != 1)
			break;
		round[i] = clock_ns(CLOCK_THREAD_CPUTIME_ID) - t0;
	}
	pthread_join(th, NULL);
	close(f.a2b[0]);
	close(f.a2b[1]);
	close(f.b2a[0]);
	close(f.b2a[1]);
	for (int k = 0; k < i; k++) {
		int shared = f.prev[k] == mine[k];

		if (!quiet[k])
			continue;
		n[shared]++;
		on[shared] += f.woke[k] == mine[k];
		if (f.woke[k] == mine[k])
			local[nlocal++] = round[k];
		else
			remote[nremote++] = round[k];
	}
	c->pp_quiet_shared = n[1];
	c->pp_stayed = n[1] ? on[1] * 1000 / n[1] : 0;
	c->pp_quiet_apart = n[0];
	c->pp_joined = n[0] ? on[0] * 1000 / n[0] : 0;
	/* too few quiet hand-offs: not measured here (other people's work on the other CPU) */
	c->placement_waker = n[1] >= WAKER_MIN_QUIET ? c->pp_stayed : 0;
	c->placement_join = n[0] >= WAKER_MIN_QUIET ? c->pp_joined : 0;
	c->pp_rounds_remote = (u64)nremote;
	c->pp_rounds_local = (u64)nlocal;
	c->pp_round_remote_ns = nremote ? median(remote, nremote) : 0;
	c->pp_round_local_ns = nlocal ? median(local, nlocal) : 0;
	c->wake_ipi_ns =
		sl_calibrate_wake_ipi(c->pp_round_remote_ns, nremote, c->pp_round_local_ns, nlocal);
	rc = 0;
out:
	if (la >= 0)
		close(la);
	free(mine);
	free(quiet);
	free(round);
	free(remote);
	free(local);
	free(f.prev);
	free(f.woke);
	return rc;
}

/*
 * 6. The wake-up path of an idle CPU, in a trace (root, tracefs): rt-app runs two threads for
 *    2 s, "slping" on CPU 0 (a 3 ms timer, a 50 us run, then it resumes "slpong") and "slpong"
 *    on CPU 1 (suspended until resumed, then a 50 us run). slping is woken by its own CPU's
 *    timer interrupt (local), slpong by CPU 0 on its halted CPU 1 (remote). From the trace,
 *    sched_waking to the sched_switch that runs it (the figure validate compares), per thread:
 *    the median and half the 16th-84th percentile spread. The remote figure, less the IPI and
 *    the exit latency the model already charges, is param wake_remote.
 */
static const char wake_json[] =
	"{\n\t\"tasks\" : {\n"
	"\t\t\"slping\" : { \"cpus\" : [0], \"loop\" : -1, \"run\" : 50, \"resume\" : "
	"\"slpong\",\n\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : 3000 } },\n"
	"\t\t\"slpong\" : { \"cpus\" : [1], \"loop\" : -1, \"suspend\" : \"slpong\", "
	"\"run\" : 50 }\n\t},\n"
	"\t\"global\" : { \"duration\" : 2, \"calibration\" : 10, \"logdir\" : \"./\", "
	"\"log_basename\" : \"wake\" }\n}\n";

static void spread(const struct sl_hist *h, u64 *p50, u64 *sd)
{
	u64 lo = sl_hist_percentile(h, 16), hi = sl_hist_percentile(h, 84);

	*p50 = sl_hist_percentile(h, 50);
	*sd = (hi - lo) / 2;
}

int sl_calibrate_wake_path(struct sl_calibration *c, char *err, size_t errlen)
{
	char dir[] = "/tmp/schedlab-calibrate-XXXXXX", path[96], trace[96], old[PATH_MAX];
	char *cmd[] = {"rt-app", "wake.json", NULL};
	const char *names[] = {"slping", "slpong"};
	struct sl_vtrace *v;
	FILE *f;
	int rc;

	if (!mkdtemp(dir)) {
		snprintf(err, errlen, "calibrate: mkdtemp: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/wake.json", dir);
	snprintf(trace, sizeof(trace), "%s/wake.trace", dir);
	f = fopen(path, "w");
	if (!f || fputs(wake_json, f) < 0 || fclose(f) || !getcwd(old, sizeof(old)) || chdir(dir)) {
		snprintf(err, errlen, "calibrate: %s: cannot write", path);
		return -1;
	}
	rc = sl_record(trace, NULL, 0, cmd, err, errlen);
	if (chdir(old) && !rc) {
		snprintf(err, errlen, "calibrate: cannot return to %s", old);
		rc = -1;
	}
	v = calloc(1, sizeof(*v));
	if (!rc && !v) {
		snprintf(err, errlen, "calibrate: out of memory");
	} else if (!rc && !sl_vtrace_read(v, trace, names, 2, 0, err, errlen)) {
		if (v->task[0].lat.count >= 100 && v->task[1].lat.count >= 100) {
			spread(&v->task[0].lat, &c->wake_local_p50, &c->wake_local_sd);
			spread(&v->task[1].lat, &c->wake_remote_p50, &c->wake_remote_sd);
			c->wake_measured = true;
		} else {
			snprintf(err, errlen,
				 "calibrate: too few wake-ups of slping/slpong traced");
		}
	}
	if (v)
		sl_vtrace_free(v); /* also after a failed read: its histograms so far */
	free(v);
	/* the file, the trace and rt-app's logs */
	static const char *const made[] = {"wake.json", "wake.trace", "wake-slping-0.log",
					   "wake-slpong-1.log"};

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		unlink(path);
	}
	rmdir(dir);
	return c->wake_measured ? 0 : -1;
}

/* a record of the background trace to the split (validate/bg_split.h) */
static void bg_record(const struct sl_trace_record *r, void *split)
{
	sl_bg_acc_record(split, r);
}

/*
 * 7. The machine's own background (kworkers, RCU, timers, the host): a trace of `sleep 2`,
 *    nothing else of ours running. Per CPU, over the window of the sleep: its idle entries
 *    (cpu_idle) per second and the time it was not idle per entry. Only an idle machine shows
 *    its background: when a CPU was idle less than 90% of the window (other people's work), the
 *    figure is not taken (background_* not written) and err says so.
 */
int sl_calibrate_background(struct sl_calibration *c, char *err, size_t errlen)
{
	char trace[] = "/tmp/schedlab-background-XXXXXX";
	char *cmd[] = {"sleep", "2", NULL};
	const char *names[] = {"sleep"};
	/* the tracer and the sleep are ours, the rest the machine's */
	const char *ours[] = {"sleep", "schedlab"};
	u64 entries = 0, busy = 0, win;
	struct sl_vtrace *v;
	struct sl_bg_acc split;
	int fd = mkstemp(trace), rc = -1;

	if (fd < 0) {
		snprintf(err, errlen, "calibrate: mkstemp: %s", strerror(errno));
		return -1;
	}
	close(fd);
	v = calloc(1, sizeof(*v));
	/* the split (validate/bg_split.h) from the same read of the trace; out of memory, it
	 * says so when finished */
	(void)sl_bg_acc_init(&split, ours, 2);
	if (!v) {
		snprintf(err, errlen, "calibrate: out of memory");
	} else if (!sl_record(trace, NULL, 0, cmd, err, errlen) &&
		   !sl_vtrace_read_each(v, trace, names, 1, 0, bg_record, &split, err, errlen)) {
		win = v->end > v->start ? v->end - v->start : 0;
		rc = 0;
		for (int i = 0; i < v->ncpu && win; i++) {
			u64 idle = 0, n = 0;

			for (int k = 0; k < v->nstates; k++) {
				idle += v->cpu[i].time[k];
				n += v->cpu[i].entries[k];
			}
			if (idle * 10 < win * 9) {
				snprintf(err, errlen,
					 "calibrate: CPU %d was idle %llu%% of %llu ms: the "
					 "machine is "
					 "busy, its background cannot be measured",
					 i, (unsigned long long)(idle * 100 / win),
					 (unsigned long long)(win / 1000000));
				rc = -1;
				break;
			}
			entries += n;
			busy += win - idle;
		}
		if (!win || !v->ncpu) {
			snprintf(err, errlen, "calibrate: the background trace has no window");
			rc = -1;
		}
		if (!rc && entries) {
			char e2[256];

			c->bg_rate = entries * 1000000000ULL / win / (u64)v->ncpu;
			c->bg_run_ns = busy / entries;
			c->bg_measured = true;
			c->bg_split_measured =
				!sl_bg_acc_finish(&split, &c->bg_split, trace, e2, sizeof(e2));
		}
	}
	sl_bg_acc_free(&split);
	if (v)
		sl_vtrace_free(v);
	free(v);
	unlink(trace);
	return c->bg_measured ? 0 : -1;
}

void sl_calibrate_derive(struct sl_calibration *c, u64 ipi_ns)
{
	c->ctx_switch_ns = c->same_cpu_ns;
	u64 extra = c->cross_cpu_ns > c->same_cpu_ns ? c->cross_cpu_ns - c->same_cpu_ns : 0;

	c->exit_latency_ns = extra > ipi_ns ? extra - ipi_ns : 0;
	u64 known = c->exit_latency_ns + c->ctx_switch_ns;

	c->timer_slack_ns = c->oversleep_ns > known ? c->oversleep_ns - known : 0;
	/* the remote wake-up beyond what the model charges already: the IPI and the exit */
	known = ipi_ns + c->exit_latency_ns;
	c->wake_remote_ns = c->wake_remote_p50 > known ? c->wake_remote_p50 - known : 0;
}

/* one `param NAME=VALUEUNIT` line of the machine.conf calibrate writes (14 at most: below
 * SL_MC_MAX_PARAMS) */
static void conf_param(struct sl_machine_conf *mc, const char *name, u64 v, const char *unit)
{
	snprintf(mc->param[mc->nparams++], sizeof(mc->param[0]), "%s=%llu%s", name,
		 (unsigned long long)v, unit);
}

/* the switch, timer and cache costs: rows 1, 1d, 3, 1b and 1c */
static void switch_params(struct sl_machine_conf *mc, const struct sl_calibration *c)
{
	conf_param(mc, "ctx_switch", c->ctx_switch_ns, "ns");
	if (c->bare_switch_ns)
		conf_param(mc, "ctx_switch_bare", c->bare_switch_ns, "ns");
	conf_param(mc, "timer_slack", c->timer_slack_ns, "ns");
	if (c->cache_measured) {
		conf_param(mc, "cache_refill", c->cache_refill_ns, "ns");
		conf_param(mc, sl_cal_migrate_param[c->migrate_level], c->migrate_ns, "ns");
	}
}

u64 sl_calibrate_model_ipi(void)
{
	struct sl_params p;

	sl_params_default(&p);
	return p.ipi_ns;
}

int sl_calibrate_for_trace(struct sl_machine_conf *mc, struct sl_calibration *c, char *err,
			   size_t errlen)
{
	if (sl_machine_conf_live(mc, err, errlen) ||
	    sl_calibrate_measure(c, SL_CAL_TRACE_BATCHES, err, errlen))
		return -1;
	sl_calibrate_derive(c, sl_calibrate_model_ipi());
	mc->idle_profile[0] = 0; /* the costs are what a recording's replay reads */
	mc->ndisable = 0;
	mc->nparams = 0;
	switch_params(mc, c);
	return 0;
}

int sl_calibrate_write(const char *dir, const struct sl_calibration *c, char *err, size_t errlen)
{
	struct sl_machine_conf mc;
	struct sl_outfile o;
	char path[PATH_MAX + 32];
	/* the exit latency in microseconds with the profile format's three decimals */
	unsigned long long lat_ns = (unsigned long long)c->exit_latency_ns;

	if (sl_machine_conf_live(&mc, err, errlen))
		return -1;
	snprintf(path, sizeof(path), "%s/machine.profile", dir);
	if (sl_outfile_open(&o, path, err, errlen))
		return -1;
	fprintf(o.f,
		"# schedlab calibrate: this machine's idle states with the measured exit latency\n"
		"# of a halted vCPU (cross-CPU hand-off %llu ns - same-CPU %llu ns - IPI); a 1 ms\n"
		"# sleep woke %llu ns late.\n"
		"# Power as vm-haltpoll's estimates (10 W running or polling, 2 W halted).\n"
		"name %s-calibrated\nbusy_power_mw 10000\n"
		"state POLL 0 0 10000 poll time_valid\n"
		"state HLT %llu.%03llu %llu.%03llu 2000 time_valid\n",
		(unsigned long long)c->cross_cpu_ns, (unsigned long long)c->same_cpu_ns,
		(unsigned long long)c->oversleep_ns,
		strcmp(mc.cpuidle_driver, "none") ? mc.cpuidle_driver : "default-idle",
		lat_ns / 1000, lat_ns % 1000, lat_ns / 1000, lat_ns % 1000);
	if (sl_outfile_commit(&o, err, errlen))
		return -1;
	snprintf(mc.idle_profile, sizeof(mc.idle_profile), "machine.profile");
	mc.ndisable = 0;
	mc.nparams = 0;
	switch_params(&mc, c);
	if (c->wake_measured) {
		conf_param(&mc, "wake_local", c->wake_local_p50, "ns");
		conf_param(&mc, "wake_local_sd", c->wake_local_sd, "ns");
		conf_param(&mc, "wake_remote", c->wake_remote_ns, "ns");
		conf_param(&mc, "wake_remote_sd", c->wake_remote_sd, "ns");
	}
	if (c->bg_measured) {
		mc.bg.rate = (unsigned long)c->bg_rate;
		mc.bg.run_ns = c->bg_run_ns;
	}
	/* mainline's answer (about 0 of 1000) is the model's default: written only when not */
	if (c->placement_busy >= 10)
		conf_param(&mc, "vcpu_pack", c->placement_busy, "");
	if (c->placement_waker >= 10)
		conf_param(&mc, "vcpu_pack_waker", c->placement_waker, "");
	if (c->placement_join >= 10)
		conf_param(&mc, "vcpu_pack_other", c->placement_join, "");
	/*
	 * wake_ipi is printed, not written: on the target the rounds' thread CPU clock gives
	 * 21-26 us where the same kind of burst, timed by its sched_switch lines in real traces,
	 * gives 10-14 us (tools/wake_ipi.py; docs/validate.md), and the model is compared with
	 * traced runs. The machine files take the traced figure.
	 */
	if (c->rtapp_measured) {
		conf_param(&mc, "rtapp_calib", c->rtapp_calib_ns, "ns");
		conf_param(&mc, "rtapp_kloop", c->rtapp_kloop_ns, "ns");
		conf_param(&mc, "rtapp_kloop_sd", c->rtapp_kloop_sd_ns, "ns");
		conf_param(&mc, "rtapp_cold", c->rtapp_cold_ns, "ns");
	}
	if (!strcmp(mc.cpuidle_driver, "none"))
		snprintf(mc.disable[mc.ndisable++], sizeof(mc.disable[0]), "POLL");
	snprintf(path, sizeof(path), "%s/machine.conf", dir);
	return sl_machine_conf_write(path, &mc, err, errlen);
}
