/*
 * The CFS class and its two releases, for the release files, the registry (release.c) and the
 * tests: nothing else names them (tools/check_policy_names.sh).
 */
#ifndef SCHEDLAB_CFS_RELEASES_H
#define SCHEDLAB_CFS_RELEASES_H

#include "sched/class.h"
#include "sched/release.h"

extern const struct sl_sched_class sl_cfs_class;
extern const struct sl_release sl_cfs_2_6_31;
extern const struct sl_release sl_cfs_2_6_32;

#endif
