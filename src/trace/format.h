/*
 * Trace-format plug-ins: readers and writers behind ops structs, listed in
 * src/trace/registry.c. A reader turns one input (a file, "-" for stdin) into a stream of
 * records, one per event line, with the fields every known event carries already parsed; a
 * record that has a scheduling or idle meaning converts to the one event stream (struct
 * sl_event) with sl_trace_record_to_event(), which next_event does. Readers work in bounded
 * memory: strings of a record are copied (truncated) into fixed arrays, nothing is allocated per
 * record. A writer prints the event stream of a simulated run.
 */
#ifndef SCHEDLAB_TRACE_FORMAT_H
#define SCHEDLAB_TRACE_FORMAT_H

#include <schedlab/event.h>
#include <stdio.h>

#define SL_TRACE_COMM_LEN    64
#define SL_TRACE_NAME_LEN    48
#define SL_TRACE_MAX_LINE    4096
#define SL_TRACE_MAX_UNKNOWN 64
/*
 * What a real trace can hold, so that a hostile one cannot size the readers' tables: pids up to
 * the kernel's PID_MAX_LIMIT (4 M on 64-bit, include/linux/threads.h) and CPUs up to the
 * largest CONFIG_NR_CPUS (8192). A record beyond is a malformed line naming the limit.
 */
#define SL_TRACE_MAX_PID  SL_PID_MAX_LIMIT
#define SL_TRACE_MAX_CPUS 8192
#define SL_TRACE_ERR_LEN  512

enum sl_trace_kind {
	SL_TR_UNKNOWN,
	SL_TR_SCHED_SWITCH,
	SL_TR_SCHED_WAKEUP,
	SL_TR_SCHED_WAKEUP_NEW,
	SL_TR_SCHED_WAKING,
	SL_TR_SCHED_PROCESS_FORK,
	SL_TR_SCHED_PROCESS_EXEC,
	SL_TR_SCHED_PROCESS_EXIT,
	SL_TR_SCHED_MIGRATE_TASK,
	SL_TR_CPU_IDLE,
	SL_TR_CPU_IDLE_MISS,
	SL_TR_HRTIMER_START,
	SL_TR_HRTIMER_EXPIRE_ENTRY,
	SL_TR_HRTIMER_CANCEL,
	SL_TR_TICK_STOP,
	SL_TR_BLOCK_RQ_ISSUE,
	SL_TR_BLOCK_RQ_COMPLETE,
	SL_TR_IRQ_HANDLER_ENTRY,
	SL_TR_NR_KINDS
};

/* The event name as ftrace prints it ("sched_switch"); NULL for SL_TR_UNKNOWN. */
const char *sl_trace_kind_name(enum sl_trace_kind k);
enum sl_trace_kind sl_trace_kind_of(const char *name, size_t len);

struct sl_trace_record {
	/* the common columns */
	u64 time; /* ns of the trace clock */
	int cpu;
	int pid;
	char comm[SL_TRACE_COMM_LEN];
	char event[SL_TRACE_NAME_LEN];
	enum sl_trace_kind kind;
	unsigned long line; /* line number in the input */
	/* the flags column as printed ("dNh2.": irqs off, need_resched, hard/softirq, ...), ""
	 * when the line has none */
	char flags[9];

	/*
	 * The fields, by event. Tasks: sched_switch uses prev_* and next_*; the wake-ups, exit,
	 * migrate use task_*; fork uses task_* (parent) and next_* (child); exec uses task_pid
	 * (pid=), old_pid and str (filename).
	 */
	char task_comm[SL_TRACE_COMM_LEN];
	int task_pid, task_prio;
	char next_comm[SL_TRACE_COMM_LEN];
	int next_pid, next_prio;
	char prev_state[16]; /* sched_switch: "R", "R+", "S", "D|K", ... */
	int old_pid;
	int target_cpu;		       /* wakeups */
	int orig_cpu, dest_cpu;	       /* migrate */
	int state;		       /* cpu_idle, cpu_idle_miss: -1 = exit (4294967295) */
	int cpu_id;		       /* cpu_idle, cpu_idle_miss */
	bool below;		       /* cpu_idle_miss: type=below (else above) */
	u64 hrtimer;		       /* hrtimer_*: the id (pointer hash, hex) */
	u64 expires, softexpires, now; /* hrtimer_start; hrtimer_expire_entry (hrtimer clock) */
	int success;		       /* tick_stop; old sched_wakeup */
	int irq;		       /* irq_handler_entry */
	unsigned dev_major, dev_minor; /* block_rq_* */
	char rwbs[16];
	u64 sector;
	unsigned nr_sectors, bytes;
	int error; /* block_rq_complete */
	/* exec filename, hrtimer function, tick_stop dependency, irq name */
	char str[256];
};

