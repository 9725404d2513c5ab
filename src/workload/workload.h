/*
 * Workloads are plug-ins described as data (fio's habit): NAME:key=val,... Each workload declares
 * its keys as typed rows (struct sl_wl_key: name, type, offset in its argument struct, bounds,
 * default, help); one parser (sl_wl_keys_parse, keys.c) checks every key against the rows (an
 * unknown key is an error listing the valid ones), fills the defaults and converts each value into
 * the struct the framework allocated from the workload's args_size. The workload's check() then
 * does what rows cannot (a rule across keys, loading a file), and spawn() builds task programs and
 * creates the tasks. One file and one registry line per workload.
 */
#ifndef SCHEDLAB_WORKLOAD_H
#define SCHEDLAB_WORKLOAD_H

#include "machine/machine.h"

#include <stdio.h>
#include <stddef.h>

/* the most keys of a workload, those of every workload (start, uid) included */
#define SL_WL_MAX_KEYS 32
/* a value's longest text plus its NUL: the size of a SL_WL_STR field */
#define SL_WL_VALUE_MAX 96

/* The type of a key's value, which is also the C type of its field. */
enum sl_wl_type {
	SL_WL_INT,  /* long: a decimal integer within [min, max] */
	SL_WL_BOOL, /* bool: 0 or 1 */
	SL_WL_TIME, /* u64 ns: one duration with its unit (10ms, fixed:10ms), no distribution */
	SL_WL_DIST, /* struct sl_dist: a duration or a distribution (exp:1ms) */
	SL_WL_SIZE, /* u64 bytes as fio writes them (512, 4k, 1m); a multiple of step, at least min,
		     * at most max (0: no bound) */
	SL_WL_ENUM, /* int: the value of the named choice */
	SL_WL_STR,  /* char[SL_WL_VALUE_MAX]: the text as given */
	SL_WL_CPUS, /* u64: a list of CPUs 0-63 (1-15, 0,2,4-6), bit c for CPU c; empty: 0 */
	SL_WL_FILE, /* as SL_WL_STR, a file's path (the completions offer files) */
	SL_WL_DIR,  /* as SL_WL_STR, a directory's path (the completions offer directories) */
};

/* One name an SL_WL_ENUM key takes and the value it stores; a table ends with {NULL, 0}. */
struct sl_wl_choice {
	const char *name;
	int value;
};

struct sl_tw_costs;
struct json_object;

struct sl_wl_key {
	const char *name;
	enum sl_wl_type type;
	size_t offset; /* of the field in the workload's argument struct */
	s64 min, max;  /* SL_WL_INT, SL_WL_SIZE */
	s64 step;      /* SL_WL_SIZE: the value is a multiple of it (0: any) */
	const char *def;
	const char *help;
	const struct sl_wl_choice *choices; /* SL_WL_ENUM */
};

/*
 * offsetof(st, f), refused at compile time unless f has the C type of the key's type: a row cannot
 * write a long into an int.
 */
#define SL_WL_FIELD(st, f, ctype) _Generic(&((st *)0)->f, ctype * : offsetof(st, f))
#define SL_WL_STRING(st, f)	  _Generic(&((st *)0)->f, char(*)[SL_WL_VALUE_MAX] : offsetof(st, f))
#define SL_WL_KEY_INT(name, st, f, min, max, def, help)                                            \
	{                                                                                          \
		name, SL_WL_INT, SL_WL_FIELD(st, f, long), min, max, 0, def, help, NULL            \
	}
#define SL_WL_KEY_BOOL(name, st, f, def, help)                                                     \
	{                                                                                          \
		name, SL_WL_BOOL, SL_WL_FIELD(st, f, bool), 0, 1, 0, def, help, NULL               \
	}
#define SL_WL_KEY_TIME(name, st, f, def, help)                                                     \
	{                                                                                          \
		name, SL_WL_TIME, SL_WL_FIELD(st, f, u64), 0, 0, 0, def, help, NULL                \
	}
#define SL_WL_KEY_DIST(name, st, f, def, help)                                                     \
	{                                                                                          \
		name, SL_WL_DIST, SL_WL_FIELD(st, f, struct sl_dist), 0, 0, 0, def, help, NULL     \
	}
