/*
 * A file copied through the atomic writer (outfile.h). Apart from outfile.c: there the static
 * analyser follows sl_outfile_open's registration of the caller's struct in the list of open
 * temporaries but not its removal on commit, and takes the stack struct for one that escapes.
 */
#include "core/outfile.h"

#include <errno.h>
#include <string.h>

int sl_outfile_copy(const char *from, const char *path, char *err, size_t errlen)
{
	FILE *in = fopen(from, "r");
	struct sl_outfile o;
	char buf[65536];
	size_t n;

	if (!in) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		return -1;
	}
	if (sl_outfile_open(&o, path, err, errlen)) {
		fclose(in);
		return -1;
	}
	/* a failed write leaves ferror on o.f, which the commit reports naming path */
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, o.f) != n)
			break;
	if (ferror(in)) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		fclose(in);
		sl_outfile_abort(&o);
		return -1;
	}
	fclose(in);
	return sl_outfile_commit(&o, err, errlen);
}
