/*
 * What a killed run leaves, cleaned at the next start (issue 30): `record`'s tracefs instance
 * instances/schedlab-PID of a process that is gone is removed; one of a live process and
 * anything not named so stay. Against a scratch directory standing for tracefs' instances/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/record.h"
#include "tmpdir.h"

static void test_stale_instances(void **state)
{
	char dead[64], live[64];
	struct stat st;
	pid_t pid = fork();

	(void)state;
	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid); /* no process has pid now */
	snprintf(dead, sizeof(dead), "schedlab-%d", (int)pid);
	snprintf(live, sizeof(live), "schedlab-%d", (int)getppid());
	assert_int_equal(mkdir(tmpdir_path(dead), 0755), 0);
	assert_int_equal(mkdir(tmpdir_path(live), 0755), 0);
	assert_int_equal(mkdir(tmpdir_path("schedlab-x1"), 0755), 0);
	assert_int_equal(mkdir(tmpdir_path("other"), 0755), 0);
	assert_int_equal(sl_record_clean_stale(tmpdir), 1);
	assert_int_equal(stat(tmpdir_path(dead), &st), -1);
	assert_int_equal(stat(tmpdir_path(live), &st), 0);
	assert_int_equal(stat(tmpdir_path("schedlab-x1"), &st), 0);
	assert_int_equal(stat(tmpdir_path("other"), &st), 0);
	/* a second start finds nothing more to remove */
	assert_int_equal(sl_record_clean_stale(tmpdir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stale_instances),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
