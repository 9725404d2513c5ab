/* Helpers shared by the profile plug-ins (not part of the public interface). */
#ifndef SCHEDLAB_CPUIDLE_PROFILE_H
#define SCHEDLAB_CPUIDLE_PROFILE_H

#include "cpuidle/profiles.h"

#define US(x) ((u64)(x)*NSEC_PER_USEC)
/* The rule of docs/model/cpuidle.md §7.5: entering and leaving a state costs about its exit latency
 * at busy (C0) power. ns x mW = pJ, so divide by 1000 for nJ. */
#define SL_ENTRY_NJ(lat_ns, busy_mw) ((u64)(lat_ns) * (u64)(busy_mw) / 1000)
#define SL_TV			     CPUIDLE_FLAG_TIME_VALID

/* A state with the entry energy of the rule above. */
#define SL_STATE(nm, lat_us, res_us, mw, fl, busy_mw)                                              \
	{                                                                                          \
		nm, US(lat_us), US(res_us), mw, fl, SL_ENTRY_NJ(US(lat_us), busy_mw)               \
	}

/* Copy a built-in table; built-in profiles take no argument. */
int sl_idle_profile_static(struct sl_cpuidle_driver *drv, const struct sl_cpuidle_driver *table,
			   const char *arg, char *err, size_t errlen);

#endif
