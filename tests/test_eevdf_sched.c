/*
 * EEVDF (6.18) behaviour worked by hand from docs/model/eevdf.md §1, §2, §4, §5: delayed dequeue
 * and the wake of a delayed task, yield, wake-up preemption (protection, PREEMPT_SHORT, idle
 * policy), the wake-up CPU choice, the features file and the tunables, and whole runs: two
 * nice-0 hogs alternating in 4 ms ticks, nice 0 against nice 5.
 */
#include "eevdf_helpers.h"
#include "sched/cfs/cfs_releases.h"
#include "sched/sysctl.h"
#include "experiment/run.h"

#include <math.h>
#include <string.h>

#define SLICE2 1400000ULL

/* ---- delayed dequeue ---- */

/* rq: curr A at va, B in the tree at vb (both nice 0, slice 1.4 ms, z = 0); A sleeps */
static struct fixture *sleep_case(const char *feats, u64 va, u64 vb, struct sl_task **pa,
				  struct sl_task **pb)
{
	struct fixture *f = fixture_new("6.18", "2", feats);
	struct sl_cpu *rq = &f->sim->cpus[0];

	*pa = ee_task(0, 0, 0);
	*pb = ee_task(0, 0, 0);
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	ee_tree_add(f->sim, rq, *pb, vb, vb + SLICE2, SLICE2);
	ee_set_curr(f->sim, rq, *pa, va, va + SLICE2, SLICE2);
	(*pa)->state = TS_SLEEPING;
	sl_eevdf_class.dequeue_task(f->sim, rq, *pa, 1);
	return f;
}

static void test_delay_dequeue(void **state)
{
	struct sl_task *a, *b;
	struct fixture *f;
	struct sl_cpu *rq;

	(void)state;
	/* A at 2 ms, B at 0: V = 1 ms, A ineligible: it stays queued, delayed; no longer
	 * runnable (nr_running 1) but still counted (nr_queued 2) */
	f = sleep_case(NULL, 2000000, 0, &a, &b);
	rq = &f->sim->cpus[0];
	assert_true(a->se.sched_delayed);
	assert_int_equal(a->se.on_rq, 1);
	assert_int_equal(ee_rq_of(f->sim, rq)->nr_queued, 2);
	assert_int_equal(rq->nr_running, 1);
	/* woken before it is picked: back as it was; its lag V - v = -1 ms is not positive, so
	 * DELAY_ZERO leaves it where it is */
	sl_eevdf_class.put_prev_task(f->sim, rq, a);
	a->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(f->sim, rq, a, 1);
	assert_false(a->se.sched_delayed);
	assert_int_equal(a->se.vruntime, 2000000);
	assert_int_equal(rq->nr_running, 2);
	fixture_free(f);
	free(a);
	free(b);

	/* NO_DELAY_DEQUEUE: gone at once with lag V - v = 1 ms - 2 ms */
	f = sleep_case("NO_DELAY_DEQUEUE", 2000000, 0, &a, &b);
	rq = &f->sim->cpus[0];
	assert_false(a->se.sched_delayed);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(ee_rq_of(f->sim, rq)->nr_queued, 1);
	assert_int_equal(ee_se(&a->se)->vlag, -1000000);
	fixture_free(f);
	free(a);
	free(b);

	/* an eligible sleeper leaves at once: A at 0, B at 2 ms: lag +1 ms kept */
	f = sleep_case(NULL, 0, 2000000, &a, &b);
	assert_int_equal(a->se.on_rq, 0);
	assert_int_equal(ee_se(&a->se)->vlag, 1000000);
	fixture_free(f);
	free(a);
	free(b);

	/* the lag clamp: A at 0, B at 20 ms, V = 10 ms: L = calc_delta_fair(max_slice 1.4 ms +
	 * TICK_NSEC 4 ms) = 5.4 ms */
	f = sleep_case(NULL, 0, 20000000, &a, &b);
	assert_int_equal(ee_se(&a->se)->vlag, 5400000);
	fixture_free(f);
	free(a);
	free(b);
}

/* a delayed A (tree, 2 ms) woken while curr B has run on to 5 ms: V = 3.5 ms, lag +1.5 ms */
static void wake_delayed(const char *feats, u64 *v, u64 *d, s64 *vlag)
{
	struct fixture *f = fixture_new("6.18", "2", feats);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0);

	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	ee_tree_add(f->sim, rq, a, 2000000, 3400000, SLICE2);
	a->se.sched_delayed = true;
	a->state = TS_SLEEPING;
	rq->nr_running--;
	ee_set_curr(sim, rq, b, 5000000, 6400000, SLICE2);
	a->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, rq, a, 1);
	assert_false(a->se.sched_delayed);
	assert_int_equal(rq->nr_running, 2);
	*v = a->se.vruntime;
	*d = ee_se(&a->se)->deadline;
	*vlag = ee_se(&a->se)->vlag;
	fixture_free(f);
	free(a);
	free(b);
}

static void test_delay_zero_on_wake(void **state)
{
	u64 v, d;
	s64 vlag;

	(void)state;
	/* DELAY_ZERO: the positive lag is dropped and A re-placed at V of the queue without it:
	 * only curr B remains, V = 5 ms; d = 5 ms + 1.4 ms */
	wake_delayed(NULL, &v, &d, &vlag);
	assert_int_equal(v, 5000000);
	assert_int_equal(d, 6400000);
	assert_int_equal(vlag, 0);
	/* NO_DELAY_ZERO: A keeps its place and its credit */
	wake_delayed("NO_DELAY_ZERO", &v, &d, &vlag);
	assert_int_equal(v, 2000000);
	assert_int_equal(d, 3400000);
}

/* A delayed entity that is picked leaves for good (vlag clipped to <= 0); B is picked. */
static void pick_delayed(const char *feats, s64 *vlag)
{
	struct fixture *f = fixture_new("6.18", "2", feats);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0);

	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* A (delayed) v 0 d 1 ms, B v 2 ms d 3.4 ms: V = 1 ms, A eligible with the earliest
	 * deadline, so picked, dequeued with lag V - 0 = +1 ms, and B picked instead */
	ee_tree_add(f->sim, rq, a, 0, 1000000, SLICE2);
	ee_tree_add(f->sim, rq, b, 2000000, 3400000, SLICE2);
	a->se.sched_delayed = true;
	rq->nr_running--;
	assert_ptr_equal(sl_eevdf_class.pick_next_task(sim, rq), b);
	assert_int_equal(a->se.on_rq, 0);
	assert_false(a->se.sched_delayed);
	assert_int_equal(ee_rq_of(f->sim, rq)->nr_queued, 1);
	assert_ptr_equal(ee_rq_of(f->sim, rq)->curr, &b->se);
	*vlag = ee_se(&a->se)->vlag;
	fixture_free(f);
	free(a);
	free(b);
}

static void test_pick_delayed(void **state)
{
	s64 vlag;

	(void)state;
	pick_delayed(NULL, &vlag);
	assert_int_equal(vlag, 0);
	pick_delayed("NO_DELAY_ZERO", &vlag);
	assert_int_equal(vlag, 1000000);
}

/* ---- yield ---- */

static void test_yield(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* eligible A (v 0 = V): v jumps to its deadline 1.4 ms, new d = 1.4 + 1.4 ms */
	ee_tree_add(f->sim, rq, b, 0, SLICE2, SLICE2);
	ee_set_curr(sim, rq, a, 0, SLICE2, SLICE2);
	sl_eevdf_class.yield_task(sim, rq);
	assert_int_equal(a->se.vruntime, SLICE2);
	assert_int_equal(ee_se(&a->se)->deadline, 2 * SLICE2);
	/* now ineligible (1.4 ms > V = 0.7 ms): a second yield changes nothing */
	sl_eevdf_class.yield_task(sim, rq);
	assert_int_equal(a->se.vruntime, SLICE2);
	assert_int_equal(ee_se(&a->se)->deadline, 2 * SLICE2);
	fixture_free(f);
	free(a);
	free(b);
}

/* ---- wake-up preemption ---- */

/* curr A (v 0, d 1.4 ms, protected to vprot), wakee W in the tree (v 0, d 0.7 ms, slice) */
static bool wake_preempts(const char *feats, u64 vprot, u64 wslice, int cpol, int wpol,
			  u64 *vprot_after)
{
	struct fixture *f = fixture_new("6.18", "2", feats);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, cpol, 0), *w = ee_task(0, wpol, 0);
	bool r;

	a->se.load = w->se.load; /* same weight whatever the policy: only the rule differs */
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	ee_tree_add(f->sim, rq, w, 0, 700000, wslice);
	w->se.custom_slice = true;
	ee_set_curr(sim, rq, a, 0, SLICE2, SLICE2);
	ee_se(&a->se)->vprot = vprot;
	sl_eevdf_class.check_preempt_curr(sim, rq, w, 0);
	r = rq->need_resched;
	*vprot_after = ee_se(&a->se)->vprot;
	fixture_free(f);
	free(a);
	free(w);
	return r;
}

static void test_wakeup_preemption(void **state)
{
	u64 vp;

	(void)state;
	/* protected curr, same slice: the pick keeps curr */
	assert_false(wake_preempts(NULL, SLICE2, SLICE2, 0, 0, &vp));
	assert_int_equal(vp, SLICE2);
	/* protection spent: the wakee's earlier deadline wins */
	assert_true(wake_preempts(NULL, 0, SLICE2, 0, 0, &vp));
	/* PREEMPT_SHORT: a 0.1 ms wakee ignores the protection, which is cancelled (vprot = v) */
	assert_true(wake_preempts(NULL, SLICE2, 100000, 0, 0, &vp));
	assert_int_equal(vp, 0);
	assert_false(wake_preempts("NO_PREEMPT_SHORT", SLICE2, 100000, 0, 0, &vp));
	/* NO_WAKEUP_PREEMPTION: never */
	assert_false(wake_preempts("NO_WAKEUP_PREEMPTION", 0, SLICE2, 0, 0, &vp));
	/* a SCHED_IDLE curr yields to a normal wakee even when protected */
	assert_true(wake_preempts(NULL, SLICE2, SLICE2, SL_SCHED_IDLE, 0, &vp));
	/* a SCHED_BATCH wakee never preempts */
	assert_false(wake_preempts(NULL, 0, SLICE2, 0, SL_SCHED_BATCH, &vp));
}

/*
 * The machine's wake_preempt rule through the class's wakee_first: curr A at v 0, wakee W
 * queued at v 2 ms (both nice 0): V = 1 ms, W ineligible. Unforced, W is left to the pick
 * (no buddy, no reschedule, the pick keeps A); forced (wake_preempt_again, wake_preempt_all)
 * W is the next buddy, A is rescheduled and the pick takes W anyway.
 */
static void wakee_first_case(bool force)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sl_task *a = ee_task(0, 0, 0), *w = ee_task(0, 0, 0);

	cfs->zero_vruntime = 0;
	ee_tree_add(sim, rq, w, 2000000, 2000000 + SLICE2, SLICE2);
	ee_set_curr(sim, rq, a, 0, SLICE2, SLICE2);
	assert_false(sl_eevdf_entity_eligible(cfs, &w->se));
	sl_eevdf_class.wakee_first(sim, rq, w, force);
	assert_int_equal(rq->need_resched, force);
	assert_ptr_equal(cfs->next, force ? &w->se : NULL);
	assert_ptr_equal(sl_eevdf_pick_next_entity(sim, cfs, &a->se), force ? &w->se : &a->se);
	fixture_free(f);
	free(a);
	free(w);
}

static void test_wakee_first_force(void **state)
{
	(void)state;
	wakee_first_case(false);
	wakee_first_case(true);
}

/*
 * set_next_entity clears the picked entity's next-buddy mark (kernel/sched/fair.c, 6.18.y: its
 * first statement). The same rq: A curr at v 0 (d 1.4 ms), W queued at v 2 ms, ineligible
 * (V = 1 ms). The forced wakee_first makes W the buddy; the switch puts A back and picks W,
 * which clears the mark. W is put back at once (say a task of a higher class took the CPU):
 * with V still 1 ms, EEVDF's pick is A (eligible, d 1.4 ms; W ineligible). Left set, the
 * forced mark would give the CPU to W again.
 */
