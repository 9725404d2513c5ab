#include "machine/blockdev.h"
#include "machine/machine.h"

#include <stdlib.h>
#include <string.h>

static void disk_done_fn(struct sl_sim *sim, struct sl_timer *t);
static void req_irq_fn(struct sl_sim *sim, struct sl_timer *t);

int sl_disks_ensure(struct sl_sim *sim, int n)
{
	struct sl_machine *m = sl_machine_of(sim);

	if (n <= m->ndisks)
		return 0;
	struct sl_disk *d = realloc(m->disks, sizeof(*d) * (size_t)n);

	if (!d) {
		sim->oom = true;
		return -1;
	}
	/* the timers are embedded: re-point any armed one at its new place */
	for (int i = 0; i < m->ndisks; i++)
		if (d[i].done.idx >= 0)
			sl_timerq_moved(&sim->q, &d[i].done);
	for (int i = m->ndisks; i < n; i++) {
		memset(&d[i], 0, sizeof(d[i]));
		d[i].id = i;
		sl_timer_init(&d[i].done, disk_done_fn, -1);
	}
	m->disks = d;
	m->ndisks = n;
	return 0;
}

void sl_disks_free(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);

	free(m->disks);
	m->disks = NULL;
	m->ndisks = 0;
}

int sl_task_io_init(struct sl_sim *sim, struct sl_task *p, int disk, int depth, u64 count)
{
	if (sl_disks_ensure(sim, disk + 1))
		return -1;
	struct sl_task_ext *x = sl_task_ext(sim, p);
	struct sl_task_io *io =
		x ? calloc(1, sizeof(*io) + sizeof(io->reqs[0]) * (size_t)depth) : NULL;

	if (!io) {
		sim->oom = true;
		return -1;
	}
	free(x->io);
	x->io = io;
	io->nreqs = depth;
	for (int i = 0; i < depth; i++) {
		sl_timer_init(&io->reqs[i].irq, req_irq_fn, -1);
		io->reqs[i].irq.irq = true;
	}
	io->disk = disk;
	io->io_left = count ? count : UINT64_MAX;
	return 0;
}

u64 sl_disk_service_ns(const struct sl_sim *sim, const struct sl_disk *d,
		       const struct sl_request *r)
{
	const struct sl_machine *m = sl_machine_of(sim);
	u64 t = m->p->disk_cmd_ns + r->bytes * 1000 / m->p->disk_mbps;

	if (r->sector != d->next_sector)
		t += m->p->disk_seek_ns;
	return t;
}

/*
 * hba_mbps: the disks of one controller (ctrl_disks of them) share its path. n transfers at
 * once each move at min(disk_mbps, hba_mbps / n), a processor-sharing server: a request's
 * service at the full rate (command and seek included: the model keeps one rate per request)
 * is consumed at that fraction of real time. Whenever n changes the progress so far is taken
 * at the old rate and every active request's end is moved to the new one.
 */
static void hba_range(const struct sl_sim *sim, int disk, int *lo, int *hi)
{
	const struct sl_machine *m = sl_machine_of(sim);
	int per = (int)m->p->ctrl_disks;

	*lo = disk / per * per;
	*hi = *lo + per < m->ndisks ? *lo + per : m->ndisks;
}

static int hba_active(const struct sl_sim *sim, int lo, int hi)
{
	int n = 0;

	for (int i = lo; i < hi; i++)
		n += sl_machine_of(sim)->disks[i].active != NULL;
	return n;
}

/* the real time `left` ns of full-rate service takes with n transfers sharing the path */
static u64 hba_stretch(const struct sl_sim *sim, u64 left, int n)
{
	u64 want = (u64)n * sl_machine_of(sim)->p->disk_mbps, cap = sl_machine_of(sim)->p->hba_mbps;

	/* 128 bits: a 1 GiB request on a slow path times a large controller passes 2^64 */
	unsigned __int128 t = ((unsigned __int128)left * want + cap - 1) / cap;

	return want <= cap ? left : t > UINT64_MAX / 2 ? UINT64_MAX / 2 : (u64)t;
}

/* the full-rate service done in `dt` ns of real time with n transfers sharing the path */
static u64 hba_progress(const struct sl_sim *sim, u64 dt, int n)
{
	u64 want = (u64)n * sl_machine_of(sim)->p->disk_mbps, cap = sl_machine_of(sim)->p->hba_mbps;

	return want <= cap ? dt : (u64)((unsigned __int128)dt * cap / want);
}

