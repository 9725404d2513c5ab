/*
 * rt-app's JSON read as rt-app 1.0 reads it: "global" (optional), "tasks" (required),
 * "resources" (accepted and ignored: rt-app creates resources from their uses). A thread's
 * events are matched by key PREFIX in rt-app's order ("runtime" before "run"), so "run1" and
 * "sleep2" are events too, and repeated keys stay in file order. A thread without "phases" is
 * one phase: its "loop" is that phase's, and the thread repeats it for ever (what rt-app 1.0
 * does: checked by running it). Every error names the file and the line.
 */
#include "workload/rtapp.h"
#include "core/json.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct ctx {
	const char *path;
	const struct sl_json_doc *d;
	struct rta_file *f;
	char *err;
	size_t errlen;
};

static int bad(struct ctx *c, int line, const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "%s:%d: %s", c->path, line, msg);
	return -1;
}

static const struct sl_json *node(struct ctx *c, int i)
{
	return sl_json_at(c->d, i);
}

static int line_of(const struct sl_json *v)
{
	return v->key ? v->key_line : v->line;
}

static int get_int(struct ctx *c, const struct sl_json *v, long min, long max, long *out)
{
	*out = 0; /* defined on every path, for the reader and the analyzer */
	/* a whole number beyond long long (18446744073709551615, 1e30) is out of range, not a
	 * fraction; one written with an exponent (1e3) is said to be so */
	if (v->type == SL_JSON_NUMBER && !v->is_int && v->num == trunc(v->num) &&
	    (v->num < (double)min || v->num > (double)max))
		return bad(c, line_of(v), "\"%s\": %g is out of range [%ld, %ld]", v->key, v->num,
			   min, max);
	if (v->type != SL_JSON_NUMBER || !v->is_int)
		return bad(c, line_of(v), "\"%s\": expected an integer, found %s", v->key,
			   v->type != SL_JSON_NUMBER ? sl_json_type_name(v->type)
			   : v->num == trunc(v->num) ? "a number with an exponent"
						     : "a fraction");
	if (v->ival < min || v->ival > max)
		return bad(c, line_of(v), "\"%s\": %lld is out of range [%ld, %ld]", v->key,
			   v->ival, min, max);
	*out = (long)v->ival;
	return 0;
}

static int get_str(struct ctx *c, const struct sl_json *v, bool empty_ok, const char **out)
{
	*out = "";
	if (v->type != SL_JSON_STRING)
		return bad(c, line_of(v), "\"%s\": expected a string, found %s", v->key,
			   sl_json_type_name(v->type));
	if (!empty_ok && !v->str[0])
		return bad(c, line_of(v), "\"%s\": expected a name, found \"\"", v->key);
	*out = v->str;
	return 0;
}

static int get_bool(struct ctx *c, const struct sl_json *v)
{
	if (v->type != SL_JSON_BOOL)
		return bad(c, line_of(v), "\"%s\": expected true or false, found %s", v->key,
			   sl_json_type_name(v->type));
	return 0;
}

static int intern(struct ctx *c, struct rta_names *t, const char *name, int line)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->v[i], name))
			return i;
	char **a = realloc(t->v, sizeof(*a) * (size_t)(t->n + 1));

	if (!a)
		return bad(c, line, "out of memory");
	t->v = a;
	if (!(t->v[t->n] = strdup(name)))
		return bad(c, line, "out of memory");
	return t->n++;
}

/* ---- global ---- */

/* Keys rt-app 1.0 reads in "global" that change nothing in the model ("frag" is an older
 * rt-app's, still in its shipped examples). */
static const char *const ignored_global[] = {
	"default_policy", "pi_enabled", "lock_pages", "logdir",		 "log_size",
	"ftrace",	  "gnuplot",	"io_device",  "mem_buffer_size", "frag",
};

/*
 * The ONE place that maps rt-app's policy names onto the model's: SCHED_OTHER is the fair
 * class (its priority a nice value), SCHED_FIFO and SCHED_RR the real-time class
 * (src/sched/rt/rt.c, priority 1..99). SCHED_DEADLINE has no model (no deadline class): refused,
 * named.
 */
