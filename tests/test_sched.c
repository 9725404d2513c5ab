/*
 * CFS decisions against values worked by hand from docs/model/cfs.md §4: placement under every
 * combination of the sleeper flags (both releases), fork placement with and without
 * START_DEBIT (and 2.6.31's missing max), the wake-up preemption test with its granularity
 * (ADAPTIVE_GRAN, ASYM_GRAN), and which buddies check_preempt_wakeup leaves behind.
 */
#include "helpers.h"

#define MIN_V 100000000ULL /* min_vruntime of the test runqueue: 100 ms */

/* Place a task of `nice`/`policy` whose vruntime was `old` on a 1-CPU runqueue holding
 * `others` nice-0 tasks; returns the placed vruntime. */
static u64 place(const char *kernel, const char *feats, int nice, int policy, u64 old, int initial,
		 int others)
{
	struct fixture *f = fixture_new(kernel, "1", feats);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *q[4], *p = bare_task(nice, policy, 0);
	u64 v;

	cfs_rq_of_cpu(rq)->min_vruntime = MIN_V;
	for (int i = 0; i < others; i++) {
		q[i] = bare_task(0, SL_SCHED_NORMAL, 0);
		q[i]->se.vruntime = MIN_V;
		sl_cfs_enqueue_task(sim, rq, q[i], 0);
	}
	p->se.vruntime = old;
	cfs_ops(sim)->place_entity(sim, cfs_rq_of_cpu(rq), &p->se, initial);
	v = p->se.vruntime;
	fixture_free(f);
	for (int i = 0; i < others; i++)
		free(q[i]);
	free(p);
	return v;
}

static void test_place_wakeup_2_6_31(void **state)
{
	(void)state;
	/* NEW_FAIR_SLEEPERS: min_vruntime - sched_latency (20 ms on 1 CPU), then the max */
	assert_int_equal(place("2.6.31", NULL, 0, 0, 50000000, 0, 0), 80000000);
	assert_int_equal(place("2.6.31", NULL, 0, 0, 90000000, 0, 0), 90000000);
	/* NORMALIZED_SLEEPER, nice 0: calc_delta_fair(20 ms) is 20 ms */
	assert_int_equal(place("2.6.31", "NORMALIZED_SLEEPER", 0, 0, 0, 0, 0), 80000000);
	/* NORMALIZED_SLEEPER, nice 5: credit 20 ms * 1024 / 335 = 61134329 */
	assert_int_equal(place("2.6.31", "NORMALIZED_SLEEPER", 5, 0, 0, 0, 0), MIN_V - 61134329);
	assert_int_equal(place("2.6.31", "NORMALIZED_SLEEPER", 5, 0, 50000000, 0, 0), 50000000);
	/* ... but never for SCHED_IDLE */
	assert_int_equal(place("2.6.31", "NORMALIZED_SLEEPER", 0, SL_SCHED_IDLE, 0, 0, 0),
			 80000000);
	/* NO_NEW_FAIR_SLEEPERS: no credit; NORMALIZED_SLEEPER alone changes nothing */
	assert_int_equal(place("2.6.31", "NO_NEW_FAIR_SLEEPERS", 0, 0, 50000000, 0, 0), MIN_V);
	assert_int_equal(
		place("2.6.31", "NO_NEW_FAIR_SLEEPERS NORMALIZED_SLEEPER", 5, 0, 50000000, 0, 0),
		MIN_V);
	/* a sleeper is never moved backwards */
	assert_int_equal(place("2.6.31", "NO_NEW_FAIR_SLEEPERS", 0, 0, 150000000, 0, 0), 150000000);
}

static void test_place_wakeup_2_6_32(void **state)
{
	(void)state;
	/* 1 CPU: latency 5 ms. FAIR_SLEEPERS + GENTLE: half of it */
	assert_int_equal(place("2.6.32", NULL, 0, 0, 0, 0, 0), MIN_V - 2500000);
	assert_int_equal(place("2.6.32", "NO_GENTLE_FAIR_SLEEPERS", 0, 0, 0, 0, 0),
			 MIN_V - 5000000);
	/* NORMALIZED + GENTLE, nice 5: (5 ms * 1024 / 335 = 15283582) >> 1 = 7641791 */
	assert_int_equal(place("2.6.32", "NORMALIZED_SLEEPER", 5, 0, 0, 0, 0), MIN_V - 7641791);
	assert_int_equal(
		place("2.6.32", "NORMALIZED_SLEEPER NO_GENTLE_FAIR_SLEEPERS", 5, 0, 0, 0, 0),
		MIN_V - 15283582);
	assert_int_equal(place("2.6.32", "NORMALIZED_SLEEPER", 5, SL_SCHED_IDLE, 0, 0, 0),
			 MIN_V - 2500000);
	/* GENTLE without FAIR_SLEEPERS: nothing */
	assert_int_equal(place("2.6.32", "NO_FAIR_SLEEPERS", 0, 0, 0, 0, 0), MIN_V);
	assert_int_equal(place("2.6.32", NULL, 0, 0, 99000000, 0, 0), 99000000);
}

