#!/bin/sh
# tools/loop_other.py on a recording written by hand (directory video-x, log_basename x):
# thread a (pid 101, one run of 100 us a row), thread b (pid 102, two runs of 100 us a row:
# c_duration 200), a task bg (pid 200) keeping the other CPU busy, cc (300) preempting a. Each
# row's end is its thread's sleep (log clock = trace clock). Made so that eff = 10 ns x loops +
# 5 ns x loops x idle + 2000 ns x runs + 3000 ns x wakes + 4000 ns x resumes exactly (idle: the
# other CPU's idle share of the thread's CPU time; wakes: its own sched_waking lines; resumes:
# its switch-ins beyond one a run):
#   A1 1000 loops, CPU 1 idle all along: 10000 + 5000 + 2000 = 17 us (10.000100-117)
#   A2 2000 loops, bg on CPU 1 all along, preempted by cc 10 us (a resume): 20000 + 2000 + 4000
#      = 26 us (10.001000-010, 020-036); an interrupt's waking line (not a's own) at 10.001005
#   A3, A4 1000 loops, bg on CPU 1: 12 us each
#   B1 1000 loops on CPU 1, bg on CPU 0 9.6 us of its 16 (idle 0.4): 10000 + 2000 + 4000 = 16 us
#   B2 3000 loops on CPU 1, bg on CPU 0 all along, one waking line of b's own: 30000 + 4000 +
#      3000 = 37 us
# So the fit is exact: a 10.000, d +5.000, c 2000, w 3000, s 4000, standard errors 0; the file's
# loops 9000, runs 8 (1125 a run), 1 wake-up (111.1 per million loops), idle (1000 x 1 + 1000 x
# 0.4) / 9000 = 0.156, CPU 120 us: 13.333 ns a loop, predicted the same (resid 0). All rows
# have under 3000 loops a run: one cell, so within's fit is the same: d 5 over a 10, +500 per
# mille, sib_idle_rate = 1000 / 1.5 = 667. The logged runs (us) over loops: A1 17, A2 18 (36 us
# logged), A3 12, A4 14 (14 us logged), B1 16, B2 12.333 ns; their lower quartile (the 2nd of 6)
# 12.333; divided by 1 + 0.5 x idle (A1 17 / 1.5 = 11.333, B1 16 / 1.2 = 13.333): 11.333, 12,
# 12.333, 13.333, 14, 18: 12.000, rtapp_kloop=12000ns.
# --quiet-only leaves A2 out (an interrupt's line, a preemption): the other five rows fit
# exactly too (no resume left: s 0).
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
D="$T/video-x"
mkdir "$D"
cat >"$D/x.json" <<'J'
{ "tasks" : { "a" : { "run" : 100, "sleep" : 900 },
              "b" : { "run0" : 100, "sleep" : 10, "run1" : 100 } },
  "global" : { "log_basename" : "x" } }
