/*
 * The trace workload: a recorded trace (any format of the trace readers, .xz/.gz included)
 * turned into task programs, per task its CPU bursts, its sleeps by kind and who woke it, so
 * that a simulated waker that runs later also wakes later (closed loop). The design and what is
 * counted as unattributed: docs/workloads.md, "trace workload".
 */
#ifndef SCHEDLAB_WORKLOAD_TRACE_H
#define SCHEDLAB_WORKLOAD_TRACE_H

#include "trace/run_account.h"
#include "workload/workload.h"

#include <stdio.h>

/* What a task did, in trace order. */
enum sl_tw_kind {
	TW_RUN,	  /* CPU time ns (switch-in to blocking, preemptions summed) */
	TW_SLEEP, /* S, woken by its own hrtimer (hrtimer_wakeup) after ns */
	TW_OPEN,  /* S, woken by an interrupt with no timer of the task, or by nobody: ns, open loop
		   */
	TW_IO,	  /* D: uninterruptible, ns */
	TW_WAIT,  /* S, woken by task arg (an index) after ns */
	TW_WAKE,  /* wakes task arg; cost = 1 when the recorded wake-up went to another CPU, idle
		     then: the burst after it holds the recording machine's wake_ipi */
	TW_FORK,  /* forks task arg */
	TW_CIN,	  /* a switch-in at time ns (the trace's clock): arg = the CPU it last ran on (-1:
		     none), arg2 = this CPU, cost = 1 when another task ran on this CPU in between */
	TW_YIELD, /* switched out runnable with nothing that could preempt it: sched_yield() */
};

struct sl_tw_op {
	u64 ns;
	int arg;
	short arg2;
	unsigned char kind, cost;
};

struct sl_tw_task {
	int pid, parent, prio; /* parent: index of the forking task, -1: none traced */
	char comm[16];
	bool exited;
	u64 created; /* fork or first sched_wakeup_new, from the trace's start; 0: there at start */
	struct sl_tw_op *ops;
	int nops, cap;
	/* figures of the extraction */
	u64 cpu_ns, bursts, switch_in;
	u64 n_sleep, ns_sleep, n_wait, ns_wait, n_io, ns_io, n_open, ns_open;
	u64 wakes_given, forks, io_reqs;
	/* extraction state */
	int state, last_cpu, pre_cpu, pre_dep, woke; /* pre_dep, woke: task indexes */
	u64 woke_at;
	/* its wake-up's TW_WAKE (waker task index, -1: none, and op) until its sched_wakeup
	 * says where it went; the waker's CPU and the time of the sched_waking */
	int ipi_waker, ipi_op, ipi_from;
	u64 ipi_at;
	/* for SL_TW_HANDOFFS: its last blocking op (TW_SLEEP, TW_OPEN, TW_IO, TW_WAIT; -1:
	 * none), who ended its last block (a task index, -1: no task) and when */
	int last_block, woken_by;
	int last_cin, stretch_cin; /* its last TW_CIN, its first since last_block (-1: none) */
	/* a wake-up by task early_by traced while it still ran, at early_at: its WAKE op, and
	 * the hand-off's hold (-1: none) if its next switch-out blocks (trace.c, early()) */
	int early_by, early_wake, early_hold;
	u64 early_at;
	u64 unblocked_at;
	/* its wake-up in flight, for the idle wake-up latencies (trace_wake.c): 0 none, 1 its
	 * sched_waking seen on CPU lat_from at lat_at, 2 landed on CPU lat_cpu, idle since before
	 */
	int lat_state, lat_from, lat_cpu;
	u64 lat_at;
	/* the CPU its last wake-up landed on while it waits to run there (-1: none), and the CPU
	 * of an interrupt's wake-up of it whose landing is counted (-1: none; vcpu_pack_irq) */
	int queued_on, irq_pack_from;
	char block_kind;
	u64 run_since, block_since, last_seq;
	u64 flushed; /* the run account's CPU time of the task already in its RUNs */
};

