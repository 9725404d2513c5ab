/*
 * Machine idle profiles: every built-in table loads, ordered shallowest first with sane
 * values; Nehalem's exact table; the file format (round trip of every built-in table, the
 * documented syntax, error messages naming file and line, garbage that must not crash); sysfs
 * from a fake tree, and its errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "cpuidle/cpuidle.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpuidle/profiles.h"
#include "tmpdir.h"

#define US(x) ((u64)(x)*NSEC_PER_USEC)

static const char *const builtin[] = {"nehalem",	"nehalem-acpi",	   "core2",	  "skylake",
				      "skylake-server", "sapphire-rapids", "vm-haltpoll", "vm-hlt"};

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_file(path, text, strlen(text));
}

static void assert_same_driver(const struct sl_cpuidle_driver *a, const struct sl_cpuidle_driver *b)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->state_count, b->state_count);
	assert_true(a->busy_power_mw == b->busy_power_mw);
	assert_int_equal(a->latency_factor, b->latency_factor);
	assert_int_equal(a->bm_check, b->bm_check);
	for (int i = 0; i < a->state_count; i++) {
		const struct sl_idle_state *x = &a->states[i], *y = &b->states[i];

		assert_string_equal(x->name, y->name);
		assert_true(x->exit_latency_ns == y->exit_latency_ns);
		assert_true(x->target_residency_ns == y->target_residency_ns);
		assert_true(x->power_mw == y->power_mw);
		assert_int_equal(x->flags, y->flags);
		assert_true(x->entry_energy_nj == y->entry_energy_nj);
	}
}

static void test_registry(void **state)
{
	struct sl_cpuidle_driver drv;
	char err[1024];

	(void)state;
	assert_int_equal(sl_nidle_profiles, 10);
	for (int i = 0; i < sl_nidle_profiles; i++) {
		const struct sl_idle_profile *p = sl_idle_profiles[i];

		assert_non_null(p->name);
		assert_non_null(p->help);
		assert_non_null(p->load);
		assert_ptr_equal(sl_idle_profile_find(p->name), p);
	}
	assert_non_null(sl_idle_profile_find("sysfs"));
	assert_non_null(sl_idle_profile_find("file"));
	assert_null(sl_idle_profile_find("nehalem2"));
	assert_int_equal(sl_idle_profile_load("nehalem2", &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown idle profile 'nehalem2'"));
	assert_non_null(strstr(err, "skylake-server"));
	assert_int_equal(sl_idle_profile_load("nehalem:x", &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "takes no argument"));
	assert_int_equal(sl_idle_profile_load("", &drv, err, sizeof(err)), -1);
	assert_int_equal(sl_idle_profile_load("file", &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "file:PATH"));
	assert_int_equal(sl_idle_profile_load("file:", &drv, err, sizeof(err)), -1);
}

/* Ordered shallowest first, state 0 the poll loop at C0 power, deeper states cheaper. */
static void test_builtin_sane(void **state)
{
	(void)state;
	for (size_t k = 0; k < SL_ARRAY_SIZE(builtin); k++) {
		struct sl_cpuidle_driver drv;
		char err[1024];

		assert_int_equal(sl_idle_profile_load(builtin[k], &drv, err, sizeof(err)), 0);
		assert_string_equal(drv.name, builtin[k]);
		assert_in_range(drv.state_count, 2, SL_CPUIDLE_MAX_STATES);
		assert_true(drv.busy_power_mw > 0);
		assert_string_equal(drv.states[0].name, "POLL");
		assert_int_equal(drv.states[0].flags, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID);
		assert_true(drv.states[0].exit_latency_ns == 0);
		assert_true(drv.states[0].power_mw == drv.busy_power_mw);
		for (int i = 0; i < drv.state_count; i++) {
			const struct sl_idle_state *s = &drv.states[i];

			assert_true(s->name[0]);
			assert_true(memchr(s->name, 0, sizeof(s->name)) != NULL);
			assert_true(s->exit_latency_ns <= 1000 * NSEC_PER_USEC);
			assert_true(s->entry_energy_nj ==
				    s->exit_latency_ns * drv.busy_power_mw / 1000);
			if (!i)
				continue;
			assert_false(s->flags & CPUIDLE_FLAG_POLL);
			assert_true(s->exit_latency_ns >= drv.states[i - 1].exit_latency_ns);
			assert_true(s->target_residency_ns >=
				    drv.states[i - 1].target_residency_ns);
			assert_true(s->power_mw <= drv.states[i - 1].power_mw);
			assert_true(s->power_mw < drv.busy_power_mw);
		}
	}
}