static void test_buddy_cleared_at_pick(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);
	struct sl_task *a = ee_task(0, 0, 0), *w = ee_task(0, 0, 0);

	(void)state;
	cfs->zero_vruntime = 0;
	ee_tree_add(sim, rq, w, 2000000, 2000000 + SLICE2, SLICE2);
	ee_set_curr(sim, rq, a, 0, SLICE2, SLICE2);
	sl_eevdf_class.wakee_first(sim, rq, w, true);
	assert_ptr_equal(cfs->next, &w->se);
	sl_eevdf_class.put_prev_task(sim, rq, a);
	assert_ptr_equal(sl_eevdf_class.pick_next_task(sim, rq), w);
	assert_null(cfs->next);
	rq->curr = w;
	sl_eevdf_class.put_prev_task(sim, rq, w);
	rq->curr = NULL; /* the CPU went to another class meanwhile: no re-pick of prev */
	assert_ptr_equal(sl_eevdf_class.pick_next_task(sim, rq), a);
	assert_int_equal(ee_se(&a->se)->vprot, SLICE2);
	fixture_free(f);
	free(a);
	free(w);
}

/* ---- the wake-up CPU (§5) ---- */

/* 2 CPUs: CPU0 runs the waker plus n0 - 1 queued, CPU1 n1 tasks (0: idle); p last ran on 1 */
static int wake_cpu(int n0, int n1, int wake_flags, unsigned sd_flag)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *t[8], *p = ee_task(0, 0, 1);
	int nt = 0, cpu;

	for (int c = 0; c < 2; c++) {
		int n = c ? n1 : n0;

		for (int i = 0; i < n; i++) {
			struct sl_task *q = ee_task(0, 0, c);

			t[nt++] = q;
			if (i == 0)
				ee_set_curr(sim, &sim->cpus[c], q, 0, SLICE2, SLICE2);
			else
				ee_tree_add(f->sim, &sim->cpus[c], q, 0, SLICE2, SLICE2);
			ee_se(&q->se)->avg.load_avg = 1024;
		}
		ee_rq_of(sim, &sim->cpus[c])->avg.load_avg = 1024 * (u64)n;
	}
	/* PELT as long runs leave it (wake_affine_weight reads load_avg): 1024 a task, and p's
	 * blocked 1024 still on its prev, CPU1 */
	ee_se(&p->se)->avg.load_avg = 1024;
	ee_rq_of(sim, &sim->cpus[1])->avg.load_avg += 1024;
	cpu = sl_eevdf_select_task_rq(sim, p, 0, sd_flag, wake_flags);
	fixture_free(f);
	for (int i = 0; i < nt; i++)
		free(t[i]);
	free(p);
	return cpu;
}

/*
 * The same both-busy case through try_to_wake_up: 6.18 has no SYNC_WAKEUPS flag, and its
 * select_task_rq_fair takes sync from WF_SYNC, so a sync wake-up reaches wake_affine_idle (the
 * waker alone on CPU0: CPU0) where a plain one goes by weight (prev, CPU1, as above).
 */
static int ttwu_cpu(int wake_flags)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *w = ee_task(0, 0, 0), *b = ee_task(0, 0, 1), *p = ee_task(0, 0, 1);
	int cpu;

	ee_set_curr(sim, &sim->cpus[0], w, 0, SLICE2, SLICE2);
	ee_set_curr(sim, &sim->cpus[1], b, 0, SLICE2, SLICE2);
	/* PELT: 1024 a task, p's blocked 1024 on CPU1 (as wake_cpu below) */
	ee_se(&w->se)->avg.load_avg = ee_se(&b->se)->avg.load_avg = ee_se(&p->se)->avg.load_avg =
		1024;
	ee_rq_of(sim, &sim->cpus[0])->avg.load_avg = 1024;
	ee_rq_of(sim, &sim->cpus[1])->avg.load_avg = 2048;
	sim->this_cpu = 0;
	p->state = TS_SLEEPING;
	sl_try_to_wake_up(sim, p, w, wake_flags);
	cpu = p->cpu;
	fixture_free(f);
	free(w);
	free(b);
	free(p);
	return cpu;
}

/*
 * wake_affine_weight on PELT's loads as last updated, not the runnable weights: both CPUs run
 * one task; the waker on CPU0 has run little (load_avg 50), CPU1's task is a long runner (1024)
 * and p's blocked 1024 is still on CPU1. this = (50 + 1024) x 100 x 1024 = 109977600 < prev =
 * (2048 - 1024) x 108 x 1024 = 113246208: the waker's CPU. By weights (1024 each) it would be
 * 204800 x 1024 against 110592 x 1024: prev.
 */
static void test_wake_affine_pelt(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *w = ee_task(0, 0, 0), *b = ee_task(0, 0, 1), *p = ee_task(0, 0, 1);

	(void)state;
	ee_set_curr(sim, &sim->cpus[0], w, 0, SLICE2, SLICE2);
	ee_set_curr(sim, &sim->cpus[1], b, 0, SLICE2, SLICE2);
	ee_se(&w->se)->avg.load_avg = 50;
	ee_se(&b->se)->avg.load_avg = 1024;
	ee_se(&p->se)->avg.load_avg = 1024;
	ee_rq_of(sim, &sim->cpus[0])->avg.load_avg = 50;
	ee_rq_of(sim, &sim->cpus[1])->avg.load_avg = 2048;
	assert_int_equal(sl_eevdf_select_task_rq(sim, p, 0, SD_BALANCE_WAKE, 0), 0);
	fixture_free(f);
	free(w);
	free(b);
	free(p);
}

static void test_wake_cpu(void **state)
{
	(void)state;
	assert_int_equal(ttwu_cpu(WF_SYNC), 0);
	assert_int_equal(ttwu_cpu(0), 1);
	(void)state;
	/* prev idle: WA_IDLE keeps prev, select_idle_sibling confirms it */
	assert_int_equal(wake_cpu(1, 0, 0, SD_BALANCE_WAKE), 1);
	/* both busy, sync, the waker alone on CPU0: affine to the waker's CPU */
	assert_int_equal(wake_cpu(1, 1, WF_SYNC, SD_BALANCE_WAKE), 0);
	/* both busy, not sync, WA_WEIGHT: this = (1024 + 1024) x 100 x 1024 = 209715200;
	 * prev = (2048 - 1024) x 108 x 1024 = 113246208: not smaller, prev */
	assert_int_equal(wake_cpu(1, 1, 0, SD_BALANCE_WAKE), 1);
	/* prev with 3 tasks: prev = (4096 - 1024) x 108 x 1024 = 339738624 > this: the waker's
	 * CPU */
	assert_int_equal(wake_cpu(1, 3, 0, SD_BALANCE_WAKE), 0);
	/* fork: the forking CPU busy, the other idle: the idle one */
	assert_int_equal(wake_cpu(1, 0, 0, SD_BALANCE_FORK), 1);
	/* fork with both busy, 3 tasks on CPU0 and 1 on CPU1, no utilization: both groups have
	 * spare capacity and no idle CPU: the local CPU0 (test_fork_idlest has PELT's) */
	assert_int_equal(wake_cpu(3, 1, 0, SD_BALANCE_FORK), 0);
}

/*
 * The fork's CPU (6.18's sched_balance_find_dst_group over one-CPU groups) on CPUs given tasks
 * (n[c], the first running) and PELT sums (util[c], runnable = util, load 1024 a task); the
 * parent forks on CPU 0.
 */
static int fork_cpu(int ncpu, const int *n, const u64 *util, const u64 *load)
{
	char cpus[8];
	struct fixture *f;
	struct sl_sim *sim;
	struct sl_task *t[16], *p = ee_task(0, 0, 0);
	int nt = 0, cpu;

	snprintf(cpus, sizeof(cpus), "%d", ncpu);
	f = fixture_new("6.18", cpus, NULL);
	sim = f->sim;
	for (int c = 0; c < ncpu; c++) {
		struct eevdf_rq *ee = ee_rq_of(sim, &sim->cpus[c]);

		for (int i = 0; i < n[c]; i++) {
			t[nt] = ee_task(0, 0, c);
			if (i == 0)
				ee_set_curr(sim, &sim->cpus[c], t[nt], 0, SLICE2, SLICE2);
			else
				ee_tree_add(sim, &sim->cpus[c], t[nt], 0, SLICE2, SLICE2);
			nt++;
		}
		ee->avg.util_avg = ee->avg.runnable_avg = util[c];
		ee->avg.load_avg = load ? load[c] : 1024 * (u64)n[c];
	}
	sl_nr_levels_rebuild(sim);
	cpu = sl_eevdf_select_task_rq(sim, p, 0, SD_BALANCE_FORK, 0);
	fixture_free(f);
	for (int i = 0; i < nt; i++)
		free(t[i]);
	free(p);
	return cpu;
}

static void test_fork_idlest(void **state)
{
	(void)state;
	/* CPU0: 3 tasks, util 1024 (overloaded); CPU1: 1 task, util 1024 (fully busy): a lower
	 * type, CPU1 */
	assert_int_equal(fork_cpu(2, (int[]){3, 1}, (u64[]){1024, 1024}, NULL), 1);
	/* CPU0: 2 light tasks (util 300: spare capacity); CPU1: 1 task, util 1024 (fully busy):
	 * the local group is of a lower type, CPU0 stays (by the task count CPU1 would take it) */
	assert_int_equal(fork_cpu(2, (int[]){2, 1}, (u64[]){300, 1024}, NULL), 0);
	/* CPU0: 1 task, util 900 (fully busy); CPU1 and CPU2 idle (spare, one idle CPU each),
	 * util 200 and 100: the lower util, CPU2 (the first idle one would be CPU1) */
	assert_int_equal(fork_cpu(3, (int[]){1, 0, 0}, (u64[]){900, 200, 100}, NULL), 2);
	/* both overloaded (2 tasks, util 1024), loads 2048 and 1900: avg_loads the same; 1900 <
	 * 2048 + 174, but 100 x 2048 = 204800 <= 117 x 1900 = 222300: CPU0 stays */
	assert_int_equal(fork_cpu(2, (int[]){2, 2}, (u64[]){1024, 1024}, (u64[]){2048, 1900}), 0);
	/* loads 2048 and 1700: 204800 > 198900 and 1700 < 2222: CPU1 */
	assert_int_equal(fork_cpu(2, (int[]){2, 2}, (u64[]){1024, 1024}, (u64[]){2048, 1700}), 1);
	/* loads 2048 and 1873: 204800 <= 117 x 1873 = 219141: CPU0 stays; with CPU0 at 3000:
	 * 1873 < 3000 + 174 and 300000 > 219141: CPU1 (an idlest group 174 or more above the
	 * local avg_load, 6.18's other test, is always within the 117% rule too) */
	assert_int_equal(fork_cpu(2, (int[]){2, 2}, (u64[]){1024, 1024}, (u64[]){2048, 1873}), 0);
	assert_int_equal(fork_cpu(2, (int[]){2, 2}, (u64[]){1024, 1024}, (u64[]){3000, 1873}), 1);
	/* both fully busy (1 task, util 1024), loads 1024 and 800: 1024 x 100 = 102400 > 93600,
	 * 800 < 1198: CPU1 (avg_load is computed for fully busy groups in this path) */
	assert_int_equal(fork_cpu(2, (int[]){1, 1}, (u64[]){1024, 1024}, (u64[]){1024, 800}), 1);
}

/*
 * select_idle_cpu's walk of the LLC on sockets: 2x2x2 numbers its CPUs first threads then
 * siblings, so socket 0 holds CPUs 0, 1, 4, 5 and socket 1 CPUs 2, 3, 6, 7. A timer wake-up (no
 * waking task) of a task last on busy `prev` takes the first idle CPU of prev's socket after
 * prev by id, wrapping; CPUs of the other socket are passed over. idle: a mask of idle CPUs.
 */
