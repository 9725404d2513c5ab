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
	unsigned flags;
	bool aio;
	struct sl_dist runtime;
};

static const struct sl_wl_key keys[] = {
	{"disks", "1", "disks; one job per disk (times numjobs)"},
	{"rw", "read", "read, randread, write or randwrite"},
	{"bs", "128k", "bytes per request (4k, 128k, 1m)"},
	{"iodepth", "1", "requests in flight per job (libaio)"},
	{"numjobs", "1", "jobs per disk"},
	{"direct", "1", "O_DIRECT; only 1 is modelled (no page cache)"},
	{"ioengine", "sync", "sync (pread/pwrite) or libaio"},
	{"size", "0", "bytes per job, then it exits (0: until runtime or the run's end)"},
	{"runtime", "0s", "time per job, then it exits (0s: until the run's end)"},
};

static void *parse(const struct sl_kv *kv, char *err, size_t errlen)
{
	struct fio_args *a = calloc(1, sizeof(*a));
	const char *rw = sl_kv_get(kv, "rw"), *eng = sl_kv_get(kv, "ioengine");
	long direct;
	char e[200];

	if (!a || sl_kv_int(kv, "disks", 1, 1024, &a->disks, err, errlen) ||
	    sl_kv_int(kv, "iodepth", 1, 4096, &a->iodepth, err, errlen) ||
	    sl_kv_int(kv, "numjobs", 1, 1024, &a->numjobs, err, errlen) ||
	    sl_kv_int(kv, "direct", 0, 1, &direct, err, errlen) ||
	    sl_kv_dist(kv, "runtime", &a->runtime, err, errlen))
		goto fail;
	if (sl_parse_size(sl_kv_get(kv, "bs"), &a->bs, e, sizeof(e)) || a->bs < 512 ||
	    a->bs % 512) {
		snprintf(err, errlen, "bs: %s",
			 a->bs && a->bs % 512 ? "must be a multiple of 512" : e);
		goto fail;
	}
	if (sl_parse_size(sl_kv_get(kv, "size"), &a->size, e, sizeof(e))) {
		snprintf(err, errlen, "size: %s", e);
		goto fail;
	}
	if (!direct) {
		snprintf(err, errlen, "direct=0: buffered I/O (the page cache) is not modelled");
		goto fail;
	}
	if (!strcmp(rw, "read"))
		a->flags = 0;
	else if (!strcmp(rw, "randread"))
		a->flags = SL_BIO_RANDOM;
	else if (!strcmp(rw, "write"))
		a->flags = SL_BIO_WRITE;
	else if (!strcmp(rw, "randwrite"))
		a->flags = SL_BIO_WRITE | SL_BIO_RANDOM;
	else {
		snprintf(err, errlen, "rw='%s': expected read, randread, write or randwrite", rw);
		goto fail;
	}
	if (!strcmp(eng, "sync"))
		a->aio = false;
	else if (!strcmp(eng, "libaio"))
		a->aio = true;
	else {
		snprintf(err, errlen, "ioengine='%s': expected sync or libaio", eng);
		goto fail;
	}
	if (!a->aio && a->iodepth > 1) {
		snprintf(err, errlen,
			 "iodepth=%ld needs ioengine=libaio (sync keeps one in flight)",
			 a->iodepth);
		goto fail;
	}
	/* each job allocates iodepth request slots: bound their product before any is made */
	if ((u64)a->disks * (u64)a->numjobs * (u64)a->iodepth > SL_FIO_MAX_REQS) {
		snprintf(err, errlen,
			 "disks x numjobs x iodepth = %llu requests in flight; the limit is %d "
			 "(SL_FIO_MAX_REQS)",
			 (unsigned long long)a->disks * (unsigned long long)a->numjobs *
				 (unsigned long long)a->iodepth,
			 SL_FIO_MAX_REQS);
		goto fail;
	}
	return a;
fail:
	free(a);
	return NULL;
}

static bool finite(const void *args)
{
	const struct fio_args *a = args;

	return a->size || a->runtime.a;
}

static int spawn(struct sl_sim *sim, struct sl_group *g, const void *args)
{
	const struct fio_args *a = args;
	struct sl_prog *p = sl_prog_new(sim, g, "fio", 0, SL_SCHED_NORMAL);
	struct sl_dist bs = sl_dist_fixed(a->bs), z = sl_dist_fixed(0);
	u64 count = a->size ? (a->size + a->bs - 1) / a->bs : 0;

	if (!p)
		return -1;
	g->io = true;
	if (!g->clat) {
		g->clat = calloc(1, sizeof(*g->clat));
		if (!g->clat || sl_hist_init(g->clat)) {
			sim->oom = true;
			return -1;
		}
	}
	if (a->aio) {
		/* 0: fill the queue; 1: reap; 2: the runtime check; 3: again */
		if (sl_prog_add(sim, p, OP_AIO_FILL, bs, (int)a->iodepth, (int)a->flags, NULL) ||
		    sl_prog_add(sim, p, OP_AIO_WAIT, z, 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_UNTIL, a->runtime, 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_LOOP, z, 0, 0, NULL))
			return -1;
	} else {
		/* 0: the submission path; 1: pread and wait; 2: the runtime check; 3: again */
		if (sl_prog_run(sim, p, sl_dist_fixed(sim->p->io_submit_ns)) ||
		    sl_prog_add(sim, p, OP_BIO, bs, 0, (int)a->flags, NULL) ||
		    sl_prog_add(sim, p, OP_UNTIL, a->runtime, 0, 0, NULL) ||
		    sl_prog_add(sim, p, OP_LOOP, z, 0, 0, NULL))
			return -1;
	}
	for (long d = 0; d < a->disks; d++) {
		for (long j = 0; j < a->numjobs; j++) {
			struct sl_task *t = sl_spawn(sim, g, p);

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
	.parse = parse,
	.spawn = spawn,
	.max_tasks = max_tasks,
	.finite = finite,
};
