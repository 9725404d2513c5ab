#!/bin/sh
# Every command's --json against docs/json.md (tests/json_check.py): each key an output has is
# listed there under the command, with a type it allows, and each key listed (but those marked
# as sometimes absent) is in an output. The runs cover the optional parts: fio, video, RT and
# rt-app groups, group scheduling, acpi_idle, every repro with and without --workload, repro
# fio --explore on a small grid, compare of hogs and of a trace (its recorded line), a sweep of
# flags and a sysctl, an idlestat trace, a loaded validate, and the listing commands (features
# and sysctl of two releases). Usage: sh tests/json_doc.sh
# path/to/schedlab
set -eu
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/data" && pwd)
TOP=$(cd "$(dirname "$0")/.." && pwd)
args=""
n=0
# j SECTION ARGS...: schedlab ARGS --json into a file checked against SECTION
j() {
	sec=$1
	shift
	n=$((n + 1))
	"$SL" "$@" --json >"$T/$n.json" 2>"$T/err" || fail "schedlab $*: $(cat "$T/err")"
	args="$args
$sec=$T/$n.json"
}
j run run --workload hog:tasks=2 --duration 10ms
j run run --cpus 2 --machine nehalem --workload fio:disks=1 --workload video --workload periodic \
	--workload hog:policy=fifo,rtprio=10 --duration 20ms
j run run --param group_sched=1 --workload hog --workload hog:uid=1001 --duration 10ms
j run run "$D/rtapp/timer.json" --duration 20ms
j run run --param wake_ipi=25us --workload "trace:file=$D/trace-workload/remote-wake.trace"
j run run --kernel 6.18 --machine nehalem --workload pingpong --workload make:jobs=2,count=2 \
	--duration 100ms
j demo demo
j "repro fio" repro fio --disks 1
j "repro sleepers" repro sleepers --seeds 1
j "repro fork" repro fork --seeds 1
j "repro bfs" repro bfs --seeds 1
j "repro --workload" repro fio --workload hog --duration 50ms
j "repro --workload" repro sleepers --seeds 1 --workload make:jobs=2,count=2 --duration 100ms
j "repro --workload" repro fork --seeds 1 --workload hog --duration 50ms
j "repro --workload" repro bfs --seeds 1 --workload "trace:file=$D/trace-workload/small.trace"
j "repro fio --explore" repro fio --explore --unknowns bg_wakeup --duration 100ms --jobs 2
j compare compare --cpus 1 --duration 200ms --kernel 2.6.31,6.18 --seeds 2 --workload hog \
	--workload hog
j compare compare --cpus 2 --duration 200ms --kernel 2.6.31,6.18 --seeds 2 \
	--workload "trace:file=$D/trace-workload/small.trace"
"$SL" sweep --workload make:jobs=3,count=4 --workload xclient:rounds=20 \
	--features NEW_FAIR_SLEEPERS,LAST_BUDDY --vary kernel.sched_latency_ns=10000000,20000000 \
	--seeds 2 --duration 30ms --out "$T/sw.jsonl" --no-progress 2>"$T/err" ||
	fail "sweep: $(cat "$T/err")"
args="$args
sweep rows=$T/sw.jsonl"
j sweep-report sweep-report "$T/sw.jsonl"
j trace-stats trace-stats "$D/idle-sleep-loop.trace.xz"
j trace-stats trace-stats "$D/idlestat-synthetic.idlestat"
j trace-stats trace-stats "$D/sync-direct-read.trace.xz"
printf '# tracer: nop\n  <idle>-0 [000] d..1. 1.000008: foo_event: x=1\n' >"$T/u.trace"
j trace-stats trace-stats "$T/u.trace"
j replay-idle replay-idle "$D/idle-sleep-loop.trace.xz"
j trace-workload trace-workload "$D/trace-workload/small.trace"
j validate validate "$D/validate/example1/example1.json" --real "$D/validate/example1" \
	--calibration "$TOP/machines/fc-2vcpu"
j validate validate "$D/validate-set-loaded/template/template.json" \
	--real "$D/validate-set-loaded/template"
j features features
j features features --kernel 6.18 --sched-features NO_PLACE_LAG
j sysctl sysctl --kernel 2.6.32 --cpus 4
j sysctl sysctl --kernel 6.18
j params params
j workloads workloads
j machines machines
j governors governors
# the arguments one a line: file names without spaces or newlines ($T is mktemp's)
IFS='
'
# shellcheck disable=SC2086 # one argument a line
python3 "$(dirname "$0")/json_check.py" "$TOP/docs/json.md" $args >"$T/check" ||
	fail "the JSON and docs/json.md differ:
$(cat "$T/check")"
echo "json_doc.sh: all checks passed"
