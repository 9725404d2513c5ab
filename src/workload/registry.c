/* The registry of workloads: one line per workload file. */
#include "workload/workload.h"

extern const struct sl_workload_ops sl_wl_hog, sl_wl_periodic, sl_wl_pingpong, sl_wl_make,
	sl_wl_mutex, sl_wl_fio, sl_wl_xclient, sl_wl_video, sl_wl_rtapp;

const struct sl_workload_ops *const sl_workloads[] = {
	&sl_wl_hog, &sl_wl_periodic, &sl_wl_pingpong, &sl_wl_make,  &sl_wl_mutex,
	&sl_wl_fio, &sl_wl_xclient,  &sl_wl_video,    &sl_wl_rtapp,
};
const int sl_nworkloads = (int)SL_ARRAY_SIZE(sl_workloads);
