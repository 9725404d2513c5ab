/*
 * EEVDF (6.18) arithmetic and decisions against values worked by hand from docs/model/eevdf.md
 * §3-§4: __calc_delta vectors, V with floor division, eligibility without division,
 * update_deadline, place_entity's lag inflation (W + w) / W with truncation, __pick_eevdf's order
 * (eligible earliest deadline, protection, ties, buddy).
 */
#include "eevdf_helpers.h"

#define SLICE2 1400000ULL /* base slice on 2 CPUs (log scaling: 2 x 0.7 ms) */

static u64 delta_fair(int nice, u64 d)
{
	struct sl_task *p = ee_task(nice, SL_SCHED_NORMAL, 0);
	u64 r = sl_eevdf_calc_delta_fair(d, &p->se);

	free(p);
	return r;
}

static void test_calc_delta_vectors(void **state)
{
	(void)state;
	/* nice 0: weight == NICE_0_LOAD, delta unchanged */
	assert_int_equal(delta_fair(0, 1400000), 1400000);
	/* nice -20: fact = 1024 * 48388 = 49549312 (< 2^32, shift 32);
	 * 700000 * 49549312 >> 32 = 8075.6 -> 8075 (seen on the target) */
	assert_int_equal(delta_fair(-20, 700000), 8075);
	assert_int_equal(delta_fair(-20, 1400000), 16151);
	/* nice -5: 1024 * 1376151 = 1409178624 (< 2^32): 1400000 * it >> 32 = 459339.6 */
	assert_int_equal(delta_fair(-5, 1400000), 459339);
	/* nice 5: 1024 * 12820798 = 13128497152 >= 2^32: hi 3, fls 2, shift 30, fact 3282124288;
	 * 1400000 * 3282124288 >> 30 = 4279403.05 -> 4279403 */
	assert_int_equal(delta_fair(5, 1400000), 4279403);
	/* nice 19: 1024 * 286331153 = 293203100672: hi 68, fls 7, shift 25, fact 2290649224;
	 * 1400000 * 2290649224 >> 25 = 95573333.3; 4000000: 273066666.6 */
	assert_int_equal(delta_fair(19, 1400000), 95573333);
	assert_int_equal(delta_fair(19, 4000000), 273066666);
}

static void test_calc_delta_lazy_inverse(void **state)
{
	(void)state;
	/* a weight without a table inverse: (2^32 - 1) / 1024 = 4194303 (table: 4194304);
	 * 1024000 * 1024 * 4194303 >> 32 = 1023999.75 -> 1023999: truncation shows */
	struct sl_load_weight lw = {scale_load(1024), 0};

	assert_int_equal(sl_eevdf_calc_delta(1024000, EEVDF_NICE_0_LOAD, &lw), 1023999);
	assert_int_equal(lw.inv_weight, 4194303);
	/* scale_load_down: 0 stays 0, tiny weights floor at 2 */
	assert_int_equal(scale_load_down(0), 0);
	assert_int_equal(scale_load_down(1024), 2);
	assert_int_equal(scale_load_down(scale_load(3)), 3);
}

