/*
 * The trace workload (src/workload/trace.c): what it extracts from a small hand-written trace,
 * computed by hand below; the file:line error of a malformed trace; and the self-consistency
 * round trip: a run written with --trace-out and replayed as `trace:file=` on the same
 * configuration gives each task its CPU time, switches and wake-ups back within 2%, on several
 * workloads and kernels.
 */
#include "helpers.h"
#include "experiment/run.h"
#include "trace/trace_stats.h"
#include "workload/trace.h"

#include <unistd.h>

static void data_path(char *buf, size_t n, const char *name)
{
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;

	snprintf(buf, n, "%.*s/data/trace-workload/%s", dir, slash ? __FILE__ : ".", name);
}

static const struct sl_tw_task *by_pid(const struct sl_tw *tw, int pid)
{
	for (int i = 0; i < tw->n; i++)
		if (tw->t[i].pid == pid)
			return &tw->t[i];
	fail_msg("pid %d not extracted", pid);
	return NULL;
}

/* the ops of t other than the switch-ins, as kind/ns pairs */
static void assert_ops(const struct sl_tw_task *t, const int *kind, const u64 *ns, int n)
{
	int j = 0, extra = 0;

	for (int k = 0; k < t->nops; k++) {
		if (t->ops[k].kind == TW_CIN)
			continue;
		if (j == n) {
			extra++;
			continue;
		}
		assert_int_equal(t->ops[k].kind, kind[j]);
		assert_int_equal(t->ops[k].ns, ns[j]);
		j++;
	}
	assert_int_equal(j, n);
	assert_int_equal(extra, 0);
}

/*
 * small.trace, times from its first record (1.000000 s = 0):
 *  a-10 on CPU 0 since before the trace (its first record is there: first_burst 1). At 0 it
 *  wakes b-20 (blocked since before the trace, S, no timer, no interrupt: a dependency; a's
 *  burst so far is 0, so only the wake op). At 500 us a forks c-30: RUN 500 us, FORK. At 2 ms
 *  a arms an hrtimer_wakeup timer and sleeps (S): RUN 1.5 ms. The timer expires on CPU 1 at
 *  6 ms and wakes a (6.001 ms): SLEEP 6.001 - 2 = 4.001 ms. a runs on CPU 1 from 6.010 ms to
 *  the trace's end, 7 ms: RUN 0.990 ms. cpu 0.5 + 1.5 + 0.99 = 2.990 ms.
 *  b: WAIT (0 ns: blocked since the trace's start, woken at 0); runs 0.010 to 3.010 ms: RUN
 *  3 ms; D until the interrupt's wake-up at 4.001 ms: IO 0.991 ms; its switch-in is missing
 *  (its record at 4.100 ms, the CPU's last idle record at 4.001 ms: missed_switch_in 1); it
 *  is charged from its sighting at 4.100 ms, as trace-stats charges it (the 99 us from the
 *  idle task's last record are nobody's: one lost switch, unattributed 99 us): RUN 0.900 ms
 *  to 5 ms; sleeps S and is never woken: blocked_at_end 1.
 *  The run account: a's run begins with CPU 0's first record (at_start 1), b's second with a
 *  sighting (sighted 1); CPU 1's records begin 10 us after the trace's (late_cpus 1,
 *  late_ns 10000).
 *  c: created at 0.5 ms by a, runs 2 to 4.6 ms and dies: RUN 2.6 ms.
 */
