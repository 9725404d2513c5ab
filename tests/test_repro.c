/*
 * `repro fio` shows the 2009 ordering: menu-tng within 5% of idle=poll, the old menu below it,
 * and menu-tng's energy far below poll's (which spins every idle CPU at C0 power).
 */
#include "helpers.h"
#include "experiment/repro.h"

#include "json_helpers.h"

static void test_repro_fio(void **state)
{
	struct sl_repro_opts o;
	char *buf = NULL, err[1024];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	memset(&o, 0, sizeof(o));
	o.disks[o.ndisks++] = 1;
	o.disks[o.ndisks++] = 2;
	o.governors[o.ngovernors++] = "poll";
	o.governors[o.ngovernors++] = "menu-2.6.31";
	o.governors[o.ngovernors++] = "menu-tng";
	o.duration = "1s";
	o.json = true;
	/* the exit-latency mechanism alone (the 2.6.31 defaults add acpi_idle's bus-master
	 * check and per-controller interrupts: tests/cli.sh, test_acpi_idle.c) */
	o.idle_driver = "intel_idle";
	o.irq_affinity = "issuer";
	assert_non_null(f);
	assert_int_equal(sl_repro_fio(&o, f, err, sizeof(err)), 0);
	fclose(f);
	json_object *root = json_tokener_parse(buf), *runs = get(root, "runs");

	assert_non_null(root);
	assert_int_equal(json_object_array_length(runs), 6);
	for (int d = 0; d < 2; d++) {
		json_object *poll = json_object_array_get_idx(runs, (size_t)d * 3);
		json_object *old = json_object_array_get_idx(runs, (size_t)d * 3 + 1);
		json_object *tng = json_object_array_get_idx(runs, (size_t)d * 3 + 2);
		double rt = json_object_get_double(get(tng, "ratio_to_poll"));
		double ro = json_object_get_double(get(old, "ratio_to_poll"));

		assert_string_equal(json_object_get_string(get(tng, "governor")), "menu-tng");
		assert_true(rt >= 0.95);
		assert_true(ro < rt);
		assert_true(json_object_get_double(get(tng, "energy_j")) <
			    json_object_get_double(get(poll, "energy_j")));
		/* poll's own bandwidth: ~107 MB/s per disk, the calibration */
		double mb = json_object_get_double(get(poll, "bw_mb_s"));

		assert_true(mb > 106.0 * (d + 1) && mb < 108.0 * (d + 1));
	}
	json_object_put(root);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repro_fio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
