#!/bin/sh
# schedlab trace-workload and --workload trace: the table and JSON of a small hand-written trace
# (its figures are derived in tests/test_trace_workload.c), the rt-app file -o writes (read back
# by the rt-app workload), a run of the trace workload, and the errors: a malformed line names
# the file and line, with exit status 2 and no rt-app file left behind.
# Usage: sh tests/trace_workload.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data/trace-workload

"$SL" trace-workload "$D/small.trace" >"$T/out" || fail "trace-workload small.trace"
# pid 10: 2 bursts, 2.990 ms of CPU, one timed sleep of 4.001 ms, one wake-up given, one fork
grep -E '^ +10 a +120 +-1 +0.000 +2 +2.990 +1/4.001 ' "$T/out" >/dev/null ||
	fail "task a's row: $(cat "$T/out")"
grep -E '^ +10 a +20 b +1$' "$T/out" >/dev/null || fail "a woke b once: $(cat "$T/out")"
grep -E '^  missed_switch_in +1 ' "$T/out" >/dev/null || fail "missed switch-in count"

"$SL" trace-workload --json "$D/small.trace" >"$T/json" || fail "trace-workload --json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["pid"]: x for x in d["per_task"]}
assert t[20]["io"] == {"n": 1, "ns": 991000, "requests": 1}, t[20]
assert t[30]["parent"] == 10 and t[30]["exited"], t[30]
assert d["dependencies"] == [{"waker": 10, "wakee": 20, "count": 1}], d["dependencies"]
assert d["unattributed"]["blocked_at_end"] == 1
' "$T/json" || fail "trace-workload --json: $(cat "$T/json")"

"$SL" trace-workload "$D/small.trace" -o "$T/small.json" >/dev/null || fail "-o"
grep -F '"c-30": {"instance": 0' "$T/small.json" >/dev/null || fail "forked task c: instance 0"
# (a-10 resumes b-20 at 0, before b-20 suspends there: the resume is lost, as rt-app would lose
# it, and b-20 waits for good once a-10 and c-30 exit at 7.125 ms. Without a duration that is a
# deadlock error (docs/rt-app.md); with one, a warning and the run goes on.)
"$SL" run --workload "rt-app:file=$T/small.json" --duration 20ms >/dev/null 2>"$T/err" ||
	fail "the rt-app file does not run: $(cat "$T/err")"
grep -qF 'b-20-1 (line 5, suspend) waits on condition "b-20"' "$T/err" ||
	fail "the rt-app file: no warning of b-20's lost resume: $(cat "$T/err")"

"$SL" run --workload "trace:file=$D/small.trace" >"$T/run" || fail "run trace:file="
grep -E '^trace +3 ' "$T/run" >/dev/null || fail "3 tasks replayed: $(cat "$T/run")"

# what-if: the sweep takes it like any other workload (4 runs of 2 flags, a row each)
"$SL" sweep --features NEW_FAIR_SLEEPERS,START_DEBIT --kernel 2.6.31 --no-progress \
	--workload "trace:file=$D/small.trace" --out "$T/sw.csv" 2>/dev/null || fail "sweep"
[ "$(grep -c 'trace:file=' "$T/sw.csv")" -eq 4 ] || fail "sweep rows: $(cat "$T/sw.csv")"

