#!/bin/sh
# The listing commands' --json (features, sysctl, params, workloads, machines, governors) against
# values known by hand, and against their own tables: each table is rebuilt from the JSON
# (python3) and must equal the plain output byte for byte, so the two cannot tell different
# facts. -o FILE holds exactly the JSON of standard output, and a failed command leaves no FILE
# and an old FILE as it was. The key lists are checked by tests/json_doc.sh.
# Usage: sh tests/list_json.sh path/to/schedlab
set -eu
. "$(dirname "$0")/lib.sh"

# sj FILE ARGS...: schedlab ARGS --json into FILE, or the test fails naming the command
sj() {
	f=$1
	shift
	"$SL" "$@" --json >"$f" 2>"$T/err" ||
		fail "schedlab $* --json: exit status $?: $(cat "$T/err")"
}
# js FILE EXPR: EXPR (Python, the JSON as o) printed; exit 1 when FILE is not JSON
js() {
	python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$1" "$2"
}
# same WHAT FILE TABLE EXPR: the table rebuilt from FILE's JSON by EXPR (a Python string, the
# JSON as o) equals TABLE byte for byte
same() {
	python3 -c 'import json, sys; o = json.load(open(sys.argv[1])); sys.stdout.write(eval(sys.argv[2]))' \
		"$2" "$4" >"$T/rebuilt" || fail "$1: the JSON does not parse"
	cmp -s "$T/rebuilt" "$3" || fail "$1: the table and the JSON differ:
$(diff "$3" "$T/rebuilt" | head -5)"
}
# eq WHAT GOT WANT
eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# --- features: 2.6.31's debugfs line, in its file order, with its defaults (kernel/
# sched_features.h of 2.6.31: NORMALIZED_SLEEPER, HRTICK, DOUBLE_TICK and WAKEUP_OVERLAP off)
sj "$T/f.json" features
eq "features: kernel" "$(js "$T/f.json" 'o["kernel"]')" 2.6.31
eq "features 2.6.31: the flags in debugfs order" \
	"$(js "$T/f.json" '" ".join(("" if f["enabled"] else "NO_") + f["name"] for f in o["features"])')" \
	"NEW_FAIR_SLEEPERS NO_NORMALIZED_SLEEPER ADAPTIVE_GRAN WAKEUP_PREEMPT START_DEBIT \
AFFINE_WAKEUPS CACHE_HOT_BUDDY SYNC_WAKEUPS NO_HRTICK NO_DOUBLE_TICK ASYM_GRAN LB_BIAS \
LB_WAKEUP_UPDATE ASYM_EFF_LOAD NO_WAKEUP_OVERLAP LAST_BUDDY OWNER_SPIN"
eq "features 2.6.31: enabled is the default without writes" \
	"$(js "$T/f.json" 'all(f["enabled"] is f["default"] for f in o["features"])')" True
# a write changes enabled, not the default
sj "$T/f.json" features --sched-features 'NO_NEW_FAIR_SLEEPERS HRTICK'
eq "features NO_NEW_FAIR_SLEEPERS HRTICK" \
	"$(js "$T/f.json" '[(f["enabled"], f["default"]) for f in o["features"] if f["name"] in ("NEW_FAIR_SLEEPERS", "HRTICK")]')" \
	"[(False, True), (True, False)]"
# each release, and a write (2.6.31-bfs has no sched_features: an empty line)
for a in "--kernel 2.6.31" "--kernel 2.6.32" "--kernel 2.6.31-bfs" "--kernel 6.18" \
	"--kernel 2.6.32 --sched-features NO_CACHE_HOT_BUDDY" \
	"--kernel 6.18 --sched-features NO_CACHE_HOT_BUDDY"; do
	# shellcheck disable=SC2086 # $a: the words of the options
	"$SL" features $a >"$T/table" || fail "features $a: exit status $?"
	# shellcheck disable=SC2086
	"$SL" features $a --json >"$T/f.json" || fail "features $a --json: exit status $?"
	same "features $a" "$T/f.json" "$T/table" \
		'"".join(("" if f["enabled"] else "NO_") + f["name"] + " " for f in o["features"]) + "\n"'