static int check_policy(struct ctx *c, const char *p, int line, int *policy)
{
	if (!strcmp(p, "SCHED_OTHER")) {
		*policy = SL_SCHED_NORMAL;
		return 0;
	}
	if (!strcmp(p, "SCHED_FIFO") || !strcmp(p, "SCHED_RR")) {
		*policy = p[6] == 'F' ? SL_SCHED_FIFO : SL_SCHED_RR;
		return 0;
	}
	if (!strcmp(p, "SCHED_DEADLINE"))
		return bad(c, line,
			   "policy SCHED_DEADLINE is not modelled (schedlab has no deadline class; "
			   "use SCHED_OTHER, SCHED_FIFO or SCHED_RR)");
	return bad(c, line,
		   "unknown policy \"%s\" (rt-app's: SCHED_OTHER, SCHED_FIFO, SCHED_RR, "
		   "SCHED_DEADLINE)",
		   p);
}

static int parse_global(struct ctx *c, const struct sl_json *g, const char **policy,
			int *policy_line)
{
	struct rta_file *f = c->f;

	if (g->type != SL_JSON_OBJECT)
		return bad(c, line_of(g), "\"global\": expected an object");
	for (const struct sl_json *m = node(c, g->first); m; m = node(c, m->next)) {
		const char *s = NULL;
		long v;

		for (const struct sl_json *k = node(c, g->first); k != m; k = node(c, k->next))
			if (!strcmp(k->key, m->key))
				return bad(c, line_of(m),
					   "\"global\": \"%s\" given twice (first on line %d)",
					   m->key, line_of(k));

		if (!strcmp(m->key, "duration")) {
			if (get_int(c, m, -1, 1000000, &v))
				return -1;
			if (v == 0)
				return bad(c, line_of(m),
					   "\"duration\": expected -1 or seconds > 0");
			f->duration_s = v;
		} else if (!strcmp(m->key, "calibration")) {
			if (m->type == SL_JSON_STRING) {
				f->ns_per_loop = 0;
			} else {
				if (get_int(c, m, 1, 1000000000, &v))
					return -1;
				f->ns_per_loop = v;
			}
		} else if (!strcmp(m->key, "log_basename")) {
			if (get_str(c, m, false, &s))
				return -1;
			if (strlen(s) >= sizeof(f->log_basename) || strchr(s, '/'))
				return bad(c, line_of(m),
					   "\"log_basename\": expected a file name prefix without "
					   "'/', at most %zu characters",
					   sizeof(f->log_basename) - 1);
			snprintf(f->log_basename, sizeof(f->log_basename), "%s", s);
		} else if (!strcmp(m->key, "cumulative_slack")) {
			if (get_bool(c, m))
				return -1;
			f->cumulative_slack = m->b;
		} else {
			bool known = false;

			for (size_t k = 0; k < SL_ARRAY_SIZE(ignored_global); k++)
				known |= !strcmp(m->key, ignored_global[k]);
			if (!known)
				return bad(
					c, line_of(m),
					"unknown global key \"%s\" (valid: duration, calibration, "
					"default_policy, logdir, log_basename, log_size, "
					"cumulative_slack, pi_enabled, lock_pages, ftrace, "
					"gnuplot, "
					"io_device, mem_buffer_size)",
					m->key);
			if (!strcmp(m->key, "default_policy")) {
				if (get_str(c, m, false, policy))
					return -1;
				*policy_line = line_of(m);
			}
			/* ignored, but of rt-app's type: rt-app refuses a file with "logdir": 5
			 * (ftrace and log_size take more than one type across its versions) */
			if ((!strcmp(m->key, "logdir") || !strcmp(m->key, "io_device")) &&
			    get_str(c, m, true, &s))
				return -1;
			if ((!strcmp(m->key, "pi_enabled") || !strcmp(m->key, "lock_pages") ||
			     !strcmp(m->key, "gnuplot")) &&
			    get_bool(c, m))
				return -1;
			if ((!strcmp(m->key, "mem_buffer_size") || !strcmp(m->key, "frag")) &&
			    get_int(c, m, 0, LONG_MAX, &v))
				return -1;
		}
	}
	return 0;
}

/* ---- events ---- */