/* take the progress of the controller's active transfers up to now, at the rate they had */
static void hba_settle(struct sl_sim *sim, int disk)
{
	int lo, hi;

	hba_range(sim, disk, &lo, &hi);
	int n = hba_active(sim, lo, hi);

	for (int i = lo; i < hi; i++) {
		struct sl_disk *x = &sl_machine_of(sim)->disks[i];
		u64 done;

		if (!x->active || x->since >= sim->now)
			continue; /* held (hba_hold): nothing moved yet */
		done = hba_progress(sim, sim->now - x->since, n);
		x->left_ns = done < x->left_ns ? x->left_ns - done : 0;
		x->since = sim->now;
	}
}

/* move every active transfer's end to the rate of the controller's present load */
static void hba_rearm(struct sl_sim *sim, int disk)
{
	int lo, hi;

	hba_range(sim, disk, &lo, &hi);
	int n = hba_active(sim, lo, hi);

	for (int i = lo; i < hi; i++) {
		struct sl_disk *x = &sl_machine_of(sim)->disks[i];

		if (x->active)
			sl_arm(sim, &x->done,
			       (x->since > sim->now ? x->since : sim->now) +
				       hba_stretch(sim, x->left_ns, n));
	}
}

void sl_hba_irq_held(struct sl_sim *sim, struct sl_timer *t, u64 until)
{
	struct sl_machine *m = sl_machine_of(sim);
	int lo, hi;

	if (!m->p->hba_mbps || !m->p->hba_hold || t->fn != req_irq_fn)
		return;
	const struct sl_request *r = sl_container_of(t, struct sl_request, irq);

	hba_settle(sim, r->disk);
	hba_range(sim, r->disk, &lo, &hi);
	for (int i = lo; i < hi; i++) {
		struct sl_disk *x = &m->disks[i];

		if (x->hold_until < until)
			x->hold_until = until;
		if (x->active && x->since < until)
			x->since = until;
	}
	hba_rearm(sim, r->disk);
}

static void disk_start(struct sl_sim *sim, struct sl_disk *d)
{
	struct sl_machine *m = sl_machine_of(sim);
	struct sl_request *r = d->head;

	if (d->active || !r)
		return;
	d->head = r->next;
	if (!d->head)
		d->tail = NULL;
	d->active = r;
	d->busy_since = sim->now;
	m->bm_sts = true;
	u64 t = sl_disk_service_ns(sim, d, r);

	/* rotational position and firmware variation (a draw only when the parameter is set,
	 * so runs without it keep their PRNG sequence) */
	if (m->p->disk_jitter_ns)
		t += sl_rng_next(&sim->rng) % (m->p->disk_jitter_ns + 1);
	if (m->p->hba_mbps) {
		d->active = NULL; /* the others' progress at the rate before this one */
		hba_settle(sim, d->id);
		d->active = r;
		d->left_ns = t;
		d->since = d->hold_until > sim->now ? d->hold_until : sim->now;
		hba_rearm(sim, d->id);
		return;
	}
	sl_arm(sim, &d->done, sim->now + t);
}

bool sl_bm_check(struct sl_sim *sim)
{
	struct sl_machine *m = sl_machine_of(sim);
	bool set = m->bm_sts;

	for (int i = 0; i < m->ndisks && !set; i++)
		set = m->disks[i].active != NULL;
	m->bm_sts = false;
	return set;
}

bool sl_bio_submit(struct sl_sim *sim, struct sl_task *p, u64 bytes, unsigned flags)
{
	struct sl_request *r = NULL;
	struct sl_task_io *io = sl_task_io(p);

	if (!io || !io->io_left)
		return false;
	for (int i = 0; i < io->nreqs && !r; i++)
		if (!io->reqs[i].busy)
			r = &io->reqs[i];
	if (!r)
		return false;
	if (io->io_left != UINT64_MAX)
		io->io_left--;
	struct sl_disk *d = &sl_machine_of(sim)->disks[io->disk];

	r->owner = p;
	r->disk = io->disk;
	r->bytes = bytes;
	r->flags = flags;
	r->busy = true;
	r->phase = 0;
	r->submit_time = sim->now;
	r->issue_cpu = p->cpu;
	r->next = NULL;
	/* sequential: the next sectors; random: anywhere (a draw from the seeded PRNG) */
	if (flags & SL_BIO_RANDOM)
		r->sector = (sl_rng_next(&sim->rng) % (1ULL << 30)) * 8;
	else
		r->sector = io->io_sector;
	io->io_sector = r->sector + bytes / 512;
	io->inflight++;
	if (d->tail)
		d->tail->next = r;
	else
		d->head = r;
	d->tail = r;
	disk_start(sim, d);
	return true;
}

