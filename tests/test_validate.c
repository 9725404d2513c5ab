/*
 * validate's readers against hand-worked inputs: rt-app logs (rtapp_log_read.c), a trace's window,
 * wake-up latencies and idle figures (vtrace.c), machine descriptions (machine_conf.c) and
 * calibrate's arithmetic (calibrate.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <sys/stat.h>

#include "tmpdir.h"
#include "validate/bg_split.h"
#include "validate/calibrate.h"
#include "machine/machine_conf.h"
#include "validate/validate.h"
#include "validate/rtapp_log_read.h"
#include "validate/vtrace.h"
#include "workload/trace.h"

static const char *put(const char *name, const char *text)
{
	return tmpdir_write(name, text, strlen(text));
}

static const char log4[] =
	"# Policy : SCHED_OTHER priority : 0\n"
	"#idx     perf      run   period           start             end          rel_st      "
	"slack c_duration   c_period     wu_lat\n"
	"   0  1000000    10100   100000       259273140       259373140             918      "
	"89900      10000     100000         70\n"
	"   0  1000000    10200   100010       259373140       259473150          100918      "
	"89800      10000     100000         60\n"
	"   0  1000000    10300    99990       259473150       259573140          200928      "
	"-1200      10000     100000         50\n"
	"   0  1000000    10400   100000       259573140       259673140          300918      "
	"89600      10000     100000         40\n";

static void rtlog_reads_rows_and_names(void **state)
{
	struct sl_rtlog l;
	char err[256];

	(void)state;
	assert_int_equal(
		sl_rtlog_read(&l, put("rt-app2-thread0-3.log", log4), "rt-app2", err, sizeof(err)),
		0);
	assert_string_equal(l.task, "thread0");
	assert_int_equal(l.instance, 3);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.row[2][SL_RTLOG_SLACK], -1200);
	assert_int_equal(l.row[1][SL_RTLOG_PERIOD], 100010);
	assert_int_equal(l.row[3][SL_RTLOG_WU_LAT], 40);

	/* mean run (10100+10200+10300+10400)/4 = 10250; p95 of 4 rows: rank ceil(3.8) = 4 */
	const struct sl_rtlog *ls[1] = {&l};
	struct sl_rtlog_col_stat st;

	assert_int_equal(sl_rtlog_col_stats(ls, 1, SL_RTLOG_RUN, &st), 0);
	assert_int_equal(st.n, 4);
	assert_true(st.mean == 10250.0);
	assert_int_equal(st.p95, 10400);
	/* slack: (89900+89800-1200+89600)/4 = 67025, p95 the largest */
	assert_int_equal(sl_rtlog_col_stats(ls, 1, SL_RTLOG_SLACK, &st), 0);
	assert_true(st.mean == 67025.0);
	assert_int_equal(st.p95, 89900);
	sl_rtlog_free(&l);

	/* a task name with dots and dashes: only the last -N is the instance */
	assert_int_equal(
		sl_rtlog_read(&l, put("mp3-mp3.deco-der-0.log", log4), "mp3", err, sizeof(err)), 0);
	assert_string_equal(l.task, "mp3.deco-der");
	assert_int_equal(l.instance, 0);
	sl_rtlog_free(&l);
}

static void rtlog_errors_name_file_line_and_column(void **state)
{
	struct sl_rtlog l;
	char err[256];

	(void)state;
	const char *p = put("x-t-0.log", "#idx perf run period start end rel_st slack c_duration "
					 "c_period wu_lat\n1 2 3 4 5 6 7 8 9 10 11\n1 2 x 4\n");

	assert_int_equal(sl_rtlog_read(&l, p, "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x-t-0.log:3: column 3 (run)"));
	p = put("x-t-1.log", "1 2 3 4 5 6 7 8 9 10 11\n");
	assert_int_equal(sl_rtlog_read(&l, p, "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x-t-1.log:1: a row before"));
	p = put("x-t-2.log", "#idx\n1 2 3 4 5 6 7 8 9 10 11 12\n");
	assert_int_equal(sl_rtlog_read(&l, p, "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: more than 11 columns"));
	p = put("x-t-3.log", "# Policy\n");
	assert_int_equal(sl_rtlog_read(&l, p, "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not an rt-app log"));
	p = put("x-t-z.log", "#idx\n");
	assert_int_equal(sl_rtlog_read(&l, p, "x", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "instance 'z'"));
}

#define HDR			 "# tracer: nop\n#\n"
#define L(comm_pid, cpu, ts, ev) "   " comm_pid " [" cpu "] d..2. " ts ": " ev "\n"

/*
 * t0 (pid 100) is the rt-app thread; rt-app (pid 99) sets up before it and others run after.
 * Window: t0's first event (waking at 10.000100) to its last (switched out at 10.003000).
 */
static const char trace1[] = HDR L(
	"rt-app-99", "000", "10.000000",
	"sched_switch: prev_comm=rt-app prev_pid=99 prev_prio=120 prev_state=S ==> "
	"next_comm=swapper/0 next_pid=0 next_prio=120") L("<idle>-0", "001", "10.000050",
							  "cpu_idle: state=1 cpu_id=1")
	L("<idle>-0", "000", "10.000100", "sched_waking: comm=t0 pid=100 prio=120 target_cpu=001")
		L("<idle>-0", "001", "10.000140", "cpu_idle: state=4294967295 cpu_id=1") L(
			"<idle>-0", "001", "10.000150",
			"sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R "
			"==> "
			"next_comm=t0 next_pid=100 next_prio=120")
			L("t0-100", "001", "10.001150",
			  "sched_switch: prev_comm=t0 prev_pid=100 prev_prio=120 prev_state=S ==> "
			  "next_comm=swapper/1 next_pid=0 next_prio=120")
				L("<idle>-0", "001", "10.001200", "cpu_idle: state=1 cpu_id=1") L(
					"<idle>-0", "000", "10.002000",
					"sched_waking: comm=t0 pid=100 prio=120 target_cpu=000")
					L("<idle>-0", "000", "10.002001",
					  "sched_migrate_task: comm=t0 pid=100 prio=120 orig_cpu=1 "
					  "dest_cpu=0") L("<idle>-0", "000", "10.002010",
							  "sched_switch: prev_comm=swapper/0 "
							  "prev_pid=0 prev_prio=120 prev_state=R "
							  "==> "
							  "next_comm=t0 next_pid=100 next_prio=120")
						L("t0-100", "000", "10.003000",
						  "sched_switch: prev_comm=t0 prev_pid=100 "
						  "prev_prio=120 prev_state=S ==> "
						  "next_comm=swapper/0 next_pid=0 next_prio=120")
							L("<idle>-0", "001", "10.004000",
							  "cpu_idle: state=4294967295 cpu_id=1")
								L("<idle>-0", "001", "10.004100",
								  "cpu_idle: state=1 cpu_id=1");

