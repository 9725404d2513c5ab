/* The ftrace text reader (src/trace/ftrace_text.c) and trace-stats (src/trace/trace_stats.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/format.h"
#include "trace/trace_stats.h"
#include "tmpdir.h"

static const char *write_file(const char *name, const char *text)
{
	return tmpdir_write(name, text, strlen(text));
}

/* Reads all records of `text` into recs (at most n); returns the count, or -1 (err set). */
static int read_all(const char *text, bool lenient, struct sl_trace_record *recs, int n,
		    struct sl_trace_reader *r)
{
	const char *path = write_file("t.trace", text);
	char err[512];
	int k = 0, rc;
	struct sl_trace_record tmp;

	assert_int_equal(sl_trace_open(r, NULL, path, lenient, err, sizeof(err)), 0);
	while ((rc = sl_trace_next(r, k < n ? &recs[k] : &tmp)) == 1)
		k++;
	sl_trace_close(r);
	return rc < 0 ? -1 : k;
}

#define SWITCH_FIELDS                                                                              \
	"sched_switch: prev_comm=bash prev_pid=2159 prev_prio=120 prev_state=R+ ==> "              \
	"next_comm=my task-1 next_pid=2161 next_prio=110\n"

static void check_switch(const struct sl_trace_record *r, int cpu, u64 t)
{
	struct sl_event ev;

	assert_int_equal(r->kind, SL_TR_SCHED_SWITCH);
	assert_string_equal(r->event, "sched_switch");
	assert_int_equal(r->cpu, cpu);
	assert_int_equal(r->time, t);
	assert_string_equal(r->comm, "bash");
	assert_int_equal(r->pid, 2159);
	assert_string_equal(r->task_comm, "bash");
	assert_int_equal(r->task_pid, 2159);
	assert_int_equal(r->task_prio, 120);
	assert_string_equal(r->prev_state, "R+");
	assert_string_equal(r->next_comm, "my task-1");
	assert_int_equal(r->next_pid, 2161);
	assert_int_equal(r->next_prio, 110);
	assert_true(sl_trace_record_to_event(r, &ev));
	assert_int_equal(ev.type, SL_EV_SWITCH);
	assert_int_equal(ev.pid, 2159);
	assert_int_equal(ev.next_pid, 2161);
	assert_int_equal(ev.prev_state, 'R');
	assert_int_equal(ev.cpu, cpu);
	assert_int_equal(ev.time, t);
}

static void test_layouts(void **state)
{
	struct sl_trace_record recs[8];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(
		read_all("# tracer: nop\n"
			 "#\n"
			 "# entries-in-buffer/entries-written: 4/9   #P:4\n"
			 "            bash-2159    [001] d..2.  3274.236985: " SWITCH_FIELDS
			 "            bash-2159    [002] d..2  3274.236986: " SWITCH_FIELDS
			 "            bash-2159    [003]  3274.236987: " SWITCH_FIELDS
			 "            bash-2159 [000] 3274.236988123: " SWITCH_FIELDS
			 "            bash-2159 [000] d..2. 3274.236989: " SWITCH_FIELDS,
			 false, recs, 8, &r),
		5);
	check_switch(&recs[0], 1, 3274236985000ULL);
	check_switch(&recs[1], 2, 3274236986000ULL);
	check_switch(&recs[2], 3, 3274236987000ULL);
	check_switch(&recs[3], 0, 3274236988123ULL);
	check_switch(&recs[4], 0, 3274236989000ULL);
	assert_int_equal(r.ncpu, 4);
	assert_true(r.have_entries);
	assert_int_equal(r.entries_in_buffer, 4);
	assert_int_equal(r.entries_written, 9);
	assert_true(sl_trace_overflowed(&r));
}

static void test_trace_cmd_header(void **state)
{
	struct sl_trace_record recs[2];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_all("cpus=2\n"
				  "            bash-2159  [001]  3274.236985: " SWITCH_FIELDS,
				  false, recs, 2, &r),
			 1);
	assert_int_equal(r.ncpu, 2);
	check_switch(&recs[0], 1, 3274236985000ULL);
}