static int llc_wake_cpu(int prev, unsigned idle)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sl_task *t[8] = {0}, *p = ee_task(0, 0, prev);
	struct sl_args a;
	char err[2048];
	int cpu;

	assert_non_null(f);
	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.topology = "2x2x2";
	if (sl_config_build(&f->cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	f->sim = sl_sim_new(&f->cfg);
	assert_non_null(f->sim);
	/* SIS_UTIL's budget as a periodic balance of an idle LLC leaves it: all 4 of its CPUs
	 * (it starts at 0, where the walk looks at none: tests/test_eevdf_pelt.c) */
	for (int c = 0; c < 8; c++)
		ee_rq_of(f->sim, &f->sim->cpus[c])->nr_idle_scan = 4;
	for (int c = 0; c < 8; c++) {
		if (idle >> c & 1)
			continue;
		t[c] = ee_task(0, 0, c);
		ee_set_curr(f->sim, &f->sim->cpus[c], t[c], 0, SLICE2, SLICE2);
	}
	cpu = sl_eevdf_select_task_rq(f->sim, p, -1, SD_BALANCE_WAKE, 0);
	fixture_free(f);
	for (int c = 0; c < 8; c++)
		free(t[c]);
	free(p);
	return cpu;
}

static void test_wake_cpu_llc_walk(void **state)
{
	(void)state;
	/* from 1: 2 and 3 are socket 1's; 4 idle comes before 0 */
	assert_int_equal(llc_wake_cpu(1, 1u << 0 | 1u << 4), 4);
	/* from 5: 6 and 7 are socket 1's, then the wrap: 0 busy, 1 idle */
	assert_int_equal(llc_wake_cpu(5, 1u << 1 | 1u << 6), 1);
	/* from 4: only socket 1 has an idle CPU: prev's own CPU, busy as it is */
	assert_int_equal(llc_wake_cpu(4, 1u << 2 | 1u << 7), 4);
	/* from 0: 1 busy, 4 idle */
	assert_int_equal(llc_wake_cpu(0, 1u << 4 | 1u << 5 | 1u << 3), 4);
}

/* ---- balancing (§5) ---- */

/*
 * CPU0: curr C, then X (ran 0.2 ms ago: hot) and Y (ran 8 ms ago) queued, X at the tail
 * (least recently queued); CPU1: idle, or running D. now = 10 ms. Returns the balance result
 * and which CPU X and Y end on (as a two-digit number XY).
 */
static int lb_case_util(bool with_y, bool dst_busy, int failed, enum ee_idle idle, u64 dst_util,
			int *where)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0), *y = ee_task(0, 0, 0),
		       *d = ee_task(0, 0, 1);
	int r;

	sim->now = 10000000;
	ee_rq_of(f->sim, src)->zero_vruntime = 0;
	ee_set_curr(sim, src, c, 0, SLICE2, SLICE2);
	ee_tree_add(f->sim, src, x, 0, SLICE2, SLICE2);
	x->se.exec_start = 9800000;
	if (with_y) {
		ee_tree_add(f->sim, src, y, 0, SLICE2, SLICE2);
		y->se.exec_start = 2000000;
	}
	if (dst_busy)
		ee_set_curr(sim, dst, d, 0, SLICE2, SLICE2);
	ee_rq_of(f->sim, dst)->nr_balance_failed = failed;
	/* the source busy all along with its tasks waiting (util 1024, runnable 1024 a task),
	 * the destination's util as given, its runnable equal */
	ee_rq_of(sim, src)->avg.util_avg = 1024;
	ee_rq_of(sim, src)->avg.runnable_avg = with_y ? 3072 : 2048;
	ee_rq_of(sim, dst)->avg.util_avg = ee_rq_of(sim, dst)->avg.runnable_avg = dst_util;
	sl_nr_levels_rebuild(sim); /* the runqueues were filled by hand */
	r = sl_eevdf_load_balance(sim, dst, idle);
	*where = x->cpu * 10 + y->cpu;
	fixture_free(f);
	free(c);
	free(x);
	free(y);
	free(d);
	return r;
}

static int lb_case(bool with_y, bool dst_busy, int failed, enum ee_idle idle, int *where)
{
	return lb_case_util(with_y, dst_busy, failed, idle, dst_busy ? 1024 : 0, where);
}

static void test_load_balance(void **state)
{
	int where;

	(void)state;
	/* idle dst, 3 runnable on src (the src group overloaded: util 1024 x 117 > 1024 x 100):
	 * migrate_task, sibling_imbalance (3 - 0) >> 1 = 1 task; X is hot (0.2 ms < 0.5 ms, no
	 * failure yet), so Y moves */
	assert_int_equal(lb_case(true, false, 0, EE_CPU_IDLE, &where), 1);
	assert_int_equal(where, 1);
	/* after two failures (> cache_nice_tries 1) hotness no longer protects: X, the tail */
	assert_int_equal(lb_case(true, false, 2, EE_CPU_IDLE, &where), 1);
	assert_int_equal(where, 10);
	/* busy dst (1 task, util 1024: 102400 > 119808 fails, fully busy) against 3 (overloaded):
	 * migrate_load; avg_loads 1024 and 3072, the domain's (1024 + 3072) x 1024 / 2048 = 2048;
	 * imbalance min(3072 - 2048, 2048 - 1024) = 1024: one nice-0 task (1024) fits: Y */
	assert_int_equal(lb_case(true, true, 0, EE_CPU_NOT_IDLE, &where), 1);
	assert_int_equal(where, 1);
	/* the same with dst's util 875 (102400 > 102375: spare capacity): a busy CPU with spare
	 * capacity gets sibling_imbalance 0: balanced, nothing moves (the tasks' count would
	 * have moved Y) */
	assert_int_equal(lb_case_util(true, true, 0, EE_CPU_NOT_IDLE, 875, &where), -1);
	assert_int_equal(where, 0);
	/* util 876 (102400 < 102492): fully busy again, Y moves */
	assert_int_equal(lb_case_util(true, true, 0, EE_CPU_NOT_IDLE, 876, &where), 1);
	assert_int_equal(where, 1);
	/* src C + X (X hot) against busy dst: avg_loads 1024 and 2048, the domain's 1536,
	 * imbalance min(512, 512) = 512 < 1024: nothing fits (a failure, 0); after one failure
	 * the load is halved (1024 >> 1 = 512) but X is still hot (failures <= 1); after two it
	 * moves */
	assert_int_equal(lb_case(false, true, 0, EE_CPU_NOT_IDLE, &where), 0);
	assert_int_equal(lb_case(false, true, 1, EE_CPU_NOT_IDLE, &where), 0);
	assert_int_equal(lb_case(false, true, 2, EE_CPU_NOT_IDLE, &where), 1);
	assert_int_equal(where / 10, 1);
}

/*
 * migrate_load on PELT's loads: CPU0 runs C (load_avg 1024) with X waiting, X newly arrived
 * (load_avg 100), util 1024 and runnable 2048 (overloaded); CPU1 runs D (load 1024, util 1024:
 * fully busy). avg_loads 1124 and 1024, the domain's 2148 x 1024 / 2048 = 1074; imbalance
 * min(1124 - 1074, 1074 - 1024) = 50 < X's 100: nothing fits, a failed balance (0). (The 117%
 * rule applies only to an overloaded destination.)
 */
static void test_load_balance_pelt(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0), *d = ee_task(0, 0, 1);

	(void)state;
	sim->now = 10000000;
	ee_set_curr(sim, src, c, 0, SLICE2, SLICE2);
	ee_tree_add(f->sim, src, x, 0, SLICE2, SLICE2);
	ee_set_curr(sim, dst, d, 0, SLICE2, SLICE2);
	ee_se(&x->se)->avg.load_avg = 100;
	ee_rq_of(sim, src)->avg.load_avg = 1124;
	ee_rq_of(sim, src)->avg.util_avg = 1024;
	ee_rq_of(sim, src)->avg.runnable_avg = 2048;
	ee_rq_of(sim, dst)->avg.util_avg = ee_rq_of(sim, dst)->avg.runnable_avg = 1024;
	sl_nr_levels_rebuild(sim);
	assert_int_equal(sl_eevdf_load_balance(sim, dst, EE_CPU_NOT_IDLE), 0);
	assert_int_equal(x->cpu, 0);
	fixture_free(f);
	free(c);
	free(x);
	free(d);
}

/* one-CPU groups (weight 1, capacity 1024) with the given tasks and PELT sums */
static struct ee_sg_stats sg(unsigned nr, unsigned h_nr, u64 load, u64 util, u64 runnable)
{
	struct ee_sg_stats s = {
		.group_load = load,
		.group_util = util,
		.group_runnable = runnable,
		.sum_nr_running = nr,
		.sum_h_nr_running = h_nr,
		.group_capacity = 1024,
		.group_weight = 1,
	};

	sl_eevdf_group_classify(117, &s);
	return s;
}

/*
 * 6.18's group_is_overloaded and group_has_capacity with imbalance_pct 117, capacity 1024:
 * overloaded needs 2 tasks or more and util x 117 > 102400 (util >= 876) or runnable x 100 >
 * 119808 (runnable >= 1199); spare capacity is fewer tasks than CPUs, or runnable <= 1198 and
 * util <= 875; what is neither is fully busy.
 */
static void test_group_classify(void **state)
{
	struct ee_sg_stats s;

	(void)state;
	/* 2 tasks, util 875 (102375 < 102400), runnable 1198 (119800 <= 119808): spare */
	s = sg(2, 2, 2048, 875, 1198);
	assert_false(sl_eevdf_group_is_overloaded(117, &s));
	assert_true(sl_eevdf_group_has_capacity(117, &s));
	assert_int_equal(s.group_type, EE_GROUP_HAS_SPARE);
	assert_int_equal(s.avg_load, 0);
	/* util 876: 102492 > 102400: overloaded, avg_load = 2048 x 1024 / 1024 */
	s = sg(2, 2, 2048, 876, 0);
	assert_true(sl_eevdf_group_is_overloaded(117, &s));
	assert_int_equal(s.group_type, EE_GROUP_OVERLOADED);
	assert_int_equal(s.avg_load, 2048);
	/* runnable 1199: 119900 > 119808: overloaded with util 0 */
	s = sg(2, 1, 1500, 0, 1199);
	assert_int_equal(s.group_type, EE_GROUP_OVERLOADED);
	/* one task: never overloaded; util 876 takes its spare capacity (fully busy) */
	s = sg(1, 1, 1024, 1024, 1300);
	assert_false(sl_eevdf_group_is_overloaded(117, &s));
	assert_int_equal(s.group_type, EE_GROUP_FULLY_BUSY);
	s = sg(1, 1, 1024, 876, 0);
	assert_int_equal(s.group_type, EE_GROUP_FULLY_BUSY);
	s = sg(1, 1, 1024, 875, 1198);
	assert_int_equal(s.group_type, EE_GROUP_HAS_SPARE);
	/* runnable 1199 alone makes one task fully busy */
	s = sg(1, 1, 1024, 0, 1199);
	assert_false(sl_eevdf_group_has_capacity(117, &s));
	/* no task: spare whatever the (blocked) averages say */
	s = sg(0, 0, 900, 1024, 2000);
	assert_true(sl_eevdf_group_has_capacity(117, &s));
	assert_int_equal(s.group_type, EE_GROUP_HAS_SPARE);
}

/*
 * update_sd_pick_busiest: a group with a runnable fair task only; a higher type wins; among
 * overloaded groups the higher avg_load (the first of equals); among fully busy ones the later;
 * among groups with spare capacity the fewer idle CPUs, then the more tasks.
 */
