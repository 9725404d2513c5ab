/*
 * What the tests of the I/O and idle path share (test_blockdev.c, test_acpi_idle.c,
 * test_fio_machine.c): the default disk's service of a 128 KiB request, 10000 + 131072 * 1000 /
 * 110 = 1201563 ns (110 MB/s and a 10 us command), the completion handler's 10 us, and two
 * governors of a fixed choice, so that a wake-up's cost is one known state's exit.
 */
#ifndef SCHEDLAB_TEST_IO_FIXTURE_H
#define SCHEDLAB_TEST_IO_FIXTURE_H

#include "cpuidle/cpuidle.h"

#define SERVICE 1201563ULL
#define IRQ	10000ULL

/* the deepest state (the old menu's choice for this I/O) */
static inline int deepest(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)dev;
	return drv->state_count - 1;
}

static const struct sl_cpuidle_governor deepest_gov = {.name = "deepest", .select = deepest};

/* the second deepest: C3 on the intel_idle nehalem table */
static inline int second(struct sl_cpuidle_dev *dev, const struct sl_cpuidle_driver *drv)
{
	(void)dev;
	return drv->state_count - 2;
}

static const struct sl_cpuidle_governor second_gov = {.name = "second", .select = second};

#endif