static const struct {
	const char *prefix;
	enum rta_kind kind;
} event_names[] = {
	/* rt-app's order: "runtime" must be tried before its prefix "run" */
	{"runtime", RTA_RUNTIME}, {"run", RTA_RUN},	    {"sleep", RTA_SLEEP},
	{"timer", RTA_TIMER},	  {"suspend", RTA_SUSPEND}, {"resume", RTA_RESUME},
	{"lock", RTA_LOCK},	  {"unlock", RTA_UNLOCK},   {"wait", RTA_WAIT},
	{"signal", RTA_SIGNAL},	  {"broad", RTA_BROAD},	    {"sync", RTA_SYNC},
	{"barrier", RTA_BARRIER}, {"yield", RTA_YIELD},	    {"fork", RTA_FORK},
	{"mem", RTA_MEM},	  {"iorun", RTA_IORUN},
};

const char *sl_rta_kind_name(enum rta_kind k)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(event_names); i++)
		if (event_names[i].kind == k)
			return event_names[i].prefix;
	return "?";
}

static int event_kind(const char *key)
{
	for (size_t i = 0; i < SL_ARRAY_SIZE(event_names); i++)
		if (!strncmp(key, event_names[i].prefix, strlen(event_names[i].prefix)))
			return (int)event_names[i].kind;
	return -1;
}

static const struct sl_json *member(struct ctx *c, const struct sl_json *o, const char *k)
{
	for (const struct sl_json *m = node(c, o->first); m; m = node(c, m->next))
		if (!strcmp(m->key, k))
			return m;
	return NULL;
}

/* {"ref": ..., "mutex": ...} of wait and sync */
static int ref_mutex(struct ctx *c, const struct sl_json *v, struct rta_event *e)
{
	const struct sl_json *r, *m;
	const char *rs = NULL, *ms = NULL;

	if (v->type != SL_JSON_OBJECT)
		return bad(c, line_of(v), "\"%s\": expected {\"ref\": NAME, \"mutex\": NAME}",
			   v->key);
	for (const struct sl_json *k = node(c, v->first); k; k = node(c, k->next))
		if (strcmp(k->key, "ref") && strcmp(k->key, "mutex"))
			return bad(c, line_of(k), "\"%s\": unknown key \"%s\" (valid: ref, mutex)",
				   v->key, k->key);
	r = member(c, v, "ref");
	m = member(c, v, "mutex");
	if (!r || !m)
		return bad(c, line_of(v), "\"%s\": missing \"%s\"", v->key, r ? "mutex" : "ref");
	if (get_str(c, r, false, &rs) || get_str(c, m, false, &ms))
		return -1;
	e->ref = intern(c, &c->f->conds, rs, line_of(r));
	e->mutex = intern(c, &c->f->mutexes, ms, line_of(m));
	return e->ref < 0 || e->mutex < 0 ? -1 : 0;
}

static int parse_timer(struct ctx *c, const struct sl_json *v, struct rta_event *e)
{
	const struct sl_json *r, *p, *mode;
	const char *s = NULL;
	long period;

	if (v->type != SL_JSON_OBJECT)
		return bad(c, line_of(v),
			   "\"%s\": expected {\"ref\": NAME, \"period\": US[, \"mode\": "
			   "\"relative\"|\"absolute\"]}",
			   v->key);
	for (const struct sl_json *k = node(c, v->first); k; k = node(c, k->next))
		if (strcmp(k->key, "ref") && strcmp(k->key, "period") && strcmp(k->key, "mode"))
			return bad(c, line_of(k),
				   "\"%s\": unknown key \"%s\" (valid: ref, period, mode)", v->key,
				   k->key);
	r = member(c, v, "ref");
	p = member(c, v, "period");
	mode = member(c, v, "mode");
	if (!r)
		return bad(c, line_of(v), "\"%s\": missing \"ref\" (a timer's name, or \"unique\")",
			   v->key);
	if (!p)
		return bad(c, line_of(v), "\"%s\": missing \"period\" (microseconds)", v->key);
	if (get_str(c, r, false, &s) || get_int(c, p, 1, 1000000000000L, &period))
		return -1;
	e->unique = !strncmp(s, "unique", 6);
	e->ref = intern(c, &c->f->timers, s, line_of(r));
	e->val = (u64)period;
	e->relative = true;
	if (mode) {
		const char *ms = NULL;

		if (get_str(c, mode, false, &ms))
			return -1;
		if (!strcmp(ms, "absolute"))
			e->relative = false;
		else if (strcmp(ms, "relative"))
			return bad(c, line_of(mode),
				   "\"mode\": expected \"relative\" or \"absolute\", found \"%s\"",
				   ms);
	}
	return e->ref < 0 ? -1 : 0;
}

