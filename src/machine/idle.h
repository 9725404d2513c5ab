/* The machine's idle loop around the cpuidle library (idle.c). */
#ifndef SCHEDLAB_MACHINE_IDLE_H
#define SCHEDLAB_MACHINE_IDLE_H

#include "cpuidle/cpuidle.h"

struct sl_sim;
struct sl_cpu;

/* Machine hooks. enter returns the chosen state index. */
int sl_cpuidle_enter(struct sl_sim *sim, struct sl_cpu *rq);
/* The CPU leaves idle; returns the exit latency the waker pays. */
u64 sl_cpuidle_exit(struct sl_sim *sim, struct sl_cpu *rq, enum sl_wake_reason why);
/* A CPU's energy so far, in picojoules: busy time at the busy power, plus its idle periods. */
u64 sl_cpuidle_cpu_energy_pj(const struct sl_sim *sim, int cpu);
/* core_power: add rq's core's energy up to now before one of its threads changes state;
 * exiting: the state rq is leaving (its transition energy is the core's), or -1. */
void sl_core_power_mark(struct sl_sim *sim, const struct sl_cpu *rq, int exiting);
/* The machine's energy so far, pJ: per core with core_power, else the CPUs' sum. */
u64 sl_machine_energy_pj(const struct sl_sim *sim);
/* acpi_idle's clockevents_notify wanting the global broadcast lock at t: returns when it
 * releases it, after bcast_lock ns in the first free slot at or after t (idle.c). */
u64 sl_bcast_notify(struct sl_sim *sim, u64 t);
/* Whether the CPU is idle in a polling state (it sees need_resched without an IPI). */
bool sl_cpuidle_polling(const struct sl_sim *sim, const struct sl_cpu *rq);

#endif