static void test_nehalem_exact(void **state)
{
	static const struct {
		const char *name;
		u64 lat_us, res_us, mw;
		unsigned flags;
		u64 nj;
	} want[] = {
		{"POLL", 0, 0, 15000, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID, 0},
		{"C1", 3, 6, 4000, CPUIDLE_FLAG_TIME_VALID, 45000},
		{"C1E", 10, 20, 3000, CPUIDLE_FLAG_TIME_VALID, 150000},
		{"C3", 20, 80, 1500,
		 CPUIDLE_FLAG_TIME_VALID | CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP,
		 300000},
		{"C6", 200, 800, 150,
		 CPUIDLE_FLAG_TIME_VALID | CPUIDLE_FLAG_TLB_FLUSHED | CPUIDLE_FLAG_TIMER_STOP,
		 3000000},
	};
	struct sl_cpuidle_driver drv;
	char err[256];

	(void)state;
	assert_int_equal(sl_idle_profile_load("nehalem", &drv, err, sizeof(err)), 0);
	assert_int_equal(drv.state_count, 5);
	assert_true(drv.busy_power_mw == 15000);
	for (int i = 0; i < 5; i++) {
		assert_string_equal(drv.states[i].name, want[i].name);
		assert_true(drv.states[i].exit_latency_ns == US(want[i].lat_us));
		assert_true(drv.states[i].target_residency_ns == US(want[i].res_us));
		assert_true(drv.states[i].power_mw == want[i].mw);
		assert_int_equal(drv.states[i].flags, want[i].flags);
		assert_true(drv.states[i].entry_energy_nj == want[i].nj);
	}
	/* the 2009 view: C1 by MWAIT (FFH) is TIME_VALID, targets are 2 x latency */
	assert_int_equal(sl_idle_profile_load("nehalem-acpi", &drv, err, sizeof(err)), 0);
	assert_int_equal(drv.states[1].flags, CPUIDLE_FLAG_TIME_VALID);
	assert_true(drv.states[2].exit_latency_ns == US(20));
	assert_true(drv.states[2].target_residency_ns == US(40));
	assert_true(drv.states[3].target_residency_ns == 2 * drv.states[3].exit_latency_ns);
	assert_int_equal(sl_idle_profile_load("vm-haltpoll", &drv, err, sizeof(err)), 0);
	assert_string_equal(drv.states[1].name, "haltpoll idle");
	assert_true(drv.states[1].exit_latency_ns == US(1));
	assert_true(drv.states[1].target_residency_ns == US(1));
}

/* Every built-in table written and read back as file:PATH is identical. */
static void test_file_round_trip(void **state)
{
	(void)state;
	for (size_t k = 0; k < SL_ARRAY_SIZE(builtin); k++) {
		struct sl_cpuidle_driver a, b;
		char path[512], spec[600], err[1024];
		FILE *f;

		assert_int_equal(sl_idle_profile_load(builtin[k], &a, err, sizeof(err)), 0);
		snprintf(path, sizeof(path), "%s/%s.idle", tmpdir, builtin[k]);
		f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(sl_idle_profile_write(f, &a), 0);
		assert_int_equal(fclose(f), 0);
		snprintf(spec, sizeof(spec), "file:%s", path);
		if (sl_idle_profile_load(spec, &b, err, sizeof(err)))
			fail_msg("%s", err);
		assert_same_driver(&a, &b);
	}
}

static void test_file_syntax(void **state)
{
	static const char text[] =
		"# a made-up machine\n"
		"name   lab-box   # trailing comment\n"
		"\n"
		"busy_power_mw 12000\r\n"
		"state POLL 0 0 12000 poll time_valid\n"
		"\tstate C0.2 0.1 0.1 9000 TIME_VALID\n"
		"state \"deep idle\" 150.5 600 100 time_valid tlb_flushed timer_stop energy_nj=7\n";
	struct sl_cpuidle_driver drv;
	char path[512], spec[600], err[1024];

	(void)state;
	snprintf(path, sizeof(path), "%s/lab.idle", tmpdir);
	put(tmpdir, "lab.idle", text);
	snprintf(spec, sizeof(spec), "file:%s", path);
	if (sl_idle_profile_load(spec, &drv, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(drv.name, "lab-box");
	assert_true(drv.busy_power_mw == 12000);
	assert_int_equal(drv.state_count, 3);
	assert_int_equal(drv.states[0].flags, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID);
	assert_string_equal(drv.states[1].name, "C0.2");
	assert_true(drv.states[1].exit_latency_ns == 100);
	assert_true(drv.states[1].target_residency_ns == 100);
	assert_true(drv.states[1].entry_energy_nj == 100 * 12000 / 1000); /* the default rule */
	assert_string_equal(drv.states[2].name, "deep idle");
	assert_true(drv.states[2].exit_latency_ns == 150500);
	assert_true(drv.states[2].target_residency_ns == US(600));
	assert_true(drv.states[2].power_mw == 100);
	assert_int_equal(drv.states[2].flags, CPUIDLE_FLAG_TIME_VALID | CPUIDLE_FLAG_TLB_FLUSHED |
						      CPUIDLE_FLAG_TIMER_STOP);
	assert_true(drv.states[2].entry_energy_nj == 7);

	/* without a name line, the file's base name */
	put(tmpdir, "min.idle", "state POLL 0 0 0 poll\n");
	snprintf(spec, sizeof(spec), "file:%s/min.idle", tmpdir);
	assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), 0);
	assert_string_equal(drv.name, "min.idle");
	assert_int_equal(drv.state_count, 1);
}

