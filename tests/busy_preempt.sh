#!/bin/sh
# tools/busy_preempt.py (the busy vCPU's wake-up preemption, real against model) on a trace
# written by hand (docs/validate.md, "The busy vCPU's wake-up preemption, counted (issue 28,
# step 18)"). Tasks: A (10, prio 125), B (20, 120), C (30, 110), D (40, 125), E (50, 130),
# F (60, 120). CPU 0 runs A, CPU 1 B, both from 1.000000; times in us after 1 s:
#   1  10 A wakes D onto CPU 0 in task context (own: not counted, own 1); A R+ -> D at 12,
#         D sleeps at 20 (A again since 20)
#   2  50 B on CPU 1 wakes C onto CPU 0 (remote; C 110 against A 125: higher; A's run 30 us:
#         <0.1); A R+ -> C at 58: preempted, 8 us. C sleeps at 70 (A since 70)
#   3 300 a waking of D on CPU 0 flagged h, written by A (irq; equal, A's 125 read from
#         its switch-in line; run 230: 0.1-0.7); A
#         sleeps at 400 and D runs: A not left runnable, not preempted
#   4 1200 an hrtimer_expire_entry line on CPU 0 and, at its timestamp, a waking of E with no
#         flag written by D (irq, as the model marks a sleep timer; E 130: lower; run 800:
#         0.7-1.4); D R -> E at 1210: preempted, 10 us
#   5 3000 a waking of F on CPU 1 flagged h, written by B (rirq: an interrupt on the other CPU;
#         F 120 against E 130: higher); its sched_wakeup on CPU 0 at 3040, flagged h, written by
#         E (the IPI's: TTWU_QUEUE): the wake-up is at 3040 (E's run 1830: 1.4-3); E sleeps at
#         3100 and F runs: not preempted
#   6 7000 B wakes E onto CPU 0 in task context, its sched_wakeup written there at 7030 with h
#         (remote; lower; F's run 3930: >3); F R+ -> E at 7100: preempted, 70 us
#   7 7150 B wakes C (higher; E's run 50: <0.1) and at 7152 D (125 against 130: higher, run 52)
#         onto CPU 0; E R+ -> C at 7160: C's preempted (10 us), D's not (another task won)
#   8 7300 after B slept at 7200 (CPU 1 idle), C wakes B onto CPU 1: idle, not counted
#   9 7400 B, on CPU 1 since 7310, wakes A onto CPU 0 (remote; A 125 against C 110: lower; C's
#         run 240: 0.1-0.7); C R -> A at 8500: preempted late (1100 us: 1 ms or more)
# By hand (per mille preempted, late, median delay us): 8 counted, 5 preempted (625, 125;
# delays 8 10 70 10 1100: 10); who irq 2 (3, 4: 500, 0, 10), remote 5 (2, 6, 7, 7, 9: 800,
# 200; 8 70 10 1100: 40), rirq 1 (5: 0, 0); prio higher 4 (2, 5, 7, 7: 500, 0; 8 10: 9), equal
# 1 (3: 0, 0), lower 3 (4, 6, 9: 1000, 333; 10 70 1100: 70); run <0.1 3 (2, 7, 7: 667, 0; 9),
# 0.1-0.7 2 (3, 9: 500, 500, 1100), 0.7-1.4 1 (1000, 0, 10), 1.4-3 1 (0, 0), >3 1 (1000, 0,
# 70). --threads with f.json beside the trace naming A-E (F foreign): 5 and 6 left out, 6
# counted, 4 preempted (667, 167; 8 10 10 1100: 10). Each rule stubbed
# moves these: the own exclusion (8 counted), the h flag (3 own, 5 remote), the entry mark (4
# own), the sched_wakeup's CPU read as the waker's (5, 6 irq), the run from the switch-in, the
# preemption's R state (3 preempted) and its wakee (7's D preempted), X's prio from its
# switch-in (3 lower), the late cut (9 not late), --threads' wakee or runner (5 or 6 kept).
# --model: the same trace twice: the same figures per trace, diff 0. Errors (exit 2): a missing
# file, a directory without its trace, a third CPU, no wake-up counted, a cut .xz, a bad option.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
wl() { # CPU TIME COMM PID FLAGS EVENT WAKEE WPID PRIO TARGET: a sched_waking or sched_wakeup line
	printf '%16s-%-7s [00%s] %s     1.00%s: %s: comm=%s pid=%s prio=%s target_cpu=00%s\n' \
		"$3" "$4" "$1" "$5" "$2" "$6" "$7" "$8" "$9" "${10}"
}
sp() { # CPU TIME PREV PPID PPRIO STATE NEXT NPID NPRIO: a switch with its prios
	printf '%16s-%-7s [00%s] d..2.     1.00%s: sched_switch: prev_comm=%s prev_pid=%s prev_prio=%s prev_state=%s ==> next_comm=%s next_pid=%s next_prio=%s\n' \
		"$3" "$4" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9"
}
{
	printf '# tracer: nop\n#\n'
	sp 0 0000 swapper/0 0 120 R A 10 125
	sp 1 0000 swapper/1 0 120 R B 20 120
	wl 0 0010 A 10 d..3. sched_waking D 40 125 0
	wl 0 0011 A 10 d..4. sched_wakeup D 40 125 0
	sp 0 0012 A 10 125 R+ D 40 125
	sp 0 0020 D 40 125 S A 10 125
	wl 1 0050 B 20 d..3. sched_waking C 30 110 0
	wl 1 0050 B 20 d..4. sched_wakeup C 30 110 0
	sp 0 0058 A 10 125 R+ C 30 110
	sp 0 0070 C 30 110 S A 10 125
	wl 0 0300 A 10 d.h2. sched_waking D 40 125 0
	wl 0 0301 A 10 d.h3. sched_wakeup D 40 125 0
	sp 0 0400 A 10 125 S D 40 125
	printf '%16s-%-7s [000] d.h1.     1.001200: hrtimer_expire_entry: hrtimer=000000000000000a function=hrtimer_wakeup now=1001200000\n' D 40
	wl 0 1200 D 40 d..3. sched_waking E 50 130 0
	wl 0 1200 D 40 d..4. sched_wakeup E 50 130 0
	sp 0 1210 D 40 125 R E 50 130
	wl 1 3000 B 20 d.h2. sched_waking F 60 120 0
	wl 0 3040 E 50 d.h3. sched_wakeup F 60 120 0
	sp 0 3100 E 50 130 S F 60 120
	wl 1 7000 B 20 d..3. sched_waking E 50 130 0
	wl 0 7030 F 60 d.h3. sched_wakeup E 50 130 0
	sp 0 7100 F 60 120 R+ E 50 130
	wl 1 7150 B 20 d..3. sched_waking C 30 110 0
	wl 1 7150 B 20 d..4. sched_wakeup C 30 110 0
	wl 1 7152 B 20 d..3. sched_waking D 40 125 0
	wl 1 7152 B 20 d..4. sched_wakeup D 40 125 0
	sp 0 7160 E 50 130 R+ C 30 110
	sp 1 7200 B 20 120 S swapper/1 0 120
	wl 0 7300 C 30 d..3. sched_waking B 20 120 1
	wl 0 7300 C 30 d..4. sched_wakeup B 20 120 1
	sp 1 7310 swapper/1 0 120 R B 20 120
	wl 1 7400 B 20 d..3. sched_waking A 10 125 0
	wl 1 7400 B 20 d..4. sched_wakeup A 10 125 0
	sp 0 8500 C 30 110 R A 10 125
} >"$T/real.trace"