/*
 * How many bytes of an input the generic layer reads before it picks a reader: the probes look
 * at them, and the chosen reader gets them with the stream (stdin cannot be rewound).
 */
#define SL_TRACE_PROBE_LEN 512

struct sl_trace_reader;

/*
 * A trace reader, one file per format, listed in src/trace/registry.c. The generic layer below
 * (sl_trace_open, src/trace/reader.c) opens the input, decompresses it when it is xz or gzip
 * (src/trace/input.c), shows its first bytes of text to the probes and hands the input to the
 * reader that claimed it, which reads it with sl_trace_read or sl_trace_line
 * (src/trace/input.h): no reader knows the compression.
 */
struct sl_trace_reader_ops {
	const char *name;
	/*
	 * true when the input is in this format; head holds its first len bytes, decompressed
	 * (at most SL_TRACE_PROBE_LEN; fewer when the input is shorter). Probed most specific
	 * first; the registry's fallback takes what no probe claims, so that its errors say what
	 * is wrong with the input.
	 */
	bool (*probe)(const unsigned char *head, size_t len);
	/*
	 * Start reading r's input (the generic layer's to close) from its beginning; head and len
	 * are what the probes saw. 0, or -1 with r->err set (close is called then too).
	 */
	int (*open)(struct sl_trace_reader *r, const unsigned char *head, size_t len);
	/* 1: a record, 0: end of input, -1: error (r->err: "file:line: what") */
	int (*next)(struct sl_trace_reader *r, struct sl_trace_record *out);
	/* the same as the event stream: the next record that has a struct sl_event meaning
	 * (NULL: sl_trace_next_event converts next's records with sl_trace_record_to_event) */
	int (*next_event)(struct sl_trace_reader *r, struct sl_event *ev);
	void (*close)(struct sl_trace_reader *r);
};

struct sl_trace_unknown {
	char name[SL_TRACE_NAME_LEN];
	u64 count;
};

/*
 * The C-states of one CPU as idlestat's trace file lists them (its MAXCSTATE of 16 per CPU):
 * name ("" where idlestat wrote "(null)": no such state) and target residency in us (-1: none);
 * and where its topology puts the CPU: cluster (the letter of "clusterA" minus 'A') and core
 * (the N of "\tcoreN", or the CPU's own number under a "\tcpuN" line), -1 when not listed.
 */
#define SL_TRACE_MAX_CSTATES 16
#define SL_TRACE_CSTATE_NAME 32

struct sl_trace_cstates {
	char name[SL_TRACE_MAX_CSTATES][SL_TRACE_CSTATE_NAME];
	int target_us[SL_TRACE_MAX_CSTATES];
	int cluster, core;
};

struct sl_trace_input;

struct sl_trace_reader {
	const struct sl_trace_reader_ops *ops;
	void *priv;
	FILE *f;
	bool close_f;		      /* f was opened here (not stdin, not the caller's stream) */
	struct sl_trace_input *input; /* f decompressed, as bytes or lines (src/trace/input.c) */
	char path[256];
	bool lenient; /* skip (and count) malformed lines instead of failing */