static void test_event_fields(void **state)
{
	struct sl_trace_record o[20];
	struct sl_trace_reader r;
	struct sl_event ev;

	(void)state;
	assert_int_equal(
		read_all("   memfd:sealed-91-1543    [000] d..2.  1.000001: sched_wakeup: "
			 "comm=rcu_preempt pid=15 prio=120 target_cpu=001\n"
			 "  <idle>-0 [001] d..2. 1.000002: sched_wakeup_new: comm=bash pid=4938 "
			 "prio=120 target_cpu=001\n"
			 "  <idle>-0 [001] d..2. 1.000003: sched_waking: comm=a b pid=16 prio=100 "
			 "target_cpu=000\n"
			 "  bash-4936 [000] ..... 1.000004: sched_process_fork: comm=bash pid=4936 "
			 "child_comm=bash x child_pid=4938\n"
			 "  bash-4938 [000] ..... 1.000005: sched_process_exec: "
			 "filename=/usr/bin/my prog pid=4938 old_pid=4937\n"
			 "  sleep-4940 [000] ..... 1.000006: sched_process_exit: comm=sleep "
			 "pid=4940 prio=120 group_dead=true\n"
			 "  make-4939 [000] d..2. 1.000007: sched_migrate_task: comm=make pid=4939 "
			 "prio=120 orig_cpu=1 dest_cpu=0\n"
			 "  <idle>-0 [000] d..1. 1.000008: cpu_idle: state=1 cpu_id=0\n"
			 "  <idle>-0 [000] d..1. 1.000009: cpu_idle: state=4294967295 cpu_id=0\n"
			 "  <idle>-0 [000] d..1. 1.000010: cpu_idle_miss: cpu_id=0 state=2 "
			 "type=below\n"
			 "  <idle>-0 [000] d.h1. 1.000011: hrtimer_start: hrtimer=00000000624eaae9 "
			 "function=tick_nohz_handler expires=3274208000000 "
			 "softexpires=3274207000000 mode=ABS was_armed=0\n"
			 "  <idle>-0 [000] d.h1. 1.000012: hrtimer_expire_entry: "
			 "hrtimer=00000000624eaae9 function=tick_nohz_handler now=3274204015519\n"
			 "  <idle>-0 [000] d.h1. 1.000013: hrtimer_cancel: "
			 "hrtimer=000000005847d5ad\n"
			 "  <idle>-0 [000] d..1. 1.000014: tick_stop: success=1 dependency=NONE\n"
			 "  cc1-77 [000] ..... 1.000015: block_rq_issue: 254,0 RA 28672 () "
			 "13535496 + 56 be,0,7 [cc1]\n"
			 "  <idle>-0 [000] ..s1. 1.000016: block_rq_complete: 254,3 RA () 13535496 "
			 "+ 56 be,0,7 [0]\n"
			 "  <idle>-0 [000] d.h1. 1.000017: irq_handler_entry: irq=42 "
			 "name=virtio3-tx\n",
			 false, o, 20, &r),
		17);
	assert_string_equal(o[0].comm, "memfd:sealed-91");
	assert_int_equal(o[0].pid, 1543);
	assert_int_equal(o[0].kind, SL_TR_SCHED_WAKEUP);
	assert_string_equal(o[0].task_comm, "rcu_preempt");
	assert_int_equal(o[0].task_pid, 15);
	assert_int_equal(o[0].target_cpu, 1);
	assert_true(sl_trace_record_to_event(&o[0], &ev));
	assert_int_equal(ev.type, SL_EV_WAKEUP);
	assert_int_equal(ev.pid, 15);
	assert_int_equal(ev.cpu, 1);
	assert_string_equal(o[1].comm, "<idle>");
	assert_int_equal(o[1].pid, 0);
	assert_int_equal(o[1].kind, SL_TR_SCHED_WAKEUP_NEW);
	assert_int_equal(o[1].task_pid, 4938);
	assert_true(sl_trace_record_to_event(&o[1], &ev));
	assert_int_equal(ev.type, SL_EV_WAKEUP_NEW);
	assert_int_equal(o[2].kind, SL_TR_SCHED_WAKING);
	assert_string_equal(o[2].task_comm, "a b");
	assert_int_equal(o[2].task_prio, 100);
	assert_false(sl_trace_record_to_event(&o[2], &ev));
	assert_int_equal(o[3].kind, SL_TR_SCHED_PROCESS_FORK);
	assert_int_equal(o[3].task_pid, 4936);
	assert_string_equal(o[3].next_comm, "bash x");
	assert_int_equal(o[3].next_pid, 4938);
	assert_true(sl_trace_record_to_event(&o[3], &ev));
	assert_int_equal(ev.type, SL_EV_FORK);
	assert_int_equal(ev.next_pid, 4938);
	assert_string_equal(o[4].str, "/usr/bin/my prog");
	assert_int_equal(o[4].task_pid, 4938);
	assert_int_equal(o[4].old_pid, 4937);
	assert_true(sl_trace_record_to_event(&o[4], &ev));
	assert_int_equal(ev.type, SL_EV_EXEC);
	assert_int_equal(o[5].kind, SL_TR_SCHED_PROCESS_EXIT);
	assert_int_equal(o[5].task_pid, 4940);
	assert_true(sl_trace_record_to_event(&o[5], &ev));
	assert_int_equal(ev.type, SL_EV_EXIT);
	assert_int_equal(o[6].orig_cpu, 1);
	assert_int_equal(o[6].dest_cpu, 0);
	assert_true(sl_trace_record_to_event(&o[6], &ev));
	assert_int_equal(ev.type, SL_EV_MIGRATE);
	assert_int_equal(ev.orig_cpu, 1);
	assert_int_equal(ev.cpu, 0);
	assert_int_equal(o[7].state, 1);
	assert_int_equal(o[8].state, -1);
	assert_int_equal(o[8].cpu_id, 0);
	assert_true(sl_trace_record_to_event(&o[8], &ev));
	assert_int_equal(ev.type, SL_EV_IDLE);
	assert_int_equal(ev.state, -1);
	assert_int_equal(o[9].kind, SL_TR_CPU_IDLE_MISS);
	assert_int_equal(o[9].state, 2);
	assert_true(o[9].below);
	assert_int_equal(o[10].hrtimer, 0x624eaae9ULL);
	assert_string_equal(o[10].str, "tick_nohz_handler");
	assert_int_equal(o[10].expires, 3274208000000ULL);
	assert_int_equal(o[10].softexpires, 3274207000000ULL);
	assert_int_equal(o[11].now, 3274204015519ULL);
	assert_int_equal(o[11].hrtimer, 0x624eaae9ULL);
	assert_int_equal(o[12].hrtimer, 0x5847d5adULL);
	assert_int_equal(o[13].success, 1);
	assert_string_equal(o[13].str, "NONE");
	assert_int_equal(o[14].dev_major, 254);
	assert_int_equal(o[14].dev_minor, 0);
	assert_string_equal(o[14].rwbs, "RA");
	assert_int_equal(o[14].bytes, 28672);
	assert_int_equal(o[14].sector, 13535496);
	assert_int_equal(o[14].nr_sectors, 56);
	assert_string_equal(o[14].task_comm, "cc1");
	assert_int_equal(o[15].kind, SL_TR_BLOCK_RQ_COMPLETE);
	assert_int_equal(o[15].dev_minor, 3);
	assert_int_equal(o[15].sector, 13535496);
	assert_int_equal(o[15].error, 0);
	assert_int_equal(o[16].irq, 42);
	assert_string_equal(o[16].str, "virtio3-tx");
	assert_int_equal(o[16].time, 1000017000ULL);
}

