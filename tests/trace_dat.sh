#!/bin/sh
# The binary trace.dat reader (src/trace/trace_dat.c, libtracecmd) against `trace-cmd report -t`
# of the same file (tests/data/README.md says how both were recorded):
#   sleep-instance.trace.dat.xz   the trace.dat, xz-compressed (the reader decompresses it)
#   sleep-instance.report.xz      `trace-cmd report -t sleep-instance.trace.dat` (trace-cmd 3.1.6)
# trace-stats gives the same JSON (every figure: events, run times, latencies, delays, idle
# intervals) for both, from a file, from stdin and from the decompressed .dat. A schedlab built
# without libtracecmd must refuse the file naming the library, with exit status 2.
set -eu
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data
DAT=$D/sleep-instance.trace.dat.xz
REP=$D/sleep-instance.report.xz

rc=0
"$SL" trace-stats "$DAT" >"$T/dat.txt" 2>"$T/err" || rc=$?
if [ "$rc" -ne 0 ]; then
	[ "$rc" -eq 2 ] || fail "trace-stats $DAT: exit $rc: $(cat "$T/err")"
	grep -q 'without libtracecmd' "$T/err" || fail "the refusal does not name libtracecmd: $(cat "$T/err")"
	[ ! -s "$T/dat.txt" ] || fail "output written for a refused trace.dat"
	echo "trace_dat.sh: built without libtracecmd: trace.dat refused as expected"
	exit 0
fi

"$SL" trace-stats "$DAT" --json >"$T/dat.json"
"$SL" trace-stats "$REP" --json >"$T/rep.json"
cmp "$T/dat.json" "$T/rep.json" || {
	diff "$T/dat.json" "$T/rep.json" | head -20 >&2
	fail "trace.dat and its trace-cmd report give different figures"
}
xz -dc "$DAT" >"$T/t.dat"
"$SL" trace-stats "$T/t.dat" --json | cmp - "$T/dat.json" || fail "plain .dat differs from .dat.xz"
"$SL" trace-stats - --json <"$T/t.dat" | cmp - "$T/dat.json" || fail ".dat on stdin differs"

# With trace-cmd installed: its report of the .dat now reads to the same figures too.
if command -v trace-cmd >/dev/null 2>&1; then
	trace-cmd report -t "$T/t.dat" >"$T/now.txt" 2>/dev/null || fail "trace-cmd report failed"
	"$SL" trace-stats "$T/now.txt" --json | cmp - "$T/dat.json" ||
		fail "trace-stats of today's trace-cmd report differs from the .dat's"
fi

# Figures checked against the report text itself, not through schedlab:
# each event count is grep -c of its name in the report (its first line is "cpus=2")
xz -dc "$REP" >"$T/rep.txt"
for ev in sched_switch sched_wakeup sched_waking cpu_idle; do
	want=$(grep -c " $ev: " "$T/rep.txt")
	got=$(sed -n "s/^ *\"$ev\":\([0-9]*\),*\$/\1/p" "$T/dat.json" | head -1)
	[ "$got" = "$want" ] || fail "$ev: $got events read, the report has $want"
done
# 276 events = the report's lines but "cpus=2"; the duration is the last timestamp minus the
# first: 30547.129204934 - 30546.924104802 s = 205100132 ns.
grep -q '^trace: .*, 2 CPUs, 205.100 ms, 276 lines$' "$T/dat.txt" || fail "header: $(head -1 "$T/dat.txt")"
grep -q '"duration_ns":205100132,' "$T/dat.json" || fail "duration is not 205100132 ns"

# a damaged trace.dat: exit 2 naming the file, no output
head -c 20000 "$T/t.dat" >"$T/cut.dat"
rc=0
"$SL" trace-stats "$T/cut.dat" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "truncated trace.dat: exit $rc"
grep -q 'cut.dat: a trace.dat that libtracecmd cannot read' "$T/err" || fail "truncated: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "truncated trace.dat: output written"
echo "trace_dat.sh: ok"
