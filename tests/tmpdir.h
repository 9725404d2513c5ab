/*
 * A scratch directory for the tests that read files: made by the group setup, removed with all
 * it holds by the teardown (nftw, no shell), and files written into it by name.
 */
#ifndef SCHEDLAB_TEST_TMPDIR_H
#define SCHEDLAB_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

static char tmpdir[256];

static int tmpdir_setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/schedlab-test-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int tmpdir_rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

static int tmpdir_teardown(void **state)
{
	(void)state;
	return nftw(tmpdir, tmpdir_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* tmpdir/name, in a static buffer (valid until the next call). */
static inline const char *tmpdir_path(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

/* Writes n bytes to tmpdir/name; returns its path. */
static inline const char *tmpdir_write(const char *name, const void *data, size_t n)
{
	const char *path = tmpdir_path(name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	return path;
}

#endif