static void test_extract_small(void **state)
{
	char path[512], err[1024];
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "small.trace");
	assert_int_equal(sl_tw_extract(&tw, path, 0, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), 0);
	assert_int_equal(tw.n, 3);
	const struct sl_tw_task *a = by_pid(&tw, 10), *b = by_pid(&tw, 20), *c = by_pid(&tw, 30);
	const int ka[] = {TW_WAKE, TW_RUN, TW_FORK, TW_RUN, TW_SLEEP, TW_RUN};
	const u64 na[] = {0, 500000, 0, 1500000, 4001000, 990000};
	const int kb[] = {TW_WAIT, TW_RUN, TW_IO, TW_RUN};
	const u64 nb[] = {0, 3000000, 991000, 900000};
	const int kc[] = {TW_RUN};
	const u64 nc[] = {2600000};

	assert_ops(a, ka, na, 6);
	assert_ops(b, kb, nb, 4);
	assert_ops(c, kc, nc, 1);
	assert_int_equal(a->cpu_ns, 2990000);
	assert_int_equal(b->cpu_ns, 3900000);
	assert_int_equal(c->parent, a - tw.t);
	assert_int_equal(c->created, 500000);
	assert_true(c->exited && !a->exited && !b->exited);
	assert_int_equal(b->io_reqs, 1);
	assert_int_equal(tw.deps, 1);
	assert_int_equal(tw.timed, 1);
	assert_int_equal(tw.io, 1);
	assert_int_equal(tw.un.first_burst, 1);
	assert_int_equal(tw.un.missed_switch_in, 1);
	assert_int_equal(tw.un.blocked_at_end, 1);
	assert_int_equal(tw.ra.at_start, 1);
	assert_int_equal(tw.ra.sighted, 1);
	assert_int_equal(tw.ra.late_cpus, 1);
	assert_int_equal(tw.ra.late_ns, 10000);
	assert_int_equal(tw.ra.lost_switches, 1);
	assert_int_equal(tw.ra.unattributed_ns, 99000);
	assert_int_equal(tw.pid_reuse + tw.woken_only, 0);
	assert_int_equal(tw.un.irq_wake + tw.un.idle_wake + tw.un.no_wake + tw.un.missing_switch,
			 0);
	/* a's second switch-in is a migration from CPU 0 to CPU 1 */
	assert_int_equal(a->ops[a->nops - 2].kind, TW_CIN);
	assert_int_equal(a->ops[a->nops - 2].arg, 0);
	assert_int_equal(a->ops[a->nops - 2].arg2, 1);
	sl_tw_free(&tw);
}

/*
 * handoff.trace (times from 1.000000 s), lock hand-offs (docs/workloads.md "Lock hand-offs"):
 *  lockA-61 runs on CPU 0 from 0 (switch-in, op 0) to 1000 us (RUN, op 1), sleeps on its
 *  hrtimer to 1015 us (SLEEP, op 2), is switched in at 1015 us (op 3) and wakes lockB at
 *  1030 us (RUN 15 us, op 4; WAKE, op 5), dep at 1035 us (RUN, WAKE: ops 6, 7), then blocks at
 *  1040 us until lockB wakes it at 1050 us.
 *  lockB-62 on CPU 1 from 1 us, preempted by hog-63's tick at 11 us, back at 1011 us, blocks at
 *  1021 us: RUN 20 us (op 2), then WAIT (op 3) for lockA's wake-up at 1030 us. When it
 *  blocked, lockA had been running without blocking since its switch-in at 1015 us: lockA
 *  holds from its op 3. lockB wakes lockA too (1050 us): a hand-off (1).
 *  lockA's wait: its waker lockB was woken by lockA at 1030 us, in lockA's burst that began at
 *  1015 us and blocked at 1040 us: a reply, fixed (reply 1).
 *  dep-64 (CPU 2) blocks at 1020 us, lockA (switched in at 1015 us) wakes it at 1035 us: a
 *  hold as lockB's, but dep never wakes lockA: fixed (one_way 1).
 */