static void test_pick_busiest(void **state)
{
	struct ee_sd_stats sds = {0};
	struct ee_sg_stats a = sg(2, 2, 2048, 1024, 2048), b = sg(3, 3, 3000, 1024, 3072),
			   c = sg(3, 3, 3000, 1024, 3072), e = sg(1, 1, 1024, 1024, 1024),
			   h = sg(2, 2, 2048, 100, 100), z = sg(2, 0, 2048, 1024, 2048),
			   one = sg(1, 1, 1024, 100, 100);

	(void)state;
	assert_false(sl_eevdf_pick_busiest(&sds, &z)); /* no runnable fair task */
	assert_true(sl_eevdf_pick_busiest(&sds, &h));  /* spare, 0 idle CPUs < none yet */
	sds.busiest = h;
	sds.has_busiest = true;
	assert_false(sl_eevdf_pick_busiest(&sds, &h));	 /* as many tasks */
	assert_false(sl_eevdf_pick_busiest(&sds, &one)); /* fewer tasks */
	assert_true(sl_eevdf_pick_busiest(&sds, &e));	 /* fully busy: a higher type */
	sds.busiest = e;
	assert_true(sl_eevdf_pick_busiest(&sds, &e));  /* fully busy: the later one */
	assert_false(sl_eevdf_pick_busiest(&sds, &h)); /* a lower type */
	assert_true(sl_eevdf_pick_busiest(&sds, &a));
	sds.busiest = a;
	assert_true(sl_eevdf_pick_busiest(&sds, &b)); /* avg_load 3000 > 2048 */
	sds.busiest = b;
	assert_false(sl_eevdf_pick_busiest(&sds, &c)); /* equal: the first stays */
	assert_false(sl_eevdf_pick_busiest(&sds, &a));
}

/* sched_balance_find_src_group with calculate_imbalance from statistics given by hand; others:
 * CPUs besides the two, holding other_load between them */
static bool src_group(enum ee_idle idle, struct ee_sg_stats local, struct ee_sg_stats busiest,
		      int others, u64 other_load, enum ee_migration_type *type, s64 *imb)
{
	struct ee_sd_stats sds = {.local = local, .busiest = busiest, .has_busiest = true};

	sds.total_load = local.group_load + busiest.group_load + other_load;
	sds.total_capacity = 1024 * (u64)(2 + others);
	return sl_eevdf_find_src_group(idle, 117, &sds, type, imb);
}

static void test_find_src_group(void **state)
{
	enum ee_migration_type t;
	s64 imb;
	struct ee_sg_stats idle0 = sg(0, 0, 0, 0, 0);

	(void)state;
	/* an idle destination against 1 runnable and 1 delayed task, light: spare, one runnable
	 * task (sum_h_nr_running 1): balanced */
	assert_false(src_group(EE_CPU_IDLE, idle0, sg(2, 1, 2048, 500, 500), 0, 0, &t, &imb));
	/* the same source busy (util 1024, overloaded): migrate_task, (2 - 0) >> 1 = 1 */
	assert_true(src_group(EE_CPU_IDLE, idle0, sg(2, 1, 2048, 1024, 1024), 0, 0, &t, &imb));
	assert_int_equal(t, EE_MIGRATE_TASK);
	assert_int_equal(imb, 1);
	/* 5 tasks against an idle CPU: (5 - 0) >> 1 = 2; a newly idle one alike */
	assert_true(src_group(EE_CPU_NEWLY_IDLE, idle0, sg(5, 5, 5120, 300, 300), 0, 0, &t, &imb));
	assert_int_equal(imb, 2);
	/* an idle CPU with one task still queued (sum_nr 1) against 2: (2 - 1) >> 1 = 0:
	 * balanced */
	assert_false(src_group(EE_CPU_IDLE, sg(1, 1, 1024, 0, 0), sg(2, 2, 2048, 300, 300), 0, 0,
			       &t, &imb));
	/* a busy destination with spare capacity against an overloaded source: sibling_imbalance
	 * is 0 for a busy CPU: balanced */
	assert_false(src_group(EE_CPU_NOT_IDLE, sg(1, 1, 1024, 500, 500),
			       sg(3, 3, 3072, 1024, 3072), 0, 0, &t, &imb));
	/* a busy destination against a source that is not overloaded: balanced (for one-CPU
	 * groups calculate_imbalance would say so too: its avg_load is not computed, 0) */
	assert_false(src_group(EE_CPU_NOT_IDLE, sg(1, 1, 1024, 1024, 1024),
			       sg(3, 3, 3072, 800, 800), 0, 0, &t, &imb));
	/* fully busy (load 1024) against overloaded (3072): the domain's 2048, migrate_load
	 * min(1024, 1024) = 1024 */
	assert_true(src_group(EE_CPU_NOT_IDLE, sg(1, 1, 1024, 1024, 1024),
			      sg(3, 3, 3072, 1024, 3072), 0, 0, &t, &imb));
	assert_int_equal(t, EE_MIGRATE_LOAD);
	assert_int_equal(imb, 1024);
	/* a third CPU with 100 of load: the domain's (1024 + 3072 + 100) x 1024 / 3072 = 1398;
	 * min(3072 - 1398, 1398 - 1024) = min(1674, 374) = 374 */
	assert_true(src_group(EE_CPU_NOT_IDLE, sg(1, 1, 1024, 1024, 1024),
			      sg(3, 3, 3072, 1024, 3072), 1, 100, &t, &imb));
	assert_int_equal(imb, 374);
	/* a fully busy destination of 2000 with a third, empty CPU: the domain's 5072 x 1024 /
	 * 3072 = 1690 <= 2000, the local group above the average: balanced */
	assert_false(src_group(EE_CPU_NOT_IDLE, sg(1, 1, 2000, 1024, 1024),
			       sg(3, 3, 3072, 1024, 3072), 1, 0, &t, &imb));
	/* a fully busy destination more loaded than the busiest: balanced */
	assert_false(src_group(EE_CPU_NOT_IDLE, sg(1, 1, 3100, 1024, 1024),
			       sg(3, 3, 3072, 1024, 3072), 0, 0, &t, &imb));
	/* both overloaded, 2048 against 3072: the domain's 2560; 307200 > 117 x 2048 = 239616:
	 * min(512, 512) = 512 */
	assert_true(src_group(EE_CPU_NOT_IDLE, sg(2, 2, 2048, 1024, 2048),
			      sg(3, 3, 3072, 1024, 3072), 0, 0, &t, &imb));
	assert_int_equal(t, EE_MIGRATE_LOAD);
	assert_int_equal(imb, 512);
	/* 2048 against 2300: 230000 <= 239616, within imbalance_pct: balanced */
	assert_false(src_group(EE_CPU_NOT_IDLE, sg(2, 2, 2048, 1024, 2048),
			       sg(3, 3, 2300, 1024, 3072), 0, 0, &t, &imb));
	/* an overloaded destination is busier than a fully busy source: balanced */
	assert_false(src_group(EE_CPU_IDLE, sg(2, 2, 2048, 1024, 2048), sg(1, 1, 1024, 1024, 1024),
			       0, 0, &t, &imb));
}

/*
 * sched_balance_find_src_rq under migrate_load leaves a CPU with one runnable task whose load
 * exceeds the imbalance. CPU 0: A slept ineligible (delayed, its load still counted) while B
 * runs: 2 queued, 1 runnable, util 1024 (overloaded), load 2048; CPU 1 runs D (load 1024, util
 * 1024: fully busy). The domain's 1536, imbalance min(512, 512) = 512 < 2048: balanced (-1);
 * without the rule the balance would look at the tasks, find none movable and fail (0).
 */
static void test_find_src_rq_load(void **state)
{
	struct sl_task *a, *b, *d = ee_task(0, 0, 1);
	struct fixture *f = sleep_case(NULL, 2000000, 0, &a, &b);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];

	(void)state;
	assert_true(a->se.sched_delayed);
	sim->now = 10000000;
	ee_set_curr(sim, dst, d, 0, SLICE2, SLICE2);
	ee_rq_of(sim, src)->avg.load_avg = 2048;
	ee_rq_of(sim, src)->avg.util_avg = ee_rq_of(sim, src)->avg.runnable_avg = 1024;
	ee_rq_of(sim, dst)->avg.util_avg = ee_rq_of(sim, dst)->avg.runnable_avg = 1024;
	sl_nr_levels_rebuild(sim);
	assert_int_equal(src->nr_running, 1);
	assert_int_equal(src->nr_delayed, 1);
	assert_int_equal(sl_eevdf_load_balance(sim, dst, EE_CPU_NOT_IDLE), -1);
	fixture_free(f);
	free(a);
	free(b);
	free(d);
}

static void test_load_balance_balanced(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *c = ee_task(0, 0, 0);

	(void)state;
	/* one task on CPU0, CPU1 idle: nothing movable (the running task stays): balanced */
	ee_set_curr(sim, &sim->cpus[0], c, 0, SLICE2, SLICE2);
	assert_int_equal(sl_eevdf_load_balance(sim, &sim->cpus[1], EE_CPU_IDLE), -1);
	fixture_free(f);
	free(c);
}

/*
 * The root domain's overloaded flag (6.18's rd->overloaded) gates the newidle balance: set when
 * a CPU's queued tasks reach two, delayed ones counted, and rewritten only by a balance's
 * statistics. ratio 1023 makes NI_RANDOM run every call (1 + 1023 >= any draw of 0-1023), so
 * each call that passes the gate counts in ni_call (512 at the start).
 */
static void test_newidle_overloaded_flag(void **state)
{
	struct fixture *f;
	struct sl_sim *sim;
	struct sl_cpu *rq, *idle;
	struct sl_task *a, *b, *c, *x;

	(void)state;
	/* stale: C runs on CPU0 at 2 ms, X waits at 0 (two queued: the flag is set); X sleeps:
	 * V = 1 ms, X is eligible and leaves at once. CPU0 has one task, but the flag stays set
	 * until a balance looks: CPU1's newidle call passes the gate (call 513), its balance
	 * finds nothing to move and clears the flag; the next call is stopped at the gate */
	f = fixture_new("6.18", "2", NULL);
	sim = f->sim;
	rq = &sim->cpus[0];
	idle = &sim->cpus[1];
	c = ee_task(0, 0, 0);
	x = ee_task(0, 0, 0);
	ee_rq_of(sim, rq)->zero_vruntime = 0;
	ee_tree_add(sim, rq, x, 0, SLICE2, SLICE2);
	ee_set_curr(sim, rq, c, 2000000, 2000000 + SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	assert_true(sim->rd_overloaded);
	x->state = TS_SLEEPING;
	sl_eevdf_class.dequeue_task(sim, rq, x, 1);
	assert_false(x->se.sched_delayed);
	assert_int_equal(rq->nr_running, 1);
	assert_int_equal(sim->nr_overloaded, 0);
	assert_true(sim->rd_overloaded);
	ee_rq_of(sim, idle)->ni_ratio = 1023;
	assert_false(sl_eevdf_newidle_balance(sim, idle));
	assert_int_equal(ee_rq_of(sim, idle)->ni_call, 513);
	assert_false(sim->rd_overloaded);
	assert_false(sl_eevdf_newidle_balance(sim, idle));
	assert_int_equal(ee_rq_of(sim, idle)->ni_call, 513);
	fixture_free(f);
	free(c);
	free(x);

	/* delayed: A (curr, 2 ms) sleeps ineligible beside B (0): A stays queued, delayed. CPU0
	 * has one runnable task and two queued: the flag is set, and the balance's statistics
	 * keep it set (nr_running 1 + nr_delayed 1 > 1); nothing can move (B runs next, A is
	 * delayed): the call fails (call 513, success still 256) */
	f = sleep_case(NULL, 2000000, 0, &a, &b);
	sim = f->sim;
	rq = &sim->cpus[0];
	idle = &sim->cpus[1];
	assert_true(a->se.sched_delayed);
	assert_int_equal(rq->nr_running, 1);
	assert_int_equal(rq->nr_delayed, 1);
	sl_nr_levels_rebuild(sim); /* filled by hand: the counters from the runqueues */
	assert_int_equal(sim->nr_overloaded, 0);
	assert_true(sim->rd_overloaded);
	ee_rq_of(sim, idle)->ni_ratio = 1023;
	assert_false(sl_eevdf_newidle_balance(sim, idle));
	assert_int_equal(ee_rq_of(sim, idle)->ni_call, 513);
	assert_int_equal(ee_rq_of(sim, idle)->ni_success, 256);
	assert_true(sim->rd_overloaded);
	/* A woken: no longer delayed, runnable again (2 runnable, none delayed) */
	sl_eevdf_class.put_prev_task(sim, rq, a);
	a->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, rq, a, 1);
	assert_int_equal(rq->nr_delayed, 0);
	assert_int_equal(rq->nr_running, 2);
	fixture_free(f);
	free(a);
	free(b);
}

