#include "core/suggest.h"
#include "workload/workload.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sl_workload_ops *find(const char *name, size_t n)
{
	for (int i = 0; i < sl_nworkloads; i++)
		if (strlen(sl_workloads[i]->name) == n && !strncmp(sl_workloads[i]->name, name, n))
			return sl_workloads[i];
	return NULL;
}

static void list_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < sl_nworkloads; i++)
		sl_append(buf, len, &off, "%s%s", i ? ", " : "", sl_workloads[i]->name);
}

/* `start` is a key of every workload: when its tasks are created. */
static const struct sl_wl_key start_key = {"start", "0s", "when the tasks are created"};
/* `uid` too: the tasks' user, whose task group they join under --param group_sched=1 (1000: a
 * desktop's first user; uid 0 is root's group, with twice the shares) */
static const struct sl_wl_key uid_key = {
	"uid", "1000", "the tasks' user id (their task group with group_sched=1)"};

static const struct sl_wl_key *find_key(const struct sl_workload_ops *ops, const char *k, size_t n)
{
	for (int i = 0; i < ops->nkeys; i++)
		if (strlen(ops->keys[i].name) == n && !strncmp(ops->keys[i].name, k, n))
			return &ops->keys[i];
	if (n == 5 && !strncmp(k, "start", 5))
		return &start_key;
	if (n == 3 && !strncmp(k, "uid", 3))
		return &uid_key;
	return NULL;
}

int sl_workload_parse(const char *spec, struct sl_workload_inst *out, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	const struct sl_workload_ops *ops = find(spec, nlen);
	struct sl_kv kv;
	char names[256];

	memset(out, 0, sizeof(*out));
	if (!ops) {
		struct sl_suggest sg;
		char hint[128];

		sl_suggest_init(&sg, spec, nlen);
		for (int i = 0; i < sl_nworkloads; i++)
			sl_suggest_add(&sg, sl_workloads[i]->name);
		list_names(names, sizeof(names));
		snprintf(err, errlen, "--workload '%s': unknown workload '%.*s'%s (valid: %s)",
			 spec, (int)nlen, spec, sl_suggest_text(&sg, hint, sizeof(hint)), names);
		return -1;
	}
	if (strlen(spec) >= sizeof(out->spec)) {
		snprintf(err, errlen, "--workload: specification too long");
		return -1;
	}
	/* defaults first, then the given keys, each at most once */
	bool given[SL_WL_MAX_KEYS] = {false};

	memset(&kv, 0, sizeof(kv));
	for (int i = 0; i < ops->nkeys; i++) {
		kv.key[kv.n] = ops->keys[i].name;
		snprintf(kv.val[kv.n], sizeof(kv.val[0]), "%s", ops->keys[i].def);
		kv.n++;
	}
	kv.key[kv.n] = start_key.name;
	snprintf(kv.val[kv.n], sizeof(kv.val[0]), "%s", start_key.def);
	kv.n++;
	kv.key[kv.n] = uid_key.name;
	snprintf(kv.val[kv.n], sizeof(kv.val[0]), "%s", uid_key.def);
	kv.n++;
	for (const char *p = colon ? colon + 1 : NULL; p && *p;) {
		size_t n = strcspn(p, ",");
		const char *eq = memchr(p, '=', n);

		if (!eq) {
			snprintf(err, errlen, "--workload %s: '%.*s' is not KEY=VALUE", ops->name,
				 (int)n, p);
			return -1;
		}
		const struct sl_wl_key *k = find_key(ops, p, (size_t)(eq - p));

		if (!k) {
			size_t off = 0;
			struct sl_suggest sg;
			char hint[128];

			sl_suggest_init(&sg, p, (size_t)(eq - p));
			names[0] = '\0';
			for (int i = 0; i < ops->nkeys; i++) {
				sl_append(names, sizeof(names), &off, "%s, ", ops->keys[i].name);
				sl_suggest_add(&sg, ops->keys[i].name);
			}
			sl_suggest_add(&sg, start_key.name);
			sl_suggest_add(&sg, uid_key.name);
			snprintf(err, errlen,
				 "--workload %s: unknown key '%.*s'%s (valid: %sstart, uid)",
				 ops->name, (int)(eq - p), p,
				 sl_suggest_text(&sg, hint, sizeof(hint)), names);
			return -1;
		}
		size_t vlen = n - (size_t)(eq - p) - 1;

		if (vlen == 0) {
			snprintf(err, errlen, "--workload %s: key '%s' needs a value", ops->name,
				 k->name);
			return -1;
		}
		/* a value too long for its buffer is not a missing value: say which it is */
		if (vlen >= sizeof(kv.val[0])) {
			snprintf(err, errlen,
				 "--workload %s: key '%s': value too long (at most %zu characters)",
				 ops->name, k->name, sizeof(kv.val[0]) - 1);
			return -1;
		}
		for (int i = 0; i < kv.n; i++) {
			if (strcmp(kv.key[i], k->name))
				continue;
			/* hog:tasks=1,tasks=2 means one of them: which is a guess */
			if (given[i]) {
				snprintf(err, errlen, "--workload %s: key '%s' given twice",
					 ops->name, k->name);
				return -1;
			}
			given[i] = true;
			memcpy(kv.val[i], eq + 1, vlen);
			kv.val[i][vlen] = '\0';
		}
		p += n;
		if (*p == ',')
			p++;
	}
	char e[200];

	if (sl_parse_duration(sl_kv_get(&kv, "start"), &out->start, e, sizeof(e))) {
		snprintf(err, errlen, "--workload %s: start: %s", ops->name, e);
		return -1;
	}
	long uid;

	if (sl_kv_int(&kv, "uid", 0, 2147483647L, &uid, e, sizeof(e))) {
		snprintf(err, errlen, "--workload %s: %s", ops->name, e);
		return -1;
	}
	out->uid = (int)uid;
	out->args = ops->parse(&kv, e, sizeof(e));
	if (!out->args) {
		snprintf(err, errlen, "--workload %s: %s", ops->name, e);
		return -1;
	}
	out->ops = ops;
	snprintf(out->spec, sizeof(out->spec), "%s", spec);
	return 0;
}