static void test_place_fork(void **state)
{
	(void)state;
	/* 2.6.31 START_DEBIT, empty runqueue: vslice = calc_delta_mine(20 ms, 1024, {1024})
	 * = 19980488; no max with the copied vruntime (200 ms) */
	assert_int_equal(place("2.6.31", NULL, 0, 0, 200000000, 1, 0), MIN_V + 19980488);
	/* one nice-0 task queued: the slice over 2048 is 9995122 */
	assert_int_equal(place("2.6.31", NULL, 0, 0, 0, 1, 1), MIN_V + 9995122);
	/* nice 5 child alone: slice 19940499 (over 335), vslice * 1024 / 335 = 60952393 */
	assert_int_equal(place("2.6.31", NULL, 5, 0, 0, 1, 0), MIN_V + 60952393);
	/* fork placement ignores the sleeper flags */
	assert_int_equal(place("2.6.31", "NO_NEW_FAIR_SLEEPERS", 0, 0, 0, 1, 1), MIN_V + 9995122);
	assert_int_equal(place("2.6.31", "NO_START_DEBIT", 0, 0, 200000000, 1, 0), MIN_V);
	/* 2.6.32: slice over one CPU's 5 ms latency 4995122, and the max applies to fork */
	assert_int_equal(place("2.6.32", NULL, 0, 0, 0, 1, 0), MIN_V + 4995122);
	assert_int_equal(place("2.6.32", NULL, 0, 0, 200000000, 1, 0), 200000000);
	assert_int_equal(place("2.6.32", "NO_START_DEBIT", 0, 0, 0, 1, 0), MIN_V);
}

/* wakeup_preempt_entity(curr, se) with curr at 100 ms of vruntime */
static int preempt(const char *kernel, const char *feats, int wakee_nice, u64 se_vr,
		   bool curr_running, u64 this_run, u64 avg_wakeup)
{
	struct fixture *f = fixture_new(kernel, "1", feats);
	struct sl_sim *sim = f->sim;
	struct sl_task *c = bare_task(0, 0, 0), *s = bare_task(wakee_nice, 0, 0);
	int r;

	c->se.vruntime = MIN_V;
	s->se.vruntime = se_vr;
	s->se.avg_wakeup = avg_wakeup;
	c->se.sum_exec_runtime = this_run;
	cfs_rq_of_cpu(&sim->cpus[0])->nr_running = 2;
	if (curr_running)
		cfs_rq_of_cpu(&sim->cpus[0])->curr = &c->se;
	r = sl_wakeup_preempt_entity(sim, &c->se, &s->se);
	cfs_rq_of_cpu(&sim->cpus[0])->curr = NULL;
	cfs_rq_of_cpu(&sim->cpus[0])->nr_running = 0;
	fixture_free(f);
	free(c);
	free(s);
	return r;
}