/*
 * nohz_balancer_kick reads rq->nr_running, which in 6.18 keeps delayed-dequeue tasks: CPU0 runs
 * B with A delayed (one runnable, two queued), CPU1 idle, tickless, due (next_balance 0). Its
 * tick at 8 ms (HZ 250, jiffy 2: jiffies + 1 = 3) kicks CPU1, whose balance finds nothing to move
 * (A delayed, B running): balanced, so its interval doubles to 4 ms (1 jiffy), last_balance 3,
 * next_balance the start of jiffies + 1 = 4, 12 ms. Counting runnable tasks only, no kick:
 * CPU1's interval stays 2 ms, next_balance 0.
 */
static void test_nohz_kick_counts_delayed(void **state)
{
	struct sl_task *a, *b;
	struct fixture *f;
	struct sl_sim *sim;
	struct eevdf_rq *idle;

	(void)state;
	f = sleep_case(NULL, 2000000, 0, &a, &b);
	sim = f->sim;
	idle = ee_rq_of(sim, &sim->cpus[1]);
	assert_int_equal(sim->tick_ns, 4000000);
	assert_int_equal(sim->tick_phase_ns, 0);
	assert_int_equal(sim->cpus[0].nr_running + sim->cpus[0].nr_delayed, 2);
	sl_nr_levels_rebuild(sim);
	sl_set_tick_stopped(sim, &sim->cpus[1], true);
	sim->now = 8000000;
	sl_eevdf_tick_balance(sim, &sim->cpus[0]);
	assert_int_equal(idle->balance_interval, 4);
	assert_int_equal(idle->last_balance, 3);
	assert_int_equal(idle->next_balance, 12000000);
	fixture_free(f);
	free(a);
	free(b);
}

/*
 * The kicked CPU runs the balance itself (kick_ilb's IPI raises its SCHED_SOFTIRQ): CPU0 runs C
 * with X (ran 0.2 ms ago: hot) and Y (ran 8 ms ago) queued, CPU1 idle, tickless, due. CPU0's tick
 * at 10 ms (jiffies + 1 = 3) kicks CPU1: count mode, (3 - 0) / 2 = 1 task from the tail: X is hot,
 * Y moves. Its preemption of CPU1's idle task is CPU1's own: no IPI (the machine's ipi, 1 us by
 * default, is charged only to another CPU; wake_local 0): CPU1's reschedule at 10 ms, not 10.001.
 * The pull makes CPU1 busy: next_balance at last_balance 3 + the busy interval 7 (2 ms again
 * after a move) = 10, 36 ms (with the interval read before the balance, idle: 4, 12 ms). The tick's
 * CPU is CPU0's again after the kick.
 */
static void test_nohz_kick_runs_on_kicked(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0), *y = ee_task(0, 0, 0);

	(void)state;
	sim->now = 10000000;
	ee_rq_of(sim, src)->zero_vruntime = 0;
	ee_set_curr(sim, src, c, 0, SLICE2, SLICE2);
	ee_tree_add(sim, src, x, 0, SLICE2, SLICE2);
	x->se.exec_start = 9800000;
	ee_tree_add(sim, src, y, 0, SLICE2, SLICE2);
	y->se.exec_start = 2000000;
	sl_nr_levels_rebuild(sim);
	sl_set_tick_stopped(sim, dst, true);
	sim->this_cpu = 0;
	sl_eevdf_tick_balance(sim, src);
	assert_int_equal(y->cpu, 1);
	assert_int_equal(x->cpu, 0);
	assert_int_equal(dst->resched.expires, 10000000);
	assert_int_equal(sim->this_cpu, 0);
	assert_int_equal(ee_rq_of(sim, dst)->last_balance, 3);
	assert_int_equal(ee_rq_of(sim, dst)->next_balance, 36000000);
	fixture_free(f);
	free(c);
	free(x);
	free(y);
}

/*
 * sched_balance_newidle brings next_balance forward to last_balance + the idle interval
 * (update_next_balance, on every path), and sched_balance_domains then balances the domain only
 * when the interval of the CPU's state has passed since last_balance. CPU1 last balanced in
 * jiffy 2 (last_balance 3, i.e. at 8 ms), busy since: next_balance at 3 + 7 (2 ms x 16 = 8
 * jiffies, one less when busy) = 10, 36 ms. Newly idle at 10 ms (nothing overloaded): next
 * balance at 3 + 1 = 4, 12 ms. Busy again at its 12 ms tick: due, but the domain's busy interval
 * has not passed (4 < 10): no balance (interval still 2 ms, last_balance 3), next_balance back to
 * 36 ms. Without the first rule next_balance stays at 36 ms; without the second the 12 ms tick
 * balances (balanced: interval 4 ms, last_balance 4).
 */
static void test_newidle_next_balance(void **state)
{
	struct fixture *f;
	struct sl_sim *sim;
	struct sl_cpu *rq;
	struct eevdf_rq *cfs;
	struct sl_task *t;

	(void)state;
	f = fixture_new("6.18", "2", NULL);
	sim = f->sim;
	rq = &sim->cpus[1];
	cfs = ee_rq_of(sim, rq);
	cfs->last_balance = 3;
	cfs->balance_interval = 2;
	cfs->next_balance = 36000000;
	sim->now = 10000000;
	assert_false(sl_eevdf_newidle_balance(sim, rq));
	assert_int_equal(cfs->next_balance, 12000000);
	t = ee_task(0, 0, 1);
	ee_set_curr(sim, rq, t, 0, SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	sim->now = 12000000;
	sl_eevdf_tick_balance(sim, rq);
	assert_int_equal(cfs->balance_interval, 2);
	assert_int_equal(cfs->last_balance, 3);
	assert_int_equal(cfs->next_balance, 36000000);
	fixture_free(f);
	free(t);
}

/*
 * NO_HZ_IDLE keeps a running tick when the CPU's next timer of the timer wheel expires by the
 * next tick (tick_nohz_next_event: the wheel's next expiry, a jiffy, at most one tick after the
 * last jiffy); hrtimers are not looked at in high-resolution mode. The model's wheel timer is
 * the background timer (bg). HZ 250, phase 0: at 1 ms the next tick is at 4 ms. bg at 3 ms
 * (the wheel runs it at the 4 ms jiffy) and at 4 ms: kept; at 4.5 ms (the 8 ms jiffy) and
 * 10 ms: stopped. A stopped tick is not restarted for it (re-programmed instead): stop. No wheel
 * timer, an hrtimer (the hrtick) at 3 ms: stopped. At 4 ms exactly (on a jiffy) the next tick
 * is 8 ms: bg at 7 ms kept. Without the rule every case stops.
 */
static void test_nohz_keeps_tick_near_wheel_timer(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_timer *bg = &sl_mcpu(sim, 0)->bg;
	const u64 at[4] = {3000000, 4000000, 4500000, 10000000};
	const bool keep[4] = {true, true, false, false};

	(void)state;
	sim->now = 1000000;
	sl_set_tick_stopped(sim, rq, false);
	for (int i = 0; i < 4; i++) {
		sl_arm(sim, bg, at[i]);
		assert_int_equal(sl_eevdf_nohz_stop_tick(sim, rq, true), keep[i]);
		assert_false(sl_eevdf_nohz_stop_tick(sim, rq, false));
	}
	sl_arm(sim, bg, 3000000);
	sl_set_tick_stopped(sim, rq, true);
	assert_false(sl_eevdf_nohz_stop_tick(sim, rq, true));
	sl_set_tick_stopped(sim, rq, false);
	sl_cancel(sim, bg);
	sl_arm(sim, &rq->hrtick, 3000000);
	assert_false(sl_eevdf_nohz_stop_tick(sim, rq, true));
	sl_cancel(sim, &rq->hrtick);
	sim->now = 4000000;
	sl_arm(sim, bg, 7000000);
	assert_true(sl_eevdf_nohz_stop_tick(sim, rq, true));
	sl_cancel(sim, bg);
	fixture_free(f);
}

/*
 * A kept tick through the machine: 6.18, 2 CPUs, one task running 1 ms every 100 ms on CPU0,
 * HZ 250 (ticks at 4, 8 ms), 6 ms. The wake-up at 0 restarts CPU0's tick for 4 ms; the task
 * sleeps at 1.002 ms (1 ms and the switch costs) and CPU0 idles with its tick running. Its
 * background timer (the wheel timer) is first at bg_wakeup / 4. bg_wakeup=12ms: 3 ms, by the
 * 4 ms tick: kept; the timer wakes CPU0 at 3 ms and is re-armed for 15 ms, but the tick stays
 * kept until it has run (the kernel runs that timer from it); at 4 ms (jiffy 2) the idle CPU's
 * own periodic balance runs: last_balance 2, next_balance 2 + 1 (the idle interval) = jiffy 3,
 * 8 ms; then its next wheel timer (15 ms) is past the 8 ms tick: stopped. bg_wakeup=16ms: 4 ms,
 * at the tick: the same. bg_wakeup=40ms (10 ms) and none: stopped at 1.002 ms, no balance by
 * 6 ms (last_balance and next_balance still 0). Without the rule no case balances; without
 * keeping it until it has run, the 12 ms and 16 ms cases stop at the timer's wake-up.
 */
static void kept_tick_run(const char *bg, u64 *last_balance, u64 *next_balance, bool *stopped)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[512];
	struct sl_sim *sim;

	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.cpus = "2";
	a.duration = "6ms";
	a.workloads[a.nworkloads++] = "periodic:run=1ms,period=100ms";
	a.params[a.nparams++] = bg;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	sim = sl_sim_new(&cfg);
	assert_non_null(sim);
	assert_int_equal(sl_sim_run(sim), 0);
	assert_int_equal(sl_mcpu(sim, 0)->busy_ns, 1002000);
	*last_balance = ee_rq_of(sim, &sim->cpus[0])->last_balance;
	*next_balance = ee_rq_of(sim, &sim->cpus[0])->next_balance;
	*stopped = sim->cpus[0].tick_stopped;
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

static void test_kept_tick_balances(void **state)
{
	static const struct {
		const char *bg;
		u64 last_balance, next_balance;
	} want[] = {{"bg_wakeup=12ms", 2, 8000000},
		    {"bg_wakeup=16ms", 2, 8000000},
		    {"bg_wakeup=40ms", 0, 0},
		    {"bg_wakeup=0ns", 0, 0}};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		u64 lb, nb;
		bool stopped;

		kept_tick_run(want[i].bg, &lb, &nb, &stopped);
		assert_int_equal(lb, want[i].last_balance);
		assert_int_equal(nb, want[i].next_balance);
		assert_true(stopped);
	}
}

/*
 * tick_keep (RCU's hold: tick_nohz_next_event keeps a running tick while rcu_needs_cpu()),
 * through the machine: 6.18, 2 CPUs, HZ 250, 10 ms; a task running 1 ms every 100 ms (its CPU
 * idles at 1.002 ms: 1 ms and the switch costs) and, with "hog", a CPU-bound task on the other
 * CPU throughout; no wheel timer. tick_keep=1000 keeps the tick of every entry made while
 * another CPU runs a task (the draw is below 1000 whatever the seed). tick_keep_ticks=1: the
 * periodic task's CPU idles at 1.002 ms with its tick running; at the 4 ms tick (jiffy 2) its
 * idle periodic balance runs (last_balance 2; the hog alone on the other CPU is no imbalance:
 * next_balance jiffy 2 + 1 (balance_interval 2 or 4 ms, 1 jiffy at most) = jiffy 3, 8 ms) and
 * the tick stops; nothing more by 10 ms. tick_keep_ticks=2: the 8 ms tick runs too:
 * last_balance 3, next_balance jiffy 4 = 12 ms, then it stops. No hog (the other CPU idle at
 * the entry): not kept, stopped at 1.002 ms, no balance (0, 0); tick_keep=0: the same. Without
 * the rule no case balances; without the count the 2-tick case stops after the first; without
 * the other CPU's condition the no-hog case balances.
 */