/* trace-cmd report's default output (libtraceevent's sched and timer plugins) */
static void test_report_layouts(void **state)
{
	struct sl_trace_record o[4];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(
		read_all("cpus=2\n"
			 "  kworker/0:1H-60    [000]  6543.652035: sched_switch:         "
			 "kworker/0:1H:60 [100] R+ ==> swapper/0:0 [120]\n"
			 "  rt-app-4634  [000]  6543.652104: sched_wakeup:         rcu_preempt:15 "
			 "[120] CPU:001\n"
			 "  rt-app-4634  [000]  6543.652105: sched_wakeup:         a b:16 [120] "
			 "success=1 CPU:000\n"
			 "  rt-app-4634  [000]  6543.652189: hrtimer_expire_entry: "
			 "hrtimer=0xffff888627c206f8 now=6543628026055 "
			 "function=tick_nohz_handler/0x0\n",
			 false, o, 4, &r),
		4);
	assert_int_equal(r.ncpu, 2);
	assert_string_equal(o[0].task_comm, "kworker/0:1H");
	assert_int_equal(o[0].task_pid, 60);
	assert_int_equal(o[0].task_prio, 100);
	assert_string_equal(o[0].prev_state, "R+");
	assert_string_equal(o[0].next_comm, "swapper/0");
	assert_int_equal(o[0].next_pid, 0);
	assert_int_equal(o[1].task_pid, 15);
	assert_int_equal(o[1].target_cpu, 1);
	assert_string_equal(o[2].task_comm, "a b");
	assert_int_equal(o[2].target_cpu, 0);
	assert_int_equal(o[3].now, 6543628026055ull);
	assert_string_equal(o[3].str, "tick_nohz_handler");
}

