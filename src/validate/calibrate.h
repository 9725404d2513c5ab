/* `schedlab calibrate`: machine parameters a VM changes, measured once (see calibrate.c). */
#ifndef SCHEDLAB_CALIBRATE_H
#define SCHEDLAB_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <schedlab/types.h>
#include "validate/bg_split.h"

/* what CPUs 0 and 1 share: which of the model's migration costs calibrate measures */
enum sl_cal_migrate { SL_CAL_MIGRATE_SMT, SL_CAL_MIGRATE_CORE, SL_CAL_MIGRATE_SOCKET };
extern const char *const sl_cal_migrate_param[3];

struct sl_calibration {
	/* measured: medians of the batches */
	u64 same_cpu_ns;    /* one pipe hand-off between two threads on one CPU */
	u64 bare_switch_ns; /* a sched_yield switch less a lone sched_yield (0: no switch) */
	u64 cross_cpu_ns;   /* the same across two CPUs, the receiver idle (halted) */
	u64 oversleep_ns;   /* how late a 1 ms clock_nanosleep wakes on an idle CPU */
	/* a 256 KB working set's refill after another's ran on the CPU, and after a migration */
	bool cache_measured;
	u64 cache_refill_ns, migrate_ns;
	enum sl_cal_migrate migrate_level;
	/* derived (sl_calibrate_derive) */
	u64 ctx_switch_ns, exit_latency_ns, timer_slack_ns;
	/* rt-app's loop (sl_calibrate_rtapp): measured when rtapp_measured */
	bool rtapp_measured;
	u64 rtapp_pload[3];    /* rt-app's own ns per loop, per launch */
	u64 rtapp_short_ns;    /* mean wall time of a 100 us run */
	u64 rtapp_long_ns;     /* mean wall time of a 2000 us run */
	u64 rtapp_calib_ns;    /* the median launch's ns per loop: param rtapp_calib */
	u64 rtapp_kloop_ns;    /* 1000 loops: param rtapp_kloop */
	u64 rtapp_kloop_sd_ns; /* its per-run standard deviation: param rtapp_kloop_sd */
	u64 rtapp_cold_ns;     /* a run's cost beyond its loops: param rtapp_cold */
	/* sl_calibrate_placement: of 1000 wake-ups away from a busy CPU, kept on it (vcpu_pack) */
	u64 placement_busy;
	/* sl_calibrate_waker_placement: of 1000 wake-ups by a task on CPU 0, the wakee's previous
	 * CPU 1 idle, run on CPU 0; the waker then blocks, or runs on; their mean (vcpu_pack_waker)
	 */
	u64 waker_on[3];    /* the waker blocks, runs on; the wakee's prev was CPU 0 (blocks) */
	u64 waker_quiet[3]; /* of the 1000 trials per mode, those with CPU 1 idle (counted) */
	/* sl_calibrate_free_pingpong: quiet hand-offs with the wakee's prev the waker's CPU, of
	 * 1000 stayed (vcpu_pack_waker); with prev the other CPU, of 1000 ran on the waker's */
	u64 pp_quiet_shared, pp_stayed, pp_quiet_apart, pp_joined;
	u64 placement_waker; /* pp_stayed when measured (100 quiet hand-offs): vcpu_pack_waker */
	u64 placement_join;  /* pp_joined when measured (100 quiet hand-offs): vcpu_pack_other */
	/* the free ping-pong's rounds in the writer's CPU time (medians, ns), by where its write
	 * woke the other thread; wake_ipi_ns their difference (0: not measured) */
	u64 pp_round_remote_ns, pp_round_local_ns, pp_rounds_remote, pp_rounds_local;
	u64 wake_ipi_ns;
	/* sl_calibrate_wake_path: sched_waking to sched_switch on an idle CPU, from a trace */
	bool wake_measured;
	u64 wake_local_p50, wake_local_sd;   /* woken by its own timer: params wake_local(_sd) */
	u64 wake_remote_p50, wake_remote_sd; /* woken from the other CPU (IPI, halted vCPU) */
	u64 wake_remote_ns;		     /* p50 - ipi - exit latency: param wake_remote */
	/* sl_calibrate_background: on the idle machine, per CPU */
	bool bg_measured;
	u64 bg_rate;   /* idle entries per second: machine.conf background_rate */
	u64 bg_run_ns; /* not-idle time per entry: background_run */
	/* the same trace split (validate/bg_split.h): interrupt-only exits against task switch-ins
	 * (printed, not written: docs/validate.md, issue 28 step 14) */
	bool bg_split_measured;
	struct sl_bg_split bg_split;
};

/* rows 1-3, 1b-1d as the median of `batches` batches (1..9; else 9): 0, or -1 with err */
int sl_calibrate_measure(struct sl_calibration *c, int batches, char *err, size_t errlen);
/* the batches `record` measures before a recording (about a second) */
#define SL_CAL_TRACE_BATCHES 3
struct sl_machine_conf;
/*
 * This machine (machine_conf_live) with its switch, timer and cache costs measured now, as the
 * machine.conf that `record` writes beside a trace for its replay: 0, or -1 with err.
 */
int sl_calibrate_for_trace(struct sl_machine_conf *mc, struct sl_calibration *c, char *err,
			   size_t errlen);
/* rt-app's loop, by running rt-app: 0, or -1 with err (rt-app missing or failing). */
int sl_calibrate_rtapp(struct sl_calibration *c, char *err, size_t errlen);
/* The idle CPU's wake-up path from a trace of rt-app: 0, or -1 with err. */
int sl_calibrate_wake_path(struct sl_calibration *c, char *err, size_t errlen);
/* The idle machine's own wake-ups, from a trace: 0, or -1 with err (also when it is busy). */
int sl_calibrate_background(struct sl_calibration *c, char *err, size_t errlen);
/* Wake-up placement beside a busy CPU: 0, or -1 with err. */
int sl_calibrate_placement(struct sl_calibration *c, char *err, size_t errlen);
/* Wake-up placement by a running task beside an idle previous CPU: 0, or -1 with err. */
int sl_calibrate_waker_placement(struct sl_calibration *c, char *err, size_t errlen);
/* The same in a free ping-pong, per previous CPU: 0, or -1 with err. */
int sl_calibrate_free_pingpong(struct sl_calibration *c, char *err, size_t errlen);
/* The mean of v[0..n) below 8 times its median, v sorted in place (calibrate.c's rounds). */
u64 sl_calibrate_undisturbed_mean(u64 *v, int n);
/* The model's IPI cost (param ipi's default), which the derived exit latency excludes. */
u64 sl_calibrate_model_ipi(void);
/* The model's parameters from the measurements; ipi_ns is the model's IPI cost. */
void sl_calibrate_derive(struct sl_calibration *c, u64 ipi_ns);
/* wake_ipi from the free ping-pong's round medians (0: fewer than 100 rounds of either kind) */
u64 sl_calibrate_wake_ipi(u64 remote_ns, int nremote, u64 local_ns, int nlocal);
/* dir/machine.conf and dir/machine.profile for this machine with c's figures. */
int sl_calibrate_write(const char *dir, const struct sl_calibration *c, char *err, size_t errlen);

#endif
