/*
 * The sweep: its enumeration (which settings run #i has), its rows, resuming from a file a
 * killed run left, and sweep-report's arithmetic on a table whose effects are worked by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "experiment/sweep.h"

/* Parses a sweep command line (sweep options and --workload/--cpus/...) the way the CLI does. */
static int sweep_from(struct sl_sweep *sw, char *err, size_t errlen, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;

	memset(sw, 0, sizeof(*sw));
	va_start(ap, errlen);
	for (char *a; (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	for (int i = 0; i < argc; i++) {
		int t = sl_sweep_option(sw, argc, argv, &i, err, errlen);

		if (t < 0)
			return -1;
		if (t)
			continue;
		/* the few run options these tests use */
		if (!strcmp(argv[i], "--workload"))
			sw->base.workloads[sw->base.nworkloads++] = argv[++i];
		else if (!strcmp(argv[i], "--cpus"))
			sw->base.cpus = argv[++i];
		else if (!strcmp(argv[i], "--param"))
			sw->base.params[sw->base.nparams++] = argv[++i];
		else if (!strcmp(argv[i], "--duration"))
			sw->base.duration = argv[++i];
		else if (!strcmp(argv[i], "--kernel"))
			sw->base.kernel = argv[++i];
		else
			fail_msg("test: unexpected %s", argv[i]);
	}
	return sl_sweep_prepare(sw, err, errlen);
}

static void test_enumeration(void **state)
{
	struct sl_sweep sw;
	struct sl_args a;
	char err[1024], buf[4096];

	(void)state;
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features",
				    "START_DEBIT,NEW_FAIR_SLEEPERS", "--seeds", "2", "--vary",
				    "kernel.sched_child_runs_first=0,1", "--workload", "hog",
				    "--duration", "10ms", "--out", "x.csv", NULL),
			 0);
	/* 2^2 flag settings x 2 seeds x 2 values */
	assert_int_equal(sw.nruns, 16);
	/* flags in the kernel's order (NEW_FAIR_SLEEPERS is bit 0 of 2.6.31's file) */
	assert_string_equal(sw.flag_names[0], "NEW_FAIR_SLEEPERS");
	assert_string_equal(sw.flag_names[1], "START_DEBIT");
	/* run 13 = 0b1101: flags 01 (NEW_FAIR_SLEEPERS on), then 3 = seed index 1, vary
	 * index 1 */
	sl_sweep_args(&sw, 13, &a, buf, sizeof(buf));
	assert_string_equal(a.seed, "2");
	assert_int_equal(a.nsysctls, 1);
	assert_string_equal(a.sysctls[0], "kernel.sched_child_runs_first=1");
	assert_int_equal(a.nfeatures, 1);
	assert_string_equal(a.features[0], "NEW_FAIR_SLEEPERS NO_START_DEBIT");
	/* run 5 = 0b0101: flags 01, then 1 = seed index 1, vary index 0 */
	sl_sweep_args(&sw, 5, &a, buf, sizeof(buf));
	assert_string_equal(a.seed, "2");
	assert_string_equal(a.sysctls[0], "kernel.sched_child_runs_first=0");
	/* run 2 = 0b0010: flags 10, seed index 0, vary index 0 */
	sl_sweep_args(&sw, 2, &a, buf, sizeof(buf));
	assert_string_equal(a.seed, "1");
	assert_string_equal(a.sysctls[0], "kernel.sched_child_runs_first=0");
	assert_string_equal(a.features[0], "NO_NEW_FAIR_SLEEPERS START_DEBIT");
	/* columns: settings, then the hog group's metrics, then the machine's */
	assert_int_equal(sw.nsettings, 4 + 1 + 2);
	assert_string_equal(sw.cols[4], "kernel.sched_child_runs_first");
	assert_string_equal(sw.cols[7], "hog.cpu_share");
	assert_string_equal(sw.cols[sw.ncols - 1], "events");
	char id[17];

	memcpy(id, sw.config_id, sizeof(id));
	sl_sweep_free(&sw);
	/* the config id depends on what is not varied, and is stable */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features",
				    "START_DEBIT,NEW_FAIR_SLEEPERS", "--seeds", "2", "--vary",
				    "kernel.sched_child_runs_first=0,1", "--workload", "hog",
				    "--duration", "10ms", "--out", "x.csv", NULL),
			 0);
	assert_string_equal(sw.config_id, id);
	sl_sweep_free(&sw);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features",
				    "START_DEBIT,NEW_FAIR_SLEEPERS", "--seeds", "2", "--vary",
				    "kernel.sched_child_runs_first=0,1", "--workload", "hog",
				    "--duration", "20ms", "--out", "x.csv", NULL),
			 0);
	assert_string_not_equal(sw.config_id, id);
	sl_sweep_free(&sw);
}