void sl_workload_inst_free(struct sl_workload_inst *w)
{
	if (w->ops && w->ops->free_args)
		w->ops->free_args(w->args);
	else
		free(w->args);
	w->args = NULL;
}

bool sl_wl_always_finite(const void *args)
{
	(void)args;
	return true;
}

const char *sl_kv_get(const struct sl_kv *kv, const char *key)
{
	for (int i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], key))
			return kv->val[i];
	return "";
}

int sl_kv_int(const struct sl_kv *kv, const char *key, long min, long max, long *out, char *err,
	      size_t errlen)
{
	s64 v;
	char e[160];
	int rc = sl_parse_s64(sl_kv_get(kv, key), &v, e, sizeof(e));

	if (rc == SL_PARSE_RANGE) {
		snprintf(err, errlen, "%s=%s is out of range [%ld, %ld]", key, sl_kv_get(kv, key),
			 min, max);
		return -1;
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", key, e);
		return -1;
	}
	if (v < min || v > max) {
		snprintf(err, errlen, "%s=%lld is out of range [%ld, %ld]", key, (long long)v, min,
			 max);
		return -1;
	}
	*out = (long)v;
	return 0;
}

int sl_kv_dist(const struct sl_kv *kv, const char *key, struct sl_dist *out, char *err,
	       size_t errlen)
{
	char e[200];

	if (sl_dist_parse(sl_kv_get(kv, key), out, e, sizeof(e))) {
		snprintf(err, errlen, "%s: %s", key, e);
		return -1;
	}
	return 0;
}

int sl_kv_fixed(const struct sl_kv *kv, const char *key, u64 *out, char *err, size_t errlen)
{
	struct sl_dist d;

	if (sl_kv_dist(kv, key, &d, err, errlen))
		return -1;
	if (d.kind != SL_DIST_FIXED) {
		snprintf(err, errlen, "%s: expected a fixed duration, not a distribution", key);
		return -1;
	}
	*out = d.a;
	return 0;
}

int sl_kv_policy(const struct sl_kv *kv, const char *key, int *out, char *err, size_t errlen)
{
	const char *v = sl_kv_get(kv, key);

	if (!strcmp(v, "normal"))
		*out = SL_SCHED_NORMAL;
	else if (!strcmp(v, "batch"))
		*out = SL_SCHED_BATCH;
	else if (!strcmp(v, "idle"))
		*out = SL_SCHED_IDLE;
	else if (!strcmp(v, "fifo"))
		*out = SL_SCHED_FIFO;
	else if (!strcmp(v, "rr"))
		*out = SL_SCHED_RR;
	else if (!strcmp(v, "iso"))
		*out = SL_SCHED_ISO; /* BFS's SCHED_ISO: refused by the other releases */
	else {
		snprintf(err, errlen, "%s='%s': expected normal, batch, idle, fifo, rr or iso", key,
			 v);
		return -1;
	}
	return 0;
}