/* Each bad file is rejected with "PATH:LINE: ..." naming what was expected. */
static void test_file_errors(void **state)
{
	static const struct {
		const char *text;
		int line;
		const char *msg;
	} bad[] = {
		{"busy_power_mw 1\nstate POLL 0 0 0 poll\nfrobnicate 3\n", 3, "unknown keyword"},
		{"state C1 x 2 100\n", 1, "LATENCY_US: expected microseconds"},
		{"state C1 1 -2 100\n", 1, "RESIDENCY_US"},
		{"state C1 1 2 1.5\n", 1, "POWER_MW: expected a whole number"},
		{"state C1 1 2\n", 1, "expected 'state NAME LATENCY_US"},
		{"state C1 1.2345 2 100\n", 1, "LATENCY_US"},
		{"state C1 99999999999999999999 2 100\n", 1, "LATENCY_US"},
		{"state C1 1 2 100 sparkly\n", 1, "unknown flag 'sparkly'"},
		{"state C1 1 2 100 energy_nj=abc\n", 1, "energy_nj"},
		{"state POLL 0 0 0 poll\nstate C1 1 2 100 poll\n", 2, "only state 0"},
		{"state POLL 0 0 0\nstate C1 10 20 1\nstate C3 5 80 1\n", 3, "exit latency below"},
		{"state POLL 0 0 0\nstate C1 10 20 1\nstate C3 50 10 1\n", 3, "target residency"},
		{"state ThisNameIsTooLong 1 2 3\n", 1, "1 to 15 printable characters"},
		/* "C\r" would be written back as "C" (the \r read as a CRLF's) */
		{"state C\r 1 2 3\r\n", 1, "1 to 15 printable characters"},
		{"state \"C\x01\" 1 2 3\n", 1, "1 to 15 printable characters"},
		{"state \"unterminated 1 2 3\n", 1, "unterminated"},
		{"busy_power_mw\n", 1, "expected 'busy_power_mw MW'"},
		{"busy_power_mw 5\nbusy_power_mw 6\n", 2, "given twice"},
		/* two states of one name: --cpuidle-disable NAME would name one of them */
		{"state POLL 0 0 0 poll\nstate C1 1 2 3\nstate C1 5 10 1\n", 3,
		 "state 'C1' given twice"},
		/* check_bm without acpi_idle's line: no entry path would read it */
		{"state C1 1 2 3\nstate C3 50 100 1 check_bm\n", 2,
		 "state 'C3': check_bm is acpi_idle's bus-master check"},
		{"state C1 1 2 100 sparkly\n", 1, "timer_stop, check_bm or energy_nj=N"},
		{"name a b\n", 1, "expected 'name NAME'"},
		/* the fuzzer's find: the name "\r" was written back as an empty one */
		{"name \r\r\nstate C1 1 2 3\n", 1, "1 to 31 printable characters"},
		{"# nothing\n\n", 0, "no state lines"},
	};
	struct sl_cpuidle_driver drv;
	char path[512], spec[600], err[1024], want[700];

	(void)state;
	snprintf(path, sizeof(path), "%s/bad.idle", tmpdir);
	snprintf(spec, sizeof(spec), "file:%s", path);
	for (size_t k = 0; k < SL_ARRAY_SIZE(bad); k++) {
		put(tmpdir, "bad.idle", bad[k].text);
		if (!sl_idle_profile_load(spec, &drv, err, sizeof(err)))
			fail_msg("case %zu loaded", k);
		if (bad[k].line)
			snprintf(want, sizeof(want), "%s:%d: ", path, bad[k].line);
		else
			snprintf(want, sizeof(want), "%s: ", path);
		if (strncmp(err, want, strlen(want)) || !strstr(err, bad[k].msg))
			fail_msg("case %zu: got '%s', want '%s...%s'", k, err, want, bad[k].msg);
	}

	/* more states than the table holds */
	{
		char text[2048] = "";
		size_t off = 0;

		for (int i = 0; i <= SL_CPUIDLE_MAX_STATES; i++)
			off += (size_t)snprintf(text + off, sizeof(text) - off,
						"state S%d %d %d 1\n", i, i, i);
		put(tmpdir, "bad.idle", text);
		assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s:%d: too many states", path,
			 SL_CPUIDLE_MAX_STATES + 1);
		assert_non_null(strstr(err, want));
	}
	/* a line longer than the limit, and a NUL byte */
	{
		char text[1024];

		memset(text, 'x', sizeof(text));
		static const char head[] = "state POLL 0 0 0\n#";

		/* not a string: a raw buffer of bytes with no terminator, on purpose */
		memcpy(text, head, sizeof(head) - 1); // NOLINT(bugprone-not-null-terminated-result)
		write_file(path, text, sizeof(text));
		assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s:2: line longer than", path);
		assert_non_null(strstr(err, want));
		write_file(path, "state POLL 0 0 0\nstate C1\0 1 2 3\n", 33);
		assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
		snprintf(want, sizeof(want), "%s:2: a NUL byte", path);
		assert_non_null(strstr(err, want));
	}
	/* a missing file */
	snprintf(spec, sizeof(spec), "file:%s/none.idle", tmpdir);
	assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "none.idle: cannot open"));
}