#define SL_WL_KEY_SIZE(name, st, f, min, max, step, def, help)                                     \
	{                                                                                          \
		name, SL_WL_SIZE, SL_WL_FIELD(st, f, u64), min, max, step, def, help, NULL         \
	}
#define SL_WL_KEY_ENUM(name, st, f, choices, def, help)                                            \
	{                                                                                          \
		name, SL_WL_ENUM, SL_WL_FIELD(st, f, int), 0, 0, 0, def, help, choices             \
	}
#define SL_WL_KEY_STR(name, st, f, def, help)                                                      \
	{                                                                                          \
		name, SL_WL_STR, SL_WL_STRING(st, f), 0, 0, 0, def, help, NULL                     \
	}
#define SL_WL_KEY_FILE(name, st, f, def, help)                                                     \
	{                                                                                          \
		name, SL_WL_FILE, SL_WL_STRING(st, f), 0, 0, 0, def, help, NULL                    \
	}
#define SL_WL_KEY_DIR(name, st, f, def, help)                                                      \
	{                                                                                          \
		name, SL_WL_DIR, SL_WL_STRING(st, f), 0, 0, 0, def, help, NULL                     \
	}
#define SL_WL_KEY_CPUS(name, st, f, def, help)                                                     \
	{                                                                                          \
		name, SL_WL_CPUS, SL_WL_FIELD(st, f, u64), 0, 0, 0, def, help, NULL                \
	}

/* The rows of one argument struct, and where that struct is. */
struct sl_wl_keyset {
	const struct sl_wl_key *keys;
	int n;
	void *dst;
};

/*
 * The one parser of workload keys: text ("key=val,...", NULL or "" for none) against the rows of
 * sets, in order; every row's field is set, from its value or its default. 0, or -1 with err
 * ("--workload NAME: ..." naming the key and what was expected).
 */
int sl_wl_keys_parse(const char *name, const char *text, const struct sl_wl_keyset *sets, int nsets,
		     char *err, size_t errlen);
/* The keys every workload has (start, uid), after its own in listings, and their fields. */
struct sl_wl_common {
	u64 start;
	long uid;
};
extern const struct sl_wl_key sl_wl_common_keys[];
extern const int sl_wl_ncommon_keys;
/* normal, batch, idle, fifo, rr, iso: the values of a `policy` key (SL_SCHED_*) */
extern const struct sl_wl_choice sl_wl_policies[];
/* sched_setscheduler's rule: 1..99 for fifo / rr, 0 for the others (err names the keys) */
int sl_wl_check_rtprio(int policy, long rtprio, char *err, size_t errlen);
/*
 * The four keys of a task's scheduling policy, in this order, for a workload whose args struct T
 * has long nice, int policy, long rtprio and u64 runtime (hog, periodic): one definition, so
 * that their bounds and help cannot drift apart.
 */
#define SL_WL_TASK_POLICY_KEYS(T)                                                                  \
	SL_WL_KEY_INT("nice", T, nice, -20, 19, "0", "nice value, -20..19"),                       \
		SL_WL_KEY_ENUM("policy", T, policy, sl_wl_policies, "normal",                      \
			       "normal, batch, idle, fifo or rr (SCHED_*)"),                       \
		SL_WL_KEY_INT("rtprio", T, rtprio, 0, 99, "0",                                     \
			      "SCHED_FIFO / SCHED_RR priority, 1..99 (policy=fifo or rr only)"),   \
		SL_WL_KEY_TIME("runtime", T, runtime, "0s",                                        \
			       "sched_setattr sched_runtime: the 6.18 custom slice (clamped to "   \
			       "0.1-100 ms; 0s: the base slice); 2.6.3x ignore it")

struct sl_workload_ops {
	const char *name;
	const char *help;
	const struct sl_wl_key *keys;
	int nkeys;
	/* the argument struct the keys fill (the framework allocates it zeroed) */
	size_t args_size;
	/* what the rows cannot check (a rule across keys, a file to load): 0, or -1 with err;
	 * NULL: nothing */
	int (*check)(void *args, char *err, size_t errlen);
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
	 * report_json_key of the group's JSON object (NULL: none for this group; a NULL key: the
	 * object's members are added to the group's object as they are); NULL: none */
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