static void test_wakeup_preempt_entity(void **state)
{
	(void)state;
	/* 2.6.31, 1 CPU: wakeup_granularity 5 ms; no curr on the rq: the plain granularity */
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V, false, 0, 0), -1);
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V + 1, false, 0, 0), -1);
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 3000000, false, 0, 0), 0);
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 5000000, false, 0, 0), 0);
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 5000001, false, 0, 0), 1);
	/* ASYM_GRAN: a nice-5 wakee's granularity is 5 ms * 1024 / 335 = 15283582 */
	assert_int_equal(preempt("2.6.31", NULL, 5, MIN_V - 15283582, false, 0, 0), 0);
	assert_int_equal(preempt("2.6.31", NULL, 5, MIN_V - 15283583, false, 0, 0), 1);
	/* NO_ASYM_GRAN: scaled by curr (nice 0): 5 ms */
	assert_int_equal(preempt("2.6.31", "NO_ASYM_GRAN", 5, MIN_V - 10000000, false, 0, 0), 1);
	/* ADAPTIVE_GRAN with a running curr: expected = 2 * 1 ms * 2 = 4 ms, this_run 1 ms:
	 * gran = 3 ms */
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 3000000, true, 1000000, 1000000), 0);
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 3000001, true, 1000000, 1000000), 1);
	/* ... off: back to 5 ms */
	assert_int_equal(
		preempt("2.6.31", "NO_ADAPTIVE_GRAN", 0, MIN_V - 3000001, true, 1000000, 1000000),
		0);
	/* this_run beyond the expectation: gran 0, any lead preempts */
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 1, true, 5000000, 1000000), 1);
	/* expectation above the cap: min(8 ms - 0, 5 ms) */
	assert_int_equal(preempt("2.6.31", NULL, 0, MIN_V - 5000000, true, 0, 2000000), 0);
	/* 2.6.32, 1 CPU: granularity 1 ms */
	assert_int_equal(preempt("2.6.32", NULL, 0, MIN_V - 1000000, false, 0, 0), 0);
	assert_int_equal(preempt("2.6.32", NULL, 0, MIN_V - 1000001, false, 0, 0), 1);
}

struct wake_case {
	struct fixture *f;
	struct sl_task *curr, *wakee, *others[8];
	int nothers;
};

/* curr runs on CPU 0 with n_others more queued tasks; wakee is enqueued with vruntime vr and
 * check_preempt_curr runs. */
static void wake_setup(struct wake_case *w, const char *kernel, const char *feats, u64 vr,
		       int n_others)
{
	struct sl_sim *sim;
	struct sl_cpu *rq;

	memset(w, 0, sizeof(*w));
	w->f = fixture_new(kernel, "1", feats);
	sim = w->f->sim;
	rq = &sim->cpus[0];
	cfs_rq_of_cpu(rq)->min_vruntime = MIN_V;
	w->curr = bare_task(0, 0, 0);
	w->curr->se.vruntime = MIN_V;
	sl_cfs_enqueue_task(sim, rq, w->curr, 0);
	for (int i = 0; i < n_others; i++) {
		w->others[i] = bare_task(0, 0, 0);
		w->others[i]->se.vruntime = MIN_V + 50000000;
		sl_cfs_enqueue_task(sim, rq, w->others[i], 0);
	}
	w->nothers = n_others;
	assert_ptr_equal(sl_cfs_pick_next_task(sim, rq), w->curr);
	rq->curr = w->curr;
	w->curr->on_cpu = true;
	w->wakee = bare_task(0, 0, 0);
	w->wakee->se.vruntime = vr;
	/* as __sched_fork leaves it: ADAPTIVE_GRAN then expects 2 * gran * nr_running */
	w->wakee->se.avg_wakeup = sim->tun.sched_wakeup_granularity;
	sl_cfs_enqueue_task(sim, rq, w->wakee, 0);
	sl_cfs_check_preempt_curr(sim, rq, w->wakee, 0);
}

static void wake_free(struct wake_case *w)
{
	fixture_free(w->f);
	free(w->curr);
	free(w->wakee);
	for (int i = 0; i < w->nothers; i++)
		free(w->others[i]);
}

