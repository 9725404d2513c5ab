/*
 * What the policies share, declared in sched/cfs.h (the scheduler's common vocabulary): the
 * load weights of the nice levels, the ilog2 of the boot scalings, and an entity's task. Kept
 * outside every policy's folder so that no policy's code depends on another's
 * (tools/check_policy_names.sh).
 */
#include "sched/cfs.h"

/* kernel/sched.c prio_to_weight[] and prio_to_wmult[] (2.6.31 = 2.6.32). */
const u64 sl_prio_to_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,	 1991,	1586,  1277,
	1024,  820,   655,   526,   423,   335,	  272,	 215,	172,   137,
	110,   87,    70,    56,    45,	   36,	  29,	 23,	18,    15,
};
const u64 sl_prio_to_wmult[40] = {
	48388,	  59856,    76040,    92818,	 118348,    147320,    184698,	  229616,
	287308,	  360437,   449829,   563644,	 704093,    875809,    1099582,	  1376151,
	1717300,  2157191,  2708050,  3363326,	 4194304,   5237765,   6557202,	  8165337,
	10153587, 12820798, 15790321, 19976592,	 24970740,  31350126,  39045157,  49367440,
	61356676, 76695844, 95443717, 119304647, 148102320, 186737708, 238609294, 286331153,
};

int sl_ilog2(u64 v)
{
	int l = -1;

	while (v) {
		v >>= 1;
		l++;
	}
	return l;
}

struct sl_task *sl_task_of(struct sched_entity *se)
{
	return sl_container_of(se, struct sl_task, se);
}
