/* replay-idle: a trace's real idle intervals through the cpuidle governors (open loop). */
#ifndef SCHEDLAB_REPLAY_IDLE_H
#define SCHEDLAB_REPLAY_IDLE_H

#include <stdio.h>
#include <schedlab/types.h>

/* govs: the governors to replay (ngovs 0: all). Returns 0, or -1 with err set. */
int sl_replay_idle(const char *path, const char *machine, const char *const *govs, int ngovs,
		   bool lenient, bool json, FILE *out, char *err, size_t errlen);

#endif
