/*
 * The cpuidle framework, shaped as the kernel's drivers/cpuidle: a driver's table of states
 * (exit latency, target residency, power, flags), a per-CPU device the governor reads and
 * writes, and a governor behind an ops struct (enable / select / reflect). On each idle entry
 * the machine calls sl_cpuidle_enter: the governor selects a state from what it sees (time to
 * the CPU's next timer event, the PM QoS latency limit, cpu_load[0], nr_iowait); the state is
 * entered and a cpu_idle event emitted. When something wakes the CPU the machine calls
 * sl_cpuidle_exit: the residency is measured (the kernel's TIME_VALID rule: a state without
 * the flag reports no measured time), the per-state usage and time of sysfs are updated, the
 * governor's reflect runs, and the exit latency is returned for the waker to pay.
 *
 * The foundation has the POLL state and the poll governor; the cpuidle issue adds machine
 * profiles (driver tables) and governors, each one file and one line in governors.c.
 */
#ifndef SCHEDLAB_CPUIDLE_H
#define SCHEDLAB_CPUIDLE_H

#include <schedlab/types.h>

struct sl_sim;
struct sl_cpu;

#define SL_CPUIDLE_MAX_STATES	10
#define CPUIDLE_FLAG_POLL	0x1
#define CPUIDLE_FLAG_TIME_VALID 0x2
/* PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE: 2000 s, "no limit" */
#define SL_PM_QOS_DEFAULT_NS (2000ULL * NSEC_PER_SEC)

struct sl_idle_state {
	char name[16];
	u64 exit_latency_ns;
	u64 target_residency_ns;
	u64 power_mw;
	unsigned flags;
};

struct sl_cpuidle_driver {
	const char *name;
	int state_count;
	struct sl_idle_state states[SL_CPUIDLE_MAX_STATES];
};

/* One CPU's cpuidle device: what a governor sees, and the sysfs statistics. */
struct sl_cpuidle_dev {
	int cpu;
	/* inputs at select time */
	u64 next_timer_ns;  /* to the CPU's next timer event, the tick included while it runs */
	u64 latency_req_ns; /* the PM QoS limit */
	u64 cpu_load0;	    /* this_cpu_load(): cpu_load[0] at the last tick */
	int nr_iowait;
	/* the last idle period */
	int last_state_idx;
	u64 last_residency_ns; /* 0 when the state is not TIME_VALID */
	/* sysfs: stateN/usage and stateN/time (in ns here; sysfs shows us) */
	u64 usage[SL_CPUIDLE_MAX_STATES];
	u64 time_ns[SL_CPUIDLE_MAX_STATES];
	/* the current idle period */
	bool in_idle;
	int entered;
	u64 enter_time;
	void *gov_data;
};

struct sl_cpuidle_governor {
	const char *name;
	int (*enable)(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv);
	void (*disable)(struct sl_cpuidle_dev *dev);
	int (*select)(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv);
	void (*reflect)(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int index);
};

extern const struct sl_cpuidle_governor sl_gov_poll;
const struct sl_cpuidle_governor *sl_cpuidle_find_governor(const char *name);
extern const struct sl_cpuidle_driver sl_cpuidle_poll_driver;

/* Machine hooks. enter returns the chosen state index. */
int sl_cpuidle_enter(struct sl_sim *sim, struct sl_cpu *rq);
/* The CPU leaves idle; returns the exit latency the waker pays. */
u64 sl_cpuidle_exit(struct sl_sim *sim, struct sl_cpu *rq);
/* Whether the CPU is idle in a polling state (it sees need_resched without an IPI). */
bool sl_cpuidle_polling(const struct sl_sim *sim, const struct sl_cpu *rq);

#endif