static int parse_event(struct ctx *c, const struct sl_json *v, int kind, const char *task,
		       struct rta_event *e)
{
	const char *s = NULL;
	long n;
	char name[128];

	memset(e, 0, sizeof(*e));
	e->kind = (enum rta_kind)kind;
	e->line = line_of(v);
	e->ref = e->mutex = -1;
	switch (e->kind) {
	case RTA_RUN:
	case RTA_RUNTIME:
	case RTA_SLEEP:
	case RTA_MEM:
	case RTA_IORUN:
		if (get_int(c, v, 0, 1000000000000L, &n))
			return -1;
		e->val = (u64)n;
		return 0;
	case RTA_TIMER:
		return parse_timer(c, v, e);
	case RTA_WAIT:
	case RTA_SYNC:
		return ref_mutex(c, v, e);
	case RTA_LOCK:
	case RTA_UNLOCK:
		if (get_str(c, v, false, &s))
			return -1;
		e->ref = intern(c, &c->f->mutexes, s, e->line);
		break;
	case RTA_SIGNAL:
	case RTA_BROAD:
		if (get_str(c, v, false, &s))
			return -1;
		e->ref = intern(c, &c->f->conds, s, e->line);
		break;
	case RTA_SUSPEND:
	case RTA_RESUME:
		/*
		 * rt-app 1.0 makes both a condition and a mutex of the name, the same objects
		 * as a wait, signal, sync, lock of that name (resources are found by name and
		 * type). An empty suspend is the thread's own (workgen fills it in).
		 */
		if (get_str(c, v, e->kind == RTA_SUSPEND, &s))
			return -1;
		e->ref = intern(c, &c->f->conds, s[0] ? s : task, e->line);
		e->mutex = intern(c, &c->f->mutexes, s[0] ? s : task, e->line);
		return e->ref < 0 || e->mutex < 0 ? -1 : 0;
	case RTA_BARRIER:
		if (get_str(c, v, false, &s))
			return -1;
		e->ref = intern(c, &c->f->barriers, s, e->line);
		break;
	case RTA_YIELD:
		return get_str(c, v, true, &s);
	case RTA_FORK:
		if (get_str(c, v, false, &s))
			return -1;
		/* the task's index in "tasks" (a fork may name a task defined later) */
		snprintf(name, sizeof(name), "%s", s);
		for (const struct sl_json *t = node(c, c->d->nodes[0].first); t;
		     t = node(c, t->next)) {
			int k = 0;

			if (strcmp(t->key, "tasks") || t->type != SL_JSON_OBJECT)
				continue;
			for (const struct sl_json *x = node(c, t->first); x;
			     x = node(c, x->next), k++)
				if (!strcmp(x->key, name))
					e->ref = k;
		}
		if (e->ref < 0)
			return bad(c, e->line, "\"%s\": no task named \"%s\" in \"tasks\"", v->key,
				   name);
		return 0;
	}
	return e->ref < 0 ? -1 : 0;
}

static int parse_cpus(struct ctx *c, const struct sl_json *v, int *cpus, int *n)
{
	if (v->type != SL_JSON_ARRAY || !v->nchild)
		return bad(c, line_of(v), "\"cpus\": expected a non-empty array of CPU numbers");
	*n = 0;
	for (const struct sl_json *e = node(c, v->first); e; e = node(c, e->next)) {
		if (e->type != SL_JSON_NUMBER || !e->is_int || e->ival < 0 || e->ival > 4095)
			return bad(c, e->line, "\"cpus\": expected CPU numbers 0..4095");
		if (*n == 64)
			return bad(c, e->line, "\"cpus\": at most 64 CPUs");
		cpus[(*n)++] = (int)e->ival;
		if (e->ival > c->f->max_cpu)
			c->f->max_cpu = (int)e->ival;
	}
	return 0;
}

