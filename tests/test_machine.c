/*
 * The machine under the scheduler: HRTICK ends slices between ticks, mutex owners' spinners
 * (OWNER_SPIN) do not sleep, a task in I/O counts in nr_iowait of its CPU until it runs again,
 * SCHED_IDLE weighs 3.
 */
#include "helpers.h"
#include "experiment/run.h"
#include "machine/sleep_timers.h"
#include "machine/vcpu_pack.h"
#include "machine/vcpu_util.h"
#include "sched/eevdf/eevdf.h"

#include <math.h>
#include <unistd.h>

struct probe {
	struct sl_sim *sim;
	u64 switch_times[64];
	int nswitch;
	int iowait_seen, iowait_bad;
	int io_pid;
	int first_cpu; /* the CPU of the first switch */
};

static void probe_fn(void *ctx, const struct sl_event *ev)
{
	struct probe *p = ctx;

	if (ev->type != SL_EV_SWITCH)
		return;
	if (!p->nswitch)
		p->first_cpu = ev->cpu;
	if (p->nswitch < 64)
		p->switch_times[p->nswitch++] = ev->time;
	/* a job switching out in D: its CPU now counts it in nr_iowait */
	if (ev->prev_state == 'D') {
		p->iowait_seen++;
		if (sl_mcpu(p->sim, ev->cpu)->nr_iowait < 1)
			p->iowait_bad++;
	}
}

/* A simulation of one workload; feats and param (--param NAME=VALUE) may be NULL. */
static struct sl_sim *build_p(struct sl_config *cfg, const char *cpus, const char *wl,
			      const char *feats, const char *duration, const char *param)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.duration = duration;
	a.workloads[a.nworkloads++] = wl;
	if (feats)
		a.features[a.nfeatures++] = feats;
	if (param)
		a.params[a.nparams++] = param;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

static struct sl_sim *build(struct sl_config *cfg, const char *cpus, const char *wl,
			    const char *feats, const char *duration)
{
	return build_p(cfg, cpus, wl, feats, duration, NULL);
}

/*
 * The simulation the tests of the wake-up rules set by hand: one hog on 2 CPUs for 1 ms, with
 * the parameters params (NAME=VALUE, up to a NULL), not run.
 */
static struct sl_sim *build_rules(struct sl_config *cfg, const char *const *params)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "2";
	a.duration = "1ms";
	a.workloads[a.nworkloads++] = "hog:tasks=1";
	for (; *params; params++)
		a.params[a.nparams++] = *params;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

/* CPU 0 runs waker with one more task queued, CPU 1 runs other alone */
static void both_busy(struct sl_sim *sim, struct sl_task *waker, struct sl_task *other)
{
	sim->cpus[0].curr = waker;
	sim->cpus[0].nr_running = 2;
	sim->cpus[1].curr = other;
	sim->cpus[1].nr_running = 1;
}

/* waker running on CPU 0, other on CPU 1 (both_busy), wakee asleep, last on CPU cpu: all zeroed */
static void three_busy(struct sl_sim *sim, struct sl_task *waker, struct sl_task *other,
		       struct sl_task *wakee, int cpu)
{
	memset(waker, 0, sizeof(*waker));
	memset(other, 0, sizeof(*other));
	memset(wakee, 0, sizeof(*wakee));
	wakee->cpu = cpu;
	both_busy(sim, waker, other);
}

/* the simulation freed, once CPUs 0 and 1 no longer name the tasks a test set there by hand */
static void free_hand_set(struct sl_sim *sim, struct sl_config *cfg)
{
	for (int c = 0; c < 2; c++) {
		sim->cpus[c].curr = NULL;
		sim->cpus[c].nr_running = 0;
	}
	sl_sim_free(sim);
	sl_config_free(cfg);
}

/* Two hogs on one CPU: without HRTICK the 9995122 ns slice ends at the 10th tick (a multiple
 * of 1 ms, plus the first task's 2 us switch cost); with HRTICK it ends when the slice has
 * run, between ticks. */
static void test_hrtick(void **state)
{
	for (int hr = 0; hr < 2; hr++) {
		struct sl_config cfg;
		struct sl_sim *sim = build(&cfg, "1", "hog:tasks=2", hr ? "HRTICK" : NULL, "100ms");
		struct probe p = {.sim = sim};

		(void)state;
		sl_sim_subscribe(sim, probe_fn, &p);
		assert_int_equal(sl_sim_run(sim), 0);
		assert_true(p.nswitch >= 5);
		/* switch 0 is idle -> first hog at 0; switch 1 ends its first slice */
		u64 t1 = p.switch_times[1];

		if (hr) {
			/* the hrtick fires when sum_exec - prev_sum reaches the slice: each
			 * slice is 9995122 ns of runtime, the 2 us switch cost included */
			for (int k = 1; k < 5; k++)
				assert_int_equal(p.switch_times[k], (u64)k * 9995122);
		} else {
			assert_int_equal(t1, 10 * NSEC_PER_MSEC);
			assert_int_equal(p.switch_times[2], 20 * NSEC_PER_MSEC);
		}
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

static u64 switches(const char *wl, const char *feats, const char *cpus)
{
	struct sl_config cfg;
	struct sl_run r;
	struct sl_args a;
	char err[2048];
	u64 n;

	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.workloads[a.nworkloads++] = wl;
	if (feats)
		a.features[a.nfeatures++] = feats;
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	n = r.stats.switches;
	sl_run_free(&r);
	sl_config_free(&cfg);
	return n;
}

/* 8 tasks contending on 4 CPUs: with OWNER_SPIN a contender spins while the owner runs and
 * hardly ever sleeps; without it every contended lock is a sleep and a wake-up. */
static void test_owner_spin(void **state)
{
	u64 spin = switches("mutex:tasks=8,count=2000", NULL, "4");
	u64 sleep = switches("mutex:tasks=8,count=2000", "NO_OWNER_SPIN", "4");

	(void)state;
	assert_true(sleep > 20 * spin);
	/* on one CPU the owner is never running elsewhere: nobody spins, both are the same */
	assert_int_equal(switches("mutex:tasks=3,count=500", NULL, "1"),
			 switches("mutex:tasks=3,count=500", "NO_OWNER_SPIN", "1"));
}

static void test_iowait(void **state)
{
	struct sl_config cfg;
	struct sl_sim *sim = build(&cfg, "2", "make:jobs=2,count=20", NULL, NULL);
	struct probe p = {.sim = sim};

	(void)state;
	sl_sim_subscribe(sim, probe_fn, &p);
	assert_int_equal(sl_sim_run(sim), 0);
	assert_int_equal(p.iowait_seen, 20); /* one read per job */
	assert_int_equal(p.iowait_bad, 0);
	/* every waiter ran again: nothing is left counted */
	for (int c = 0; c < sim->ncpu; c++)
		assert_int_equal(sl_mcpu(sim, c)->nr_iowait, 0);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

static void test_sched_idle_policy(void **state)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.duration = "2s";
	a.workloads[a.nworkloads++] = "hog";
	a.workloads[a.nworkloads++] = "hog:policy=idle";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	/* weight 3 against 1024: 0.29% of the CPU, rounded up by the tick to a few 0.1% */
	double idle_share = (double)r.stats.pid[2].cpu_ns / (double)r.sim->now;

	assert_true(idle_share < 0.01);
	assert_true(idle_share > 0.0);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static double share_of(const char *wl1, const char *wl2, const char *sysctl, const char *param,
		       int pid)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.duration = "1s";
	a.workloads[a.nworkloads++] = wl1;
	a.workloads[a.nworkloads++] = wl2;
	if (sysctl)
		a.sysctls[a.nsysctls++] = sysctl;
	if (param)
		a.params[a.nparams++] = param;
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	double s = (double)r.stats.pid[pid].cpu_ns / (double)r.sim->now;

	sl_run_free(&r);
	sl_config_free(&cfg);
	return s;
}

/* sched_yield without sched_compat_yield only updates the runtime, so a yielder still gets its
 * half; with it the yielder goes behind the rightmost task every time and gets almost nothing. */
static void test_compat_yield(void **state)
{
	(void)state;
	double plain = share_of("hog:yield=100us", "hog", NULL, NULL, 1);
	double compat = share_of("hog:yield=100us", "hog", "kernel.sched_compat_yield=1", NULL, 1);

	assert_true(plain > 0.45 && plain < 0.55);
	assert_true(compat < 0.05);
}

/* HZ=250: the tick is 4 ms, so two hogs' 9995122 ns slices end at the 3rd tick (12 ms) and
 * each gets half all the same. */
static void test_hz(void **state)
{
	struct sl_config cfg;

	(void)state;
	struct sl_sim *sim = build_p(&cfg, "1", "hog:tasks=2", NULL, "100ms", "hz=250");
	struct probe p = {.sim = sim};

	sl_sim_subscribe(sim, probe_fn, &p);
	assert_int_equal(sl_sim_run(sim), 0);
	assert_int_equal(p.switch_times[1], 12 * NSEC_PER_MSEC);
	assert_int_equal(p.switch_times[2], 24 * NSEC_PER_MSEC);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	assert_true(fabs(share_of("hog", "hog", NULL, "hz=250", 1) - 0.5) < 0.02);
}

/*
 * timer_slack: a sleep asked to end at t ends at t + slack. One task alone on a CPU, run 1 ms
 * then sleep to the next 10 ms boundary: switch 0 runs it at 0, switch 1 is its sleep, switch 2
 * its return, at 10 ms without slack and exactly 50 us later with timer_slack=50us; as a
 * SCHED_FIFO task it gets no slack (hrtimer_nanosleep zeroes it for rt tasks): 10 ms again.
 */
static void test_timer_slack(void **state)
{
	u64 back[3];

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct sl_config cfg;
		struct sl_sim *sim =
			build_p(&cfg, "1",
				k == 2 ? "periodic:period=10ms,run=1ms,policy=fifo,rtprio=10"
				       : "periodic:period=10ms,run=1ms",
				NULL, "15ms", k ? "timer_slack=50us" : NULL);
		struct probe p = {.sim = sim};

		sl_sim_subscribe(sim, probe_fn, &p);
		assert_int_equal(sl_sim_run(sim), 0);
		assert_true(p.nswitch >= 3);
		back[k] = p.switch_times[2];
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(back[0], 10 * NSEC_PER_MSEC);
	assert_int_equal(back[1], back[0] + 50000);
	assert_int_equal(back[2], back[0]);
}

/* a placement rule of vcpu_pack.c: the rule's CPU for p woken by waker on from */
typedef int (*pack_rule_fn)(struct sl_sim *sim, const struct sl_task *p,
			    const struct sl_task *waker, int from, int cpu);

/* of 10000 wake-ups of p by waker on CPU from that the policy sends to cpu, how many rule
 * sends to CPU to (each a draw of the scheduler's generator where the rule's situation holds) */
static int times_to(pack_rule_fn rule, struct sl_sim *sim, const struct sl_task *p,
		    const struct sl_task *waker, int from, int cpu, int to)
{
	int n = 0;

	for (int i = 0; i < 10000; i++)
		n += rule(sim, p, waker, from, cpu) == to;
	return n;
}

/*
 * A rule of the waker's CPU, set by the parameter name: a wake-up by the task running on CPU 0
 * (alone there when the rule asks it: alone), of a task that last ran on CPU last, that the
 * policy sends to the idle CPU 1 stays on CPU 0 name times in 1000. By hand: 0 never
 * (mainline), 1000 always; 500 in 10000 draws: a binomial of mean 5000 and standard deviation
 * sqrt(10000 x 0.5 x 0.5) = 50, so within 5000 +- 250 (5 sd). Outside that situation the
 * policy's choice stands: no waker (a timer or an interrupt), the wakee last on the other CPU
 * (1 - last), the waker not running on its CPU (or, alone, not alone: another task queued),
 * the chosen CPU busy or the waker's own.
 */
static void check_pack_rule(pack_rule_fn rule, const char *name, int last, bool alone)
{
	int kept[3];

	for (int k = 0; k < 3; k++) {
		struct sl_config cfg;
		char set[64];

		snprintf(set, sizeof(set), "%s=%d", name, k == 1 ? 1000 : 500);
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", k ? set : NULL);
		struct sl_task waker, other, wakee;

		memset(&waker, 0, sizeof(waker));
		memset(&other, 0, sizeof(other));
		memset(&wakee, 0, sizeof(wakee));
		wakee.cpu = last;
		sim->cpus[0].curr = &waker;
		sim->cpus[0].nr_running = 1;
		kept[k] = times_to(rule, sim, &wakee, &waker, 0, 1, 0);
		assert_int_equal(rule(sim, &wakee, NULL, 0, 1), 1);
		wakee.cpu = 1 - last;
		assert_int_equal(rule(sim, &wakee, &waker, 0, 1), 1);
		wakee.cpu = last;
		assert_int_equal(rule(sim, &wakee, &waker, 0, 0), 0);
		assert_int_equal(rule(sim, &wakee, &waker, -1, 1), 1);
		if (alone) {
			sim->cpus[0].nr_running = 2;
			assert_int_equal(rule(sim, &wakee, &waker, 0, 1), 1);
			sim->cpus[0].nr_running = 1;
		}
		sim->cpus[0].curr = &other;
		assert_int_equal(rule(sim, &wakee, &waker, 0, 1), 1);
		sim->cpus[0].curr = &waker;
		sim->cpus[1].curr = &other;
		assert_int_equal(rule(sim, &wakee, &waker, 0, 1), 1);
		sim->cpus[1].curr = NULL;
		sim->cpus[0].curr = NULL;
		sim->cpus[0].nr_running = 0;
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(kept[0], 0);
	assert_int_equal(kept[1], 10000);
	assert_true(kept[2] >= 4750 && kept[2] <= 5250);
}

/* vcpu_pack_waker: the wakee last ran on the waker's CPU 0 (whether the waker is alone or not) */
static void test_vcpu_pack_waker(void **state)
{
	(void)state;
	check_pack_rule(sl_vcpu_pack_waker, "vcpu_pack_waker", 0, false);
}

/* vcpu_pack_other: the wakee last ran on CPU 1, and the waker is the one task runnable on CPU 0 */
static void test_vcpu_pack_other(void **state)
{
	(void)state;
	check_pack_rule(sl_vcpu_pack_other, "vcpu_pack_other", 1, true);
}

/*
 * vcpu_pack_irq: an interrupt (no waker) on CPU 0, idle (no current task) with another woken
 * task queued, wakes a task last on CPU 0 that the policy sends to the idle CPU 1. By hand, of
 * 10000: unset 0 kept, 1000 all, 500 a binomial of sd 50 (5000 +- 250). Never kept: a waker
 * task, the wakee last on CPU 1, CPU 0 running a task, the policy's choice CPU 0 already or a
 * busy CPU 1, no interrupt CPU (-1).
 */
static void test_vcpu_pack_irq(void **state)
{
	int kept[3];

	(void)state;
	for (int k = 0; k < 3; k++) {
		static const char *const set[] = {NULL, "vcpu_pack_irq=1000", "vcpu_pack_irq=500"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task waker, queued, wakee;

		memset(&waker, 0, sizeof(waker));
		memset(&queued, 0, sizeof(queued));
		memset(&wakee, 0, sizeof(wakee));
		wakee.cpu = 0;
		sim->cpus[0].curr = NULL;
		sim->cpus[0].nr_running = 1; /* queued, not yet switched in */
		sim->cpus[1].curr = NULL;
		sim->cpus[1].nr_running = 0;
		kept[k] = times_to(sl_vcpu_pack_irq, sim, &wakee, NULL, 0, 1, 0);
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, &waker, 0, 1), 1);
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, -1, 1), 1);
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, 0, 0), 0);
		wakee.cpu = 1;
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, 0, 1), 1);
		wakee.cpu = 0;
		sim->cpus[0].curr = &queued;
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, 0, 1), 1);
		sim->cpus[0].curr = NULL;
		sim->cpus[1].curr = &waker;
		sim->cpus[1].nr_running = 1;
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, 0, 1), 1);
		sim->cpus[1].curr = NULL;
		sim->cpus[1].nr_running = 0;
		sim->cpus[0].nr_running = 0;
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(kept[0], 0);
	assert_int_equal(kept[1], 10000);
	assert_true(kept[2] >= 4750 && kept[2] <= 5250);
}

