/* The registry of workloads: one line per workload file. */
#include "workload/workload.h"

/* One X(ops) line per workload file, in `workloads` order. */
#define WORKLOADS(X)                                                                               \
	X(sl_wl_hog)                                                                               \
	X(sl_wl_periodic)                                                                          \
	X(sl_wl_pingpong)                                                                          \
	X(sl_wl_make)                                                                              \
	X(sl_wl_mutex)                                                                             \
	X(sl_wl_fio)                                                                               \
	X(sl_wl_xclient)                                                                           \
	X(sl_wl_video)                                                                             \
	X(sl_wl_rtapp)                                                                             \
	X(sl_wl_trace)

#define DECLARE(ops) extern const struct sl_workload_ops ops;
#define ENTRY(ops)   &ops,
WORKLOADS(DECLARE)

const struct sl_workload_ops *const sl_workloads[] = {WORKLOADS(ENTRY)};
const int sl_nworkloads = (int)SL_ARRAY_SIZE(sl_workloads);
