/* Basic types: time is u64 nanoseconds everywhere, as the kernel's rq->clock. */
#ifndef SCHEDLAB_TYPES_H
#define SCHEDLAB_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef int32_t s32;

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC  1000000000ULL

/* The kernel's PID_MAX_LIMIT on 64-bit (include/linux/threads.h): no pid is larger. */
#define SL_PID_MAX_LIMIT 4194304

#define SL_ARRAY_SIZE(a)		   (sizeof(a) / sizeof((a)[0]))
#define sl_container_of(ptr, type, member) ((type *)(void *)((char *)(ptr)-offsetof(type, member)))

#endif
