/*
 * Whole reads and writes on a file descriptor: the pipes between a sweep and its workers, the
 * --out file. A pipe returns short counts, and a signal the program catches without SA_RESTART
 * interrupts a blocked call with EINTR: both are carried on, so that only the end of the input
 * or a real error stops a transfer.
 */
#ifndef SCHEDLAB_FDIO_H
#define SCHEDLAB_FDIO_H

#include <stddef.h>

/* n bytes from fd: 0, or -1 at the end of the input or on an error (errno set by read) */
int sl_read_all(int fd, void *p, size_t n);
/* n bytes to fd: 0, or -1 on an error */
int sl_write_all(int fd, const void *p, size_t n);

#endif