done
# 6.18's own flags (kernel/sched/features.h of 6.18: PLACE_LAG first, on)
sj "$T/f.json" features --kernel 6.18
eq "features 6.18: first flag" "$(js "$T/f.json" '(o["kernel"], o["features"][0])')" \
	"('6.18', {'name': 'PLACE_LAG', 'enabled': True, 'default': True})"

# --- sysctl: sched_child_runs_first is 1 on 2.6.31 and 0 from 2.6.32 on (2.6.32 made the parent
# run first by default); the granularities scale by 1 + ilog2(CPUs) at boot: 2.6.31's
# 20 ms latency is 40 ms on 2 CPUs, 60 ms on 4; 2.6.32's 5 ms is 10 ms on 2; 6.18's 0.7 ms base
# slice is 1.4 ms on 2
sysv() { # FILE NAME: the value of sysctl NAME
	js "$1" "o['sysctl']['$2']"
}
sj "$T/s.json" sysctl
eq "sysctl 2.6.31: kernel" "$(js "$T/s.json" '(o["kernel"], o["cpus"])')" "('2.6.31', 2)"
eq "sysctl 2.6.31: sched_child_runs_first" "$(sysv "$T/s.json" kernel.sched_child_runs_first)" 1
eq "sysctl 2.6.31: sched_latency_ns" "$(sysv "$T/s.json" kernel.sched_latency_ns)" 40000000
sj "$T/s.json" sysctl --kernel 2.6.31 --cpus 4
eq "sysctl 2.6.31 4 CPUs: cpus" "$(js "$T/s.json" 'o["cpus"]')" 4
eq "sysctl 2.6.31 4 CPUs: sched_latency_ns" "$(sysv "$T/s.json" kernel.sched_latency_ns)" 60000000
sj "$T/s.json" sysctl --kernel 2.6.32
eq "sysctl 2.6.32: sched_child_runs_first" "$(sysv "$T/s.json" kernel.sched_child_runs_first)" 0
eq "sysctl 2.6.32: sched_latency_ns" "$(sysv "$T/s.json" kernel.sched_latency_ns)" 10000000
eq "sysctl 2.6.32: an int, not a string" \
	"$(js "$T/s.json" 'type(o["sysctl"]["kernel.sched_latency_ns"]).__name__')" int
sj "$T/s.json" sysctl --kernel 6.18
eq "sysctl 6.18: base_slice_ns" "$(sysv "$T/s.json" base_slice_ns)" 1400000
sj "$T/s.json" sysctl --sysctl kernel.sched_child_runs_first=0
eq "sysctl 2.6.31 after a write" "$(sysv "$T/s.json" kernel.sched_child_runs_first)" 0
for a in "--kernel 2.6.31" "--kernel 2.6.32 --cpus 8" "--kernel 2.6.31-bfs" "--kernel 6.18" \
	"--sysctl kernel.sched_rt_runtime_us=-1"; do
	# shellcheck disable=SC2086 # $a: the words of the options
	"$SL" sysctl $a >"$T/table"
	# shellcheck disable=SC2086
	"$SL" sysctl $a --json >"$T/s.json"
	same "sysctl $a" "$T/s.json" "$T/table" \
		'"".join("%s = %d\n" % kv for kv in o["sysctl"].items())'
done

# --- params: defaults of docs/model (ctx_switch 2 us, lmbench; HZ 1000; group scheduling off)
sj "$T/p.json" params
par() { # NAME: (kind, default) of param NAME, its default under the key its kind names
	js "$T/p.json" "[(p['kind'], p.get('default_ns', p.get('default'))) for p in o['params'] if p['name'] == '$1']"
}
eq "params: ctx_switch" "$(par ctx_switch)" "[('duration', 2000)]"
eq "params: hz" "$(par hz)" "[('count', 1000)]"
eq "params: group_sched" "$(par group_sched)" "[('flag', 0)]"
eq "params: disk_seek" "$(par disk_seek)" "[('duration', 12500000)]"
eq "params: one default key each" \
	"$(js "$T/p.json" 'all(("default_ns" in p) != ("default" in p) for p in o["params"])')" True
"$SL" params >"$T/table"
same "params" "$T/p.json" "$T/table" \
	'"".join(("%-15s %10d     %s\n" % (p["name"], p["default"], p["source"])) if "default" in p else ("%-15s %10dns   %s\n" % (p["name"], p["default_ns"], p["source"])) for p in o["params"])'