static void vtrace_window_latency_and_idle(void **state)
{
	static struct sl_vtrace v;
	const char *names[] = {"t0", "absent"};
	char err[512];

	(void)state;
	assert_int_equal(sl_vtrace_read(&v, put("v.trace", trace1), names, 2, 0, err, sizeof(err)),
			 0);
	/* t0 never exits (as a simulation's threads at its end): the window runs to the trace's
	 * last event, 10.004100 */
	assert_int_equal(v.start, 10000100000ULL);
	assert_int_equal(v.alive, 1);
	assert_int_equal(v.end, 10004100000ULL);
	/* two wake-ups: 10.000150 - 10.000100 = 50 us and 10.002010 - 10.002000 = 10 us */
	assert_int_equal(v.task[0].lat.count, 2);
	assert_int_equal(v.task[0].lat.max, 50000);
	assert_int_equal(v.task[0].lat.sum, 60000);
	assert_int_equal(v.task[0].switches, 2);
	assert_int_equal(v.task[0].migrations, 1);
	assert_int_equal(v.task[0].npids, 1);
	assert_int_equal(v.task[1].lat.count, 0);
	/*
	 * cpu1: idle from 10.000050 (before the window: not an entry) to 10.000140: 40 us inside;
	 * again from 10.001200 (an entry) to 10.004000: 2800 us; the entry at 10.004100, the
	 * window's last instant, counts and adds nothing.
	 */
	assert_int_equal(v.cpu[1].entries[1], 2);
	assert_int_equal(v.cpu[1].time[1], 40000 + 2800000);
	assert_int_equal(v.nstates, 2);
	sl_vtrace_free(&v);

	/*
	 * A span of 1 ms ends the window at 10.001100: the first wake-up (50 us) is in, t0's
	 * switch-out at 10.001150 and everything later are out; cpu1's 40 us stay.
	 */
	assert_int_equal(
		sl_vtrace_read(&v, tmpdir_path("v.trace"), names, 2, 1000000, err, sizeof(err)), 0);
	assert_int_equal(v.end, 10001100000ULL);
	assert_int_equal(v.task[0].lat.count, 1);
	assert_int_equal(v.task[0].lat.max, 50000);
	assert_int_equal(v.task[0].switches, 0);
	assert_int_equal(v.task[0].migrations, 0);
	assert_int_equal(v.cpu[1].entries[1], 0);
	assert_int_equal(v.cpu[1].time[1], 40000);
	sl_vtrace_free(&v);

	/* t0 exits at 10.003500: every thread is gone, the window ends at its exit */
	static const char exited[] = HDR L("<idle>-0", "000", "10.000100",
					   "sched_waking: comm=t0 pid=100 prio=120 target_cpu=000")
		L("t0-100", "000", "10.003500", "sched_process_exit: comm=t0 pid=100 prio=120")
			L("<idle>-0", "001", "10.009000", "cpu_idle: state=1 cpu_id=1");

	assert_int_equal(sl_vtrace_read(&v, put("x.trace", exited), names, 2, 0, err, sizeof(err)),
			 0);
	assert_int_equal(v.alive, 0);
	assert_int_equal(v.end, 10003500000ULL);
	sl_vtrace_free(&v);

	const char *none[] = {"nobody"};

	assert_int_equal(sl_vtrace_read(&v, tmpdir_path("v.trace"), none, 1, 0, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "no event of the tasks (nobody)"));
	sl_vtrace_free(&v);
}

static void vtrace_comm_is_truncated_as_the_kernel_does(void **state)
{
	static struct sl_vtrace v;
	/* TASK_COMM_LEN 16: "surfaceflinger-x" shows as "surfaceflinger-" */
	const char *names[] = {"surfaceflinger-xyz"};
	char err[512];

	(void)state;
	const char *p = put(
		"c.trace", HDR L("<idle>-0", "000", "1.000000",
				 "sched_waking: comm=surfaceflinger- pid=7 prio=120 target_cpu=000")
				   L("<idle>-0", "000", "1.000020",
				     "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 "
				     "prev_state=R ==> next_comm=surfaceflinger- next_pid=7 "
				     "next_prio=120"));

	assert_int_equal(sl_vtrace_read(&v, p, names, 1, 0, err, sizeof(err)), 0);
	assert_int_equal(v.task[0].lat.count, 1);
	assert_int_equal(v.task[0].lat.max, 20000);
	sl_vtrace_free(&v);
}

