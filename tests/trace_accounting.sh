#!/bin/sh
# One account of a trace (docs/workloads.md, "One account of a trace"): on every trace of
# tests/data (plain, .xz, trace-cmd report, a schedlab --trace-out, the validate sets' real
# recordings), and on those of DIR when given, each task's CPU time as the trace workload
# extracts it equals trace-stats' run time for it, to the nanosecond (a pid the workload
# splits into two tasks, died and reused, is summed). A trace with no sched_switch that runs a
# task has nothing to replay: trace-workload must say so (exit 2).
# Usage: sh tests/trace_accounting.sh path/to/schedlab [DIR]
set -eu
MAXARGS=2
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data
DIRS=$D
[ $# -lt 2 ] || DIRS="$DIRS $2"
n=0
# shellcheck disable=SC2086
find $DIRS -type f \( -name '*.trace' -o -name '*.trace.xz' -o -name '*.trace.gz' \
	-o -name '*.report.xz' \) | sort >"$T/list"
while read -r f; do
	case $f in */bad.trace | */backwards.trace) continue ;; esac # refused: trace_workload.sh
	"$SL" trace-stats --json "$f" >"$T/ts.json" 2>"$T/ts.err" || fail "trace-stats $f: $(cat "$T/ts.err")"
	rc=0
	"$SL" trace-workload --json "$f" >"$T/tw.json" 2>"$T/tw.err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		[ "$rc" -eq 2 ] && grep -q "no sched_switch that runs a task" "$T/tw.err" ||
			fail "trace-workload $f: exit $rc: $(cat "$T/tw.err")"
		continue
	fi
	python3 - "$T/ts.json" "$T/tw.json" "$f" <<'PY' || fail "$f: extracted CPU != trace-stats run time"
import json, sys
ts = json.load(open(sys.argv[1]))
tw = json.load(open(sys.argv[2]))
a, b = {}, {}
for t in ts["per_task"]:
    a[t["pid"]] = a.get(t["pid"], 0) + t["cpu_time_ns"]
for t in tw["per_task"]:
    b[t["pid"]] = b.get(t["pid"], 0) + t["cpu_time_ns"]
bad = [(p, a.get(p, 0), b.get(p, 0)) for p in sorted(set(a) | set(b)) if a.get(p, 0) != b.get(p, 0)]
for p, x, y in bad[:10]:
    print("%s: pid %d: trace-stats %d ns, trace-workload %d ns" % (sys.argv[3], p, x, y))
# the account's per-CPU figures are trace-stats' too
lost = sum(c["lost_switches"] for c in ts["per_cpu"])
una = sum(c["unattributed_ns"] for c in ts["per_cpu"])
acc = tw["accounting"]
if (lost, una) != (acc["lost_switches"], acc["unattributed_ns"]):
    print("%s: lost switches %d / %d, unattributed %d / %d ns" % (sys.argv[3], lost,
          acc["lost_switches"], una, acc["unattributed_ns"]))
    bad.append(0)
sys.exit(1 if bad else 0)
PY
	n=$((n + 1))
done <"$T/list"
[ "$n" -ge 10 ] || fail "only $n traces compared"
echo "trace_accounting.sh: ok ($n traces)"