/*
 * vcpu_pack_irq_busy: an interrupt (no waker) on CPU 0 while CPU 0 runs another task wakes a
 * task last on CPU 0 that the policy sends to the idle CPU 1. By hand, of 10000: unset 0 kept,
 * 1000 all, 500 a binomial of sd 50 (5000 +- 250); vcpu_pack_irq=1000 alone keeps none (its
 * CPU must be idle). Never kept: a waker task, the wakee last on CPU 1, a busy CPU 1.
 */
static void test_vcpu_pack_irq_busy(void **state)
{
	int kept[4];

	(void)state;
	for (int k = 0; k < 4; k++) {
		static const char *const set[] = {NULL, "vcpu_pack_irq_busy=1000",
						  "vcpu_pack_irq_busy=500", "vcpu_pack_irq=1000"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task waker, running, wakee;

		memset(&waker, 0, sizeof(waker));
		memset(&running, 0, sizeof(running));
		memset(&wakee, 0, sizeof(wakee));
		wakee.cpu = 0;
		sim->cpus[0].curr = &running;
		sim->cpus[0].nr_running = 1;
		sim->cpus[1].curr = NULL;
		sim->cpus[1].nr_running = 0;
		kept[k] = times_to(sl_vcpu_pack_irq, sim, &wakee, NULL, 0, 1, 0);
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, &waker, 0, 1), 1);
		wakee.cpu = 1;
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, 0, 1), 1);
		wakee.cpu = 0;
		sim->cpus[1].curr = &waker;
		sim->cpus[1].nr_running = 1;
		assert_int_equal(sl_vcpu_pack_irq(sim, &wakee, NULL, 0, 1), 1);
		sim->cpus[1].curr = NULL;
		sim->cpus[1].nr_running = 0;
		sim->cpus[0].curr = NULL;
		sim->cpus[0].nr_running = 0;
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(kept[0], 0);
	assert_int_equal(kept[1], 10000);
	assert_true(kept[2] >= 4750 && kept[2] <= 5250);
	assert_int_equal(kept[3], 0);
}

/*
 * An interrupt's wake-up in test_vcpu_pack_irq_busy's situation, CPU 0 running a task at nice 0
 * (kprio 120) with nr_running runnable there (1: nothing waiting), CPU 1 idle, the wakee last on
 * CPU 0 at nice, sent by the policy to CPU 1; a and b the parameters set (NULL: unset, and
 * b ignored when a is). Of 10000, how many stay on CPU 0.
 */
static int irq_kept(const char *a, const char *b, int nr_running, int nice)
{
	struct sl_config cfg;
	struct sl_sim *sim = build_rules(&cfg, (const char *[]){a, b, NULL});
	struct sl_task running, wakee;
	int kept;

	memset(&running, 0, sizeof(running));
	memset(&wakee, 0, sizeof(wakee));
	wakee.cpu = 0;
	wakee.nice = nice;
	sim->cpus[0].curr = &running;
	sim->cpus[0].nr_running = nr_running;
	sim->cpus[1].curr = NULL;
	sim->cpus[1].nr_running = 0;
	kept = times_to(sl_vcpu_pack_irq, sim, &wakee, NULL, 0, 1, 0);
	free_hand_set(sim, &cfg);
	return kept;
}

/* vcpu_pack_irq_alone: irq_kept with alone and busy set, the wakee at nice 0 */
static int irq_alone_kept(const char *alone, const char *busy, int nr_running)
{
	return irq_kept(alone, busy, nr_running, 0);
}

/*
 * By hand: alone=1000 keeps all with nothing waiting and none with one waiting (busy unset: the
 * policy's); with busy=500 beside it, half of those with one waiting (a binomial of sd 50) and
 * still all alone; alone=500 alone, half of the alone ones. Unset, busy=1000's rate holds
 * whatever waits.
 */
static void test_vcpu_pack_irq_alone(void **state)
{
	int k;

	(void)state;
	assert_int_equal(irq_alone_kept("vcpu_pack_irq_alone=1000", NULL, 1), 10000);
	assert_int_equal(irq_alone_kept("vcpu_pack_irq_alone=1000", NULL, 2), 0);
	k = irq_alone_kept("vcpu_pack_irq_alone=1000", "vcpu_pack_irq_busy=500", 2);
	assert_true(k >= 4750 && k <= 5250);
	assert_int_equal(irq_alone_kept("vcpu_pack_irq_alone=1000", "vcpu_pack_irq_busy=500", 1),
			 10000);
	k = irq_alone_kept("vcpu_pack_irq_alone=500", NULL, 1);
	assert_true(k >= 4750 && k <= 5250);
	assert_int_equal(irq_alone_kept("vcpu_pack_irq_busy=1000", NULL, 1), 10000);
	assert_int_equal(irq_alone_kept("vcpu_pack_irq_busy=1000", NULL, 2), 10000);
}

/*
 * vcpu_pack_irq_move: 2 CPUs both running a task; an interrupt on CPU 0 wakes a task last on
 * CPU 0, which the policy keeps there (no idle CPU). CPU 0 has nr0 runnable, CPU 1 nr1 (their
 * running tasks included). Of 10000, how many go to CPU 1 with vcpu_pack_irq_move=rate.
 */
static int irq_move_moved(const char *rate, int nr0, int nr1, const struct sl_task *waker)
{
	struct sl_config cfg;
	struct sl_sim *sim = build_rules(&cfg, (const char *[]){rate, NULL});
	struct sl_task r0, r1, wakee;
	int moved;

	memset(&r0, 0, sizeof(r0));
	memset(&r1, 0, sizeof(r1));
	memset(&wakee, 0, sizeof(wakee));
	wakee.cpu = 0;
	sim->cpus[0].curr = &r0;
	sim->cpus[0].nr_running = nr0;
	sim->cpus[1].curr = &r1;
	sim->cpus[1].nr_running = nr1;
	moved = times_to(sl_vcpu_pack_irq_move, sim, &wakee, waker, 0, 0, 1);
	free_hand_set(sim, &cfg);
	return moved;
}

/*
 * By hand: with one waiting on CPU 0 and CPU 1's task alone, 1000 moves all, 500 half (a
 * binomial of sd 50); none with nothing waiting on CPU 0, with one waiting on CPU 1 too, for a
 * task's wake-up (a waker), or unset.
 */
static void test_vcpu_pack_irq_move(void **state)
{
	struct sl_task waker;
	int k;

	(void)state;
	memset(&waker, 0, sizeof(waker));
	assert_int_equal(irq_move_moved("vcpu_pack_irq_move=1000", 2, 1, NULL), 10000);
	k = irq_move_moved("vcpu_pack_irq_move=500", 2, 1, NULL);
	assert_true(k >= 4750 && k <= 5250);
	assert_int_equal(irq_move_moved("vcpu_pack_irq_move=1000", 1, 1, NULL), 0);
	assert_int_equal(irq_move_moved("vcpu_pack_irq_move=1000", 2, 2, NULL), 0);
	assert_int_equal(irq_move_moved("vcpu_pack_irq_move=1000", 2, 1, &waker), 0);
	assert_int_equal(irq_move_moved("vcpu_pack_irq_alone=1000", 2, 1, NULL), 0);
}

/*
 * vcpu_pack_irq_same: test_vcpu_pack_irq_busy's situation with vcpu_pack_irq_busy=1000 and
 * vcpu_pack_irq_same=same (NULL: unset); the running task at nice 0 (kprio 120), the wakee at
 * nice: of 10000 wake-ups, how many stay on CPU 0.
 */
static int irq_same_kept(const char *same, int nice)
{
	return irq_kept("vcpu_pack_irq_busy=1000", same, 1, nice);
}

/*
 * The wakee at nice 0, the running task's prio: vcpu_pack_irq_same's rate. By hand, of 10000:
 * unset, all kept by vcpu_pack_irq_busy's 1000; =500 a binomial of sd 50 (5000 +- 250); =1
 * about 10 (0-40).
 */
static void test_irq_same(void **state)
{
	int k;

	(void)state;
	assert_int_equal(irq_same_kept(NULL, 0), 10000);
	k = irq_same_kept("vcpu_pack_irq_same=500", 0);
	assert_true(k >= 4750 && k <= 5250);
	assert_true(irq_same_kept("vcpu_pack_irq_same=1", 0) <= 40);
}

