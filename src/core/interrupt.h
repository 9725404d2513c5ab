/*
 * SIGINT and SIGTERM for the commands that are not a sweep (the sweep has its own: it finishes
 * the runs in flight). With sl_interrupt_install(true) the first signal only sets sl_interrupted;
 * the simulation loop checks it after every event, so a run stops within microseconds of
 * simulated work, and the caller removes its temporaries, says what was kept and exits 130. A
 * second signal, or the first with graceful false, removes the open temporaries
 * (sl_outfile_cleanup) and exits 130 at once.
 */
#ifndef SCHEDLAB_INTERRUPT_H
#define SCHEDLAB_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

/* The signal number received, 0 if none. A signal handler can only talk through a global. */
extern volatile sig_atomic_t sl_interrupted;

void sl_interrupt_install(bool graceful);

#endif