static void test_avg_vruntime_floor(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_cpu *rq = &f->sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* keys -3 and 0, w 1024 each: S = -3072, W = 2048; R < 0 so R -= 2047: -5119 / 2048
	 * truncates to -2 = floor(-1.5) (plain C division would give -1) */
	ee_tree_add(f->sim, rq, a, (u64)-3, 100, SLICE2);
	ee_tree_add(f->sim, rq, b, 0, 200, SLICE2);
	assert_int_equal(ee_rq_of(f->sim, rq)->sum_w_vruntime, -3072);
	assert_int_equal(sl_eevdf_avg_vruntime(ee_rq_of(f->sim, rq)), (u64)-2);
	/* z moved by -2: S = -3072 - 2048 * -2 = 1024 (keys -1 and 2) */
	assert_int_equal(ee_rq_of(f->sim, rq)->sum_w_vruntime, 1024);
	/* idempotent now: keys -1, 2 -> R = 1024 >= 0: 1024 / 2048 = 0 */
	assert_int_equal(sl_eevdf_avg_vruntime(ee_rq_of(f->sim, rq)), (u64)-2);
	fixture_free(f);
	free(a);
	free(b);

	/* positive: keys 3 and 0 -> 3072 / 2048 = 1 (floor of 1.5), S = 1024 */
	f = fixture_new("6.18", "1", NULL);
	rq = &f->sim->cpus[0];
	a = ee_task(0, 0, 0);
	b = ee_task(0, 0, 0);
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	ee_tree_add(f->sim, rq, a, 3, 100, SLICE2);
	ee_tree_add(f->sim, rq, b, 0, 200, SLICE2);
	assert_int_equal(sl_eevdf_avg_vruntime(ee_rq_of(f->sim, rq)), 1);
	assert_int_equal(ee_rq_of(f->sim, rq)->sum_w_vruntime, 1024);
	fixture_free(f);
	free(a);
	free(b);
}

static void test_avg_vruntime_curr_only(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_cpu *rq = &f->sim->cpus[0];
	struct sl_task *c = ee_task(0, 0, 0);

	(void)state;
	/* empty tree: V is curr's vruntime; a never-run queue starts at -1.048576 ms */
	assert_int_equal(ee_rq_of(f->sim, rq)->zero_vruntime, (u64) - (1LL << 20));
	ee_set_curr(f->sim, rq, c, 5000000, 6400000, SLICE2);
	assert_int_equal(sl_eevdf_avg_vruntime(ee_rq_of(f->sim, rq)), 5000000);
	fixture_free(f);
	free(c);
}

static void test_eligibility(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0), *c = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* A v = -3, B v = 0 (w 1024): V = -1.5. A eligible: -3072 >= -3 * 2048; B not: -3072 < 0 */
	ee_tree_add(f->sim, rq, a, (u64)-3, 100, SLICE2);
	ee_tree_add(f->sim, rq, b, 0, 200, SLICE2);
	assert_true(sl_eevdf_entity_eligible(ee_rq_of(f->sim, rq), &a->se));
	assert_false(sl_eevdf_entity_eligible(ee_rq_of(f->sim, rq), &b->se));
	/* curr C at -1 counts: R = -3072 - 1024 = -4096, T = 3072, V = -1.33: C (-1) is not
	 * eligible (-4096 < -3072), -2 is (-4096 >= -6144) */
	ee_set_curr(sim, rq, c, (u64)-1, 300, SLICE2);
	assert_false(sl_eevdf_entity_eligible(ee_rq_of(f->sim, rq), &c->se));
	assert_true(sl_eevdf_vruntime_eligible(ee_rq_of(f->sim, rq), (u64)-2));
	/* exactly at V is eligible (lag 0): three at -1, -3, 0 ... x with x * 3072 <= -4096
	 * is x <= -1.33: -1 no, -2 yes (checked); and nothing changed z */
	assert_int_equal(ee_rq_of(f->sim, rq)->zero_vruntime, 0);
	fixture_free(f);
	free(a);
	free(b);
	free(c);
}