static void test_handoff(void **state)
{
	char path[512], err[1024];
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "handoff.trace");
	assert_int_equal(
		sl_tw_extract(&tw, path, SL_TW_HANDOFFS, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), 0);
	const struct sl_tw_task *a = by_pid(&tw, 61), *b = by_pid(&tw, 62);
	const int ka[] = {TW_RUN,  TW_SLEEP, TW_RUN,  TW_WAKE, TW_RUN,
			  TW_WAKE, TW_RUN,   TW_WAIT, TW_RUN};
	const u64 na[] = {1000000, 15000, 15000, 0, 5000, 0, 5000, 10000, 48000};

	assert_ops(a, ka, na, 9);
	assert_int_equal(a->ops[3].kind, TW_CIN);
	assert_int_equal(a->ops[3].ns, 1001015000);
	assert_int_equal(b->ops[3].kind, TW_WAIT);
	assert_int_equal(tw.deps, 3);
	assert_int_equal(tw.nho, 1);
	assert_int_equal(tw.ho[0].waker, a - tw.t);
	assert_int_equal(tw.ho[0].wakee, b - tw.t);
	assert_int_equal(tw.ho[0].hold, 3);
	assert_int_equal(tw.ho[0].wake, 5);
	assert_int_equal(tw.ho[0].wait, 3);
	assert_int_equal(tw.fixed.reply, 1);
	assert_int_equal(tw.fixed.one_way, 1);
	assert_int_equal(tw.fixed.waker_off, 0);
	sl_tw_free(&tw);
	/* without the flag every wake-up by a task is a fixed dependency, none counted */
	assert_int_equal(sl_tw_extract(&tw, path, 0, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), 0);
	assert_int_equal(tw.deps, 3);
	assert_int_equal(tw.nho + tw.fixed.reply + tw.fixed.one_way + tw.fixed.waker_off, 0);
	sl_tw_free(&tw);
}

/*
 * early-wake.trace (times from 1.000000 s): p-71 on CPU 0 wakes q-72 at 100 us while q still
 * runs on CPU 1; q's next record is its switch-out S at 102 us: the wake-up ended that block
 * (try_to_wake_up raced q's schedule()): q: RUN 102 us, WAIT 0 (waker p), RUN 90 us (110 to
 * 200 us); p: RUN 100 us, WAKE q. p wakes r-73 at 150 us while r runs on CPU 2, but r's next
 * record is a tick in its context (160 us): the wake-up found it running (wake_not_blocked
 * 1), p's WAKE goes (a RUN of 0), and r's switch-out S at 170 us, switched in at 180 us with
 * no wake-up, is an open sleep of 10 us (no_wake 1).
 */
static void test_early_wake(void **state)
{
	char path[512], err[1024];
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "early-wake.trace");
	assert_int_equal(sl_tw_extract(&tw, path, 0, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), 0);
	const struct sl_tw_task *p = by_pid(&tw, 71), *q = by_pid(&tw, 72), *r = by_pid(&tw, 73);
	const int kp[] = {TW_RUN, TW_WAKE, TW_RUN, TW_RUN, TW_RUN};
	const u64 np[] = {100000, 0, 50000, 0, 150000};
	const int kq[] = {TW_RUN, TW_WAIT, TW_RUN};
	const u64 nq[] = {102000, 0, 90000};
	const int kr[] = {TW_RUN, TW_OPEN, TW_RUN};
	const u64 nr[] = {170000, 10000, 70000};

	assert_ops(p, kp, np, 5);
	assert_ops(q, kq, nq, 3);
	assert_ops(r, kr, nr, 3);
	assert_int_equal(tw.deps, 1);
	assert_int_equal(tw.early, 1);
	assert_int_equal(tw.un.wake_not_blocked, 1);
	assert_int_equal(tw.un.no_wake, 1);
	assert_int_equal(p->wakes_given, 1);
	sl_tw_free(&tw);
}

/*
 * reuse.trace: p-10 forks pid 40, which runs 0.1-0.35 ms, wakes p and exits
 * (sched_process_exit), is preempted (R+) by p, runs again 0.4-0.45 ms, wakes p and dies (Z):
 * one task, 250 + 50 = 300 us of CPU. p forks pid 40 again, which runs 0.6-1.0 ms and dies
 * (X): a second task of pid 40, 400 us. Three tasks in all.
 */
