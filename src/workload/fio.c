/*
 * fio: the I/O benchmark's jobs as data. One job per disk (times numjobs), each reading or
 * writing `bs` per request, sequentially or at random, direct I/O only, with ioengine=sync
 * (pread: one request at a time, the reader in iowait until its completion) or libaio
 * (io_submit up to iodepth, io_getevents for at least one). Each request costs the submission
 * path (the io_submit parameter) on the submitting CPU. The report gives what fio gives:
 * bandwidth, IOPS and completion latency (clat, submission to completion) percentiles, per
 * job and in total.
 */
#include "workload/workload.h"
#include "machine/blockdev.h"
#include "core/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* request slots of all of a group's jobs together (about 100 bytes each: ~100 MB) */
#define SL_FIO_MAX_REQS (1 << 20)

struct fio_args {
	long disks, iodepth, numjobs;
	u64 bs, size;
	int flags; /* SL_BIO_*: the rw key */
	bool direct;
	int aio; /* ioengine: 0 sync, 1 libaio */
	struct sl_dist runtime;
	u64 cpus;  /* cpus_allowed: bit c allows CPU c (0: every CPU) */
	int split; /* cpus_allowed_policy=split: job k on the k-th allowed CPU alone */
};

static const struct sl_wl_choice rw_choices[] = {
	{"read", 0},
	{"randread", SL_BIO_RANDOM},
	{"write", SL_BIO_WRITE},
	{"randwrite", SL_BIO_WRITE | SL_BIO_RANDOM},
	{NULL, 0},
};
static const struct sl_wl_choice engines[] = {{"sync", 0}, {"libaio", 1}, {NULL, 0}};
static const struct sl_wl_choice cpu_policies[] = {{"shared", 0}, {"split", 1}, {NULL, 0}};

#define A struct fio_args
static const struct sl_wl_key keys[] = {
	SL_WL_KEY_INT("disks", A, disks, 1, 1024, "1", "disks; one job per disk (times numjobs)"),
	SL_WL_KEY_ENUM("rw", A, flags, rw_choices, "read", "read, randread, write or randwrite"),
	/* whole sectors: the block layer's unit */
	SL_WL_KEY_SIZE("bs", A, bs, 512, 0, 512, "128k", "bytes per request (4k, 128k, 1m)"),
	SL_WL_KEY_INT("iodepth", A, iodepth, 1, 4096, "1", "requests in flight per job (libaio)"),
	SL_WL_KEY_INT("numjobs", A, numjobs, 1, 1024, "1", "jobs per disk"),
	SL_WL_KEY_BOOL("direct", A, direct, "1", "O_DIRECT; only 1 is modelled (no page cache)"),
	SL_WL_KEY_ENUM("ioengine", A, aio, engines, "sync", "sync (pread/pwrite) or libaio"),
	SL_WL_KEY_SIZE("size", A, size, 0, 0, 0, "0",
		       "bytes per job, then it exits (0: until runtime or the run's end)"),
	SL_WL_KEY_DIST("runtime", A, runtime, "0s",
		       "time per job, then it exits (0s: until the run's end)"),
	SL_WL_KEY_CPUS("cpus_allowed", A, cpus, "",
		       "CPUs the jobs may run on, e.g. 1-15 or 0,2,4 (CPUs 0-63; empty: all)"),
	SL_WL_KEY_ENUM("cpus_allowed_policy", A, split, cpu_policies, "shared",
		       "shared (every job on all of them) or split (job k alone on the k-th, in "
		       "turn)"),
};
#undef A

static int check(void *args, char *err, size_t errlen)
{
	const struct fio_args *a = args;

	if (!a->direct) {
		snprintf(err, errlen, "direct=0: buffered I/O (the page cache) is not modelled");
		return -1;
	}
	if (!a->aio && a->iodepth > 1) {
		snprintf(err, errlen,
			 "iodepth=%ld needs ioengine=libaio (sync keeps one in flight)",
			 a->iodepth);
		return -1;
	}
	/* each job allocates iodepth request slots: bound their product before any is made */
	if ((u64)a->disks * (u64)a->numjobs * (u64)a->iodepth > SL_FIO_MAX_REQS) {
		snprintf(err, errlen,
			 "disks x numjobs x iodepth = %llu requests in flight; the limit is %d "
			 "(SL_FIO_MAX_REQS)",
			 (unsigned long long)a->disks * (unsigned long long)a->numjobs *
				 (unsigned long long)a->iodepth,
			 SL_FIO_MAX_REQS);
		return -1;
	}
	return 0;
}

