/* Recording a real trace through tracefs (see record.c). */
#ifndef SCHEDLAB_RECORD_H
#define SCHEDLAB_RECORD_H

#include <stdio.h>
#include <schedlab/types.h>

/* 0: recorded, CMD succeeded; 1: recorded, CMD failed (err says); -1: nothing recorded. */
int sl_record(const char *out, const char *const *events, int nevents, char *const *cmd, char *err,
	      size_t errlen);

#endif
