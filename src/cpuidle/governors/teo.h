/*
 * The TEO governor's per-CPU state, public so that tests and reports can read dev->gov_data of
 * a CPU governed by sl_gov_teo. Only teo.c writes it.
 */
#ifndef SCHEDLAB_GOV_TEO_H
#define SCHEDLAB_GOV_TEO_H

#include "cpuidle/cpuidle.h"

#define SL_TEO_PULSE	   1024u
#define SL_TEO_DECAY_SHIFT 3
/* KTIME_MAX: "sleep length unknown" (not queried) or "no timer armed" */
#define SL_TEO_INF ((u64)INT64_MAX)
/* gov.h: RESIDENCY_THRESHOLD_NS, and TEO's LATENCY_THRESHOLD_NS = half of it */
#define SL_TEO_RESIDENCY_THRESHOLD_NS (15 * NSEC_PER_USEC)
#define SL_TEO_LATENCY_THRESHOLD_NS   (SL_TEO_RESIDENCY_THRESHOLD_NS / 2)

/* Bin i covers idle durations in [tr(i), tr(i + 1)); the last bin extends to infinity. */
struct sl_teo_bin {
	unsigned intercepts; /* woken in this bin although the timer was in a later one */
	unsigned hits;	     /* woken in this bin, the bin of the sleep length */
};

struct sl_teo_cpu {
	u64 sleep_length_ns; /* the last select's sleep length; SL_TEO_INF when not queried */
	struct sl_teo_bin bins[SL_CPUIDLE_MAX_STATES];
	unsigned total;		  /* sum of every bin's hits and intercepts */
	unsigned total_tick;	  /* decayed count of tick wake-ups */
	unsigned tick_intercepts; /* decayed count of intercepts no longer than a tick */
	unsigned short_idles;	  /* decayed count of idles under RESIDENCY_THRESHOLD_NS */
	bool tick_wakeup;	  /* the last wake-up came from the tick */
	bool artificial_wakeup;	  /* the last wake-up was the poll time limit (a safety net) */
	u64 measured_ns;	  /* the last update's idle duration estimate (diagnostics) */
};

#endif
