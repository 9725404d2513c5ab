/*
 * The classes' areas (class.h rq_size, sim_size; made by class.c): each CPU gets its own area of
 * the class's size, zeroed and then set up by init_rq, the areas of one class are one array in
 * CPU order, the fair class's at slot 0, a class of size 0 has none, RT's machine-wide area holds
 * the rto_mask that a pull walks (bit c: CPU c has more than one RT task queued), and a class's
 * per-task area is its entity's class_area (task_size at most SL_SE_AREA_SIZE); BFS's global run
 * queue is its machine-wide area.
 */
#include "helpers.h"
#include "sched/class.h"
#include "sched/cfs/cfs_releases.h"
#include "sched/release.h"
#include "sched/bfs/bfs.h"
#include "sched/eevdf/eevdf.h"
#include "sched/rt/rt.h"

/* 6.18 on 3 CPUs: RT's and EEVDF's areas, one per CPU, in CPU order, as their init_rq left them */
static void test_areas_per_cpu(void **state)
{
	struct fixture *f = fixture_new("6.18", "3", NULL);
	struct sl_sim *sim = f->sim;
	struct rt_rq *rts = rt_rqs(sim);
	struct eevdf_rq *ees = sl_rq_areas(sim, &sl_eevdf_class);

	(void)state;
	assert_non_null(rts);
	assert_non_null(ees);
	assert_ptr_not_equal((void *)rts, (void *)ees);
	for (int c = 0; c < 3; c++) {
		struct sl_cpu *rq = &sim->cpus[c];

		assert_ptr_equal(rt_rq_of(sim, rq), &rts[c]);
		assert_ptr_equal(ee_rq_of(sim, rq), &ees[c]);
		assert_ptr_equal(sl_rq_area(rq, &sl_rt_class), &rts[c]);
		assert_ptr_equal(sl_rq_area(rq, &sl_eevdf_class), &ees[c]);
		/* rt_init_rq: no task, so the highest priority is "none" (100) */
		assert_int_equal(rts[c].highest_prio, SL_MAX_RT_PRIO);
		assert_int_equal(rts[c].rt_nr_running, 0);
		assert_false(rts[c].overloaded);
		/* eevdf_init_rq: the NI_RANDOM counters start at 512 calls, 256 successes, and
		 * the balance interval at 2 ms; what it does not set stays zero */
		assert_int_equal(ees[c].ni_call, 512);
		assert_int_equal(ees[c].ni_success, 256);
		assert_int_equal(ees[c].balance_interval, 2);
		assert_int_equal(ees[c].nr_queued, 0);
		assert_null(ees[c].curr);
	}
	/* RT's machine-wide area: one mask word for 3 CPUs, empty */
	assert_ptr_equal(rt_root_of(sim), sl_sim_area(sim, &sl_rt_class));
	assert_null(sl_sim_area(sim, &sl_eevdf_class));
	assert_non_null(rt_root_of(sim));
	assert_int_equal(rt_root_of(sim)->rto_mask[0], 0);
	fixture_free(f);
}

/* 2.6.31's CFS: its root runqueues are its areas at the fair slot; BFS (one global queue in
 * its class_state) declares no per-CPU area, and none is made */
