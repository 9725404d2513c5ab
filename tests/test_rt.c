/*
 * The real-time class (src/sched/rt/rt.c, rt_balance.c) against hand computations. The model's
 * defaults used below: HZ=1000 (1 ms ticks), ctx_switch 2 us, ipi 1 us, the poll idle driver
 * (no exit latency), sched_rt_period_us 1000000, sched_rt_runtime_us 950000.
 */
#include "rt_helpers.h"
#include "experiment/run.h"
#include "sched/rt/rt.h"

#define MS NSEC_PER_MSEC
#define US NSEC_PER_USEC

/* the time of the first switch to pid at or after t, or UINT64_MAX */
static u64 next_switch_in(const struct rt_probe *p, int pid, u64 t)
{
	for (int i = 0; i < p->n; i++)
		if (p->ev[i].type == SL_EV_SWITCH && p->ev[i].next_pid == pid && p->ev[i].time >= t)
			return p->ev[i].time;
	return UINT64_MAX;
}

static int count(const struct rt_probe *p, enum sl_event_type type, int pid)
{
	int n = 0;

	for (int i = 0; i < p->n; i++)
		if (p->ev[i].type == type && p->ev[i].pid == pid)
			n++;
	return n;
}

/*
 * A SCHED_FIFO task wakes on a CPU where four nice -20 fair hogs run: it runs at the very
 * instant of its wake-up. Its sleep timer is an interrupt of its own CPU, so the reschedule is
 * local (no IPI): wake-up to switch-in = 0 ns, every period. 200 ms at a 10 ms period: the
 * wake-ups at 10, 20, ..., 200 ms (20: the run handles the events of its last instant; the
 * first run starts at 0 from the fork).
 */
static void test_fifo_preempts_fair(void **state)
{
	const char *wl[] = {"hog:tasks=4,nice=-20",
			    "periodic:policy=fifo,rtprio=50,run=1ms,period=10ms", NULL};
	struct rt_probe *p = rt_run("1", "200ms", wl, NULL);
	int rt_pid = 5, n = 0;

	(void)state;
	for (int i = 0; i < p->n; i++) {
		if (p->ev[i].type != SL_EV_WAKEUP || p->ev[i].pid != rt_pid)
			continue;
		assert_int_equal(next_switch_in(p, rt_pid, p->ev[i].time), p->ev[i].time);
		n++;
	}
	assert_int_equal(n, 20);
	free(p);
}

/*
 * Two SCHED_FIFO tasks of one priority on one CPU, each needing 300 ms: the first runs until
 * it exits, the second only then. Three switches: idle -> 1 at 0, 1 -> 2 when 1 exits
 * (prev_state X), 2 -> idle when 2 exits. Task 1's exit: its first switch-in costs ctx_switch
 * 2 us, then 300 ms of work and the exit's 30 us: 300.032 ms; task 2 then pays the same:
 * 600.064 ms. (600 ms of RT time stays under the 950 ms runtime: no throttling.)
 */
static void test_fifo_same_prio_runs_to_block(void **state)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=50,tasks=2,work=300ms", NULL};
	struct rt_probe *p = rt_run("1", "1s", wl, NULL);
	u64 t[3] = {0, 0, 0};
	int k = 0;

	(void)state;
	for (int i = 0; i < p->n; i++)
		if (p->ev[i].type == SL_EV_SWITCH) {
			assert_true(k < 3);
			t[k++] = p->ev[i].time;
			if (k == 2) {
				assert_int_equal(p->ev[i].pid, 1);
				assert_int_equal(p->ev[i].prev_state, 'X');
				assert_int_equal(p->ev[i].next_pid, 2);
			}
		}
	assert_int_equal(k, 3);
	assert_int_equal(t[0], 0);
	assert_int_equal(t[1], 300 * MS + 32 * US);
	assert_int_equal(t[2], 600 * MS + 64 * US);
	free(p);
}

/*
 * sched_yield() puts a FIFO task at the tail of its priority's list: two FIFO hogs of one
 * priority yielding after each 1 ms of CPU alternate. Each run also pays its switch-in cost:
 * 2 us (ctx_switch) the first time, 2 us + 10 us (cache_refill: the other task ran on the CPU
 * meanwhile) afterwards. Switches: 0, 1.002 ms, 2.004 ms, then every 1.012 ms.
 */
