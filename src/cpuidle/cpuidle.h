/*
 * The cpuidle framework, shaped as the kernel's drivers/cpuidle: a driver's table of states
 * (exit latency, target residency, power, flags), a per-CPU device the governor reads and
 * writes, and a governor behind an ops struct (enable / select / reflect). It is a library that
 * knows nothing of the simulation: the machine's idle loop (machine/idle.c) drives it. On each
 * idle entry the machine calls sl_cpuidle_enter: the governor selects a state from what it sees
 * (time to the CPU's next timer event, the PM QoS latency limit, cpu_load[0], nr_iowait); the state
 * is entered and a cpu_idle event emitted. When something wakes the CPU the machine calls
 * sl_cpuidle_exit: the residency is measured (the kernel's TIME_VALID rule: a state without
 * the flag reports no measured time), the per-state usage and time of sysfs are updated, the
 * governor's reflect runs, and the exit latency is returned for the waker to pay.
 *
 * The framework has the POLL state and the poll governor; machine profiles (driver tables,
 * profiles/) and governors (governors/) are each one file and one line in their registry
 * (profiles/registry.c, the governor list in cpuidle.c).
 */
#ifndef SCHEDLAB_CPUIDLE_H
#define SCHEDLAB_CPUIDLE_H

#include <schedlab/types.h>

#define SL_CPUIDLE_MAX_STATES	 10
#define CPUIDLE_FLAG_POLL	 0x1
#define CPUIDLE_FLAG_TIME_VALID	 0x2
#define CPUIDLE_FLAG_TLB_FLUSHED 0x4 /* the hardware flushes the TLB (no flush IPIs needed) */
#define CPUIDLE_FLAG_TIMER_STOP	 0x8 /* the local APIC timer stops: needs the broadcast timer */
/* an ACPI C3-type state of acpi_idle (2.6.3x CPUIDLE_FLAG_CHECK_BM): entered through the
 * bus-master check, which may demote the entry to the driver's safe state (machine/idle.c) */
#define CPUIDLE_FLAG_CHECK_BM 0x10
/* PM_QOS_CPU_DMA_LAT_DEFAULT_VALUE: 2000 s, "no limit" */
#define SL_PM_QOS_DEFAULT_NS (2000ULL * NSEC_PER_SEC)

/* One idle state of a driver's table, ordered shallowest first (index 0 is poll on x86). */
struct sl_idle_state {
	char name[16];
	u64 exit_latency_ns;
	u64 target_residency_ns;
	u64 power_mw;	     /* power while in the state */
	unsigned flags;	     /* CPUIDLE_FLAG_* */
	u64 entry_energy_nj; /* energy of entering and leaving the state once */
};

struct sl_cpuidle_driver {
	char name[32];
	int state_count;
	struct sl_idle_state states[SL_CPUIDLE_MAX_STATES];
	u64 busy_power_mw; /* C0, running a task */
	/*
	 * acpi_idle (drivers/acpi/processor_idle.c of 2.6.3x; docs/model/cpuidle.md §7.4), 0 and
	 * false for a native table. latency_factor: the module parameter processor.latency_factor
	 * the table's target residencies were built with (target = _CST latency x factor).
	 * bm_check: pr->flags.bm_check, 1 on Intel SMP (acpi_processor_power_init_bm_check), with
	 * bm_control 0: an entry of a CHECK_BM state first reads BM_STS.
	 */
	unsigned latency_factor;
	bool bm_check;
};

/*
 * The governors' tunables (module parameters), the same for every CPU. Each governor declares
 * its own struct of u64 fields and its size (tunables_size in its ops) and names each field in a
 * row (struct sl_gov_param: the name --cpuidle-param takes, the offset in that struct, the
 * default, the bound). The framework places every governor's block in this store, one after the
 * other in registry order, so that a configuration carries them all by value; a governor reads
 * its own with sl_gov_tunables. A new governor with tunables touches only its own file.
 */
#define SL_GOV_TUNABLES_MAX 256 /* bytes: the store of every governor's block */
struct sl_gov_params {
	u64 store[SL_GOV_TUNABLES_MAX / sizeof(u64)];
};

/* One tunable of a governor, as --cpuidle-param NAME=VALUE sets it. */
struct sl_gov_param {
	const char *name;
	size_t offset; /* of its u64 in the governor's tunables struct */
	u64 def;
	u64 max; /* the largest value taken (1: a flag, "expected 0 or 1") */
};

/*
 * One CPU's cpuidle device: what a governor sees and writes. Times are nanoseconds; the 2.6.3x
 * governors convert to their microsecond integers themselves, as the kernel did.
 */