/* The wakee at nice -5 (kprio 115), another prio: vcpu_pack_irq_busy's 1000 keeps all 10000 */
static void test_irq_other_prio(void **state)
{
	(void)state;
	assert_int_equal(irq_same_kept(NULL, -5), 10000);
	assert_int_equal(irq_same_kept("vcpu_pack_irq_same=500", -5), 10000);
	assert_int_equal(irq_same_kept("vcpu_pack_irq_same=1", -5), 10000);
}

/*
 * The waiting task of the vcpu_pack_wait tests: sim's one hog, spawned by a run, its state set
 * by hand (runnable on CPU 0, not running, at nice)
 */
static struct sl_task *waiting_hog(struct sl_sim *sim, int nice)
{
	struct sl_task *q;

	assert_int_equal(sl_sim_run(sim), 0);
	assert_int_equal(sl_machine_of(sim)->ntasks, 1);
	q = sl_sim_task(sim, 0);
	q->state = TS_RUNNING;
	q->cpu = 0;
	q->on_cpu = false;
	q->nice = nice;
	return q;
}

/*
 * vcpu_pack_wait: CPU 0 runs the waker, CPU 1 another task; the wakee (nice 0, prio 120) last
 * ran on CPU 0, where the waker wakes it and the policy leaves it, and the sim's one task (a
 * hog, after a 1 ms run) waits there (runnable, not running), nice 0 too: as important; at
 * nice -5 too. By hand, of 10000: unset
 * none moved, 1000 all to CPU 1, 500 a binomial of sd 50 (5000 +- 250). Never moved: the
 * waiting task of a lower priority (nice 1, prio 121), none waiting (it runs, or waits on
 * CPU 1), the other CPU idle, no waker, the waker on the other CPU, the policy's choice not
 * the wakee's previous CPU, an affinity to CPU 0 alone.
 */
static void test_vcpu_pack_wait(void **state)
{
	int moved[3];

	(void)state;
	for (int k = 0; k < 3; k++) {
		static const char *const set[] = {NULL, "vcpu_pack_wait=1000",
						  "vcpu_pack_wait=500"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task *q = waiting_hog(sim, 0);
		struct sl_task waker, other, wakee;

		three_busy(sim, &waker, &other, &wakee, 0);
		moved[k] = times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1);
		if (k == 1) {
			q->nice = 1;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->nice = -5;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 1);
			q->on_cpu = true;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->on_cpu = false;
			q->cpu = 1;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->cpu = 0;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, NULL, 0, 0), 0);
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 1, 0), 0);
			wakee.cpu = 1;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			wakee.cpu = 0;
			wakee.cpus_allowed = 1;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			wakee.cpus_allowed = 0;
			sim->cpus[1].curr = NULL;
			sim->cpus[1].nr_running = 0;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
		}
		free_hand_set(sim, &cfg);
	}
	assert_int_equal(moved[0], 0);
	assert_int_equal(moved[1], 10000);
	assert_true(moved[2] >= 4750 && moved[2] <= 5250);
}

/*
 * vcpu_pack_wait_lower: test_vcpu_pack_wait's setting with the waiting hog at nice 1 (prio 121,
 * lower than the wakee's 120). By hand, of 10000: unset none moved; vcpu_pack_wait=1000 alone
 * none (its rule is for one as important); vcpu_pack_wait_lower=1000 all to CPU 1;
 * vcpu_pack_wait_lower=300 a binomial of sd 45.8 (3000 +- 250). With the hog at nice 0 (as
 * important) vcpu_pack_wait_lower=1000 alone moves none (vcpu_pack_wait's case), and with the
 * hog running or on CPU 1 (none waiting on CPU 0) none either.
 */
static void test_pack_wait_lower(void **state)
{
	int moved[4];

	(void)state;
	for (int k = 0; k < 4; k++) {
		static const char *const set[] = {NULL, "vcpu_pack_wait=1000",
						  "vcpu_pack_wait_lower=1000",
						  "vcpu_pack_wait_lower=300"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task *q = waiting_hog(sim, 1);
		struct sl_task waker, other, wakee;

		three_busy(sim, &waker, &other, &wakee, 0);
		moved[k] = times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1);
		if (k == 2) {
			q->nice = 0;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->nice = 1;
			q->on_cpu = true;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->on_cpu = false;
			q->cpu = 1;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->cpu = 0;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 1);
		}
		free_hand_set(sim, &cfg);
	}
	assert_int_equal(moved[0], 0);
	assert_int_equal(moved[1], 0);
	assert_int_equal(moved[2], 10000);
	assert_true(moved[3] >= 2750 && moved[3] <= 3250);
}

/*
 * vcpu_pack_stay and vcpu_pack_join (docs/validate.md, step 27): the waker alone on CPU 0, the
 * other task alone on CPU 1, the wakee last on CPU 1, the policy's choice CPU 0; the hog (nice
 * 0) running, so nothing waits. By hand, of 10000 sent back to CPU 1: unset none;
 * vcpu_pack_stay=1000 all; vcpu_pack_stay=500 a binomial of sd 50 (5000 +- 250);
 * vcpu_pack_join=1000 none (its case has others waiting on CPU 1). With the hog waiting on
 * CPU 0 (the waker not alone) or on CPU 1 (stay's case no longer) stay keeps CPU 0; a choice
 * of CPU 1 already, an interrupt, a wakee last on CPU 0 or CPU 1 idle: unchanged. With
 * vcpu_pack_join=1000 and the hog waiting on CPU 1, a choice of CPU 1 goes to CPU 0 all 10000
 * times, unless the wakee may not run there. vcpu_pack_stay_queued=1000 (step 29): none with
 * nothing waiting on CPU 0; with the hog waiting there (the waker not alone) all 10000 go back
 * to CPU 1, a choice of CPU 1 stays, and a wakee that may not run on CPU 1 stays on CPU 0.
 */
static void test_pack_stay(void **state)
{
	int back[5];

	(void)state;
	for (int k = 0; k < 5; k++) {
		static const char *const set[] = {NULL, "vcpu_pack_stay=1000", "vcpu_pack_stay=500",
						  "vcpu_pack_join=1000",
						  "vcpu_pack_stay_queued=1000"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task *q = waiting_hog(sim, 0);
		struct sl_task waker, other, wakee;

		three_busy(sim, &waker, &other, &wakee, 1);
		sim->cpus[0].nr_running = 1;
		q->on_cpu = true;
		back[k] = times_to(sl_vcpu_pack_stay, sim, &wakee, &waker, 0, 0, 1);
		if (k == 1) {
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 1), 1);
			q->on_cpu = false;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 0);
			q->cpu = 1;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 0);
			q->on_cpu = true;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 1);
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, NULL, 0, 0), 0);
			wakee.cpu = 0;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 0);
			wakee.cpu = 1;
			sim->cpus[1].curr = NULL;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 0);
		}
		if (k == 3) {
			q->on_cpu = false;
			q->cpu = 1;
			assert_int_equal(times_to(sl_vcpu_pack_stay, sim, &wakee, &waker, 0, 1, 0),
					 10000);
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 0);
			wakee.cpus_allowed = 2;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 1), 1);
		}
		if (k == 4) {
			q->on_cpu = false;
			assert_int_equal(times_to(sl_vcpu_pack_stay, sim, &wakee, &waker, 0, 0, 1),
					 10000);
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 1), 1);
			wakee.cpus_allowed = 1;
			assert_int_equal(sl_vcpu_pack_stay(sim, &wakee, &waker, 0, 0), 0);
		}
		free_hand_set(sim, &cfg);
	}
	assert_int_equal(back[0], 0);
	assert_int_equal(back[1], 10000);
	assert_true(back[2] >= 4750 && back[2] <= 5250);
	assert_int_equal(back[3], 0);
	assert_int_equal(back[4], 0);
}

/*
 * vcpu_pack_wait split by what waits on the other CPU (step 27): test_vcpu_pack_wait's setting
 * (the hog, nice 0, as important as the wakee, waiting on CPU 0) with a second hog running
 * (CPU 1's task alone) or waiting on CPU 1 (crowded). By hand, of 10000 moved to CPU 1:
 * vcpu_pack_wait=1000 alone (no split) all in both; vcpu_pack_wait_alone=1000 all with CPU 1
 * alone and none crowded (the split on, _crowded 0); vcpu_pack_wait_crowded=1000 the reverse;
 * with the first hog at nice 1 (lower), vcpu_pack_wait_lower_alone=1000 all alone and none
 * crowded, vcpu_pack_wait_lower_crowded=1000 the reverse.
 */
static void test_pack_wait_split(void **state)
{
	static const struct {
		const char *set;
		int nice, alone, crowded;
	} c[] = {{"vcpu_pack_wait=1000", 0, 10000, 10000},
		 {"vcpu_pack_wait_alone=1000", 0, 10000, 0},
		 {"vcpu_pack_wait_crowded=1000", 0, 0, 10000},
		 {"vcpu_pack_wait_lower_alone=1000", 1, 10000, 0},
		 {"vcpu_pack_wait_lower_crowded=1000", 1, 0, 10000}};

	(void)state;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=2", NULL, "1ms", c[k].set);
		struct sl_task waker, other, wakee, *q0, *q1;

		assert_int_equal(sl_sim_run(sim), 0);
		q0 = sl_sim_task(sim, 0);
		q1 = sl_sim_task(sim, 1);
		q0->state = q1->state = TS_RUNNING;
		q0->cpu = 0;
		q1->cpu = 1;
		q0->on_cpu = false;
		q0->nice = c[k].nice;
		three_busy(sim, &waker, &other, &wakee, 0);
		q1->on_cpu = true;
		assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1),
				 c[k].alone);
		q1->on_cpu = false;
		assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1),
				 c[k].crowded);
		free_hand_set(sim, &cfg);
	}
}

/*
 * vcpu_pack_wait_none: test_vcpu_pack_wait's setting with the hog waiting on CPU 1 instead, so
 * nothing waits on CPU 0 (the waker alone there). By hand, of 10000: unset none moved;
 * vcpu_pack_wait=1000 and vcpu_pack_wait_lower=1000 none (their rules are for a waiting task);
 * vcpu_pack_wait_none=1000 all to CPU 1; vcpu_pack_wait_none=300 a binomial of sd 45.8
 * (3000 +- 250). With the hog waiting on CPU 0 (nice 0, as important) vcpu_pack_wait_none=1000
 * alone moves none (vcpu_pack_wait's case, 0: the list of runnable tasks must be kept for this
 * parameter too), and with the other CPU idle none either.
 */
static void test_pack_wait_none(void **state)
{
	int moved[5];

	(void)state;
	for (int k = 0; k < 5; k++) {
		static const char *const set[] = {
			NULL, "vcpu_pack_wait=1000", "vcpu_pack_wait_lower=1000",
			"vcpu_pack_wait_none=1000", "vcpu_pack_wait_none=300"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task *q = waiting_hog(sim, 0);
		struct sl_task waker, other, wakee;

		three_busy(sim, &waker, &other, &wakee, 0);
		q->cpu = 1;
		moved[k] = times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1);
		if (k == 3) {
			q->cpu = 0;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			q->cpu = 1;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 1);
			sim->cpus[1].curr = NULL;
			sim->cpus[1].nr_running = 0;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
		}
		free_hand_set(sim, &cfg);
	}
	assert_int_equal(moved[0], 0);
	assert_int_equal(moved[1], 0);
	assert_int_equal(moved[2], 0);
	assert_int_equal(moved[3], 10000);
	assert_true(moved[4] >= 2750 && moved[4] <= 3250);
}

/*
 * vcpu_pack_wait_hot: test_pack_wait_none's setting with the hog asleep, so nothing waits on
 * either CPU, and CPU 1 busy (its signal 0 at 0). By hand: at two half-lives 2H, CPU 1's busy
 * time is 1024 x (1 - 1/4) = 768, at the bound vcpu_pack_hot_util = 768: of 10000, rate 1000
 * moves all to CPU 1, 300 a binomial of sd 45.8 (3000 +- 250); 1 ms earlier the signal is under
 * 768 and none moves (vcpu_pack_wait_none unset), as with the bound at 769; with the hog waiting
 * on CPU 1 (something waits there) none; the rate unset none.
 */
