#!/bin/sh
# The Chrome Trace Event JSON of runs nests exactly on every track (tests/tools/check_chrome_json.c
# reads it with json-c, as a viewer does): workloads with many switches, idle states, RT tasks,
# forks, and 1001 CPUs (one track name each). The checker itself must catch the two faults the
# writer once had: X slices whose ts + dur overshoot the next ts by rounding, and a tid named
# twice.
# Usage: sh tests/chrome_json.sh path/to/schedlab path/to/check_chrome_json
set -eu

MAXARGS=2
. "$(dirname "$0")/lib.sh"
CHK=$2

check() {
	name=$1
	shift
	"$SL" run "$@" --trace-out "$T/$name.json" --no-progress >/dev/null 2>"$T/err" ||
		fail "$name: run failed: $(cat "$T/err")"
	"$CHK" "$T/$name.json" >"$T/chk" 2>&1 || fail "$name: $(cat "$T/chk")"
	[ "$name" = cpus1001 ] && return 0 # three hogs never switch out
	grep -q '"ph":"f"' "$T/$name.json" || fail "$name: no wake-up flow"
	grep -q '"prev_state":"' "$T/$name.json" || fail "$name: no prev_state args"
	# speedscope ends a slice only on an E event of its B's name (tests/speedscope.sh)
	! grep '"ph":"E"' "$T/$name.json" | grep -qv '"name":"' || fail "$name: an E event without a name"
}

check make --cpus 2 --machine nehalem --workload make:jobs=4,count=30 --duration 300ms
check mixed --cpus 4 --machine nehalem --workload make:jobs=6,count=40 --workload xclient \
	--workload periodic:period=10ms,run=1ms --duration 300ms
check pingpong --cpus 1 --workload pingpong:count=200 --duration 100ms
check cpus1001 --cpus 1001 --workload hog:tasks=3 --duration 10ms
n=$(grep -c '"name":"thread_name"' "$T/cpus1001.json")
[ "$n" -eq 3003 ] || fail "cpus1001: $n thread names, expected 3 tracks x 1001 CPUs"

# the checker fails where it must: 1619237.361 + 1440.715 = 1620678.0760000001 > 1620678.076
cat >"$T/bad.json" <<'J'
{"traceEvents":[
{"ph":"X","pid":1,"tid":0,"name":"a","ts":1619237.361,"dur":1440.715},
{"ph":"X","pid":1,"tid":0,"name":"b","ts":1620678.076,"dur":1.0},
{"ph":"X","pid":1,"tid":0,"name":"c","ts":1620678.5,"dur":1.0}
]}
J
! "$CHK" "$T/bad.json" >"$T/chk" 2>&1 || fail "checker: accepted a rounding overlap"
grep -q "overlaps" "$T/chk" || fail "checker: $(cat "$T/chk")"
cat >"$T/bad2.json" <<'J'
{"traceEvents":[
{"ph":"M","pid":1,"tid":1000,"name":"thread_name","args":{"name":"CPU 1000"}},
{"ph":"M","pid":1,"tid":1000,"name":"thread_name","args":{"name":"CPU 0 idle"}}
]}
J
! "$CHK" "$T/bad2.json" >"$T/chk" 2>&1 || fail "checker: accepted a tid named twice"
echo "chrome_json: ok"