static void test_fifo_yield(void **state)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=50,tasks=2,yield=1ms", NULL};
	struct rt_probe *p = rt_run("1", "10ms", wl, NULL);
	u64 want = 0;
	int k = 0;

	(void)state;
	for (int i = 0; i < p->n; i++) {
		if (p->ev[i].type != SL_EV_SWITCH)
			continue;
		assert_int_equal(p->ev[i].time, want);
		assert_int_equal(p->ev[i].next_pid, 1 + k % 2);
		k++;
		want += k <= 2 ? 1 * MS + 2 * US : 1 * MS + 12 * US;
	}
	/* 2.004 + 7 * 1.012 = 9.088 ms: the 10th switch; the 11th (10.1 ms) is past the end */
	assert_int_equal(k, 10);
	free(p);
}

/*
 * cache_refill_foreign: a switch-in on the CPU the task last ran on costs this much more when
 * a task of another workload group ran there since. One CPU, cache_refill 0, ctx_switch 2 us:
 * group A two FIFO hogs (pids 1, 2, rtprio 50) yielding after each 1 ms of CPU, group B a
 * FIFO periodic (pid 3, rtprio 60) of 500 us every 10 ms. 3 runs first (0 to 0.502 ms), then
 * 1 and 2 alternate at 2 us a switch (each first switch-in and each back after its own
 * group's other task): 0.502, 1.504, ..., 9.520 (2). At 10 ms 3's timer preempts 2 (478 us
 * of its 1 ms done): 3 pays 2 + 5 us (1 and 2 ran since): ends 10.507; 2 back at 10.507 pays
 * 7 (3 ran since), its 522 us left: yields at 11.036; 1 pays 7 (3 ran since its 8.518): to
 * 12.043; 2 then pays 2 (only 1 ran since its 10.507): 13.045; 1: 14.047. Off (0): 3 ends
 * 10.502, 2 to 11.026, 1 to 12.028, 2 to 13.030.
 */
static void check_refill_foreign(const char *knob, const u64 *want, const int *pid, int n)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=50,tasks=2,yield=1ms",
			    "periodic:policy=fifo,rtprio=60,run=500us,period=10ms", NULL};
	const char *knobs[] = {"cache_refill=0ns", "ctx_switch=2us", knob, NULL};
	struct rt_probe *p = rt_run("1", "13500us", wl, knobs);
	int k = 0;

	for (int i = 0; i < p->n && k < n; i++) {
		if (p->ev[i].type != SL_EV_SWITCH)
			continue;
		assert_int_equal(p->ev[i].time, want[k]);
		assert_int_equal(p->ev[i].next_pid, pid[k]);
		k++;
	}
	assert_int_equal(k, n);
	free(p);
}

static void test_refill_foreign(void **state)
{
	u64 on[16] = {0}, off[16] = {0};
	int pid[16] = {3};

	(void)state;
	/* 0.502 ms + k * 1.002 ms: 1, 2, 1, ... up to 2 at 9.520 */
	for (int k = 1; k <= 10; k++) {
		on[k] = off[k] = 502 * US + (u64)(k - 1) * 1002 * US;
		pid[k] = k % 2 ? 1 : 2;
	}
	on[11] = off[11] = 10 * MS;
	pid[11] = 3;
	on[12] = 10507 * US;
	off[12] = 10502 * US;
	pid[12] = 2;
	on[13] = 11036 * US;
	off[13] = 11026 * US;
	pid[13] = 1;
	on[14] = 12043 * US;
	off[14] = 12028 * US;
	pid[14] = 2;
	on[15] = 13045 * US;
	off[15] = 13030 * US;
	pid[15] = 1;
	check_refill_foreign("cache_refill_foreign=5us", on, pid, 16);
	check_refill_foreign("cache_refill_foreign=0ns", off, pid, 16);
}

/* the switch times of a run, checked against first + k * step, alternating pids 1 and 2 */
static void check_rr(const char *hz, int nswitch, u64 step)
{
	const char *wl[] = {"hog:policy=rr,rtprio=10,tasks=2", NULL};
	const char *knobs[] = {"kernel.sched_rt_runtime_us=-1", hz, NULL};
	struct rt_probe *p = rt_run("1", "999999950ns", wl, knobs);
	int k = 0;

	for (int i = 0; i < p->n; i++) {
		if (p->ev[i].type != SL_EV_SWITCH)
			continue;
		assert_int_equal(p->ev[i].time, (u64)k * step);
		assert_int_equal(p->ev[i].next_pid, 1 + k % 2);
		k++;
	}
	assert_int_equal(k, nswitch);
	free(p);
}