static void test_pack_wait_hot(void **state)
{
	const u64 half = 32ULL * 1024000ULL;
	struct sl_config cfg;
	struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", NULL);
	struct sl_task *q = waiting_hog(sim, 0);
	const struct sl_params *own = sl_machine_of(sim)->p;
	struct sl_params pp = *own;
	struct sl_task waker, other, wakee;

	(void)state;
	three_busy(sim, &waker, &other, &wakee, 0);
	q->state = TS_SLEEPING;
	sl_mcpu(sim, 1)->util = 0;
	sl_mcpu(sim, 1)->util_t = 0;
	sim->now = 2 * half;
	sl_machine_of(sim)->p = &pp;
	assert_int_equal(pp.vcpu_pack_hot_util, 768); /* the default */
	assert_int_equal(sl_vcpu_util_cpu(sim, &sim->cpus[1]), 768);
	assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1), 0);
	pp.vcpu_pack_wait_hot = 1000;
	assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1), 10000);
	pp.vcpu_pack_wait_hot = 300;
	int n = times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1);

	assert_true(n >= 2750 && n <= 3250);
	pp.vcpu_pack_wait_hot = 1000;
	pp.vcpu_pack_hot_util = 769;
	assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1), 0);
	pp.vcpu_pack_hot_util = 768;
	sim->now = 2 * half - 1000000;
	assert_true(sl_vcpu_util_cpu(sim, &sim->cpus[1]) < 768);
	assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1), 0);
	sim->now = 2 * half;
	q->state = TS_RUNNING;
	q->cpu = 1;
	sl_vcpu_pack_runnable(sim, q); /* back on the list the check above took it off */
	assert_int_equal(times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1), 0);
	sim->now = 0;
	sl_machine_of(sim)->p = own;
	free_hand_set(sim, &cfg);
}

/*
 * vcpu_pack_busy: CPU 0 runs the waker with one more task queued (nr_running 2), CPU 1 runs
 * another task alone (1); the wakee last ran on CPU 0 and the policy left it there. By hand,
 * of 10000: unset none moved, 1000 all to CPU 1, 500 a binomial of sd 50 (5000 +- 250). The
 * mirror (the wakee last on the crowded CPU 1, the policy's choice CPU 1) moves to CPU 0.
 * Never moved: as many queued on both CPUs, an idle other CPU, no waker, the policy's choice
 * not the wakee's previous CPU, an affinity to CPU 0 alone, a 3-CPU machine.
 */
static void test_vcpu_pack_busy(void **state)
{
	int moved[3];

	(void)state;
	for (int k = 0; k < 3; k++) {
		static const char *const set[] = {NULL, "vcpu_pack_busy=1000",
						  "vcpu_pack_busy=500"};
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task waker, other, wakee;

		three_busy(sim, &waker, &other, &wakee, 0);
		moved[k] = times_to(sl_vcpu_pack_busy, sim, &wakee, &waker, -1, 0, 1);
		if (k == 1) {
			wakee.cpu = 1;
			sim->cpus[0].nr_running = 1;
			sim->cpus[1].nr_running = 3;
			assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, &waker, -1, 1), 0);
			wakee.cpu = 0;
			sim->cpus[0].nr_running = 2;
			sim->cpus[1].nr_running = 2;
			assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, &waker, -1, 0), 0);
			sim->cpus[1].nr_running = 1;
			assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, NULL, -1, 0), 0);
			assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, &waker, -1, 1), 1);
			wakee.cpus_allowed = 1;
			assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, &waker, -1, 0), 0);
			wakee.cpus_allowed = 0;
			sim->cpus[1].curr = NULL;
			sim->cpus[1].nr_running = 0;
			assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, &waker, -1, 0), 0);
		}
		free_hand_set(sim, &cfg);
	}
	assert_int_equal(moved[0], 0);
	assert_int_equal(moved[1], 10000);
	assert_true(moved[2] >= 4750 && moved[2] <= 5250);

	struct sl_config cfg;
	struct sl_sim *sim = build_p(&cfg, "3", "hog:tasks=1", NULL, "1ms", "vcpu_pack_busy=1000");
	struct sl_task waker, other, wakee;

	three_busy(sim, &waker, &other, &wakee, 0);
	assert_int_equal(sl_vcpu_pack_busy(sim, &wakee, &waker, -1, 0), 0);
	free_hand_set(sim, &cfg);
}

/*
 * vcpu_pack_queued: vcpu_pack_waker's situation (the wakee last on the waker's CPU 0, the idle
 * CPU 1 chosen) with another task queued on CPU 0 draws at vcpu_pack_queued's rate instead.
 * By hand, in 10000 wake-ups each, alone (nr_running 1) and queued (2), the parameters given:
 * waker 1000 alone: 10000 and 10000 kept (the queued case as before); queued 1000 alone: 0
 * (no rule with the waker alone) and 10000; waker 1 and queued 1000: a binomial of mean 10
 * and sd 3.2 (at most 30) and 10000; waker 1000 and queued 500: 10000 and 5000 +- 250 (5 sd,
 * as above).
 */
static void test_vcpu_pack_queued(void **state)
{
	static const char *const set[][2] = {{"vcpu_pack_waker=1000", NULL},
					     {"vcpu_pack_queued=1000", NULL},
					     {"vcpu_pack_waker=1", "vcpu_pack_queued=1000"},
					     {"vcpu_pack_waker=1000", "vcpu_pack_queued=500"}};
	int kept[4][2];

	(void)state;
	for (int k = 0; k < 4; k++) {
		struct sl_config cfg;
		struct sl_sim *sim =
			build_rules(&cfg, (const char *[]){set[k][0], set[k][1], NULL});
		struct sl_task waker, wakee;

		memset(&waker, 0, sizeof(waker));
		memset(&wakee, 0, sizeof(wakee));
		wakee.cpu = 0;
		sim->cpus[0].curr = &waker;
		for (int q = 0; q < 2; q++) {
			sim->cpus[0].nr_running = 1 + q;
			kept[k][q] = times_to(sl_vcpu_pack_waker, sim, &wakee, &waker, 0, 1, 0);
		}
		free_hand_set(sim, &cfg);
	}
	assert_int_equal(kept[0][0], 10000);
	assert_int_equal(kept[0][1], 10000);
	assert_int_equal(kept[1][0], 0);
	assert_int_equal(kept[1][1], 10000);
	assert_true(kept[2][0] <= 30);
	assert_int_equal(kept[2][1], 10000);
	assert_int_equal(kept[3][0], 10000);
	assert_true(kept[3][1] >= 4750 && kept[3][1] <= 5250);
}

