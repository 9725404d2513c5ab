/*
 * check_chrome_json FILE: checks that a Chrome Trace Event JSON file nests exactly on every
 * track, read as a viewer reads it (json-c parses `ts` into doubles, compared exactly):
 *  - every track (pid, tid) is named at most once (thread_name);
 *  - on a track, events come in non-decreasing ts; an E closes the innermost open B and is
 *    not before it; nothing stays open at the end;
 *  - an X slice (ts, dur >= 0) lies inside the slice open around it and does not overlap the
 *    X slices before it on the track except by containing or touching;
 *  - every flow end ("f") has a flow start ("s") of the same id at an earlier or equal ts.
 * Prints "ok: N tracks, N slices, N flows" and exits 0, or names the first fault and exits 1.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTRACK 8192
#define MAXDEPTH 64
#define MAXFLOW	 (1 << 20)

struct track {
	double last_ts;
	double open_ts[MAXDEPTH];
	double open_end[MAXDEPTH]; /* B: +inf until closed; X: ts + dur */
	int open_isx[MAXDEPTH];
	int pid, tid;
	int named;
	int depth;
};

static struct track tracks[MAXTRACK];
static int ntracks;
static double *flow_s; /* ts of the start of flow id, or -1 */

static struct track *track_of(int pid, int tid)
{
	for (int i = 0; i < ntracks; i++)
		if (tracks[i].pid == pid && tracks[i].tid == tid)
			return &tracks[i];
	if (ntracks == MAXTRACK)
		return NULL;
	struct track *t = &tracks[ntracks++];

	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	t->last_ts = -1e300;
	return t;
}

static int get_int(json_object *o, const char *k, int def)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_int(v) : def;
}

static int fail(const char *path, size_t i, const char *what)
{
	fprintf(stderr, "%s: event %zu: %s\n", path, i, what);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: check_chrome_json FILE\n");
		return 2;
	}
	json_object *root = json_object_from_file(argv[1]), *evs;

	if (!root || !json_object_object_get_ex(root, "traceEvents", &evs) ||
	    !json_object_is_type(evs, json_type_array)) {
		fprintf(stderr, "%s: not a JSON object with a traceEvents array\n", argv[1]);
		return 1;
	}
	flow_s = malloc(sizeof(*flow_s) * MAXFLOW);
	for (int i = 0; i < MAXFLOW; i++)
		flow_s[i] = -1;
	size_t n = json_object_array_length(evs), slices = 0, flows = 0;
	char msg[256];

	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(evs, i), *v;
		const char *ph =
			json_object_object_get_ex(e, "ph", &v) ? json_object_get_string(v) : "";
		struct track *t = track_of(get_int(e, "pid", 0), get_int(e, "tid", -1));
		double ts = json_object_object_get_ex(e, "ts", &v) ? json_object_get_double(v) : 0;

		if (!t)
			return fail(argv[1], i, "too many tracks for the checker");
		if (!strcmp(ph, "M")) {
			if (json_object_object_get_ex(e, "name", &v) &&
			    !strcmp(json_object_get_string(v), "thread_name") && t->named++)
				return fail(argv[1], i, "a track (pid, tid) named twice");
			continue;
		}
		if (ts < t->last_ts) {
			snprintf(msg, sizeof(msg), "ts %.3f before the track's previous %.3f", ts,
				 t->last_ts);
			return fail(argv[1], i, msg);
		}
		t->last_ts = ts;
		/* X slices that ended at or before ts are closed */
		while (t->depth && t->open_isx[t->depth - 1] && t->open_end[t->depth - 1] <= ts &&
		       strcmp(ph, "E"))
			t->depth--;
		if (!strcmp(ph, "B") || !strcmp(ph, "X")) {
			double end = 1e300;

			if (!strcmp(ph, "X")) {
				double dur = json_object_object_get_ex(e, "dur", &v)
						     ? json_object_get_double(v)
						     : -1;

				if (dur < 0)
					return fail(argv[1], i, "an X event without dur >= 0");
				end = ts + dur;
			}
			if (t->depth && end > t->open_end[t->depth - 1]) {
				snprintf(msg, sizeof(msg),
					 "a slice [%.3f, %.3f] overlaps the end %.3f of the one "
					 "around it",
					 ts, end, t->open_end[t->depth - 1]);
				return fail(argv[1], i, msg);
			}
			if (t->depth == MAXDEPTH)
				return fail(argv[1], i, "slices nested too deep");
			t->open_ts[t->depth] = ts;
			t->open_end[t->depth] = end;
			t->open_isx[t->depth] = !strcmp(ph, "X");
			t->depth++;
			slices++;
		} else if (!strcmp(ph, "E")) {
			while (t->depth && t->open_isx[t->depth - 1] &&
			       t->open_end[t->depth - 1] <= ts)
				t->depth--;
			if (!t->depth || t->open_isx[t->depth - 1])
				return fail(argv[1], i, "an E with no B open on its track");
			t->depth--;
			if (ts < t->open_ts[t->depth])
				return fail(argv[1], i, "an E before its B");
		} else if (!strcmp(ph, "s") || !strcmp(ph, "f")) {
			int id = get_int(e, "id", -1);

			if (id < 0 || id >= MAXFLOW)
				return fail(argv[1], i, "a flow id out of the checker's range");
			if (ph[0] == 's') {
				flow_s[id] = ts;
			} else {
				if (flow_s[id] < 0 || flow_s[id] > ts)
					return fail(argv[1], i,
						    "a flow end without an earlier start");
				flows++;
			}
		}
	}
	for (int i = 0; i < ntracks; i++) {
		while (tracks[i].depth && tracks[i].open_isx[tracks[i].depth - 1])
			tracks[i].depth--;
		if (tracks[i].depth) {
			snprintf(msg, sizeof(msg), "track pid %d tid %d: a B never closed",
				 tracks[i].pid, tracks[i].tid);
			return fail(argv[1], n, msg);
		}
	}
	printf("ok: %d tracks, %zu slices, %zu flows\n", ntracks, slices, flows);
	free(flow_s);
	json_object_put(root);
	return 0;
}
