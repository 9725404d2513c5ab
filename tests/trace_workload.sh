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
t = {x["pid"]: x for x in d["tasks"]}
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

usage_error "bad.trace:12: malformed line" trace-workload "$D/bad.trace" -o "$T/bad.json"
[ ! -e "$T/bad.json" ] || fail "an rt-app file was written for a bad trace"
usage_error "bad.trace:12: malformed line" run --workload "trace:file=$D/bad.trace"
usage_error "file= is required" run --workload trace:tasks=a
usage_error "not a POSIX extended regex" run --workload "trace:file=$D/small.trace,tasks=("
usage_error "unknown option '--bogus'" trace-workload --bogus "$D/small.trace"
echo "trace_workload.sh: ok"