int sl_irq_cpu(const struct sl_sim *sim, const struct sl_request *r)
{
	const struct sl_machine *m = sl_machine_of(sim);

	if (m->irq_affinity >= 0)
		return m->irq_affinity % sim->ncpu;
	if (m->irq_affinity == SL_IRQ_SPREAD)
		return r->disk % sim->ncpu;
	if (m->irq_affinity == SL_IRQ_BIOS)
		return 0;
	if (m->irq_affinity == SL_IRQ_BALANCE) {
		int ctrl = r->disk / (int)m->p->ctrl_disks, ncores = 0;

		for (int c = 0; c < sim->ncpu; c++)
			ncores += sl_mcpu(sim, c)->thread == 0;
		ctrl %= ncores ? ncores : 1; /* CPU 0 is thread 0 of its core: ncores >= 1 */
		for (int c = 0; c < sim->ncpu; c++)
			if (sl_mcpu(sim, c)->thread == 0 && !ctrl--)
				return c;
	}
	return r->issue_cpu;
}

/* The disk finished the active request: raise its interrupt, start the next one. */
static void disk_done_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_disk *d = sl_container_of(t, struct sl_disk, done);
	struct sl_request *r = d->active;

	if (sl_machine_of(sim)->p->hba_mbps) {
		/* the others' progress at the rate shared with this one, then theirs alone */
		hba_settle(sim, d->id);
		d->active = NULL;
		hba_rearm(sim, d->id);
	}
	d->active = NULL;
	d->busy_ns += sim->now - d->busy_since;
	d->next_sector = r->sector + r->bytes / 512;
	d->ops++;
	d->bytes += r->bytes;
	sl_machine_of(sim)->bm_sts = true;
	r->irq.cpu = sl_irq_cpu(sim, r);
	sl_arm(sim, &r->irq, sim->now);
	disk_start(sim, d);
}

static void complete(struct sl_sim *sim, struct sl_request *r)
{
	struct sl_task *p = r->owner;
	struct sl_group *g = sl_mtask(p)->group;

	r->busy = false;
	struct sl_task_io *io = sl_task_io(p); /* the request is from its pool */

	io->inflight--;
	io->io_bytes += r->bytes;
	io->io_ops++;
	if (g) {
		g->io_bytes += r->bytes;
		g->io_ops++;
		if (g->clat)
			sl_hist_add(g->clat, sim->now - r->submit_time);
	}
	io->reaped_pending++;
	/* a synchronous reader, or a libaio waiter now that an event is there, wakes up */
	if (sl_mtask(p)->blocked == BLK_IO || sl_mtask(p)->blocked == BLK_AIO)
		sl_try_to_wake_up(sim, p, NULL, 0);
}

/*
 * The completion interrupt on its CPU (the dispatch has taken the CPU out of idle, exit latency
 * paid). Phase 0: the handlers run for irq_ns; phase 1: the request completes.
 */
static void req_irq_fn(struct sl_sim *sim, struct sl_timer *t)
{
	struct sl_machine *m = sl_machine_of(sim);
	struct sl_request *r = sl_container_of(t, struct sl_request, irq);
	struct sl_cpu *rq = &sim->cpus[t->cpu];

	sim->this_cpu = rq->id;
	if (r->phase == 0) {
		r->phase = 1;
		sl_mcpu(sim, rq->id)->irq_busy++;
		if (rq->curr) {
			/* the interrupted task is charged the handler's time, as 2.6.31 did */
			sl_machine_update_curr(sim, rq);
			sl_machine_steal(sim, rq, m->p->irq_ns);
		} else {
			sl_mcpu(sim, rq->id)->busy_ns += m->p->irq_ns;
		}
		sl_arm(sim, t, sim->now + m->p->irq_ns);
		return;
	}
	sl_mcpu(sim, rq->id)->irq_busy--;
	complete(sim, r);
}