static void test_pid_reuse(void **state)
{
	char path[512], err[1024];
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "reuse.trace");
	assert_int_equal(sl_tw_extract(&tw, path, 0, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), 0);
	assert_int_equal(tw.n, 3);
	assert_int_equal(tw.t[1].pid, 40);
	assert_int_equal(tw.t[2].pid, 40);
	assert_int_equal(tw.t[1].cpu_ns, 300000);
	assert_int_equal(tw.t[2].cpu_ns, 400000);
	assert_int_equal(tw.t[1].parent, 0);
	assert_int_equal(tw.t[2].parent, 0);
	assert_true(tw.t[1].exited && tw.t[2].exited);
	assert_int_equal(tw.t[0].forks, 2);
	assert_int_equal(tw.pid_reuse, 1);
	sl_tw_free(&tw);
}

/* a malformed line: the file and its line, from the workload as from the command */
static void test_bad_trace(void **state)
{
	char path[512], err[1024];
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "bad.trace");
	assert_int_equal(sl_tw_extract(&tw, path, 0, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad.trace:12: "));
	sl_tw_free(&tw);
}

/*
 * calibration=DIR: the recording machine's switch costs (machines/fc-2vcpu/machine.conf:
 * ctx_switch 999 ns, ctx_switch_bare 324 ns, timer_slack 82307 ns, migrate_core 7069 ns) become
 * the run's, each unless --param sets it, the switch priced at the switch alone (a recorded
 * burst holds its system calls); a file with no cost parameter is refused.
 */
static void test_calibration(void **state)
{
	char path[512], cal[512], spec[1200], err[2048];
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;
	struct sl_args a;
	struct sl_config cfg;

	(void)state;
	data_path(path, sizeof(path), "small.trace");
	snprintf(cal, sizeof(cal), "%.*s/../machines/fc-2vcpu", dir, slash ? __FILE__ : ".");
	snprintf(spec, sizeof(spec), "trace:file=%s,calibration=%s", path, cal);
	memset(&a, 0, sizeof(a));
	a.workloads[a.nworkloads++] = spec;
	a.params[a.nparams++] = "cache_refill=1us";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.ctx_switch_ns, 324);
	assert_int_equal(cfg.params.timer_slack_ns, 82307);
	assert_int_equal(cfg.params.migrate_core_ns, 7069);
	assert_int_equal(cfg.params.cache_refill_ns, 1000);
	sl_config_free(&cfg);
	/* --param ctx_switch wins over the calibration's, bare or not */
	a.params[a.nparams++] = "ctx_switch=2us";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.ctx_switch_ns, 2000);
	sl_config_free(&cfg);
	/* --param ctx_switch_bare prices the switches as the calibration's line does */
	a.params[a.nparams - 1] = "ctx_switch_bare=500ns";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.ctx_switch_ns, 500);
	sl_config_free(&cfg);
	/* and 0 ("not measured") leaves the calibration's whole hand-off, 999 ns */
	a.params[a.nparams - 1] = "ctx_switch_bare=0ns";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.ctx_switch_ns, 999);
	sl_config_free(&cfg);
	a.nparams--;
	snprintf(spec, sizeof(spec), "trace:file=%s,calibration=%s", path, path);
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a calibration"));
}

/*
 * A calibration's ctx_switch_bare is a replay's ctx_switch, whether the file has a ctx_switch
 * line or not; without it the ctx_switch line stays. The file's lines are kept as written: the
 * price is set once, on the run's parameters (the report's: tests/trace_workload.sh).
 */
static void test_bare_price(void **state)
{
	char dir[] = "/tmp/sl-bare-XXXXXX", conf[64], path[512], spec[1200], err[1024];
	static const char *const text[] = {
		"cpus 2\nparam ctx_switch=3000ns\nparam ctx_switch_bare=500ns\n",
		"cpus 2\nparam ctx_switch_bare=400ns\nparam cache_refill=0ns\n",
		"cpus 2\nparam ctx_switch=3000ns\n"};
	static const char *const first[] = {"ctx_switch=3000ns", "ctx_switch_bare=400ns",
					    "ctx_switch=3000ns"};
	static const int n[] = {2, 2, 1};
	static const u64 price[] = {500, 400, 3000};
	struct sl_tw_costs c;
	struct sl_args a;
	struct sl_config cfg;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(conf, sizeof(conf), "%s/machine.conf", dir);
	data_path(path, sizeof(path), "small.trace");
	snprintf(spec, sizeof(spec), "trace:file=%s,calibration=%s", path, conf);
	for (int i = 0; i < 3; i++) {
		assert_non_null(f = fopen(conf, "w"));
		fputs(text[i], f);
		fclose(f);
		assert_int_equal(sl_tw_costs_load(&c, "t.trace", conf, err, sizeof(err)), 0);
		assert_int_equal(c.n, n[i]);
		assert_string_equal(c.param[0], first[i]);
		memset(&a, 0, sizeof(a));
		a.workloads[a.nworkloads++] = spec;
		assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
		assert_int_equal(cfg.params.ctx_switch_ns, price[i]);
		sl_config_free(&cfg);
	}
	unlink(conf);
	rmdir(dir);
}