static void test_all_flags(void **state)
{
	struct sl_sweep sw;
	char err[1024];

	(void)state;
	/* 2.6.31: 17 flags, of which LB_WAKEUP_UPDATE and ASYM_EFF_LOAD need group scheduling:
	 * 15 vary, 2^15 schedulers */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "all", "--workload", "hog",
				    "--out", "x.csv", NULL),
			 0);
	assert_int_equal(sw.nflags, 15);
	assert_int_equal(sw.nruns, 32768);
	for (int i = 0; i < sw.nflags; i++) {
		assert_string_not_equal(sw.flag_names[i], "LB_WAKEUP_UPDATE");
		assert_string_not_equal(sw.flag_names[i], "ASYM_EFF_LOAD");
	}
	sl_sweep_free(&sw);
}

static void test_all_flags_with_groups(void **state)
{
	struct sl_sweep sw;
	char err[1024];

	(void)state;
	/* with group scheduling on (param.group_sched) LB_WAKEUP_UPDATE and ASYM_EFF_LOAD act
	 * too: all 17 vary, 2^17 = 131072 runs; likewise when a --vary turns it on in some runs */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "all", "--param",
				    "group_sched=1", "--workload", "hog", "--out", "x.csv", NULL),
			 0);
	assert_int_equal(sw.nflags, 17);
	assert_int_equal(sw.nruns, 131072);
	assert_string_equal(sw.flag_names[12], "LB_WAKEUP_UPDATE");
	assert_string_equal(sw.flag_names[13], "ASYM_EFF_LOAD");
	sl_sweep_free(&sw);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "all", "--vary",
				    "param.group_sched=0,1", "--workload", "hog", "--out", "x.csv",
				    NULL),
			 0);
	assert_int_equal(sw.nflags, 17);
	sl_sweep_free(&sw);
	/* group_sched=0 given: 15 */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "all", "--param",
				    "group_sched=0", "--workload", "hog", "--out", "x.csv", NULL),
			 0);
	assert_int_equal(sw.nflags, 15);
	sl_sweep_free(&sw);
}

static void test_refusals(void **state)
{
	struct sl_sweep sw;
	char err[1024];

	(void)state;
	/* 2^15 x 64 seeds x 64 values = 2^27 runs > 2^26 */
	assert_int_equal(
		sweep_from(&sw, err, sizeof(err), "--features", "all", "--seeds", "64", "--vary",
			   "kernel.sched_child_runs_first=0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,"
			   "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,"
			   "0,1,0,1,0,1,0,1,0,1",
			   "--workload", "hog", "--out", "x.csv", NULL),
		-1);
	assert_non_null(strstr(err, "134217728 runs asked for; the limit is 67108864"));
	sl_sweep_free(&sw);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "NO_SUCH_FLAG",
				    "--workload", "hog", "--out", "x.csv", NULL),
			 -1);
	assert_non_null(strstr(err, "NO_SUCH_FLAG is not a flag of 2.6.31"));
	sl_sweep_free(&sw);
	/* a bad value is caught before any run, naming the --vary */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--vary",
				    "cpuidle-governor=menu-tng,nosuch", "--workload", "hog",
				    "--out", "x.csv", NULL),
			 -1);
	assert_non_null(strstr(err, "--vary cpuidle-governor=nosuch"));
	sl_sweep_free(&sw);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--vary", "colour=red", "--workload",
				    "hog", "--out", "x.csv", NULL),
			 -1);
	assert_non_null(strstr(err, "colour: unknown key"));
	sl_sweep_free(&sw);
	assert_int_equal(
		sweep_from(&sw, err, sizeof(err), "--workload", "hog", "--out", "x.txt", NULL), -1);
	assert_non_null(strstr(err, "must end in .csv or .jsonl"));
	sl_sweep_free(&sw);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--shard", "3/2", "--workload", "hog",
				    "--out", "x.csv", NULL),
			 -1);
	assert_non_null(strstr(err, "K/N with 1 <= K <= N"));
	sl_sweep_free(&sw);
}

