/*
 * The CPU time of each thread of a process, for the two stages of a compressed trace read
 * (docs/performance.md, "The parser's round"): loaded with LD_PRELOAD, it appends to the file
 * named by THREAD_CPU_OUT one line per thread at its end, "thread NS" for a thread started by
 * pthread_create (the decoder) and "main NS" for the main thread (the parser, with the
 * process's start and report) at exit, NS its CPU clock (CLOCK_THREAD_CPUTIME_ID, the
 * scheduler's own accounting, not a sample). A process whose other threads use no CPU thus
 * shows each stage alone, which a whole-process figure cannot.
 *   cc -O2 -shared -fPIC -o /tmp/thread_cpu.so tools/thread_cpu.c -ldl
 *   THREAD_CPU_OUT=/tmp/t LD_PRELOAD=/tmp/thread_cpu.so schedlab trace-stats T.xz >/dev/null
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long thread_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return -1;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void report(const char *who)
{
	const char *path = getenv("THREAD_CPU_OUT");
	long long ns = thread_ns();
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "%s %lld\n", who, ns);
	fclose(f);
}

struct start {
	void *(*fn)(void *);
	void *arg;
};

static void *run(void *p)
{
	struct start s = *(struct start *)p;
	void *ret;

	free(p);
	ret = s.fn(s.arg);
	report("thread");
	return ret;
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	struct start *s = malloc(sizeof(*s));
	void *sym = dlsym(RTLD_NEXT, "pthread_create");

	if (!s || !sym) {
		free(s);
		return EAGAIN; /* as a failed pthread_create: the caller's own fallback */
	}
	*(void **)&real = sym;
	s->fn = fn;
	s->arg = arg;
	return real(t, attr, run, s);
}

__attribute__((destructor)) static void at_exit_main(void)
{
	report("main");
}
