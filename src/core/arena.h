/*
 * Zeroed memory handed out in order from one reserved span that the kernel may back with huge
 * pages, freed all at once: for what a run keeps to its end and makes many of (the tasks of a
 * make with tens of thousands of forks).
 *
 * Why: fresh memory costs a page fault per 4 KB on first touch, and in a guest each fault is
 * dear (the 64-CPU make spent a third of its time faulting in its 58k tasks). The span is
 * madvise'd MADV_HUGEPAGE: one fault per 2 MB where transparent huge pages are enabled
 * (`always` or `madvise`), ordinary memory where they are not. It is reserved whole at the
 * first allocation (address space only: a page is memory once touched) so that consecutive
 * allocations share huge pages; only the last one is partly unused. The kernel's pages are
 * zero, so nothing is cleared again (calloc clears memory it reuses from the heap).
 */
#ifndef SCHEDLAB_ARENA_H
#define SCHEDLAB_ARENA_H

#include <stddef.h>

#define SL_ARENA_HUGE (2UL << 20)

struct sl_arena {
	void *map;     /* the mapping (NULL: none yet) */
	size_t maplen; /* its length */
	char *base;    /* its first huge-page boundary */
	size_t size;   /* usable bytes from base */
	size_t used;
};

/*
 * size zeroed bytes (64-byte aligned) from the span, reserved at the first call with room for
 * `reserve` bytes in all; NULL when the span is full or cannot be mapped.
 */
void *sl_arena_zalloc(struct sl_arena *a, size_t size, size_t reserve);
/* everything handed out, unmapped; a is empty (all zero) again */
void sl_arena_free(struct sl_arena *a);

#endif