struct sl_cpuidle_dev {
	int cpu;
	const struct sl_gov_params *gp;
	u64 now_ns;  /* the simulated clock at select and at reflect */
	u64 tick_ns; /* TICK_NSEC = 1e9 / HZ */
	/* inputs to select */
	u64 next_timer_ns;  /* sleep length: to the CPU's next timer event, the tick included
			     * while it runs; UINT64_MAX when no timer is armed */
	u64 next_tick_ns;   /* to the next tick boundary (delta_tick), whether or not it runs */
	bool tick_stopped;  /* the tick was already stopped before this idle entry */
	u64 latency_req_ns; /* the PM QoS limit */
	u64 cpu_load0;	    /* this_cpu_load(): cpu_load[0] at the last tick */
	int nr_iowait;	    /* nr_iowait_cpu() */
	bool disabled[SL_CPUIDLE_MAX_STATES]; /* sysfs stateN/disable */
	/* outputs of select */
	bool stop_tick;	   /* modern governors clear it to keep the tick (recorded only) */
	u64 poll_limit_ns; /* how long state 0 may poll before it returns (0: until woken) */
	u64 predicted_ns;  /* what the governor expected the idle to last (0: no prediction) */
	/* the last idle period, for reflect and the next select */
	int last_state_idx;
	u64 last_residency_ns; /* measured, always; governors apply the TIME_VALID rule */
	bool poll_time_limit;  /* state 0 returned because poll_limit_ns expired */
	bool tick_wakeup;      /* woken by its own tick */
	bool timer_wakeup;     /* woken by one of its own timers (the tick included) */
	/* sysfs statistics per state */
	u64 usage[SL_CPUIDLE_MAX_STATES];
	u64 time_ns[SL_CPUIDLE_MAX_STATES];
	u64 above[SL_CPUIDLE_MAX_STATES];
	u64 below[SL_CPUIDLE_MAX_STATES];
	u64 rejected[SL_CPUIDLE_MAX_STATES];
	/* the figures of the whole run */
	u64 idle_energy_pj;   /* in the states, entry and exit included */
	u64 oracle_energy_pj; /* what the oracle's choice would have cost for the same periods */
	u64 oracle_agree;     /* periods where the governor chose the oracle's state */
	u64 periods;	      /* idle periods ended */
	u64 exit_latency_paid_ns; /* exit latency paid in all */
	u64 pred_abs_err_ns;	  /* sum of |predicted - measured| over periods with a prediction */
	u64 pred_count;
	u64 bm_demotions;  /* acpi_idle: CHECK_BM entries sent to the safe state (BM_STS set) */
	u64 bcast_wait_ns; /* acpi_idle: time spent waiting for and holding the broadcast lock */
	u64 pkg_exits;	   /* exits that also woke the package from a package C-state */
	u64 next_wake_ns;  /* the oracle governor's input: the next event already known to
			    * wake this CPU (its timers, interrupts routed to it) */
	/* the current idle period (framework only) */
	bool in_idle;
	int entered;
	u64 enter_time;
	u64 enter_ready; /* acpi_idle: when the entry's BROADCAST_ENTER released the lock */
	void *gov_data;	 /* the governor's per-CPU state, allocated by enable, freed by disable */
};

/*
 * A governor, as drivers/cpuidle/governors/: enable allocates its per-CPU state (returns 0, or
 * -1 when out of memory); select returns a state index (it must skip disabled states and honour
 * latency_req_ns); reflect runs right after the wake-up with the index entered.
 */
struct sl_cpuidle_governor {
	const char *name;
	const char *help;
	int rating;
	int (*enable)(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv);
	void (*disable)(struct sl_cpuidle_dev *dev);
	int (*select)(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv);
	void (*reflect)(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv, int index);
	/* its tunables: a struct of tunables_size bytes, one u64 per row of params (NULL: none) */
	size_t tunables_size;
	const struct sl_gov_param *params;
	int nparams;
};

extern const struct sl_cpuidle_governor sl_gov_poll;
/* A governor's disable when its enable made gov_data one calloc'd block: frees it. */
void sl_gov_free_data(struct sl_cpuidle_dev *dev);
const struct sl_cpuidle_governor *sl_cpuidle_find_governor(const char *name);
/* "; did you mean 'menu'?" for a governor name not found (core/suggest.h), else "" */
const char *sl_cpuidle_governor_hint(const char *name, char *buf, size_t len);
/*
 * gov's tunables for dev: its block in dev->gp, or, for a device without a configuration's (a
 * governor's unit test) or a governor outside the registry, defaults (tunables_size bytes) filled
 * from its rows. Never NULL.
 */
const void *sl_gov_tunables(const struct sl_cpuidle_dev *dev, const struct sl_cpuidle_governor *gov,
			    void *defaults);
/* Read a governor tunable by name: 0, or -2 if no governor has it. */
int sl_gov_param_get(const struct sl_gov_params *gp, const char *name, u64 *v);
/* Every governor's tunables at their defaults. */
void sl_gov_params_default(struct sl_gov_params *gp);
/* Set a governor tunable by name: 0, -1 with err for a bad value, -2 if no governor has it. */
int sl_gov_param_set(struct sl_gov_params *gp, const char *name, u64 v, char *err, size_t errlen);
/* "menu_tng_quirks, haltpoll_poll_ns, ...": every governor's tunables, in registry order */
void sl_gov_param_names(char *buf, size_t len);
/* The registry (cpuidle.c): every governor, one line each. */
extern const struct sl_cpuidle_governor *const sl_cpuidle_governors[];
extern const int sl_cpuidle_ngovernors;
extern const struct sl_cpuidle_driver sl_cpuidle_poll_driver;

/* What ended an idle period. */
enum sl_wake_reason {
	SL_WAKE_RESCHED,    /* a task was queued here: a local wake-up or a remote IPI */
	SL_WAKE_TIMER,	    /* one of the CPU's own timers */
	SL_WAKE_TICK,	    /* the CPU's tick (it runs while the CPU is the idle balancer) */
	SL_WAKE_POLL_LIMIT, /* state 0 reached poll_limit_ns */
	SL_WAKE_IRQ,	    /* a device interrupt routed to the CPU */
};

/* The state the oracle would have chosen for an idle period of `ns` (least energy within the
 * latency limit), and the energy of `ns` in state i, in picojoules. */
int sl_cpuidle_oracle_choice(const struct sl_cpuidle_driver *drv, const struct sl_cpuidle_dev *dev,
			     u64 ns);
u64 sl_cpuidle_energy_pj(const struct sl_cpuidle_driver *drv, int i, u64 ns);

#endif
