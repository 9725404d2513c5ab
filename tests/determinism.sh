#!/bin/sh
# Determinism across builds: the same commands give byte-identical output from every schedlab
# binary given (tools/test.sh --determinism passes a gcc -O2, a clang -O2 and a gcc -O0
# AddressSanitizer+UBSan build). The commands cover the simulation with several workloads,
# machines and governors (--json and the table), --trace-out in both formats, repro fio, a small
# sweep (CSV and JSON Lines), sweep-report, and the trace readers on the shipped traces.
# Floating point: every build has -ffp-contract=off (CMakeLists.txt), so no compiler fuses a*b+c
# into an FMA that rounds once instead of twice; the printed figures are then the same IEEE
# operations in every build.
# Usage: sh tests/determinism.sh path/to/schedlab path/to/other/schedlab [more...]
set -eu

if [ $# -lt 2 ]; then
	echo "usage: $0 path/to/schedlab path/to/other/schedlab [more...]" >&2
	exit 1
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
D=$(cd "$(dirname "$0")/data" && pwd)

fail() {
	echo "$(basename "$0"): FAIL: $*" >&2
	exit 1
}

# outputs BIN DIR: every command's output (and the files it writes) into DIR
outputs() {
	b=$1 o=$2
	mkdir -p "$o"
	n=0
	while IFS= read -r cmd; do
		[ -n "$cmd" ] || continue
		n=$((n + 1))
		# shellcheck disable=SC2086
		(cd "$o" && eval "\"$b\" $cmd") >"$o/$n.out" 2>"$o/$n.err" ||
			fail "$b $cmd: exit $? ($(cat "$o/$n.err"))"
	done <<EOF
run --cpus 4 --workload make:jobs=8,nice=19,count=60 --workload xclient:start=50ms --workload pingpong:count=500 --duration 400ms --json --no-progress
run --cpus 2 --workload periodic:run=2ms,period=16ms --workload make:jobs=4,nice=19,count=40 --kernel 2.6.32 --duration 500ms --no-progress
run --topology 2x4x2 --machine nehalem --cpuidle-governor menu-tng --workload fio:disks=2,ioengine=libaio,iodepth=4 --workload video --duration 300ms --json --no-progress
run --cpus 4 --machine skylake --cpuidle-governor menu --workload periodic:tasks=3,run=300us,period=4ms --workload mutex --duration 300ms --json --no-progress
run --cpus 4 --machine skylake-server --cpuidle-governor teo --workload pingpong:pairs=2,count=2000,think=exp:50us --duration 300ms --json --no-progress
run --cpus 2 --machine vm-haltpoll --cpuidle-governor haltpoll --workload periodic:run=uniform:100us:900us,period=2ms --duration 300ms --json --no-progress
run --cpus 2 --machine core2 --cpuidle-governor ladder --workload hog:work=normal:20ms:5ms,tasks=3 --workload xclient --duration 300ms --json --no-progress
run --cpus 2 --machine nehalem --cpuidle-governor oracle --workload periodic --duration 200ms --json --no-progress
run --cpus 2 --workload make:jobs=4,count=30,pipe=2 --workload xclient --duration 200ms --trace-out trace.txt --no-progress
run --cpus 4 --param group_sched=1 --workload make:jobs=8,count=60,nice=19 --workload xclient:start=50ms --workload pingpong:count=500,uid=1001 --duration 400ms --json --no-progress
run --cpus 2 --machine nehalem --workload make:jobs=4,count=30 --workload xclient --duration 200ms --trace-out trace.json --no-progress
repro fio --disks 1,2 --duration 200ms --json
sweep --features NEW_FAIR_SLEEPERS,START_DEBIT,WAKEUP_PREEMPT --seeds 2 --workload make:jobs=4,nice=19,count=20 --workload xclient --duration 150ms -j 2 --out s.csv --no-progress
sweep --features NEW_FAIR_SLEEPERS,LAST_BUDDY --vary kernel.sched_latency_ns=10000000,20000000 --workload pingpong:count=300 --duration 100ms -j 1 --out s.jsonl --no-progress
sweep-report s.csv --metric xclient.completion_ns --top 3 --json
trace-stats "$D/latency-under-nice-make.trace.xz" --json
replay-idle "$D/idle-sleep-loop.trace.xz" --machine nehalem --json
demo --json
EOF
	# the sweep's summary line on stderr has its wall time: keep only the files
	rm -f "$o"/*.err
}

i=0
for b in "$@"; do
	i=$((i + 1))
	[ -x "$b" ] || fail "$b is not an executable"
	outputs "$(cd "$(dirname "$b")" && pwd)/$(basename "$b")" "$T/$i"
done
ls "$T/1" >"$T/list"
[ "$(wc -l <"$T/list")" -ge 20 ] || fail "too few outputs: $(cat "$T/list")"
for k in $(seq 2 "$i"); do
	for f in $(cat "$T/list"); do
		cmp -s "$T/1/$f" "$T/$k/$f" ||
			fail "$f differs between $1 and $(eval echo "\${$k}"): $(cmp "$T/1/$f" "$T/$k/$f")"
	done
	[ "$(ls "$T/$k" | wc -l)" -eq "$(wc -l <"$T/list")" ] || fail "build $k wrote other files"
done
echo "determinism.sh: $(wc -l <"$T/list") outputs byte-identical across $i builds"
