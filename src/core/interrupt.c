#include "core/interrupt.h"
#include "core/outfile.h"

#include <string.h>
#include <unistd.h>

volatile sig_atomic_t sl_interrupted;
static volatile sig_atomic_t graceful_stop;

static void on_signal(int sig)
{
	static const char msg[] = "\nschedlab: interrupted; no output written\n";

	if (graceful_stop && !sl_interrupted) {
		sl_interrupted = sig;
		return;
	}
	sl_outfile_cleanup();
	/* write(2) and _exit(2) are async-signal-safe; stdio is not */
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(130);
	_exit(130);
}

void sl_interrupt_install(bool graceful)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	graceful_stop = graceful;
	sl_interrupted = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