static void test_old_layouts(void **state)
{
	struct sl_trace_record o[2];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_all("  bash-2159  [000]  100.000001: sched_switch: task ba:sh:2159 "
				  "[120] (S) ==> swapper:0 [120]\n"
				  "  bash-2159  [000]  100.000002: sched_wakeup: task bash:2159 "
				  "[120] success=1 [001]\n",
				  false, o, 2, &r),
			 2);
	assert_string_equal(o[0].task_comm, "ba:sh");
	assert_int_equal(o[0].task_pid, 2159);
	assert_string_equal(o[0].prev_state, "S");
	assert_string_equal(o[0].next_comm, "swapper");
	assert_int_equal(o[0].next_pid, 0);
	assert_int_equal(o[1].task_pid, 2159);
	assert_int_equal(o[1].target_cpu, 1);
}

static void test_truncated_last_line(void **state)
{
	struct sl_trace_record o[2];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(
		read_all("  <idle>-0 [000] d..1. 1.000008: cpu_idle: state=1 cpu_id=0\n"
			 "  <idle>-0 [001] d..1. 1.000009: cpu_idle: state=4294967295 cpu_id=1",
			 false, o, 2, &r),
		2);
	assert_int_equal(o[1].state, -1);
	assert_int_equal(o[1].cpu_id, 1);
}

static void test_garbage(void **state)
{
	static const char text[] = "# tracer: nop\n"
				   "  <idle>-0 [000] d..1. 1.000008: cpu_idle: state=1 cpu_id=0\n"
				   "this is not a trace line\n"
				   "  <idle>-0 [000] d..1. 1.000009: cpu_idle: stat=1 cpu_id=0\n"
				   "  <idle>-0 [000] d..1. 1.000010: cpu_idle: state=1 cpu_id=0\n";
	struct sl_trace_record o[4];
	struct sl_trace_reader r;
	char want[600];

	(void)state;
	assert_int_equal(read_all(text, false, o, 4, &r), -1);
	snprintf(want, sizeof(want), "%s/t.trace:3: ", tmpdir);
	assert_non_null(strstr(r.err, want));
	assert_non_null(strstr(r.err, "expected"));
	assert_int_equal(read_all(text, true, o, 4, &r), 2);
	assert_int_equal(r.malformed, 2);
	assert_int_equal(o[1].time, 1000010000ULL);
	/* a known event with bad fields names the field expected */
	assert_int_equal(read_all("  <idle>-0 [000] d..1. 1.000009: cpu_idle: stat=1 cpu_id=0\n",
				  false, o, 4, &r),
			 -1);
	assert_non_null(strstr(r.err, "t.trace:1: "));
	assert_non_null(strstr(r.err, "state="));
}

/*
 * A lenient read's lines that go back in time: a known event's counted malformed whatever its
 * fields hold (the reader does not read them: bad fields, a CPU beyond the limit, good ones),
 * an unknown event's counted as unknown, a LOST line and a header as ever; the records after
 * them are those of the lines in order.
 */
