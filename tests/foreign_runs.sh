#!/bin/sh
# tools/foreign_runs.py on a trace written by hand, kept as the recordings keep theirs (cpu_idle
# and the lines naming the file's threads; docs/validate.md, "The background's shape (issue 28,
# step 16)"). The file is thread0 (pid 10), its window 1 ms (first switch-in) to 21 ms (last
# switch-out): 20 ms. CPU 0: thread0 runs 1-3 ms, is preempted by bash (R+) until 3.2 ms (a
# preempt run of 200 us), runs to 5 ms and sleeps with kworker/0:1 in (after), which goes idle
# at 5.05 ms (no switch kept: its run ends at the cpu_idle entry, 50 us); idle to 8 ms, out for
# 30 us with need_resched (a foreign task ran, its switches not kept: idle class, 30 us), idle
# 8.03-12 ms, out for 2 us without (irq, 2 us), idle 12.002-15 ms, out at 15 ms and a foreign
# task (pid 40) switches to thread0 at 15.5 ms (idle class, 500 us); thread0 runs 15.5-21 ms.
# CPU 0: busy 2 + 1.8 + 5.5 = 9.3 ms, idle 2.95 + 3.97 + 2.998 = 9.918 ms. CPU 1: thread0 is
# never there; idle all the window (one period from 0.5 ms to 21.5 ms, 20 ms inside). Pooled:
# preempt 1 in 9.3 ms busy = 107.53 a busy s, 200 us; after 1 in 40 ms of window (2 CPUs) =
# 25.00/s, 50 us; idle 2 in 29.918 ms = 66.85 a idle s, median 265 us, mean 265 us; irq 1,
# 33.42 a idle s, 2 us. --long 100: the runs of 100 us or more (not irq): 200, 500: 2 in 40 ms
# = 50/s, mean 350 us. --bins 2: the four runs (not irq) 30, 50, 200, 500 us in 40 ms = 100/s,
# bins [30, 50] and [200, 500]: 40 and 350 us. A model trace (its switch lines unfiltered, no need_resched flag): the
# idle-to-task switch marks the exit as need_resched does. Errors: no file, no JSON, bad --long.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
idle() { # idle CPU TIME STATE FLAGS
	printf '          <idle>-0       [00%s] %s     %s: cpu_idle: state=%s cpu_id=%s\n' "$1" "$4" "$2" "$3" "$1"
}
X=4294967295
mkdir -p "$T/rec" "$T/mod"
printf '{ "tasks" : { "thread0" : { "loop" : -1, "run" : 1000, "sleep" : 1000 } } }\n' >"$T/rec/w.json"
body() { # NFLAG: the 8 ms exit's flags
	idle 1 0.000500 1 d..1.
	sw 0 0.001000 swapper/0 0 R thread0 10
	sw 0 0.003000 thread0 10 R+ bash 30
	sw 0 0.003200 bash 30 S thread0 10
	sw 0 0.005000 thread0 10 S kworker/0:1 20
	idle 0 0.005050 1 d..1.
	idle 0 0.008000 $X "$1"
	idle 0 0.008030 1 d..1.
	idle 0 0.012000 $X d..1.
	idle 0 0.012002 1 d..1.
	idle 0 0.015000 $X dN.1.
	sw 0 0.015500 foo 40 S thread0 10
	sw 0 0.021000 thread0 10 S swapper/0 0
	idle 0 0.021010 1 d..1.
	idle 1 0.021500 $X d..1.
}
{ printf '# tracer: nop\n#\n'; body dN.1.; } >"$T/rec/real.trace"
out() { grep -q -e "$1" "$T/out" || fail "no '$1' in: $(cat "$T/out")"; }
"$PY" "$TOOLPY" --long 100 "$T/rec/real.trace" >"$T/out" 2>&1 || fail "exit $? ($(cat "$T/out"))"
out 'real.trace  *0  *0\.02  *0\.01  *0\.01 | 107\.53  200\.0   200\.0 |  50\.00   50\.0    50\.0 | 201\.65  265\.0   265\.0 |  100\.8$'
out 'real.trace  *1  *0\.02  *0\.00  *0\.02 |'
out '^  preempt  *1  *107\.53 a busy s  median  *200\.0 p90  *200\.0 mean  *200\.0 us'
out '^  after  *1  *25\.00 a win s  median  *50\.0 '
out '^  idle  *2  *66\.85 a idle s  median  *265\.0 p90  *500\.0 mean  *265\.0 us'
out '^  irq  *1  *33\.42 a idle s  median  *2\.0 '
out '^switched in (preempt, after): bash 1, kworker/0:1 1$'
out '^background_long_rate 50$'
out '^background_long_run 350000ns$'
"$PY" "$TOOLPY" --bins 2 "$T/rec/real.trace" >"$T/out" 2>&1 || fail "--bins: exit $?"
out '^background_rate 100$'
out '^background_runs 40000ns,350000ns$'
# the model's form: the idle-to-task switch kept, no need_resched flag
{
	printf '# tracer: nop\n#\n'
	body d..1. | sed '/0\.008000/a\
          <idle>-0       [000] d..2.     0.008001: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker-bg0 next_pid=50 next_prio=120'
} >"$T/mod/sim.trace"
"$PY" "$TOOLPY" --workload "$T/rec/w.json" "$T/mod/sim.trace" >"$T/out" 2>&1 || fail "model: exit $?"
out '^  idle  *2  *66\.85 a idle s  median  *265\.0 '
out '^  irq  *1  *33\.42 a idle s'
{ printf '# tracer: nop\n#\n'; body d..1.; } >"$T/mod/sim.trace"
"$PY" "$TOOLPY" --workload "$T/rec/w.json" "$T/mod/sim.trace" >"$T/out" 2>&1 || fail "no flag: exit $?"
out '^  idle  *1  *33\.42 a idle s  median  *500\.0 '
out '^  irq  *2  *66\.85 a idle s'
# foreign_runs.Near (the other tools' --no-foreign): the foreign runs (not irq) on CPU 0 are
# 3.000-3.200 ms (preempt), 5.000-5.050 (after), 8.000-8.030 and 15.000-15.500 (idle); with a
# margin of 1 ms: [3.0, 4.2), [5.0, 6.05), [8.0, 9.03), [15.0, 16.5) ms; the irq exit at 12 ms
# is none. With 0: [3.0, 3.2) ... With 2 ms, [3.0, 5.2) and [5.0, 7.05) merge: 6.5 ms is in.
near() { # MARGIN_US: the ms times given after it, each "1" (near) or "0"
	m=$1
	shift
	"$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import foreign_runs as f
n = f.Near(sys.argv[2], int(sys.argv[3]) * 1000)
print(" ".join("1" if n(round(float(x) * 1e6)) else "0" for x in sys.argv[4:]))' \
		"$(dirname "$TOOLPY")" "$T/rec/real.trace" "$m" "$@"
}
got=$(near 1000 2.999 3.0 4.199 4.2 5.0 6.049 6.05 7.999 9.029 9.03 12.001 16.499 16.5)
[ "$got" = "0 1 1 0 1 1 0 0 1 0 0 1 0" ] || fail "Near, 1 ms: $got"
got=$(near 0 3.0 3.199 3.2 5.049 5.05 15.499 15.5)
[ "$got" = "1 1 0 1 0 1 0" ] || fail "Near, 0: $got"
got=$(near 2000 2.999 4.5 6.5 7.049 7.05)
[ "$got" = "0 1 1 1 0" ] || fail "Near, 2 ms: $got"
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/rec/real.trace"
cp "$T/rec/real.trace" "$T/mod/x.trace"
rm "$T/mod/sim.trace"
tool_error "$T/mod/x.trace" 'one rt-app \*.json beside it'
rc=0
"$PY" "$TOOLPY" --long 0 "$T/rec/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--long: expected' "$T/err" || fail "--long 0: exit $rc"
rc=0
"$PY" "$TOOLPY" --bins 5 "$T/rec/real.trace" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q -- '--bins 5: only 4 foreign runs' "$T/err" || fail "--bins 5: exit $rc"
echo ok