# row OUT CLASS N PRE LATE DELAY: the table's row CLASS (as "who irq") reads N a trace, PRE and
# LATE per mille, DELAY us
row() {
	line=$(grep -E "^$2 +[0-9]" "$1") || fail "no row '$2'"
	set -- $line "$3" "$4" "$5" "$6"
	shift $(($# - 8))
	[ "$1 $2 $3 $4" = "$5 $6 $7 $8" ] || fail "row: '$line', expected $5 $6 $7 $8"
}
"$PY" "$TOOLPY" "$T/real.trace" >"$T/out" || fail "exit $?"
grep -q 'own (not counted): 1.0 per trace' "$T/out" || fail "own: $(cat "$T/out")"
row "$T/out" all 8.0 625 125 10.0
row "$T/out" "who irq" 2.0 500 0 10.0
row "$T/out" "who remote" 5.0 800 200 40.0
row "$T/out" "who rirq" 1.0 0 0 -
row "$T/out" "prio higher" 4.0 500 0 9.0
row "$T/out" "prio equal" 1.0 0 0 -
row "$T/out" "prio lower" 3.0 1000 333 70.0
row "$T/out" "run <0.1" 3.0 667 0 9.0
row "$T/out" "run 0.1-0.7" 2.0 500 500 1100.0
row "$T/out" "run 0.7-1.4" 1.0 1000 0 10.0
row "$T/out" "run 1.4-3" 1.0 0 0 -
row "$T/out" "run >3" 1.0 1000 0 70.0
# err WANT ARG...: the tool on ARGs exits 2 and says WANT on stderr
err() {
	want=$1
	shift
	rc=0
	"$PY" "$TOOLPY" "$@" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] && grep -q -e "$want" "$T/err" || fail "$*: exit $rc ($(cat "$T/err"))"
}
err 'expected one rt-app' --threads "$T/real.trace"
printf '{ "tasks" : { "A" : {}, "B" : {}, "C" : {}, "D" : {}, "E" : {} } }\n' >"$T/f.json"
"$PY" "$TOOLPY" --threads "$T/real.trace" >"$T/out" || fail "--threads: exit $?"
row "$T/out" all 6.0 667 167 10.0
row "$T/out" "who rirq" 0.0 - - -
rm "$T/f.json"

"$PY" "$TOOLPY" --json --cells "$T/real.trace" --model "$T/real.trace" "$T/real.trace" \
	>"$T/out" || fail "--json: exit $?"
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["real_traces"] == 1 and r["model_traces"] == 2 and r["own"] == {"real": 1, "model": 2}
rows = {(x["dim"], x["cls"]): x for x in r["rows"]}
a = rows[("all", "")]
assert (a["real_count"], a["model_count"], a["model_n"], a["model_preempted"]) == (8, 16, 8.0, 625)
assert (a["real_late"], a["model_late"]) == (125, 125)
c = rows[("cell", "remote higher <0.1")]
assert (c["real_count"], c["real_preempted"], c["real_delay"]) == (3, 667, 9.0), c
assert rows[("cell", "irq lower 0.7-1.4")]["real_count"] == 1
assert rows[("cell", "rirq higher 1.4-3")]["real_count"] == 1
assert rows[("cell", "remote lower >3")]["real_delay"] == 70.0
assert sum(x["real_count"] for x in r["rows"] if x["dim"] == "cell") == 8
' "$T/out" || fail "--json: $(cat "$T/out")"
"$PY" "$TOOLPY" "$T/real.trace" --model "$T/real.trace" >"$T/out" || fail "--model: exit $?"
grep -Eq '^all +8\.0 +625 +125 +10\.0 +8\.0 +625 +125 +10\.0 +\+0\.0' "$T/out" || fail "--model: $(cat "$T/out")"

tool_error "$T/missing.trace" missing.trace
mkdir "$T/dir"
tool_error "$T/dir" 'without real.trace'
sed 's/\[001\]/[002]/' "$T/real.trace" >"$T/three.trace"
tool_error "$T/three.trace" '2-CPU'
grep -v 'sched_wakeup:' "$T/real.trace" >"$T/none.trace"
tool_error "$T/none.trace" 'no wake-up'
err 'unknown option' --bad "$T/real.trace"
err 'Usage' "$T/real.trace" --model
tool_cut_xz "$T/real.trace"
echo "busy_preempt.sh: ok"
