/*
 * Workloads are plug-ins described as data (fio's habit): NAME:key=val,... The framework checks
 * every key against the workload's table (an unknown key is an error listing the valid ones) and
 * fills defaults; the workload's parse() turns values into its own argument struct, and spawn()
 * builds task programs and creates the tasks. One file and one registry line per workload.
 */
#ifndef SCHEDLAB_WORKLOAD_H
#define SCHEDLAB_WORKLOAD_H

#include "machine/machine.h"

#include <stdio.h>

#define SL_WL_MAX_KEYS 16

struct sl_tw_costs;
struct json_object;

struct sl_wl_key {
	const char *name;
	const char *def;
	const char *help;
};

struct sl_kv {
	int n;
	const char *key[SL_WL_MAX_KEYS];
	char val[SL_WL_MAX_KEYS][96];
};

struct sl_workload_ops {
	const char *name;
	const char *help;
	const struct sl_wl_key *keys;
	int nkeys;
	/* returns an args object (malloc'ed) or NULL with err set */
	void *(*parse)(const struct sl_kv *kv, char *err, size_t errlen);
	int (*spawn)(struct sl_sim *sim, struct sl_group *g, const void *args);
	bool (*finite)(const void *args);
	/* frees an args object that owns more than its own block (NULL: free()) */
	void (*free_args)(void *args);
	/*
	 * An upper bound on the tasks it creates over the whole run (pids are never reused, so
	 * dead tasks count), so that a spec asking for millions is refused before anything is
	 * allocated; NULL: only the run-time cap in new_task() applies.
	 */
	u64 (*max_tasks)(const void *args);
	/* the task policies its tasks ask for (SL_POLICY_BIT of enum sl_policy), checked against
	 * the release's before the run; NULL: none beyond SL_POLICIES_LINUX */
	unsigned (*policies)(const void *args);
	/* the run's length its own file asks for, in seconds (rt-app's global duration), taken
	 * when --duration is not given; NULL or -1: none */
	long (*duration_s)(const void *args);
	/* the machine it was recorded on, when it says (a trace's calibration: switch and cache
	 * costs, release, CPUs), which the run takes for what the user did not set; NULL: none */
	const struct sl_tw_costs *(*recorded)(const void *args);
	/* the comms of the tasks it replays, in its order, into *comms (malloc'ed, the caller
	 * frees it), for a report row per comm (a trace's tasks); the count, -1 when out of
	 * memory; NULL: its tasks are reported as the group only */
	int (*task_comms)(const void *args, const char ***comms);
	/* its own part of the run's report (rt-app's per-thread log figures), called for each of
	 * its groups: table lines after a heading printed once (*head), and the member
	 * report_json_key of the group's JSON object (NULL: none for this group); NULL: none */
	void (*report_table)(FILE *f, const struct sl_group *g, bool *head);
	const char *report_json_key;
	struct json_object *(*report_json)(const struct sl_group *g);
};

struct sl_workload_inst {
	const struct sl_workload_ops *ops;
	void *args;
	char spec[256];
	u64 start;
	int uid; /* the `uid` key of every workload: its tasks' owner (group scheduling) */
};

extern const struct sl_workload_ops *const sl_workloads[];
extern const int sl_nworkloads;

int sl_workload_parse(const char *spec, struct sl_workload_inst *out, char *err, size_t errlen);
void sl_workload_inst_free(struct sl_workload_inst *w);

/* finite() of a workload whose tasks always end */
bool sl_wl_always_finite(const void *args);

/* Helpers for parse(): each names the key in its error. */
const char *sl_kv_get(const struct sl_kv *kv, const char *key);
int sl_kv_int(const struct sl_kv *kv, const char *key, long min, long max, long *out, char *err,
	      size_t errlen);
int sl_kv_dist(const struct sl_kv *kv, const char *key, struct sl_dist *out, char *err,
	       size_t errlen);
/* a fixed duration (no distribution), e.g. sched_runtime */
int sl_kv_fixed(const struct sl_kv *kv, const char *key, u64 *out, char *err, size_t errlen);
int sl_kv_policy(const struct sl_kv *kv, const char *key, int *out, char *err, size_t errlen);
/* the RT priority of key for policy (read by sl_kv_policy): 1..99 for fifo / rr, else 0 */
int sl_kv_rt_priority(const struct sl_kv *kv, const char *key, int policy, int *out, char *err,
		      size_t errlen);

/* Program building (programs are owned by their group). */
struct sl_prog *sl_prog_new(struct sl_sim *sim, struct sl_group *g, const char *comm, int nice,
			    int policy);
int sl_prog_add(struct sl_sim *sim, struct sl_prog *p, enum sl_op op, struct sl_dist d, int arg,
		int arg2, const struct sl_prog *child);
static inline int sl_prog_run(struct sl_sim *sim, struct sl_prog *p, struct sl_dist d)
{
	return sl_prog_add(sim, p, OP_RUN, d, 0, 0, NULL);
}
/* fork() and exit() with their CPU costs (the fork_ns / exit_ns parameters) */
int sl_prog_fork(struct sl_sim *sim, struct sl_prog *p, const struct sl_prog *child);
int sl_prog_exit(struct sl_sim *sim, struct sl_prog *p);
int sl_group_mutexes(struct sl_sim *sim, struct sl_group *g, int n);

/*
 * A client and a server that wake each other `count` times over a pipe or a socket: the client
 * runs `client`, wakes the server, runs `think` and waits; the server waits, runs `server` and
 * wakes it. `pairs` such pairs are created; both exit after the last round (the server with the
 * exit cost only when server_exit_cost).
 */
struct sl_pair_spec {
	const char *client_comm, *server_comm;
	int nice;
	struct sl_dist client, server, think;
	int sync;
	long count, pairs;
	bool server_exit_cost;
	int server_uid; /* the server's user id; -1: the group's (uid key) */
};
int sl_spawn_pairs(struct sl_sim *sim, struct sl_group *g, const struct sl_pair_spec *ps);

#endif
