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

int sl_workload_parse(const char *spec, struct sl_workload_inst *out, char *err, size_t errlen)
{
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	const struct sl_workload_ops *ops = find(spec, nlen);
	struct sl_wl_common common;
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
	out->args = calloc(1, ops->args_size ? ops->args_size : 1);
	if (!out->args) {
		snprintf(err, errlen, "--workload %s: out of memory", ops->name);
		return -1;
	}
	out->ops = ops; /* its free_args frees what check() loaded, on an error too */
	const struct sl_wl_keyset sets[] = {
		{ops->keys, ops->nkeys, out->args},
		{sl_wl_common_keys, sl_wl_ncommon_keys, &common},
	};
	char e[200];

	if (sl_wl_keys_parse(ops->name, colon ? colon + 1 : NULL, sets, (int)SL_ARRAY_SIZE(sets),
			     err, errlen))
		goto fail;
	if (ops->check && ops->check(out->args, e, sizeof(e))) {
		snprintf(err, errlen, "--workload %s: %s", ops->name, e);
		goto fail;
	}
	out->start = common.start;
	out->uid = (int)common.uid;
	snprintf(out->spec, sizeof(out->spec), "%s", spec);
	return 0;
fail:
	sl_workload_inst_free(out);
	out->ops = NULL;
	return -1;
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
		sl_mtask(ct)->ext->peer = st;
		sl_mtask(st)->ext->peer = ct;
	}
	return 0;
}