static void machine_conf_loads_and_derives_the_model(void **state)
{
	struct sl_machine_conf mc;
	char err[512];

	(void)state;
	const char *p = put("m.conf", "# a comment\ncpus 2\nkernel_release 6.18.44-fc-v1252\n"
				      "cpuidle_driver none\ncpuidle_governor menu  # trailing\n"
				      "param ctx_switch=3000ns\nparam timer_slack=50us\n");

	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), 0);
	assert_int_equal(mc.cpus, 2);
	assert_string_equal(mc.model_kernel, "6.18");
	assert_string_equal(mc.governor, "menu");
	assert_string_equal(mc.builtin_profile, "vm-hlt");
	/* no driver: POLL (state 0) is disabled so that HLT is state 1 as traced */
	assert_int_equal(mc.ndisable, 1);
	assert_string_equal(mc.disable[0], "POLL");
	assert_int_equal(mc.nparams, 2);
	assert_string_equal(mc.param[1], "timer_slack=50us");

	p = put("m2.conf", "cpus 8\nkernel_release 2.6.32-5-amd64\ncpuidle_driver intel_idle\n"
			   "cpuidle_governor ladder\nidle_profile nehalem.profile\n");
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), 0);
	assert_string_equal(mc.model_kernel, "2.6.32");
	assert_string_equal(mc.governor, "ladder");
	assert_string_equal(mc.idle_profile, tmpdir_path("nehalem.profile"));
	assert_int_equal(mc.ndisable, 0);

	p = put("m3.conf", "cpus 2\nkernel_release 5.15.0\ncpuidle_driver haltpoll\n"
			   "cpuidle_governor weird\n");
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), 0);
	assert_string_equal(mc.model_kernel, ""); /* CFS of 5.15 has no model */
	assert_null(mc.governor);
	assert_string_equal(mc.builtin_profile, "vm-haltpoll");

	p = put("bad1.conf", "cpus 2\nkernel 6.1\n");
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad1.conf:2: unknown key 'kernel'"));
	p = put("bad2.conf", "cpus 0\n");
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad2.conf:1: cpus: expected 1 to 4096"));
	p = put("bad3.conf", "cpus 2 3\n");
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad3.conf:1: expected 'KEY VALUE'"));
	p = put("bad4.conf", "cpus 2\n");
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "are required"));
	assert_int_equal(sl_machine_conf_load(&mc, tmpdir_path("none.conf"), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none.conf"));
}

/*
 * The trace replay's calibration goes through the same reader: param lines alone are a
 * calibration (read, not load: no cpus line is required), of which the replay keeps the cost
 * parameters (ctx_switch, wake_ipi; not vcpu_pack); a line the reader does not know is refused
 * naming its file and line, as validate refuses it.
 */
static void machine_conf_read_serves_the_trace_replay(void **state)
{
	struct sl_machine_conf mc;
	struct sl_tw_costs c;
	char err[2048];

	(void)state;
	const char *p = put("cal.conf", "param ctx_switch=0ns\nparam vcpu_pack=64\n"
					"param wake_ipi=25us\n");

	assert_int_equal(sl_machine_conf_read(&mc, p, err, sizeof(err)), 0);
	assert_int_equal(mc.nparams, 3);
	assert_int_equal(mc.cpus, 0);
	assert_int_equal(sl_machine_conf_load(&mc, p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "are required"));
	assert_int_equal(sl_tw_costs_load(&c, "x.trace", p, err, sizeof(err)), 0);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.param[0], "ctx_switch=0ns");
	assert_string_equal(c.param[1], "wake_ipi=25us");
	assert_int_equal(c.cpus, 0);
	assert_string_equal(c.release, "");

	p = put("odd.conf", "cpus 2\nkernel_relase 6.18.44\nparam ctx_switch=1us\n");
	assert_int_equal(sl_tw_costs_load(&c, "x.trace", p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "odd.conf:2: unknown key 'kernel_relase'"));
	assert_non_null(strstr(err, "not a calibration"));
}

/*
 * wake_ipi from the free ping-pong's medians: remote 24000 ns against local 1200 ns over 8000
 * and 200 rounds: 22800 ns; fewer than 100 rounds of either kind, or a remote round no dearer
 * than a local one: 0 (not measured).
 */
static void calibrate_derives_wake_ipi(void **state)
{
	(void)state;
	assert_int_equal(sl_calibrate_wake_ipi(24000, 8000, 1200, 200), 22800);
	assert_int_equal(sl_calibrate_wake_ipi(24000, 8000, 1200, 99), 0);
	assert_int_equal(sl_calibrate_wake_ipi(24000, 99, 1200, 200), 0);
	assert_int_equal(sl_calibrate_wake_ipi(1200, 8000, 1200, 200), 0);
	assert_int_equal(sl_calibrate_wake_ipi(1000, 8000, 1200, 200), 0);
}

static void calibrate_derives_the_parameters(void **state)
{
	struct sl_calibration c = {
		.same_cpu_ns = 3500, .cross_cpu_ns = 30500, .oversleep_ns = 80000};

	(void)state;
	/* exit = 30500 - 3500 - 1000 = 26000; slack = 80000 - 26000 - 3500 = 50500 */
	sl_calibrate_derive(&c, 1000);
	assert_int_equal(c.ctx_switch_ns, 3500);
	assert_int_equal(c.exit_latency_ns, 26000);
	assert_int_equal(c.timer_slack_ns, 50500);
	/* a cross-CPU hand-off cheaper than the same-CPU one: no negative latency */
	c = (struct sl_calibration){
		.same_cpu_ns = 5000, .cross_cpu_ns = 4000, .oversleep_ns = 1000};
	sl_calibrate_derive(&c, 1000);
	assert_int_equal(c.exit_latency_ns, 0);
	assert_int_equal(c.timer_slack_ns, 0);
}

/*
 * calibrate's rows 1b and 1c go into machine.conf as the model's parameters: cache_refill, and
 * the migration cost of what CPUs 0 and 1 share (here thread siblings: migrate_smt); nothing of
 * them when they were not measured.
 */