static bool finite(const void *args)
{
	const struct fio_args *a = args;

	return a->size || a->runtime.a;
}

/* The jobs' program, on the CPUs of mask (0: every CPU). */
static struct sl_prog *job_prog(struct sl_sim *sim, struct sl_group *g, const struct fio_args *a,
				u64 mask)
{
	struct sl_prog *p = sl_prog_new(sim, g, "fio", 0, SL_SCHED_NORMAL);
	struct sl_dist bs = sl_dist_fixed(a->bs), z = sl_dist_fixed(0);

	if (!p)
		return NULL;
	p->cpus_allowed = mask;
	if (a->aio) {
		/* 0: fill the queue; 1: reap; 2: the runtime check; 3: again */
		if (sl_prog_add(sim, p, OP_AIO_FILL, bs, (int)a->iodepth, (int)a->flags, NULL) ||
		    sl_prog_add(sim, p, OP_AIO_WAIT, z, 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_UNTIL, a->runtime, 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_LOOP, z, 0, 0, NULL))
			return NULL;
	} else {
		/* 0: the submission path; 1: pread and wait; 2: the runtime check; 3: again */
		if (sl_prog_run(sim, p, sl_dist_fixed(sl_machine_of(sim)->p->io_submit_ns)) ||
		    sl_prog_add(sim, p, OP_BIO, bs, 0, (int)a->flags, NULL) ||
		    sl_prog_add(sim, p, OP_UNTIL, a->runtime, 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_LOOP, z, 0, 0, NULL))
			return NULL;
	}
	return p;
}

/* the k-th CPU of mask, in turn (mask has at least one bit) */
static u64 kth_cpu(u64 mask, long k)
{
	int n = __builtin_popcountll(mask);

	k %= n;
	for (int c = 0; c < 64; c++)
		if ((mask >> c & 1) && !k--)
			return 1ULL << c;
	return mask;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct fio_args *a = args;
	u64 count = a->size ? (a->size + a->bs - 1) / a->bs : 0;
	u64 mask = a->cpus;
	struct sl_prog *p = NULL;

	if (mask && sim->ncpu < 64)
		mask &= (1ULL << sim->ncpu) - 1;
	if (a->cpus && !mask) {
		snprintf(sim->error, sizeof(sim->error),
			 "fio: cpus_allowed names no CPU of this machine's %d", sim->ncpu);
		return -1;
	}
	if (!a->split && !(p = job_prog(sim, g, a, mask)))
		return -1;
	g->io = true;
	if (!g->clat) {
		g->clat = calloc(1, sizeof(*g->clat));
		if (!g->clat || sl_hist_init(g->clat)) {
			sim->oom = true;
			return -1;
		}
	}
	for (long d = 0; d < a->disks; d++) {
		for (long j = 0; j < a->numjobs; j++) {
			struct sl_prog *jp =
				a->split
					? job_prog(sim, g, a,
						   kth_cpu(mask ? mask
								: (sim->ncpu < 64
									   ? (1ULL << sim->ncpu) - 1
									   : ~0ULL),
							   d * a->numjobs + j))
					: p;
			struct sl_task *t = jp ? sl_spawn(sim, g, jp) : NULL;

			if (!t || sl_task_io_init(sim, t, (int)d, (int)a->iodepth, count))
				return -1;
			/* each job reads its own region of the disk */
			sl_task_io(t)->io_sector = (u64)j << 30;
		}
	}
	return 0;
}

/* every task it creates over the run (one job per disk, times numjobs): checked against
 * SL_MAX_TASKS first */
static u64 max_tasks(const void *args)
{
	const struct fio_args *a = args;

	return (u64)a->disks * (u64)a->numjobs;
}

const struct sl_workload_ops sl_wl_fio = {
	.name = "fio",
	.help = "fio jobs: direct sync or libaio reads/writes, one job per disk",
	.keys = keys,
	.nkeys = (int)SL_ARRAY_SIZE(keys),
	.args_size = sizeof(struct fio_args),
	.check = check,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
};
