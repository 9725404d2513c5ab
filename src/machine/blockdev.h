/*
 * Block devices: disks with a request queue served in order, a service time of command
 * overhead + (seek for a non-sequential request) + bytes / media rate, and a completion
 * interrupt routed to a CPU (--irq-affinity: the issuing CPU, one CPU, or spread by disk). The
 * interrupt goes through the machine's dispatch, so a CPU in a C-state pays its exit latency
 * before the handler runs; the handler takes irq_ns of CPU time (charged to the task it
 * interrupts, as 2.6.31 accounted irq time) and then completes the request: a synchronous
 * waiter is woken, a libaio context gets an event.
 */
#ifndef SCHEDLAB_BLOCKDEV_H
#define SCHEDLAB_BLOCKDEV_H

#include "sched/sched.h"
#include "machine/mtask.h"

/* --irq-affinity: a CPU number, or one of these */
#define SL_IRQ_ISSUER (-1)
#define SL_IRQ_SPREAD (-2)
/* per controller (ctrl_disks disks each): every controller's line on CPU 0, as the IO-APIC
 * delivered in physflat mode without irqbalance (the "BIOS" routing) */
#define SL_IRQ_BIOS (-3)
/* per controller: controller c on the first thread of core c (irqbalance's placement) */
#define SL_IRQ_BALANCE (-4)

/* Block I/O: a request of a task, and a disk serving its queue in order. */
#define SL_BIO_RANDOM 0x1
#define SL_BIO_WRITE  0x2

struct sl_request {
	struct sl_task *owner;
	int disk;
	u64 bytes, sector;
	unsigned flags;
	u64 submit_time;
	int issue_cpu;
	int phase;	     /* 0: the interrupt is raised; 1: its handling is done */
	struct sl_timer irq; /* the completion interrupt on its CPU */
	struct sl_request *next;
	bool busy;
};

/* A task's block I/O (sl_task_io_init): one allocation, its requests after it. */
struct sl_task_io {
	u64 io_left; /* requests still to submit (UINT64_MAX: until the run ends) */
	u64 io_sector;
	u64 io_bytes, io_ops;
	int disk;
	int nreqs, inflight, reaped_pending;
	struct sl_request reqs[]; /* nreqs */
};

struct sl_disk {
	int id;
	struct sl_request *head, *tail; /* the queue */
	struct sl_request *active;
	u64 next_sector; /* where the head is: a request starting here needs no seek */
	struct sl_timer done;
	u64 busy_ns, busy_since, ops, bytes;
	/* hba_mbps: the active request's service left at the full rate, and since when (a
	 * time to come while the controller holds its path, hba_hold) */
	u64 left_ns, since;
	u64 hold_until; /* hba_hold: the controller's path stands still until then */
};

/* the task's block I/O (NULL: it has no request pool) */
static inline struct sl_task_io *sl_task_io(const struct sl_task *p)
{
	return sl_mtask(p)->ext ? sl_mtask(p)->ext->io : NULL;
}

/* Make sure disks 0..n-1 exist. */
int sl_disks_ensure(struct sl_sim *sim, int n);
void sl_disks_free(struct sl_sim *sim);
/* Give p a pool of `depth` requests on `disk`, `count` of them to submit (0: no end). */
int sl_task_io_init(struct sl_sim *sim, struct sl_task *p, int disk, int depth, u64 count);
/* Submit one request of p; false when p has nothing left to submit or no free request. */
bool sl_bio_submit(struct sl_sim *sim, struct sl_task *p, u64 bytes, unsigned flags);
u64 sl_disk_service_ns(const struct sl_sim *sim, const struct sl_disk *d,
		       const struct sl_request *r);
/* The CPU the request's completion interrupt goes to (--irq-affinity). */
int sl_irq_cpu(const struct sl_sim *sim, const struct sl_request *r);
/*
 * acpi_idle_bm_check: read the chipset-global BM_STS and clear it when set. It is set by any
 * bus-master (DMA) activity since the last clear: a disk transferring now, or one that started
 * or finished a transfer since.
 */
bool sl_bm_check(struct sl_sim *sim);
/*
 * hba_hold: the completion interrupt t waits until `until` for its CPU's C-state exit; when t
 * is a request's, its controller's transfers stand still until then.
 */
void sl_hba_irq_held(struct sl_sim *sim, struct sl_timer *t, u64 until);

#endif