/* The cell of column `name` in a CSV row of sw. */
static void cell(const struct sl_sweep *sw, const char *row, const char *name, char *out,
		 size_t len)
{
	int c = 0;

	while (c < sw->ncols && strcmp(sw->cols[c], name))
		c++;
	assert_true(c < sw->ncols);
	const char *p = row;

	for (int k = 0; k < c; k++) {
		if (*p == '"') /* the mix label is quoted: skip to its closing quote */
			p = strchr(p + 1, '"') + 1;
		p = strchr(p, ',') + 1;
	}
	size_t n = strcspn(p, ",\n");

	assert_true(n < len);
	memcpy(out, p, n);
	out[n] = '\0';
}

static void test_row(void **state)
{
	struct sl_sweep sw;
	char err[1024], row[65536], v[64];

	(void)state;
	/* one hog alone on one CPU for 50 ms: it has the CPU all the time; its one wake-up is
	 * its creation (wake_up_new_task) */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "START_DEBIT",
				    "--workload", "hog:tasks=1", "--cpus", "1", "--duration",
				    "50ms", "--out", "x.csv", NULL),
			 0);
	int n = sl_sweep_run_one(&sw, 1, row, sizeof(row), err, sizeof(err));

	assert_true(n > 0);
	assert_int_equal(row[n - 1], '\n');
	assert_int_equal((int)strlen(row), n);
	cell(&sw, row, "run", v, sizeof(v));
	assert_string_equal(v, "1");
	cell(&sw, row, "config", v, sizeof(v));
	assert_string_equal(v, sw.config_id);
	cell(&sw, row, "START_DEBIT", v, sizeof(v));
	assert_string_equal(v, "1");
	cell(&sw, row, "hog.cpu_share", v, sizeof(v));
	assert_string_equal(v, "1.000000");
	cell(&sw, row, "hog.wakeups", v, sizeof(v));
	assert_string_equal(v, "1");
	/* an endless hog has no completion: an empty cell, not a zero */
	cell(&sw, row, "hog.completion_ns", v, sizeof(v));
	assert_string_equal(v, "");
	cell(&sw, row, "migrations", v, sizeof(v));
	assert_string_equal(v, "0");
	/* the same run twice: the same bytes */
	char again[65536];

	assert_int_equal(sl_sweep_run_one(&sw, 1, again, sizeof(again), err, sizeof(err)), n);
	assert_memory_equal(row, again, (size_t)n);
	/* JSON Lines: the same figures as typed values */
	sw.fmt = SL_SWEEP_JSONL;
	n = sl_sweep_run_one(&sw, 1, row, sizeof(row), err, sizeof(err));
	assert_true(n > 0);
	json_object *o = json_tokener_parse(row), *x;

	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "run", &x));
	assert_int_equal(json_object_get_int(x), 1);
	assert_true(json_object_object_get_ex(o, "hog.completion_ns", &x));
	assert_null(x);
	assert_true(json_object_object_get_ex(o, "hog.cpu_share", &x));
	assert_true(json_object_get_double(x) == 1.0);
	assert_int_equal(json_object_object_length(o), sw.ncols);
	json_object_put(o);
	sl_sweep_free(&sw);
}

/* run i of sw, memo first, then simulated (no memo): a row, and the same bytes */
static void same_without_memo(struct sl_sweep *sw, u64 i)
{
	char err[1024], row[65536], again[65536];
	int n = sl_sweep_run_one(sw, i, row, sizeof(row), err, sizeof(err));
	struct sl_sweep_memo *memo = sw->memo;

	assert_true(n > 0);
	sw->memo = NULL;
	assert_int_equal(sl_sweep_run_one(sw, i, again, sizeof(again), err, sizeof(err)), n);
	assert_memory_equal(row, again, (size_t)n);
	sw->memo = memo;
}

/* every run of sw, of which at least min_hits copied from the memo; then each run again */
static void check_memo(struct sl_sweep *sw, u64 min_hits)
{
	char err[1024], row[65536];

	for (u64 i = 0; i < sw->nruns; i++)
		assert_true(sl_sweep_run_one(sw, i, row, sizeof(row), err, sizeof(err)) > 0);
	assert_true(sl_sweep_memo_hits(sw->memo) >= min_hits);
	for (u64 i = 0; i < sw->nruns; i++)
		same_without_memo(sw, i);
}

/*
 * The memo (sweep_row.c): every row of a 16-run sweep is the same with it as when every run is
 * simulated. OWNER_SPIN is read only when a task blocks on a held mutex (task_prog.c), and no
 * workload here takes one, so no run reads it: its two values give the same run, and at least
 * the 8 runs with it flipped from one seen before are copied, not simulated.
 */
