/*
 * Every input fuzzing found a crash, leak, undefined behaviour or hang with, replayed through
 * the same entry point the fuzz target calls (fuzz/fuzz_<target>.c), in the normal build: the
 * fix must hold here and under tools/test.sh --sanitize. tests/data/fuzz-regress/expected lists
 * each input with the result it must now give (0 accepted, -1 refused) and a piece of the
 * message a refusal must carry; every input file must be listed and every listed file present.
 * The seed corpora (fuzz/corpus/<target>/) are replayed too: each gives 0 or -1 with a message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

typedef int (*fuzz_fn)(const uint8_t *data, size_t size, char *err, size_t errlen);

#define SL_FUZZ_ENTRY(n)                                                                           \
	int sl_fuzz_##n(const uint8_t *data, size_t size, char *err, size_t errlen);
#include "fuzz_targets.inc"
#undef SL_FUZZ_ENTRY

static const struct {
	const char *name;
	fuzz_fn fn;
} targets[] = {
#define SL_FUZZ_ENTRY(n) {#n, sl_fuzz_##n},
#include "fuzz_targets.inc"
#undef SL_FUZZ_ENTRY
};

#define NTARGETS  ((int)(sizeof(targets) / sizeof(targets[0])))
#define REGRESS	  SL_SOURCE_DIR "/tests/data/fuzz-regress"
#define CORPUS	  SL_SOURCE_DIR "/fuzz/corpus"
#define MAX_FILES 256

/* The whole file in a buffer of exactly its size (ASan sees a read past the end). */
static uint8_t *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc(n ? (size_t)n : 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return buf;
}

/* The target a regression input belongs to: the longest name followed by '-'. */
static int target_of(const char *file)
{
	int best = -1;
	size_t blen = 0;

	for (int i = 0; i < NTARGETS; i++) {
		size_t n = strlen(targets[i].name);

		if (!strncmp(file, targets[i].name, n) && file[n] == '-' && n > blen) {
			best = i;
			blen = n;
		}
	}
	return best;
}

static int replay(int t, const char *path, char *err, size_t errlen)
{
	size_t size;
	uint8_t *data = slurp(path, &size);
	int rc;

	err[0] = '\0';
	rc = targets[t].fn(data, size, err, errlen);
	free(data);
	assert_true(rc == 0 || rc == -1);
	if (rc)
		assert_true(err[0] != '\0');
	return rc;
}

struct expect {
	char file[128];
	int rc;
	char msg[256];
	bool seen;
};

static int read_expected(struct expect *ex)
{
	FILE *f = fopen(REGRESS "/expected", "r");
	char line[512];
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *nl = strchr(line, '\n');
		int used = 0;

		if (nl)
			*nl = '\0';
		if (!*s || *s == '#')
			continue;
		assert_true(n < MAX_FILES);
		assert_int_equal(sscanf(s, "%127s %d %n", ex[n].file, &ex[n].rc, &used), 2);
		snprintf(ex[n].msg, sizeof(ex[n].msg), "%s", s + used);
		ex[n].seen = false;
		n++;
	}
	fclose(f);
	return n;
}

static void test_regressions(void **state)
{
	static struct expect ex[MAX_FILES];
	int n = read_expected(ex), replayed = 0;
	DIR *d = opendir(REGRESS);
	struct dirent *de;
	char path[1024], err[SL_FUZZ_ERR_LEN];

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		int i, t, rc;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "expected") ||
		    !strcmp(de->d_name, "README.md"))
			continue;
		for (i = 0; i < n && strcmp(ex[i].file, de->d_name); i++)
			;
		if (i == n)
			fail_msg("%s: not listed in " REGRESS "/expected", de->d_name);
		t = target_of(de->d_name);
		if (t < 0)
			fail_msg("%s: the name does not start with a fuzz target's", de->d_name);
		snprintf(path, sizeof(path), "%s/%s", REGRESS, de->d_name);
		rc = replay(t, path, err, sizeof(err));
		if (rc != ex[i].rc)
			fail_msg("%s: result %d, expected %d (%s)", de->d_name, rc, ex[i].rc, err);
		if (ex[i].rc && !strstr(err, ex[i].msg))
			fail_msg("%s: message '%s' lacks '%s'", de->d_name, err, ex[i].msg);
		ex[i].seen = true;
		replayed++;
	}
	closedir(d);
	for (int i = 0; i < n; i++)
		if (!ex[i].seen)
			fail_msg("%s: listed but missing", ex[i].file);
	assert_int_equal(replayed, n);
}

static void test_seed_corpora(void **state)
{
	char dir[1024], path[1536], err[SL_FUZZ_ERR_LEN];

	(void)state;
	for (int t = 0; t < NTARGETS; t++) {
		DIR *d;
		struct dirent *de;
		int seeds = 0;

		snprintf(dir, sizeof(dir), "%s/%s", CORPUS, targets[t].name);
		d = opendir(dir);
		if (!d) {
			fail_msg("%s: no seed corpus", dir);
			return;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			(void)replay(t, path, err, sizeof(err));
			seeds++;
		}
		closedir(d);
		if (!seeds)
			fail_msg("%s: empty seed corpus", dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regressions),
		cmocka_unit_test(test_seed_corpora),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
