/*
 * The atomic writer (src/core/outfile.c): a committed file has exactly what was written and the
 * mode open(2) would give it; an aborted or failed one leaves the old file as it was and no
 * temporary; two writers of one name get two temporaries; errors name the final file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/outfile.h"
#include "tmpdir.h"

/* Entries in the scratch directory, hidden ones (temporaries) included. */
static int count_entries(void)
{
	DIR *d = opendir(tmpdir);
	int n = 0;

	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
	closedir(d);
	return n;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_commit(void **state)
{
	struct sl_outfile o;
	char err[4400], buf[64];
	struct stat st;
	mode_t mask = umask(022);

	(void)state;
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("a.txt"), err, sizeof(err)), 0);
	/* the temporary is beside the file, hidden, and the final name is not there yet */
	assert_non_null(strstr(o.tmp, "/.a.txt."));
	assert_int_equal(stat(tmpdir_path("a.txt"), &st), -1);
	fprintf(o.f, "hello %d\n", 42);
	assert_int_equal(sl_outfile_commit(&o, err, sizeof(err)), 0);
	slurp(tmpdir_path("a.txt"), buf, sizeof(buf));
	assert_string_equal(buf, "hello 42\n");
	/* 0666 & ~022 = 0644, as fopen(path, "w") would have made it (mkstemp makes 0600) */
	assert_int_equal(stat(tmpdir_path("a.txt"), &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(count_entries(), 1);
	umask(mask);
	remove(tmpdir_path("a.txt"));
}

static void test_abort_keeps_old(void **state)
{
	struct sl_outfile o;
	char err[4400], buf[64];

	(void)state;
	tmpdir_write("b.txt", "old\n", 4);
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("b.txt"), err, sizeof(err)), 0);
	fprintf(o.f, "new, half written");
	sl_outfile_abort(&o);
	slurp(tmpdir_path("b.txt"), buf, sizeof(buf));
	assert_string_equal(buf, "old\n");
	assert_int_equal(count_entries(), 1); /* no temporary left */
	/* a committed rewrite replaces it whole */
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("b.txt"), err, sizeof(err)), 0);
	fprintf(o.f, "new\n");
	assert_int_equal(sl_outfile_commit(&o, err, sizeof(err)), 0);
	slurp(tmpdir_path("b.txt"), buf, sizeof(buf));
	assert_string_equal(buf, "new\n");
	remove(tmpdir_path("b.txt"));
}

static void test_two_writers(void **state)
{
	struct sl_outfile a, b;
	char err[4400], buf[64];

	(void)state;
	assert_int_equal(sl_outfile_open(&a, tmpdir_path("c.txt"), err, sizeof(err)), 0);
	assert_int_equal(sl_outfile_open(&b, tmpdir_path("c.txt"), err, sizeof(err)), 0);
	assert_string_not_equal(a.tmp, b.tmp);
	fprintf(a.f, "a\n");
	fprintf(b.f, "b\n");
	assert_int_equal(sl_outfile_commit(&a, err, sizeof(err)), 0);
	assert_int_equal(sl_outfile_commit(&b, err, sizeof(err)), 0);
	/* the last to finish wins, whole: never an interleaving */
	slurp(tmpdir_path("c.txt"), buf, sizeof(buf));
	assert_string_equal(buf, "b\n");
	assert_int_equal(count_entries(), 1);
	remove(tmpdir_path("c.txt"));
}

