/*
 * A kernel release as the scheduler sees it: its fair class, CONFIG_HZ, the sched_features
 * table, which sysctls exist, the tunables' defaults and their boot scaling, and the cpuidle
 * governor the release boots with. It says nothing of how its class works: the class's own
 * per-release rules hang off class_data (CFS: struct sl_cfs_ops in cfs.h).
 *
 * The registry (release.c) is the one list of releases: --kernel, the error messages' lists of
 * valid names, the sweep and the tests all read it. A new policy is a folder src/sched/NAME/
 * (its class and a file that defines its struct sl_release) and one line in release.c; the
 * rest of the tree asks the release for capabilities (the fields below), never for its name
 * (tools/check_policy_names.sh, docs/architecture.md).
 */
#ifndef SCHEDLAB_RELEASE_H
#define SCHEDLAB_RELEASE_H

#include "sched/sched.h"

struct sl_sysctl_desc;
struct sl_sched_class;

/* a task policy (enum sl_policy) as a bit of a set of them */
#define SL_POLICY_BIT(p) (1u << (p))
/* the policies every release has: SCHED_NORMAL, SCHED_BATCH, SCHED_IDLE, SCHED_FIFO, SCHED_RR */
#define SL_POLICIES_LINUX                                                                          \
	(SL_POLICY_BIT(SL_SCHED_NORMAL) | SL_POLICY_BIT(SL_SCHED_BATCH) |                          \
	 SL_POLICY_BIT(SL_SCHED_IDLE) | SL_POLICY_BIT(SL_SCHED_FIFO) | SL_POLICY_BIT(SL_SCHED_RR))

/* a task policy of a release's own (BFS's SCHED_ISO), and how the errors name it */
struct sl_task_policy {
	int policy;	  /* enum sl_policy */
	const char *key;  /* the workloads' word for it (policy=iso) */
	const char *what; /* "BFS's SCHED_ISO" */
};

#define SL_SYSCTL_CFS	0x1 /* kernel.sched_* of 2.6.3x */
#define SL_SYSCTL_EEVDF 0x2 /* the debugfs tunables of 6.18 */

struct sl_release {
	const char *name;
	/* the release's fair class (class.h): what the machine calls */
	const struct sl_sched_class *fair;
	/* CONFIG_HZ of the release's reference machine (0: the params table's default) */
	u64 hz;
	/* boot scaling: sched_init_granularity for n online CPUs (NULL: none) */
	void (*init_granularity)(struct sl_tunables *t, int ncpu);
	/* a write of tunable_scaling or base_slice re-derives the normalized values (6.18's
	 * sched_update_scaling); NULL: the release has none */
	void (*update_scaling)(struct sl_tunables *t);
	/* the cpuidle governor the release boots with on a machine with C-states */
	const char *idle_governor;
	/*
	 * The release's x86 I/O and idle path (docs/model/blockio.md §3, cpuidle.md §7.4).
	 * acpi_idle: Intel CPUs ran acpi_idle (intel_idle arrived in 2.6.35): the 2.6.3x entry
	 * path (bus-master check, broadcast clockevent lock) applies to an ACPI table, and
	 * `--machine nehalem` means the BIOS _CST table (nehalem-acpi). irq_per_controller: block
	 * completion ran where the controller's interrupt was routed (QUEUE_FLAG_SAME_COMP was not
	 * in QUEUE_FLAG_DEFAULT), so --irq-affinity defaults to irqbalance, not issuer.
	 */
	bool acpi_idle;
	bool irq_per_controller;
	/* which rows of the shared sysctl table exist (SL_SYSCTL_*, sysctl.c), and the release's
	 * own rows after them (a new policy's tunables, kept in struct sl_tunables' policy[]) */
	unsigned sysctls;
	const struct sl_sysctl_desc *own_sysctls;
	int nown_sysctls;
	/* the task policies it has beyond SL_POLICIES_LINUX (BFS: SCHED_ISO); a workload that
	 * asks for another is refused, as sched_setscheduler's -EINVAL */
	const struct sl_task_policy *own_policies;
	int nown_policies;
	/* USER_SCHED group scheduling is modelled (--param group_sched=1; docs/model/cfs.md §7) */
	bool group_sched;
	/* its ftrace text has 2.6.3x's layouts: no flags column, the old sched_switch and
	 * sched_wakeup lines (src/trace/ftrace_text_writer.c) */
	bool ftrace_2_6;
	/* said after "Linux V has no such tunable" (what the release removed); NULL: nothing */
	const char *sysctl_hint;
	struct sl_feat_table feats;
	struct sl_tunables defaults; /* before the boot scaling */
	/* the fair class's own per-release rules (CFS: const struct sl_cfs_ops *) */
	const void *class_data;
};

/* The release a run uses when --kernel is not given. */
#define SL_DEFAULT_RELEASE "2.6.31"

extern const struct sl_release *const sl_releases[];
extern const int sl_nreleases;
/* NULL if no release has that name */
const struct sl_release *sl_release_find(const char *name);
const struct sl_release *sl_release_default(void);
/*
 * The model of a running kernel, by its `uname -r` ("6.18.44-fc"): 2.6.31 and 2.6.32 are modelled
 * as themselves; every release from 6.6 on runs EEVDF, modelled as 6.18 has it. NULL: none.
 */
const struct sl_release *sl_release_of_uname(const char *release);
/* "2.6.31, 2.6.32, 6.18": the registry's names, for error messages */
void sl_release_names(char *buf, size_t len);
/* the same of the releases for which has(rel) is true */
void sl_release_names_if(char *buf, size_t len, bool (*has)(const struct sl_release *rel));

/* Does rel have task policy `policy`? */
bool sl_release_has_policy(const struct sl_release *rel, int policy);
/* The first release of the registry with `policy` as its own, and its description; NULL: none */
const struct sl_release *sl_release_offering(int policy, const struct sl_task_policy **desc);
/* The class stack of a run of rel, highest first (the classes every release has above its
 * fair class, then the fair class) into out; returns how many */
int sl_release_classes(const struct sl_release *rel, const struct sl_sched_class **out);
/* The tunables at boot on ncpu CPUs: the release's defaults, the classes every release has
 * (RT's), then the release's boot scaling (sched_init_granularity) */
void sl_release_boot_tunables(const struct sl_release *rel, struct sl_tunables *t, int ncpu);

#endif
