/* Zeroed memory from one huge-page span, freed all at once; see arena.h for why. */
#include "core/arena.h"

#include <stdint.h>
#include <sys/mman.h>

static int reserve_span(struct sl_arena *a, size_t reserve)
{
	size_t len = (reserve + SL_ARENA_HUGE - 1) & ~(size_t)(SL_ARENA_HUGE - 1);
	void *m = mmap(NULL, len + SL_ARENA_HUGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	/* the first huge-page boundary in the mapping, by an offset from it */
	size_t off = (SL_ARENA_HUGE - ((uintptr_t)m & (SL_ARENA_HUGE - 1))) & (SL_ARENA_HUGE - 1);
	char *al = (char *)m + off;

	/* only a hint: refused (no THP in this kernel), the span is ordinary memory */
	(void)madvise(al, len, MADV_HUGEPAGE);
	a->map = m;
	a->maplen = len + SL_ARENA_HUGE;
	a->base = al;
	a->size = len;
	a->used = 0;
	return 0;
}

void *sl_arena_zalloc(struct sl_arena *a, size_t size, size_t reserve)
{
	size = (size + 63) & ~(size_t)63;
	if (!a->map && reserve_span(a, reserve))
		return NULL;
	if (size > a->size - a->used)
		return NULL;
	void *p = a->base + a->used;

	a->used += size;
	return p;
}

void sl_arena_free(struct sl_arena *a)
{
	if (a->map)
		munmap(a->map, a->maplen);
	*a = (struct sl_arena){0};
}
