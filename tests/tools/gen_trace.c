/*
 * Writes a valid ftrace text trace of about BYTES bytes to stdout, for the bounded-memory test
 * (tests/bigtrace.sh): sched_wakeup, sched_switch, cpu_idle and block_rq_issue/complete on 8
 * CPUs, timestamps rising by 1 us a line. PIDS distinct pids are used in turn (the test's second
 * case takes the kernel's 4194304: the readers' pid tables at their largest). Deterministic.
 * Usage: gen_trace BYTES PIDS
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	unsigned long long want = strtoull(argv[1], NULL, 10), done = 0, i = 0;
	unsigned long npids = strtoul(argv[2], NULL, 10);
	static char buf[1 << 16];

	if (!npids)
		return 2;
	setvbuf(stdout, buf, _IOFBF, sizeof(buf));
	done += (unsigned long long)printf("# tracer: nop\n#\n# entries-in-buffer/entries-written: "
					   "0/0   #P:8\n#\n");
	while (done < want) {
		/* a multiplicative hash: the largest pids show up from the start */
		unsigned long pid = 1 + (unsigned long)(i * 2654435761ULL % npids);
		unsigned long prev = 1 + (unsigned long)((i + 1) * 2654435761ULL % npids);
		unsigned cpu = (unsigned)(i % 8);
		unsigned long long us = 1000000ULL + i * 8;
		int n = printf(
			"          task-%lu    [%03u] d..2.  %llu.%06llu: sched_wakeup: comm=task "
			"pid=%lu prio=120 target_cpu=%03u\n"
			"          task-%lu    [%03u] d..2.  %llu.%06llu: sched_switch: "
			"prev_comm=task prev_pid=%lu prev_prio=120 prev_state=S ==> "
			"next_comm=task next_pid=%lu next_prio=120\n"
			"          <idle>-0       [%03u] d..1.  %llu.%06llu: cpu_idle: state=1 "
			"cpu_id=%u\n"
			"          <idle>-0       [%03u] d..1.  %llu.%06llu: cpu_idle: "
			"state=4294967295 cpu_id=%u\n"
			"          task-%lu    [%03u] d..1.  %llu.%06llu: block_rq_issue: 8,0 R "
			"4096 () %llu + 8 [task]\n"
			"          <idle>-0       [%03u] d.h1.  %llu.%06llu: block_rq_complete: "
			"8,0 R () %llu + 8 [0]\n",
			prev, cpu, us / 1000000, us % 1000000, pid, cpu, prev, cpu,
			(us + 1) / 1000000, (us + 1) % 1000000, prev, pid, cpu, (us + 2) / 1000000,
			(us + 2) % 1000000, cpu, cpu, (us + 3) / 1000000, (us + 3) % 1000000, cpu,
			pid, cpu, (us + 4) / 1000000, (us + 4) % 1000000, i * 8, cpu,
			(us + 5) / 1000000, (us + 5) % 1000000, i * 8);
		if (n < 0)
			return 1;
		done += (unsigned long long)n;
		i++;
	}
	return fflush(stdout) ? 1 : 0;
}