static void test_check_preempt_wakeup(void **state)
{
	struct wake_case w;
	struct cfs_rq *cfs;

	(void)state;
	/* 2.6.31: both buddies are set before any test; a 6 ms lead preempts (gran 5 ms) */
	wake_setup(&w, "2.6.31", NULL, MIN_V - 6000000, 0);
	cfs = cfs_rq_of_cpu(&w.f->sim->cpus[0]);
	assert_true(w.f->sim->cpus[0].need_resched);
	assert_ptr_equal(cfs->next, &w.wakee->se);
	assert_ptr_equal(cfs->last, &w.curr->se);
	wake_free(&w);
	/* a 4 ms lead does not preempt, but the buddies are still set */
	wake_setup(&w, "2.6.31", NULL, MIN_V - 4000000, 0);
	cfs = cfs_rq_of_cpu(&w.f->sim->cpus[0]);
	assert_false(w.f->sim->cpus[0].need_resched);
	assert_ptr_equal(cfs->next, &w.wakee->se);
	assert_ptr_equal(cfs->last, &w.curr->se);
	wake_free(&w);
	/* NO_LAST_BUDDY: only next */
	wake_setup(&w, "2.6.31", "NO_LAST_BUDDY", MIN_V - 4000000, 0);
	cfs = cfs_rq_of_cpu(&w.f->sim->cpus[0]);
	assert_null(cfs->last);
	assert_ptr_equal(cfs->next, &w.wakee->se);
	wake_free(&w);
	/* NO_WAKEUP_PREEMPT: never */
	wake_setup(&w, "2.6.31", "NO_WAKEUP_PREEMPT", MIN_V - 60000000, 0);
	assert_false(w.f->sim->cpus[0].need_resched);
	wake_free(&w);
	/* WAKEUP_OVERLAP: both avg_overlaps (0) below migration_cost: preempt at once */
	wake_setup(&w, "2.6.31", "WAKEUP_OVERLAP", MIN_V - 1000, 0);
	assert_true(w.f->sim->cpus[0].need_resched);
	wake_free(&w);
	/* 2.6.32 with 2 tasks (< sched_nr_latency): preempts on a 2 ms lead (gran 1 ms), no
	 * buddies */
	wake_setup(&w, "2.6.32", NULL, MIN_V - 2000000, 0);
	cfs = cfs_rq_of_cpu(&w.f->sim->cpus[0]);
	assert_true(w.f->sim->cpus[0].need_resched);
	assert_null(cfs->next);
	assert_null(cfs->last);
	wake_free(&w);
	/* 2.6.32 with 5 tasks: LAST_BUDDY after the successful preemption */
	wake_setup(&w, "2.6.32", NULL, MIN_V - 2000000, 3);
	cfs = cfs_rq_of_cpu(&w.f->sim->cpus[0]);
	assert_true(w.f->sim->cpus[0].need_resched);
	assert_ptr_equal(cfs->last, &w.curr->se);
	assert_null(cfs->next);
	wake_free(&w);
	/* 2.6.32 NEXT_BUDDY with 5 tasks, no preemption: next = wakee */
	wake_setup(&w, "2.6.32", "NEXT_BUDDY", MIN_V - 500000, 3);
	cfs = cfs_rq_of_cpu(&w.f->sim->cpus[0]);
	assert_false(w.f->sim->cpus[0].need_resched);
	assert_ptr_equal(cfs->next, &w.wakee->se);
	wake_free(&w);
	/* 2.6.32 WAKEUP_SYNC is only for sync wake-ups: a plain one with a tiny lead waits */
	wake_setup(&w, "2.6.32", "WAKEUP_SYNC", MIN_V - 1000, 0);
	assert_false(w.f->sim->cpus[0].need_resched);
	wake_free(&w);
}

static void test_pick_next_buddies(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = bare_task(0, 0, 0), *b = bare_task(0, 0, 0), *c = bare_task(0, 0, 0);

	(void)state;
	cfs_rq_of_cpu(rq)->min_vruntime = MIN_V;
	a->se.vruntime = MIN_V;		  /* leftmost */
	b->se.vruntime = MIN_V + 4000000; /* within the 5 ms granularity of a */
	c->se.vruntime = MIN_V + 6000000; /* beyond it */
	sl_cfs_enqueue_task(sim, rq, a, 0);
	sl_cfs_enqueue_task(sim, rq, b, 0);
	sl_cfs_enqueue_task(sim, rq, c, 0);
	/* next buddy within the granularity wins, and its mark is cleared */
	cfs_rq_of_cpu(rq)->next = &b->se;
	assert_ptr_equal(sl_cfs_pick_next_task(sim, rq), b);
	assert_null(cfs_rq_of_cpu(rq)->next);
	sl_cfs_put_prev_task(sim, rq, b);
	/* a buddy too far behind loses to the leftmost */
	cfs_rq_of_cpu(rq)->next = &c->se;
	assert_ptr_equal(sl_cfs_pick_next_task(sim, rq), a);
	assert_ptr_equal(cfs_rq_of_cpu(rq)->next, &c->se);
	sl_cfs_put_prev_task(sim, rq, a);
	/* 2.6.31: next beats last when both qualify */
	cfs_rq_of_cpu(rq)->next = &b->se;
	cfs_rq_of_cpu(rq)->last = &a->se;
	assert_ptr_equal(sl_cfs_pick_next_task(sim, rq), b);
	fixture_free(f);
	free(a);
	free(b);
	free(c);

	/* 2.6.32: last overrides next */
	f = fixture_new("2.6.32", "1", NULL);
	sim = f->sim;
	rq = &sim->cpus[0];
	a = bare_task(0, 0, 0);
	b = bare_task(0, 0, 0);
	c = bare_task(0, 0, 0);
	cfs_rq_of_cpu(rq)->min_vruntime = MIN_V;
	a->se.vruntime = MIN_V;
	b->se.vruntime = MIN_V + 500000; /* within 1 ms */
	c->se.vruntime = MIN_V + 800000;
	sl_cfs_enqueue_task(sim, rq, a, 0);
	sl_cfs_enqueue_task(sim, rq, b, 0);
	sl_cfs_enqueue_task(sim, rq, c, 0);
	cfs_rq_of_cpu(rq)->next = &b->se;
	cfs_rq_of_cpu(rq)->last = &c->se;
	assert_ptr_equal(sl_cfs_pick_next_task(sim, rq), c);
	assert_ptr_equal(cfs_rq_of_cpu(rq)->next, &b->se); /* only the pick's marks are cleared */
	assert_null(cfs_rq_of_cpu(rq)->last);
	fixture_free(f);
	free(a);
	free(b);
	free(c);
}

