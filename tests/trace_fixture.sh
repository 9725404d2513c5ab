# The trace lines the tests of tools/*.py write by hand, and the 2-CPU traces some of them
# share; sourced with `. "$(dirname "$0")/trace_fixture.sh"` (after tests/pytool.sh). Each
# function writes to its standard output.

# sw CPU TIME PREV_COMM PREV_PID STATE NEXT_COMM NEXT_PID: CPU's switch from PREV (left in
# STATE) to NEXT, both at prio 120, as ftrace's text prints it
sw() {
	printf '%16s-%-7s [00%s] d..2.     %s: sched_switch: prev_comm=%s prev_pid=%s prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%s next_prio=120\n' \
		"$3" "$4" "$1" "$2" "$3" "$4" "$5" "$6" "$7"
}

# wl CPU TIME COMM PID FLAGS EVENT WAKEE WPID TARGET: a sched_waking or sched_wakeup line, the
# wakee at prio 120, written on CPU by COMM (PID) with the trace's FLAGS column
wl() {
	printf '%16s-%-7s [00%s] %s     %s: %s: comm=%s pid=%s prio=120 target_cpu=00%s\n' \
		"$3" "$4" "$1" "$5" "$2" "$6" "$7" "$8" "$9"
}

# two_cpu_head: X (11), Z (13) and Q (14) each run on both CPUs; then, from 0.9004, CPU 0 runs
# W (10) and CPU 1 Y (12), with X last on CPU 0, Z and Q last on CPU 1
two_cpu_head() {
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R X 11
	sw 1 0.900000 swapper/1 0 R Z 13
	sw 0 0.900100 X 11 S Q 14
	sw 1 0.900100 Z 13 S X 11
	sw 0 0.900200 Q 14 S Z 13
	sw 1 0.900200 X 11 S Q 14
	sw 0 0.900300 Z 13 S X 11
	sw 1 0.900300 Q 14 S Z 13
	sw 0 0.900400 X 11 S W 10
	sw 1 0.900400 Z 13 S Q 14
	sw 1 0.900500 Q 14 S Y 12
}

# newidle_trace: two_cpu_head, then the newidle balance's three moments. Y wakes Z onto CPU 1;
# W blocks and CPU 0 pulls Z (migrated 5 us before the switch W -> Z): a newidle pull. Z
# blocks at 1.0001: CPU 0 idles. Y wakes W onto it at 1.00026 and X onto CPU 1 at 1.0004; W
# blocks at 1.0005 with X waiting on CPU 1; X runs on CPU 1 (Y preempted, R+), CPU 0 stays idle
# until an interrupt wakes W at 1.001. W blocks at 1.0011 with Y waiting on CPU 1, and the idle
# CPU 0 pulls Y 20 us later and runs it.
newidle_trace() {
	two_cpu_head
	cat <<'TR'
               Y-12      [001] d..3.     1.000000: sched_waking: comm=Z pid=13 prio=120 target_cpu=001
               Y-12      [001] d..4.     1.000001: sched_wakeup: comm=Z pid=13 prio=120 target_cpu=001
               W-10      [000] d..4.     1.000005: sched_migrate_task: comm=Z pid=13 prio=120 orig_cpu=1 dest_cpu=0
TR
	sw 0 1.000010 W 10 S Z 13
	sw 0 1.000100 Z 13 S swapper/0 0
	cat <<'TR'
               Y-12      [001] d..3.     1.000260: sched_waking: comm=W pid=10 prio=120 target_cpu=000
               Y-12      [001] d..4.     1.000261: sched_wakeup: comm=W pid=10 prio=120 target_cpu=000
TR
	sw 0 1.000270 swapper/0 0 R W 10
	cat <<'TR'
               Y-12      [001] d..3.     1.000400: sched_waking: comm=X pid=11 prio=120 target_cpu=001
               Y-12      [001] d..4.     1.000401: sched_wakeup: comm=X pid=11 prio=120 target_cpu=001
TR
	sw 0 1.000500 W 10 S swapper/0 0
	sw 1 1.000700 Y 12 R+ X 11
	cat <<'TR'
          <idle>-0       [000] d.h2.     1.000999: sched_waking: comm=W pid=10 prio=120 target_cpu=000
          <idle>-0       [000] dNh2.     1.001000: sched_wakeup: comm=W pid=10 prio=120 target_cpu=000
TR
	sw 0 1.001010 swapper/0 0 R W 10
	sw 0 1.001100 W 10 S swapper/0 0
	cat <<'TR'
          <idle>-0       [000] d..4.     1.001120: sched_migrate_task: comm=Y pid=12 prio=120 orig_cpu=1 dest_cpu=0
TR
	sw 0 1.001125 swapper/0 0 R Y 12
}