/*
 * A task-to-task wake-up replayed as a lock hand-off (SL_TW_HANDOFFS): the wakee waits only
 * while the waker is between `hold` (the switch-in that began the waker's burst in progress, or
 * last run, when the wakee blocked: from there the waker had what the wakee waited for) and its
 * `wake`; a wakee that gets there before the waker reaches `hold` does not block, and that
 * wake-up is not made. docs/workloads.md, "Lock hand-offs".
 */
struct sl_tw_handoff {
	int waker, wakee; /* task indexes */
	int hold, wake;	  /* the waker's ops: where it holds (a TW_CIN, or 0), its TW_WAKE */
	int wait;	  /* the wakee's TW_WAIT */
};

/* Why a wake-up by a task is replayed as a fixed dependency rather than a hand-off */
struct sl_tw_fixed {
	u64 reply;     /* the waker was last woken by the wakee, in its burst or not run since */
	u64 waker_off; /* no switch-in of the waker traced since it last blocked */
	u64 one_way;   /* one wakes the other less than half as often as the reverse */
	u64 channel;   /* the pair's wake-ups (either way) are replies more often than holds */
};

/* What could not be attributed (each is replayed as said in docs/workloads.md) */
struct sl_tw_unattr {
	u64 irq_wake;	      /* S woken from an interrupt with no hrtimer of the task: open loop */
	u64 idle_wake;	      /* S woken from an idle CPU without a timer or interrupt: open loop */
	u64 no_wake;	      /* switched in while blocked, no wake-up seen: open loop */
	u64 missed_switch_in; /* a task seen running with no switch-in traced (from idle) */
	u64 missing_switch;   /* a switch-out or switch-in missing: a task on two CPUs */
	u64 first_burst; /* a burst begun before the trace: counted from the CPU's first record */
	u64 blocked_at_end; /* blocked when the trace ended: the sleep is dropped, the task exits */
	u64 wake_not_blocked; /* a wake-up of a task not blocked (ignored) */
	u64 rt_deadline;      /* prio < 0 (SCHED_DEADLINE): replayed as FIFO 99 */
};

/*
 * The recording machine's wake-up of an idle CPU, measured in the trace (trace_wake.c): from a
 * wake-up (sched_waking) to the wakee's switch-in on the CPU it landed on (sched_wakeup's
 * target_cpu), when that CPU was idle since before the wake-up. n below SL_TW_WAKE_MIN: not
 * measured (p50 and sd 0).
 */
#define SL_TW_WAKE_MIN 20
struct sl_tw_wake_lat {
	u64 n, p50, sd; /* sd: half the 16th-84th percentile spread, as calibrate's */
};

struct sl_tw {
	char path[256];
	struct sl_tw_task *t;
	int n, cap;
	u64 t0, tend, records, nops;
	int ncpu;
	bool have_waking;
	struct sl_tw_unattr un;
	/* the run account's corrections (run_account.h), the trace's lost events, pids whose
	 * task died and came back (a new task each), tasks never running (only woken) */
	struct sl_run_counts ra;
	u64 lost_events, pid_reuse, woken_only;
	/* sl_tw_cost_report: the recorded switch-ins' cost at the prices of cost_from, and the
	 * part beyond the bursts of cost_left_tasks tasks (a credit against their simulated
	 * switch-ins: struct sl_prog.switch_credit_ns) */
	char cost_from[512];
	u64 cost_ns, cost_left_ns;
	int cost_left_tasks;
	/* TW_WAKE ops marked as onto another, idle CPU; at the prices of cost_from, their IPIs'
	 * cost in the recorded bursts and the part beyond them (in ipi_left_bursts bursts) */
	u64 ipi_wakes, ipi_cost_ns, ipi_left_ns, ipi_left_bursts;
	/* wake-ups onto another, idle CPU (remote) and by an idle CPU's own interrupt (local) */
	struct sl_tw_wake_lat wake_remote, wake_local;
	/* interrupts' wake-ups of a task last on their idle CPU while another woken task waited
	 * there and another CPU was idle: how many, and how many stayed (vcpu_pack_irq) */
	u64 irq_pack_n, irq_pack_stay;
	u64 deps, timed, io, exec, exits;
	unsigned flags;
	u64 irq_window;	  /* ns: SL_TW_IRQ_WINDOW_NS unless irq_window= */
	u64 preempt_deps; /* SL_TW_PREEMPT_DEPS: WAKE/WAIT pairs added at preemptions */
	u64 yields;	  /* SL_TW_YIELDS: TW_YIELD ops */
	u64 early;	  /* wake-ups traced before the switch-out of the block they end */
	/* SL_TW_HANDOFFS: the wake-ups by a task replayed as hand-offs, and why the others
	 * (deps - nho) are not */
	struct sl_tw_handoff *ho;
	int nho, capho;
	struct sl_tw_fixed fixed;
	/* pid -> index (open addressing) */
	int *hk, *hv;
	size_t hcap, hn;
};