/* Equal vruntimes are served in the order they were queued (FIFO: equal keys go right). */
static void test_rbtree_fifo(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *t[5];

	(void)state;
	for (int i = 0; i < 5; i++) {
		t[i] = bare_task(0, 0, 0);
		t[i]->se.vruntime = MIN_V;
		sl_cfs_enqueue_task(sim, rq, t[i], 0);
	}
	for (int i = 0; i < 5; i++) {
		struct sl_task *p = sl_cfs_pick_next_task(sim, rq);

		assert_ptr_equal(p, t[i]);
		sl_cfs_dequeue_task(sim, rq, p, 0);
		cfs_rq_of_cpu(rq)->curr = NULL;
	}
	fixture_free(f);
	for (int i = 0; i < 5; i++)
		free(t[i]);
}

/* task_hot: a buddy resists migration (CACHE_HOT_BUDDY); 2.6.32 only while the balancing CPU
 * has tasks; otherwise a task is hot for migration_cost after it last ran. */
static void test_task_hot(void **state)
{
	const char *kernels[] = {"2.6.31", "2.6.32"};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct fixture *f = fixture_new(kernels[k], "2", NULL);
		struct sl_sim *sim = f->sim;
		struct sl_task *p = bare_task(0, 0, 0), *q = bare_task(0, 0, 1);

		sim->now = 10 * NSEC_PER_MSEC;
		p->se.exec_start = sim->now - 400000; /* ran 0.4 ms ago: hot */
		assert_true(sl_task_hot(sim, p));
		p->se.exec_start = sim->now - 600000; /* 0.6 ms ago: cold */
		assert_false(sl_task_hot(sim, p));
		cfs_rq_of_cpu(&sim->cpus[0])->last = &p->se;
		sim->this_cpu = 1; /* an idle CPU balancing */
		assert_int_equal(sl_task_hot(sim, p), k == 0);
		sl_cfs_enqueue_task(sim, &sim->cpus[1], q, 0); /* now it has a task */
		assert_true(sl_task_hot(sim, p));
		sim->features &= ~(1ULL << F_CACHE_HOT_BUDDY);
		assert_false(sl_task_hot(sim, p));
		cfs_rq_of_cpu(&sim->cpus[0])->last = NULL;
		fixture_free(f);
		free(p);
		free(q);
	}
}

/* n nice-0 tasks queued on CPU cpu, its cpu_load[] steady at their load (filled by hand) */
static void queue_steady(struct sl_sim *sim, int cpu, int n, struct sl_task **out)
{
	struct sl_cpu *rq = &sim->cpus[cpu];

	for (int i = 0; i < n; i++) {
		out[i] = bare_task(0, SL_SCHED_NORMAL, cpu);
		out[i]->sched_class = sim->classes[sim->nclasses - 1]; /* the fair class */
		sl_cfs_enqueue_task(sim, rq, out[i], 0);
	}
	for (int i = 0; i < 5; i++)
		rq->cpu_load[i] = rq->load.weight;
	sl_lb_touch(rq);
}