/*
 * SCHED_RR, two tasks of one priority on one CPU, no throttling, for 999999950 ns:
 * RR_TIMESLICE = 100 * HZ / 1000 ticks. HZ=1000: 100 ticks of 1 ms, the tasks alternate at 0,
 * 100, ..., 900 ms: 10 switches (the one at 1000 ms is past the end). HZ=300: 30 ticks of
 * 1e9 / 300 = 3333333 ns = 99999990 ns, so the 11th switch (10 * 99999990 = 999999900 ns)
 * still falls inside: 11 switches. HZ=100: 10 ticks of 10 ms, 100 ms again.
 */
static void test_rr_slices(void **state)
{
	(void)state;
	check_rr("hz=1000", 10, 100 * MS);
	check_rr("hz=300", 11, 99999990);
	check_rr("hz=100", 10, 100 * MS);
}

/*
 * Throttling: a SCHED_FIFO hog and a fair hog on one CPU for 3 s. rt_time passes the runtime
 * (strictly) at the tick of 951 ms: the fair hog runs from there until the period timer at
 * 1000 ms takes 950 ms off (1 ms left), unthrottles, and reschedules by IPI (the timer is no
 * CPU's): 1000.001 ms. Then the FIFO hog restarts with 1 ms charged, passes 950 ms at the tick
 * of 1950 ms: fair from 1950 to 2000.001 ms, and from 2950 ms to the end. Fair CPU time:
 * 49.001 + 50.001 + 50 = 149.002 ms. With runtime 900000: 99.001 + 100.001 + 100 =
 * 299.002 ms. With -1 (no throttling) the fair hog never runs.
 */
static u64 fair_time(const char *runtime)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=50", "hog", NULL};
	const char *knobs[] = {runtime, NULL};
	struct rt_probe *p = rt_run("1", "3s", wl, runtime ? knobs : NULL);
	u64 t = rt_cpu_ns(p, 2, 3 * NSEC_PER_SEC);

	free(p);
	return t;
}

static void test_throttling(void **state)
{
	(void)state;
	assert_int_equal(fair_time(NULL), 149 * MS + 2 * US);
	assert_int_equal(fair_time("kernel.sched_rt_runtime_us=900000"), 299 * MS + 2 * US);
	assert_int_equal(fair_time("kernel.sched_rt_runtime_us=-1"), 0);

	/* the limit is per CPU (no runtime borrowed from another CPU): on 2 CPUs, two FIFO hogs
	 * (one per CPU) and two fair hogs, each fair hog gets the same 149.002 ms (the
	 * period timer's IPIs reach both CPUs at 1000.001 and 2000.001 ms) */
	const char *two[] = {"hog:policy=fifo,rtprio=50,tasks=2", "hog:tasks=2", NULL};
	struct rt_probe *p = rt_run("2", "3s", two, NULL);

	assert_int_equal(rt_cpu_ns(p, 3, 3 * NSEC_PER_SEC), 149 * MS + 2 * US);
	assert_int_equal(rt_cpu_ns(p, 4, 3 * NSEC_PER_SEC), 149 * MS + 2 * US);
	free(p);

	/* the same figures in the per-task statistics of `schedlab run` */
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.cpus = "1";
	a.duration = "3s";
	a.workloads[a.nworkloads++] = "hog:policy=fifo,rtprio=50";
	a.workloads[a.nworkloads++] = "hog";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	assert_int_equal(r.stats.pid[2].cpu_ns, 149 * MS + 2 * US);
	assert_int_equal(r.stats.pid[1].cpu_ns, 3 * NSEC_PER_SEC - (149 * MS + 2 * US));
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/*
 * Higher priority first: rtprio 10 (pid 1) and rtprio 20 (pid 2), both 100 ms of work, created
 * in that order at 0 on one CPU: pid 2 runs first and to its exit (2 us + 100 ms + 30 us), then
 * pid 1. A FIFO hog at rtprio 50 starves a periodic FIFO task of rtprio 40 (never runs, not
 * even in the throttled 5%: no RT task runs then), and is preempted by one of rtprio 60.
 */
static void test_priority_order(void **state)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=10,work=100ms",
			    "hog:policy=fifo,rtprio=20,work=100ms", NULL};
	struct rt_probe *p = rt_run("1", "1s", wl, NULL);

	(void)state;
	assert_int_equal(next_switch_in(p, 2, 0), 0);
	assert_int_equal(next_switch_in(p, 1, 0), 100 * MS + 32 * US);
	free(p);

	const char *low[] = {"hog:policy=fifo,rtprio=50",
			     "periodic:policy=fifo,rtprio=40,run=1ms,period=10ms", NULL};

	p = rt_run("1", "2s", low, NULL);
	assert_int_equal(next_switch_in(p, 2, 0), UINT64_MAX);
	free(p);

	const char *high[] = {"hog:policy=fifo,rtprio=50",
			      "periodic:policy=fifo,rtprio=60,run=1ms,period=10ms", NULL};

	p = rt_run("1", "200ms", high, NULL);
	int n = 0;

	for (int i = 0; i < p->n; i++)
		if (p->ev[i].type == SL_EV_WAKEUP && p->ev[i].pid == 2) {
			assert_int_equal(next_switch_in(p, 2, p->ev[i].time), p->ev[i].time);
			n++;
		}
	assert_int_equal(n, 20); /* 10, 20, ..., 200 ms */
	free(p);
}

