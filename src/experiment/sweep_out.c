/*
 * The --out file of a sweep: opening it for appending (header first when new), whole-line
 * writes, the CSV field splitter that sweep-report shares, and resuming: read the --out file a
 * previous (possibly killed) run left, check that it was written by this same sweep, and mark the
 * runs it holds. Whole lines only: a last line without its newline is what a kill during write(2)
 * leaves, so it is cut off (and said so); any other malformed line is an error naming the file and
 * line, since silently skipping it would lose or duplicate a result.
 */
#include "experiment/sweep.h"
#include "core/fdio.h"
#include "core/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ssize_t sl_sweep_getline(char **line, size_t *cap, FILE *f)
{
	size_t n = 0;
	bool nul = false;
	int c;

	if (!*line || *cap < SL_SWEEP_LINE_MAX + 2) {
		char *b = realloc(*line, SL_SWEEP_LINE_MAX + 2);

		if (!b)
			return -1;
		*line = b;
		*cap = SL_SWEEP_LINE_MAX + 2;
	}
	/*
	 * Byte by byte, not fgets: fgets cannot say how many bytes it read when one is a NUL, so
	 * a NUL inside a line looked like the end of a torn last line and every later row was
	 * dropped. A line is refused as soon as it is longer than a row can be.
	 */
	while ((c = getc(f)) != EOF) {
		if (n == SL_SWEEP_LINE_MAX && c != '\n')
			return -2;
		nul |= c == '\0';
		(*line)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	(*line)[n] = '\0';
	if (!n)
		return -1;
	return nul ? -3 : (ssize_t)n;
}

struct json_object *sl_sweep_json_row(const char *line, const char **why)
{
	struct json_tokener *tok = json_tokener_new_ex(SL_SWEEP_JSON_DEPTH);
	json_object *o;

	if (!tok) {
		*why = "out of memory";
		return NULL;
	}
	o = json_tokener_parse_ex(tok, line, (int)strlen(line));
	if (!o || json_tokener_get_error(tok) != json_tokener_success) {
		*why = json_tokener_get_error(tok) == json_tokener_error_depth
			       ? "a JSON object nested too deep (a row is one flat object)"
			       : "expected one JSON object per line";
		json_object_put(o);
		o = NULL;
	} else if (!json_object_is_type(o, json_type_object)) {
		*why = "expected one JSON object per line";
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

int sl_append_line(int fd, const void *p, size_t n)
{
	struct stat st;

	if (fstat(fd, &st))
		return -1;
	if (!sl_write_all(fd, p, n))
		return 0;
	/*
	 * A write that failed half way (a full disk) would leave a torn line: cut the file back to
	 * its last whole line, so that what is on disk is only finished rows. errno is the write's.
	 */
	int e = errno;

	/* if even this fails, resume drops a torn last line; the write's error is the one to say */
	if (ftruncate(fd, st.st_size) && !e)
		e = errno;
	errno = e;
	return -1;
}

int sl_sweep_open_out(const struct sl_sweep *sw)
{
	char header[65536];
	int hn = sl_sweep_header(sw, header, sizeof(header));
	int fd = open(sw->out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	struct stat st = {.st_size = -1};

	if (fd < 0 || fstat(fd, &st) || hn < 0 ||
	    (st.st_size == 0 && hn > 0 && sl_append_line(fd, header, (size_t)hn))) {
		fprintf(stderr, "schedlab: %s: %s\n", sw->out,
			hn < 0 ? "the header is too long" : strerror(errno));
		/* a new file that could not even take its header is removed: no empty output */
		if (fd >= 0 && st.st_size == 0)
			unlink(sw->out);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int sl_csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *w = line, *r = line;

	while (1) {
		if (n == max)
			return -1;
		f[n++] = w;
		if (*r == '"') {
			r++;
			while (1) {
				if (!*r)
					return -1; /* unterminated quote */
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
			if (*r && *r != ',')
				return -1;
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		if (!*r) {
			*w = '\0';
			return n;
		}
		*w++ = '\0';
		r++;
	}
}

static int bad(char *err, size_t errlen, const char *file, long line, const char *what)
{
	snprintf(err, errlen, "%s: line %ld: %s", file, line, what);
	return -1;
}

/* What resume knows of the rows read so far. */
struct resume {
	bool *done;
	u64 *ndone;
	u64 prev; /* the last row's run + 1 (0: none yet): rows come in index order */
};

/*
 * A row's setting cells (mix, seed, vary values, flags: cells[0..nsettings-2)) must be those of
 * the run it claims, and rows come in index order (one writer, in order): a row that
 * contradicts its number was not written by this sweep's writer, and its metrics would be
 * counted under the wrong settings.
 */
static int check_settings(const struct sl_sweep *sw, u64 idx, const char *const *cells, char *err,
			  size_t errlen, long ln)
{
	const char *want[2 + SL_SWEEP_MAX_VARY + SL_SWEEP_MAX_FLAGS];
	char tmp[32], msg[512];
	int n = sl_sweep_settings(sw, idx, want, tmp, sizeof(tmp));

	for (int k = 0; k < n; k++)
		if (!cells[k] || strcmp(cells[k], want[k])) {
			snprintf(msg, sizeof(msg),
				 "column %s is '%.64s', but run %llu has '%.64s': not a row this "
				 "sweep wrote",
				 sw->cols[2 + k], cells[k] ? cells[k] : "(missing)",
				 (unsigned long long)idx, want[k]);
			return bad(err, errlen, sw->out, ln, msg);
		}
	return 0;
}

static int take(const struct sl_sweep *sw, const char *run, const char *config,
		const char *const *cells, struct resume *rs, char *err, size_t errlen, long ln)
{
	u64 idx;
	char e[128], msg[256];

	if (strcmp(config, sw->config_id)) {
		snprintf(msg, sizeof(msg),
			 "written by another sweep (config %.16s; this sweep's is %s): use another "
			 "--out, or the same options as before",
			 config, sw->config_id);
		return bad(err, errlen, sw->out, ln, msg);
	}
	if (sl_parse_u64(run, &idx, e, sizeof(e)) || idx >= sw->nruns)
		return bad(err, errlen, sw->out, ln, "expected a run number of this sweep");
	if (rs->done[idx]) {
		snprintf(msg, sizeof(msg), "run %llu appears twice", (unsigned long long)idx);
		return bad(err, errlen, sw->out, ln, msg);
	}
	if (!sl_sweep_mine(sw, idx)) {
		snprintf(msg, sizeof(msg), "run %llu is not in shard %d/%d",
			 (unsigned long long)idx, sw->shard_k, sw->shard_n);
		return bad(err, errlen, sw->out, ln, msg);
	}
	if (rs->prev && idx < rs->prev) {
		snprintf(msg, sizeof(msg), "run %llu after run %llu: the rows are written in order",
			 (unsigned long long)idx, (unsigned long long)(rs->prev - 1));
		return bad(err, errlen, sw->out, ln, msg);
	}
	if (check_settings(sw, idx, cells, err, errlen, ln))
		return -1;
	rs->prev = idx + 1;
	rs->done[idx] = true;
	(*rs->ndone)++;
	return 0;
}

static int row_csv(const struct sl_sweep *sw, char *line, struct resume *rs, char *err,
		   size_t errlen, long ln)
{
	char **f = malloc(sizeof(*f) * (size_t)(sw->ncols + 1));
	int n, rc;
	char msg[128];

	if (!f)
		return bad(err, errlen, sw->out, ln, "out of memory");
	n = sl_csv_split(line, f, sw->ncols + 1);
	if (n < 2 || n != sw->ncols) {
		snprintf(msg, sizeof(msg), "expected %d comma-separated fields", sw->ncols);
		free(f);
		return bad(err, errlen, sw->out, ln, msg);
	}
	rc = take(sw, f[0], f[1], (const char *const *)f + 2, rs, err, errlen, ln);
	free(f);
	return rc;
}

static int row_jsonl(const struct sl_sweep *sw, const char *line, struct resume *rs, char *err,
		     size_t errlen, long ln)
{
	const char *why = NULL;
	json_object *o = sl_sweep_json_row(line, &why), *run, *cfg, *v;
	const char *cells[2 + SL_SWEEP_MAX_VARY + SL_SWEEP_MAX_FLAGS] = {NULL};
	char num[32];
	int rc;

	if (!o && why && strstr(why, "too deep"))
		return bad(err, errlen, sw->out, ln, why);
	if (!o || !json_object_object_get_ex(o, "run", &run) ||
	    !json_object_object_get_ex(o, "config", &cfg) ||
	    !json_object_is_type(run, json_type_int) ||
	    !json_object_is_type(cfg, json_type_string) ||
	    json_object_object_length(o) != sw->ncols) {
		json_object_put(o);
		return bad(err, errlen, sw->out, ln,
			   "expected one JSON object with this sweep's keys (run, config, ...)");
	}
	snprintf(num, sizeof(num), "%lld", (long long)json_object_get_int64(run));
	/* the settings as their text (a string's contents, a number's digits) */
	for (int c = 2; c < sw->nsettings && c - 2 < (int)SL_ARRAY_SIZE(cells); c++)
		if (json_object_object_get_ex(o, sw->cols[c], &v) && v)
			cells[c - 2] = json_object_is_type(v, json_type_string)
					       ? json_object_get_string(v)
					       : json_object_to_json_string(v);
	rc = take(sw, num, json_object_get_string(cfg), cells, rs, err, errlen, ln);
	json_object_put(o);
	return rc;
}

int sl_sweep_resume_read(const struct sl_sweep *sw, FILE *f, bool *done, u64 *ndone, off_t *good,
			 char *err, size_t errlen)
{
	char *line = NULL, header[65536];
	size_t cap = 0;
	long ln = 0;
	int rc = 0;
	struct resume rs = {done, ndone, 0};

	*ndone = 0;
	*good = 0;
	if (sl_sweep_header(sw, header, sizeof(header)) < 0) {
		snprintf(err, errlen, "sweep: header too long");
		return -1;
	}
	for (ssize_t n; (n = sl_sweep_getline(&line, &cap, f)) != -1;) {
		ln++;
		if (n == -2) {
			rc = bad(err, errlen, sw->out, ln,
				 "a line longer than 65536 bytes: not a row of a sweep");
			break;
		}
		if (n == -3) {
			rc = bad(err, errlen, sw->out, ln, "a NUL byte: not a row of a sweep");
			break;
		}
		if (line[n - 1] != '\n') {
			fprintf(stderr,
				"schedlab: %s: line %ld: a torn last line (no newline, %zd bytes): "
				"dropped, its run is done again\n",
				sw->out, ln, n);
			break;
		}
		if (ln == 1 && sw->fmt == SL_SWEEP_CSV) {
			if (strcmp(line, header)) {
				rc = bad(
					err, errlen, sw->out, 1,
					"the columns differ from this sweep's (other flags, --vary "
					"or workloads?): use another --out");
				break;
			}
		} else {
			line[n - 1] = '\0';
			rc = sw->fmt == SL_SWEEP_CSV ? row_csv(sw, line, &rs, err, errlen, ln)
						     : row_jsonl(sw, line, &rs, err, errlen, ln);
			if (rc)
				break;
		}
		*good += n;
	}
	free(line);
	if (!rc && ferror(f)) {
		snprintf(err, errlen, "%s: %s", sw->out, strerror(errno));
		rc = -1;
	}
	return rc;
}

int sl_sweep_resume(const struct sl_sweep *sw, bool *done, u64 *ndone, char *err, size_t errlen)
{
	FILE *f = fopen(sw->out, "r+");
	off_t good = 0; /* end of the last whole line */
	int rc;

	*ndone = 0;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", sw->out, strerror(errno));
		return -1;
	}
	rc = sl_sweep_resume_read(sw, f, done, ndone, &good, err, errlen);
	/* Cut a torn tail so that appended lines start on a line of their own. */
	if (!rc && ftruncate(fileno(f), good)) {
		snprintf(err, errlen, "%s: truncating the torn last line: %s", sw->out,
			 strerror(errno));
		rc = -1;
	}
	fclose(f);
	return rc;
}