/* the CPU time of pids 1 and 2 of a pingpong pair of count round trips on 2 CPUs under 6.18 */
static void pingpong_cpu(const char *machine, const char *param, u64 cpu[2], u64 *migrations)
{
	struct sl_config cfg;
	struct sl_run r;
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "2";
	a.kernel = "6.18";
	a.machine = machine;
	a.duration = "1s";
	a.workloads[a.nworkloads++] = "pingpong:pairs=1,count=1000";
	if (param)
		a.params[a.nparams++] = param;
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	cpu[0] = r.stats.pid[1].cpu_ns;
	cpu[1] = r.stats.pid[2].cpu_ns;
	*migrations = r.stats.migrations;
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/*
 * wake_ipi: the two ends of a pingpong sit on their own CPUs under 6.18 (no migration), so each
 * of the 1000 wake-ups each sends goes to the other CPU, idle and halted (vm-hlt: no polling
 * state): each costs its sender wake_ipi = 10 us, 1000 x 10 us = 10 ms of CPU more per task,
 * exactly. A polling idle CPU (the default machine: poll only) needs no IPI: nothing more.
 */
static void test_wake_ipi(void **state)
{
	u64 base[2], ipi[2], poll[2], poll_ipi[2], m0, m1, m2, m3;

	(void)state;
	pingpong_cpu("vm-hlt", NULL, base, &m0);
	pingpong_cpu("vm-hlt", "wake_ipi=10us", ipi, &m1);
	pingpong_cpu(NULL, NULL, poll, &m2);
	pingpong_cpu(NULL, "wake_ipi=10us", poll_ipi, &m3);
	assert_int_equal(m0, 0);
	assert_int_equal(m1, 0);
	assert_int_equal(ipi[0] - base[0], 1000ULL * 10000);
	assert_int_equal(ipi[1] - base[1], 1000ULL * 10000);
	assert_int_equal(poll_ipi[0], poll[0]);
	assert_int_equal(poll_ipi[1], poll[1]);
	assert_int_equal(m2, m3);
}

/*
 * wake_tail: every one of the 1000 wake-ups each end of a pingpong sends is made from task
 * context, so each costs its sender wake_tail = 10 us, 1000 x 10 us = 10 ms of CPU more per
 * task, exactly, whether the other CPU halts (vm-hlt) or polls: unlike wake_ipi the cost does
 * not depend on where the wakee goes.
 */
static void test_wake_tail(void **state)
{
	u64 base[2], tail[2], poll[2], poll_tail[2], m0, m1, m2, m3;

	(void)state;
	pingpong_cpu("vm-hlt", NULL, base, &m0);
	pingpong_cpu("vm-hlt", "wake_tail=10us", tail, &m1);
	pingpong_cpu(NULL, NULL, poll, &m2);
	pingpong_cpu(NULL, "wake_tail=10us", poll_tail, &m3);
	assert_int_equal(m0, 0);
	assert_int_equal(m1, 0);
	assert_int_equal(tail[0] - base[0], 1000ULL * 10000);
	assert_int_equal(tail[1] - base[1], 1000ULL * 10000);
	assert_int_equal(poll_tail[0] - poll[0], 1000ULL * 10000);
	assert_int_equal(poll_tail[1] - poll[1], 1000ULL * 10000);
}

/*
 * The wake_enqueue_busy case by hand: two hogs (1 s of work each, so a finite run the wake-up
 * costs add to) run one on each CPU after 1 ms; a SCHED_FIFO periodic task (100 us every
 * 100 ms) sleeps, allowed on the hog B's CPU only. At T the hog A wakes it from task context:
 * returns where it will be enqueued, T + the expiry of the deferred enqueue (0: none), A's
 * run_target's growth, and, after the enqueue, the expiry of B's CPU's resched (the FIFO wakee
 * preempts B) less T, and the wakee's state and CPU then.
 */
struct enq_case {
	u64 due, waker_cost, resched;
	int state_at_call, state_after, cpu_after, cpu_b;
};

static struct enq_case enqueue_case(const char *const *params)
{
	struct sl_config cfg;
	struct sl_args a;
	struct enq_case r;
	char err[2048];

	memset(&a, 0, sizeof(a));
	memset(&r, 0, sizeof(r));
	a.cpus = "2";
	a.kernel = "6.18";
	a.duration = "1ms";
	a.workloads[a.nworkloads++] = "hog:tasks=2,work=1s";
	a.workloads[a.nworkloads++] = "periodic:run=100us,period=100ms,policy=fifo,rtprio=10";
	for (; *params; params++)
		a.params[a.nparams++] = *params;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	assert_int_equal(sl_sim_run(sim), 0);
	struct sl_task *w = sim->cpus[0].curr, *b = sim->cpus[1].curr, *p = NULL;

	for (int i = 0; i < sl_machine_of(sim)->ntasks; i++)
		if (sl_sim_task(sim, i) != w && sl_sim_task(sim, i) != b)
			p = sl_sim_task(sim, i);
	if (!w || !b || !p) {
		sl_sim_free(sim);
		sl_config_free(&cfg);
		fail_msg("enqueue_case: a CPU idle or no sleeping task");
		return r;
	}
	assert_int_equal(p->state, TS_SLEEPING);
	assert_true(sl_mtask(w)->in_run);
	p->cpus_allowed = 1ULL << 1;
	r.cpu_b = 1;
	u64 t0 = sim->eng.now, run0 = sl_mtask(w)->run_target;

	sim->this_cpu = 0;
	sl_try_to_wake_up(sim, p, w, 0);
	r.state_at_call = p->state;
	r.waker_cost = sl_mtask(w)->run_target - run0;
	if (sl_timer_armed(&sl_mtask(p)->enqueue)) {
		r.due = sl_mtask(p)->enqueue.expires - t0;
		/* a second wake-up meanwhile does nothing (TASK_WAKING) */
		sl_try_to_wake_up(sim, p, w, 0);
		assert_int_equal(sl_mtask(p)->enqueue.expires - t0, r.due);
		assert_int_equal(sl_mtask(w)->run_target - run0, r.waker_cost);
		sl_cancel(sim, &sl_mtask(p)->enqueue);
		sim->eng.now = t0 + r.due;
		sl_mtask(p)->enqueue.fn(sim, &sl_mtask(p)->enqueue);
	}
	r.state_after = p->state;
	r.cpu_after = p->cpu;
	if (sl_timer_armed(&sim->cpus[1].resched))
		r.resched = sim->cpus[1].resched.expires - t0;
	sl_sim_free(sim);
	sl_config_free(&cfg);
	return r;
}

/*
 * wake_enqueue_busy, by hand (enqueue_case): with ipi_busy = 24 us and no wake_tail, off (0)
 * the wakee is enqueued at the call (running, on CPU 1), the waker pays nothing, B's CPU
 * switches 24 us after the call. At 12 us: the wakee still asleep at the call, enqueued 12 us
 * later on CPU 1, the waker pays 12 us, the switch still 24 us after the call (ipi_busy counts
 * from it: 12 after the enqueue). With wake_tail = 20 us the waker pays 20 (the enqueue inside
 * it), not 32. At 30 us, past ipi_busy: the switch at the enqueue, 30 us. wake_enqueue_tail =
 * 5 us: the waker pays 12 + 5 = 17 us, with wake_tail = 11 us still 17, with 20 us 20.
 */
static void test_wake_enqueue_busy(void **state)
{
	struct enq_case off, on, tail, past, et, et11, et20;

	(void)state;
	off = enqueue_case((const char *[]){"ipi_busy=24us", NULL});
	on = enqueue_case((const char *[]){"ipi_busy=24us", "wake_enqueue_busy=12us", NULL});
	tail = enqueue_case((const char *[]){"ipi_busy=24us", "wake_enqueue_busy=12us",
					     "wake_tail=20us", NULL});
	past = enqueue_case((const char *[]){"ipi_busy=24us", "wake_enqueue_busy=30us", NULL});
	assert_int_equal(off.due, 0);
	assert_int_equal(off.state_at_call, TS_RUNNING);
	assert_int_equal(off.waker_cost, 0);
	assert_int_equal(off.cpu_after, 1);
	assert_int_equal(off.resched, 24000);
	assert_int_equal(on.due, 12000);
	assert_int_equal(on.state_at_call, TS_SLEEPING);
	assert_int_equal(on.state_after, TS_RUNNING);
	assert_int_equal(on.cpu_after, 1);
	assert_int_equal(on.waker_cost, 12000);
	assert_int_equal(on.resched, 24000);
	assert_int_equal(tail.due, 12000);
	assert_int_equal(tail.waker_cost, 20000);
	assert_int_equal(tail.resched, 24000);
	assert_int_equal(past.due, 30000);
	assert_int_equal(past.waker_cost, 30000);
	assert_int_equal(past.resched, 30000);
	et = enqueue_case((const char *[]){"ipi_busy=24us", "wake_enqueue_busy=12us",
					   "wake_enqueue_tail=5us", NULL});
	et11 = enqueue_case((const char *[]){"ipi_busy=24us", "wake_enqueue_busy=12us",
					     "wake_enqueue_tail=5us", "wake_tail=11us", NULL});
	et20 = enqueue_case((const char *[]){"ipi_busy=24us", "wake_enqueue_busy=12us",
					     "wake_enqueue_tail=5us", "wake_tail=20us", NULL});
	assert_int_equal(et.due, 12000);
	assert_int_equal(et.waker_cost, 17000);
	assert_int_equal(et11.waker_cost, 17000);
	assert_int_equal(et20.waker_cost, 20000);
	assert_int_equal(et.resched, 24000);
}

/*
 * The utilization signals of vcpu_pack_room (machine/vcpu_util.c), by hand: a CPU idle at 0
 * runs a task from 0 to one half-life H = 32 x 1024 us, then idles: its signal is 0 at 0,
 * 1024 x (1 - 1/2) = 512 at H, 512 / 2 = 256 at 2H; the task's, running then sleeping, the
 * same. Nothing moves while the parameter is 0.
 */
static void test_vcpu_util(void **state)
{
	const u64 half = 32ULL * 1024000ULL;
	struct sl_config cfg;
	struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", NULL);
	const struct sl_params *own =
		sl_machine_of(sim)->p; /* the simulation's copy, freed with it */
	struct sl_params pp = *own;
	struct sl_machine_task mt;
	struct sl_task *tp = &mt.task;
	struct sl_task_ext tx;

	(void)state;
	memset(&mt, 0, sizeof(mt));
	memset(&tx, 0, sizeof(tx));
	mt.ext = &tx;
	sim->now = 0;
	sl_vcpu_util_switch(sim, &sim->cpus[1], NULL, tp); /* off: nothing kept */
	sim->now = half;
	sl_vcpu_util_switch(sim, &sim->cpus[1], tp, NULL);
	assert_int_equal(sl_mcpu(sim, 1)->util, 0);
	assert_int_equal(tx.util, 0);
	pp.vcpu_pack_room = 675;
	sl_machine_of(sim)->p = &pp;
	sim->now = 0;
	sl_vcpu_util_switch(sim, &sim->cpus[1], NULL, tp);
	tp->on_cpu = true;
	sim->cpus[1].curr = tp;
	sim->now = half;
	assert_int_equal(sl_vcpu_util_cpu(sim, &sim->cpus[1]), 512);
	assert_int_equal(sl_vcpu_util_task(sim, tp), 512);
	sl_vcpu_util_switch(sim, &sim->cpus[1], tp, NULL);
	tp->on_cpu = false;
	sim->cpus[1].curr = NULL;
	sim->now = 2 * half;
	assert_int_equal(sl_vcpu_util_cpu(sim, &sim->cpus[1]), 256);
	assert_int_equal(sl_vcpu_util_task(sim, tp), 256);
	sim->now = 0;
	sl_machine_of(sim)->p = own;
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/*
 * vcpu_pack_room_sum: the room's CPU utilization is the sum over the live tasks whose last CPU
 * it is. The two hogs are the waker h, running on CPU 0 since 0 (0 then), and a sleeper s, last
 * on CPU 0 with 400 of 1024 at 0; the wakee last on CPU 1, 40 at 0. By hand at one half-life
 * H: h 512, s 200, so 712 attached to CPU 0 and CPU 0's busy time 512; the wakee 20. Room 675:
 * busy time 512 + 20 = 532 packs (CPU 0), the sum 712 + 20 = 732 does not (CPU 1); room 733
 * packs, 732 does not; s last on CPU 1 (or dead) leaves 512 + 20: packed.
 */
static void test_vcpu_pack_room_sum(void **state)
{
	const u64 half = 32ULL * 1024000ULL;
	struct sl_config cfg;
	struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=2", NULL, "1ms", NULL);
	const struct sl_params *own = sl_machine_of(sim)->p;
	struct sl_params pp = *own;
	struct sl_machine_task mwakee;
	struct sl_task *wk = &mwakee.task;
	struct sl_task_ext wx;

	(void)state;
	assert_int_equal(sl_sim_run(sim), 0); /* the two hogs made */
	assert_int_equal(sl_machine_of(sim)->ntasks, 2);
	struct sl_task *h = sl_sim_task(sim, 0), *s = sl_sim_task(sim, 1);
	struct sl_task_ext *hx = sl_task_ext(sim, h), *sx = sl_task_ext(sim, s);

	assert_non_null(hx);
	assert_non_null(sx);
	memset(&mwakee, 0, sizeof(mwakee));
	memset(&wx, 0, sizeof(wx));
	mwakee.ext = &wx;
	wk->cpu = 1;
	wx.util = 40ULL << 20;
	hx->util = 0;
	hx->util_t = 0;
	h->cpu = 0;
	h->on_cpu = true;
	h->state = TS_RUNNING;
	s->state = TS_SLEEPING;
	sx->util = 400ULL << 20;
	sx->util_t = 0;
	s->cpu = 0;
	s->on_cpu = false;
	sim->cpus[0].curr = h;
	sim->cpus[1].curr = NULL;
	sim->cpus[0].nr_running = 1;
	sim->cpus[1].nr_running = 0;
	sl_mcpu(sim, 0)->util = 0;
	sl_mcpu(sim, 0)->util_t = 0;
	sim->now = half;
	pp.vcpu_pack_room = 675;
	pp.vcpu_pack_small = 1024;
	sl_machine_of(sim)->p = &pp;
	assert_int_equal(sl_vcpu_util_cpu(sim, &sim->cpus[0]), 512);
	assert_int_equal(sl_vcpu_util_attached(sim, 0), 712);
	assert_int_equal(sl_vcpu_pack_room(sim, wk, h, 0, 1), 0); /* busy time: 532 */
	pp.vcpu_pack_room_sum = 1;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, h, 0, 1), 1); /* the sum: 732 */
	pp.vcpu_pack_room = 733;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, h, 0, 1), 0);
	pp.vcpu_pack_room = 732;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, h, 0, 1), 1);
	pp.vcpu_pack_room = 675;
	s->cpu = 1;
	assert_int_equal(sl_vcpu_util_attached(sim, 0), 512);
	assert_int_equal(sl_vcpu_pack_room(sim, wk, h, 0, 1), 0);
	s->cpu = 0;
	s->state = TS_DEAD;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, h, 0, 1), 0);
	sl_machine_of(sim)->p = own;
	free_hand_set(sim, &cfg);
}

/*
 * vcpu_pack_room: the waker alone on CPU 0 (busy from 0), the wakee last on CPU 1 (40 of 1024
 * at 0, asleep since), the policy's choice the idle CPU 1. By hand at one half-life H: CPU 0's
 * 1024 x (1 - 1/2) = 512, the wakee's 40 / 2 = 20: 20 < vcpu_pack_small = 28 and 512 + 20 =
 * 532 < vcpu_pack_room = 675: CPU 0. With room 532 (not below): CPU 1; at 0 (wakee 40, not
 * below 28): CPU 1; with vcpu_pack_prio = 120, a nice 0 wakee (prio 120) CPU 1, a nice -1 one
 * (119) CPU 0. Else the policy's choice: the parameter 0, no waker, the wakee last on
 * CPU 0 (vcpu_pack_waker's case), a second task runnable on CPU 0, CPU 1 busy.
 */
static void test_vcpu_pack_room(void **state)
{
	const u64 half = 32ULL * 1024000ULL;
	struct sl_config cfg;
	struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", NULL);
	const struct sl_params *own =
		sl_machine_of(sim)->p; /* the simulation's copy, freed with it */
	struct sl_params pp = *own;
	struct sl_task waker, other;
	struct sl_machine_task mwakee;
	struct sl_task *wk = &mwakee.task;
	struct sl_task_ext wx;

	(void)state;
	memset(&waker, 0, sizeof(waker));
	memset(&other, 0, sizeof(other));
	memset(&mwakee, 0, sizeof(mwakee));
	memset(&wx, 0, sizeof(wx));
	mwakee.ext = &wx;
	wk->cpu = 1;
	wx.util = 40ULL << 20;
	sim->cpus[0].curr = &waker;
	sim->cpus[0].nr_running = 1;
	sim->cpus[1].nr_running = 0;
	sim->now = half;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1); /* off */
	pp.vcpu_pack_room = 675;
	pp.vcpu_pack_small = 28;
	sl_machine_of(sim)->p = &pp;
	assert_int_equal(sl_vcpu_util_task(sim, wk), 20);
	assert_int_equal(sl_vcpu_util_cpu(sim, &sim->cpus[0]), 512);
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 0);
	assert_int_equal(sl_vcpu_pack_room(sim, wk, NULL, 0, 1), 1);
	wk->cpu = 0;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1);
	wk->cpu = 1;
	sim->cpus[0].nr_running = 2;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1);
	sim->cpus[0].nr_running = 1;
	sim->cpus[1].curr = &other;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1);
	sim->cpus[1].curr = NULL;
	pp.vcpu_pack_room = 532;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1);
	pp.vcpu_pack_room = 533;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 0);
	pp.vcpu_pack_prio = 120; /* nice 0 is prio 120: not below */
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1);
	wk->nice = -1;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 0);
	sim->now = 0;
	assert_int_equal(sl_vcpu_pack_room(sim, wk, &waker, 0, 1), 1);
	sl_machine_of(sim)->p = own;
	free_hand_set(sim, &cfg);
}