	/* from the header */
	int ncpu; /* #P:N (or trace-cmd's cpus=N), at most SL_TRACE_MAX_CPUS; 0: not given */
	bool have_entries;
	u64 entries_in_buffer, entries_written;
	/* idlestat's header: its C-states per CPU (cstates_ncpu of them), owned by the reader
	 * until close; NULL for other formats */
	const struct sl_trace_cstates *cstates;
	int cstates_ncpu;

	/* the last record's time and line: a record earlier than it is malformed */
	u64 last_time;
	unsigned long last_line;

	/* counts */
	unsigned long lines;
	u64 records;
	u64 malformed;	   /* skipped in lenient mode */
	u64 lost_events;   /* sum of M in "CPU:N [LOST M EVENTS]" */
	u64 lost_lines;	   /* how many such lines */
	u64 unknown;	   /* lines of an event not in enum sl_trace_kind */
	u64 unknown_other; /* unknown events beyond the table */
	int nunknown;
	struct sl_trace_unknown unknown_ev[SL_TRACE_MAX_UNKNOWN];

	char err[SL_TRACE_ERR_LEN];
};

/*
 * Opens `path` ("-": stdin) with `ops` (NULL: the reader whose probe recognises the input,
 * src/trace/registry.c). -1 with the reason in err.
 */
int sl_trace_open(struct sl_trace_reader *r, const struct sl_trace_reader_ops *ops,
		  const char *path, bool lenient, char *err, size_t errlen);
/* The same from an open stream (not closed by the reader); `name` stands for it in messages.
 * Lets a caller read a buffer (fmemopen), as the fuzz targets do. */
int sl_trace_open_stream(struct sl_trace_reader *r, const struct sl_trace_reader_ops *ops, FILE *f,
			 const char *name, bool lenient, char *err, size_t errlen);
int sl_trace_next(struct sl_trace_reader *r, struct sl_trace_record *out);
/* The next event of the stream: 1, 0 at the end, -1 on error (r->err). */
int sl_trace_next_event(struct sl_trace_reader *r, struct sl_event *ev);
void sl_trace_close(struct sl_trace_reader *r);

/* An overflowed ring buffer: entries-in-buffer < entries-written, or a LOST line. */
bool sl_trace_overflowed(const struct sl_trace_reader *r);

/*
 * The struct sl_event of a record: sched_switch, sched_wakeup, sched_wakeup_new,
 * sched_process_fork/exec/exit, sched_migrate_task, cpu_idle (also the old 2.6.3x
 * layouts). Groups are -1. false when the record has no such meaning.
 */
bool sl_trace_record_to_event(const struct sl_trace_record *rec, struct sl_event *ev);

/* ---- writers ---- */

#define SL_TRACE_MAX_EXTS 4

struct sl_sim;
struct sl_trace_writer;

/*
 * A trace writer, one file per format, listed in src/trace/registry.c. The generic layer
 * (sl_export_open, src/trace/export.c) picks it by the file's extension, creates the file (a
 * temporary renamed into place only for a complete run) and subscribes to the event stream; a
 * writer only prints to w->f.
 */
struct sl_trace_writer_ops {
	const char *name;
	/* the ends of a file name that pick this writer (".json"), up to the first NULL */
	const char *exts[SL_TRACE_MAX_EXTS];
	/* set up w->priv and write the header; 0, or -1 (out of memory) */
	int (*open)(struct sl_trace_writer *w);
	/* one event of the run, from the event-stream subscriber sl_export_event() */
	void (*write_event)(struct sl_trace_writer *w, const struct sl_event *ev);
	/* write the trailer (the run ended at w->sim->now) and free w->priv */
	void (*close)(struct sl_trace_writer *w);
};

struct sl_trace_writer {
	const struct sl_trace_writer_ops *ops;
	void *priv;
	FILE *f;		  /* what the writer prints to */
	const struct sl_sim *sim; /* the run: its CPUs, tasks and idle states */
};

/* For the writers: a simulated pid's comm and the kernel's prio (pid 0: the swapper). */
const char *sl_trace_writer_comm(const struct sl_trace_writer *w, int pid);
int sl_trace_writer_prio(const struct sl_trace_writer *w, int pid);

#endif