/*
 * The periodic balance of a flat socket of 4 CPUs (one domain of four one-CPU groups) under
 * both releases: CPU 0 (one task) against CPUs 1 and 3 (three each) and 2 (one). Worked by
 * hand at busy_idx 2, loads steady: group loads 1024, 3072, 1024, 3072; the busiest is the
 * first of the two equal greatest, CPU 1 (a later equal one does not win); the domain's
 * average 8192 * 1024 / 4096 = 2048; imbalance min(3072 - 2048, 2048 - 1024) = 1024, one
 * task of 1024: CPU 1 gives one task to CPU 0, CPU 3 keeps its three. Then CPU 2 balances:
 * now CPU 3 alone is the greatest (3072 against 2048 and 2048).
 */
static void test_busiest_group_first_of_equal(void **state)
{
	const char *kernels[] = {"2.6.31", "2.6.32"};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct fixture *f = fixture_new(kernels[k], "4", NULL);
		struct sl_sim *sim = f->sim;
		struct sl_task *t[8];
		const int n[4] = {1, 3, 1, 3};
		int m = 0;

		assert_int_equal(sim->cpus[0].nsd, 1);
		assert_int_equal(sim->cpus[0].sd[0].ngroups, 4);
		for (int c = 0; c < 4; c++) {
			queue_steady(sim, c, n[c], t + m);
			m += n[c];
		}
		sim->now = NSEC_PER_SEC; /* every domain due */
		sl_rebalance_tick(sim, &sim->cpus[0]);
		assert_int_equal(sim->cpus[0].nr_running, 2);
		assert_int_equal(sim->cpus[1].nr_running, 2);
		assert_int_equal(sim->cpus[3].nr_running, 3);
		/* CPU 2's figures: its own 1024; CPU 0 1024 (the source load, the lesser of its
		 * cpu_load[1] 1024 and its weight 2048), CPU 1 2048, CPU 3 3072: the average
		 * 7168 * 1024 / 4096 = 1792, the imbalance min(1280, 768) = 768 below a task of
		 * 1024, which fix_small_imbalance moves (3072 - 1024 + 1024 >= 2 * 1024) */
		sl_rebalance_tick(sim, &sim->cpus[2]);
		assert_int_equal(sim->cpus[2].nr_running, 2);
		assert_int_equal(sim->cpus[3].nr_running, 2);
		assert_int_equal(sim->cpus[1].nr_running, 2);
		fixture_free(f);
		for (int i = 0; i < m; i++)
			free(t[i]);
	}
}

/* cpu_load[] at its fixed point (the load steady): a tick leaves the balance's kept sums valid
 * (the groups' epochs unmoved); a change of the load moves them */
static void test_steady_load_keeps_sums(void **state)
{
	const char *kernels[] = {"2.6.31", "2.6.32"};

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct fixture *f = fixture_new(kernels[k], "2", NULL);
		struct sl_sim *sim = f->sim;
		struct sl_cpu *rq = &sim->cpus[0];
		struct sl_sched_domain *sd = &rq->sd[0];
		struct sl_task *t[3];
		u64 e, se;

		queue_steady(sim, 0, 2, t);
		e = sd->groups[sd->local].epoch;
		se = sd->groups[0].span_epoch;
		sl_update_cpu_load(rq);
		assert_int_equal(rq->cpu_load[4], 2048);
		assert_int_equal(sd->groups[sd->local].epoch, e);
		assert_int_equal(sd->groups[0].span_epoch, se);
		t[2] = bare_task(0, SL_SCHED_NORMAL, 0);
		sl_cfs_enqueue_task(sim, rq, t[2], 0);
		e = sd->groups[sd->local].epoch;
		se = sd->groups[0].span_epoch;
		sl_update_cpu_load(rq); /* cpu_load[0] 3072, cpu_load[1] (2048 + 3073) / 2 */
		assert_int_equal(rq->cpu_load[0], 3072);
		assert_int_equal(rq->cpu_load[1], 2560);
		assert_true(sd->groups[sd->local].epoch > e);
		assert_true(sd->groups[0].span_epoch > se);
		fixture_free(f);
		for (int i = 0; i < 3; i++)
			free(t[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_place_wakeup_2_6_31),
		cmocka_unit_test(test_place_wakeup_2_6_32),
		cmocka_unit_test(test_place_fork),
		cmocka_unit_test(test_wakeup_preempt_entity),
		cmocka_unit_test(test_check_preempt_wakeup),
		cmocka_unit_test(test_pick_next_buddies),
		cmocka_unit_test(test_rbtree_fifo),
		cmocka_unit_test(test_task_hot),
		cmocka_unit_test(test_busiest_group_first_of_equal),
		cmocka_unit_test(test_steady_load_keeps_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