static void keep_run(const char *keep, const char *ticks, bool hog, u64 *last_balance,
		     u64 *next_balance, bool *stopped)
{
	struct sl_config cfg;
	struct sl_args a;
	char err[512];
	struct sl_sim *sim;
	int cpu;

	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.cpus = "2";
	a.duration = "10ms";
	a.workloads[a.nworkloads++] = "periodic:run=1ms,period=100ms";
	if (hog)
		a.workloads[a.nworkloads++] = "hog";
	a.params[a.nparams++] = keep;
	a.params[a.nparams++] = ticks;
	if (sl_config_build(&cfg, &a, err, sizeof(err)))
		fail_msg("%s", err);
	sim = sl_sim_new(&cfg);
	assert_non_null(sim);
	assert_int_equal(sl_sim_run(sim), 0);
	/* the periodic task's CPU: busy 1.002 ms (the hog's, if any, is busy throughout) */
	cpu = sl_mcpu(sim, 0)->busy_ns == 1002000 ? 0 : 1;
	assert_int_equal(sl_mcpu(sim, cpu)->busy_ns, 1002000);
	*last_balance = ee_rq_of(sim, &sim->cpus[cpu])->last_balance;
	*next_balance = ee_rq_of(sim, &sim->cpus[cpu])->next_balance;
	*stopped = sim->cpus[cpu].tick_stopped;
	sl_sim_free(sim);
	sl_config_free(&cfg);
}

static void test_tick_keep_balances(void **state)
{
	static const struct {
		const char *keep, *ticks;
		bool hog;
		u64 last_balance, next_balance;
	} want[] = {{"tick_keep=1000", "tick_keep_ticks=1", true, 2, 8000000},
		    {"tick_keep=1000", "tick_keep_ticks=2", true, 3, 12000000},
		    {"tick_keep=1000", "tick_keep_ticks=2", false, 0, 0},
		    {"tick_keep=0", "tick_keep_ticks=2", true, 0, 0}};
	struct sl_config cfg;
	struct sl_args a;
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		u64 lb, nb;
		bool stopped;

		keep_run(want[i].keep, want[i].ticks, want[i].hog, &lb, &nb, &stopped);
		assert_int_equal(lb, want[i].last_balance);
		assert_int_equal(nb, want[i].next_balance);
		assert_true(stopped);
	}
	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.cpus = "2";
	a.params[a.nparams++] = "tick_keep=1001";
	assert_int_not_equal(sl_config_build(&cfg, &a, err, sizeof(err)), 0);
	assert_non_null(strstr(err, "tick_keep=1001: expected 0..1000"));
	sl_config_free(&cfg);
}

/* each CPU's NI_RANDOM state at the start, with the machine's newidle_ratio R: ratio R, success
 * R / 2, calls 512; unset, the kernel's boot state 512, 256, 512; above 1024 refused */
static struct sl_sim *ratio_sim(const char *param, struct sl_config *cfg, char *err, size_t n)
{
	struct sl_args a;

	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.cpus = "2";
	if (param)
		a.params[a.nparams++] = param;
	if (sl_config_build(cfg, &a, err, n))
		return NULL;
	return sl_sim_new(cfg);
}

static void test_newidle_ratio_param(void **state)
{
	static const struct {
		const char *param;
		unsigned ratio, success;
	} c[] = {{NULL, 512, 256}, {"newidle_ratio=96", 96, 48}, {"newidle_ratio=1", 1, 0}};
	struct sl_config cfg;
	char err[2048];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct sl_sim *sim = ratio_sim(c[i].param, &cfg, err, sizeof(err));

		assert_non_null(sim);
		for (int cpu = 0; cpu < 2; cpu++) {
			const struct eevdf_rq *ee = ee_rq_of(sim, &sim->cpus[cpu]);

			assert_int_equal(ee->ni_ratio, c[i].ratio);
			assert_int_equal(ee->ni_success, c[i].success);
			assert_int_equal(ee->ni_call, 512);
		}
		sl_sim_free(sim);
		sl_config_free(&cfg);
	}
	memset(&cfg, 0, sizeof(cfg));
	assert_null(ratio_sim("newidle_ratio=1025", &cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "newidle_ratio=1025: expected 0..1024"));
	sl_config_free(&cfg);
}

/* C runs on CPU 0 with X, Y, Z waiting, all cold (last ran at 1 ms, now 10 ms); CPU 1 idle:
 * count mode, (4 - 0) / 2 = 2 tasks. An idle balance moves two (Z and Y, the tail first), a
 * newidle balance one (6.18's detach_tasks stops at the first task under CONFIG_PREEMPTION) */
static int lb_four(enum ee_idle idle)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0];
	struct sl_task *t[4];
	int r;

	sim->now = 10000000;
	ee_rq_of(sim, src)->zero_vruntime = 0;
	for (int i = 1; i < 4; i++) {
		t[i] = ee_task(0, 0, 0);
		ee_tree_add(sim, src, t[i], 0, SLICE2, SLICE2);
		t[i]->se.exec_start = 1000000;
	}
	t[0] = ee_task(0, 0, 0);
	ee_set_curr(sim, src, t[0], 0, SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	r = sl_eevdf_load_balance(sim, &sim->cpus[1], idle);
	assert_int_equal(src->nr_running, 4 - (unsigned long)r);
	assert_int_equal(sim->cpus[1].nr_running, (unsigned long)r);
	fixture_free(f);
	for (int i = 0; i < 4; i++)
		free(t[i]);
	return r;
}

static void test_newidle_one_task(void **state)
{
	(void)state;
	assert_int_equal(lb_four(EE_CPU_IDLE), 2);
	assert_int_equal(lb_four(EE_CPU_NEWLY_IDLE), 1);
}

/*
 * A newidle balance that finds nothing to do, or pulls, clears the failure count of the
 * periodic balances (6.18's sched_balance_rq: out_balanced, and a success); a newidle failure
 * adds none. CPU 1 idle with two periodic failures (2 > cache_nice_tries 1: a hot task may go),
 * ratio 1023 so NI_RANDOM always runs the balance, now 10 ms. C runs on CPU 0.
 */
static void test_newidle_clears_failures(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct eevdf_rq *d = ee_rq_of(sim, dst);
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0);

	(void)state;
	sim->now = 10000000;
	ee_rq_of(sim, src)->zero_vruntime = 0;
	ee_tree_add(sim, src, x, 0, SLICE2, SLICE2);
	ee_set_curr(sim, src, c, 2000000, 2000000 + SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	/* X sleeps (eligible: it leaves at once); the flag is stale, the call passes the gate and
	 * its balance finds one task on CPU 0: balanced, the two failures are cleared */
	x->state = TS_SLEEPING;
	sl_eevdf_class.dequeue_task(sim, src, x, 1);
	d->nr_balance_failed = 2;
	d->ni_ratio = 1023;
	assert_false(sl_eevdf_newidle_balance(sim, dst));
	assert_int_equal(d->nr_balance_failed, 0);
	/* X wakes on CPU 0, hot (ran 0.2 ms ago): the next call's balance finds it hot with no
	 * failure counted, so it stays (it would move with the two failures kept) */
	x->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, src, x, 1);
	x->se.exec_start = 9800000;
	sl_nr_levels_rebuild(sim);
	assert_false(sl_eevdf_newidle_balance(sim, dst));
	assert_int_equal(x->cpu, 0);
	assert_int_equal(d->nr_balance_failed, 0); /* a newidle failure counts none */
	/* two failures again: the hot X goes, and the success clears them */
	d->nr_balance_failed = 2;
	assert_true(sl_eevdf_newidle_balance(sim, dst));
	assert_int_equal(x->cpu, 1);
	assert_int_equal(d->nr_balance_failed, 0);
	fixture_free(f);
	free(c);
	free(x);
}

/*
 * A task moved to another CPU is never hot there (6.18's enqueue_entity zeroes exec_start on
 * ENQUEUE_MIGRATED). X ran on CPU 1 until 9.8 ms and was woken onto CPU 0, where C runs; at
 * 10 ms CPU 1 goes idle with no failure counted: X ran 0.2 ms ago (< 0.5 ms), but not on CPU 0,
 * so the newidle balance takes it back. Had X last run on CPU 0 it would stay (hot).
 */
static bool moved_then_pulled(bool moved)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, moved ? 1 : 0);
	bool pulled;

	sim->now = 10000000;
	x->se.exec_start = 9800000;
	if (moved)
		sl_eevdf_class.set_task_cpu(sim, x, 0);
	ee_rq_of(sim, src)->zero_vruntime = 0;
	ee_tree_add(sim, src, x, 0, SLICE2, SLICE2);
	ee_set_curr(sim, src, c, 0, SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	ee_rq_of(sim, dst)->ni_ratio = 1023;
	pulled = sl_eevdf_newidle_balance(sim, dst);
	assert_int_equal(x->cpu, pulled ? 1 : 0);
	fixture_free(f);
	free(c);
	free(x);
	return pulled;
}

static void test_moved_task_not_hot(void **state)
{
	(void)state;
	assert_true(moved_then_pulled(true));
	assert_false(moved_then_pulled(false));
}

/*
 * The newidle balance's own time (machine param newidle_cost, here 5 us; newidle_tail 2 us),
 * through the machine's schedule(). CPU 0 runs C (vruntime 2 ms) with X waiting (vruntime 0,
 * cold: last ran at 1 ms), now 10 ms; on CPU 1 P runs and blocks (ratio 1023: NI_RANDOM always
 * runs the balance). The switches CPU 1 writes (the trace's sched_switch: P's switch-out is
 * written when the balance ends, as the kernel's one switch after sched_balance_newidle):
 *  - no cost: CPU 1 pulls X at once and runs it: P -> X at 10 ms.
 *  - cost 5 us: at 10 ms CPU 1 takes the decision: no task, not idle (mc->idle false), its
 *    resched armed at 10.005 ms, need_resched set (so no wake-up sees it idle), no switch
 *    written yet. At 10.002 ms CPU 0 switches to X (the wake-up's preemption: X's deadline
 *    first), C waits there, just run (hot). At 10.005 ms CPU 1 examines CPU 0's queue: X runs,
 *    C is hot, no failure: nothing moves, CPU 1 goes idle (P -> idle at 10.005 ms), X stays on
 *    CPU 0; idle_stamp stays 10 ms (no pull), the domain cost 5000 is max_newidle_lb_cost,
 *    max_idle_balance_cost stays 500 us.
 *  - cost 5 us, CPU 0 does not switch: at 10.005 ms X is pulled and switched in on CPU 1 (P ->
 *    X at 10.005 ms), idle_stamp cleared; with newidle_tail 2 us CPU 1 waits (no task, not
 *    idle, resched at 10.007 ms) and writes P -> X at 10.007 ms.
 *  - cost 5 us, P woken at 10.001 ms (a task blocked in the window): its switch-out is written
 *    then (P -> idle at 10.001 ms), before its wake-up.
 * Fails with the deferral stubbed (the pull at 10 ms in every case), with the machine's guard
 * stubbed (CPU 1 idle during the balance), with the examination stubbed, with the tail stubbed,
 * with the held switch stubbed (written at 10 ms) and with its flush at a wake-up stubbed.
 */
struct sw_log {
	int n;
	u64 time[8];
	int pid[8], next[8];
};

static void sw_log_fn(void *ctx, const struct sl_event *ev)
{
	struct sw_log *l = ctx;

	if (ev->type != SL_EV_SWITCH || ev->cpu != 1 || l->n >= 8)
		return;
	l->time[l->n] = ev->time;
	l->pid[l->n] = ev->pid;
	l->next[l->n++] = ev->next_pid;
}

