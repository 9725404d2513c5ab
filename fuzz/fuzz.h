/*
 * The fuzz targets' common frame. A target file defines its entry point with
 *
 *	SL_FUZZ_TARGET(name)
 *	{
 *		... parse (data, size) through the library's entry point ...
 *		return rc; // 0: accepted, -1: refused with a message in err
 *	}
 *
 * which declares int sl_fuzz_<name>(const uint8_t *data, size_t size, char *err, size_t errlen).
 * Built with SL_FUZZ_LIBFUZZER (the clang build, -DSCHEDLAB_FUZZ=ON), the macro also defines
 * libFuzzer's LLVMFuzzerTestOneInput around it, which checks the contract every parser keeps:
 * a refusal always says why. Built without it (the normal build), the entry points are what
 * tests/test_fuzz_regress.c replays the regression inputs and the seed corpora through, so a
 * crash found by fuzzing stays fixed in the gcc build too. The target list is fuzz/CMakeLists.txt.
 */
#ifndef SCHEDLAB_FUZZ_H
#define SCHEDLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SL_FUZZ_ERR_LEN 2048

#ifdef SL_FUZZ_LIBFUZZER
#define SL_FUZZ_MAIN(name)                                                                         \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);                              \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)                               \
	{                                                                                          \
		char err[SL_FUZZ_ERR_LEN] = "";                                                    \
		int rc = sl_fuzz_##name(data, size, err, sizeof(err));                             \
		sl_fuzz_check(#name, rc, err);                                                     \
		return 0;                                                                          \
	}
#else
#define SL_FUZZ_MAIN(name)
#endif

#define SL_FUZZ_TARGET(name)                                                                       \
	int sl_fuzz_##name(const uint8_t *data, size_t size, char *err, size_t errlen);            \
	SL_FUZZ_MAIN(name)                                                                         \
	int sl_fuzz_##name(const uint8_t *data, size_t size, char *err, size_t errlen)

/* A result is 0 or -1, and -1 comes with a message: anything else is a bug worth a crash. */
static inline void sl_fuzz_check(const char *name, int rc, const char *err)
{
	if ((rc != 0 && rc != -1) || (rc == -1 && !err[0])) {
		fprintf(stderr, "fuzz %s: result %d with message '%s'\n", name, rc, err);
		abort();
	}
}

/*
 * The input as a C string in a buffer of exactly size + 1 bytes, so that ASan sees any read
 * past the end. Command-line words hold no NUL: the string ends at the first one. Free it.
 */
static inline char *sl_fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The next line of *s (cut at '\n', which is replaced by NUL); NULL at the end. */
static inline char *sl_fuzz_line(char **s)
{
	char *line = *s, *nl;

	if (!line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*s = nl + 1;
	} else {
		*s = NULL;
	}
	return line;
}

#endif