/* The events and properties of one phase object (or of a thread without "phases"). */
static int parse_phase(struct ctx *c, const struct sl_json *o, const char *task,
		       struct rta_phase *ph, bool thread_level)
{
	ph->loop = thread_level ? -1 : 1;
	ph->line = line_of(o);
	for (const struct sl_json *m = node(c, o->first); m; m = node(c, m->next)) {
		if (!strcmp(m->key, "loop")) {
			if (get_int(c, m, -1, 1000000000, &ph->loop))
				return -1;
			continue;
		}
		if (!strcmp(m->key, "cpus")) {
			if (parse_cpus(c, m, ph->cpus, &ph->ncpus))
				return -1;
			continue;
		}
		if (thread_level && (!strcmp(m->key, "instance") || !strcmp(m->key, "priority") ||
				     !strcmp(m->key, "policy") || !strcmp(m->key, "delay") ||
				     !strcmp(m->key, "phases")))
			continue; /* the thread's own, read by parse_task */
		int kind = event_kind(m->key);

		if (kind < 0)
			return bad(c, line_of(m),
				   "unknown event \"%s\" (events, matched by prefix: run, runtime, "
				   "sleep, timer, suspend, resume, lock, unlock, wait, signal, "
				   "broad, sync, barrier, yield, fork, mem, iorun; properties: "
				   "loop, cpus%s)",
				   m->key,
				   thread_level ? ", instance, priority, policy, delay, phases"
						: "");
		struct rta_event *a = realloc(ph->ev, sizeof(*a) * (size_t)(ph->nev + 1));

		if (!a)
			return bad(c, line_of(m), "out of memory");
		ph->ev = a;
		if (parse_event(c, m, kind, task, &ph->ev[ph->nev]))
			return -1;
		ph->nev++;
	}
	return 0;
}

static int parse_task(struct ctx *c, const struct sl_json *o, struct rta_task *t,
		      const char *def_policy, int def_line)
{
	const struct sl_json *phases = NULL;
	const char *policy = def_policy;
	int policy_line = def_line, nice_line = 0;
	bool events = false, prio_set = false;
	long v;

	if (o->type != SL_JSON_OBJECT)
		return bad(c, line_of(o), "task \"%s\": expected an object", o->key);
	if (strlen(o->key) >= sizeof(t->name) || !o->key[0])
		return bad(c, line_of(o), "task name: expected 1 to %zu characters",
			   sizeof(t->name) - 1);
	/* the name is part of its log file's name */
	if (strchr(o->key, '/'))
		return bad(c, line_of(o),
			   "task name \"%s\": a '/' is not allowed (it names a log "
			   "file)",
			   o->key);
	snprintf(t->name, sizeof(t->name), "%s", o->key);
	t->line = line_of(o);
	t->instance = 1;
	t->loop = -1;
	for (const struct sl_json *m = node(c, o->first); m; m = node(c, m->next)) {
		if (!strcmp(m->key, "instance")) {
			if (get_int(c, m, 0, 100000, &t->instance))
				return -1;
		} else if (!strcmp(m->key, "loop")) {
			if (get_int(c, m, -1, 1000000000, &t->loop))
				return -1;
		} else if (!strcmp(m->key, "priority")) {
			if (get_int(c, m, -1000, 1000, &v))
				return -1;
			t->nice = (int)v;
			nice_line = line_of(m);
			prio_set = true;
		} else if (!strcmp(m->key, "policy")) {
			if (get_str(c, m, false, &policy))
				return -1;
			policy_line = line_of(m);
		} else if (!strcmp(m->key, "delay")) {
			if (get_int(c, m, 0, 1000000000000L, &v))
				return -1;
			t->delay_us = (u64)v;
		} else if (!strcmp(m->key, "cpus")) {
			if (parse_cpus(c, m, t->cpus, &t->ncpus))
				return -1;
		} else if (!strcmp(m->key, "phases")) {
			if (m->type != SL_JSON_OBJECT || !m->nchild)
				return bad(c, line_of(m),
					   "\"phases\": expected an object of phase objects");
			phases = m;
		} else {
			events = true;
		}
	}
	if (check_policy(c, policy, policy_line ? policy_line : t->line, &t->policy))
		return -1;
	if (t->policy == SL_SCHED_FIFO || t->policy == SL_SCHED_RR) {
		/* rt-app: the priority of a real-time thread, 10 unless given */
		t->rt_priority = prio_set ? t->nice : 10;
		t->nice = 0;
		if (t->rt_priority < 1 || t->rt_priority > 99)
			return bad(c, nice_line, "task \"%s\": priority %d: %s takes 1..99",
				   t->name, t->rt_priority, policy);
	} else if (t->nice < -20 || t->nice > 19)
		return bad(c, nice_line,
			   "task \"%s\": priority %d: SCHED_OTHER takes a nice value -20..19",
			   t->name, t->nice);
	if (phases && events)
		return bad(c, line_of(phases),
			   "task \"%s\": events beside \"phases\": put them in a phase", t->name);
	if (!phases) {
		t->ph = calloc(1, sizeof(*t->ph));
		if (!t->ph)
			return bad(c, t->line, "out of memory");
		t->nph = 1;
		/* rt-app 1.0: the thread's "loop" is its only phase's; the thread repeats it */
		if (parse_phase(c, o, t->name, &t->ph[0], true))
			return -1;
		t->ph[0].loop = t->loop;
		t->loop = -1;
		return 0;
	}
	t->ph = calloc((size_t)phases->nchild, sizeof(*t->ph));
	if (!t->ph)
		return bad(c, t->line, "out of memory");
	for (const struct sl_json *p = node(c, phases->first); p; p = node(c, p->next)) {
		if (p->type != SL_JSON_OBJECT)
			return bad(c, line_of(p), "phase \"%s\": expected an object", p->key);
		if (parse_phase(c, p, t->name, &t->ph[t->nph++], false))
			return -1;
	}
	return 0;
}