static void test_memo(void **state)
{
	struct sl_sweep sw;
	char err[1024];

	(void)state;
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features",
				    "NEW_FAIR_SLEEPERS,WAKEUP_PREEMPT,LB_BIAS,OWNER_SPIN",
				    "--workload", "pingpong:count=200", "--workload",
				    "make:jobs=4,count=20", "--cpus", "2", "--duration", "100ms",
				    "--out", "x.csv", NULL),
			 0);
	assert_non_null(sw.memo);
	assert_int_equal((int)sw.nruns, 16);
	check_memo(&sw, 8);
	sl_sweep_free(&sw);
}

/*
 * The memo is shared by the workers (a mapping made before they are forked): run #0 simulated
 * by a forked child lets the parent copy run #1 (OWNER_SPIN flipped, a bit no run here reads,
 * see test_memo): exactly one hit in the parent, and the same bytes as simulating it.
 */
static void test_memo_shared(void **state)
{
	struct sl_sweep sw;
	char err[1024], row[65536];
	int status = -1;

	(void)state;
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "OWNER_SPIN", "--workload",
				    "pingpong:count=200", "--cpus", "2", "--duration", "100ms",
				    "--out", "x.csv", NULL),
			 0);
	assert_int_equal((int)sw.nruns, 2);
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(sl_sweep_run_one(&sw, 0, row, sizeof(row), err, sizeof(err)) > 0 ? 0 : 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal((int)sl_sweep_memo_hits(sw.memo), 0);
	same_without_memo(&sw, 1);
	assert_int_equal((int)sl_sweep_memo_hits(sw.memo), 1);
	sl_sweep_free(&sw);
}

/*
 * A flag is read only where its value changes what happens (sched/cfs.c): DOUBLE_TICK only at a
 * tick with an hrtick armed, and with HRTICK off none is ever armed. Of the four runs of
 * HRTICK x DOUBLE_TICK, the two with HRTICK off take one path, so the second of them is copied
 * (at least one hit; none when every tick read DOUBLE_TICK), with the bytes of simulating it.
 */
static void test_memo_unread_flag(void **state)
{
	struct sl_sweep sw;
	char err[1024];

	(void)state;
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features", "HRTICK,DOUBLE_TICK",
				    "--workload", "pingpong:count=200", "--workload",
				    "make:jobs=4,count=20", "--cpus", "2", "--duration", "100ms",
				    "--out", "x.csv", NULL),
			 0);
	assert_int_equal((int)sw.nruns, 4);
	check_memo(&sw, 1);
	sl_sweep_free(&sw);
}

/* Two groups of one workload: columns by the simulation's own group names, both filled. */
static void test_group_columns(void **state)
{
	struct sl_sweep sw;
	char err[1024], row[65536], v[64];

	(void)state;
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--workload", "hog:tasks=1",
				    "--workload", "hog:tasks=1", "--cpus", "2", "--duration",
				    "10ms", "--out", "x.csv", NULL),
			 0);
	assert_true(sl_sweep_run_one(&sw, 0, row, sizeof(row), err, sizeof(err)) > 0);
	/* one hog per CPU: each group has a CPU to itself */
	cell(&sw, row, "hog.cpu_share", v, sizeof(v));
	assert_string_equal(v, "1.000000");
	cell(&sw, row, "hog#2.cpu_share", v, sizeof(v));
	assert_string_equal(v, "1.000000");
	sl_sweep_free(&sw);
}

