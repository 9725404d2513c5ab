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
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

	for (int i = 0; i < sl_machine_of(sim)->ngroups; i++) {
		const struct sl_group *g = &sl_machine_of(sim)->groups[i];
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
	u64 pj = sl_machine_energy_pj(sim);

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

/*
 * Runs that need not be simulated again. A run reads sched_features only through sched_feat()
 * (sched/sched.h), which records each bit it reads; the simulation is deterministic, so a run
 * whose settings other than the varied flags are the same (the same index once the flag bits,
 * which vary fastest, are shifted out) and whose feature set agrees on every bit another run
 * read takes the same path, bit for bit, and gives the same metrics: by induction over the
 * run, each read returns the same value, so every later step is the same. Only the flag cells
 * of its row differ, and they are written from the index as always. Runs with --at changes are
 * always simulated (a change may write the feature set during the run).
 */
#define MEMO_MAX 8192 /* entries kept for the sweep; beyond, runs are simulated */

/*
 * The entries live in one shared anonymous mapping made before the workers are forked, so that
 * a run one worker simulated is copied by the others too: each worker used to simulate every
 * path it met itself, nearly all of them twice with -j 2. Any entry that matches gives the
 * same cells (the argument above), so which worker added it, and when, changes no byte of a
 * row. A slot is taken by an atomic increment and published by its `ready` flag (release),
 * read with acquire: its cells are never written again. Pages are touched only as entries are
 * added (MAP_NORESERVE, never cleared by hand).
 */
struct memo_ent {
	u64 rest;     /* idx >> nflags */
	u64 read;     /* the feature bits the run read */
	u64 features; /* its feature set, of which the bits in read matter */
	atomic_int ready;
};

struct memo_shared {
	atomic_int n; /* slots taken (may pass MEMO_MAX: those were not kept) */
	struct memo_ent e[MEMO_MAX];
};

/*
 * Workloads parsed once per process, by their spec (sl_workload_parse reads nothing else), and
 * shared by every run that names them (sl_config_build_shared): a trace workload's file is
 * read once, not once per run. At most WL_CACHE_MAX specs; further ones are parsed per run.
 */
#define WL_CACHE_MAX 64

struct sl_sweep_memo {
	struct memo_shared *sh;
	char (*val)[CELL]; /* MEMO_MAX rows of ncols cells, in the same mapping */
	bool *set;	   /* MEMO_MAX rows of ncols flags, likewise */
	size_t maplen;
	int ncols;
	u64 hits;
	char *wl_spec[WL_CACHE_MAX];
	struct sl_workload_inst wl[WL_CACHE_MAX];
	int nwl;
};

/* the parsed workload of spec from the cache (parsed now on a miss), or NULL: not cached */
static const struct sl_workload_inst *wl_cached(struct sl_sweep_memo *m, const char *spec)
{
	char e[256];

	for (int i = 0; i < m->nwl; i++)
		if (!strcmp(m->wl_spec[i], spec))
			return &m->wl[i];
	if (m->nwl == WL_CACHE_MAX || !(m->wl_spec[m->nwl] = strdup(spec)))
		return NULL;
	if (sl_workload_parse(spec, &m->wl[m->nwl], e, sizeof(e))) {
		free(m->wl_spec[m->nwl]);
		return NULL;
	}
	return &m->wl[m->nwl++];
}

/*
 * cfg for a: its workloads from the cache when every one of them is (else as sl_config_build
 * parses them, with its errors).
 */
static int config_for(struct sl_sweep_memo *m, struct sl_config *cfg, const struct sl_args *a,
		      char *err, size_t errlen)
{
	struct sl_workload_inst wl[SL_MAX_LIST];
	int n = a->nworkloads;

	if (!m || n > SL_MAX_LIST)
		return sl_config_build(cfg, a, err, errlen);
	for (int i = 0; i < n; i++) {
		const struct sl_workload_inst *w = wl_cached(m, a->workloads[i]);

		if (!w)
			return sl_config_build(cfg, a, err, errlen);
		wl[i] = *w;
	}
	return sl_config_build_shared(cfg, a, wl, n, err, errlen);
}

struct sl_sweep_memo *sl_sweep_memo_new(int ncols)
{
	struct sl_sweep_memo *m = calloc(1, sizeof(*m));
	size_t cells = (size_t)MEMO_MAX * (size_t)ncols;

	if (!m || ncols <= 0)
		goto fail;
	m->ncols = ncols;
	m->maplen = sizeof(struct memo_shared) + cells * (sizeof(*m->val) + sizeof(*m->set));
	void *p = mmap(NULL, m->maplen, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		goto fail;
	m->sh = p; /* the kernel's pages are zero: n = 0, no slot ready */
	m->val = (char(*)[CELL])((char *)p + sizeof(struct memo_shared));
	m->set = (bool *)(m->val + cells);
	return m;
fail:
	free(m);
	return NULL;
}

void sl_sweep_memo_free(struct sl_sweep_memo *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nwl; i++) {
		sl_workload_inst_free(&m->wl[i]);
		free(m->wl_spec[i]);
	}
	munmap(m->sh, m->maplen);
	free(m);
}

u64 sl_sweep_memo_hits(const struct sl_sweep_memo *m)
{
	return m ? m->hits : 0;
}

/* the slot of a run done before (by any worker) that this one repeats, or -1 */
static int memo_find(const struct sl_sweep_memo *m, u64 rest, u64 features)
{
	if (!m)
		return -1;
	int n = atomic_load_explicit(&m->sh->n, memory_order_acquire);

	for (int i = (n < MEMO_MAX ? n : MEMO_MAX) - 1; i >= 0; i--) {
		const struct memo_ent *e = &m->sh->e[i];

		/* ready first: the other fields may be being written until it is set */
		if (atomic_load_explicit(&e->ready, memory_order_acquire) && e->rest == rest &&
		    !((e->features ^ features) & e->read))
			return i;
	}
	return -1;
}

/* keeps a copy of val and set (nothing when full: the run is done again) */
static void memo_add(struct sl_sweep_memo *m, u64 rest, u64 read, u64 features, char (*val)[CELL],
		     const bool *set)
{
	/* the load first: n passes MEMO_MAX by at most one slot per worker, never wraps */
	if (!m || atomic_load_explicit(&m->sh->n, memory_order_relaxed) >= MEMO_MAX)
		return;
	int i = atomic_fetch_add_explicit(&m->sh->n, 1, memory_order_relaxed);

	if (i >= MEMO_MAX)
		return;
	struct memo_ent *e = &m->sh->e[i];
	size_t row = (size_t)i * (size_t)m->ncols;

	memcpy(m->val + row, val, sizeof(*val) * (size_t)m->ncols);
	memcpy(m->set + row, set, sizeof(*set) * (size_t)m->ncols);
	e->rest = rest;
	e->read = read;
	e->features = features;
	atomic_store_explicit(&e->ready, 1, memory_order_release);
}

int sl_sweep_run_one(const struct sl_sweep *sw, u64 idx, char *buf, size_t len, char *err,
		     size_t errlen)
{
	struct sl_args a;
	struct sl_config cfg;
	struct sl_run r = {0};
	char fbuf[4096], seedtmp[32], msg[1024];
	char(*val)[CELL] = NULL;
	bool *set = NULL;
	const char *cells[4 + SL_SWEEP_MAX_VARY + SL_SWEEP_MAX_FLAGS];
	int rc = -1;

	sl_sweep_args(sw, idx, &a, fbuf, sizeof(fbuf));
	if (config_for(sw->memo, &cfg, &a, msg, sizeof(msg))) {
		snprintf(err, errlen, "run #%llu: %s", (unsigned long long)idx, msg);
		return -1;
	}
	cfg.progress = false;
	val = calloc((size_t)sw->ncols, sizeof(*val));
	set = calloc((size_t)sw->ncols, sizeof(*set));
	if (!val || !set) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	u64 rest = idx >> sw->nflags, read = 0;
	bool memo = sw->memo && !cfg.nat;
	int hit = memo ? memo_find(sw->memo, rest, cfg.features) : -1;

	if (hit >= 0) {
		size_t row = (size_t)hit * (size_t)sw->ncols;

		memcpy(val, sw->memo->val + row, sizeof(*val) * (size_t)sw->ncols);
		memcpy(set, sw->memo->set + row, sizeof(*set) * (size_t)sw->ncols);
		sw->memo->hits++;
	} else {
		cfg.feat_read = memo ? &read : NULL;
		if (sl_run(&cfg, &r, msg, sizeof(msg))) {
			snprintf(err, errlen, "run #%llu: %s", (unsigned long long)idx, msg);
			goto out;
		}
		metrics(sw, &r, val, set);
		if (memo)
			memo_add(sw->memo, rest, read, cfg.features, val, set);
	}
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
