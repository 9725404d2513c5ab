/*
 * rt-app's start-up calibration of the recorded launch, for the model of that launch
 * (docs/validate.md, issue 28, "Waits behind the waker's vCPU, the tail").
 */
#ifndef SCHEDLAB_RTAPP_CALIB_REAL_H
#define SCHEDLAB_RTAPP_CALIB_REAL_H

#include "machine/machine_conf.h"
#include "validate/rtapp_log_read.h"

/*
 * With the machine parameter rtapp_calib_real set among mc's param lines: the ns per loop the
 * recorded launch calibrated (its logs' c_duration over perf, rounded), appended to mc as
 * rtapp_calib so that the model's runs are as many loops as the real ones. Nothing when the
 * flag is off, the logs hold no run, or mc has no room. 0, or -1 with err (a bad param line).
 */
int sl_rtapp_calib_real(struct sl_machine_conf *mc, const struct sl_rtlog *logs, int nlogs,
			char *err, size_t errlen);

#endif