/*
 * vcpu_pack: a wake-up sent to the idle CPU 1 while the previous CPU 0 runs a task stays on CPU 0
 * vcpu_pack times in 1000. By hand: 0 never (mainline), 1000 always; 275 in 10000 draws of a
 * uniform generator: a binomial of mean 2750 and standard deviation sqrt(10000 x 0.275 x
 * 0.725) = 44.7, so within 2750 +- 250 (5.6 sd). The rule applies only in that situation: prev
 * idle, or the chosen CPU busy, or the chosen CPU the previous one, keep the policy's choice.
 */
static void test_vcpu_pack(void **state)
{
	const char *set[] = {NULL, "vcpu_pack=1000", "vcpu_pack=275"};
	int kept[3];

	(void)state;
	for (int k = 0; k < 3; k++) {
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms", set[k]);
		struct sl_task busy, wakee;

		memset(&busy, 0, sizeof(busy));
		memset(&wakee, 0, sizeof(wakee));
		wakee.cpu = 0;
		sim->cpus[0].curr = &busy;
		kept[k] = times_to(sl_vcpu_pack, sim, &wakee, NULL, -1, 1, 0);
		/* not the situation: the policy's choice stands */
		assert_int_equal(sl_vcpu_pack(sim, &wakee, NULL, -1, 0), 0);
		sim->cpus[1].curr = &busy;
		assert_int_equal(sl_vcpu_pack(sim, &wakee, NULL, -1, 1), 1);
		sim->cpus[1].curr = NULL;
		sim->cpus[0].curr = NULL;
		assert_int_equal(sl_vcpu_pack(sim, &wakee, NULL, -1, 1), 1);
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(kept[0], 0);
	assert_int_equal(kept[1], 10000);
	assert_true(kept[2] >= 2500 && kept[2] <= 3000);
}

/*
 * wake_local/wake_remote: the path of an idle CPU from a wake-up to the switch. By hand: with
 * wake_local=20us and no sd, a CPU woken from itself (this_cpu) waits exactly 20000 ns; woken
 * from the other CPU, wake_remote=5us: 5000 ns (the IPI and the exit latency are charged
 * elsewhere); a CPU running a task: 0 (not this path); with wake_local_sd=3us, 10000 draws of
 * a normal of mean 20000 ns average within 5 standard errors (3000/sqrt(10000) = 30 ns): 20000
 * +- 150 (values below 0, 6.7 sd away, do not matter). Off (the defaults): 0.
 */
static void test_wake_path(void **state)
{
	struct sl_config cfg;
	struct sl_sim *sim =
		build_rules(&cfg, (const char *[]){"wake_local=20us", "wake_remote=5us", NULL});
	struct sl_task busy;
	u64 sum = 0;

	(void)state;
	sim->this_cpu = 1;
	assert_int_equal(sl_wake_path(sim, &sim->cpus[1]), 20000);
	assert_int_equal(sl_wake_path(sim, &sim->cpus[0]), 5000);
	memset(&busy, 0, sizeof(busy));
	sim->cpus[0].curr = &busy;
	assert_int_equal(sl_wake_path(sim, &sim->cpus[0]), 0);
	sim->cpus[0].curr = NULL;
	sl_sim_free(sim);
	sl_config_free(&cfg);
	sim = build_rules(&cfg, (const char *[]){"wake_local=20us", "wake_remote=5us",
						 "wake_local_sd=3us", NULL});
	sim->this_cpu = 1;
	for (int i = 0; i < 10000; i++)
		sum += sl_wake_path(sim, &sim->cpus[1]);
	assert_true(sum / 10000 >= 19850 && sum / 10000 <= 20150);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	/* off by default */
	sim = build_rules(&cfg, (const char *[]){NULL});
	sim->this_cpu = 1;
	assert_int_equal(sl_wake_path(sim, &sim->cpus[1]), 0);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/*
 * wake_local_tail/wake_remote_tail: a share of the wake-ups of an idle CPU waits an extra
 * exponential delay. By hand: wake_local=20us, no sd, wake_local_tail=1000 (every one) with
 * wake_local_tail_mean=10us: every draw is 20000 ns or more, and 20000 draws average 30000 ns
 * within 5 standard errors (10000/sqrt(20000) = 71 ns): 30000 +- 355. With
 * wake_local_tail=250, a quarter waits: the mean is 22500 +- 5 x sqrt(0.25 x 2 x 10^8 - 2500^2)
 * / sqrt(20000) (the extra's sd 6614 ns, 47 ns a mean): 22500 +- 234, and 5000 +- 306 of the
 * 20000 draws are above 20000 ns (5 x sqrt(20000 x 0.25 x 0.75) = 306); the remote
 * path, whose tail is 0, stays exactly wake_remote.
 */
static void test_wake_path_tail(void **state)
{
	const char *params[] = {"wake_local=20us", "wake_remote=5us", "wake_local_tail=1000",
				"wake_local_tail_mean=10us", NULL};
	struct sl_config cfg;
	struct sl_sim *sim = build_rules(&cfg, params);
	u64 sum = 0, above = 0, min = ~0ULL;

	(void)state;
	sim->this_cpu = 1;
	for (int i = 0; i < 20000; i++) {
		u64 v = sl_wake_path(sim, &sim->cpus[1]);

		sum += v;
		min = v < min ? v : min;
	}
	assert_true(min >= 20000);
	assert_true(sum / 20000 >= 29645 && sum / 20000 <= 30355);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	params[2] = "wake_local_tail=250";
	sim = build_rules(&cfg, params);
	sim->this_cpu = 1;
	sum = 0;
	for (int i = 0; i < 20000; i++) {
		u64 v = sl_wake_path(sim, &sim->cpus[1]);

		sum += v;
		above += v > 20000;
	}
	assert_true(sum / 20000 >= 22266 && sum / 20000 <= 22734);
	assert_true(above >= 4694 && above <= 5306);
	assert_int_equal(sl_wake_path(sim, &sim->cpus[0]), 5000);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

static void no_fn(struct sl_sim *sim, struct sl_timer *t)
{
	(void)sim;
	(void)t;
}

/*
 * timer_coalesce's lists of sleep timers per CPU (machine/sleep_timers.c), timer_slack 100 us,
 * three tasks asleep on a timer: a on CPU 0 until 1000 us, b on CPU 0 until 1050 us, c on
 * CPU 1 until 900 us (the hard expiries; the soft ones 100 us earlier). By hand: at 950 us
 * CPU 0's next is a (both open, a ends first), CPU 1's c. a re-armed on CPU 1 at 1000 us
 * leaves CPU 0's list (1 left) for CPU 1's: CPU 1's next is still c (900 < 1000). At 949 us
 * b's window is not open: CPU 0 has none. b re-armed as a device's interrupt leaves CPU 0's
 * list (0). c cancelled: CPU 1's next is a, and the look drops c (1 left). a no longer asleep
 * on its timer: none, a kept (its timer is armed). Without timer_coalesce nothing is kept.
 */
static void test_sleep_timers(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct sl_sim *sim =
			build_rules(&cfg, (const char *[]){"timer_slack=100us",
							   on ? "timer_coalesce=1" : NULL, NULL});
		struct sl_machine_task mt[3];
		struct sl_task *a = &mt[0].task, *b = &mt[1].task, *c = &mt[2].task;

		(void)state;
		memset(mt, 0, sizeof(mt));
		for (int i = 0; i < 3; i++) {
			sl_timer_init(&mt[i].timer, no_fn, -1);
			mt[i].blocked = BLK_TIMER;
		}
		sl_task_timer_arm(sim, a, 0, 1000000, false);
		sl_task_timer_arm(sim, b, 0, 1050000, false);
		sl_task_timer_arm(sim, c, 1, 900000, false);
		if (!on) {
			assert_int_equal(sl_mcpu(sim, 0)->nsleepers, 0);
			assert_int_equal(sl_mcpu(sim, 1)->nsleepers, 0);
		} else {
			assert_int_equal(sl_mcpu(sim, 0)->nsleepers, 2);
			assert_int_equal(sl_mcpu(sim, 1)->nsleepers, 1);
			sim->now = 950000;
			assert_ptr_equal(sl_next_expired_sleep(sim, 0), a);
			assert_ptr_equal(sl_next_expired_sleep(sim, 1), c);
			sl_task_timer_arm(sim, a, 1, 1000000, false);
			assert_int_equal(sl_mcpu(sim, 0)->nsleepers, 1);
			assert_int_equal(sl_mcpu(sim, 1)->nsleepers, 2);
			assert_ptr_equal(sl_next_expired_sleep(sim, 1), c);
			sim->now = 949000;
			assert_null(sl_next_expired_sleep(sim, 0));
			sl_task_timer_arm(sim, b, 0, 1050000, true);
			assert_int_equal(sl_mcpu(sim, 0)->nsleepers, 0);
			sim->now = 950000;
			sl_cancel(sim, &mt[2].timer);
			assert_ptr_equal(sl_next_expired_sleep(sim, 1), a);
			assert_int_equal(sl_mcpu(sim, 1)->nsleepers, 1);
			mt[0].blocked = BLK_NONE;
			assert_null(sl_next_expired_sleep(sim, 1));
			assert_int_equal(sl_mcpu(sim, 1)->nsleepers, 1);
		}
		for (int i = 0; i < 3; i++)
			sl_cancel(sim, &mt[i].timer);
		sim->now = 0;
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/*
 * vcpu_pack_wait's list of the runnable tasks (machine/vcpu_pack.c): after a run of one hog
 * with vcpu_pack_wait set, the hog is on it once (a second join is none); asleep, the rule's
 * next look drops it (and finds none waiting: the wakee stays). Without the parameter the list
 * stays empty.
 */
static void test_runnable_list(void **state)
{
	for (int on = 0; on < 2; on++) {
		struct sl_config cfg;
		struct sl_sim *sim = build_p(&cfg, "2", "hog:tasks=1", NULL, "1ms",
					     on ? "vcpu_pack_wait=1000" : NULL);
		struct sl_task *q = waiting_hog(sim, 0);
		struct sl_task waker, other, wakee;

		(void)state;
		assert_int_equal(sl_machine_of(sim)->nrunnable, on);
		sl_vcpu_pack_runnable(sim, q);
		assert_int_equal(sl_machine_of(sim)->nrunnable, on);
		three_busy(sim, &waker, &other, &wakee, 0);
		if (on) {
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 1);
			q->state = TS_SLEEPING;
			assert_int_equal(sl_vcpu_pack_wait(sim, &wakee, &waker, 0, 0), 0);
			assert_int_equal(sl_machine_of(sim)->nrunnable, 0);
			assert_false(sl_mtask(q)->on_runnable);
		}
		free_hand_set(sim, &cfg);
	}
}

/*
 * The wake-up rules a run goes through (machine/wake_rules.c): the policy's own check always,
 * each rate rule only with one of its parameters set. By hand: none set, 1 (the check);
 * irq_wake_preempt_up alone, 2; wake_preempt_ratio alone (its rates can apply), 2;
 * wake_preempt_sleep alone (no rate), 1; wake_preempt_short_late alone (a rate), 2;
 * irq_wake_preempt, wake_preempt_again, wake_move_preempt and wake_hold, 5.
 */
static void test_wake_rules_in_force(void **state)
{
	static const char *const set[][5] = {
		{NULL},
		{"irq_wake_preempt_up=822", NULL},
		{"wake_preempt_ratio=8", NULL},
		{"wake_preempt_sleep=2ms", NULL},
		{"wake_preempt_short_late=862", NULL},
		{"irq_wake_preempt=1", "wake_preempt_again=931", "wake_move_preempt=600",
		 "wake_hold=400", NULL},
	};
	static const int want[] = {1, 2, 2, 1, 2, 5};

	(void)state;
	for (int k = 0; k < 6; k++) {
		struct sl_config cfg;
		struct sl_sim *sim = build_rules(&cfg, set[k]);

		assert_int_equal(sl_machine_of(sim)->nwake_rules, want[k]);
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
}

/* a simulation of one workload with up to three --param assignments (NULL-ended) */
static struct sl_sim *build_pp(struct sl_config *cfg, const char *cpus, const char *wl,
			       const char *duration, const char *const *params)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.duration = duration;
	a.workloads[a.nworkloads++] = wl;
	for (; *params; params++)
		a.params[a.nparams++] = *params;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(cfg);

	assert_non_null(sim);
	return sim;
}

/*
 * vcpu_pack_sis_gate (step 30): the both-busy rules act only where the fair policy's SIS_UTIL
 * budget of the waker's LLC is > 0. Two settings by hand, each with the LLC's nr_idle_scan set
 * to 0 and then 1 on both CPUs: test_pack_stay's stay case (waker alone on CPU 0, the wakee
 * last on CPU 1 whose task runs alone, the policy's choice CPU 0) with vcpu_pack_stay=1000, and
 * test_pack_wait_split's (the wakee last on the waker's CPU 0, a hog as important waiting
 * there, CPU 1's task alone) with vcpu_pack_wait=1000. Of 10000: with the gate, none moved at
 * budget 0 and all at 1; without it all at either; with the gate and NO_SIS_UTIL (the policy
 * has no budget: idle_scan -1) all.
 */
static void test_pack_sis_gate(void **state)
{
	static const struct {
		bool stay; /* the stay setting and rule, else the wait one */
		const char *rule, *gate, *feat;
		int at0, at1;
	} c[] = {{true, "vcpu_pack_stay=1000", "vcpu_pack_sis_gate=1", NULL, 0, 10000},
		 {true, "vcpu_pack_stay=1000", "vcpu_pack_sis_gate=0", NULL, 10000, 10000},
		 {true, "vcpu_pack_stay=1000", "vcpu_pack_sis_gate=1", "NO_SIS_UTIL", 10000, 10000},
		 {false, "vcpu_pack_wait=1000", "vcpu_pack_sis_gate=1", NULL, 0, 10000},
		 {false, "vcpu_pack_wait=1000", "vcpu_pack_sis_gate=0", NULL, 10000, 10000},
		 {false, "vcpu_pack_wait=1000", "vcpu_pack_sis_gate=1", "NO_SIS_UTIL", 10000,
		  10000}};

	(void)state;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		bool stay = c[k].stay;
		struct sl_config cfg;
		struct sl_args a;
		char err[2048];
		struct sl_task waker, other, wakee, *q;
		int n[2];

		memset(&a, 0, sizeof(a));
		a.cpus = "2";
		a.kernel = "6.18"; /* the fair policy with a SIS_UTIL budget */
		a.duration = "1ms";
		a.workloads[a.nworkloads++] = stay ? "hog:tasks=1" : "hog:tasks=2";
		a.params[a.nparams++] = c[k].rule;
		a.params[a.nparams++] = c[k].gate;
		if (c[k].feat)
			a.features[a.nfeatures++] = c[k].feat;
		if (sl_config_build(&cfg, &a, err, sizeof(err)))
			fail_msg("%s", err);
		struct sl_sim *sim = sl_sim_new(&cfg);

		assert_non_null(sim);
		assert_int_equal(sl_sim_run(sim), 0);
		q = sl_sim_task(sim, 0);
		q->state = TS_RUNNING;
		q->cpu = 0;
		q->on_cpu = false;
		q->nice = 0;
		if (stay) {
			/* the hog on CPU 0 is the running one: nothing waits behind the waker */
			three_busy(sim, &waker, &other, &wakee, 1);
			sim->cpus[0].nr_running = 1;
			q->on_cpu = true;
		} else {
			struct sl_task *q1 = sl_sim_task(sim, 1);

			q1->state = TS_RUNNING;
			q1->cpu = 1;
			three_busy(sim, &waker, &other, &wakee, 0);
			q1->on_cpu = true;
		}
		for (int b = 0; b < 2; b++) {
			for (int cpu = 0; cpu < 2; cpu++)
				ee_rq_of(sim, &sim->cpus[cpu])->nr_idle_scan = (unsigned)b;
			n[b] = stay ? times_to(sl_vcpu_pack_stay, sim, &wakee, &waker, 0, 0, 1)
				    : times_to(sl_vcpu_pack_wait, sim, &wakee, &waker, 0, 0, 1);
		}
		assert_int_equal(n[0], c[k].at0);
		assert_int_equal(n[1], c[k].at1);
		free_hand_set(sim, &cfg);
	}
}

/* the idle exits of one CPU that go back to idle exactly 20 us later (irq_bg's handler) */
struct irq_probe {
	int cpu;
	u64 exit_at;
	u64 exits[128];
	int nexits;
};

static void irq_probe_fn(void *ctx, const struct sl_event *ev)
{
	struct irq_probe *q = ctx;

	if (ev->type != SL_EV_IDLE || ev->cpu != q->cpu)
		return;
	if (ev->state < 0)
		q->exit_at = ev->time;
	else if (ev->time == q->exit_at + 20 * NSEC_PER_USEC && q->nexits < 128)
		q->exits[q->nexits++] = q->exit_at;
}

/*
 * irq_bg_rate / irq_bg_run (machine/irq_bg.c): an interrupt every 1 ms of 20 us on each CPU,
 * at a phase per CPU (read back as its next interrupt's time modulo 1 ms).
 * - A task running 10 ms from its switch-in s on one CPU finishes 20 us later for each
 *   interrupt in [s, its end): 10 or 11 of them by the phase p, so 10.2 or 10.22 ms.
 * - The other CPU, idle all 100 ms (the default machine's poll state: no exit latency), leaves
 *   idle at p' + k ms for k = 0..99 and is back 20 us later each time: 100 such exits, and
 *   its idle time is 100 x 20 us = 2 ms shorter.
 */
static void test_irq_bg(void **state)
{
	const char *none[] = {NULL};
	const char *on[] = {"irq_bg_rate=1000", "irq_bg_run=20us", NULL};
	u64 start[2], end[2], idle[2], phase = 0, phase_idle = 0;
	int nexits[2], busy = 0;

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sl_config cfg;
		struct sl_sim *sim = build_pp(&cfg, "2", "periodic:period=200ms,run=10ms,tasks=1",
					      "100ms", k ? on : none);
		struct probe p = {.sim = sim};
		struct irq_probe q = {.cpu = -1};

		sl_sim_subscribe(sim, probe_fn, &p);
		sl_sim_subscribe(sim, irq_probe_fn, &q);
		/* the task's CPU: the first switch's, known after the first run */
		q.cpu = k ? !busy : -1;
		assert_int_equal(sl_sim_run(sim), 0);
		assert_true(p.nswitch >= 2);
		start[k] = p.switch_times[0];
		end[k] = p.switch_times[1];
		busy = p.first_cpu;
		idle[k] = 0;
		for (int i = 0; i < SL_CPUIDLE_MAX_STATES; i++)
			idle[k] += sl_mcpu(sim, !busy)->idle_dev.time_ns[i];
		nexits[k] = q.nexits;
		if (k) {
			phase = sl_mcpu(sim, busy)->irq_bg.expires % NSEC_PER_MSEC;
			phase_idle = sl_mcpu(sim, !busy)->irq_bg.expires % NSEC_PER_MSEC;
			for (int i = 0; i < q.nexits; i++)
				assert_int_equal(q.exits[i], phase_idle + (u64)i * NSEC_PER_MSEC);
		}
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_int_equal(start[0], start[1]);
	/* the interrupts in [start, end) by hand from the phase */
	int n = 0;

	for (u64 t = phase; t < end[1]; t += NSEC_PER_MSEC)
		if (t >= start[1])
			n++;
	assert_true(n == 10 || n == 11);
	assert_int_equal(end[1] - end[0], (u64)n * 20 * NSEC_PER_USEC);
	assert_int_equal(nexits[1], 100);
	assert_int_equal(idle[0] - idle[1], 2 * NSEC_PER_MSEC);

	/* a handler of half the period or more is refused: 5000/s leaves 100 us for 300 us */
	struct sl_config cfg;
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.duration = "10ms";
	a.workloads[a.nworkloads++] = "hog:tasks=1";
	a.params[a.nparams++] = "irq_bg_rate=5000";
	a.params[a.nparams++] = "irq_bg_run=300us";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "irq_bg_run=300000ns: expected under half of 1/irq_bg_rate"));
}