static void test_errors_name_the_file(void **state)
{
	struct sl_outfile o;
	char err[4400], want[600];

	(void)state;
	/* no such directory: the open fails naming the final file */
	snprintf(want, sizeof(want), "%s: No such file or directory", tmpdir_path("no/d.txt"));
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("no/d.txt"), err, sizeof(err)), -1);
	assert_string_equal(err, want);
	/* a directory in the way: the rename fails, the temporary is removed */
	assert_int_equal(mkdir(tmpdir_path("dir"), 0755), 0);
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("dir"), err, sizeof(err)), 0);
	fprintf(o.f, "x\n");
	assert_int_equal(sl_outfile_commit(&o, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: Is a directory", tmpdir_path("dir"));
	assert_string_equal(err, want);
	assert_int_equal(count_entries(), 1);
	rmdir(tmpdir_path("dir"));
}

static void test_cleanup_removes_open(void **state)
{
	struct sl_outfile a;
	char err[4400];
	struct stat st;

	(void)state;
	assert_int_equal(sl_outfile_open(&a, tmpdir_path("e.txt"), err, sizeof(err)), 0);
	assert_int_equal(stat(a.tmp, &st), 0);
	/* what the signal handler does: the temporary goes, the final file never appears */
	sl_outfile_cleanup();
	assert_int_equal(stat(a.tmp, &st), -1);
	sl_outfile_abort(&a);
	assert_int_equal(count_entries(), 0);
}

/*
 * A name that is a FIFO (or a device) is written through, not replaced by a regular file: what
 * was written comes out of the FIFO, and the name is still the FIFO.
 */
static void test_fifo_written_through(void **state)
{
	struct sl_outfile o;
	char err[4400], buf[16] = "";
	struct stat st;
	int rd;

	(void)state;
	assert_int_equal(mkfifo(tmpdir_path("f.fifo"), 0600), 0);
	rd = open(tmpdir_path("f.fifo"), O_RDONLY | O_NONBLOCK); /* a reader: open(w) won't block */
	assert_true(rd >= 0);
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("f.fifo"), err, sizeof(err)), 0);
	assert_string_equal(o.tmp, "");
	fputs("through\n", o.f);
	assert_int_equal(sl_outfile_commit(&o, err, sizeof(err)), 0);
	assert_int_equal(read(rd, buf, sizeof(buf) - 1), 8);
	assert_string_equal(buf, "through\n");
	close(rd);
	assert_int_equal(stat(tmpdir_path("f.fifo"), &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(unlink(tmpdir_path("f.fifo")), 0);
	assert_int_equal(count_entries(), 0);
}

/*
 * The temporary of a killed run (.NAME.PID.XXXXXX, PID gone) is removed by the next open of
 * that output; one of a live process (this test's parent) and other names are left alone.
 */
static void test_stale_temporary_removed(void **state)
{
	struct sl_outfile o;
	char err[4400], dead[128], live[128], other[128];
	struct stat st;
	pid_t pid = fork();
	FILE *f;

	(void)state;
	assert_true(pid >= 0);
	if (!pid)
		_exit(0);
	assert_int_equal(waitpid(pid, NULL, 0), pid); /* pid is now no process's */
	snprintf(dead, sizeof(dead), ".s.txt.%d.AbCdEf", (int)pid);
	snprintf(live, sizeof(live), ".s.txt.%d.AbCdEf", (int)getppid());
	snprintf(other, sizeof(other), ".t.txt.%d.AbCdEf", (int)pid);
	assert_non_null(f = fopen(tmpdir_path(dead), "w"));
	fclose(f);
	assert_non_null(f = fopen(tmpdir_path(live), "w"));
	fclose(f);
	assert_non_null(f = fopen(tmpdir_path(other), "w"));
	fclose(f);
	assert_int_equal(sl_outfile_open(&o, tmpdir_path("s.txt"), err, sizeof(err)), 0);
	sl_outfile_abort(&o);
	assert_int_equal(stat(tmpdir_path(dead), &st), -1);
	assert_int_equal(stat(tmpdir_path(live), &st), 0);
	assert_int_equal(stat(tmpdir_path(other), &st), 0);
	unlink(tmpdir_path(live));
	unlink(tmpdir_path(other));
	assert_int_equal(count_entries(), 0);
}

/*
 * sl_outfile_copy (record's trace, validate's rt-app file): 100,000 bytes, more than one read
 * of its 64 KiB buffer, arrive whole; a source that is not there is named with its reason and
 * leaves nothing; a destination that cannot take the bytes (/dev/full, written through) is
 * named with ENOSPC's text.
 */
static void test_copy(void **state)
{
	static char data[100000], back[100001];
	char from[512], to[512], err[4400], want[600];
	FILE *f;

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (char)('a' + i % 23);
	snprintf(from, sizeof(from), "%s", tmpdir_write("from.bin", data, sizeof(data)));
	snprintf(to, sizeof(to), "%s", tmpdir_path("to.bin"));
	assert_int_equal(sl_outfile_copy(from, to, err, sizeof(err)), 0);
	assert_non_null(f = fopen(to, "rb"));
	assert_int_equal(fread(back, 1, sizeof(back), f), sizeof(data));
	fclose(f);
	assert_memory_equal(back, data, sizeof(data));
	assert_int_equal(count_entries(), 2);
	remove(to);

	snprintf(want, sizeof(want), "%s: No such file or directory", tmpdir_path("none.bin"));
	assert_int_equal(sl_outfile_copy(tmpdir_path("none.bin"), to, err, sizeof(err)), -1);
	assert_string_equal(err, want);
	assert_int_equal(count_entries(), 1);

	assert_int_equal(sl_outfile_copy(from, "/dev/full", err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/full: No space left on device");
	remove(from);
	assert_int_equal(count_entries(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commit),
		cmocka_unit_test(test_abort_keeps_old),
		cmocka_unit_test(test_two_writers),
		cmocka_unit_test(test_errors_name_the_file),
		cmocka_unit_test(test_cleanup_removes_open),
		cmocka_unit_test(test_fifo_written_through),
		cmocka_unit_test(test_stale_temporary_removed),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