/*
 * idle-wake.trace (times in us from 1.000000 s): ten rounds in which a-21 on CPU 0 wakes b-22
 * onto CPU 1, idle since b blocked, and b runs there 30 us later; b wakes a onto CPU 0, idle
 * since a blocked, and a runs 40 us later: 20 remote wake-ups, ten of 30 us and ten of 40 us,
 * sorted the 3rd (20 x 16 / 100) is 30, the 10th (median) and 16th 40: p50 40 us, sd (40 -
 * 30) / 2 = 5 us. Then c-23 on CPU 1 sleeps 100 us twenty times, woken each time on its idle
 * CPU by its own hrtimer (sched_waking there, from the idle task) and run 8 us later: p50 8
 * us, sd 0. The run takes them as wake_remote (less the IPI, 1000 ns, and the deepest idle
 * state's exit: none on the default machine, which polls; vm-haltpoll's halt 1000 ns) and
 * wake_local, unless --param sets them.
 */
static void test_idle_wake(void **state)
{
	char path[512], spec[1200], err[2048];
	struct sl_args a;
	struct sl_config cfg;
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "idle-wake.trace");
	assert_int_equal(sl_tw_extract(&tw, path, 0, SL_TW_IRQ_WINDOW_NS, err, sizeof(err)), 0);
	assert_int_equal(tw.wake_remote.n, 20);
	assert_int_equal(tw.wake_remote.p50, 40000);
	assert_int_equal(tw.wake_remote.sd, 5000);
	assert_int_equal(tw.wake_local.n, 20);
	assert_int_equal(tw.wake_local.p50, 8000);
	assert_int_equal(tw.wake_local.sd, 0);
	sl_tw_free(&tw);

	snprintf(spec, sizeof(spec), "trace:file=%s", path);
	memset(&a, 0, sizeof(a));
	a.workloads[a.nworkloads++] = spec;
	a.kernel = "6.18";
	a.cpus = "2";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.wake_remote, 40000);
	assert_int_equal(cfg.params.wake_remote_sd, 5000);
	assert_int_equal(cfg.params.wake_local, 8000);
	assert_int_equal(cfg.params.wake_local_sd, 0);
	sl_config_free(&cfg);
	a.machine = "vm-haltpoll";
	a.params[a.nparams++] = "wake_local=0ns";
	a.params[a.nparams++] = "wake_remote_sd=1us";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.wake_remote, 38000);
	assert_int_equal(cfg.params.wake_remote_sd, 1000);
	assert_int_equal(cfg.params.wake_local, 0);
	sl_config_free(&cfg);
	a.params[a.nparams++] = "wake_remote=0ns";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(cfg.params.wake_remote, 0);
	sl_config_free(&cfg);
}

/* the marks of t's WAKE ops, in order (1: onto another CPU, idle since before it); n <= 16 */
static void assert_wake_marks(const struct sl_tw_task *t, const int *mark, int n)
{
	int got[16] = {0}, j = 0;

	for (int k = 0; k < t->nops; k++)
		if (t->ops[k].kind == TW_WAKE && j++ < 16)
			got[j - 1] = t->ops[k].cost;
	assert_int_equal(j, n);
	for (int k = 0; k < n && k < 16; k++)
		assert_int_equal(got[k], mark[k]);
}