/*
 * A task preempted by the very task it just woke resumes only after that task blocked (a pipe's
 * writer preempted by the reader it woke then reads the reader's reply): `preempt=1`,
 * docs/workloads.md.
 */
#define SL_TW_PREEMPT_DEPS 1u

/*
 * A task switched out runnable (prev_state R) on a CPU where, since the last switch there,
 * nothing could have preempted it (no wake-up on or towards the CPU, no timer, no interrupt,
 * no migration to it) gave the CPU up itself: sched_yield(), replayed as a yield. `yield=1`,
 * docs/workloads.md.
 */
#define SL_TW_YIELDS 2u

/*
 * A wake-up by a task that the trace shows as the release of something the waker held (a
 * mutex's unlock waking a waiter) is a hand-off, not a fixed dependency: the wakee blocks only
 * if it gets there while the waker holds it. `handoff=1`, docs/workloads.md "Lock hand-offs".
 */
#define SL_TW_HANDOFFS 4u

/*
 * How long after an interrupt's entry on a CPU (irq_handler_entry, block_rq_complete, an
 * hrtimer other than hrtimer_wakeup) a wake-up there is taken as the interrupt's, not the
 * interrupted task's: the hardirq and the softirq it raises. The traces' flags column (h, s) is
 * not read, so this window separates them. 100 us: the shared dd capture's completions wake dd
 * 14 us after irq_handler_entry (docs/workloads.md).
 */
#define SL_TW_IRQ_WINDOW_NS 100000

/* Read `path` into tw: 0, or -1 with "file:line: what" (or "file: what") in err and nothing
 * held (sl_tw_free is harmless then). */
int sl_tw_extract(struct sl_tw *tw, const char *path, unsigned flags, u64 irq_window, char *err,
		  size_t errlen);
void sl_tw_free(struct sl_tw *tw);
/* What was extracted, as a table or JSON (trace_report.c); -1: out of memory. */
int sl_tw_report(const struct sl_tw *tw, bool json, FILE *f);
/* The tasks as an rt-app JSON file (trace_report.c); -1: a write error. */
int sl_tw_write_rtapp(const struct sl_tw *tw, FILE *f);
/* How a run's lock hand-offs, yields and waits went (the workload's report ops; nothing for a
 * group without): the table's lines, then each one's JSON */
struct json_object;
void sl_tw_run_table(FILE *f, const struct sl_group *g, bool *head);
struct json_object *sl_tw_run_json(const struct sl_group *g);
struct json_object *sl_tw_run_yields_json(const struct sl_group *g);
struct json_object *sl_tw_run_waits_json(const struct sl_group *g);

/*
 * The switch and cache costs of the machine the trace was recorded on (trace_costs.c): the
 * `param` lines of its calibration (ctx_switch, cache_refill, migrate_*, timer_slack, wake_ipi),
 * which the run takes for every --param not given (config.c). n == 0: none found.
 */