# costs counted once (docs/workloads.md): short-bursts.trace, p and q ping-pong on CPU 0 in 1 us
# bursts. Switch-ins: p's first (no CPU before: ctx_switch), q's first (ctx_switch), p's second
# after q ran there (ctx_switch + cache_refill). The model's defaults (2, 10 us): 2 + 2 + 12 =
# 16 us recorded; taken from the bursts that follow each (1 us each), p: 2 - 1 - 1 = 0, then
# 12 - 1 = 11 us beyond; q: 2 - 1 - 1 = 0. At machines/fc-2vcpu's prices (a switch priced at
# its ctx_switch_bare, 0.324 us, refill 0): 3 x 0.324 = 0.972 us, each within its 1 us burst:
# nothing beyond.
cost_check() {
	python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["switch_costs"]
want = (int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
got = (c["recorded_ns"], c["beyond_bursts_ns"], c["tasks_beyond"])
assert got == want and sys.argv[5] in c["prices"], (c, want)
' "$@"
}
"$SL" trace-workload --json "$D/short-bursts.trace" >"$T/sb.json" || fail "short-bursts"
cost_check "$T/sb.json" 16000 11000 1 "the model's defaults" || fail "costs: $(cat "$T/sb.json")"
CAL=$(dirname "$0")/../machines/fc-2vcpu
"$SL" trace-workload --json --calibration "$CAL" "$D/short-bursts.trace" >"$T/sb.json" ||
	fail "short-bursts --calibration"
cost_check "$T/sb.json" 972 0 0 "fc-2vcpu/machine.conf" ||
	fail "costs at fc-2vcpu's prices: $(cat "$T/sb.json")"
"$SL" trace-workload "$D/short-bursts.trace" >"$T/sb.out" || fail "table"
grep -F 'beyond the bursts of 1 task (' "$T/sb.out" >/dev/null ||
	fail "the table's switch costs line: $(cat "$T/sb.out")"
# beside the trace (as record --calibration writes it), the run takes them without a warning
cp "$D/short-bursts.trace" "$T/sb.trace"
cp "$CAL/machine.conf" "$T/sb.trace.machine.conf"
# and, without --kernel and --cpus, runs as the machine it describes (6.18.44: the model 6.18;
# 2 CPUs; its cpuidle_driver none: a guest that halts, vm-hlt) and says so; with all three
# given, as given and without a word
"$SL" run --workload "trace:file=$T/sb.trace" >"$T/out" 2>"$T/err" || fail "run beside"
! grep -q warning "$T/err" || fail "a calibration beside the trace: $(cat "$T/err")"
grep -qF "sb.trace.machine.conf: recorded on Linux 6.18.44-fc-v1252 with 2 CPUs: replayed with --kernel 6.18 --cpus 2 --machine vm-hlt" "$T/err" ||
	fail "the recorded machine's note: $(cat "$T/err")"
head -1 "$T/out" | grep -qF 'kernel 6.18, 2 CPUs' || fail "run beside: $(head -1 "$T/out")"
grep -q 'cpuidle: driver vm-hlt' "$T/out" || fail "run beside: the recorded idle: $(grep cpuidle "$T/out")"
"$SL" run --kernel 6.18 --cpus 2 --machine vm-hlt --cpuidle-disable POLL \
	--workload "trace:file=$T/sb.trace" >"$T/out2" 2>"$T/err" ||
	fail "run beside, --kernel"
[ ! -s "$T/err" ] || fail "run beside with --kernel, --cpus and --machine: $(cat "$T/err")"
cmp -s "$T/out" "$T/out2" || fail "run beside: not the run of --kernel 6.18 --cpus 2"
"$SL" run --kernel 2.6.31 --workload "trace:file=$T/sb.trace" >"$T/out" 2>"$T/err" ||
	fail "run beside, --kernel 2.6.31"
head -1 "$T/out" | grep -qF 'kernel 2.6.31, 2 CPUs' || fail "--kernel 2.6.31: $(head -1 "$T/out")"
# a recording of a kernel the model has no scheduler of (5.10) replays under the default, and
# says so (it was silent); with --kernel, no word
sed 's/^kernel_release .*/kernel_release 5.10.0-21-amd64/' "$CAL/machine.conf" >"$T/sb.trace.machine.conf"
"$SL" run --workload "trace:file=$T/sb.trace" >"$T/out" 2>"$T/err" || fail "run beside, 5.10"
grep -qF "sb.trace.machine.conf: recorded on Linux 5.10.0-21-amd64, which the model has no scheduler of (2.6.31, 2.6.32, and 6.18 for 6.6 and later): replayed under --kernel 2.6.31 (give --kernel to choose)" \
	"$T/err" || fail "a 5.10 recording: $(cat "$T/err")"
"$SL" run --kernel 2.6.32 --workload "trace:file=$T/sb.trace" >"$T/out" 2>"$T/err" ||
	fail "run beside, 5.10, --kernel"
! grep -q "recorded on" "$T/err" || fail "a 5.10 recording with --kernel: $(cat "$T/err")"
cp "$CAL/machine.conf" "$T/sb.trace.machine.conf"
"$SL" run --workload "trace:file=$D/short-bursts.trace" >/dev/null 2>"$T/err" || fail "run"
grep -F "no calibration of the machine it was recorded on" "$T/err" >/dev/null ||
	fail "no warning without a calibration: $(cat "$T/err")"
usage_error "not a calibration" run --workload "trace:file=$T/sb.trace,calibration=$T/sb.trace"
usage_error "calibration: $T/nowhere: No such file" trace-workload --calibration "$T/nowhere" \
	"$D/small.trace"

# a switch's cost credited per burst (docs/workloads.md): credit.trace, s alone on CPU 0 runs
# 1 us, sleeps on its hrtimer, runs 1 us and exits. At the model's 2 us ctx_switch each
# switch-in's cost is more than its burst: each burst gives back its 1 us (0 left to run) and
# the other 1 us is the credit of the switch-in that begins it, so a replay on one CPU, which
# switches in as the recording did, charges 2 - 1 us twice: the recorded 2 us (it was 4 us,
# the costs charged again in full, when the credit did not exist).
"$SL" run --cpus 1 --kernel 6.18 --json \
	--workload "trace:file=$D/credit.trace,calibration=none" >"$T/cr.json" || fail "credit.trace"
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
assert g["cpu_time_ns"] == 2000, g
' "$T/cr.json" || fail "credit: $(cat "$T/cr.json")"

# a credit lasts only for the wait it was set before (docs/workloads.md): stale-credit.trace,
# y runs 100 us, yields to z (1 us), runs 1 us, sleeps 500 us on its hrtimer, runs 100 us and
# exits: 201 us recorded. At ctx_switch 2 us and no refill: bursts 100 - 2, 1 - 1 (credit 1)
# and 100 - 2. Replayed alone (tasks=^y$) on one CPU, its yield does not switch, so the 1 us
# credit's switch-in does not happen: 2 (spawn) + 98 + 0 + 2 (after the sleep, in full: its
# burst gave its cost back) + 98 = 200 us. With the credit left pending, the switch-in after
# the sleep was charged 2 - 1: 199 us.
"$SL" run --cpus 1 --kernel 6.18 --json --param ctx_switch=2000ns --param cache_refill=0ns \
	--workload "trace:file=$D/stale-credit.trace,calibration=none,tasks=^y$" >"$T/sc.json" ||
	fail "stale-credit.trace"
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
assert g["cpu_time_ns"] == 200000, g
# what went with it is counted: 1 yield, which did not switch, the 1 us its next burst gave
# back (the 2 us switch-in less its 1 us credit): the 201 - 200 us
assert g["yields"] == {"replayed": 1, "no_switch": 1, "no_switch_recorded_ns": 1000}, g
# the switch costs charged against those the bursts gave back, counted (docs/workloads.md,
# "Costs counted once"): the 3 recorded switch-ins of y (from idle, after z, after its sleep) gave
# back 2 + 1 + 2 us of its bursts (the 1 us burst all it had); simulated, 2 switch-ins (its
# spawn and after its sleep) are charged 2 us each: the schedule adds 4 - 5 = -1 us, the
# 200 - 201 us of its CPU time
assert g["switch_costs"] == {"switch_ins": 2, "charged_ns": 4000, "recorded_switch_ins": 3,
                             "given_back_ns": 5000}, g
' "$T/sc.json" || fail "stale credit: $(cat "$T/sc.json")"
"$SL" run --cpus 1 --kernel 6.18 --param ctx_switch=2000ns --param cache_refill=0ns \
	--workload "trace:file=$D/stale-credit.trace,calibration=none,tasks=^y$" >"$T/sc.txt" ||
	fail "stale-credit.trace (table)"
grep -F "trace: 1 yields, 1 of them with nothing else to run on the CPU (no switch: the recorded switch cost their next bursts gave back, 0.001 ms, is not charged again)" \
	"$T/sc.txt" >/dev/null || fail "the yields' line: $(cat "$T/sc.txt")"
grep -F "trace: 2 simulated switch-ins charged 0.004 ms of switch cost (credits taken off); the recording's 3 switch-ins gave back 0.005 ms of their bursts: the schedule's switches add -0.001 ms" \
	"$T/sc.txt" >/dev/null || fail "the switch costs' line: $(cat "$T/sc.txt")"
# with z replayed too, y's yield switches to z as recorded: nothing goes
"$SL" run --cpus 1 --kernel 6.18 --json --param ctx_switch=2000ns --param cache_refill=0ns \
	--workload "trace:file=$D/stale-credit.trace,calibration=none" >"$T/sc2.json" ||
	fail "stale-credit.trace, y and z"
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
assert g["yields"] == {"replayed": 1, "no_switch": 0, "no_switch_recorded_ns": 0}, g
' "$T/sc2.json" || fail "yield switching: $(cat "$T/sc2.json")"

# wake-ups onto another, idle CPU counted once (docs/workloads.md): remote-wake.trace, p-11 on
# CPU 0 and q-12 on CPU 1 wake each other onto their idle CPUs 3 times each (6 marked,
# tests/test_trace_workload.c), p also wakes r-13 on its own CPU 3 times; each marked wake-up is
# followed by 20 us of its waker's burst. Recorded CPU: p 180 us, q 206 us, r 31 us. With the
# switch costs at 0 and halted idle CPUs (the default machine polls: no IPI), 6.18 keeps the
# recorded placement: at wake_ipi 10 us each marked wake-up's IPI is taken out of the 20 us
# after it and charged again by the simulated one, so each task gets its recorded CPU (without
# the credit p and q got 30 us more each). At 25 us the 20 us give back 20: 5 us beyond each of
# the 6 bursts (30 us) are counted, and p and q run 15 us more each.
printf 'name halted\nbusy_power_mw 10000\nstate HLT 1 1 2000 time_valid\n' >"$T/hlt.profile"
RW="$D/remote-wake.trace"
"$SL" trace-workload --json "$RW" >"$T/rw.json" || fail "trace-workload remote-wake.trace"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["wakeups"]["by_task"] == 9 and d["wakeups"]["to_other_idle_cpu"] == 6, d["wakeups"]
assert d["wake_ipi_costs"] == {"recorded_ns": 0, "beyond_bursts_ns": 0, "bursts_beyond": 0}, d
' "$T/rw.json" || fail "remote wakes: $(cat "$T/rw.json")"
RWRUN="--cpus 2 --kernel 6.18 --machine file:$T/hlt.profile --param ctx_switch=0ns --param cache_refill=0ns
	--param migrate_core=0ns --json"
# rw_check FILE P_NS Q_NS [WAKES RECORDED_NS BEYOND_NS BURSTS]: the run's per-task CPU and
# its wake_ipi_credit (absent without WAKES)
rw_check() {
	python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
cpu = {t["comm"]: t["cpu_time_ns"] for t in g["per_task"]}
want = {"p": int(sys.argv[2]), "q": int(sys.argv[3]), "r": 31000}
assert cpu == want, (cpu, want)
if len(sys.argv) > 4:
	c = g["wake_ipi_credit"]
	got = (c["wakes"], c["recorded_ns"], c["beyond_bursts_ns"], c["bursts_beyond"])
	assert got == tuple(int(x) for x in sys.argv[4:8]), c
else:
	assert "wake_ipi_credit" not in g, g
' "$@"
}
# shellcheck disable=SC2086 # RWRUN: several arguments
"$SL" run $RWRUN --workload "trace:file=$RW,calibration=none" >"$T/rw0.json" || fail "rw 0"
rw_check "$T/rw0.json" 180000 206000 || fail "remote wakes, wake_ipi 0: $(cat "$T/rw0.json")"
# shellcheck disable=SC2086
"$SL" run $RWRUN --param wake_ipi=10us --workload "trace:file=$RW,calibration=none" \
	>"$T/rw10.json" || fail "rw 10"
rw_check "$T/rw10.json" 180000 206000 6 60000 0 0 ||
	fail "remote wakes, wake_ipi 10 us: $(cat "$T/rw10.json")"
# shellcheck disable=SC2086
"$SL" run $RWRUN --param wake_ipi=25us --workload "trace:file=$RW,calibration=none" \
	>"$T/rw25.json" || fail "rw 25"
rw_check "$T/rw25.json" 195000 221000 6 150000 30000 6 ||
	fail "remote wakes, wake_ipi 25 us: $(cat "$T/rw25.json")"
# shellcheck disable=SC2086
"$SL" run ${RWRUN%--json} --param wake_ipi=25us --workload "trace:file=$RW,calibration=none" \
	>"$T/rw25.out" || fail "rw 25 table"
grep -qF 'trace: 6, at 25000 ns (the run'"'"'s wake_ipi): 0.120 ms taken out of the bursts after them; 0.030 ms beyond 6 bursts' \
	"$T/rw25.out" || fail "remote wakes, the table's line: $(cat "$T/rw25.out")"
# the recording machine's wake_ipi (a calibration's param line): read by trace-workload and
# taken by the run as its own; a --param wake_ipi changes the simulated IPIs only (10 us
# charged for the 25 us taken out: p 180 - 60 + 30, q 206 - 60 + 30)
printf 'param ctx_switch=0ns\nparam cache_refill=0ns\nparam wake_ipi=25us\n' >"$T/ipi.conf"
"$SL" trace-workload --json --calibration "$T/ipi.conf" "$RW" >"$T/rw.json" ||
	fail "trace-workload --calibration ipi.conf"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["wake_ipi_costs"] == {"recorded_ns": 150000, "beyond_bursts_ns": 30000,
	"bursts_beyond": 6}, d
' "$T/rw.json" || fail "remote wakes at the calibration's prices: $(cat "$T/rw.json")"
# shellcheck disable=SC2086
"$SL" run $RWRUN --workload "trace:file=$RW,calibration=$T/ipi.conf" >"$T/rwc.json" ||
	fail "rw calibration"
rw_check "$T/rwc.json" 195000 221000 6 150000 30000 6 ||
	fail "remote wakes, the calibration's wake_ipi: $(cat "$T/rwc.json")"
# shellcheck disable=SC2086
"$SL" run $RWRUN --param wake_ipi=10us --workload "trace:file=$RW,calibration=$T/ipi.conf" \
	>"$T/rwc.json" || fail "rw calibration, --param"
rw_check "$T/rwc.json" 150000 176000 6 150000 30000 6 ||
	fail "remote wakes, recorded 25 us, simulated 10 us: $(cat "$T/rwc.json")"

# the recorded machine's wake-up of an idle CPU (docs/workloads.md, "Waking a halted vCPU"):
# idle-wake.trace, derived in tests/test_trace_workload.c: 20 wake-ups onto another idle CPU
# (p50 40 us, sd 5 us) and 20 by an idle CPU's own hrtimer (8 us, sd 0). Its machine.conf sets
# every switch cost to 0, so a replay keeps the recorded CPU (a 255 us, b 151 us, c 42 us). On
# the default machine (it polls: no IPI, no exit to take off) the replay waits the recorded
# 40 us (drawn around it) before b or a runs, after its waker blocked 10 us after the wake-up:
# the recorded switch-outs come back (a 11, b 11, c 21), but for one: under 6.18 c's timer
# wake-up at 807 us finds SIS_UTIL's scan budget still 0 (it starts zeroed and no periodic
# balance has run yet), so c stays behind a on CPU 0 instead of taking the idle CPU 1, and a is
# switched out once more (a 12). With --param wake_remote=0ns the
# woken end runs at once and replies before its waker blocked: a 1, b 4. c alone (tasks=^c)
# waits the recorded 8 us after each timer (0 with wake_local=0ns); its first run, a new task
# placed on CPU 0, is not an idle wake-up.
IW="$D/idle-wake.trace"
"$SL" trace-workload --json "$IW" >"$T/iw.json" || fail "trace-workload idle-wake.trace"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["idle_wake_latency"] == {"remote": {"n": 20, "p50_ns": 40000, "sd_ns": 5000},
	"local": {"n": 20, "p50_ns": 8000, "sd_ns": 0}}, d["idle_wake_latency"]
' "$T/iw.json" || fail "idle wake latency: $(cat "$T/iw.json")"
"$SL" trace-workload "$IW" | grep -qF 'from another CPU             20  p50 40.0 us, sd 5.0 us' ||
	fail "the table's idle wake-up line"
# iw_check FILE "comm:cpu_ns:switches ...": the run's per-task CPU and switch-outs
iw_check() {
	python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
got = sorted("%s:%d:%d" % (t["comm"], t["cpu_time_ns"], t["context_switches"])
	for t in g["per_task"])
assert got == sorted(sys.argv[2].split()), (got, sys.argv[2])
' "$@"
}
"$SL" run --kernel 6.18 --cpus 2 --per-task --json --workload "trace:file=$IW" \
	>"$T/iw1.json" 2>"$T/iw1.err" || fail "idle-wake replay"
grep -qF 'from another CPU p50 40.0 us, sd 5.0 us (20): wake_remote' "$T/iw1.err" ||
	fail "idle wake: the note on stderr: $(cat "$T/iw1.err")"
iw_check "$T/iw1.json" "a:255000:12 b:151000:11 c:42000:21" ||
	fail "idle wake replayed: $(cat "$T/iw1.json")"
"$SL" run --kernel 6.18 --cpus 2 --per-task --json --param wake_remote=0ns \
	--workload "trace:file=$IW" >"$T/iw0.json" 2>/dev/null || fail "idle-wake wake_remote=0ns"
iw_check "$T/iw0.json" "a:255000:1 b:151000:4 c:42000:21" ||
	fail "idle wake, wake_remote=0ns: $(cat "$T/iw0.json")"
for lw in "8.0us" "0ns"; do
	p=
	[ "$lw" = 0ns ] && p="--param wake_local=0ns"
	# shellcheck disable=SC2086 # p: an option and its value, or nothing
	"$SL" run --kernel 6.18 --cpus 2 $p --workload "trace:file=$IW,tasks=^c" 2>/dev/null |
		grep -qE "^trace +1 +42.0us .* 21 +$lw +$lw " ||
		fail "idle wake, c's latency $lw: $("$SL" run --kernel 6.18 --cpus 2 $p --workload "trace:file=$IW,tasks=^c" 2>&1)"
done

# yields (docs/workloads.md): yield.trace, y and z switch each other out runnable twice with
# nothing on CPU 0 that could preempt (2 yields), then y again after a tick's hrtimer (a
# preemption, no yield); each runs 2 x 10 us
"$SL" trace-workload --json "$D/yield.trace" >"$T/y.json" || fail "yield.trace"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["yields"] == 2, d["yields"]
assert sorted((t["pid"], t["cpu_time_ns"]) for t in d["per_task"]) == [(21, 20000), (22, 20000)], d
' "$T/y.json" || fail "yields: $(cat "$T/y.json")"
"$SL" run --workload "trace:file=$D/yield.trace,yield=0,calibration=none" >/dev/null ||
	fail "yield=0"
# lock hand-offs (docs/workloads.md "Lock hand-offs"): handoff.trace, derived in
# tests/test_trace_workload.c. trace-workload counts 3 wake-ups by a task: 1 hand-off, 1 reply,
# 1 one way.
"$SL" trace-workload --json "$D/handoff.trace" >"$T/ho.json" || fail "handoff.trace"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["wakeups"]["by_task"] == 3, d["wakeups"]
assert d["handoffs"] == {"replayed": 1, "fixed_reply": 1, "fixed_waker_off": 0,
                         "fixed_one_way": 1, "fixed_channel": 0}, d["handoffs"]
' "$T/ho.json" || fail "handoffs: $(cat "$T/ho.json")"
"$SL" trace-workload "$D/handoff.trace" | grep -qF 'wake-ups by a task: 1 replayed as lock hand-offs' ||
	fail "the table's hand-off line"
# Replayed without hog and dep (tasks=^lock) on 2 CPUs, every cost 0: lockB has its own CPU and
# reaches its wait after its 20 us of CPU, while lockA holds only from its switch-in after its
# 1000 us burst and 15 us sleep: lockB goes on (released 1), switches out once (its exit) and
# wakes lockA at 38 us, whose wait at 1040 us then finds it made. As a fixed dependency
# (handoff=0) lockB sleeps from 20 us until lockA's wake-up at 1030 us: 2 switch-outs, and no
# hand-off counted.
ho_run() {
	"$SL" run --cpus 2 --kernel 6.18 --json --param ctx_switch=0ns --param cache_refill=0ns \
		--param migrate_core=0ns --param timer_slack=0ns \
		--workload "trace:file=$D/handoff.trace,calibration=none,tasks=^lock$1" >"$T/hr.json" ||
		fail "run handoff.trace$1"
	python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
b = [t for t in g["per_task"] if t["comm"] == "lockB"][0]
got = (g.get("handoffs"), b["context_switches"], b["cpu_time_ns"])
want = eval(sys.argv[2])
assert got == want, (got, want)
' "$T/hr.json" "$2" || fail "handoff.trace$1: $(cat "$T/hr.json")"
}
ho_run "" '({"replayed": 1, "released": 1, "given": 0, "waited": 0}, 1, 48000)'
ho_run ",handoff=0" '(None, 2, 48000)'
# waits that did not block are counted with the recorded switch cost their next bursts gave
# back: the same replay at ctx_switch 2 us (no refill, no migration cost). lockB's released
# wait, and lockA's (fixed, a reply) at 1040 us finding lockB's wake-up made: 2 waits, each
# followed by a burst (28 us, 48 us) that gave back its 2 us switch-in, so 4 us. The CPU:
# lockA 1073 - 2 us; lockB 48 - 4 us, 2 of them its switch-in after its recorded preemption
# by the hog, which the simulation does not make either (not a wait: not in this count).
"$SL" run --cpus 2 --kernel 6.18 --json --param ctx_switch=2000ns --param cache_refill=0ns \
	--param migrate_core=0ns --param timer_slack=0ns \
	--workload "trace:file=$D/handoff.trace,calibration=none,tasks=^lock" >"$T/hw.json" ||
	fail "run handoff.trace, ctx_switch 2 us"
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
assert g["waits_without_block"] == {"count": 2, "recorded_ns": 4000}, g
cpu = sorted((t["comm"], t["cpu_time_ns"]) for t in g["per_task"])
assert cpu == [("lockA", 1071000), ("lockB", 44000)], cpu
' "$T/hw.json" || fail "waits without a block: $(cat "$T/hw.json")"

# a CPU's records going back in time: the line, exit status 2
usage_error "backwards.trace:6: malformed line: expected a timestamp not before line 5's (1.000100000)" \
	trace-workload "$D/backwards.trace"

usage_error "bad.trace:12: malformed line" trace-workload "$D/bad.trace" -o "$T/bad.json"
[ ! -e "$T/bad.json" ] || fail "an rt-app file was written for a bad trace"
usage_error "bad.trace:12: malformed line" run --workload "trace:file=$D/bad.trace"
usage_error "file= is required" run --workload trace:tasks=a
usage_error "not a POSIX extended regex" run --workload "trace:file=$D/small.trace,tasks=("
# regcomp spells a repeated atom out once per copy (x+ is two, x{m,n} max(m,n)): a pattern whose
# copies would pass 10000 pieces is refused before regcomp runs out of memory (found by fuzzing).
# By hand: (a{100}){99}x is 100 x 99 + 1 = 9901 pieces, under the limit, so it gets to the
# selection; (a{101}){100} is 10100; a followed by 14 pluses doubles 14 times, 2^14 = 16384;
# 13 pluses and x give 8192 + 1.
usage_error "tasks=(a{100}){99}x matches no task" run --workload "trace:file=$D/small.trace,tasks=(a{100}){99}x"
usage_error "would spell out more than 10000 pieces" run --workload "trace:file=$D/small.trace,tasks=(a{101}){100}"
usage_error "would spell out more than 10000 pieces" run --workload "trace:file=$D/small.trace,tasks=a++++++++++++++"
usage_error "tasks=a+++++++++++++x matches no task" run --workload "trace:file=$D/small.trace,tasks=a+++++++++++++x"
# a selection of no task: an empty group is not a run (small.trace's comms are a, b, c)
usage_error "tasks=^z matches no task of the trace $D/small.trace (expected a regex that selects one; its comms include a, b, c)" \
	run --workload "trace:file=$D/small.trace,tasks=^z" -o "$T/none.txt"
[ ! -e "$T/none.txt" ] || fail "an output was written for a selection of no task"
usage_error "unknown option '--bogus'" trace-workload --bogus "$D/small.trace"
usage_error "-o -: the table goes to standard output" trace-workload "$D/small.trace" -o -
[ ! -e ./- ] || fail "trace-workload -o - wrote a file named '-'"
# an interrupt's wake-up that stays on its idle CPU (vcpu_pack_irq): irq-pack.trace's 23 rounds
# on CPU 0 (CPU 1 idle) each wake c then d by an interrupt, d last on CPU 0, c waiting there:
# 23 counted (c's wake-ups are not: nothing waits yet), 22 stay, the last moves to CPU 1:
# 22 * 1000 / 23 = 956 for the replay
"$SL" trace-workload --json "$D/irq-pack.trace" >"$T/ip.json" || fail "irq-pack"
grep -q '"irq_wake_placement": {"n": 23, "stayed": 22}' "$T/ip.json" ||
	fail "irq-pack: $(grep irq_wake "$T/ip.json")"
"$SL" run --workload "trace:file=$D/irq-pack.trace" --no-progress >/dev/null 2>"$T/ip.err" ||
	fail "irq-pack run"
grep -q 'kept 22 of 23 wake-ups by an interrupt.*vcpu_pack_irq 956' "$T/ip.err" ||
	fail "irq-pack run: $(cat "$T/ip.err")"
# a woken task pulled to the other CPU before it ran waits there, not where it landed:
# pack-migrate.trace's 23 rounds wake c onto idle CPU 0, move it to CPU 1 (sched_migrate_task),
# then wake d by an interrupt on CPU 0: nothing waits on CPU 0 any more, so none is counted
# (counted where c landed, 22 would be)
"$SL" trace-workload --json "$D/pack-migrate.trace" >"$T/pm.json" || fail "pack-migrate"
grep -q '"irq_wake_placement": {"n": 0, "stayed": 0}' "$T/pm.json" ||
	fail "pack-migrate: $(grep irq_wake "$T/pm.json")"
echo "trace_workload.sh: ok"