/*
 * remote-wake.trace (times in us from 1.000000 s): r-13 runs on CPU 0 and q-12 on CPU 1 first,
 * then three rounds: p-11 on CPU 0 wakes q onto CPU 1, idle since q's last block (at 20, 110,
 * 200: marked), wakes r locally (target_cpu 000, its own CPU, at 30, 120, 210) and blocks; q
 * wakes p onto CPU 0, idle since r blocked there (at 70, 160, 250: marked). The sched_wakeup of
 * each marked one is on the target CPU, from its idle task (a queued wake-up). p's WAKEs: q
 * marked, r not, three times; q's: p, marked, three times.
 * remote-migrate.trace: p on CPU 0 wakes q, whose sched_waking says CPU 0 (where q last ran),
 * a sched_migrate_task moves it to CPU 1 and its sched_wakeup comes from CPU 1, idle since 3:
 * marked; then p wakes q, whose sched_waking says CPU 1, but it is pulled to CPU 0, p's own
 * (sched_wakeup target_cpu 000): not marked.
 * remote-wakeup.trace, no sched_waking (the sched_wakeup in the waker's context says where):
 * p on CPU 0 wakes q onto CPU 1 at 10 (idle since 5: marked), q on CPU 1 wakes p at 30 with
 * target_cpu 001 (its own CPU: local), p now on CPU 1 wakes q at 50 onto CPU 0 (idle since
 * 20: marked).
 */
static void test_remote_wakes(void **state)
{
	static const int p_marks[] = {1, 0, 1, 0, 1, 0}, q_marks[] = {1, 1, 1};
	static const int pm_marks[] = {1, 0};
	static const int pw_marks[] = {1, 1}, qw_marks[] = {0};
	char path[512], err[1024];
	struct sl_tw tw;

	(void)state;
	data_path(path, sizeof(path), "remote-wake.trace");
	assert_int_equal(sl_tw_extract(&tw, path, SL_TW_PREEMPT_DEPS | SL_TW_YIELDS,
				       SL_TW_IRQ_WINDOW_NS, err, sizeof(err)),
			 0);
	assert_int_equal(tw.ipi_wakes, 6);
	assert_int_equal(tw.deps, 9);
	assert_wake_marks(by_pid(&tw, 11), p_marks, 6);
	assert_wake_marks(by_pid(&tw, 12), q_marks, 3);
	sl_tw_free(&tw);
	data_path(path, sizeof(path), "remote-migrate.trace");
	assert_int_equal(sl_tw_extract(&tw, path, SL_TW_PREEMPT_DEPS | SL_TW_YIELDS,
				       SL_TW_IRQ_WINDOW_NS, err, sizeof(err)),
			 0);
	assert_int_equal(tw.ipi_wakes, 1);
	assert_wake_marks(by_pid(&tw, 11), pm_marks, 2);
	sl_tw_free(&tw);
	data_path(path, sizeof(path), "remote-wakeup.trace");
	assert_int_equal(sl_tw_extract(&tw, path, SL_TW_PREEMPT_DEPS | SL_TW_YIELDS,
				       SL_TW_IRQ_WINDOW_NS, err, sizeof(err)),
			 0);
	assert_int_equal(tw.ipi_wakes, 2);
	assert_wake_marks(by_pid(&tw, 11), pw_marks, 2);
	assert_wake_marks(by_pid(&tw, 12), qw_marks, 1);
	sl_tw_free(&tw);
}

struct rt_case {
	const char *wl[2];
	const char *kernel, *cpus, *opts;
};

/* a's figure and b's within 2% of a (both 0 is equal) */
static void assert_2pct(u64 a, u64 b, const char *what, int pid)
{
	u64 d = a > b ? a - b : b - a;

	if (d * 100 > a * 2)
		fail_msg("pid %d: %s %llu recorded, %llu replayed", pid, what,
			 (unsigned long long)a, (unsigned long long)b);
}

