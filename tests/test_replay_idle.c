/*
 * replay-idle on the shared idle-sleep-loop capture: every governor and the oracle are
 * reported, no governor uses less energy than the per-interval oracle, and poll (never
 * sleeping) uses the most.
 */
#include "helpers.h"
#include "trace/replay_idle.h"

#include "json_helpers.h"
#include <libgen.h>

static void test_replay(void **state)
{
	char src[512], path[600], *buf = NULL, err[1024];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(path, sizeof(path), "%s/data/idle-sleep-loop.trace.xz", dirname(src));
	assert_non_null(f);
	assert_int_equal(sl_replay_idle(path, "nehalem", NULL, 0, false, true, f, err, sizeof(err)),
			 0);
	fclose(f);
	json_object *root = json_tokener_parse(buf), *govs = get(root, "governors");

	assert_non_null(root);
	assert_true(json_object_get_int(get(root, "idle_periods")) > 300);
	assert_int_equal(json_object_array_length(govs), 8);
	double poll = 0, max_other = 0;

	for (size_t i = 0; i < json_object_array_length(govs); i++) {
		json_object *g = json_object_array_get_idx(govs, i);
		double e = json_object_get_double(get(g, "energy_j"));
		double o = json_object_get_double(get(g, "oracle_energy_j"));
		const char *name = json_object_get_string(get(g, "governor"));

		assert_true(e >= o - 1e-12);
		if (!strcmp(name, "poll"))
			poll = e;
		else if (e > max_other)
			max_other = e;
		/* the oracle governor, told each interval, is the oracle */
		if (!strcmp(name, "oracle"))
			assert_true(e - o < 1e-12);
	}
	assert_true(poll > max_other);
	json_object_put(root);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