static void test_resume(void **state)
{
	struct sl_sweep sw;
	char err[1024], row[65536], header[65536], path[] = "/tmp/schedlab-sweep-XXXXXX.csv";
	int fd = mkstemps(path, 4);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--features",
				    "NEW_FAIR_SLEEPERS,START_DEBIT", "--workload", "hog:tasks=2",
				    "--cpus", "1", "--duration", "5ms", "--out", path, NULL),
			 0);
	FILE *f = fopen(path, "w");
	int hn = sl_sweep_header(&sw, header, sizeof(header));

	assert_true(hn > 0);
	fputs(header, f);
	long whole = hn;

	for (int i = 0; i < 4; i += 2) { /* runs 0 and 2 */
		int n = sl_sweep_run_one(&sw, (u64)i, row, sizeof(row), err, sizeof(err));

		assert_true(n > 0);
		fputs(row, f);
		whole += n;
	}
	fputs("3,", f); /* a kill during write(2) */
	fclose(f);
	bool done[4] = {0};
	u64 ndone;

	assert_int_equal(sl_sweep_resume(&sw, done, &ndone, err, sizeof(err)), 0);
	assert_int_equal(ndone, 2);
	assert_true(done[0] && !done[1] && done[2] && !done[3]);
	/* the torn line is cut off */
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	assert_int_equal(ftell(f), whole);
	fclose(f);
	/* a run twice is refused, naming the line */
	f = fopen(path, "a");
	assert_true(sl_sweep_run_one(&sw, 2, row, sizeof(row), err, sizeof(err)) > 0);
	fputs(row, f);
	fclose(f);
	memset(done, 0, sizeof(done));
	assert_int_equal(sl_sweep_resume(&sw, done, &ndone, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 4: run 2 appears twice"));
	/* a row of another sweep (another config id) is refused */
	f = fopen(path, "w");
	fputs(header, f);
	int n = sl_sweep_run_one(&sw, 1, row, sizeof(row), err, sizeof(err));

	assert_true(n > 20);
	char *c = strchr(row, ',') + 1;

	c[0] = c[0] == '0' ? '1' : '0';
	fputs(row, f);
	fclose(f);
	memset(done, 0, sizeof(done));
	assert_int_equal(sl_sweep_resume(&sw, done, &ndone, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 2: written by another sweep"));
	/* other columns: refused at line 1 */
	f = fopen(path, "w");
	fputs("run,config,mix,seed,X\n", f);
	fclose(f);
	assert_int_equal(sl_sweep_resume(&sw, done, &ndone, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "line 1: the columns differ"));
	unlink(path);
	sl_sweep_free(&sw);
}

/*
 * Two flags, two runs per cell (hand-made values):
 *   AA BB : values      mean
 *    0  0 : 0, 2        1
 *    1  0 : 2, 4        3
 *    0  1 : 1, 3        2
 *    1  1 : 7, 9        8
 * AA: on {2,4,7,9} mean 5.5, off {0,2,1,3} mean 1.5: effect 4; sample variances 29/3 and 5/3;
 *     ci = 1.96 sqrt((29/3)/4 + (5/3)/4) = 1.96 sqrt(17/6) = 3.29918
 * BB: on {1,3,7,9} mean 5, off {0,2,2,4} mean 2: effect 3
 * AA x BB: ((8 - 2) - (3 - 1)) / 2 = 2; ci = 0.5 x 1.96 sqrt(4 x 2/2) = 1.96
 */
static void test_report_effects(void **state)
{
	char path[] = "/tmp/schedlab-report-XXXXXX.csv";
	int fd = mkstemps(path, 4);
	static const int v[8][3] = {{0, 0, 0}, {0, 0, 2}, {1, 0, 2}, {1, 0, 4},
				    {0, 1, 1}, {0, 1, 3}, {1, 1, 7}, {1, 1, 9}};

	(void)state;
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");

	fputs("run,config,mix,seed,AA,BB,g.lat_p99_ns,events\n", f);
	for (int i = 0; i < 8; i++)
		fprintf(f, "%d,0123456789abcdef,hog,%d,%d,%d,%d,100\n", i, 1 + i % 2, v[i][0],
			v[i][1], v[i][2]);
	fclose(f);
	struct sl_report_opts o;

	memset(&o, 0, sizeof(o));
	o.files[o.nfiles++] = path;
	o.json = true;
	o.top = 3;
	o.out = tmpfile();
	assert_int_equal(sl_sweep_report(&o), 0);
	fseek(o.out, 0, SEEK_END);
	long len = ftell(o.out);
	char *txt = calloc(1, (size_t)len + 1);

	rewind(o.out);
	assert_int_equal(fread(txt, 1, (size_t)len, o.out), (size_t)len);
	fclose(o.out);
	json_object *root = json_tokener_parse(txt), *ms, *m, *x, *e;

	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "runs", &x));
	assert_int_equal(json_object_get_int(x), 8);
	assert_true(json_object_object_get_ex(root, "metrics", &ms));
	/* "events" never varies: left out without --metric */
	assert_int_equal(json_object_array_length(ms), 1);
	m = json_object_array_get_idx(ms, 0);
	assert_true(json_object_object_get_ex(m, "mean", &x));
	assert_float_equal(json_object_get_double(x), 3.5, 1e-12);
	assert_true(json_object_object_get_ex(m, "main_effects", &x));
	e = json_object_array_get_idx(x, 0); /* ranked by size: AA first */
	assert_string_equal(json_object_get_string(json_object_object_get(e, "flag")), "AA");
	assert_float_equal(json_object_get_double(json_object_object_get(e, "effect")), 4.0, 1e-12);
	assert_float_equal(json_object_get_double(json_object_object_get(e, "ci95")), 3.29918,
			   1e-5);
	e = json_object_array_get_idx(x, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(e, "flag")), "BB");
	assert_float_equal(json_object_get_double(json_object_object_get(e, "effect")), 3.0, 1e-12);
	assert_true(json_object_object_get_ex(m, "interactions", &x));
	e = json_object_array_get_idx(x, 0);
	assert_float_equal(json_object_get_double(json_object_object_get(e, "effect")), 2.0, 1e-12);
	assert_float_equal(json_object_get_double(json_object_object_get(e, "ci95")), 1.96, 1e-12);
	/* lower is better for a latency: best is run 0 (value 0), worst run 7 (value 9) */
	assert_true(json_object_object_get_ex(m, "best", &x));
	e = json_object_array_get_idx(x, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(e, "run")), 0);
	assert_true(json_object_object_get_ex(m, "worst", &x));
	e = json_object_array_get_idx(x, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(e, "run")), 7);
	/* the seed levels: seed 1 = runs 0,2,4,6 = {0,2,1,7} mean 2.5 */
	assert_true(json_object_object_get_ex(m, "levels", &x));
	e = json_object_array_get_idx(json_object_object_get(x, "seed"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(e, "level")), "1");
	assert_float_equal(json_object_get_double(json_object_object_get(e, "mean")), 2.5, 1e-12);
	json_object_put(root);
	free(txt);
	unlink(path);
}

