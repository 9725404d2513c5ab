/*
 * Round trip: a simulated run exported with --trace-out and read back by the trace reader gives
 * the run's own figures exactly: per-task run time and context switches, the wake-up latencies
 * (count, sum, max), and per-CPU idle periods.
 */
#include "helpers.h"
#include "experiment/run.h"
#include "trace/trace_stats.h"

#include <unistd.h>

static void test_roundtrip(void **state)
{
	char dir[] = "/tmp/schedlab-rt-XXXXXX", path[128], err[2048];
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	struct sl_trace_summary *s = calloc(1, sizeof(*s));

	(void)state;
	assert_non_null(s);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run.trace", dir);
	memset(&a, 0, sizeof(a));
	a.cpus = "2";
	a.machine = "nehalem";
	a.trace_out = path;
	a.workloads[a.nworkloads++] = "periodic:run=1ms,period=7ms,count=40";
	a.workloads[a.nworkloads++] = "pingpong:count=200,run=30us";
	a.workloads[a.nworkloads++] = "make:jobs=3,count=10";
	assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
	assert_int_equal(sl_trace_summarize(s, path, false, err, sizeof(err)), 0);

	/* every task: the same run time and switches */
	for (int pid = 1; pid <= sl_machine_of(r.sim)->ntasks; pid++) {
		assert_int_equal(s->st.pid[pid].cpu_ns, r.stats.pid[pid].cpu_ns);
		assert_int_equal(s->st.pid[pid].switches, r.stats.pid[pid].switches);
	}
	/* the wake-up latencies: the run's per-group histograms hold the same samples */
	u64 n = 0, sum = 0, max = 0, tn = 0, tsum = 0, tmax = 0;

	for (int g = 0; g < r.stats.ngroups; g++) {
		n += r.stats.g[g].lat.count;
		sum += r.stats.g[g].lat.sum;
		if (r.stats.g[g].lat.max > max)
			max = r.stats.g[g].lat.max;
	}
	/* the summary's tasks by dense id: 1 to nused - 1 (the entries past them are not set) */
	for (int id = 1; id < s->nused; id++) {
		tn += s->task[id].lat_n;
		tsum += s->task[id].lat_sum;
		if (s->task[id].lat_max > tmax)
			tmax = s->task[id].lat_max;
	}
	assert_true(n > 100);
	assert_int_equal(tn, n);
	assert_int_equal(tsum, sum);
	assert_int_equal(tmax, max);
	assert_int_equal(s->missed_switch_in, 0);
	/* idle periods: every one the run ended appears in the trace as an entry/exit pair */
	for (int c = 0; c < r.sim->ncpu; c++) {
		u64 periods = sl_mcpu(r.sim, c)->idle_dev.periods;

		assert_int_equal(s->cpu[c].idle.count, periods);
	}
	sl_trace_summary_free(s);
	free(s);
	sl_run_free(&r);
	sl_config_free(&cfg);
	unlink(path);
	rmdir(dir);
}

/*
 * 8 hogs on 8 CPUs for 10 ms: each runs from its switch-in at 0 to the end and is never
 * switched out. Read back from each layout, every hog has its 10 ms (the writers end the trace
 * with each busy CPU's tick; before, the reader saw nothing after the switch-ins: 0 ms).
 */
static void test_running_at_end(void **state)
{
	static const char *const exts[] = {"trace", "systrace", "report"};
	char dir[] = "/tmp/schedlab-rt-XXXXXX", path[128], err[2048];

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (size_t e = 0; e < SL_ARRAY_SIZE(exts); e++)
		for (int k = 0; k < 2; k++) {
			struct sl_args a;
			struct sl_config cfg;
			struct sl_run r;
			struct sl_trace_summary *s = calloc(1, sizeof(*s));

			assert_non_null(s);
			snprintf(path, sizeof(path), "%s/hogs.%s", dir, exts[e]);
			memset(&a, 0, sizeof(a));
			a.cpus = "8";
			a.kernel = k ? "6.18" : "2.6.31";
			a.duration = "10ms";
			a.trace_out = path;
			a.workloads[a.nworkloads++] = "hog:tasks=8";
			assert_int_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
			assert_int_equal(sl_run(&cfg, &r, err, sizeof(err)), 0);
			assert_int_equal(sl_trace_summarize(s, path, false, err, sizeof(err)), 0);
			for (int pid = 1; pid <= 8; pid++) {
				assert_int_equal(r.stats.pid[pid].cpu_ns, 10000000);
				assert_int_equal(s->st.pid[pid].cpu_ns, 10000000);
			}
			sl_trace_summary_free(s);
			free(s);
			sl_run_free(&r);
			sl_config_free(&cfg);
			unlink(path);
		}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_running_at_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