static void round_trip(const struct rt_case *c)
{
	char dir[] = "/tmp/schedlab-tw-XXXXXX", a_path[128], b_path[128], spec[256], err[2048];
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	struct sl_trace_summary *sa = calloc(1, sizeof(*sa)), *sb = calloc(1, sizeof(*sb));

	assert_non_null(sa);
	assert_non_null(sb);
	assert_non_null(mkdtemp(dir));
	snprintf(a_path, sizeof(a_path), "%s/a.trace", dir);
	snprintf(b_path, sizeof(b_path), "%s/b.trace", dir);
	memset(&a, 0, sizeof(a));
	a.cpus = c->cpus;
	a.kernel = c->kernel;
	a.trace_out = a_path;
	for (int i = 0; i < 2 && c->wl[i]; i++)
		a.workloads[a.nworkloads++] = c->wl[i];
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	sl_run_free(&r);
	sl_config_free(&cfg);

	snprintf(spec, sizeof(spec), "trace:file=%s%s", a_path, c->opts);
	a.nworkloads = 0;
	a.workloads[a.nworkloads++] = spec;
	a.trace_out = b_path;
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	assert_int_equal(sl_trace_summarize(sa, a_path, false, err, sizeof(err)), 0);
	assert_int_equal(sl_trace_summarize(sb, b_path, false, err, sizeof(err)), 0);

	/* every recorded task is replayed once: map the replay's pids to the recorded ones */
	int replayed = 0;

	for (int i = 0; i < sl_machine_of(r.sim)->ntasks; i++) {
		const struct sl_task *p = sl_sim_task(r.sim, i);
		int orig = sl_tw_orig_pid(sl_mtask(p)->group, sl_mtask(p)->prog);
		int ia = sl_trace_summary_id(sa, orig), ib = sl_trace_summary_id(sb, p->pid);

		assert_true(orig > 0);
		assert_true(ia > 0 && ib > 0);
		assert_2pct(sa->st.pid[ia].cpu_ns, sb->st.pid[ib].cpu_ns, "cpu ns", orig);
		assert_2pct(sa->st.pid[ia].switches, sb->st.pid[ib].switches, "switches", orig);
		assert_2pct(sa->task[ia].lat_n, sb->task[ib].lat_n, "wake-ups", orig);
		replayed++;
	}
	assert_int_equal(replayed, sa->nused - 1);
	assert_true(replayed >= 1);
	sl_trace_summary_free(sa);
	sl_trace_summary_free(sb);
	free(sa);
	free(sb);
	sl_run_free(&r);
	sl_config_free(&cfg);
	unlink(a_path);
	unlink(b_path);
	rmdir(dir);
}

/*
 * Pipes wake with WF_SYNC (pingpong and xclient's sync=1); a trace does not show the hint, so
 * their replays say sync=1. make's children wake make at exit, which the workload makes sync
 * (do_notify_parent). The rest wake from timers and interrupts.
 */
static void test_round_trip(void **state)
{
	static const struct rt_case cases[] = {
		{{"pingpong:count=300,run=30us"}, "6.18", "2", ",sync=1"},
		{{"pingpong:count=300,run=30us,sync=0"}, "2.6.32", "2", ""},
		{{"make:jobs=3,count=12", "periodic:run=1ms,period=7ms,count=30"},
		 "2.6.32",
		 "2",
		 ""},
		{{"make:jobs=4,count=16"}, "6.18", "4", ""},
		{{"hog:tasks=3,work=40ms", "periodic:run=500us,period=3ms,count=40"},
		 "2.6.31",
		 "2",
		 ""},
		{{"xclient:rounds=60"}, "2.6.31", "2", ",sync=1"},
		{{"fio:rw=randread,size=2m", "video:frames=30"}, "6.18", "2", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		round_trip(&cases[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extract_small), cmocka_unit_test(test_pid_reuse),
		cmocka_unit_test(test_bad_trace),     cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_remote_wakes),
		cmocka_unit_test(test_handoff),	      cmocka_unit_test(test_early_wake),
		cmocka_unit_test(test_idle_wake),     cmocka_unit_test(test_bare_price),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