/* --vary KEY=V sets the field of struct sl_args that --KEY V sets (config/args_fields.h). */
static void test_vary_fields(void **state)
{
	struct sl_sweep sw;
	struct sl_args a;
	char err[1024], buf[4096];

	(void)state;
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--vary", "kernel=2.6.32", "--vary",
				    "cpus=3", "--vary", "duration=20ms", "--vary", "seed=7",
				    "--vary", "machine=nehalem", "--vary", "idle=poll", "--vary",
				    "cpuidle-governor=menu,ladder", "--vary",
				    "pm-qos-latency-us=10", "--vary", "irq-affinity=spread",
				    "--vary", "sched-features=NO_START_DEBIT", "--workload", "hog",
				    "--out", "x.csv", NULL),
			 0);
	assert_int_equal(sw.nruns, 2);
	/* run 1: the second governor, every other key its one value */
	sl_sweep_args(&sw, 1, &a, buf, sizeof(buf));
	assert_string_equal(a.kernel, "2.6.32");
	assert_string_equal(a.cpus, "3");
	assert_string_equal(a.duration, "20ms");
	assert_string_equal(a.seed, "7");
	assert_string_equal(a.machine, "nehalem");
	assert_string_equal(a.idle, "poll");
	assert_string_equal(a.governor, "ladder");
	assert_string_equal(a.pm_qos_us, "10");
	assert_string_equal(a.irq_affinity, "spread");
	assert_int_equal(a.nfeatures, 1);
	assert_string_equal(a.features[0], "NO_START_DEBIT");
	assert_int_equal(a.nsysctls, 0);
	assert_null(a.idle_driver);
	sl_sweep_args(&sw, 0, &a, buf, sizeof(buf));
	assert_string_equal(a.governor, "menu");
	sl_sweep_free(&sw);
	/* options of run that --vary does not set */
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--vary", "idle-driver=acpi_idle",
				    "--workload", "hog", "--out", "x.csv", NULL),
			 -1);
	assert_non_null(strstr(err, "--vary idle-driver: unknown key"));
	sl_sweep_free(&sw);
	assert_int_equal(sweep_from(&sw, err, sizeof(err), "--vary", "workload=hog", "--workload",
				    "hog", "--out", "x.csv", NULL),
			 -1);
	assert_non_null(strstr(err, "--vary workload: unknown key"));
	sl_sweep_free(&sw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enumeration),
		cmocka_unit_test(test_all_flags),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_row),
		cmocka_unit_test(test_group_columns),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_report_effects),
		cmocka_unit_test(test_all_flags_with_groups),
		cmocka_unit_test(test_memo),
		cmocka_unit_test(test_memo_shared),
		cmocka_unit_test(test_memo_unread_flag),
		cmocka_unit_test(test_vary_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