/*
 * irq_bg makes no scheduler decision: two hogs on one CPU under 6.18 switch where the tick
 * finds the running one's slice used up. A hog's burst never ends, so the interrupts take
 * nothing it could notice, and with the policy's update_curr at each interrupt (which
 * reschedules once the deadline has passed) the switches would come at the first interrupt
 * after it instead of the tick: the switch times are the same with and without.
 */
static void test_irq_bg_no_decision(void **state)
{
	const char *on[] = {"irq_bg_rate=1000", "irq_bg_run=20us", NULL};
	u64 t[2][8] = {{0}};
	int n[2] = {0};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sl_config cfg;
		struct sl_args a;
		char err[2048];

		memset(&a, 0, sizeof(a));
		a.kernel = "6.18";
		a.cpus = "1";
		a.duration = "40ms";
		a.workloads[a.nworkloads++] = "hog:tasks=2";
		for (int i = 0; k && on[i]; i++)
			a.params[a.nparams++] = on[i];
		if (sl_config_build(&cfg, &a, err, sizeof(err)))
			fail_msg("%s", err);
		struct sl_sim *sim = sl_sim_new(&cfg);
		struct probe p = {.sim = sim};

		assert_non_null(sim);
		sl_sim_subscribe(sim, probe_fn, &p);
		assert_int_equal(sl_sim_run(sim), 0);
		n[k] = p.nswitch < 8 ? p.nswitch : 8;
		for (int i = 0; i < n[k]; i++)
			t[k][i] = p.switch_times[i];
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	assert_true(n[0] >= 4);
	assert_int_equal(n[0], n[1]);
	for (int i = 0; i < n[0]; i++)
		assert_int_equal(t[0][i], t[1][i]);
}

/* the sleeps (switch-outs in S) of each of the first two pids: their times, in order */
struct sib_probe {
	u64 out[3][8];
	int n[3];
};

static void sib_probe_fn(void *ctx, const struct sl_event *ev)
{
	struct sib_probe *q = ctx;

	if (ev->type != SL_EV_SWITCH || ev->pid < 1 || ev->pid > 2 || ev->prev_state != 'S')
		return;
	if (q->n[ev->pid] < 8)
		q->out[ev->pid][q->n[ev->pid]++] = ev->time;
}

/* one run of sib_idle_rate=rate on cpus: task 1 runs 10 ms once, task 2 2 ms every 6 ms */
static struct sib_probe sib_run(const char *cpus, const char *rate)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[2048];
	struct sib_probe q;

	memset(&q, 0, sizeof(q));
	memset(&a, 0, sizeof(a));
	a.cpus = cpus;
	a.duration = "30ms";
	a.workloads[a.nworkloads++] = "periodic:period=200ms,run=10ms,tasks=1";
	a.workloads[a.nworkloads++] = "periodic:period=6ms,run=2ms,tasks=1";
	a.params[a.nparams++] = rate;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	sl_sim_subscribe(sim, sib_probe_fn, &q);
	assert_int_equal(sl_sim_run(sim), 0);
	sl_sim_free(sim);
	sl_config_free(&cfg);
	return q;
}

/*
 * sib_idle_rate (machine.c sib_sync): a CPU does rate/1000 of its work per ns while the other
 * CPU of its pair is idle. Task 1 (pid 1) runs on CPU 1 from 0, 10 ms + the switch's 2 us:
 * 10.002 ms of work; task 2 (pid 2) on CPU 0 runs 2.002 ms at 0, 6, 12, 18, 24 ms. By hand,
 * with rate 500 (half the work per ns while the sibling idles):
 * - task 1: 2.002 ms done at 2.002 (CPU 0 busy); CPU 0 idle 2.002-6: 3.998 ms at half, 1.999
 *   done; busy 6-8.002: 2.002; idle 8.002-12: 1.999; 10.002 - 8.002 = 2.000 left at 12, CPU 0
 *   busy: its sleep at 14.000 ms (10.002 without the rate).
 * - task 2 at 12: 2.000 done by 14.000, CPU 1 idle from then: 0.002 ms left, 0.004 at half,
 *   its sleep at 14.004; at 18 CPU 1 idle all along: 2.002 x 2, its sleep at 22.004.
 * rate 1000 is the rate off (0): the same times as 0. On one CPU there is no sibling: the
 * same times with 500 as with 0.
 */
