/*
 * The model's named parameters: every cost the machine charges, with its default and the reason
 * for it. They are the same for every policy compared in one run, and each is settable with
 * --param NAME=VALUE (a duration). `schedlab params` lists them.
 */
#ifndef SCHEDLAB_PARAMS_H
#define SCHEDLAB_PARAMS_H

#include <schedlab/types.h>

struct sl_params {
	u64 hz;			/* scheduler tick rate (CONFIG_HZ) */
	u64 ctx_switch_ns;	/* direct cost of a context switch */
	u64 ctx_switch_bare_ns; /* the switch alone: a trace replay's ctx_switch (0: unset) */
	u64 cache_refill_ns;	/* resuming on the same CPU after other tasks ran there */
	u64 migrate_smt_ns;	/* resuming on an SMT sibling of the last CPU */
	u64 migrate_core_ns;	/* resuming on another core of the same socket */
	u64 migrate_socket_ns;	/* resuming on another socket */
	u64 exec_cold_ns;	/* first run after exec: an empty working set */
	u64 ipi_ns;		/* remote wake-up: IPI delivery to a running or polling CPU */
	u64 fork_ns;		/* CPU time of fork() in the parent */
	u64 exec_ns;		/* CPU time of execve() in the child */
	u64 exit_ns;		/* CPU time of exit() */
	u64 io_latency_ns;  /* the fixed-latency device of an `io` step when the step gives none */
	u64 disk_mbps;	    /* a disk's media transfer rate, MB/s (10^6 bytes) */
	u64 disk_cmd_ns;    /* per-request command and DMA set-up in the disk and controller */
	u64 disk_seek_ns;   /* a random request's seek and rotational delay */
	u64 irq_ns;	    /* a completion's hardirq + softirq (block completion) CPU time */
	u64 io_submit_ns;   /* the submission path's CPU time per request (syscall, bio, driver) */
	u64 timer_slack_ns; /* how late a sleeping task's hrtimer may fire (timer_slack_ns) */
	u64 bcast_lock_ns;  /* acpi_idle: clockevents_notify's hold of the global broadcast locks */
	u64 pkg_c3_exit_ns; /* added to a core's exit when its package was in package C3 */
	u64 pkg_c6_exit_ns; /* added to a core's exit when its package was in package C6 */
	u64 disk_jitter_ns; /* a request's service time varies by a uniform [0, this] */
	u64 ctrl_disks;	    /* disks per controller (one interrupt line each) */
	u64 smt_resolve;    /* 1: a core is only as deep as its shallowest thread */
	u64 bg_wakeup_ns;   /* each CPU's background timer wake-ups: one per this (0: none) */
	u64 hba_mbps;	    /* a controller's shared link, MB/s, for all its disks (0: none) */
	u64 hba_hold;	    /* 1: the controller's transfers wait while a completion waits */
	u64 c2_as_c6;	    /* 1: acpi_idle's C2-type state exits as the table's deepest */
	u64 core_power;	    /* 1: energy counted per core (an SMT pair shares one) */
	u64 tick_grid;	    /* 1: a late tick is re-armed on the jiffy grid */
	u64 group_sched;    /* 1: CFS group scheduling per user (2.6.31 USER_SCHED) */
	u64 group_root_shares; /* uid 0's task group's shares (INIT_TASK_GROUP_LOAD) */
	u64 group_user_shares; /* another uid's task group's shares (NICE_0_LOAD) */
	u64 rtapp_calib_ns;    /* rt-app's calibrated ns per loop here (0: run N is N us exactly) */
	u64 rtapp_kloop_ns;    /* what 1000 of rt-app's loops take here (0: off) */
	u64 rtapp_kloop_sd_ns; /* its standard deviation from one run to the next */
	u64 rtapp_cold_ns;     /* a run's cost beyond its loops (cold caches after a sleep) */
	u64 rtapp_calib_real;  /* 1: validate --real takes the recorded launch's calibration */
	u64 wake_local, wake_local_sd;	 /* idle CPU, woken from itself: to the switch */
	u64 wake_remote, wake_remote_sd; /* idle CPU, woken by another: beyond IPI and exit */
	u64 wake_local_decade, wake_remote_decade; /* added per tenfold idle length past 1 ms */
	/* per 1000 of those wake-ups: an extra delay, exponential of mean *_tail_mean (0: off) */
	u64 wake_local_tail, wake_local_tail_mean;
	u64 wake_remote_tail, wake_remote_tail_mean;
	u64 syscall_preempt; /* 1: a waking step returns to user through a preemption point */
	u64 cwait_preempt;   /* 1: and so does a condition wait's release, before its sleep */
	u64 cond_groups;     /* 1: glibc's condition groups: a signal waits for woken waiters */
	u64 vcpu_pack;	     /* per 1000 wake-ups: kept on a busy prev CPU (0: mainline) */
	u64 vcpu_pack_waker; /* per 1000 task wake-ups: kept on prev = the waker's CPU */
	/* per 1000: vcpu_pack_waker's rule with others queued there (0: vcpu_pack_waker's) */
	u64 vcpu_pack_queued;
	u64 vcpu_pack_other; /* per 1000: prev elsewhere, the waker alone: joins the waker */
	u64 vcpu_pack_irq;   /* per 1000: an interrupt's wake-up of a task last on its idle CPU */
	u64 vcpu_pack_irq_busy; /* per 1000: ... of a task last on its CPU, busy with another */
	u64 vcpu_pack_irq_same; /* per 1000: ... busy with a task of the wakee's prio (0: _busy's)
				 */
	/* per 1000: ... busy with another and nothing waiting there (0: _busy's, _same's) */
	u64 vcpu_pack_irq_alone;
	/* per 1000: ... both CPUs busy, others waiting on its own, the other's task alone: moves */
	u64 vcpu_pack_irq_move;
	/* per 1000: vcpu_pack_wait's rule with only less important tasks waiting there */
	u64 vcpu_pack_wait_lower;
	/* per 1000: vcpu_pack_wait's rule with no task waiting there */
	u64 vcpu_pack_wait_none;
	u64 vcpu_pack_wait_hot; /* per 1000: the none case with B alone and B's utilization high */
	u64 vcpu_pack_hot_util; /* per 1024: vcpu_pack_wait_hot's bound on B's utilization */
	/* per 1000: both busy, the waker alone, the wakee's prev task alone: it stays on prev */
	u64 vcpu_pack_stay;
	/* per 1000: both busy, the waker alone, others wait on the wakee's prev: joins the waker */
	u64 vcpu_pack_join;
	/* per 1000: both busy, others wait behind the waker, the wakee's prev busy: it stays */
	u64 vcpu_pack_stay_queued;
	u64 vcpu_pack_sis_gate; /* the both-busy rules only where the LLC's scan budget is > 0 */
	/* per 1000: vcpu_pack_wait's rule (as high, lower) where the other CPU's task runs alone */
	u64 vcpu_pack_wait_alone;
	u64 vcpu_pack_wait_lower_alone;
	/* per 1000: the same where others wait on the other CPU too */
	u64 vcpu_pack_wait_crowded;
	u64 vcpu_pack_wait_lower_crowded;
	u64 timer_coalesce;  /* 1: an hrtimer interrupt runs its CPU's timers whose window opened */
	u64 exit_irq_wait;   /* 1: a timer expiring during its CPU's C-state exit waits for it */
	u64 vcpu_pack_busy;  /* per 1000: both CPUs busy, more wait on prev: to the other */
	u64 vcpu_pack_wait;  /* per 1000: both busy, one as important waits on the waker's: away */
	u64 vcpu_pack_room;  /* per 1024: waker CPU's + wakee's utilization below it: packed */
	u64 vcpu_pack_small; /* per 1024: ... and the wakee's own below it */
	u64 vcpu_pack_prio;  /* ... and the wakee's kernel prio (120 + nice) below it (0: any) */
	u64 vcpu_pack_room_sum; /* 1: the room's CPU utilization is its attached tasks' sum */
	u64 wake_ipi_ns;	/* the waker's CPU time to wake a task onto another, halted CPU */
	u64 wake_tail_ns;	/* the waker's CPU time after each wake-up it makes (0: none) */
	u64 wake_tail_unlock;	/* 1: the tail runs after an unlock that follows the wake-up */
	u64 irq_preempt_ns;	/* an interrupt's wake-up preempting its CPU's task: switch later */
	u64 task_preempt_ns;	/* a task preempted by its own wakee on its CPU: switch later */
	u64 ipi_busy_ns;	/* a reschedule of another CPU that runs a task (0: ipi_ns) */
	u64 wake_enqueue_busy_ns; /* a task's wake-up onto another, busy CPU: its enqueue later */
	u64 wake_enqueue_tail_ns; /* the waker's time after such a deferred enqueue (wake_tail) */
	u64 wake_preempt;	  /* per 1000 wake-ups on the waker's CPU: the wakee runs first */
	/* per 1000: wake_preempt's rate for a wakee asleep under wake_preempt_sleep (0: off) */
	u64 wake_preempt_short;
	/* per 1000: wake_preempt_short's rate once the waker has run wake_preempt_short_run */
	u64 wake_preempt_short_late;
	u64 wake_preempt_short_run_ns;
	u64 wake_preempt_sleep_ns;
	/* per 1000: the rate for a mutex's waiter woken by its release on its own CPU (0: off) */
	u64 wake_preempt_again;
	/* the rates are the whole decision inside the waker's first wake_preempt_window */
	u64 wake_preempt_all;
	u64 wake_preempt_window_ns;
	/* the rates by the two tasks' utilizations: the ratio (0: off), and a row each way */
	u64 wake_preempt_ratio;
	u64 wake_preempt_up;	   /* the waker's utilization ratio times the wakee's or more */
	u64 wake_preempt_down;	   /* the wakee's ratio times the waker's or more */
	u64 wake_preempt_short_up; /* the same two for a wakee asleep under wake_preempt_sleep */
	u64 wake_preempt_short_down;
	/* a task's first step after a sleep of wake_cold_sleep or more: its cold start (ns) */
	u64 wake_cold_ns;
	u64 wake_cold_idle_ns;	      /* more where its CPU was idle before it, at 1 ms of idle */
	u64 wake_cold_idle_decade_ns; /* and per tenfold of that idle length */
	u64 wake_cold_sleep_ns;
	/* 1: a reschedule asked at a burst's end waits for the next real event (0: taken) */
	u64 burst_quiet;
	/* with burst_quiet, 1: the policy's accounting runs at a burst's end (0: as the kernel) */
	u64 burst_account;
	/* per 1000 interrupt wake-ups onto their busy CPU: the wakee runs first (0: the policy) */
	u64 irq_wake_preempt;
	/* the same where the CPU's task is wake_preempt_ratio times the wakee's utilization */
	u64 irq_wake_preempt_up;
	/* 1: an interrupt's wakee on its own CPU is checked without the runner's protection */
	u64 irq_wake_unprotected;
	/* 1: the wake-up check's pick passes over delayed entities (EEVDF's DELAY_DEQUEUE) */
	u64 wake_skip_delayed;
	/* 1: inside wake_preempt_all's window a long sleeper's wake-up is the policy's check's */
	u64 wake_preempt_long_policy;
	/* 1: a hand-off's second half is the policy's check's, never a rate's */
	u64 wake_again_policy;
	u64 newidle_ratio; /* each CPU's NI_RANDOM ratio (of 1024) at the start (0: 512, boot's) */
	/* a newidle balance that runs: its time to the examination of the other CPU's queue, and
	 * from a pull to the pulled task's switch-in (0: none, the balance at one instant) */
	u64 newidle_cost_ns, newidle_tail_ns;
	u64 tick_phase_ns;     /* the jiffy grid's offset from the run's start (modulo the tick) */
	u64 tick_phase_random; /* 1: that offset drawn from the seed, uniform over one tick */
	/* per 1000 wake-ups left waiting behind a running task: it runs on until it blocks */
	u64 wake_hold;
	u64 wake_hold_max_ns; /* ... or this long after the wake-up (0: until it blocks) */
	/* per 1000 wake-ups by a task moved off its CPU onto another, busy one: the wakee first */
	u64 wake_move_preempt;
	/* machine/irq_bg.c: each CPU's interrupts per second (0: none), each this long */
	u64 irq_bg_rate;
	u64 irq_bg_run_ns;
	/* machine.c: per 1000 idle entries after a task, the tick is kept (RCU callbacks), for
	 * tick_keep_ticks ticks (0: never) */
	u64 tick_keep;
	u64 tick_keep_ticks;
	/* per 1000 ns of CPU, the work a CPU does while the other CPU of its pair idles (0: off) */
	u64 sib_idle_rate;
	/* machine.c: a switch-in back on its CPU after a task of another group ran there costs
	 * this much more than cache_refill (0: off) */
	u64 cache_refill_foreign_ns;
};

/* what a parameter's value is, and what --param takes for it */
enum sl_param_kind {
	SL_PARAM_NS,	 /* a duration (ns; --param takes 10us, 2ms...) */
	SL_PARAM_COUNT,	 /* a plain number (hz), 1..10000 */
	SL_PARAM_FLAG,	 /* 0 or 1 */
	SL_PARAM_COUNT0, /* a plain number, 0 allowed (0: off), up to 100000 */
};

struct sl_param_desc {
	const char *name;
	size_t offset;
	u64 def;
	int is_count; /* its enum sl_param_kind: nonzero for every kind but a duration */
	const char *why;
};

extern const struct sl_param_desc sl_param_table[];
extern const int sl_param_count;

void sl_params_default(struct sl_params *p);
int sl_params_set(struct sl_params *p, const char *assignment, char *err, size_t errlen);
/* the parameters' combinations, once all are set: 0, or -1 with err */
int sl_params_check(const struct sl_params *p, char *err, size_t errlen);

#endif