/* Garbage of every kind: the parser returns, never crashes (run under the sanitizers too). */
static void test_file_garbage(void **state)
{
	static const char alphabet[] = "state busy_power_mw name poll 0123456789.\"# \t\n\r=x\xff";
	struct sl_cpuidle_driver drv;
	char path[512], spec[600], err[256];
	unsigned seed = 12345;

	(void)state;
	snprintf(path, sizeof(path), "%s/junk.idle", tmpdir);
	snprintf(spec, sizeof(spec), "file:%s", path);
	for (int k = 0; k < 300; k++) {
		char text[2048];
		size_t len = (size_t)(k * 7 % (int)sizeof(text));

		for (size_t i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			text[i] = (k % 3) ? alphabet[(seed >> 16) % (sizeof(alphabet) - 1)]
					  : (char)(seed >> 16);
		}
		write_file(path, text, len);
		if (sl_idle_profile_load(spec, &drv, err, sizeof(err)) == 0) {
			assert_in_range(drv.state_count, 1, SL_CPUIDLE_MAX_STATES);
		} else {
			assert_true(strlen(err) > 0);
		}
	}
}

static void mkdirs(const char *path)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	mkdir(buf, 0755);
}

static void fake_state(const char *root, int n, const char *name, const char *lat, const char *res,
		       const char *power)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/cpu0/cpuidle/state%d", root, n);
	mkdirs(dir);
	put(dir, "name", name);
	if (lat)
		put(dir, "latency", lat);
	if (res)
		put(dir, "residency", res);
	if (power)
		put(dir, "power", power);
}

static void test_sysfs_fake_tree(void **state)
{
	struct sl_cpuidle_driver drv;
	char root[512], spec[600], err[1024];

	(void)state;
	snprintf(root, sizeof(root), "%s/cpu", tmpdir);
	fake_state(root, 0, "POLL\n", "0\n", "0\n", "4294967295\n");
	fake_state(root, 1, "C1\n", "2\n", "2\n", "0\n");
	fake_state(root, 2, "C6\n", "133\n", "600\n", "250\n");
	fake_state(root, 3, "C9\n", "480\n", NULL, NULL); /* no residency or power files */
	mkdirs(root);
	{
		char d[512];

		snprintf(d, sizeof(d), "%s/cpuidle", root);
		mkdirs(d);
		put(d, "current_driver", "intel_idle\n");
	}
	snprintf(spec, sizeof(spec), "sysfs:%s", root);
	if (sl_idle_profile_load(spec, &drv, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(drv.name, "sysfs:intel_idle");
	assert_int_equal(drv.state_count, 4);
	assert_string_equal(drv.states[0].name, "POLL");
	assert_int_equal(drv.states[0].flags, CPUIDLE_FLAG_POLL | CPUIDLE_FLAG_TIME_VALID);
	assert_true(drv.states[0].power_mw == 0); /* -1: unknown */
	assert_string_equal(drv.states[1].name, "C1");
	assert_int_equal(drv.states[1].flags, CPUIDLE_FLAG_TIME_VALID);
	assert_true(drv.states[1].exit_latency_ns == US(2));
	assert_true(drv.states[2].exit_latency_ns == US(133));
	assert_true(drv.states[2].target_residency_ns == US(600));
	assert_true(drv.states[2].power_mw == 250);
	assert_true(drv.states[3].target_residency_ns == US(480)); /* residency = latency */
	assert_true(drv.states[3].power_mw == 0);

	/* a state with a bad latency: the file is named */
	fake_state(root, 4, "C10\n", "soon\n", "5000\n", "0\n");
	assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "state4/latency: expected a number, got 'soon'"));
	/* a state without a latency file */
	{
		char p[600];

		snprintf(p, sizeof(p), "%s/cpu0/cpuidle/state4/latency", root);
		assert_int_equal(unlink(p), 0);
		assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "state4/latency"));
	}
}