#define SL_TW_MAX_COSTS 16
struct sl_tw_costs {
	char path[512]; /* the machine.conf read ("": none) */
	int n;
	char param[SL_TW_MAX_COSTS][96]; /* "ctx_switch=3492ns" */
	char release[64];		 /* its kernel_release line ("": none) */
	int cpus;			 /* its cpus line (0: none) */
	char idle[32];			 /* its cpuidle_driver line ("": none) */
	/* the trace's own idle wake-up latencies (struct sl_tw), which the run takes as
	 * wake_remote and wake_local where neither this file nor --param sets them */
	struct sl_tw_wake_lat remote, local;
	/* and its interrupts' wake-ups that stayed (sl_tw.irq_pack_*): vcpu_pack_irq likewise */
	u64 irq_pack_n, irq_pack_stay;
};

/*
 * `calibration`: a calibrate directory or its machine.conf; "": T.machine.conf beside the trace
 * T (T without .xz/.gz), none when absent; "none": not looked for. 0, or -1 with err.
 */
int sl_tw_costs_load(struct sl_tw_costs *c, const char *trace, const char *calibration, char *err,
		     size_t errlen);
/* Where the costs of the trace T are kept beside it: T.machine.conf, T without .xz/.gz. */
void sl_tw_costs_path(char *buf, size_t len, const char *trace);

/*
 * The idle wake-up latencies in trace_wake.c: samples gathered during the extraction (ns, a
 * growing array), and their figures at its end.
 */
struct sl_tw_lat_acc {
	u64 *v;
	size_t n, cap;
};
int sl_tw_lat_push(struct sl_tw_lat_acc *a, u64 ns); /* -1: out of memory */
/* the figures of a's samples (sorts them; n < SL_TW_WAKE_MIN: not measured), a freed */
void sl_tw_lat_finish(struct sl_tw_lat_acc *a, struct sl_tw_wake_lat *w);

/*
 * The run's wake_remote/wake_remote_sd and wake_local/wake_local_sd from c's measured
 * latencies, each one unless set (set_mask: SL_TW_SET_*, by --param or c's file; a mean set
 * keeps its sd too). known: what the model already charges from a remote wake-up to the switch
 * on a halted CPU (the IPI and the idle state's exit latency), taken off the remote figure. 0,
 * or -1 with err.
 */
#define SL_TW_SET_REMOTE    1u
#define SL_TW_SET_REMOTE_SD 2u
#define SL_TW_SET_LOCAL	    4u
#define SL_TW_SET_LOCAL_SD  8u
#define SL_TW_SET_IRQ_PACK  16u
/* vcpu_pack_irq from a trace's counts (per 1000 stayed; 0: fewer than SL_TW_WAKE_MIN) */
u64 sl_tw_irq_pack_rate(u64 n, u64 stayed);
struct sl_params;
int sl_tw_wake_apply(struct sl_params *p, const struct sl_tw_costs *c, unsigned set_mask, u64 known,
		     char *err, size_t errlen);
/* a replay's switch price: ctx_switch_bare when measured (trace_costs.c) */
void sl_tw_bare_price(struct sl_params *p);
/* whether c's file sets param `name` */
bool sl_tw_costs_sets(const struct sl_tw_costs *c, const char *name);

/* The cost figures of tw at the prices of c (NULL or none: the model's defaults); -1: out of
 * memory. */
int sl_tw_cost_report(struct sl_tw *tw, const struct sl_tw_costs *c);

/* The trace workload's arguments: the extraction and the keys. */
struct sl_tw_args {
	struct sl_tw tw;
	struct sl_tw_costs costs;
	char file[SL_WL_VALUE_MAX];
	char tasks[SL_WL_VALUE_MAX]; /* POSIX extended regex on comm ("" = all) */
	char calibration[SL_WL_VALUE_MAX];
	bool sync, preempt, yield, handoff;
	u64 irq_window;
};

/*
 * The tasks of the extraction the workload replays (its tasks= regex on comm): sel[i] for each
 * of a->tw.n. Returns how many, or -1 when the regex does not compile (parse() refused it).
 */
int sl_tw_select(const struct sl_tw_args *a, bool *sel);

/* The recorded pid a task of a trace group runs for (-1: not a trace group's program). */
int sl_tw_orig_pid(const struct sl_group *g, const struct sl_prog *prog);

extern const struct sl_workload_ops sl_wl_trace;

#endif