/*
 * Whether one loop of a phase can let simulated time pass: an event that takes time (run,
 * runtime, sleep, mem, iorun of more than 0; a timer, whose period is at least 1 us) or one
 * that waits for another thread (wait, sync, suspend, barrier, lock). A loop of none of them
 * (run 0, sleep 0, yield, signal, fork...) repeats at one instant.
 */
static bool phase_advances(const struct rta_phase *ph)
{
	for (int k = 0; k < ph->nev; k++) {
		const struct rta_event *e = &ph->ev[k];

		switch (e->kind) {
		case RTA_RUN:
		case RTA_RUNTIME:
		case RTA_SLEEP:
		case RTA_MEM:
		case RTA_IORUN:
			if (e->val)
				return true;
			break;
		case RTA_TIMER:
		case RTA_WAIT:
		case RTA_SYNC:
		case RTA_SUSPEND:
		case RTA_BARRIER:
		case RTA_LOCK:
			return true;
		default:
			break;
		}
	}
	return false;
}

/*
 * A thread that repeats, for ever, events that take no simulated time never lets the
 * simulation's clock move: it would fill memory with its log rows at one instant (a loop of
 * -1 over "sleep": 0, or "run": 0 and "sleep": 0). Refused, naming the thread.
 */
static int check_advances(struct ctx *c, const struct rta_task *t)
{
	bool any = false;

	for (int p = 0; p < t->nph; p++) {
		bool adv = phase_advances(&t->ph[p]);

		if (!adv && t->ph[p].loop < 0)
			return bad(c, t->ph[p].line,
				   "task \"%s\": a phase that loops for ever on events taking no "
				   "simulated time (run, runtime, sleep of 0; no timer, wait, "
				   "suspend, barrier or lock): the simulation would not advance",
				   t->name);
		any |= adv;
	}
	if (!any && t->loop < 0)
		return bad(c, t->line,
			   "task \"%s\": it repeats for ever events taking no simulated time "
			   "(run, runtime, sleep of 0; no timer, wait, suspend, barrier or lock): "
			   "the simulation would not advance",
			   t->name);
	return 0;
}