static void calibrate_writes_the_refill(void **state)
{
	struct sl_calibration c = {.ctx_switch_ns = 3707,
				   .timer_slack_ns = 82271,
				   .exit_latency_ns = 6399,
				   .cache_measured = true,
				   .cache_refill_ns = 262,
				   .migrate_ns = 1974,
				   .migrate_level = SL_CAL_MIGRATE_SMT};
	struct sl_machine_conf mc;
	char err[512], dir[300];

	(void)state;
	snprintf(dir, sizeof(dir), "%s", tmpdir_path("cal"));
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(sl_calibrate_write(dir, &c, err, sizeof(err)), 0);
	assert_int_equal(
		sl_machine_conf_load(&mc, tmpdir_path("cal/machine.conf"), err, sizeof(err)), 0);
	assert_int_equal(mc.nparams, 4);
	assert_string_equal(mc.param[0], "ctx_switch=3707ns");
	assert_string_equal(mc.param[2], "cache_refill=262ns");
	assert_string_equal(mc.param[3], "migrate_smt=1974ns");
	c.cache_measured = false;
	assert_int_equal(sl_calibrate_write(dir, &c, err, sizeof(err)), 0);
	assert_int_equal(
		sl_machine_conf_load(&mc, tmpdir_path("cal/machine.conf"), err, sizeof(err)), 0);
	assert_int_equal(mc.nparams, 2);
	/* row 1d, the switch alone, is written after ctx_switch when measured */
	c.bare_switch_ns = 324;
	assert_int_equal(sl_calibrate_write(dir, &c, err, sizeof(err)), 0);
	assert_int_equal(
		sl_machine_conf_load(&mc, tmpdir_path("cal/machine.conf"), err, sizeof(err)), 0);
	assert_int_equal(mc.nparams, 3);
	assert_string_equal(mc.param[0], "ctx_switch=3707ns");
	assert_string_equal(mc.param[1], "ctx_switch_bare=324ns");
}

/*
 * A round of calibrate's ping-pongs counts unless it took 8 times the median or more (another
 * task ran on the CPU meanwhile): 100 100 110 120 5000 -> cap 880, (100+100+110+120)/4 = 107
 * (the plain mean, 1086, is what a loaded machine gave); a hand-off with two ways, 1000 1000
 * 1000 3000 3000 -> cap 8000, all kept: 1800 (the median, 1000, would keep one way).
 */
static void calibrate_leaves_out_disturbed_rounds(void **state)
{
	u64 loaded[] = {5000, 100, 120, 100, 110};
	u64 two_ways[] = {3000, 1000, 1000, 3000, 1000};

	(void)state;
	assert_int_equal(sl_calibrate_undisturbed_mean(loaded, 5), 107);
	assert_int_equal(sl_calibrate_undisturbed_mean(two_ways, 5), 1800);
}

/*
 * The remote wake-up path beyond what the model charges: a median of 31039 ns from the trace,
 * less the IPI (1000) and the exit latency (30500 - 3500 - 1000 = 26000): 4039 ns; a median
 * below those two: 0.
 */
static void calibrate_derives_the_wake_path(void **state)
{
	struct sl_calibration c = {.same_cpu_ns = 3500,
				   .cross_cpu_ns = 30500,
				   .oversleep_ns = 80000,
				   .wake_remote_p50 = 31039};

	(void)state;
	sl_calibrate_derive(&c, 1000);
	assert_int_equal(c.wake_remote_ns, 4039);
	c.wake_remote_p50 = 20000;
	sl_calibrate_derive(&c, 1000);
	assert_int_equal(c.wake_remote_ns, 0);
}

/*
 * The machine's background as an rt-app file, by hand: 2 CPUs, 48 wake-ups a second of 20.5 us:
 * a period of 1000000/48 = 20833 us (integer), a runtime of 20 us (whole microseconds), one
 * pinned task per CPU; a run under 1 us still runs 1 us. machine.conf reads and writes the two
 * directives back.
 */
