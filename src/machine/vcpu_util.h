/*
 * PELT-like utilization of CPUs and tasks, kept by the machine for the vcpu_pack_room rule
 * (vcpu_util.c): the measured kernel's non-mainline sched_vcpu_pack placement as its real
 * traces show it.
 */
#ifndef SCHEDLAB_VCPU_UTIL_H
#define SCHEDLAB_VCPU_UTIL_H

#include "sched/sched.h"

/* rq switches from prev to next (NULL: idle) now: the signals of the three move on */
void sl_vcpu_util_switch(struct sl_sim *sim, struct sl_cpu *rq, struct sl_task *prev,
			 struct sl_task *next);
/* a CPU's busy and a task's running utilization now, 0..1024 (0 while the rule is off) */
u64 sl_vcpu_util_cpu(const struct sl_sim *sim, const struct sl_cpu *rq);
u64 sl_vcpu_util_task(const struct sl_sim *sim, const struct sl_task *p);
/*
 * a's utilization is ratio times b's or more, each counted plus 1 (so a task that has not run
 * compares too): the size test of the wake-up preemption rates (machine.c)
 */
bool sl_vcpu_util_ratio(const struct sl_sim *sim, const struct sl_task *a, const struct sl_task *b,
			u64 ratio);
/* the utilizations of the live tasks whose last CPU is cpu, asleep ones included, 0..n x 1024 */
u64 sl_vcpu_util_attached(const struct sl_sim *sim, int cpu);
/* p's kernel prio as the placement rules read it: an RT task's, else 120 + nice */
int sl_vcpu_kprio(const struct sl_task *p);
/*
 * The rule on the CPU cpu that the policy chose for p, woken by waker running on from: from
 * when waker is alone there, cpu is idle, p last ran elsewhere than from, p's utilization is
 * below vcpu_pack_small, from's (vcpu_pack_room_sum: its attached tasks') plus p's below
 * vcpu_pack_room and (vcpu_pack_prio set) p's
 * prio below vcpu_pack_prio; else cpu.
 */
int sl_vcpu_pack_room(struct sl_sim *sim, const struct sl_task *p, const struct sl_task *waker,
		      int from, int cpu);

#endif