/* Python's str.strip(chars) on [*b, *e). */
static void strip_set(const char **b, const char **e, const char *set)
{
	while (*b < *e && strchr(set, **b))
		(*b)++;
	while (*e > *b && strchr(set, (*e)[-1]))
		(*e)--;
}

static bool has(const char *b, const char *e, const char *s)
{
	size_t n = strlen(s);

	for (; b + n <= e; b++)
		if (!memcmp(b, s, n))
			return true;
	return false;
}

struct grow {
	char *b;
	size_t n, cap;
};

/* Appends n bytes; false when out of memory or past SL_JSON_MAX_SIZE + 1 (refused anyway). */
static bool put(struct grow *g, const char *s, size_t n)
{
	if (g->cap - g->n < n + 1) {
		size_t cap = g->cap * 2 > g->n + n + 1 ? g->cap * 2 : g->n + n + 1;
		char *b;

		if (g->n + n > (size_t)SL_JSON_MAX_SIZE + 1)
			return false;
		b = realloc(g->b, cap);
		if (!b)
			return false;
		g->b = b;
		g->cap = cap;
	}
	memcpy(g->b + g->n, s, n);
	g->n += n;
	g->b[g->n] = 0;
	return true;
}

char *sl_rta_workgen(const char *buf, size_t len, size_t *outlen)
{
	struct grow g = {NULL, 0, 0};
	const char *cur = "", *p = buf, *end = buf + len;
	size_t curlen = 0;
	int taskobj = 0;

	if (!put(&g, "", 0))
		return NULL;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl + 1 : end, *colon = memchr(p, ':', (size_t)(le - p));
		const char *kb = p, *ke = colon ? colon : le, *at = NULL;
		bool bare = false;

		if (!colon && has(p, le, "suspend")) {
			kb = "suspend";
			bare = true;
		} else if (!colon) {
			kb = "exception";
		}
		if (!colon)
			ke = kb + strlen(kb);
		strip_set(&kb, &ke, "\"\t\n\r ");
		if (taskobj != 0 || has(kb, ke, "tasks")) {
			if (has(p, le, "{") && ++taskobj == 2) {
				cur = kb;
				curlen = (size_t)(ke - kb);
			}
			if (has(p, le, "}"))
				taskobj--;
			if (bare) {
				at = memchr(p, ',', (size_t)(le - p));
				if (!at)
					at = nl;
			}
		}
		if (at && !(put(&g, p, (size_t)(at - p)) && put(&g, " : \"", 4) &&
			    put(&g, cur, curlen) && put(&g, "\"", 1)))
			goto fail;
		if (at)
			p = at;
		if (!put(&g, p, (size_t)(le - p)))
			goto fail;
		p = le;
	}
	*outlen = g.n;
	return g.b;
fail:
	free(g.b);
	return NULL;
}