static void test_sysfs_missing(void **state)
{
	struct sl_cpuidle_driver drv;
	char spec[600], want[600], err[1024];

	(void)state;
	snprintf(spec, sizeof(spec), "sysfs:%s/nowhere", tmpdir);
	assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "cannot open %s/nowhere/cpu0/cpuidle", tmpdir);
	assert_non_null(strstr(err, want));
	/* a cpuidle directory without states */
	snprintf(want, sizeof(want), "%s/empty/cpu0/cpuidle", tmpdir);
	mkdirs(want);
	snprintf(spec, sizeof(spec), "sysfs:%s/empty", tmpdir);
	assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no state0"));
	assert_int_equal(sl_idle_profile_load("sysfs:", &drv, err, sizeof(err)), -1);
}

/*
 * No cpuidle driver (current_driver "none", no cpu0/cpuidle): the kernel's default_idle_call
 * halts (docs/model/cpuidle.md), so sysfs loads the vm-hlt table as "sysfs:none": POLL 0/0 and
 * HLT with vm-hlt's 7 us exit latency. Without "none" a missing directory stays an error.
 */
static void test_sysfs_no_driver(void **state)
{
	struct sl_cpuidle_driver drv;
	char root[512], spec[600], err[1024];

	(void)state;
	snprintf(root, sizeof(root), "%s/nodrv/cpuidle", tmpdir);
	mkdirs(root);
	put(root, "current_driver", "none\n");
	snprintf(spec, sizeof(spec), "sysfs:%s/nodrv", tmpdir);
	if (sl_idle_profile_load(spec, &drv, err, sizeof(err)))
		fail_msg("%s", err);
	assert_string_equal(drv.name, "sysfs:none");
	assert_int_equal(drv.state_count, 2);
	assert_string_equal(drv.states[0].name, "POLL");
	assert_string_equal(drv.states[1].name, "HLT");
	assert_true(drv.states[1].exit_latency_ns == US(7));
	put(root, "current_driver", "acpi_idle\n");
	assert_int_equal(sl_idle_profile_load(spec, &drv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot open"));
}

/*
 * This machine's sysfs: loads when present; with no cpuidle driver (current_driver none) loads as
 * sysfs:none; else names the path. Any is fine here.
 */
static void test_sysfs_this_machine(void **state)
{
	struct sl_cpuidle_driver drv;
	char err[1024];
	struct stat sb;

	(void)state;
	if (stat("/sys/devices/system/cpu/cpu0/cpuidle/state0", &sb) == 0) {
		if (sl_idle_profile_load("sysfs", &drv, err, sizeof(err)))
			fail_msg("%s", err);
		assert_in_range(drv.state_count, 1, SL_CPUIDLE_MAX_STATES);
	} else if (!sl_idle_profile_load("sysfs", &drv, err, sizeof(err))) {
		assert_string_equal(drv.name, "sysfs:none");
	} else {
		assert_int_equal(sl_idle_profile_load("sysfs", &drv, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "/sys/devices/system/cpu/cpu0/cpuidle"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),	   cmocka_unit_test(test_builtin_sane),
		cmocka_unit_test(test_nehalem_exact),	   cmocka_unit_test(test_file_round_trip),
		cmocka_unit_test(test_file_syntax),	   cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_file_garbage),	   cmocka_unit_test(test_sysfs_fake_tree),
		cmocka_unit_test(test_sysfs_missing),	   cmocka_unit_test(test_sysfs_no_driver),
		cmocka_unit_test(test_sysfs_this_machine),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