static void test_lenient_back_in_time(void **state)
{
	static const char text[] = "  <idle>-0 [000] d..1. 2.000000: cpu_idle: state=1 cpu_id=0\n"
				   "  <idle>-0 [001] d..1. 1.000000: cpu_idle: state=2 cpu_id=1\n"
				   "  <idle>-0 [000] d..1. 1.000000: cpu_idle: stat=1 cpu_id=0\n"
				   "  <idle>-0 [9000] d..1. 1.000000: cpu_idle: state=1 cpu_id=0\n"
				   "  <idle>-0 [000] d..1. 1.000000: sched_switch: garbage\n"
				   "  <idle>-0 [000] d..1. 1.000000: foo_bar: x=1\n"
				   "CPU:3 [LOST 12 EVENTS]\n"
				   "# a comment\n"
				   "  <idle>-0 [002] d..1. 2.000000: cpu_idle: state=3 cpu_id=2\n"
				   "  <idle>-0 [003] d..1. 1.999999: cpu_idle: state=1 cpu_id=3\n"
				   "  <idle>-0 [004] d..1. 2.500000: cpu_idle: state=4 cpu_id=4\n";
	struct sl_trace_record o[4];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_all(text, true, o, 4, &r), 3);
	/* lines 2, 3, 4, 5 and 10 */
	assert_int_equal(r.malformed, 5);
	assert_int_equal(r.unknown, 1);
	assert_int_equal(r.lost_lines, 1);
	assert_int_equal(r.lost_events, 12);
	assert_int_equal(o[0].cpu_id, 0);
	assert_int_equal(o[1].cpu_id, 2);
	assert_int_equal(o[1].state, 3);
	assert_int_equal(o[1].line, 9);
	assert_int_equal(o[2].cpu_id, 4);
	assert_int_equal(o[2].time, 2500000000ULL);
	/* strict: the second line, by its time */
	assert_int_equal(read_all(text, false, o, 4, &r), -1);
	assert_non_null(strstr(r.err, "t.trace:2: malformed line: expected a timestamp not before "
				      "line 1's (2.000000000)"));
}

static void test_long_line(void **state)
{
	size_t n = 10000;
	char *text = malloc(n + 200);
	struct sl_trace_record o[2];
	struct sl_trace_reader r;

	(void)state;
	assert_non_null(text);
	int l = snprintf(
		text, n + 200, "%s",
		"  <idle>-0 [000] d..1. 1.000008: cpu_idle: state=1 cpu_id=0\n  x-1 [000] 1.0: ");

	memset(text + l, 'a', n);
	snprintf(text + l + n, 200 - (size_t)l, "\n");
	assert_int_equal(read_all(text, true, o, 2, &r), -1);
	assert_non_null(strstr(r.err, "t.trace:2: line longer than"));
	/* also when it is the last line, without newline */
	text[l + n] = '\0';
	assert_int_equal(read_all(text, false, o, 2, &r), -1);
	assert_non_null(strstr(r.err, ":2: line longer"));
	free(text);
}

static void test_unknown_and_lost(void **state)
{
	struct sl_trace_record o[4];
	struct sl_trace_reader r;

	(void)state;
	assert_int_equal(read_all("  a-1 [000] .... 1.000001: foo_bar: x=1\n"
				  "CPU:1 [LOST 123 EVENTS]\n"
				  "  a-1 [000] .... 1.000002: foo_bar: x=2\n"
				  "  a-1 [000] .... 1.000003: baz: x=2\n"
				  "  <idle>-0 [000] d..1. 1.000008: cpu_idle: state=1 cpu_id=0\n",
				  false, o, 4, &r),
			 1);
	assert_int_equal(r.unknown, 3);
	assert_int_equal(r.nunknown, 2);
	assert_string_equal(r.unknown_ev[0].name, "foo_bar");
	assert_int_equal(r.unknown_ev[0].count, 2);
	assert_string_equal(r.unknown_ev[1].name, "baz");
	assert_int_equal(r.lost_lines, 1);
	assert_int_equal(r.lost_events, 123);
	assert_true(sl_trace_overflowed(&r));
}