static void newidle_cost_case(u64 cost, u64 tail, bool b_switches, bool want_pull, bool wake_p)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct eevdf_rq *d = ee_rq_of(sim, dst);
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0), *p = ee_task(0, 0, 1);
	struct sw_log log = {0};
	u64 t0 = 10000000;

	sim->now = t0;
	sim->ni_cost = cost;
	sim->ni_tail = tail;
	c->pid = 21;
	x->pid = 22;
	p->pid = 23;
	x->se.exec_start = 1000000;
	ee_rq_of(sim, src)->zero_vruntime = 0;
	ee_tree_add(sim, src, x, 0, SLICE2, SLICE2);
	ee_set_curr(sim, src, c, 2000000, 2000000 + SLICE2, SLICE2);
	d->zero_vruntime = 0;
	ee_set_curr(sim, dst, p, 0, SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	d->ni_ratio = 1023;
	sl_sim_subscribe(sim, sw_log_fn, &log);
	p->state = TS_SLEEPING;
	sim->this_cpu = 1;
	sl_schedule(sim, dst);
	if (!cost) {
		assert_ptr_equal(dst->curr, x);
		assert_int_equal(d->idle_stamp, 0);
		assert_int_equal(d->max_newidle_lb_cost, 0);
		assert_int_equal(log.n, 1);
		assert_int_equal(log.time[0], t0);
		assert_int_equal(log.pid[0], 23);
		assert_int_equal(log.next[0], 22);
		goto out;
	}
	assert_null(dst->curr);
	assert_false(sl_mcpu(sim, 1)->idle);
	assert_true(dst->need_resched);
	assert_true(dst->in_newidle);
	assert_int_equal(dst->resched.expires, t0 + cost);
	assert_int_equal(x->cpu, 0);
	assert_int_equal(log.n, 0);
	if (wake_p) {
		sim->now = t0 + 1000;
		sim->this_cpu = 0;
		sl_try_to_wake_up(sim, p, NULL, 0);
		assert_true(log.n >= 1);
		assert_int_equal(log.time[0], t0 + 1000);
		assert_int_equal(log.pid[0], 23);
		assert_int_equal(log.next[0], 0);
		goto out;
	}
	if (b_switches) {
		sim->now = t0 + 2000;
		sim->this_cpu = 0;
		sl_schedule(sim, src);
		assert_ptr_equal(src->curr, x);
	}
	sim->now = t0 + cost;
	sim->this_cpu = 1;
	sl_schedule(sim, dst);
	assert_int_equal(d->max_newidle_lb_cost, cost);
	assert_int_equal(d->max_idle_balance_cost, 500000);
	if (!want_pull) {
		assert_null(dst->curr);
		assert_true(sl_mcpu(sim, 1)->idle);
		assert_int_equal(x->cpu, 0);
		assert_int_equal(d->idle_stamp, t0);
		assert_int_equal(log.n, 1);
		assert_int_equal(log.time[0], t0 + cost);
		assert_int_equal(log.pid[0], 23);
		assert_int_equal(log.next[0], 0);
		goto out;
	}
	assert_int_equal(x->cpu, 1);
	assert_int_equal(d->idle_stamp, 0);
	if (tail) {
		assert_null(dst->curr);
		assert_false(sl_mcpu(sim, 1)->idle);
		assert_int_equal(dst->resched.expires, t0 + cost + tail);
		assert_int_equal(log.n, 0);
		sim->now = t0 + cost + tail;
		sl_schedule(sim, dst);
	}
	assert_ptr_equal(dst->curr, x);
	assert_false(dst->in_newidle);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.time[0], t0 + cost + tail);
	assert_int_equal(log.pid[0], 23);
	assert_int_equal(log.next[0], 22);
out:
	fixture_free(f);
	free(c);
	free(x);
	free(p);
}

static void test_newidle_cost_examination(void **state)
{
	(void)state;
	newidle_cost_case(0, 0, false, true, false);
	newidle_cost_case(5000, 0, true, false, false);
	newidle_cost_case(5000, 0, false, true, false);
	newidle_cost_case(5000, 2000, false, true, false);
	newidle_cost_case(5000, 0, false, true, true);
}

/*
 * The rules the cost makes live, by hand (6.18: ttwu_do_activate's avg_idle, the gates,
 * update_newidle_cost's decay). CPU 1 idle, C running on CPU 0 with X waiting (cold).
 *  - a wake-up onto CPU 1 at 10.1 ms with idle_stamp 10 ms: avg_idle 1000000 + (100000 -
 *    1000000) / 8 = 887500, idle_stamp cleared; a second wake-up leaves it (no stamp).
 *  - cap: avg_idle 990000, idle 5 ms: 990000 + 4010000 / 8 = 1491250, capped at 2 x 500 us.
 *  - the gate: avg_idle 4000 below max_newidle_lb_cost 5000: no balance, no draw (ni_call
 *    stays 512), idle_stamp set; avg_idle 9000 against 8000: the balance runs (ni_call 513).
 *  - the decay: max_newidle_lb_cost 8000 last changed at jiffy 0, a balance of cost 5000
 *    examined at 1.1 s (jiffy 276 > 0 + 250): 8000 x 253 / 256 = 7906.
 * Each fails with its rule stubbed (the update, the cap, the gate, the decay).
 */
static void test_newidle_cost_rules(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct eevdf_rq *d = ee_rq_of(sim, dst);
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0), *w = ee_task(0, 0, 1);

	(void)state;
	assert_int_equal(d->avg_idle, 1000000);
	assert_int_equal(d->max_idle_balance_cost, 500000);
	d->idle_stamp = 10000000;
	sim->now = 10100000;
	w->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, dst, w, 1);
	assert_int_equal(d->avg_idle, 887500);
	assert_int_equal(d->idle_stamp, 0);
	sl_eevdf_update_avg_idle(sim, dst);
	assert_int_equal(d->avg_idle, 887500);
	d->avg_idle = 990000;
	d->idle_stamp = 5100000;
	sl_eevdf_update_avg_idle(sim, dst);
	assert_int_equal(d->avg_idle, 1000000);
	sl_eevdf_class.dequeue_task(sim, dst, w, 1);

	sim->now = 1100000000;
	sim->ni_cost = 5000;
	x->se.exec_start = 1000000;
	ee_rq_of(sim, src)->zero_vruntime = 0;
	ee_tree_add(sim, src, x, 0, SLICE2, SLICE2);
	ee_set_curr(sim, src, c, 2000000, 2000000 + SLICE2, SLICE2);
	sl_nr_levels_rebuild(sim);
	d->ni_ratio = 1023;
	d->max_newidle_lb_cost = 5000;
	d->avg_idle = 4000;
	assert_false(sl_eevdf_newidle_balance(sim, dst));
	assert_false(d->ni_pending);
	assert_int_equal(d->ni_call, 512);
	assert_int_equal(d->idle_stamp, sim->now);
	d->max_newidle_lb_cost = 8000;
	d->last_decay_max_lb_cost = 0;
	d->avg_idle = 9000;
	assert_false(sl_eevdf_newidle_balance(sim, dst));
	assert_true(d->ni_pending);
	sim->now += 5000;
	assert_int_equal(sl_eevdf_newidle_resume(sim, dst), 0);
	assert_int_equal(d->ni_call, 513);
	assert_int_equal(x->cpu, 1);
	assert_int_equal(d->max_newidle_lb_cost, 7906);
	fixture_free(f);
	free(c);
	free(x);
	free(w);
}

/*
 * A delayed task's wake-up (6.18's ttwu_runnable: enqueue_task with ENQUEUE_DELAYED) leaves
 * avg_idle and idle_stamp; only ttwu_do_activate, a task that was not queued, updates them. CPU
 * 0: A slept ineligible and stays queued, delayed; idle_stamp set at 1.9 ms, now 2 ms: A woken,
 * avg_idle stays 1000000 and idle_stamp 1.9 ms (the update would give 1000000 + (100000 -
 * 1000000) / 8 = 887500 and clear the stamp). Fails with the update before the delayed case.
 */
static void test_avg_idle_delayed_wakeup(void **state)
{
	struct sl_task *a, *b;
	struct fixture *f = sleep_case(NULL, 2000000, 0, &a, &b);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct eevdf_rq *cfs = ee_rq_of(sim, rq);

	(void)state;
	assert_true(a->se.sched_delayed);
	sl_eevdf_class.put_prev_task(sim, rq, a);
	cfs->idle_stamp = 1900000;
	sim->now = 2000000;
	a->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, rq, a, 1);
	assert_false(a->se.sched_delayed);
	assert_int_equal(cfs->avg_idle, 1000000);
	assert_int_equal(cfs->idle_stamp, 1900000);
	fixture_free(f);
	free(a);
	free(b);
}

/*
 * A task woken onto the CPU during its balance waits for the balance's end and counts as
 * pulled (6.18: the lock was dropped; h_nr_queued after the loop): CPU 0 runs C alone (nothing
 * to pull), CPU 1 decides at 10 ms with cost 5 us; W is woken onto CPU 1 at 10.002 ms: the
 * reschedule it asks is the balance's (need_resched already set, resched still at 10.005 ms);
 * at 10.005 ms the examination finds nothing and returns "pick" (0, not -1): CPU 1 runs W.
 * Fails with the meanwhile rule stubbed (-1).
 */
static void test_newidle_cost_meanwhile(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0], *dst = &sim->cpus[1];
	struct eevdf_rq *d = ee_rq_of(sim, dst);
	struct sl_task *c = ee_task(0, 0, 0), *x = ee_task(0, 0, 0), *w = ee_task(0, 0, 1);

	(void)state;
	sim->now = 10000000;
	sim->ni_cost = 5000;
	ee_rq_of(sim, src)->zero_vruntime = 0;
	ee_set_curr(sim, src, c, 0, SLICE2, SLICE2);
	sim->rd_overloaded = true; /* stale: the balance finds one task */
	d->ni_ratio = 1023;
	sim->this_cpu = 1;
	sl_schedule(sim, dst);
	assert_true(d->ni_pending);
	sim->now = 10002000;
	w->state = TS_RUNNING;
	sl_eevdf_class.enqueue_task(sim, dst, w, 1);
	sl_eevdf_class.check_preempt_curr(sim, dst, w, 0);
	assert_int_equal(dst->resched.expires, 10005000);
	sim->now = 10005000;
	assert_int_equal(sl_eevdf_newidle_resume(sim, dst), 0);
	d->ni_pending = true; /* again, through the machine */
	dst->in_newidle = true;
	sl_schedule(sim, dst);
	assert_ptr_equal(dst->curr, w);
	assert_int_equal(d->idle_stamp, 0);
	fixture_free(f);
	free(c);
	free(x);
	free(w);
}

/*
 * An idle CPU's balance moves half of the source's sum_nr_running, delayed tasks counted (6.18's
 * sibling_imbalance reads rq->nr_running). CPU 0: A slept ineligible and stays queued, delayed;
 * B, X and Y wait there, all cold (last ran at 1 ms, now 10 ms); CPU 1 idle. Four queued, so
 * (4 - 0) / 2 = 2 tasks move (the runnable ones alone would give 3 / 2 = 1).
 */
static void test_idle_balance_counts_delayed(void **state)
{
	struct sl_task *a, *b, *x = ee_task(0, 0, 0), *y = ee_task(0, 0, 0);
	struct fixture *f = sleep_case(NULL, 2000000, 0, &a, &b);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *src = &sim->cpus[0];

	(void)state;
	assert_true(a->se.sched_delayed);
	sim->now = 10000000;
	ee_tree_add(sim, src, x, 0, SLICE2, SLICE2);
	ee_tree_add(sim, src, y, 0, SLICE2, SLICE2);
	b->se.exec_start = x->se.exec_start = y->se.exec_start = 1000000;
	sl_nr_levels_rebuild(sim);
	assert_int_equal(src->nr_running, 3);
	assert_int_equal(src->nr_delayed, 1);
	assert_int_equal(sl_eevdf_load_balance(sim, &sim->cpus[1], EE_CPU_IDLE), 2);
	assert_int_equal(src->nr_running, 1);
	assert_true(a->se.sched_delayed && a->cpu == 0);
	fixture_free(f);
	free(a);
	free(b);
	free(x);
	free(y);
}

/* ---- features and tunables (§1, §2) ---- */

