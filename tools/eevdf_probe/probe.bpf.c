// SPDX-License-Identifier: GPL-2.0
/*
 * What EEVDF's wake-up check decides on, read from the running kernel (issue 28, step 32 of
 * docs/validate.md). Two raw tracepoints print into the trace buffer beside the sched events:
 *
 * - at sched_waking (try_to_wake_up's start, before anything is enqueued): the wakee's entity
 *   (delayed or not, on_rq, vruntime, vlag, deadline) and its cfs_rq's sums with that queue's
 *   curr as the last scheduler event left it (no update_curr has run yet);
 * - at sched_wakeup (after wakeup_preempt): the wakee placed, the CPU's running task (its
 *   vruntime now brought up to date by the check, its deadline, vprot, thread flags: whether a
 *   reschedule was set) and the wakee's cfs_rq's sums.
 *
 * Raw tracepoints, not fentry: a kernel without BPF trampolines (this guest's) has them.
 * Only SCHED_NORMAL wakees are printed. vlag shares its word with vprot: it is a lag only for
 * an entity that is not running and was dequeued since it last ran.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

SEC("raw_tracepoint/sched_waking")
int waking(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx->args[0];
	struct cfs_rq *q = BPF_CORE_READ(p, se.cfs_rq);
	struct sched_entity *qc = BPF_CORE_READ(q, curr);

	if (BPF_CORE_READ(p, policy) != 0)
		return 0;
	bpf_printk("SLW w=%d dl=%u onrq=%u v=%llu l=%lld d=%llu", BPF_CORE_READ(p, pid),
		   BPF_CORE_READ(p, se.sched_delayed), BPF_CORE_READ(p, se.on_rq),
		   BPF_CORE_READ(p, se.vruntime), BPF_CORE_READ(p, se.vlag),
		   BPF_CORE_READ(p, se.deadline));
	bpf_printk("SLWQ zv=%llu sw=%lld sl=%llu nq=%u qcv=%llu qcw=%lu",
		   BPF_CORE_READ(q, zero_vruntime), BPF_CORE_READ(q, sum_w_vruntime),
		   BPF_CORE_READ(q, sum_weight), BPF_CORE_READ(q, nr_queued),
		   qc ? BPF_CORE_READ(qc, vruntime) : 0, qc ? BPF_CORE_READ(qc, load.weight) : 0);
	return 0;
}

SEC("raw_tracepoint/sched_wakeup")
int wakeup(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx->args[0];
	struct cfs_rq *q = BPF_CORE_READ(p, se.cfs_rq);
	struct rq *rq = BPF_CORE_READ(q, rq);
	struct task_struct *c = BPF_CORE_READ(rq, curr);
	struct cfs_rq *cq = BPF_CORE_READ(c, se.cfs_rq);
	struct sched_entity *qc = BPF_CORE_READ(q, curr);
	void *cse = (void *)c + __builtin_offsetof(struct task_struct, se);
	void *pse = (void *)p + __builtin_offsetof(struct task_struct, se);

	if (BPF_CORE_READ(p, policy) != 0)
		return 0;
	bpf_printk("SLP w=%d wv=%llu wd=%llu wl=%lld ws=%llu wdl=%u wdep=%d", BPF_CORE_READ(p, pid),
		   BPF_CORE_READ(p, se.vruntime), BPF_CORE_READ(p, se.deadline),
		   BPF_CORE_READ(p, se.vlag), BPF_CORE_READ(p, se.slice),
		   BPF_CORE_READ(p, se.sched_delayed), BPF_CORE_READ(p, se.depth));
	bpf_printk("SLC c=%d cv=%llu cd=%llu cp=%llu cs=%llu cdep=%d cw=%lu fl=%lx",
		   BPF_CORE_READ(c, pid), BPF_CORE_READ(c, se.vruntime),
		   BPF_CORE_READ(c, se.deadline), BPF_CORE_READ(c, se.vprot),
		   BPF_CORE_READ(c, se.slice), BPF_CORE_READ(c, se.depth),
		   BPF_CORE_READ(c, se.load.weight), BPF_CORE_READ(c, thread_info.flags));
	bpf_printk("SLQ same=%d zv=%llu sw=%lld sl=%llu nq=%u qcur=%d pol=%d", q == cq,
		   BPF_CORE_READ(q, zero_vruntime), BPF_CORE_READ(q, sum_w_vruntime),
		   BPF_CORE_READ(q, sum_weight), BPF_CORE_READ(q, nr_queued),
		   !qc ? 0 : ((void *)qc == cse ? 1 : 2), BPF_CORE_READ(c, policy));
	/* the tree's earliest deadline (6.18's timeline is ordered by deadline): whether the
	 * check's pick could have met a delayed entity before the wakee */
	struct rb_node *lm = BPF_CORE_READ(q, tasks_timeline.rb_leftmost);

	if (lm) {
		struct sched_entity *l =
			(void *)lm - __builtin_offsetof(struct sched_entity, run_node);

		bpf_printk("SLL lme=%d lmdl=%u lmv=%llu lmd=%llu lmw=%lu", (void *)l == pse,
			   BPF_CORE_READ(l, sched_delayed), BPF_CORE_READ(l, vruntime),
			   BPF_CORE_READ(l, deadline), BPF_CORE_READ(l, load.weight));
	}
	if (qc)
		bpf_printk("SLQC qcv=%llu qcw=%lu qcd=%llu qcon=%d", BPF_CORE_READ(qc, vruntime),
			   BPF_CORE_READ(qc, load.weight), BPF_CORE_READ(qc, deadline),
			   BPF_CORE_READ(qc, on_rq));
	return 0;
}
