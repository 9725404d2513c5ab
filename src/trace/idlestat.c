/*
 * idlestat's own trace file (`idlestat --trace -f FILE`, idlestat 0.8): the line
 * "idlestat version = V", "cpus=N", the topology ("clusterA:", "\tcore0", "\t\tcpu0" or
 * "\tcpu0"), then per online CPU "cpuid N:" and 16 pairs of lines "\tNAME" and "\tRESIDENCY"
 * (its C-states' names, "(null)" for none, and target residencies in us, -1 for none), then
 * ftrace text lines, read by the ftrace text reader's parser. Plain, xz or gzip (the input
 * layer's, src/trace/input.c). The C-states and each CPU's cluster and core go to r->cstates,
 * which trace-stats uses to print idle statistics per cluster, core and CPU as idlestat's
 * report does.
 */
#include "trace/ftrace_text.h"
#include "core/parse.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* a target residency beyond 1000 s is no idle state's (the profile reader's bound too) */
#define MAX_RESIDENCY_US 1000000000

struct idlestat_priv {
	struct sl_trace_cstates *cs;
	int ncpu;
	int cluster, core; /* the topology's current cluster (INT_MIN: none yet) and core (-1) */
	char pending[SL_TRACE_MAX_LINE]; /* the first ftrace line, read with the header */
	size_t pending_n;
	unsigned long pending_line;
	bool has_pending;
};

/* idlestat's magic: the first line "idlestat version = ..." */
static bool idlestat_magic(const unsigned char *text, size_t len)
{
	return len >= 19 && !memcmp(text, "idlestat version = ", 19);
}

static bool idlestat_probe(const unsigned char *head, size_t len)
{
	return idlestat_magic(head, len);
}

static void idlestat_close(struct sl_trace_reader *r)
{
	struct idlestat_priv *a = r->priv;

	if (a) {
		free(a->cs);
		free(a);
	}
	r->priv = NULL;
	r->cstates = NULL;
	r->cstates_ncpu = 0;
}

static int bad(struct sl_trace_reader *r, const char *what, const char *s)
{
	snprintf(r->err, sizeof(r->err),
		 "%s:%lu: malformed idlestat header: expected %s: \"%.60s\"", r->path, r->lines,
		 what, s ? s : "(end of file)");
	return -1;
}

/* The next line or an error naming what the header expected there. */
static char *hdr_line(struct sl_trace_reader *r, const char *what, size_t *n, int *rc)
{
	char *s = sl_trace_line(r, n, rc);

	if (!s && !*rc)
		*rc = bad(r, what, NULL);
	return s;
}

/* "cpuid N:" then 16 name/residency pairs into a->cs[N]. */
static int read_cpuid(struct sl_trace_reader *r, struct idlestat_priv *a, const char *s)
{
	int cpu, rc;
	char tail;
	size_t n;

	if (sscanf(s, "cpuid %d%c", &cpu, &tail) != 2 || tail != ':' || cpu < 0 || cpu >= a->ncpu)
		return bad(r, "cpuid N: with N below cpus=", s);
	for (int i = 0; i < SL_TRACE_MAX_CSTATES; i++) {
		char *l = hdr_line(r, "a C-state name line", &n, &rc);
		char name[SL_TRACE_CSTATE_NAME], e[128];
		s64 tr;

		if (!l)
			return rc;
		if (l[0] != '\t' || sscanf(l + 1, "%31s", name) != 1)
			return bad(r, "a C-state name (a tab, then the name)", l);
		snprintf(a->cs[cpu].name[i], SL_TRACE_CSTATE_NAME, "%s",
			 strcmp(name, "(null)") ? name : "");
		l = hdr_line(r, "a target residency line", &n, &rc);
		if (!l)
			return rc;
		/* an integer of us, -1 for none; sscanf's %d would take any overflow silently */
		if (l[0] != '\t' || sl_parse_s64(l + 1, &tr, e, sizeof(e)) || tr < -1 ||
		    tr > MAX_RESIDENCY_US)
			return bad(r,
				   "a target residency (a tab, then -1 or an integer of us up to "
				   "1000000000)",
				   l);
		a->cs[cpu].target_us[i] = (int)tr;
	}
	return 0;
}

/*
 * One line of idlestat's topology (topology.c: read_cpu_topo_info): "clusterX:" opens cluster
 * X - 'A'; under it either "\tcpuN" lines (each CPU its own core, numbered as the CPU) or
 * "\tcoreM" lines each followed by "\t\tcpuN" lines. 1: a topology line taken, 0: not one,
 * -1: malformed.
 */
