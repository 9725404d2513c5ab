/*
 * rtapp_calib_real: rt-app calibrates its ns per loop at each launch (13 or 14 ns in the
 * calibration half's recordings, 9 to 16 in earlier ones) and a run of N us is N * 1000 / that
 * many loops; one rtapp_calib for the machine makes every modelled run as long as the launch
 * that calibrate happened to measure. The launch's value is in its own logs: each row's perf
 * is the loops of its c_duration microseconds of runs.
 */
#include "validate/rtapp_calib_real.h"

#include <stdio.h>

#include "machine/params.h"

int sl_rtapp_calib_real(struct sl_machine_conf *mc, const struct sl_rtlog *logs, int nlogs,
			char *err, size_t errlen)
{
	struct sl_params p;
	u64 loops = 0, us = 0;

	sl_params_default(&p);
	for (int i = 0; i < mc->nparams; i++)
		if (sl_params_set(&p, mc->param[i], err, errlen))
			return -1;
	if (!p.rtapp_calib_real)
		return 0;
	for (int i = 0; i < nlogs; i++)
		for (size_t r = 0; r < logs[i].n; r++)
			if (logs[i].row[r][SL_RTLOG_PERF] > 0 &&
			    logs[i].row[r][SL_RTLOG_C_DURATION] > 0) {
				loops += (u64)logs[i].row[r][SL_RTLOG_PERF];
				us += (u64)logs[i].row[r][SL_RTLOG_C_DURATION];
			}
	/* the whole ns: rt-app's calibration is an integer, each run's loops rounded down */
	if (!loops || us * 1000 / loops == 0 || mc->nparams >= SL_MC_MAX_PARAMS)
		return 0;
	snprintf(mc->param[mc->nparams++], sizeof(mc->param[0]), "rtapp_calib=%lluns",
		 (unsigned long long)((us * 1000 + loops / 2) / loops));
	return 0;
}