static void test_eligibility_weighted(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_cpu *rq = &f->sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(5, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* A nice 0 (1024) at 0, B nice 5 (335) at 10: V = 3350 / 1359 = 2.47 */
	ee_tree_add(f->sim, rq, a, 0, 100, SLICE2);
	ee_tree_add(f->sim, rq, b, 10, 200, SLICE2);
	assert_true(sl_eevdf_entity_eligible(ee_rq_of(f->sim, rq), &a->se));
	assert_false(sl_eevdf_entity_eligible(ee_rq_of(f->sim, rq), &b->se));
	assert_true(
		sl_eevdf_vruntime_eligible(ee_rq_of(f->sim, rq), 2)); /* 3350 >= 2 * 1359 = 2718 */
	assert_false(
		sl_eevdf_vruntime_eligible(ee_rq_of(f->sim, rq), 3)); /* 3350 < 3 * 1359 = 4077 */
	fixture_free(f);
	free(a);
	free(b);
}

static void test_update_deadline(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct eevdf_rq *cfs = ee_rq_of(f->sim, &sim->cpus[0]);
	struct sl_task *p = ee_task(0, 0, 0), *q = ee_task(5, 0, 0);

	(void)state;
	assert_int_equal(sim->tun.sched_base_slice, SLICE2);
	/* not reached: v < d, nothing changes */
	p->se.vruntime = 3000000;
	ee_se(&p->se)->deadline = 4000000;
	assert_false(sl_eevdf_update_deadline(sim, cfs, &p->se));
	assert_int_equal(ee_se(&p->se)->deadline, 4000000);
	/* passed: d = v + vslice from the current v (one step), nice 0: 5 ms + 1.4 ms */
	p->se.vruntime = 5000000;
	assert_true(sl_eevdf_update_deadline(sim, cfs, &p->se));
	assert_int_equal(ee_se(&p->se)->deadline, 6400000);
	assert_int_equal(ee_se(&p->se)->slice, SLICE2);
	/* v == d counts as reached; nice 5: 10 ms + 4279403 (the §3 vector) */
	q->se.vruntime = ee_se(&q->se)->deadline = 10000000;
	assert_true(sl_eevdf_update_deadline(sim, cfs, &q->se));
	assert_int_equal(ee_se(&q->se)->deadline, 14279403);
	/* a custom slice (sched_runtime) is kept: 3 ms */
	p->se.custom_slice = true;
	ee_se(&p->se)->slice = 3000000;
	p->se.vruntime = 7000000;
	assert_true(sl_eevdf_update_deadline(sim, cfs, &p->se));
	assert_int_equal(ee_se(&p->se)->deadline, 10000000);
	fixture_free(f);
	free(p);
	free(q);
}

/* place a waking task with vlag on a rq of two nice-0 entities at 1 ms (V = 1 ms) */
static struct sl_task *place_case(const char *feats, int nice, s64 vlag, bool with_curr, int flags,
				  bool rel, u64 rel_d)
{
	struct fixture *f = fixture_new("6.18", "2", feats);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0), *c = ee_task(0, 0, 0);
	struct sl_task *p = ee_task(nice, 0, 0);

	ee_rq_of(f->sim, rq)->zero_vruntime = 1000000;
	ee_tree_add(f->sim, rq, a, 1000000, 2400000, SLICE2);
	ee_tree_add(f->sim, rq, b, 1000000, 2400000, SLICE2);
	if (with_curr)
		ee_set_curr(sim, rq, c, 1000000, 2400000, SLICE2);
	ee_se(&p->se)->vlag = vlag;
	p->se.rel_deadline = rel;
	ee_se(&p->se)->deadline = rel_d;
	sl_eevdf_place_entity(sim, ee_rq_of(f->sim, rq), &p->se, flags);
	fixture_free(f);
	free(a);
	free(b);
	free(c);
	return p;
}

