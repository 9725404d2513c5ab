/* Reading rt-app 1.0 per-thread logs (see rtapp_log_read.h). */
#include "validate/rtapp_log_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sl_rtlog_col_name[SL_RTLOG_NCOLS] = {
	"idx",	  "perf",  "run",	 "period",   "start",  "end",
	"rel_st", "slack", "c_duration", "c_period", "wu_lat",
};

/* The task's name and instance from <basename>-<task>-<instance>.log. */
static int name_from_path(struct sl_rtlog *l, const char *path, const char *basename, char *err,
			  size_t errlen)
{
	const char *b = strrchr(path, '/');
	char name[256];
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len < 5 || strcmp(b + len - 4, ".log") || len - 4 >= sizeof(name)) {
		snprintf(err, errlen, "%s: not an rt-app log name (BASENAME-TASK-INSTANCE.log)",
			 path);
		return -1;
	}
	memcpy(name, b, len - 4);
	name[len - 4] = '\0';
	char *dash = strrchr(name, '-');
	char *end;

	if (!dash || !dash[1]) {
		snprintf(err, errlen, "%s: no -INSTANCE before .log", path);
		return -1;
	}
	errno = 0;
	long inst = strtol(dash + 1, &end, 10);

	if (*end || errno || inst < 0 || inst > 1000000) {
		snprintf(err, errlen, "%s: instance '%s' is not a number", path, dash + 1);
		return -1;
	}
	*dash = '\0';
	const char *task = name;
	size_t bl = basename ? strlen(basename) : 0;

	if (bl && !strncmp(name, basename, bl) && name[bl] == '-')
		task = name + bl + 1;
	snprintf(l->task, sizeof(l->task), "%s", task);
	l->instance = (int)inst;
	return 0;
}

int sl_rtlog_read(struct sl_rtlog *l, const char *path, const char *basename, char *err,
		  size_t errlen)
{
	char line[1024];
	unsigned long lineno = 0;
	bool header = false;
	FILE *f;
	int rc = -1;

	memset(l, 0, sizeof(*l));
	if (name_from_path(l, path, basename, err, errlen))
		return -1;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%lu: line longer than %zu characters", path,
				 lineno, sizeof(line) - 1);
			goto out;
		}
		if (line[0] == '#') {
			if (!strncmp(line, "#idx", 4))
				header = true;
			continue;
		}
		char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || *p == '\r' || !*p)
			continue;
		if (!header) {
			snprintf(err, errlen, "%s:%lu: a row before the '#idx perf run ...' header",
				 path, lineno);
			goto out;
		}
		if (l->n == l->cap) {
			size_t cap = l->cap ? 2 * l->cap : 256;
			void *nr = realloc(l->row, cap * sizeof(*l->row));

			if (!nr) {
				snprintf(err, errlen, "%s: out of memory", path);
				goto out;
			}
			l->row = nr;
			l->cap = cap;
		}
		for (int c = 0; c < SL_RTLOG_NCOLS; c++) {
			char *end;

			errno = 0;
			long long v = strtoll(p, &end, 10);

			if (end == p || errno ||
			    (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r')) {
				snprintf(err, errlen,
					 "%s:%lu: column %d (%s): expected an integer of "
					 "microseconds",
					 path, lineno, c + 1, sl_rtlog_col_name[c]);
				goto out;
			}
			l->row[l->n][c] = v;
			p = end;
		}
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (*p) {
			snprintf(err, errlen, "%s:%lu: more than %d columns", path, lineno,
				 SL_RTLOG_NCOLS);
			goto out;
		}
		l->n++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		goto out;
	}
	if (!header) {
		snprintf(err, errlen, "%s: no '#idx perf run period ...' header: not an rt-app log",
			 path);
		goto out;
	}
	rc = 0;
out:
	fclose(f);
	if (rc)
		sl_rtlog_free(l);
	return rc;
}

void sl_rtlog_free(struct sl_rtlog *l)
{
	free(l->row);
	l->row = NULL;
	l->n = l->cap = 0;
}

static int cmp_s64(const void *a, const void *b)
{
	s64 x = *(const s64 *)a, y = *(const s64 *)b;

	return (x > y) - (x < y);
}

int sl_rtlog_col_stats(const struct sl_rtlog *const *logs, int nlogs, enum sl_rtlog_col col,
		       struct sl_rtlog_col_stat *out)
{
	size_t n = 0, k = 0;
	double sum = 0;
	s64 *v;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < nlogs; i++)
		n += logs[i]->n;
	if (!n)
		return 0;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -1;
	for (int i = 0; i < nlogs; i++)
		for (size_t r = 0; r < logs[i]->n; r++) {
			v[k++] = logs[i]->row[r][col];
			sum += (double)logs[i]->row[r][col];
		}
	qsort(v, n, sizeof(*v), cmp_s64);
	/* nearest rank: the ceil(0.95 n)-th smallest */
	size_t rank = (95 * n + 99) / 100;

	out->n = n;
	out->mean = sum / (double)n;
	out->p95 = v[rank - 1];
	free(v);
	return 0;
}