static void test_features_file(void **state)
{
	const struct sl_release *rel = sl_release_find("6.18");
	u64 set;
	char buf[1024], err[2048];

	(void)state;
	assert_non_null(rel);
	assert_int_equal(rel->feats.n, 27);
	set = sl_feat_defaults(&rel->feats);
	/* the target's sysctl_sched_features, checked bit by bit in docs/model/eevdf.md §1 */
	assert_int_equal(sl_feat_kernel_mask(&rel->feats, set), 0x5F0E7DF);
	assert_int_equal(sl_feat_kernel_mask(&rel->feats, set), 99674079);
	sl_feat_format(&rel->feats, set, buf, sizeof(buf));
	assert_string_equal(
		buf, "PLACE_LAG PLACE_DEADLINE_INITIAL PLACE_REL_DEADLINE RUN_TO_PARITY "
		     "PREEMPT_SHORT NO_NEXT_BUDDY PICK_BUDDY CACHE_HOT_BUDDY DELAY_DEQUEUE "
		     "DELAY_ZERO WAKEUP_PREEMPTION NO_HRTICK NO_HRTICK_DL NONTASK_CAPACITY "
		     "TTWU_QUEUE SIS_UTIL NO_WARN_DOUBLE_CLOCK NO_RT_PUSH_IPI NO_RT_RUNTIME_SHARE "
		     "NO_LB_MIN ATTACH_AGE_LOAD WA_IDLE WA_WEIGHT WA_BIAS UTIL_EST NO_LATENCY_WARN "
		     "NI_RANDOM \n");
	/* NO_PLACE_LAG clears bit 0, NEXT_BUDDY sets bit 5 */
	assert_int_equal(
		sl_feat_write_list(&rel->feats, &set, "NO_PLACE_LAG NEXT_BUDDY", err, sizeof(err)),
		0);
	assert_int_equal(sl_feat_kernel_mask(&rel->feats, set), 0x5F0E7DF - 1 + 0x20);
	/* a 2.6.3x flag does not exist in 6.18, nor a 6.18 one in 2.6.31 */
	assert_int_equal(sl_feat_write(&rel->feats, &set, "GENTLE_FAIR_SLEEPERS", err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "GENTLE_FAIR_SLEEPERS"));
	assert_int_equal(sl_feat_write(&sl_cfs_2_6_31.feats, &set, "PLACE_LAG", err, sizeof(err)),
			 -1);
}

static struct fixture *cfg_with(const char *kernel, const char *cpus, const char *sysctl,
				const char *param, char *err, size_t len, int *rc)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct sl_args a;

	assert_non_null(f);
	memset(&a, 0, sizeof(a));
	a.kernel = kernel;
	a.cpus = cpus;
	if (sysctl)
		a.sysctls[a.nsysctls++] = sysctl;
	if (param)
		a.params[a.nparams++] = param;
	*rc = sl_config_build(&f->cfg, &a, err, len);
	return f;
}

static u64 base_slice(const char *cpus, const char *sysctl)
{
	char err[2048];
	int rc;
	struct fixture *f = cfg_with("6.18", cpus, sysctl, NULL, err, sizeof(err), &rc);
	u64 v;

	assert_int_equal(rc, 0);
	v = f->cfg.tun.sched_base_slice;
	sl_config_free(&f->cfg);
	free(f);
	return v;
}

static void test_tunables(void **state)
{
	char err[2048];
	int rc;
	struct fixture *f;

	(void)state;
	/* logarithmic scaling: 0.7 ms x (1 + ilog2(min(n, 8))) */
	assert_int_equal(base_slice("1", NULL), 700000);
	assert_int_equal(base_slice("2", NULL), 1400000);
	assert_int_equal(base_slice("4", NULL), 2100000);
	assert_int_equal(base_slice("8", NULL), 2800000);
	assert_int_equal(base_slice("16", NULL), 2800000);
	assert_int_equal(base_slice("2", "base_slice_ns=3000000"), 3000000);
	/* tunable_scaling=2 (linear) re-derives normalized = 1.4 ms / 2, base unchanged */
	f = cfg_with("6.18", "2", "tunable_scaling=2", NULL, err, sizeof(err), &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(f->cfg.tun.sched_base_slice, 1400000);
	assert_int_equal(f->cfg.tun.sched_normalized_base_slice, 700000);
	/* HZ=250 is the 6.18 default */
	assert_int_equal(f->cfg.params.hz, 250);
	sl_config_free(&f->cfg);
	free(f);
	f = cfg_with("6.18", "2", NULL, "hz=1000", err, sizeof(err), &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(f->cfg.params.hz, 1000);
	sl_config_free(&f->cfg);
	free(f);
	/* refused: out of range, CFS-only sysctls on 6.18, 6.18 tunables on 2.6.31 */
	f = cfg_with("6.18", "2", "tunable_scaling=3", NULL, err, sizeof(err), &rc);
	assert_int_not_equal(rc, 0);
	free(f);
	f = cfg_with("6.18", "2", "kernel.sched_latency_ns=10000000", NULL, err, sizeof(err), &rc);
	assert_int_not_equal(rc, 0);
	assert_non_null(strstr(err, "base_slice_ns"));
	free(f);
	f = cfg_with("2.6.31", "2", "base_slice_ns=3000000", NULL, err, sizeof(err), &rc);
	assert_int_not_equal(rc, 0);
	assert_non_null(strstr(err, "kernel.sched_latency_ns"));
	free(f);
}

static void test_custom_slice(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_task *p = ee_task(0, 0, 0);
	const u64 runtimes[] = {0, 50000, 300000, 200000000},
		  want[] = {SLICE2, 100000, 300000, 100000000};

	(void)state;
	/* sched_runtime 0: the base slice; else clamp(runtime, 0.1 ms, 100 ms), kept */
	for (int i = 0; i < 4; i++) {
		p->sched_runtime = runtimes[i];
		sl_eevdf_class.init_task(f->sim, p);
		assert_int_equal(ee_se(&p->se)->slice, want[i]);
		assert_int_equal(p->se.custom_slice, runtimes[i] != 0);
	}
	/* a placement keeps the custom slice: d = V + 100 ms */
	sl_eevdf_place_entity(f->sim, ee_rq_of(f->sim, &f->sim->cpus[0]), &p->se, 0);
	assert_int_equal(ee_se(&p->se)->deadline - p->se.vruntime, 100000000);
	fixture_free(f);
	free(p);
}

/* ---- whole runs ---- */

static void run(const char *cpus, const char *duration, const char *w0, const char *w1,
		const char *sysctl, struct sl_config *cfg, struct sl_run *r)
{
	struct sl_args a;
	char err[2048];

	memset(&a, 0, sizeof(a));
	a.kernel = "6.18";
	a.cpus = cpus;
	a.duration = duration;
	a.workloads[a.nworkloads++] = w0;
	if (w1)
		a.workloads[a.nworkloads++] = w1;
	if (sysctl)
		a.sysctls[a.nsysctls++] = sysctl;
	if (sl_config_build(cfg, &a, err, sizeof(err)))
		fail_msg("config: %s", err);
	if (sl_run(cfg, r, err, sizeof(err)))
		fail_msg("run: %s", err);
}

static void test_two_hogs_tick_turns(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	/* the target's measurement: two nice-0 loops on one CPU, base slice 1.4 ms, HZ=250.
	 * A slice ends at the first tick after v passes d, so each turn is one 4 ms tick:
	 * 3 s / 4 ms = 750 turns, 375 each (the target: 376 switches each, 1.50 s each) */
	run("1", "3s", "hog:tasks=2", NULL, "base_slice_ns=1400000", &cfg, &r);
	for (int pid = 1; pid <= 2; pid++) {
		s64 d = (s64)r.stats.pid[pid].cpu_ns - 1500000000LL;

		assert_true(d >= -4000000 && d <= 4000000);
		assert_in_range(r.stats.pid[pid].switches, 374, 376);
	}
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_nice_shares(void **state)
{
	struct sl_config cfg;
	struct sl_run r;
	double share;

	(void)state;
	/* nice 0 against nice 5: weights 1024 : 335, so 1024 / 1359 = 75.35% (lag stays bounded
	 * by a few ticks, so over 3 s the share is within 1% of it) */
	run("1", "3s", "hog", "hog:nice=5", NULL, &cfg, &r);
	share = (double)r.stats.pid[1].cpu_ns / (double)r.sim->now;
	assert_true(fabs(share - 1024.0 / 1359.0) < 0.01);
	sl_run_free(&r);
	sl_config_free(&cfg);
}

static void test_four_hogs_two_cpus(void **state)
{
	struct sl_config cfg;
	struct sl_run r;

	(void)state;
	/* forks go to the idle CPU, balancing keeps two per CPU: half a CPU each (+-5%) */
	run("2", "2s", "hog:tasks=4", NULL, NULL, &cfg, &r);
	for (int pid = 1; pid <= 4; pid++) {
		double share = (double)r.stats.pid[pid].cpu_ns / (double)r.sim->now;

		assert_true(fabs(share - 0.5) < 0.05);
	}
	sl_run_free(&r);
	sl_config_free(&cfg);
}

/* same inputs and seed: the same figures (NI_RANDOM draws from its own seeded PRNG) */
static void test_deterministic(void **state)
{
	struct sl_config c1, c2;
	struct sl_run r1, r2;

	(void)state;
	run("2", "2s", "make:jobs=8,nice=19,count=60", "video:fps=25,decode=8ms", NULL, &c1, &r1);
	run("2", "2s", "make:jobs=8,nice=19,count=60", "video:fps=25,decode=8ms", NULL, &c2, &r2);
	assert_int_equal(r1.sim->nr_events, r2.sim->nr_events);
	assert_int_equal(r1.stats.switches, r2.stats.switches);
	assert_int_equal(r1.stats.migrations, r2.stats.migrations);
	for (int i = 0; i < sl_machine_of(r1.sim)->ngroups; i++)
		assert_int_equal(r1.stats.g[i].cpu_ns, r2.stats.g[i].cpu_ns);
	sl_run_free(&r1);
	sl_config_free(&c1);
	sl_run_free(&r2);
	sl_config_free(&c2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delay_dequeue),
		cmocka_unit_test(test_delay_zero_on_wake),
		cmocka_unit_test(test_pick_delayed),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_wakeup_preemption),
		cmocka_unit_test(test_wakee_first_force),
		cmocka_unit_test(test_buddy_cleared_at_pick),
		cmocka_unit_test(test_wake_cpu),
		cmocka_unit_test(test_fork_idlest),
		cmocka_unit_test(test_wake_affine_pelt),
		cmocka_unit_test(test_wake_cpu_llc_walk),
		cmocka_unit_test(test_load_balance),
		cmocka_unit_test(test_nohz_kick_counts_delayed),
		cmocka_unit_test(test_nohz_kick_runs_on_kicked),
		cmocka_unit_test(test_newidle_next_balance),
		cmocka_unit_test(test_nohz_keeps_tick_near_wheel_timer),
		cmocka_unit_test(test_kept_tick_balances),
		cmocka_unit_test(test_tick_keep_balances),
		cmocka_unit_test(test_load_balance_pelt),
		cmocka_unit_test(test_load_balance_balanced),
		cmocka_unit_test(test_group_classify),
		cmocka_unit_test(test_pick_busiest),
		cmocka_unit_test(test_find_src_group),
		cmocka_unit_test(test_find_src_rq_load),
		cmocka_unit_test(test_newidle_overloaded_flag),
		cmocka_unit_test(test_newidle_ratio_param),
		cmocka_unit_test(test_newidle_one_task),
		cmocka_unit_test(test_newidle_clears_failures),
		cmocka_unit_test(test_moved_task_not_hot),
		cmocka_unit_test(test_newidle_cost_examination),
		cmocka_unit_test(test_newidle_cost_rules),
		cmocka_unit_test(test_newidle_cost_meanwhile),
		cmocka_unit_test(test_avg_idle_delayed_wakeup),
		cmocka_unit_test(test_idle_balance_counts_delayed),
		cmocka_unit_test(test_features_file),
		cmocka_unit_test(test_tunables),
		cmocka_unit_test(test_custom_slice),
		cmocka_unit_test(test_two_hogs_tick_turns),
		cmocka_unit_test(test_nice_shares),
		cmocka_unit_test(test_four_hogs_two_cpus),
		cmocka_unit_test(test_deterministic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