/*
 * wake_cold (machine.c, task_prog.c): the CPU a task spends first after a sleep of
 * wake_cold_sleep or more, before its next step but a mutex's lock or unlock; more where its CPU
 * was idle before it. One CPU, an rt-app file by hand: `a` (SCHED_FIFO, nobody preempts it)
 * sleeps on a 10 ms timer and resumes `b`; `b` waits in a suspend (lock, wait, lock, unlock)
 * and resumes `c`; `c` waits in a suspend. Each period the timer wakes `a` on the idle CPU,
 * `b` and `c` run after the task before them slept, each 10 ms after its last sleep. Per
 * task, the time from its switch-in to its wake-up of the next (`a` -> `b`, `b` -> `c`) with
 * the parameters against without them: wake_cold 7 us and wake_cold_idle 5 us (no decade) make
 * it 12 us longer for `a` (from idle), 7 us for `b` (its lock and unlock run first, then the
 * cost), and nothing with wake_cold_sleep 20 ms (every sleep is shorter); with
 * wake_cold_idle_decade 3 us `a`'s grows by 3 x log10(idle ms), its idle just under 10 ms:
 * 14.86-15 us in all (log10 9.9 = 0.9956).
 */
struct cold_probe {
	u64 in[3];	  /* the last switch-in of a, b, c (pids 1, 2, 3) */
	u64 delta[2][64]; /* a -> b's wake-up, b -> c's, since the waker's switch-in */
	int n[2];
};

static void cold_fn(void *ctx, const struct sl_event *ev)
{
	struct cold_probe *p = ctx;

	if (ev->type == SL_EV_SWITCH && ev->next_pid >= 1 && ev->next_pid <= 3)
		p->in[ev->next_pid - 1] = ev->time;
	/* b (pid 2) woken by a, c (pid 3) by b: the sched_waking's time */
	if ((ev->type == SL_EV_WAKEUP && !ev->latency) || ev->type == SL_EV_WAKING) {
		int k = ev->pid - 2;

		if (k >= 0 && k < 2 && p->n[k] < 64 && p->in[k])
			p->delta[k][p->n[k]++] = ev->time - p->in[k];
	}
}

/* the rt-app file json run on cpus for duration with params (up to a NULL), fn seeing its events */
static void rtapp_run(const char *json, const char *cpus, const char *duration,
		      const char *const *params, sl_event_fn fn, void *ctx)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[2048], wl[256];

	memset(&a, 0, sizeof(a));
	snprintf(wl, sizeof(wl), "rt-app:file=%s", json);
	a.cpus = cpus;
	a.duration = duration;
	a.workloads[a.nworkloads++] = wl;
	for (; *params; params++)
		a.params[a.nparams++] = *params;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	struct sl_sim *sim = sl_sim_new(&cfg);

	assert_non_null(sim);
	sl_sim_subscribe(sim, fn, ctx);
	assert_int_equal(sl_sim_run(sim), 0);
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

/* text written to a new temporary file, its name into path (a mkstemp template) */
static void write_temp(char *path, const char *text)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void cold_run(const char *json, const char *const *params, struct cold_probe *p)
{
	memset(p, 0, sizeof(*p));
	rtapp_run(json, "1", "105ms", params, cold_fn, p);
}

static void test_wake_cold(void **state)
{
	char json[] = "/tmp/schedlab-test-cold-XXXXXX";
	struct cold_probe off, on, far, dec;

	(void)state;
	write_temp(json,
		   "{ \"tasks\" : {\n"
		   " \"a\" : { \"policy\" : \"SCHED_FIFO\", \"priority\" : 10, \"loop\" : -1,\n"
		   "   \"timer\" : { \"ref\" : \"t\", \"period\" : 10000 }, \"resume\" : \"b\" },\n"
		   " \"b\" : { \"loop\" : -1, \"suspend\" : \"b\", \"resume\" : \"c\" },\n"
		   " \"c\" : { \"loop\" : -1, \"suspend\" : \"c\" } },\n"
		   " \"global\" : { \"calibration\" : 15 } }\n");
	cold_run(json, (const char *[]){NULL}, &off);
	cold_run(json, (const char *[]){"wake_cold=7us", "wake_cold_idle=5us", NULL}, &on);
	cold_run(json,
		 (const char *[]){"wake_cold=7us", "wake_cold_idle=5us", "wake_cold_sleep=20ms",
				  NULL},
		 &far);
	cold_run(json,
		 (const char *[]){"wake_cold=7us", "wake_cold_idle=5us",
				  "wake_cold_idle_decade=3us", NULL},
		 &dec);
	unlink(json);
	for (int k = 0; k < 2; k++) {
		assert_true(off.n[k] >= 9);
		assert_int_equal(on.n[k], off.n[k]);
		assert_int_equal(far.n[k], off.n[k]);
		assert_int_equal(dec.n[k], off.n[k]);
	}
	/* the first period's wake-ups follow no sleep of theirs (a starts awake; b and c sleep
	 * from their start, under 1 ms before a's first resume): from the second on */
	for (int i = 1; i < off.n[0]; i++) {
		assert_int_equal(on.delta[0][i] - off.delta[0][i], 12000);
		assert_int_equal(far.delta[0][i], off.delta[0][i]);
		assert_true(dec.delta[0][i] - off.delta[0][i] >= 14860 &&
			    dec.delta[0][i] - off.delta[0][i] <= 15000);
	}
	for (int i = 1; i < off.n[1]; i++) {
		assert_int_equal(on.delta[1][i] - off.delta[1][i], 7000);
		assert_int_equal(far.delta[1][i], off.delta[1][i]);
	}
}

/*
 * wake_cold's cost waits past a mutex's lock: a woken waiter tries the mutex first (glibc's
 * path, in the recordings a bounced waiter blocks on it 6 us after a 33 ms sleep). Two CPUs by
 * hand: `a` on CPU 0 locks m, broadcasts q, runs 50 us, unlocks m, sleeps on a 10 ms timer; `b`
 * on CPU 1 waits on q under m. Woken, `b` tries m while `a` still holds it, sleeps on it, and is
 * woken again by the unlock: two wake-ups of `b` a period. A cost of 100 us taken before the
 * lock would have let `a` unlock first (one wake-up a period); taken after it, the two stay, as
 * without the parameter.
 */
struct bounce_probe {
	int wakeups_b;
};

static void bounce_fn(void *ctx, const struct sl_event *ev)
{
	struct bounce_probe *p = ctx;

	if (ev->type == SL_EV_WAKEUP && ev->pid == 2)
		p->wakeups_b++;
}

static int bounce_run(const char *json, const char *param)
{
	struct bounce_probe p = {0};

	rtapp_run(json, "2", "95ms", (const char *[]){param, NULL}, bounce_fn, &p);
	return p.wakeups_b;
}

static void test_wake_cold_lock(void **state)
{
	char json[] = "/tmp/schedlab-test-cold-XXXXXX";
	int off, on;

	(void)state;
	write_temp(json,
		   "{ \"tasks\" : {\n"
		   " \"a\" : { \"cpus\" : [0], \"loop\" : -1,\n"
		   "   \"timer\" : { \"ref\" : \"t\", \"period\" : 10000 }, \"lock\" : \"m\",\n"
		   "   \"broad\" : \"q\", \"run\" : 50, \"unlock\" : \"m\" },\n"
		   " \"b\" : { \"cpus\" : [1], \"loop\" : -1, \"lock\" : \"m\",\n"
		   "   \"wait\" : { \"ref\" : \"q\", \"mutex\" : \"m\" }, \"unlock\" : \"m\" } },\n"
		   " \"global\" : { \"calibration\" : 15 } }\n");
	off = bounce_run(json, NULL);
	on = bounce_run(json, "wake_cold=100us");
	unlink(json);
	assert_true(off >= 16);
	assert_int_equal(on, off);
}

static void test_sib_idle_rate(void **state)
{
	struct sib_probe off = sib_run("2", "sib_idle_rate=0");
	struct sib_probe on = sib_run("2", "sib_idle_rate=500");
	struct sib_probe one = sib_run("2", "sib_idle_rate=1000");
	struct sib_probe alone = sib_run("1", "sib_idle_rate=500");
	struct sib_probe alone_off = sib_run("1", "sib_idle_rate=0");

	(void)state;
	assert_int_equal(off.n[1], 1);
	assert_int_equal(off.out[1][0], 10002 * NSEC_PER_USEC);
	assert_int_equal(off.out[2][2], 14002 * NSEC_PER_USEC);
	assert_int_equal(on.n[1], 1);
	assert_int_equal(on.out[1][0], 14000 * NSEC_PER_USEC);
	assert_int_equal(on.out[2][0], 2002 * NSEC_PER_USEC);
	assert_int_equal(on.out[2][1], 8002 * NSEC_PER_USEC);
	assert_int_equal(on.out[2][2], 14004 * NSEC_PER_USEC);
	assert_int_equal(on.out[2][3], 22004 * NSEC_PER_USEC);
	for (int i = 0; i < off.n[2]; i++)
		assert_int_equal(one.out[2][i], off.out[2][i]);
	assert_int_equal(one.out[1][0], off.out[1][0]);
	assert_int_equal(alone.n[1], 1);
	assert_int_equal(alone.n[2], alone_off.n[2]);
	assert_int_equal(alone.out[1][0], alone_off.out[1][0]);
	for (int i = 0; i < alone.n[2]; i++)
		assert_int_equal(alone.out[2][i], alone_off.out[2][i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hrtick),
		cmocka_unit_test(test_owner_spin),
		cmocka_unit_test(test_iowait),
		cmocka_unit_test(test_sched_idle_policy),
		cmocka_unit_test(test_compat_yield),
		cmocka_unit_test(test_hz),
		cmocka_unit_test(test_timer_slack),
		cmocka_unit_test(test_vcpu_pack),
		cmocka_unit_test(test_vcpu_pack_waker),
		cmocka_unit_test(test_vcpu_pack_other),
		cmocka_unit_test(test_vcpu_pack_queued),
		cmocka_unit_test(test_vcpu_pack_busy),
		cmocka_unit_test(test_vcpu_pack_irq),
		cmocka_unit_test(test_vcpu_pack_irq_busy),
		cmocka_unit_test(test_vcpu_pack_irq_alone),
		cmocka_unit_test(test_vcpu_pack_irq_move),
		cmocka_unit_test(test_wake_ipi),
		cmocka_unit_test(test_wake_tail),
		cmocka_unit_test(test_wake_cold),
		cmocka_unit_test(test_wake_cold_lock),
		cmocka_unit_test(test_wake_enqueue_busy),
		cmocka_unit_test(test_vcpu_util),
		cmocka_unit_test(test_vcpu_pack_room),
		cmocka_unit_test(test_vcpu_pack_room_sum),
		cmocka_unit_test(test_wake_path),
		cmocka_unit_test(test_wake_path_tail),
		cmocka_unit_test(test_vcpu_pack_wait),
		cmocka_unit_test(test_pack_wait_lower),
		/* vcpu_pack_wait's third class (step 15) */
		cmocka_unit_test(test_pack_wait_none),
		cmocka_unit_test(test_pack_wait_hot),
		cmocka_unit_test(test_pack_stay),
		cmocka_unit_test(test_pack_wait_split),
		cmocka_unit_test(test_pack_sis_gate),
		cmocka_unit_test(test_irq_same),
		cmocka_unit_test(test_irq_other_prio),
		cmocka_unit_test(test_sleep_timers),
		cmocka_unit_test(test_runnable_list),
		cmocka_unit_test(test_wake_rules_in_force),
		cmocka_unit_test(test_irq_bg),
		cmocka_unit_test(test_irq_bg_no_decision),
		cmocka_unit_test(test_sib_idle_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