/*
 * Wake-up placement on 2 CPUs: a FIFO hog (rtprio 50) runs on CPU 0; a periodic FIFO task of
 * the same priority is created at 10 ms by the shell on CPU 0. CPU 0 runs an RT task of equal
 * priority, so select_task_rq_rt takes the CPU of the lowest-priority work: CPU 1 (idle). Its
 * later wake-ups stay there (CPU 1 runs nothing of higher or equal priority), each switched in
 * at once; the hog never moves.
 */
static void test_wakeup_placement(void **state)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=50",
			    "periodic:policy=fifo,rtprio=50,run=1ms,period=10ms,start=10ms", NULL};
	struct rt_probe *p = rt_run("2", "200ms", wl, NULL);
	int wakeups = 0;

	(void)state;
	for (int i = 0; i < p->n; i++) {
		const struct sl_event *e = &p->ev[i];

		if (e->type == SL_EV_WAKEUP_NEW && e->pid == 2) {
			assert_int_equal(e->cpu, 1);
			assert_int_equal(e->time, 10 * MS);
		}
		if (e->type == SL_EV_WAKEUP && e->pid == 2) {
			assert_int_equal(e->cpu, 1);
			assert_int_equal(next_switch_in(p, 2, e->time), e->time);
			wakeups++;
		}
		if (e->type == SL_EV_SWITCH && e->next_pid == 1)
			assert_int_equal(e->cpu, 0);
	}
	/* wake-ups at 20, 30, ..., 200 ms (its period counts from its start at 10 ms) */
	assert_int_equal(wakeups, 19);
	assert_int_equal(count(p, SL_EV_MIGRATE, 1), 0);
	free(p);
}

/*
 * Push: two FIFO hogs of one priority created at 0 on 2 CPUs. The shell forks both on CPU 0
 * (idle then, so no RT task there yet to avoid); when CPU 0 switches to the first, its
 * post-schedule push moves the second to idle CPU 1 (one migration), which polls need_resched
 * (the poll idle driver: no IPI) and runs it at once: 500 ms of CPU each in 500 ms. Without
 * the push the second would wait behind the first, a FIFO task that never blocks: 0 ms.
 */
static void test_push(void **state)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=50,tasks=2", NULL};
	struct rt_probe *p = rt_run("2", "500ms", wl, NULL);

	(void)state;
	assert_int_equal(count(p, SL_EV_MIGRATE, 2), 1);
	assert_int_equal(rt_cpu_ns(p, 1, 500 * MS), 500 * MS);
	assert_int_equal(rt_cpu_ns(p, 2, 500 * MS), 500 * MS);
	free(p);
}

/*
 * RT preempts fair on other CPUs at the cost of the IPIs only: two fair hogs run on CPUs 1 and
 * 0; at 10 ms the shell (no CPU's context) creates two FIFO hogs. Both go to CPU 0 (its task
 * is fair, nothing to avoid) and the first wake-up sends CPU 0 a reschedule IPI: at 10.001 ms
 * CPU 0 switches to pid 3, and its post-schedule push moves pid 4 to CPU 1 (fair work, below
 * prio 49) with a second IPI: pid 4 runs on CPU 1 at 10.002 ms.
 */
static void test_remote_preempt_ipi(void **state)
{
	const char *wl[] = {"hog:tasks=2", "hog:policy=fifo,rtprio=50,tasks=2,start=10ms", NULL};
	struct rt_probe *p = rt_run("2", "20ms", wl, NULL);

	(void)state;
	for (int i = 0; i < p->n; i++) {
		const struct sl_event *e = &p->ev[i];

		if (e->type == SL_EV_SWITCH && e->next_pid == 3)
			assert_int_equal(e->cpu, 0);
		if (e->type == SL_EV_SWITCH && e->next_pid == 4)
			assert_int_equal(e->cpu, 1);
	}
	assert_int_equal(next_switch_in(p, 3, 0), 10 * MS + 1 * US);
	assert_int_equal(next_switch_in(p, 4, 0), 10 * MS + 2 * US);
	assert_int_equal(count(p, SL_EV_MIGRATE, 4), 1);
	free(p);
}