static void test_place_lag(void **state)
{
	struct sl_task *p;

	(void)state;
	/* vlag +300000, W = 2048, w = 1024: lag = 300000 * 3072 / 2048 = 450000; v = 550000,
	 * d = v + 1.4 ms. Afterwards V' = (2 * 1024 * 1e6 + 1024 * 550000) / 3072 = 850000:
	 * the wakee's lag V' - v is the 300000 it left with */
	p = place_case(NULL, 0, 300000, false, 0, false, 0);
	assert_int_equal(p->se.vruntime, 550000);
	assert_int_equal(ee_se(&p->se)->deadline, 1950000);
	free(p);
	/* negative lag, truncating toward zero: -100001 * 3072 / 2048 = -150001.5 -> -150001
	 * (a floor would give -150002): v = 1150001 */
	p = place_case(NULL, 0, -100001, false, 0, false, 0);
	assert_int_equal(p->se.vruntime, 1150001);
	free(p);
	/* curr counts in L: L = 2048 + 1024 = 3072; nice 5 (w 335), vlag 335000:
	 * 335000 * 3407 / 3072 = 371531.57 -> 371531; v = 628469; d = v + 4279403 */
	p = place_case(NULL, 5, 335000, true, 0, false, 0);
	assert_int_equal(p->se.vruntime, 628469);
	assert_int_equal(ee_se(&p->se)->deadline, 4907872);
	free(p);
	/* NO_PLACE_LAG: v = V */
	p = place_case("NO_PLACE_LAG", 0, 300000, false, 0, false, 0);
	assert_int_equal(p->se.vruntime, 1000000);
	assert_int_equal(ee_se(&p->se)->deadline, 2400000);
	free(p);
}

static void test_place_deadlines(void **state)
{
	struct sl_task *p;

	(void)state;
	/* fork (ENQUEUE_INITIAL), PLACE_DEADLINE_INITIAL: half a vslice, 700000 */
	p = place_case(NULL, 0, 0, false, EE_ENQUEUE_INITIAL, false, 0);
	assert_int_equal(p->se.vruntime, 1000000);
	assert_int_equal(ee_se(&p->se)->deadline, 1700000);
	free(p);
	p = place_case("NO_PLACE_DEADLINE_INITIAL", 0, 0, false, EE_ENQUEUE_INITIAL, false, 0);
	assert_int_equal(ee_se(&p->se)->deadline, 2400000);
	free(p);
	/* a migrated task's relative deadline (500000) is restored: d = v + 500000 */
	p = place_case(NULL, 0, 0, false, 0, true, 500000);
	assert_int_equal(ee_se(&p->se)->deadline, 1500000);
	assert_false(p->se.rel_deadline);
	free(p);
}

static void test_pick_order(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0), *c = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* A v 0 d 3 ms; B v -1 ms d 5 ms; C v 2 ms d 1 ms. V = 1 ms / 3 = 0.33 ms: A and B are
	 * eligible, C (the leftmost, earliest deadline) is not: the pick is A (3 ms < 5 ms) */
	ee_tree_add(f->sim, rq, a, 0, 3000000, SLICE2);
	ee_tree_add(f->sim, rq, b, (u64)-1000000, 5000000, SLICE2);
	ee_tree_add(f->sim, rq, c, 2000000, 1000000, SLICE2);
	assert_ptr_equal(sl_eevdf_first(ee_rq_of(f->sim, rq)), &c->se);
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), NULL, true), &a->se);
	/* PICK_BUDDY: an eligible next buddy wins; an ineligible one does not */
	ee_rq_of(f->sim, rq)->next = &b->se;
	assert_ptr_equal(sl_eevdf_pick_next_entity(sim, ee_rq_of(f->sim, rq), NULL), &b->se);
	ee_rq_of(f->sim, rq)->next = &c->se;
	assert_ptr_equal(sl_eevdf_pick_next_entity(sim, ee_rq_of(f->sim, rq), NULL), &a->se);
	fixture_free(f);
	free(a);
	free(b);
	free(c);
}

static void test_pick_protection(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *d = ee_task(0, 0, 0), *e = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* curr D v 0 d 9 ms, protected to 1 ms; E v 0 d 2 ms. V = 0: both eligible */
	ee_tree_add(f->sim, rq, e, 0, 2000000, SLICE2);
	ee_set_curr(sim, rq, d, 0, 9000000, SLICE2);
	ee_se(&d->se)->vprot = 1000000;
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), &d->se, true), &d->se);
	/* without protection (a short wakee's test) the earlier deadline wins */
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), &d->se, false), &e->se);
	/* protection spent (vprot <= v): E */
	ee_se(&d->se)->vprot = 0;
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), &d->se, true), &e->se);
	/* curr with the strictly earlier deadline keeps the CPU; on a tie the tree's wins */
	ee_se(&d->se)->deadline = 1000000;
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), &d->se, true), &d->se);
	ee_se(&d->se)->deadline = 2000000;
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), &d->se, true), &e->se);
	fixture_free(f);
	free(d);
	free(e);
}