int sl_rta_parse(const char *path, const char *buf, size_t len, struct rta_file *f, char *err,
		 size_t errlen)
{
	struct sl_json_doc d;
	struct ctx c = {.path = path, .d = &d, .f = f, .err = err, .errlen = errlen};
	const struct sl_json *root, *tasks = NULL, *global = NULL;
	const char *def_policy = "SCHED_OTHER";
	int def_line = 0, rc = -1;
	size_t wglen;
	char e[256], *wg;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->duration_s = -1;
	f->max_cpu = -1;
	snprintf(f->log_basename, sizeof(f->log_basename), "rt-app");
	/* read as rt-app's workgen rewrites it (a bare "suspend" names the task) */
	wg = sl_rta_workgen(buf, len, &wglen);
	if (!wg) {
		snprintf(err, errlen, "%s: out of memory (or larger than %u bytes)", path,
			 SL_JSON_MAX_SIZE);
		return -1;
	}
	rc = sl_json_parse(wg, wglen, &d, e, sizeof(e));
	free(wg);
	if (rc) {
		snprintf(err, errlen, "%s:%s", path, e);
		return -1;
	}
	rc = -1;
	root = &d.nodes[0];
	if (root->type != SL_JSON_OBJECT) {
		bad(&c, root->line, "expected an object with \"tasks\" at the top level");
		goto out;
	}
	for (const struct sl_json *m = node(&c, root->first); m; m = node(&c, m->next)) {
		const struct sl_json *prev = !strcmp(m->key, "tasks")	 ? tasks
					     : !strcmp(m->key, "global") ? global
									 : NULL;

		/* json-c, which rt-app reads with, keeps the last: a file meant either */
		if (prev) {
			bad(&c, line_of(m), "\"%s\" given twice (first on line %d)", m->key,
			    line_of(prev));
			goto out;
		}
		if (!strcmp(m->key, "tasks"))
			tasks = m;
		else if (!strcmp(m->key, "global"))
			global = m;
		else if (strcmp(m->key, "resources")) {
			bad(&c, line_of(m),
			    "unknown top-level key \"%s\" (valid: tasks, global, resources)",
			    m->key);
			goto out;
		}
	}
	if (global && parse_global(&c, global, &def_policy, &def_line))
		goto out;
	if (!tasks) {
		bad(&c, root->line, "no \"tasks\" object (rt-app needs one)");
		goto out;
	}
	if (tasks->type != SL_JSON_OBJECT || !tasks->nchild) {
		bad(&c, line_of(tasks), "\"tasks\": expected an object of one or more tasks");
		goto out;
	}
	f->tasks = calloc((size_t)tasks->nchild, sizeof(*f->tasks));
	if (!f->tasks) {
		bad(&c, root->line, "out of memory");
		goto out;
	}
	for (const struct sl_json *t = node(&c, tasks->first); t; t = node(&c, t->next)) {
		for (int k = 0; k < f->ntasks; k++)
			if (!strcmp(f->tasks[k].name, t->key)) {
				bad(&c, line_of(t), "task \"%s\" defined twice", t->key);
				goto out;
			}
		if (parse_task(&c, t, &f->tasks[f->ntasks++], def_policy, def_line) ||
		    check_advances(&c, &f->tasks[f->ntasks - 1]))
			goto out;
	}
	/* a barrier's users: every thread instance that reaches it */
	f->barrier_users = calloc((size_t)f->barriers.n + 1, sizeof(int));
	if (!f->barrier_users) {
		bad(&c, root->line, "out of memory");
		goto out;
	}
	for (int i = 0; i < f->ntasks; i++)
		for (int p = 0; p < f->tasks[i].nph; p++)
			for (int k = 0; k < f->tasks[i].ph[p].nev; k++)
				if (f->tasks[i].ph[p].ev[k].kind == RTA_BARRIER)
					f->barrier_users[f->tasks[i].ph[p].ev[k].ref] +=
						(int)f->tasks[i].instance;
	rc = 0;
out:
	sl_json_free(&d);
	if (rc)
		sl_rta_free(f);
	return rc;
}

int sl_rta_load(const char *path, struct rta_file *f, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc;

	memset(f, 0, sizeof(*f));
	if (!fp) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(SL_JSON_MAX_SIZE + 1);
	if (!buf) {
		fclose(fp);
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	n = fread(buf, 1, SL_JSON_MAX_SIZE + 1, fp);
	if (ferror(fp)) { /* a directory opens, and reads as EISDIR */
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno ? errno : EIO));
		rc = -1;
	} else if (n > SL_JSON_MAX_SIZE) {
		snprintf(err, errlen, "%s: larger than %u bytes (limit SL_JSON_MAX_SIZE)", path,
			 SL_JSON_MAX_SIZE);
		rc = -1;
	} else {
		rc = sl_rta_parse(path, buf, n, f, err, errlen);
	}
	free(buf);
	fclose(fp);
	return rc;
}

static void names_free(struct rta_names *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
}

void sl_rta_free(struct rta_file *f)
{
	for (int i = 0; i < f->ntasks; i++) {
		for (int p = 0; p < f->tasks[i].nph; p++)
			free(f->tasks[i].ph[p].ev);
		free(f->tasks[i].ph);
	}
	free(f->tasks);
	names_free(&f->mutexes);
	names_free(&f->conds);
	names_free(&f->timers);
	names_free(&f->barriers);
	free(f->barrier_users);
	memset(f, 0, sizeof(*f));
}
