/*
 * The trace.dat reader's pipe from its libtracecmd child (src/trace/trace_dat.c) under signals.
 * A program that reads a trace.dat may catch a signal without SA_RESTART (libFuzzer's timeout
 * alarm does, every second): a read of the pipe it interrupts must be retried, not taken for the
 * child's death ("libtracecmd crashed"), and never leave the reader waiting on a child that is
 * still writing. The file is the seed corpus's trace.dat: 276 events (tests/trace_dat.sh counts
 * them against trace-cmd's report).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "trace/format.h"
#include "trace/registry.h"

#define DAT SL_SOURCE_DIR "/fuzz/corpus/trace_dat/sleep-instance.dat"

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* SIGALRM every 20 us, caught without SA_RESTART: a blocked read returns EINTR. */
static void alarm_every_20us(bool on)
{
	struct itimerval it;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_alarm : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	memset(&it, 0, sizeof(it));
	if (on) {
		it.it_interval.tv_usec = 20;
		it.it_value.tv_usec = 20;
	}
	/* the handler before the first alarm, the timer off before the default comes back */
	if (on)
		assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &it, NULL), 0);
	if (!on)
		assert_int_equal(sigaction(SIGALRM, &sa, NULL), 0);
}

static void test_signals_do_not_end_the_read(void **state)
{
	char err[512];

	(void)state;
#ifndef SCHEDLAB_HAVE_LIBTRACECMD
	skip();
#endif
	alarms = 0;
	alarm_every_20us(true);
	/* several times: each open forks a child, and the parent blocks on the pipe while the
	 * child opens the file, which is where an alarm lands */
	for (int i = 0; i < 20; i++) {
		struct sl_trace_reader r;
		struct sl_trace_record rec;
		unsigned long n = 0;
		int rc;

		err[0] = '\0';
		rc = sl_trace_open(&r, sl_trace_reader_by_name("trace-dat"), DAT, false, err,
				   sizeof(err));
		if (rc)
			fail_msg("open, round %d: %s", i, err);
		while ((rc = sl_trace_next(&r, &rec)) == 1)
			n++;
		if (rc)
			fail_msg("read, round %d, after %lu records: %s", i, n, r.err);
		assert_int_equal(r.lines, 276);
		sl_trace_close(&r);
	}
	alarm_every_20us(false);
	assert_true(alarms > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_do_not_end_the_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