static void test_fair_slot(void **state)
{
	struct fixture *f = fixture_new("2.6.31", "2", NULL);
	struct fixture *g = fixture_new("2.6.31-bfs", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct cfs_rq *cfss = sl_rq_areas(sim, &sl_cfs_class);

	(void)state;
	assert_int_equal(sim->nclasses, 2);
	assert_ptr_equal(sim->classes[0], &sl_rt_class);
	assert_int_equal(sl_rt_class.slot, 1);
	for (int c = 0; c < 2; c++) {
		assert_ptr_equal(cfs_rq_of_cpu(&sim->cpus[c]), &cfss[c]);
		assert_ptr_equal(sim->cpus[c].class_rq[SL_FAIR_SLOT], &cfss[c]);
		assert_int_equal(cfss[c].cpu, c); /* cfs_init_rq */
		assert_ptr_equal(rt_rq_of(sim, &sim->cpus[c]), &rt_rqs(sim)[c]);
	}
	assert_null(sim->class_sim[SL_FAIR_SLOT]);
	assert_null(g->sim->cpus[0].class_rq[SL_FAIR_SLOT]);
	assert_null(g->sim->cpus[1].class_rq[SL_FAIR_SLOT]);
	assert_non_null(g->sim->cpus[1].class_rq[1]); /* RT's */
	fixture_free(f);
	fixture_free(g);
}

static struct sl_task *fifo_task(struct sl_sim *sim, int rtprio, int cpu)
{
	struct sl_task *p = bare_task(0, SL_SCHED_FIFO, cpu);

	p->rt_priority = rtprio;
	p->sched_class = &sl_rt_class;
	sl_rt_class.init_task(sim, p);
	return p;
}

/*
 * 70 CPUs (two mask words): CPU 66's bit is set when its second RT task is queued and cleared
 * when it is down to one again; CPU 3's bit independently of it.
 */
static void test_rto_mask(void **state)
{
	struct fixture *f = fixture_new("6.18", "70", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *a = &sim->cpus[66], *b = &sim->cpus[3];
	struct sl_task *p = fifo_task(sim, 10, 66), *q = fifo_task(sim, 20, 66);
	struct sl_task *r = fifo_task(sim, 30, 3), *s = fifo_task(sim, 40, 3);
	const u64 *mask = rt_root_of(sim)->rto_mask;

	(void)state;
	sl_rt_enqueue(sim, a, p, 0);
	assert_int_equal(mask[1], 0);
	sl_rt_enqueue(sim, a, q, 0);
	assert_int_equal(mask[1], 1ULL << 2); /* CPU 66 = word 1, bit 2 */
	assert_true(rt_rq_of(sim, a)->overloaded);
	/* prio = 99 - rt_priority: q (20) is the higher, 79 */
	assert_int_equal(rt_rq_of(sim, a)->highest_prio, 79);
	sl_rt_enqueue(sim, b, r, 0);
	sl_rt_enqueue(sim, b, s, 0);
	assert_int_equal(mask[0], 1ULL << 3);
	sl_rt_dequeue(sim, a, p, 1);
	assert_int_equal(mask[1], 0);
	assert_false(rt_rq_of(sim, a)->overloaded);
	assert_int_equal(mask[0], 1ULL << 3);
	sl_rt_dequeue(sim, b, s, 1);
	assert_int_equal(mask[0], 0);
	sl_rt_dequeue(sim, a, q, 1);
	sl_rt_dequeue(sim, b, r, 1);
	fixture_free(f);
	free(p);
	free(q);
	free(r);
	free(s);
}

/* every registered release's classes fit their per-task areas in the entity's class_area and
 * sit at their slots */
static void test_task_size_fits(void **state)
{
	(void)state;
	for (int r = 0; r < sl_nreleases; r++) {
		const struct sl_sched_class *cls[SL_MAX_CLASSES];
		int n = sl_release_classes(sl_releases[r], cls);

		for (int i = 0; i < n; i++) {
			assert_true(cls[i]->task_size <= SL_SE_AREA_SIZE);
			/* the slots count from the bottom: the fair class 0, RT 1 */
			assert_int_equal(cls[i]->slot, n - 1 - i);
		}
	}
	assert_int_equal(sl_eevdf_class.task_size, sizeof(struct eevdf_entity));
	assert_int_equal(sl_bfs_class.task_size, sizeof(struct sl_bfs_entity));
	assert_int_equal(sl_bfs_class.sim_size, sizeof(struct sl_bfs_grq));
}

/* EEVDF's members of a task are its entity's class_area, zero on a new task */
static void test_eevdf_entity_in_area(void **state)
{
	struct sl_task *p = bare_task(0, SL_SCHED_NORMAL, 0);

	(void)state;
	assert_ptr_equal((void *)ee_se(&p->se), (void *)p->se.class_area);
	assert_int_equal(ee_se(&p->se)->deadline, 0);
	assert_null(ee_se(&p->se)->last_wakee);
	ee_se(&p->se)->recent_used_cpu = 7;
	assert_int_equal(ee_se(&p->se)->recent_used_cpu, 7);
	free(p);
}

/* BFS on 4 CPUs: its global run queue is its machine-wide area, set up by init_sim (every
 * CPU's socket, one socket here); a task's BFS members are its entity's class_area, zero on a
 * new task, and the area gives its entity back (the far tree's nodes are areas) */
static void test_bfs_areas(void **state)
{
	struct fixture *f = fixture_new("2.6.31-bfs", "4", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_task *p = bare_task(0, SL_SCHED_NORMAL, 0);

	(void)state;
	assert_ptr_equal(sl_bfs_grq(sim), sl_sim_area(sim, &sl_bfs_class));
	assert_non_null(sl_bfs_grq(sim));
	assert_int_equal(sl_bfs_grq(sim)->ncpu, 4);
	assert_int_equal(sl_bfs_grq(sim)->nsock, 1);
	assert_int_equal(sl_bfs_grq(sim)->nr_queued, 0);
	assert_non_null(sl_bfs_grq(sim)->sock);
	assert_ptr_equal((void *)bfs_se(&p->se), (void *)p->se.class_area);
	assert_ptr_equal(bfs_owner(bfs_se(&p->se)), &p->se);
	assert_int_equal(bfs_se(&p->se)->deadline, 0);
	assert_false(bfs_se(&p->se)->queued);
	bfs_se(&p->se)->prio = BFS_IDLE_PRIO;
	assert_int_equal(bfs_se(&p->se)->prio, 102);
	fixture_free(f);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_areas_per_cpu),
		cmocka_unit_test(test_fair_slot),
		cmocka_unit_test(test_rto_mask),
		cmocka_unit_test(test_task_size_fits),
		cmocka_unit_test(test_eevdf_entity_in_area),
		cmocka_unit_test(test_bfs_areas),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