static void background_json_and_conf(void **state)
{
	const char *want =
		"{\n\t\"tasks\" : {\n"
		"\t\t\"kworker-bg0\" : { \"cpus\" : [0], \"loop\" : -1, \"runtime\" : 20,\n"
		"\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : 20833, \"mode\" : "
		"\"absolute\" } },\n"
		"\t\t\"kworker-bg1\" : { \"cpus\" : [1], \"loop\" : -1, \"runtime\" : 20,\n"
		"\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : 20833, \"mode\" : "
		"\"absolute\" } }\n"
		"\t}\n}\n";
	struct sl_machine_conf mc;
	char buf[1024] = "", path[600], err[256];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(sl_validate_background_json(f, 2, 48, 20500), 0);
	fclose(f);
	assert_string_equal(buf, want);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_validate_background_json(f, 1, 1000, 300), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"runtime\" : 1,"));
	assert_non_null(strstr(buf, "\"period\" : 1000,"));
	snprintf(path, sizeof(path), "%s",
		 tmpdir_write("bg.conf",
			      "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
			      "background_rate 48\nbackground_run 20500ns\n",
			      91));
	if (sl_machine_conf_load(&mc, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(mc.bg.rate, 48);
	assert_int_equal(mc.bg.run_ns, 20500);
	snprintf(path, sizeof(path), "%s",
		 tmpdir_write("bg.conf",
			      "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
			      "background_rate 4x\n",
			      68));
	assert_int_equal(sl_machine_conf_load(&mc, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bg.conf:4: background_rate: expected 0 to 100000"));
}

/*
 * The runs in turn (background_runs, docs/validate.md, "The background's shape (issue 28, step
 * 16)"), by hand: 2 CPUs, 100 wake-ups a second (a period of 10000 us) of 20 us, 300 us and
 * 5 ms in turn: CPU 0 from the first, its timer at once; CPU 1 from the (1 x 3 / 2 = 1)-th,
 * its timer 10000 x 1/2 = 5000 us late (a first loop of 300 us and a period of 15000 us, then
 * 5 ms, 20 us, 300 us of 10000 us). machine.conf reads the list (and refuses an empty item, a 0, a
 * comma at the end) and writes it back.
 */
static void background_runs_json_and_conf(void **state)
{
	const char *want =
		"{\n\t\"tasks\" : {\n"
		"\t\t\"kworker-bg0\" : { \"cpus\" : [0], \"loop\" : -1,\n"
		"\t\t\t\"runtime0\" : 20, \"timer0\" : { \"ref\" : \"unique\", \"period\" : 10000, "
		"\"mode\" : \"absolute\" },\n"
		"\t\t\t\"runtime1\" : 300, \"timer1\" : { \"ref\" : \"unique\", \"period\" : "
		"10000, "
		"\"mode\" : \"absolute\" },\n"
		"\t\t\t\"runtime2\" : 5000, \"timer2\" : { \"ref\" : \"unique\", \"period\" : "
		"10000, \"mode\" : \"absolute\" } },\n"
		"\t\t\"kworker-bg1\" : { \"cpus\" : [1], \"loop\" : -1, \"phases\" : {\n"
		"\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 300, \"timer0\" : { \"ref\" : "
		"\"unique\", \"period\" : 15000, \"mode\" : \"absolute\" } },\n"
		"\t\t\t\"p1\" : { \"loop\" : -1,\n"
		"\t\t\t\"runtime0\" : 5000, \"timer0\" : { \"ref\" : \"unique\", \"period\" : "
		"10000, \"mode\" : \"absolute\" },\n"
		"\t\t\t\"runtime1\" : 20, \"timer1\" : { \"ref\" : \"unique\", \"period\" : 10000, "
		"\"mode\" : \"absolute\" },\n"
		"\t\t\t\"runtime2\" : 300, \"timer2\" : { \"ref\" : \"unique\", \"period\" : "
		"10000, "
		"\"mode\" : \"absolute\" } } } }\n"
		"\t}\n}\n";
	const struct sl_mc_background bg = {
		.rate = 100, .nruns = 3, .runs_ns = {20000, 300000, 5000000}};
	const char *bad[][2] = {{"20us,,5ms", "expected 1 to 32 durations"},
				{"20us,0ns", "'0ns': expected more than 0"},
				{"20us,", "expected 1 to 32 durations"}};
	struct sl_machine_conf mc;
	char buf[2048] = "", text[256], path[600], err[256];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(sl_validate_background_json2(f, 2, &bg, 0), 0);
	fclose(f);
	assert_string_equal(buf, want);
	snprintf(path, sizeof(path), "%s",
		 put("bgr.conf", "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
				 "background_rate 100\nbackground_runs 20us,300us,5ms\n"));
	if (sl_machine_conf_load(&mc, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(mc.bg.nruns, 3);
	assert_int_equal(mc.bg.runs_ns[0], 20000);
	assert_int_equal(mc.bg.runs_ns[1], 300000);
	assert_int_equal(mc.bg.runs_ns[2], 5000000);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_machine_conf_print(f, &mc), 0);
	fclose(f);
	assert_non_null(strstr(buf, "background_runs 20000ns,300000ns,5000000ns\n"));
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		snprintf(text, sizeof(text),
			 "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\nbackground_runs %s\n",
			 bad[k][0]);
		snprintf(path, sizeof(path), "%s", put("bgr.conf", text));
		assert_int_equal(sl_machine_conf_load(&mc, path, err, sizeof(err)), -1);
		if (!strstr(err, bad[k][1]))
			fail_msg("'%s': %s", bad[k][0], err);
	}
}

/* json2's text of bg on 2 CPUs without a phase seed, into buf */
static void bg_text(char *buf, size_t n, const struct sl_mc_background *bg)
{
	FILE *f = fmemopen(buf, n - 1, "w");

	assert_non_null(f);
	memset(buf, 0, n);
	assert_int_equal(sl_validate_background_json2(f, 2, bg, 0), 0);
	fclose(f);
}

/*
 * background_pinned (docs/validate.md, "Step 19"), by hand: 2 CPUs, 40 a second of 100 us, a
 * period of 25000 us. Pinned 250: kworker-bgC pinned, period 25000 x 1000 / 250 = 100000;
 * kworker-ubC not pinned, period 25000 x 1000 / 750 = 33333, CPU 0's 33333 x 1/4 = 8333 late
 * (a first loop of 41666), CPU 1's 33333 x 3/4 = 24999 (58332); the file ends with the last free
 * task. 1000 is the unset text; 0 leaves only the free tasks. machine.conf reads and writes the
 * line and refuses a value out of 0..1000, naming the file and line.
 */
static void background_pinned_json_and_conf(void **state)
{
	struct sl_mc_background bg = {.rate = 40, .run_ns = 100000};
	struct sl_machine_conf mc;
	char unset[2048], buf[2048], path[600], err[256];
	static const char *const bad[] = {"1001", "-1", "x", "25%"};

	(void)state;
	bg_text(unset, sizeof(unset), &bg);
	bg.pinned_set = true;
	bg.pinned = 250;
	bg_text(buf, sizeof(buf), &bg);
	assert_non_null(strstr(buf,
			       "\"kworker-bg0\" : { \"cpus\" : [0], \"loop\" : -1, \"runtime\" "
			       ": 100,\n\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : "
			       "100000,"));
	assert_non_null(strstr(buf, "\"kworker-bg1\" : { \"cpus\" : [1], "));
	assert_non_null(strstr(buf,
			       "\"kworker-ub0\" : { \"loop\" : -1, \"phases\" : {\n"
			       "\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 100, \"timer0\" : { "
			       "\"ref\" : \"unique\", \"period\" : 41666,"));
	assert_non_null(strstr(buf,
			       "\"kworker-ub1\" : { \"loop\" : -1, \"phases\" : {\n"
			       "\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 100, \"timer0\" : { "
			       "\"ref\" : \"unique\", \"period\" : 58332,"));
	assert_non_null(
		strstr(buf, "\"period\" : 33333, \"mode\" : \"absolute\" } } } }\n\t}\n}\n"));
	bg.pinned = 1000;
	bg_text(buf, sizeof(buf), &bg);
	assert_string_equal(buf, unset);
	bg.pinned = 0;
	bg_text(buf, sizeof(buf), &bg);
	assert_null(strstr(buf, "kworker-bg"));
	assert_null(strstr(buf, "\"cpus\""));
	assert_non_null(strstr(buf, "\"period\" : 25000, \"mode\""));
	snprintf(path, sizeof(path), "%s",
		 put("bgp.conf",
		     "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
		     "background_rate 40\nbackground_run 100us\nbackground_pinned 250\n"));
	if (sl_machine_conf_load(&mc, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(mc.bg.pinned_set);
	assert_int_equal(mc.bg.pinned, 250);
	{
		FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

		memset(buf, 0, sizeof(buf));
		assert_int_equal(sl_machine_conf_print(f, &mc), 0);
		fclose(f);
	}
	assert_non_null(strstr(buf, "background_pinned 250\n"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text),
			 "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\nbackground_pinned "
			 "%s\n",
			 bad[i]);
		snprintf(path, sizeof(path), "%s", put("bgp.conf", text));
		assert_int_not_equal(sl_machine_conf_load(&mc, path, err, sizeof(err)), 0);
		assert_non_null(strstr(err, "bgp.conf:4: background_pinned: expected 0 to 1000"));
	}
}

/*
 * The long foreign runs (background_long_rate/run, docs/validate.md, "The background's shape
 * (issue 28, step 16)"), by hand: 2 CPUs, 4 a second of 2.5 ms: a period of 10^6 / 4 = 250000
 * us, runtime 2500 us, CPU 0's timer 250000 x 1/4 = 62500 us late (a first loop of period
 * 312500, then 250000) and CPU 1's 250000 x 3/4 = 187500 us late (437500); with the short
 * background (48 of 20.5 us) both kinds, the short first; alone (rate 0) the short kind is left
 * out; with background_long_free the same tasks without "cpus". machine.conf reads and writes the
 * lines.
 */
static void background_long_json_and_conf(void **state)
{
	const char *lg =
		"\t\t\"kworker-lg0\" : { \"cpus\" : [0], \"loop\" : -1, \"phases\" : {\n"
		"\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 2500, \"timer0\" : { \"ref\" : "
		"\"unique\", \"period\" : 312500, \"mode\" : \"absolute\" } },\n"
		"\t\t\t\"p1\" : { \"loop\" : -1,\n"
		"\t\t\t\"runtime0\" : 2500, \"timer0\" : { \"ref\" : \"unique\", \"period\" : "
		"250000, \"mode\" : \"absolute\" } } } },\n"
		"\t\t\"kworker-lg1\" : { \"cpus\" : [1], \"loop\" : -1, \"phases\" : {\n"
		"\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 2500, \"timer0\" : { \"ref\" : "
		"\"unique\", \"period\" : 437500, \"mode\" : \"absolute\" } },\n"
		"\t\t\t\"p1\" : { \"loop\" : -1,\n"
		"\t\t\t\"runtime0\" : 2500, \"timer0\" : { \"ref\" : \"unique\", \"period\" : "
		"250000, \"mode\" : \"absolute\" } } } }\n"
		"\t}\n}\n";
	const struct sl_mc_background lg_only = {.long_rate = 4, .long_run_ns = 2500000},
				      both = {.rate = 48,
					      .run_ns = 20500,
					      .long_rate = 4,
					      .long_run_ns = 2500000},
				      lg_free = {.long_rate = 4,
						 .long_run_ns = 2500000,
						 .long_free = true};
	struct sl_machine_conf mc;
	char buf[2048] = "", want[2048], path[600], err[256];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(sl_validate_background_json2(f, 2, &lg_only, 0), 0);
	fclose(f);
	snprintf(want, sizeof(want), "{\n\t\"tasks\" : {\n%s", lg);
	assert_string_equal(buf, want);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_validate_background_json2(f, 2, &both, 0), 0);
	fclose(f);
	snprintf(want, sizeof(want),
		 "{\n\t\"tasks\" : {\n"
		 "\t\t\"kworker-bg0\" : { \"cpus\" : [0], \"loop\" : -1, \"runtime\" : 20,\n"
		 "\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : 20833, \"mode\" : "
		 "\"absolute\" } },\n"
		 "\t\t\"kworker-bg1\" : { \"cpus\" : [1], \"loop\" : -1, \"runtime\" : 20,\n"
		 "\t\t\t\"timer\" : { \"ref\" : \"unique\", \"period\" : 20833, \"mode\" : "
		 "\"absolute\" } },\n%s",
		 lg);
	assert_string_equal(buf, want);
	snprintf(path, sizeof(path), "%s",
		 tmpdir_write("bgl.conf",
			      "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
			      "background_long_rate 4\nbackground_long_run 2500us\n",
			      99));
	if (sl_machine_conf_load(&mc, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(mc.bg.rate, 0);
	assert_int_equal(mc.bg.long_rate, 4);
	assert_int_equal(mc.bg.long_run_ns, 2500000);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_machine_conf_print(f, &mc), 0);
	fclose(f);
	assert_non_null(strstr(buf, "background_long_rate 4\nbackground_long_run 2500000ns\n"));
	assert_null(strstr(buf, "background_long_free"));
	/* background_long_free 1: the same tasks, not pinned */
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_validate_background_json2(f, 2, &lg_free, 0), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"kworker-lg0\" : { \"loop\" : -1, \"phases\" : {\n"
				    "\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 2500, "
				    "\"timer0\" : { \"ref\" : \"unique\", \"period\" : 312500,"));
	assert_non_null(strstr(buf, "\"kworker-lg1\" : { \"loop\" : -1, \"phases\" : {\n"
				    "\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 2500, "
				    "\"timer0\" : { \"ref\" : \"unique\", \"period\" : 437500,"));
	assert_null(strstr(buf, "\"cpus\""));
	snprintf(path, sizeof(path), "%s",
		 put("bgl.conf", "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
				 "background_long_rate 4\nbackground_long_run 2500us\n"
				 "background_long_free 1\n"));
	if (sl_machine_conf_load(&mc, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(mc.bg.long_free);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_machine_conf_print(f, &mc), 0);
	fclose(f);
	assert_non_null(strstr(buf, "background_long_free 1\n"));
	snprintf(path, sizeof(path), "%s",
		 put("bgl.conf", "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
				 "background_long_free 2\n"));
	assert_int_equal(sl_machine_conf_load(&mc, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bgl.conf:4: background_long_free: expected 0 or 1, got '2'"));
}

/*
 * background_phase_random: each CPU's timers late by their own draw from the phase seed. The
 * draws by hand (xoshiro256** seeded by splitmix64 from 7, an independent Python copy of
 * core/rng.c): 5994, 2674, 9638, 7664 (mod 10000) and 225994, 32674, 139638, 177664 (mod
 * 250000). 100 a second of 20 us (period 10000 us) and 4 a second of 2.5 ms (250000 us): the
 * short tasks' first loops of 15994 and 12674 us, the long ones' of 389638 and 427664 us (the
 * third and fourth draws), where the fixed stagger gives none and 15000, 312500 and 437500; the
 * machine.conf key read and written back, a bad value refused.
 */
static void background_phase_random_json_and_conf(void **state)
{
	const struct sl_mc_background both = {
		.rate = 100, .run_ns = 20000, .long_rate = 4, .long_run_ns = 2500000};
	struct sl_machine_conf mc;
	char buf[4096] = "", path[600], err[256];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	(void)state;
	assert_non_null(f);
	assert_int_equal(sl_validate_background_json2(f, 2, &both, 7), 0);
	fclose(f);
	assert_non_null(strstr(buf,
			       "\"kworker-bg0\" : { \"cpus\" : [0], \"loop\" : -1, "
			       "\"phases\" : {\n\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 20, "
			       "\"timer0\" : { \"ref\" : \"unique\", \"period\" : 15994,"));
	assert_non_null(strstr(buf,
			       "\"kworker-bg1\" : { \"cpus\" : [1], \"loop\" : -1, "
			       "\"phases\" : {\n\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : 20, "
			       "\"timer0\" : { \"ref\" : \"unique\", \"period\" : 12674,"));
	assert_non_null(strstr(buf,
			       "\"kworker-lg0\" : { \"cpus\" : [0], \"loop\" : -1, "
			       "\"phases\" : {\n\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : "
			       "2500, \"timer0\" : { \"ref\" : \"unique\", \"period\" : 389638,"));
	assert_non_null(strstr(buf,
			       "\"kworker-lg1\" : { \"cpus\" : [1], \"loop\" : -1, "
			       "\"phases\" : {\n\t\t\t\"p0\" : { \"loop\" : 1, \"runtime0\" : "
			       "2500, \"timer0\" : { \"ref\" : \"unique\", \"period\" : 427664,"));
	/* then the period: each task's second phase's timer */
	assert_non_null(strstr(buf, "\"runtime0\" : 20, \"timer0\" : { \"ref\" : \"unique\", "
				    "\"period\" : 10000,"));
	assert_non_null(strstr(buf, "\"runtime0\" : 2500, \"timer0\" : { \"ref\" : \"unique\", "
				    "\"period\" : 250000,"));
	snprintf(path, sizeof(path), "%s",
		 put("bgp.conf", "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
				 "background_rate 100\nbackground_run 20us\n"
				 "background_phase_random 1\n"));
	if (sl_machine_conf_load(&mc, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(mc.bg.phase_random);
	f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_int_equal(sl_machine_conf_print(f, &mc), 0);
	fclose(f);
	assert_non_null(strstr(buf, "background_phase_random 1\n"));
	snprintf(path, sizeof(path), "%s",
		 put("bgp.conf", "cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\n"
				 "background_phase_random yes\n"));
	assert_int_equal(sl_machine_conf_load(&mc, path, err, sizeof(err)), -1);
	assert_non_null(
		strstr(err, "bgp.conf:4: background_phase_random: expected 0 or 1, got 'yes'"));
}

/*
 * The background split (validate/bg_split.c) on tests/irq_background.sh's trace, figures by hand
 * there: the lines before the first sched_ line left out, the window 1-21 ms; CPU 0 idle 9.79 ms
 * with 3 interrupt-only exits of 10, 30, 50 us, CPU 1 idle 2 ms with none: (3 / 9.79 ms + 0) / 2
 * = 153.217 a second, 30 us; kworker/0:1 (100 us) on CPU 0 and rcu_preempt (20 us) on CPU 1,
 * each 50 a second, 60 us; thread0 and bash named, so not counted. A trace with no cpu_idle
 * line has no idle period: an error naming the file.
 */
static const char bg_trace[] =
	"# tracer: nop\n"
	"#\n"
	"          <idle>-0       [000] d..1.     0.000100: cpu_idle: state=4294967295 cpu_id=0\n"
	"          <idle>-0       [000] d..1.     0.000150: cpu_idle: state=1 cpu_id=0\n"
	"       swapper/1-0       [001] d..2.     0.001000: sched_switch: prev_comm=swapper/1 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=thread0 next_pid=10 next_prio=120\n"
	"          <idle>-0       [000] d..1.     0.002000: cpu_idle: state=1 cpu_id=0\n"
	"          <idle>-0       [000] d..1.     0.004000: cpu_idle: state=4294967295 cpu_id=0\n"
	"          <idle>-0       [000] d..1.     0.004010: cpu_idle: state=1 cpu_id=0\n"
	"          <idle>-0       [000] dN.1.     0.006000: cpu_idle: state=4294967295 cpu_id=0\n"
	"          <idle>-0       [000] d..1.     0.006030: cpu_idle: state=1 cpu_id=0\n"
	"          <idle>-0       [000] dN.1.     0.008000: cpu_idle: state=4294967295 cpu_id=0\n"
	"       swapper/0-0       [000] d..2.     0.008005: sched_switch: prev_comm=swapper/0 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/0:1 next_pid=20 "
	"next_prio=120\n"
	"     kworker/0:1-20      [000] d..2.     0.008105: sched_switch: prev_comm=kworker/0:1 "
	"prev_pid=20 prev_prio=120 prev_state=I ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"          <idle>-0       [000] d..1.     0.008110: cpu_idle: state=1 cpu_id=0\n"
	"          <idle>-0       [000] dN.1.     0.010000: cpu_idle: state=4294967295 cpu_id=0\n"
	"       swapper/0-0       [000] d..2.     0.010002: sched_switch: prev_comm=swapper/0 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=30 next_prio=120\n"
	"            bash-30      [000] d..2.     0.010050: sched_switch: prev_comm=bash "
	"prev_pid=30 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	"          <idle>-0       [000] d..1.     0.010060: cpu_idle: state=1 cpu_id=0\n"
	"          <idle>-0       [000] d..1.     0.012000: cpu_idle: state=4294967295 cpu_id=0\n"
	"          <idle>-0       [000] d..1.     0.012050: cpu_idle: state=1 cpu_id=0\n"
	"         thread0-10      [001] d..2.     0.015000: sched_switch: prev_comm=thread0 "
	"prev_pid=10 prev_prio=120 prev_state=R ==> next_comm=rcu_preempt next_pid=16 "
	"next_prio=120\n"
	"     rcu_preempt-16      [001] d..2.     0.015020: sched_switch: prev_comm=rcu_preempt "
	"prev_pid=16 prev_prio=120 prev_state=I ==> next_comm=thread0 next_pid=10 next_prio=120\n"
	"         thread0-10      [001] d..2.     0.016990: sched_switch: prev_comm=thread0 "
	"prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
	"          <idle>-0       [001] d..1.     0.017000: cpu_idle: state=1 cpu_id=1\n"
	"          <idle>-0       [001] dN.1.     0.019000: cpu_idle: state=4294967295 cpu_id=1\n"
	"       swapper/1-0       [001] d..2.     0.019010: sched_switch: prev_comm=swapper/1 "
	"prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=thread0 next_pid=10 next_prio=120\n"
	"         thread0-10      [001] d..2.     0.021000: sched_switch: prev_comm=thread0 "
	"prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static void bg_split_by_hand(void **state)
{
	const char *skip[] = {"thread0", "bash"};
	struct sl_bg_split s;
	char err[512];

	(void)state;
	assert_int_equal(sl_bg_split_read(&s, put("bg.trace", bg_trace), skip, 2, err, sizeof(err)),
			 0);
	assert_int_equal(s.ncpu, 2);
	assert_int_equal(s.irq_rate_milli, (3000000000000ULL / 9790000 + 0) / 2);
	assert_int_equal(s.irq_run_ns, 30000);
	assert_int_equal(s.task_rate_milli, 50000);
	assert_int_equal(s.task_run_ns, 60000);
	assert_int_equal(sl_bg_split_read(&s,
					  put("bg0.trace",
					      "# tracer: nop\n"
					      "       swapper/1-0       [001] d..2.     0.001000: "
					      "sched_switch: prev_comm=swapper/1 prev_pid=0 "
					      "prev_prio=120 prev_state=R ==> next_comm=thread0 "
					      "next_pid=10 next_prio=120\n"
					      "       thread0-10      [001] d..2.     0.002000: "
					      "sched_switch: prev_comm=thread0 prev_pid=10 "
					      "prev_prio=120 prev_state=S ==> next_comm=swapper/1 "
					      "next_pid=0 next_prio=120\n"),
					  skip, 2, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "bg0.trace: expected cpu_idle lines"));
}

static void bg_each(const struct sl_trace_record *r, void *split)
{
	sl_bg_acc_record(split, r);
}

/*
 * The split taken from vtrace's own read of the trace (calibrate's background trace, read once):
 * bg_split_by_hand's figures, and vtrace's figures those of sl_vtrace_read on the same trace
 * (thread0 followed: the window 1-21 ms, its 3 switches out: 15, 16.99 and 21 ms).
 */
static void bg_split_from_the_vtrace_read(void **state)
{
	static struct sl_vtrace v, w;
	const char *names[] = {"thread0"};
	const char *skip[] = {"thread0", "bash"};
	const char *path = put("bg.trace", bg_trace);
	struct sl_bg_acc a;
	struct sl_bg_split s;
	char err[512];

	(void)state;
	assert_int_equal(sl_bg_acc_init(&a, skip, 2), 0);
	assert_int_equal(sl_vtrace_read_each(&v, path, names, 1, 0, bg_each, &a, err, sizeof(err)),
			 0);
	assert_int_equal(sl_bg_acc_finish(&a, &s, path, err, sizeof(err)), 0);
	assert_null(a.cpu);
	assert_int_equal(s.ncpu, 2);
	assert_int_equal(s.irq_rate_milli, (3000000000000ULL / 9790000 + 0) / 2);
	assert_int_equal(s.irq_run_ns, 30000);
	assert_int_equal(s.task_rate_milli, 50000);
	assert_int_equal(s.task_run_ns, 60000);
	assert_int_equal(sl_vtrace_read(&w, path, names, 1, 0, err, sizeof(err)), 0);
	assert_int_equal(v.start, 1000000);
	assert_int_equal(v.end, 21000000);
	assert_int_equal(v.task[0].switches, 3);
	assert_int_equal(v.start, w.start);
	assert_int_equal(v.end, w.end);
	assert_int_equal(v.task[0].switches, w.task[0].switches);
	assert_int_equal(v.other_ns, w.other_ns);
	assert_memory_equal(v.cpu, w.cpu, sizeof(v.cpu));
	sl_vtrace_free(&v);
	sl_vtrace_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rtlog_reads_rows_and_names),
		cmocka_unit_test(rtlog_errors_name_file_line_and_column),
		cmocka_unit_test(vtrace_window_latency_and_idle),
		cmocka_unit_test(vtrace_comm_is_truncated_as_the_kernel_does),
		cmocka_unit_test(machine_conf_loads_and_derives_the_model),
		cmocka_unit_test(machine_conf_read_serves_the_trace_replay),
		cmocka_unit_test(calibrate_derives_wake_ipi),
		cmocka_unit_test(calibrate_derives_the_parameters),
		cmocka_unit_test(calibrate_derives_the_wake_path),
		cmocka_unit_test(calibrate_writes_the_refill),
		cmocka_unit_test(calibrate_leaves_out_disturbed_rounds),
		cmocka_unit_test(background_json_and_conf),
		cmocka_unit_test(background_long_json_and_conf),
		cmocka_unit_test(background_pinned_json_and_conf),
		cmocka_unit_test(background_runs_json_and_conf),
		cmocka_unit_test(background_phase_random_json_and_conf),
		cmocka_unit_test(bg_split_by_hand),
		cmocka_unit_test(bg_split_from_the_vtrace_read),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