static int topo_line(struct sl_trace_reader *r, struct idlestat_priv *a, const char *s)
{
	int id, core;
	char tail;

	if (!strncmp(s, "cluster", 7)) {
		if ((unsigned char)s[7] < 'A' || (unsigned char)s[7] > '~' || s[8] != ':' || s[9])
			return bad(r, "clusterX: with X one character from A to ~", s);
		a->cluster = (unsigned char)s[7] - 'A';
		a->core = -1;
		return 1;
	}
	if (!strncmp(s, "\tcore", 5)) {
		if (sscanf(s, "\tcore%d%c", &id, &tail) != 1 || id < 0)
			return bad(r, "coreN after a tab, N at least 0", s);
		if (a->cluster == INT_MIN)
			return bad(r, "a clusterX: line before a core", s);
		a->core = id;
		return 1;
	}
	if (!strncmp(s, "\tcpu", 4) || !strncmp(s, "\t\tcpu", 5)) {
		bool nested = s[1] == '\t';

		if (sscanf(s + nested, "\tcpu%d%c", &id, &tail) != 1 || id < 0 || id >= a->ncpu)
			return bad(r,
				   "cpuN after one tab (two under a core line), N below cpus=", s);
		if (a->cluster == INT_MIN)
			return bad(r, "a clusterX: line before a CPU", s);
		if (nested != (a->core >= 0))
			return bad(r,
				   nested ? "cpuN after one tab (no core line above it in this "
					    "cluster)"
					  : "cpuN after two tabs (under the core line above it)",
				   s);
		core = nested ? a->core : id;
		if (a->cs[id].cluster != -1)
			return bad(r, "each CPU listed once in the topology", s);
		a->cs[id].cluster = a->cluster;
		a->cs[id].core = core;
		return 1;
	}
	return 0;
}

static int idlestat_open(struct sl_trace_reader *r, const unsigned char *head, size_t len)
{
	struct idlestat_priv *a;
	size_t n;
	int rc, ncpu;
	char *s, tail;

	(void)head;
	(void)len;
	a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(r->err, sizeof(r->err), "%s: out of memory", r->path);
		return -1;
	}
	r->priv = a;
	s = hdr_line(r, "idlestat version = V", &n, &rc);
	if (!s)
		return rc;
	if (!idlestat_magic((const unsigned char *)s, n))
		return bad(r, "idlestat version = V", s);
	s = hdr_line(r, "cpus=N", &n, &rc);
	if (!s)
		return rc;
	if (sscanf(s, "cpus=%d%c", &ncpu, &tail) != 1 || ncpu <= 0 || ncpu > SL_TRACE_MAX_CPUS)
		return bad(r, "cpus=N with N from 1 to 8192", s);
	r->ncpu = a->ncpu = ncpu;
	a->cs = calloc((size_t)ncpu, sizeof(*a->cs));
	if (!a->cs) {
		snprintf(r->err, sizeof(r->err), "%s: out of memory", r->path);
		return -1;
	}
	for (int c = 0; c < ncpu; c++) {
		for (int i = 0; i < SL_TRACE_MAX_CSTATES; i++)
			a->cs[c].target_us[i] = -1;
		a->cs[c].cluster = a->cs[c].core = -1;
	}
	a->cluster = INT_MIN;
	a->core = -1;
	r->cstates = a->cs;
	r->cstates_ncpu = ncpu;
	for (;;) {
		s = sl_trace_line(r, &n, &rc);
		if (!s)
			return rc;
		rc = topo_line(r, a, s);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		if (!strncmp(s, "cpuid ", 6)) {
			if (read_cpuid(r, a, s))
				return -1;
			continue;
		}
		/* the first trace line */
		memcpy(a->pending, s, n + 1);
		a->pending_n = n;
		a->pending_line = r->lines;
		a->has_pending = true;
		return 0;
	}
}

/*
 * A cpu_idle record must name a CPU and a C-state of the header's table (a state named
 * "(null)" there is still taken: without a cpuidle driver the kernel enters state 1 of a table
 * of "(null)"s): one outside has no statistics to go to (idlestat drops it, and so did
 * trace-stats, without a word). 1 the record, 0 skipped (lenient), -1 malformed.
 */
static int check_idle(struct sl_trace_reader *r, const struct idlestat_priv *a,
		      const struct sl_trace_record *o)
{
	const char *what = NULL;

	if (o->kind != SL_TR_CPU_IDLE)
		return 1;
	if (o->cpu_id < 0 || o->cpu_id >= a->ncpu)
		what = "a cpu_id below the header's cpus=";
	else if (o->state != -1 && (o->state < 0 || o->state >= SL_TRACE_MAX_CSTATES))
		what = "a state of the header's table, 0 to 15 (or 4294967295: exit)";
	if (!what)
		return 1;
	if (r->lenient) {
		r->malformed++;
		return 0;
	}
	snprintf(r->err, sizeof(r->err), "%s:%lu: malformed line: expected %s (cpu_id=%d state=%d)",
		 r->path, o->line, what, o->cpu_id, o->state);
	return -1;
}

static int idlestat_next(struct sl_trace_reader *r, struct sl_trace_record *o)
{
	struct idlestat_priv *a = r->priv;

	if (a->has_pending) {
		int rc;

		a->has_pending = false;
		rc = sl_ftrace_parse(r, a->pending, a->pending_n, a->pending_line, o);
		if (rc == 1)
			rc = check_idle(r, a, o);
		if (rc)
			return rc;
	}
	for (;;) {
		size_t n;
		int rc;
		char *s = sl_trace_line(r, &n, &rc);

		if (!s)
			return rc;
		rc = sl_ftrace_parse(r, s, n, r->lines, o);
		if (rc == 1)
			rc = check_idle(r, a, o);
		if (rc)
			return rc;
	}
}

const struct sl_trace_reader_ops sl_idlestat_reader = {
	.name = "idlestat",
	.probe = idlestat_probe,
	.open = idlestat_open,
	.next = idlestat_next,
	.close = idlestat_close,
};