static void test_pick_ties_and_single(void **state)
{
	struct fixture *f = fixture_new("6.18", "1", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *b = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* a single queued entity is taken even if ineligible-looking */
	ee_tree_add(f->sim, rq, a, 0, 5000000, SLICE2);
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), NULL, true), &a->se);
	/* equal deadlines: the earlier insertion (ties go right) */
	ee_tree_add(f->sim, rq, b, 0, 5000000, SLICE2);
	assert_ptr_equal(sl_eevdf_pick_eevdf(sim, ee_rq_of(f->sim, rq), NULL, true), &a->se);
	fixture_free(f);
	free(a);
	free(b);
}

static void test_protect_slice(void **state)
{
	struct fixture *f = fixture_new("6.18", "2", NULL);
	struct sl_sim *sim = f->sim;
	struct sl_cpu *rq = &sim->cpus[0];
	struct sl_task *a = ee_task(0, 0, 0), *s = ee_task(0, 0, 0), *p = ee_task(0, 0, 0);

	(void)state;
	ee_rq_of(f->sim, rq)->zero_vruntime = 0;
	/* RUN_TO_PARITY, the tree's min slice 0.3 ms < 1.4 ms: vprot = min(d, v + 0.3 ms) */
	ee_tree_add(f->sim, rq, s, 0, 300000, 300000);
	p->se.vruntime = 1000000;
	ee_se(&p->se)->deadline = 2400000;
	ee_se(&p->se)->slice = SLICE2;
	sl_eevdf_set_protect_slice(sim, ee_rq_of(f->sim, rq), &p->se);
	assert_int_equal(ee_se(&p->se)->vprot, 1300000);
	/* a tree of larger slices: the own slice, vprot = d */
	fixture_free(f);
	f = fixture_new("6.18", "2", NULL);
	sim = f->sim;
	rq = &sim->cpus[0];
	ee_tree_add(f->sim, rq, a, 0, 3000000, 3000000);
	sl_eevdf_set_protect_slice(sim, ee_rq_of(f->sim, rq), &p->se);
	assert_int_equal(ee_se(&p->se)->vprot, 2400000);
	fixture_free(f);
	/* NO_RUN_TO_PARITY: 0.7 ms, unscaled: v + 0.7 ms */
	f = fixture_new("6.18", "2", "NO_RUN_TO_PARITY");
	sim = f->sim;
	sl_eevdf_set_protect_slice(sim, ee_rq_of(f->sim, &sim->cpus[0]), &p->se);
	assert_int_equal(ee_se(&p->se)->vprot, 1700000);
	/* cancel: vprot = v */
	sl_eevdf_cancel_protect_slice(&p->se);
	assert_int_equal(ee_se(&p->se)->vprot, 1000000);
	assert_false(sl_eevdf_protect_slice(&p->se));
	fixture_free(f);
	free(a);
	free(s);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calc_delta_vectors),
		cmocka_unit_test(test_calc_delta_lazy_inverse),
		cmocka_unit_test(test_avg_vruntime_floor),
		cmocka_unit_test(test_avg_vruntime_curr_only),
		cmocka_unit_test(test_eligibility),
		cmocka_unit_test(test_eligibility_weighted),
		cmocka_unit_test(test_update_deadline),
		cmocka_unit_test(test_place_lag),
		cmocka_unit_test(test_place_deadlines),
		cmocka_unit_test(test_pick_order),
		cmocka_unit_test(test_pick_protection),
		cmocka_unit_test(test_pick_ties_and_single),
		cmocka_unit_test(test_protect_slice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