static void test_gzip(void **state)
{
	char path[512], err[512];
	struct sl_trace_reader r;
	struct sl_trace_record o;
	gzFile g;
	int n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/t.trace.gz", tmpdir);
	g = gzopen(path, "wb");
	assert_non_null(g);
	for (int i = 0; i < 1000; i++)
		gzprintf(g, "  <idle>-0 [000] d..1. 1.%06d: cpu_idle: state=%d cpu_id=0\n", i,
			 i % 2);
	gzclose(g);
	assert_int_equal(sl_trace_open(&r, NULL, path, false, err, sizeof(err)), 0);
	while (sl_trace_next(&r, &o) == 1) {
		assert_int_equal(o.state, n % 2);
		assert_int_equal(o.time, 1000000000ULL + (u64)n * 1000);
		n++;
	}
	sl_trace_close(&r);
	assert_int_equal(n, 1000);
}

static void test_summary_small(void **state)
{
	const char *path = write_file(
		"s.trace",
		"#P:2\n"
		"  a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
		"  a-10 [000] d..2. 1.000100: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
		"prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n"
		"  b-11 [000] d..2. 1.000400: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"  <idle>-0 [000] d..1. 1.000500: cpu_idle: state=1 cpu_id=0\n"
		"  <idle>-0 [000] d..1. 1.001500: cpu_idle: state=4294967295 cpu_id=0\n"
		"  b-11 [001] ..... 1.002000: block_rq_issue: 8,0 R 4096 () 100 + 8 [b]\n"
		"  <idle>-0 [001] ..s1. 1.002250: block_rq_complete: 8,0 R () 100 + 8 [0]\n");
	struct sl_trace_summary *s = malloc(sizeof(*s));
	char err[512];

	(void)state;
	assert_non_null(s);
	assert_int_equal(sl_trace_summarize(s, path, false, err, sizeof(err)), 0);
	assert_int_equal(s->ncpu, 2);
	assert_int_equal(s->count[SL_TR_SCHED_SWITCH], 2);
	/* pid 11 by its id in the summary's tables (10 came first: 10 is 1, 11 is 2) */
	int id = sl_trace_summary_id(s, 11);

	assert_int_equal(id, 2);
	assert_int_equal(sl_trace_summary_id(s, 10), 1);
	assert_int_equal(sl_trace_summary_id(s, 12), 0);
	assert_int_equal(s->task[id].pid, 11);
	assert_int_equal(s->task[id].lat_n, 1);
	assert_int_equal(s->task[id].lat_max, 100000);
	assert_string_equal(s->task[id].comm, "b");
	assert_int_equal(s->st.pid[id].cpu_ns, 300000);
	assert_int_equal(s->st.pid[id].switches, 1);
	assert_int_equal(s->cpu[0].idle.count, 1);
	assert_int_equal(s->cpu[0].idle.max, 1000000);
	assert_non_null(s->cpu[0].state_idle[1]);
	assert_int_equal(s->blk.count, 1);
	assert_int_equal(s->blk.max, 250000);
	sl_trace_summary_free(s);
	free(s);

	/* both outputs print, the JSON one parses as the numbers */
	FILE *f = tmpfile();
	char buf[8192];

	assert_non_null(f);
	assert_int_equal(sl_trace_stats(path, false, NULL, true, f, err, sizeof(err)), 0);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	assert_non_null(strstr(buf, "\"sched_switch\":2"));
	fclose(f);
	f = tmpfile();
	assert_int_equal(sl_trace_stats(path, false, NULL, false, f, err, sizeof(err)), 0);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	assert_non_null(strstr(buf, "block I/O latency"));
	fclose(f);
	assert_int_equal(
		sl_trace_stats("/nonexistent/x", false, NULL, false, stdout, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/nonexistent/x"));
}

/* The data dir, from this source file's directory. */
/*
 * A switch missing from the trace (lost events, the start of a buffer): A runs on CPU 0 from its
 * switch-in at 1 s, is last seen there at 2 s (the wake-up it writes), and the next line of CPU 0
 * is B's switch-out at 4 s: A's switch to B was not traced. A ran 1 s for certain (1 to 2 s);
 * 2 to 4 s belongs to A or B in a way the trace does not tell, so it is charged to nobody
 * (2 s unattributed, one missing switch). B's wait from its wake-up at 2 s has no known end (its
 * switch-in is missing): no delay sample. C on CPU 1 is first seen at its switch-out at 10 s,
 * the end: 0 s. The old reading charged A until the end of the trace, 9 s.
 */
static void test_missing_switch(void **state)
{
	const char *path = write_file(
		"m.trace",
		"#P:2\n"
		"  <idle>-0 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 "
		"prev_prio=120 prev_state=R ==> next_comm=A next_pid=100 next_prio=120\n"
		"  A-100 [000] d..3. 2.000000: sched_wakeup: comm=B pid=200 prio=120 "
		"target_cpu=000\n"
		"  B-200 [000] d..2. 4.000000: sched_switch: prev_comm=B prev_pid=200 "
		"prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
		"  C-300 [001] d..2. 10.000000: sched_switch: prev_comm=C prev_pid=300 "
		"prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n");
	struct sl_trace_summary *s = malloc(sizeof(*s));
	char err[512];

	(void)state;
	assert_non_null(s);
	assert_int_equal(sl_trace_summarize(s, path, false, err, sizeof(err)), 0);
	int a = sl_trace_summary_id(s, 100), b = sl_trace_summary_id(s, 200),
	    c = sl_trace_summary_id(s, 300);

	assert_true(a && b && c);
	assert_int_equal(s->st.pid[a].cpu_ns, 1000000000ull);
	assert_int_equal(s->st.pid[b].cpu_ns, 0);
	assert_int_equal(s->st.pid[c].cpu_ns, 0);
	assert_int_equal(s->st.pid[b].wait_n, 0);
	assert_int_equal(s->st.c[0].lost_switches, 1);
	assert_int_equal(s->st.c[0].unattributed_ns, 2000000000ull);
	assert_int_equal(s->st.c[0].busy_ns, 1000000000ull);
	assert_int_equal(s->st.c[1].lost_switches, 0);
	sl_trace_summary_free(s);
	free(s);
}

/*
 * perf sched latency's delay: from a wake-up, or from a switch-out in state R (preemption), to
 * the switch-in. b is woken at 1.0000 and runs at 1.0001 (100 us); preempted (R) at 1.0004 by
 * a, it runs again at 1.0010 (600 us, the longest, ending at 1.0010). 2 delays, 700 us, avg 350.
 * --sort max puts b (600 us) before a (0); runtime: b ran 300 + 500 us = 800 us.
 */
static void test_delay_and_sort(void **state)
{
	const char *path = write_file(
		"d.trace",
		"#P:1\n"
		"  a-10 [000] d..2. 1.000000: sched_wakeup: comm=b pid=11 prio=120 target_cpu=000\n"
		"  a-10 [000] d..2. 1.000100: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
		"prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n"
		"  b-11 [000] d..2. 1.000400: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 "
		"prev_state=R ==> next_comm=a next_pid=10 next_prio=120\n"
		"  a-10 [000] d..2. 1.001000: sched_switch: prev_comm=a prev_pid=10 prev_prio=120 "
		"prev_state=S ==> next_comm=b next_pid=11 next_prio=120\n"
		"  b-11 [000] d..2. 1.001500: sched_switch: prev_comm=b prev_pid=11 prev_prio=120 "
		"prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n");
	struct sl_trace_summary *s = malloc(sizeof(*s));
	struct sl_trace_sort sort;
	char err[512], buf[8192];

	(void)state;
	assert_non_null(s);
	assert_int_equal(sl_trace_summarize(s, path, false, err, sizeof(err)), 0);
	int b = sl_trace_summary_id(s, 11);

	assert_int_equal(s->st.pid[b].wait_n, 2);
	assert_int_equal(s->st.pid[b].wait_total, 700000);
	assert_int_equal(s->st.pid[b].wait_max, 600000);
	assert_int_equal(s->st.pid[b].wait_max_at, 1001000000ull);
	assert_int_equal(s->st.pid[b].cpu_ns, 800000);
	sl_trace_summary_free(s);
	free(s);

	assert_int_equal(sl_trace_sort_parse("max,pid", &sort, err, sizeof(err)), 0);
	FILE *f = tmpfile();

	assert_int_equal(sl_trace_stats(path, false, &sort, false, f, err, sizeof(err)), 0);
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);

	buf[n] = 0;
	fclose(f);
	char *pb = strstr(buf, "     11 b"), *pa = strstr(buf, "     10 a");

	assert_non_null(pb);
	assert_non_null(pa);
	assert_true(pb < pa);
	assert_true(strstr(pb, "1.001000") != NULL);
	assert_int_equal(sl_trace_sort_parse("max,bogus", &sort, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'bogus'"));
}

static void data_path(char *buf, size_t n, const char *name)
{
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 1;

	snprintf(buf, n, "%.*s/data/%s", dir, slash ? __FILE__ : ".", name);
}

/*
 * Each real trace reads without an error, and its count of every event equals what
 * `xz -dc FILE | grep -c 'EVENT:'` gives: computed here independently, by decompressing
 * with the xz program and searching each line for "EVENT:".
 */
static void test_real_traces(void **state)
{
	static const char *const files[] = {
		"idle-sleep-loop.trace.xz", "sync-direct-read.trace.xz", "parallel-make.trace.xz",
		"latency-under-nice-make.trace.xz", "trace-cmd-report.trace.xz"};

	(void)state;
	for (size_t i = 0; i < SL_ARRAY_SIZE(files); i++) {
		char path[1024], cmd[1200], err[512], line[8192];
		u64 want[SL_TR_NR_KINDS] = {0};
		struct sl_trace_summary *s = malloc(sizeof(*s));
		FILE *p;

		assert_non_null(s);
		data_path(path, sizeof(path), files[i]);
		snprintf(cmd, sizeof(cmd), "xz -dc '%s'", path);
		p = popen(cmd, "r");
		assert_non_null(p);
		while (fgets(line, sizeof(line), p)) {
			for (int k = 1; k < SL_TR_NR_KINDS; k++) {
				char key[64];

				snprintf(key, sizeof(key), "%s:", sl_trace_kind_name(k));
				if (strstr(line, key))
					want[k]++;
			}
		}
		assert_int_equal(pclose(p), 0);
		assert_true(want[SL_TR_SCHED_SWITCH] > 1000);
		assert_int_equal(sl_trace_summarize(s, path, false, err, sizeof(err)), 0);
		for (int k = 1; k < SL_TR_NR_KINDS; k++) {
			if (s->count[k] != want[k])
				print_error("%s: %s: %llu, grep says %llu\n", files[i],
					    sl_trace_kind_name(k), (unsigned long long)s->count[k],
					    (unsigned long long)want[k]);
			assert_int_equal(s->count[k], want[k]);
		}
		assert_int_equal(s->rd.ncpu, 2);
		assert_false(sl_trace_overflowed(&s->rd));
		assert_int_equal(s->rd.unknown, 0);
		assert_int_equal(s->rd.malformed, 0);
		/* entries-in-buffer is the number of event lines */
		if (s->rd.have_entries)
			assert_int_equal(s->rd.records, s->rd.entries_in_buffer);
		assert_true(s->cpu[0].idle.count > 0);
		assert_true(s->st.c[0].busy_ns + s->st.c[1].busy_ns > 0);
		if (s->count[SL_TR_BLOCK_RQ_ISSUE])
			assert_true(s->blk.count > 0);
		sl_trace_summary_free(s);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_trace_cmd_header),
		cmocka_unit_test(test_event_fields),
		cmocka_unit_test(test_old_layouts),
		cmocka_unit_test(test_report_layouts),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_long_line),
		cmocka_unit_test(test_unknown_and_lost),
		cmocka_unit_test(test_gzip),
		cmocka_unit_test(test_summary_small),
		cmocka_unit_test(test_missing_switch),
		cmocka_unit_test(test_delay_and_sort),
		cmocka_unit_test(test_real_traces),
		cmocka_unit_test(test_lenient_back_in_time),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
