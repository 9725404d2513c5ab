/*
 * The cpuidle framework, shaped as the kernel's drivers/cpuidle: a driver's table of states
 * (exit latency, target residency, power), and a governor behind an ops struct that `select`s a
 * state when a CPU goes idle and is told in `reflect` how long the CPU really stayed. The machine
 * calls sl_cpuidle_enter when a CPU has nothing to run and sl_cpuidle_exit when something wakes
 * it. The foundation has one state, POLL, and the poll governor; the cpuidle issue adds the
 * machine profiles and governors (one file each, one line in governors.c).
 */
#ifndef SCHEDLAB_CPUIDLE_H
#define SCHEDLAB_CPUIDLE_H

#include <schedlab/types.h>

struct sl_sim;
struct sl_cpu;

#define SL_CPUIDLE_MAX_STATES	10
#define CPUIDLE_FLAG_POLL	0x1
#define CPUIDLE_FLAG_TIME_VALID 0x2

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

/* What a governor sees of the CPU at idle entry (as the kernel's governors read it). */
struct sl_cpuidle_dev {
	int cpu;
	int last_state;
	u64 last_residency_ns;
	u64 next_timer_ns; /* time to the CPU's next timer event */
	u64 latency_limit_ns;
	u64 cpu_load0;
	int nr_iowait;
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

#endif
