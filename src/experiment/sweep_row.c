/*
 * One run of a sweep and its line. The metrics are the figures `schedlab run` reports, flattened
 * to one cell each; a cell that does not apply (no completion for an endless workload, no frames
 * for a batch job) is empty in CSV and null in JSON Lines, never a made-up zero.
 */
#include "experiment/sweep.h"
#include "experiment/run.h"
#include "cpuidle/cpuidle.h"
#include "core/parse.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define CELL 40

static int col_of(const struct sl_sweep *sw, const char *name)
{
	for (int i = sw->nsettings; i < sw->ncols; i++)
		if (!strcmp(sw->cols[i], name))
			return i;
	return -1;
}

static void put(const struct sl_sweep *sw, char (*val)[CELL], bool *set, const char *name,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void put(const struct sl_sweep *sw, char (*val)[CELL], bool *set, const char *name,
		const char *fmt, ...)
{
	int c = col_of(sw, name);
	va_list ap;

	if (c < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(val[c], CELL, fmt, ap);
	va_end(ap);
	set[c] = true;
}

static void metrics(const struct sl_sweep *sw, const struct sl_run *r, char (*val)[CELL], bool *set)
{
	const struct sl_sim *sim = r->sim;
	const struct sl_stats *s = &r->stats;
	u64 el = sim->now;
	char n[160];

	for (int i = 0; i < sim->ngroups; i++) {
		const struct sl_group *g = &sim->groups[i];
		const struct sl_group_stat *gs = &s->g[i];

#define G(key, ...)                                                                                \
	do {                                                                                       \
		snprintf(n, sizeof(n), "%s.%s", g->name, key);                                     \
		put(sw, val, set, n, __VA_ARGS__);                                                 \
	} while (0)
		G("cpu_share", "%.6f", el ? (double)gs->cpu_ns / (double)el : 0.0);
		G("wakeups", "%llu", (unsigned long long)gs->wakeups);
		G("lat_p50_ns", "%llu", (unsigned long long)sl_hist_percentile(&gs->lat, 50));
		G("lat_p95_ns", "%llu", (unsigned long long)sl_hist_percentile(&gs->lat, 95));
		G("lat_p99_ns", "%llu", (unsigned long long)sl_hist_percentile(&gs->lat, 99));
		G("lat_max_ns", "%llu", (unsigned long long)gs->lat.max);
		G("wait_max_ns", "%llu", (unsigned long long)gs->wait_max);
		if (g->finite && g->spawned && !g->live)
			G("completion_ns", "%llu", (unsigned long long)(g->end - g->start));
		if (g->io)
			G("io_mb_s", "%.6f",
			  el ? (double)g->io_bytes / ((double)el / 1e9) / 1e6 : 0.0);
		if (g->frames)
			G("frames_late", "%llu", (unsigned long long)g->frames_late);
#undef G
	}
	u64 pj = 0;

	for (int c = 0; c < sim->ncpu; c++)
		pj += sl_cpuidle_cpu_energy_pj(sim, c);
	put(sw, val, set, "switches", "%llu", (unsigned long long)s->switches);
	put(sw, val, set, "migrations", "%llu", (unsigned long long)s->migrations);
	put(sw, val, set, "energy_j", "%.6f", (double)pj / 1e12);
	put(sw, val, set, "wake_delay_p99_ns", "%llu",
	    (unsigned long long)sl_hist_percentile(&s->wake_delay, 99));
	put(sw, val, set, "events", "%llu", (unsigned long long)sim->nr_events);
}

static void csv_cell(char *buf, size_t len, size_t *off, const char *v)
{
	if (!strpbrk(v, ",\"\n\r")) {
		sl_append(buf, len, off, "%s", v);
		return;
	}
	sl_append(buf, len, off, "\"");
	for (; *v; v++) {
		if (*v == '"')
			sl_append(buf, len, off, "\"\"");
		else
			sl_append(buf, len, off, "%c", *v);
	}
	sl_append(buf, len, off, "\"");
}

static void json_string(char *buf, size_t len, size_t *off, const char *v)
{
	sl_append(buf, len, off, "\"");
	for (; *v; v++) {
		unsigned char ch = (unsigned char)*v;

		if (ch == '"' || ch == '\\')
			sl_append(buf, len, off, "\\%c", ch);
		else if (ch < 0x20)
			sl_append(buf, len, off, "\\u%04x", ch);
		else
			sl_append(buf, len, off, "%c", ch);
	}
	sl_append(buf, len, off, "\"");
}

/* Setting columns that hold numbers in JSON: run, seed and the flags. */
static bool numeric_setting(const struct sl_sweep *sw, int c)
{
	return c == 0 || c == 3 || c >= sw->nsettings - sw->nflags;
}

int sl_sweep_run_one(const struct sl_sweep *sw, u64 idx, char *buf, size_t len, char *err,
		     size_t errlen)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r;
	char fbuf[4096], seedtmp[32], msg[1024];
	char(*val)[CELL] = NULL;
	bool *set = NULL;
	const char *cells[4 + SL_SWEEP_MAX_VARY + SL_SWEEP_MAX_FLAGS];
	int rc = -1;

	sl_sweep_args(sw, idx, &a, fbuf, sizeof(fbuf));
	if (sl_config_build(&cfg, &a, msg, sizeof(msg))) {
		snprintf(err, errlen, "run #%llu: %s", (unsigned long long)idx, msg);
		return -1;
	}
	cfg.progress = false;
	if (sl_run(&cfg, &r, msg, sizeof(msg))) {
		snprintf(err, errlen, "run #%llu: %s", (unsigned long long)idx, msg);
		goto out;
	}
	val = calloc((size_t)sw->ncols, sizeof(*val));
	set = calloc((size_t)sw->ncols, sizeof(*set));
	if (!val || !set) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	metrics(sw, &r, val, set);
	/* run, config, then mix, seed, vary values, flags */
	sl_sweep_settings(sw, idx, cells + 2, seedtmp, sizeof(seedtmp));
	snprintf(val[0], CELL, "%llu", (unsigned long long)idx);
	cells[0] = val[0];
	cells[1] = sw->config_id;
	size_t off = 0;

	if (sw->fmt == SL_SWEEP_JSONL)
		sl_append(buf, len, &off, "{");
	for (int c = 0; c < sw->ncols; c++) {
		const char *v = c < sw->nsettings ? cells[c] : (set[c] ? val[c] : NULL);

		if (sw->fmt == SL_SWEEP_CSV) {
			if (c)
				sl_append(buf, len, &off, ",");
			if (v)
				csv_cell(buf, len, &off, v);
			continue;
		}
		if (c)
			sl_append(buf, len, &off, ",");
		json_string(buf, len, &off, sw->cols[c]);
		sl_append(buf, len, &off, ":");
		if (!v)
			sl_append(buf, len, &off, "null");
		else if (c >= sw->nsettings || numeric_setting(sw, c))
			sl_append(buf, len, &off, "%s", v);
		else
			json_string(buf, len, &off, v);
	}
	sl_append(buf, len, &off, "%s\n", sw->fmt == SL_SWEEP_JSONL ? "}" : "");
	if (off + 1 >= len) {
		snprintf(err, errlen, "run #%llu: the row is longer than %zu bytes",
			 (unsigned long long)idx, len);
		goto out;
	}
	rc = (int)off;
out:
	free(val);
	free(set);
	sl_run_free(&r);
	sl_config_free(&cfg);
	return rc;
}

int sl_sweep_header(const struct sl_sweep *sw, char *buf, size_t len)
{
	size_t off = 0;

	if (sw->fmt != SL_SWEEP_CSV) {
		buf[0] = '\0';
		return 0;
	}
	for (int c = 0; c < sw->ncols; c++) {
		if (c)
			sl_append(buf, len, &off, ",");
		csv_cell(buf, len, &off, sw->cols[c]);
	}
	sl_append(buf, len, &off, "\n");
	return off + 1 >= len ? -1 : (int)off;
}