int sl_kv_rt_priority(const struct sl_kv *kv, const char *key, int policy, int *out, char *err,
		      size_t errlen)
{
	bool rt = policy == SL_SCHED_FIFO || policy == SL_SCHED_RR;
	long v;

	if (sl_kv_int(kv, key, 0, 99, &v, err, errlen))
		return -1;
	/* sched_setscheduler: 1..99 for the RT policies, 0 for the others (else -EINVAL) */
	if (rt && v < 1) {
		snprintf(err, errlen, "policy=%s needs %s=1..99", sl_kv_get(kv, "policy"), key);
		return -1;
	}
	if (!rt && v) {
		snprintf(err, errlen, "%s=%ld: only policy=fifo or rr takes a priority (%s=0)", key,
			 v, key);
		return -1;
	}
	*out = (int)v;
	return 0;
}

struct sl_prog *sl_prog_new(struct sl_sim *sim, struct sl_group *g, const char *comm, int nice,
			    int policy)
{
	struct sl_prog *p = calloc(1, sizeof(*p));
	struct sl_prog **a = p ? realloc(g->progs, sizeof(*a) * (size_t)(g->nprogs + 1)) : NULL;

	if (!a) {
		free(p);
		sim->oom = true;
		return NULL;
	}
	g->progs = a;
	g->progs[g->nprogs++] = p;
	snprintf(p->comm, sizeof(p->comm), "%s", comm);
	p->nice = nice;
	p->policy = policy;
	return p;
}

int sl_prog_add(struct sl_sim *sim, struct sl_prog *p, enum sl_op op, struct sl_dist d, int arg,
		int arg2, const struct sl_prog *child)
{
	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 8;
		struct sl_step *s = realloc(p->steps, sizeof(*s) * (size_t)cap);

		if (!s) {
			sim->oom = true;
			return -1;
		}
		p->steps = s;
		p->cap = cap;
	}
	struct sl_step *st = &p->steps[p->n++];

	st->op = op;
	st->d = d;
	st->arg = arg;
	st->arg2 = arg2;
	st->child = child;
	return 0;
}

int sl_prog_fork(struct sl_sim *sim, struct sl_prog *p, const struct sl_prog *child)
{
	if (sl_prog_run(sim, p, sl_dist_fixed(sl_machine_of(sim)->p->fork_ns)))
		return -1;
	return sl_prog_add(sim, p, OP_FORK, sl_dist_fixed(0), 0, 0, child);
}

int sl_prog_exit(struct sl_sim *sim, struct sl_prog *p)
{
	if (sl_prog_run(sim, p, sl_dist_fixed(sl_machine_of(sim)->p->exit_ns)))
		return -1;
	return sl_prog_add(sim, p, OP_EXIT, sl_dist_fixed(0), 0, 0, NULL);
}

int sl_group_mutexes(struct sl_sim *sim, struct sl_group *g, int n)
{
	g->mutexes = calloc((size_t)n, sizeof(*g->mutexes));
	if (!g->mutexes) {
		sim->oom = true;
		return -1;
	}
	g->nmutex = n;
	return 0;
}

int sl_spawn_pairs(struct sl_sim *sim, struct sl_group *g, const struct sl_pair_spec *ps)
{
	struct sl_prog *c = sl_prog_new(sim, g, ps->client_comm, ps->nice, SL_SCHED_NORMAL);
	struct sl_prog *s = sl_prog_new(sim, g, ps->server_comm, ps->nice, SL_SCHED_NORMAL);

	if (s && ps->server_uid >= 0) {
		s->uid = ps->server_uid;
		s->uid_root = ps->server_uid == 0;
	}
	struct sl_dist z = sl_dist_fixed(0);

	if (!c || !s)
		return -1;
	/* client: run, wake, think, wait; server: wait, run, wake */
	if (sl_prog_run(sim, c, ps->client) || sl_prog_add(sim, c, OP_WAKE, z, ps->sync, 0, NULL) ||
	    sl_prog_run(sim, c, ps->think) || sl_prog_add(sim, c, OP_WAIT, z, 0, 0, NULL) ||
	    sl_prog_add(sim, c, OP_LOOP, z, 0, (int)ps->count, NULL) || sl_prog_exit(sim, c))
		return -1;
	if (sl_prog_add(sim, s, OP_WAIT, z, 0, 0, NULL) || sl_prog_run(sim, s, ps->server) ||
	    sl_prog_add(sim, s, OP_WAKE, z, ps->sync, 0, NULL) ||
	    sl_prog_add(sim, s, OP_LOOP, z, 0, (int)ps->count, NULL) ||
	    (ps->server_exit_cost && sl_prog_exit(sim, s)))
		return -1;
	for (long i = 0; i < ps->pairs; i++) {
		struct sl_task *ct = sl_spawn(sim, g, c), *st = sl_spawn(sim, g, s);

		if (!ct || !st || !sl_task_ext(sim, ct) || !sl_task_ext(sim, st))
			return -1;
		ct->ext->peer = st;
		st->ext->peer = ct;
	}
	return 0;
}