# --- workloads: hog's keys (workload/hog.c: work and yield take distributions), the common
# keys last, policy's words
sj "$T/w.json" workloads
eq "workloads: hog's keys" \
	"$(js "$T/w.json" '[(k["name"], k["type"], k["default"], k["common"]) for w in o["workloads"] if w["name"] == "hog" for k in w["keys"]]')" \
	"[('tasks', 'int', '1', False), ('nice', 'int', '0', False), ('policy', 'enum', 'normal', False), ('rtprio', 'int', '0', False), ('runtime', 'time', '0s', False), ('work', 'dist', '0s', False), ('yield', 'dist', '0s', False), ('start', 'time', '0s', True), ('uid', 'int', '1000', True)]"
eq "workloads: hog's policy words" \
	"$(js "$T/w.json" '[k["choices"] for w in o["workloads"] if w["name"] == "hog" for k in w["keys"] if k["name"] == "policy"]')" \
	"[['normal', 'batch', 'idle', 'fifo', 'rr', 'iso']]"
"$SL" workloads >"$T/table"
same "workloads" "$T/w.json" "$T/table" \
	'"".join("%s: %s\n" % (w["name"], w["help"]) + "".join("  %-10s default %-20s %s\n" % (k["name"], k["default"], k["help"]) for k in w["keys"]) for w in o["workloads"]) + "\ndurations: %s (fixed), %s\n" % (o["duration_forms"][0], ", ".join(o["duration_forms"][1:]))'

# --- machines
sj "$T/m.json" machines
eq "machines: names" "$(js "$T/m.json" '" ".join(m["name"] for m in o["machines"])')" \
	"nehalem nehalem-acpi core2 skylake skylake-server sapphire-rapids vm-haltpoll vm-hlt sysfs file"
"$SL" machines >"$T/table"
same "machines" "$T/m.json" "$T/table" \
	'"".join("%-16s %s\n" % (m["name"], m["help"]) for m in o["machines"])'

# --- governors: Linux's ratings (menu 20, ladder 10, teo 19, haltpoll 9), the table's order
sj "$T/g.json" governors
eq "governors" "$(js "$T/g.json" '" ".join("%s:%d" % (g["name"], g["rating"]) for g in o["governors"])')" \
	"poll:0 ladder:10 menu-2.6.31:20 menu-tng:20 menu:20 teo:19 haltpoll:9 oracle:0"
"$SL" governors >"$T/table"
same "governors" "$T/g.json" "$T/table" \
	'"".join("%-12s rating %2d  %s\n" % (g["name"], g["rating"], g["help"]) for g in o["governors"])'

# --- -o FILE: the same bytes as standard output, nothing on standard output; -o -: stdout
for c in "features --kernel 2.6.32" "sysctl --cpus 4" params workloads machines governors; do
	for j in "" --json; do
		# shellcheck disable=SC2086 # $c $j: the words of the command
		"$SL" $c $j >"$T/stdout"
		# shellcheck disable=SC2086
		"$SL" $c $j -o "$T/o" >"$T/out2" || fail "$c $j -o: exit status $?"
		cmp -s "$T/stdout" "$T/o" || fail "$c $j -o FILE differs from its standard output"
		[ ! -s "$T/out2" ] || fail "$c $j -o FILE: standard output is not empty"
		# shellcheck disable=SC2086
		"$SL" $c $j -o - >"$T/out2" && cmp -s "$T/stdout" "$T/out2" ||
			fail "$c $j -o -: not standard output"
	done
done
# a command that fails writes nothing: no new file, an old one as it was (exit status 2)
rm -f "$T/o"
usage_error "unknown release" features --kernel 9.9 --json -o "$T/o"
[ ! -e "$T/o" ] || fail "features --kernel 9.9 -o: a file was made"
echo old >"$T/o"
usage_error "unknown sysctl" sysctl --sysctl kernel.x=1 --json -o "$T/o"
[ "$(cat "$T/o")" = old ] || fail "sysctl with a bad write -o: the old file was changed"
# an output that cannot be made: exit status 1, naming it, no stdout
rc=0
"$SL" params --json -o "$T/no/such/dir/p.json" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && grep -F "$T/no/such/dir/p.json" "$T/err" >/dev/null ||
	fail "params -o into a missing directory: exit $rc, $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "params -o into a missing directory: standard output is not empty"
echo "list_json.sh: all checks passed"