/*
 * Pull: on 2 CPUs, X (rtprio 90, a hog) and Y (rtprio 80, 100 ms of work) are created at 0;
 * X runs on CPU 0 and Y is pushed to CPU 1. W (rtprio 60) is created at 10 ms on CPU 0 (both
 * CPUs run better RT tasks, so it waits there: CPU 0 is overloaded). When Y exits on CPU 1,
 * CPU 1's best RT priority drops: pre-schedule pulls W from CPU 0, and W runs on CPU 1 at the
 * instant of Y's exit.
 */
static void test_pull(void **state)
{
	const char *wl[] = {"hog:policy=fifo,rtprio=90", "hog:policy=fifo,rtprio=80,work=100ms",
			    "hog:policy=fifo,rtprio=60,start=10ms", NULL};
	struct rt_probe *p = rt_run("2", "300ms", wl, NULL);
	u64 y_exit = 0, w_migrate = 0;

	(void)state;
	for (int i = 0; i < p->n; i++) {
		const struct sl_event *e = &p->ev[i];

		if (e->type == SL_EV_SWITCH && e->pid == 2 && e->prev_state == 'X') {
			assert_int_equal(e->cpu, 1);
			assert_int_equal(e->next_pid, 3);
			y_exit = e->time;
		}
		if (e->type == SL_EV_MIGRATE && e->pid == 3) {
			assert_int_equal(e->orig_cpu, 0);
			assert_int_equal(e->cpu, 1);
			w_migrate = e->time;
		}
	}
	assert_true(y_exit > 100 * MS);
	assert_int_equal(w_migrate, y_exit);
	assert_int_equal(next_switch_in(p, 3, 0), y_exit);
	free(p);
}

/* The kernel's prio of a task as sched_switch shows it: 99 - rt_priority, or 120 + nice. */
static void test_prio(void **state)
{
	struct sl_task t;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.policy = SL_SCHED_FIFO;
	t.rt_priority = 50;
	assert_int_equal(sl_task_prio(&t), 49);
	t.policy = SL_SCHED_RR;
	t.rt_priority = 99;
	assert_int_equal(sl_task_prio(&t), 0);
	t.policy = SL_SCHED_NORMAL;
	t.rt_priority = 0;
	t.nice = -5;
	assert_int_equal(sl_task_prio(&t), 115);
}

/* Bad input: the workload keys and the sysctls as the kernel's sched_setscheduler and
 * sched_rt_handler check them. */
static void test_bad_input(void **state)
{
	static const struct {
		const char *wl, *sysctl, *want;
	} cases[] = {
		{"hog:policy=fifo", NULL, "needs rtprio=1..99"},
		{"hog:policy=rr,rtprio=100", NULL, "out of range"},
		{"hog:rtprio=5", NULL, "only policy=fifo or rr"},
		{"periodic:policy=deadline", NULL, "expected normal, batch, idle, fifo, rr or iso"},
		{"hog", "kernel.sched_rt_runtime_us=1000001",
		 "more than kernel.sched_rt_period_us"},
		{"hog", "kernel.sched_rt_period_us=900000", "less than kernel.sched_rt_runtime_us"},
		{"hog", "kernel.sched_rt_runtime_us=-2", "out of range"},
		{"hog", "kernel.sched_rt_period_us=0", "out of range"},
	};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		struct sl_args a;
		struct sl_config cfg;
		char err[2048] = "";

		memset(&a, 0, sizeof(a));
		a.workloads[a.nworkloads++] = cases[i].wl;
		if (cases[i].sysctl)
			a.sysctls[a.nsysctls++] = cases[i].sysctl;
		assert_int_not_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
		if (!strstr(err, cases[i].want))
			fail_msg("%s %s: '%s' does not say '%s'", cases[i].wl,
				 cases[i].sysctl ? cases[i].sysctl : "", err, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_preempts_fair),
		cmocka_unit_test(test_fifo_same_prio_runs_to_block),
		cmocka_unit_test(test_rr_slices),
		cmocka_unit_test(test_fifo_yield),
		cmocka_unit_test(test_refill_foreign),
		cmocka_unit_test(test_throttling),
		cmocka_unit_test(test_priority_order),
		cmocka_unit_test(test_wakeup_placement),
		cmocka_unit_test(test_push),
		cmocka_unit_test(test_pull),
		cmocka_unit_test(test_remote_preempt_ipi),
		cmocka_unit_test(test_prio),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