J
H='#idx perf run period start end rel_st slack c_duration c_period wu_lat'
{
	echo "$H"
	echo "0 1000 17 1000 10000100 10000117 0 0 100 0 0"
	echo "0 2000 36 1000 10001000 10001036 0 0 100 0 0"
	echo "0 1000 12 1000 10002000 10002012 0 0 100 0 0"
	echo "0 1000 14 1000 10005000 10005012 0 0 100 0 0"
} >"$D/x-a-0.log"
{
	echo "$H"
	echo "0 1000 16 1000 10003000 10003016 0 0 200 0 0"
	echo "0 3000 37 1000 10004000 10004037 0 0 200 0 0"
} >"$D/x-b-1.log"
{
	echo "# tracer: nop"
	sw 0 10.000100000 swapper/0 0 R a 101
	sw 0 10.000117000 a 101 S swapper/0 0
	sw 1 10.000990000 swapper/1 0 R bg 200
	sw 0 10.001000000 swapper/0 0 R a 101
	echo "  a-101 [000] d.h2. 10.001005000: sched_waking: comm=bg pid=200 prio=120 target_cpu=001"
	sw 0 10.001010000 a 101 R cc 300
	sw 0 10.001020000 cc 300 S a 101
	sw 0 10.001036000 a 101 S swapper/0 0
	sw 1 10.001040000 bg 200 S swapper/1 0
	sw 1 10.001990000 swapper/1 0 R bg 200
	sw 0 10.002000000 swapper/0 0 R a 101
	sw 0 10.002012000 a 101 S swapper/0 0
	sw 1 10.002020000 bg 200 S swapper/1 0
	sw 0 10.002990000 swapper/0 0 R bg 200
	sw 1 10.003000000 swapper/1 0 R b 102
	sw 0 10.003009600 bg 200 S swapper/0 0
	sw 1 10.003016000 b 102 S swapper/1 0
	sw 0 10.003990000 swapper/0 0 R bg 200
	sw 1 10.004000000 swapper/1 0 R b 102
	echo "  b-102 [001] d..2. 10.004010000: sched_waking: comm=bg pid=200 prio=120 target_cpu=000"
	sw 1 10.004037000 b 102 S swapper/1 0
	sw 0 10.004040000 bg 200 S swapper/0 0
	sw 1 10.004990000 swapper/1 0 R bg 200
	sw 0 10.005000000 swapper/0 0 R a 101
	sw 0 10.005012000 a 101 S swapper/0 0
	sw 1 10.005020000 bg 200 S swapper/1 0
} >"$D/real.trace"
"$PY" "$TOOLPY" "$D" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has() { grep -q -e "$1" "$T/out" || fail "no '$1' in: $(cat "$T/out")"; }
has "^video-x  *6  *0  *0.156  *1125  *111.1  *13.333  *13.333  *+0.0  *+0.0  10.000(0.000) +5.000(0.000) 2000(0) 3000(0) 4000(0)$"
has "^pooled (6 rows): a 10.000 ns a loop (se 0.000), d +5.000 (se 0.000), c 2000 ns a run (se 0), w 3000 ns a wake-up (se 0), s 4000 ns a resume (se 0)$"
has "^within (1 cells): d +5.000 (se 0.000) over a 10.000: +500.0 per mille; c 2000 ns a run (se 0), w 3000 (se 0), s 4000 (se 0)$"
has "^classes (1, the same in every file): d +5.000 (se 0.000) over a 10.000; c 2000 ns a run (se 0), w 3000 (se 0), s 4000 (se 0)$"
has "^  a by loops a run: 0+ 10.000$"
has "^quiet loop (lower quartiles' median, 1 directories): 12.333 ns; with the other vCPU busy: 12.000$"
has "^param rtapp_kloop=12000ns$"
has "^param sib_idle_rate=667$"
"$PY" "$TOOLPY" --quiet-only "$D" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has "^video-x  *5  *1 "
has "^pooled (5 rows): a 10.000 ns a loop (se 0.000), d +5.000 (se 0.000), c 2000 ns a run (se 0), w 3000 ns a wake-up (se 0), s 0 ns a resume (se 0)$"
has "^param sib_idle_rate=667$"
# --resumes on a second recording (video-y, log_basename y): thread a (pid 101, one run of
# 100 us a row) with the other CPU busy all along (bg, pid 200, on CPU 1; cc 300 and dd 301
# preempt a), made so that eff = 10 ns x loops + 2000 ns x runs + 4000, 6000, 8000 ns x its
# preemptions resumed whose preempter was queued (no sched_waking of it within 300 us), woken
# by an interrupt on a's CPU, woken from the other CPU:
#   P1 1000 loops, no preemption: 12 us (20.000100-112); P2 2500 loops: 27 us (200-227)
#   Q1 1000 loops, cc queued, a back on CPU 0 10 us later: 16 us (300-308, 318-326)
#   I1 2000 loops, dd woken by an interrupt on CPU 0 at 398, switched in at 410 (gap 12 us),
#      a back at 430 (off 20 us): 28 us (400-410, 430-448)
#   M1 1000 loops, cc woken by bg on CPU 1 at 485, switched in at 505 (gap 20), a back at 555
#      (off 50): 20 us (500-505, 555-570)
#   V1 1000 loops, cc queued at 606, a back on CPU 1 at 610 (off 4, moved), cc on CPU 0: 16 us
# One cell (all under 3000 loops a run) and one phase: both fits exact, s by cause queued 4000
# (Q1, V1: 2 resumes, gap 0, off (10 + 4) / 2 = 7 us), irq 6000 (gap 12, off 20), remote 8000
# (gap 20, off 50); no block (switch-ins beyond the runs and the resumes), no own. The other
# splits' classes by hand: cpu same 3 (gap 32 / 3 = 10.7, off 80 / 3 = 27), moved 1 (V1);
# off: all 4 under 0.1 ms (gap 8.0, off 21); ran: else 3 (cc, dd: not a's logs), moved 1;
# queued on the same CPU by what ran: else 1 (Q1: gap 0, off 10), x 3 (gap 10.7, off 74 / 3 =
# 25).
#   X1 (left out as run_stretch.py leaves rows out, not in `left`: 6 rows): 1000 loops at
#      800-830, preempted by cc at 805, the switch back to a lost (the next line switches a
#      out asleep where cc ran): a's time on the CPU since is
#      not known, so the row is left out (kept, its 5 us would break the exact fit)
Y="$T/video-y"
mkdir "$Y"
echo '{ "tasks" : { "a" : { "run" : 100, "sleep" : 900 } }, "global" : { "log_basename" : "y" } }' >"$Y/y.json"
{
	echo "$H"
	echo "0 1000 12 1000 20000100 20000112 0 0 100 0 0"
	echo "0 2500 27 1000 20000200 20000227 0 0 100 0 0"
	echo "0 1000 26 1000 20000300 20000326 0 0 100 0 0"
	echo "0 2000 48 1000 20000400 20000448 0 0 100 0 0"
	echo "0 1000 70 1000 20000500 20000570 0 0 100 0 0"
	echo "0 1000 20 1000 20000600 20000620 0 0 100 0 0"
	echo "0 1000 30 1000 20000800 20000830 0 0 100 0 0"
} >"$Y/y-a-0.log"
{
	echo "# tracer: nop"
	sw 1 19.999990000 swapper/1 0 R bg 200
	sw 0 20.000100000 swapper/0 0 R a 101
	sw 0 20.000112000 a 101 S swapper/0 0
	sw 0 20.000200000 swapper/0 0 R a 101
	sw 0 20.000227000 a 101 S swapper/0 0
	sw 0 20.000300000 swapper/0 0 R a 101
	sw 0 20.000308000 a 101 R cc 300
	sw 0 20.000318000 cc 300 S a 101
	sw 0 20.000326000 a 101 S swapper/0 0
	sw 0 20.000400000 swapper/0 0 R a 101
	echo "  a-101 [000] d.h2. 20.000398000: sched_waking: comm=dd pid=301 prio=120 target_cpu=000"
	sw 0 20.000410000 a 101 R dd 301
	sw 0 20.000430000 dd 301 S a 101
	sw 0 20.000448000 a 101 S swapper/0 0
	sw 0 20.000500000 swapper/0 0 R a 101
	echo "  bg-200 [001] d..2. 20.000485000: sched_waking: comm=cc pid=300 prio=120 target_cpu=000"
	sw 0 20.000505000 a 101 R cc 300
	sw 0 20.000555000 cc 300 S a 101
	sw 0 20.000570000 a 101 S swapper/0 0
	sw 0 20.000600000 swapper/0 0 R a 101
	sw 0 20.000606000 a 101 R cc 300
	sw 1 20.000610000 bg 200 R a 101
	sw 1 20.000620000 a 101 S bg 200
	sw 0 20.000700000 cc 300 S swapper/0 0
	sw 0 20.000800000 swapper/0 0 R a 101
	sw 0 20.000805000 a 101 R cc 300
	sw 0 20.000830000 a 101 S swapper/0 0
} | sort -s -k4,4 >"$Y/real.trace"
"$PY" "$TOOLPY" --resumes "$Y" >"$T/out" || fail "exit $?: $(cat "$T/out")"
has "^video-y  *6  *0 "
for fit in within phases; do
	has "^resumes by cause ($fit): queued 2 (gap 0.0 us, off 7 us) 4000 ns (se 0); irq 1 (gap 12.0 us, off 20 us) 6000 ns (se 0); remote 1 (gap 20.0 us, off 50 us) 8000 ns (se 0); blocks 0 0 ns (se 0)$"
	has "^resumes by cpu ($fit): same 3 (gap 10.7 us, off 27 us) [-0-9]* ns (se [0-9]*); moved 1 (gap 0.0 us, off 4 us) "
	has "^resumes by off ($fit): <0.1ms 4 (gap 8.0 us, off 21 us) [-0-9]* ns (se [0-9]*); blocks 0 "
	has "^resumes by ran ($fit): else 3 (gap 10.7 us, off 27 us) [-0-9]* ns (se [0-9]*); moved 1 (gap 0.0 us, off 4 us) "
	has "^resumes by queued, same CPU: ran ($fit): else 1 (gap 0.0 us, off 10 us) [-0-9]* ns (se [0-9]*); x 3 (gap 10.7 us, off 25 us) "
done
# fewer rows than the fit's parameters and one (A1, A4, B1 left: loops, idle, runs): refused
sed -i '3,4d' "$D/x-a-0.log"
sed -i '3d' "$D/x-b-1.log"
tool_error "$D" "too few rows"
rm "$D/x.json"
tool_error "$D" "expected one rt-app JSON"
echo ok
