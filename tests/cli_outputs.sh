#!/bin/sh
# What the schedlab commands print, against figures worked out by hand from docs/model/cfs.md
# (docs/model/cfs.md for the sysctls), the model's parameters (docs/model-overview.md, schedlab
# params) and the machine profiles; and every text table against the JSON of the same run.
# Usage: sh tests/cli_outputs.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data
TR=$D/idle-sleep-loop.trace.xz

# ok ARGS...: exit 0; stdout in $T/out
ok() {
	rc=0
	"$SL" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 0 ] || fail "schedlab $*: exit $rc: $(cat "$T/err")"
}

# has LINE: $T/out has exactly this line
has() {
	grep -x -F -e "$1" "$T/out" >/dev/null || fail "no line '$1' in: $(cat "$T/out")"
}

# --- -o -: standard output (as a trace - is standard input), not a file named '-' ---
TRA=$(cd "$(dirname "$TR")" && pwd)/$(basename "$TR")
SLA=$(cd "$(dirname "$SL")" && pwd)/$(basename "$SL")
(cd "$T" && "$SLA" trace-stats -o - "$TRA" >"$T/dash.out") || fail "trace-stats -o -"
"$SL" trace-stats "$TRA" >"$T/plain.out" || fail "trace-stats"
[ ! -e "$T/-" ] || fail "-o - wrote a file named '-'"
cmp -s "$T/dash.out" "$T/plain.out" || fail "-o - differs from standard output"

# --- help and version ---
ok --help
cp "$T/out" "$T/help"
for h in -h help; do
	ok "$h"
	cmp -s "$T/out" "$T/help" || fail "schedlab $h differs from --help"
done
head -1 "$T/help" | grep -x -F "usage: schedlab COMMAND [OPTIONS]" >/dev/null || fail "--help: first line"
ok --version
grep -x -E 'schedlab [0-9]+\.[0-9]+\.[0-9]+' "$T/out" >/dev/null || fail "--version: $(cat "$T/out")"

# --- sysctl: docs/model/cfs.md §2. At boot factor = 1 + ilog2(CPUs); latency and min_granularity
# are multiplied (clamped to 200 ms), wakeup_granularity and shares_ratelimit multiplied,
# migration_cost not scaled. ---
ok sysctl --cpus 4 # 2.6.31, factor 3
has "kernel.sched_latency_ns = 60000000"           # 20 ms x 3
has "kernel.sched_min_granularity_ns = 12000000"   # 4 ms x 3
has "kernel.sched_wakeup_granularity_ns = 15000000" # 5 ms x 3
has "kernel.sched_shares_ratelimit = 750000"       # 250 us x 3
has "kernel.sched_migration_cost = 500000"
has "kernel.sched_child_runs_first = 1"
has "kernel.sched_compat_yield = 0"
# the 2.6.31 flag list with its defaults as bits 0..16 (1 0 1 1 1 1 1 1 0 0 1 1 1 1 0 1 1):
# 1+4+8+16+32+64+128 + 1024+2048+4096+8192 + 32768+65536
has "kernel.sched_features = 113917"
ok sysctl --kernel 2.6.32 --cpus 8 # factor 4
has "kernel.sched_latency_ns = 20000000"           # 5 ms x 4
has "kernel.sched_min_granularity_ns = 4000000"    # 1 ms x 4
has "kernel.sched_wakeup_granularity_ns = 4000000" # 1 ms x 4
has "kernel.sched_shares_ratelimit = 1000000"      # 250 us x 4
has "kernel.sched_child_runs_first = 0"
ok sysctl --topology 2x4x2 # 16 CPUs: factor 5
has "kernel.sched_latency_ns = 100000000"
has "kernel.sched_min_granularity_ns = 20000000"
ok sysctl --cpus 1024 # factor 11: 220 ms clamped to 200 ms; 44 ms is under the clamp
has "kernel.sched_latency_ns = 200000000"
has "kernel.sched_min_granularity_ns = 44000000"
has "kernel.sched_wakeup_granularity_ns = 55000000"
# a write replaces the boot value; a flag cleared clears its bit (NEW_FAIR_SLEEPERS is bit 0)
ok sysctl --cpus 2 --sysctl kernel.sched_latency_ns=30000000 --sched-features NO_NEW_FAIR_SLEEPERS
has "kernel.sched_latency_ns = 30000000"
has "kernel.sched_features = 113916"
# the mask written through the sysctl: every flag cleared
ok features --sysctl kernel.sched_features=0
[ "$(tr ' ' '\n' <"$T/out" | grep -c -v '^NO_')" -eq 1 ] || fail "features with mask 0: $(cat "$T/out")"
[ "$(tr ' ' '\n' <"$T/out" | grep -c '^NO_')" -eq 17 ] || fail "features with mask 0: not 17 NO_ words"

# --- repro fio, one disk under idle=poll, 200 ms: a 128 KiB request cycle is 10 us submit +
# (10 us command + 131072 B / 110 MB/s = 1191.56 us) + 10 us irq + 2 us switch = 1223.56 us, so
# 163 requests complete in 200 ms (the 164th at 200.66 ms): 163 x 131072 B / 0.2 s = 106.82 MB/s.
# The reader runs on CPU 1 (cpus_allowed=1-15, split) and, polling, needs no IPI. Poll spins
# every one of the 16 CPUs at the 15 W busy power; the fio machine counts power per
# core (core_power=1): 8 cores x 15 W = 120 W, 24 J in 0.2 s. ---
ok repro fio --disks 1 --governors poll --duration 200ms
grep -F "one job per disk (cpus_allowed=1-15,cpus_allowed_policy=split), 200ms simulated per run" "$T/out" >/dev/null || fail "repro fio: header"
row=$(grep -E '^ +1 idle=poll ' "$T/out") || fail "repro fio: no idle=poll row: $(cat "$T/out")"
set -- $row
[ "$3" = 106.82 ] || fail "repro fio: poll MB/s $3, expected 106.82"
[ "$4" = 107 ] || fail "repro fio: seed MB/s $4, expected the seed's 107"
[ "$5" = 1.000 ] && [ "$6" = 1.000 ] || fail "repro fio: poll against itself: $5 $6"
[ "$7" = 24.000 ] && [ "$8" = 120.00 ] || fail "repro fio: energy $7 J, power $8 W; expected 24, 120"
ok repro fio --disks 1 --governors poll --duration 200ms --json
grep -F '"bw_mb_s":106.823680' "$T/out" >/dev/null || fail "repro fio json: bw_mb_s is not 163 x 131072 / 0.2 s"

# --- replay-idle: a governor's exit latency is the sum over its entries of each state's exit
# latency (nehalem: POLL 0, C1 3, C1E 10, C3 20, C6 200 us); the table and the JSON agree ---
ok replay-idle "$TR" --cpuidle-governor poll,ladder,menu-tng
grep -F "2 CPUs, 366 idle periods, over the nehalem states" "$T/out" >/dev/null ||
	fail "replay-idle: header: $(head -1 "$T/out")"
awk '$1 == "poll" || $1 == "ladder" || $1 == "menu-tng" {
	lat["POLL"] = 0; lat["C1"] = 3; lat["C1E"] = 10; lat["C3"] = 20; lat["C6"] = 200
	want = 0; n = 0
	for (i = 6; i < NF; i += 2) { want += lat[$i] * $(i + 1); n += $(i + 1) }
	if (n != 366 || sprintf("%.1f", want) != $3) {
		print $1 ": exit " $3 " us, entries " n ", expected " want > "/dev/stderr"; bad = 1
	}
	rows++
} END { exit bad || rows != 3 }' "$T/out" || fail "replay-idle: exit latency is not the sum of the entries'"
grep -E '^poll +[0-9.]+ +0\.0 .* POLL 366$' "$T/out" >/dev/null || fail "replay-idle: poll takes POLL 366 times"
grep -E '^\(oracle\) ' "$T/out" >/dev/null || fail "replay-idle: no oracle row"
awk '$1 == "menu-tng" { print $2 }' "$T/out" >"$T/table_mj"
ok replay-idle "$TR" --cpuidle-governor menu-tng --json
awk -F: '/"energy_j"/ { gsub(/[ ,]/, "", $2); printf "%.3f\n", $2 * 1000; exit }' "$T/out" >"$T/json_mj"
cmp -s "$T/table_mj" "$T/json_mj" || fail "replay-idle: table $(cat "$T/table_mj") mJ, json $(cat "$T/json_mj")"

# --- repro sleepers and fork: the table prints the JSON's means ---
ok repro sleepers --seeds 1 --duration 3s
grep -F "1 seeds, mean [min, max]" "$T/out" >/dev/null || fail "repro sleepers: header"
for s in "2.6.31 NEW_FAIR_SLEEPERS" "2.6.31 NO_NEW_FAIR_SLEEPERS" "2.6.32 GENTLE_FAIR_SLEEPERS" \
	"2.6.32 NO_GENTLE_FAIR_SLEEPERS" "2.6.32 NO_FAIR_SLEEPERS"; do
	grep -E "^$s +[0-9]" "$T/out" >/dev/null || fail "repro sleepers: no row '$s'"
done
awk '/^2.6.31 NEW_FAIR_SLEEPERS / { print $3 }' "$T/out" >"$T/table_x"
ok repro sleepers --seeds 1 --duration 3s --json
awk -F: '/"setting":"2.6.31 NEW_FAIR_SLEEPERS"/ { f = 1 } f && /"mean"/ {
	gsub(/[ ,]/, "", $2); printf "%.2f\n", $2; exit }' "$T/out" >"$T/json_x"
cmp -s "$T/table_x" "$T/json_x" || fail "repro sleepers: xmodmap table $(cat "$T/table_x"), json $(cat "$T/json_x")"

ok repro fork --seeds 1
grep -F "kernel 2.6.31, 1 seeds" "$T/out" >/dev/null || fail "repro fork: header"
[ "$(sed '/under 2.6.31-bfs/q' "$T/out" | grep -c -E '^ +(2|4|8) +[0-9]+\.[0-9]{3} ')" -eq 3 ] || fail "repro fork: rows for 2, 4, 8 CPUs"
[ "$(sed -n '/under 2.6.31-bfs/,$p' "$T/out" | grep -c -E '^ +(2|4|8) +[0-9]+\.[0-9]{3} ')" -eq 3 ] || fail "repro fork: BFS rows for 2, 4, 8 CPUs"
sed '/under 2.6.31-bfs/q' "$T/out" | awk '$1 == 2 { print $2 " " $NF }' >"$T/table_b"
ok repro fork --seeds 1 --json
# the ratio is child-first over parent-first build time, of the first run (2 CPUs)
awk -F: '/"build_s_child_first"/ { f = 1 } /"build_s_parent_first"/ { f = 2 }
	/"mean"/ && f { gsub(/[ ,]/, "", $2); m[f] = $2; f = 0 }
	/"build_ratio_child_over_parent"/ { gsub(/[ ,]/, "", $2); r = $2; exit }
	END { d = m[1] / m[2] - r; if (d < -1e-6 || d > 1e-6) exit 1
		printf "%.3f %.3f\n", m[1], r }' "$T/out" >"$T/json_b" ||
	fail "repro fork json: the ratio is not build(1) / build(0)"
cmp -s "$T/table_b" "$T/json_b" || fail "repro fork: build table $(cat "$T/table_b"), json $(cat "$T/json_b")"

# --- run's table: the PM QoS limit keeps out the states whose exit latency is above it
# (nehalem C6: 200 us > 50 us); two fio jobs, one per disk, whose bandwidths add up ---
ok run --cpus 2 --machine nehalem --idle-driver intel_idle --pm-qos-latency-us 50 \
	--duration 200ms --no-progress \
	--workload fio:disks=2,bs=128k
grep -F "PM QoS latency 50 us" "$T/out" >/dev/null || fail "run: no PM QoS line"
[ "$(grep -c -E '^ +C6 +0 +0ns ' "$T/out")" -eq 2 ] || fail "run: C6 used beyond the 50 us limit"
grep -E '^prediction error \|predicted - measured\|: p50 ' "$T/out" >/dev/null || fail "run: no prediction line"
awk '/^fio: bw / { g = $3 } /^  job pid [0-9]+ disk [01]: bw / { s += $7; n++ }
	END { exit !(n == 2 && sprintf("%.2f", s) == sprintf("%.2f", g)) }' "$T/out" ||
	fail "run: the jobs' bandwidths do not add up to the group's: $(grep -E 'bw' "$T/out")"

# --- demo: the three 2009 results, one screen (at most 24 lines of at most 100 columns), each
# with a verdict; its figures are the experiments' own (repro fork and repro fio with one seed
# print the same build time and MB/s), and one valid JSON object ---
ok demo --no-progress
cp "$T/out" "$T/demo"
[ "$(grep -c '^   verdict: ' "$T/demo")" -eq 3 ] || fail "demo: three verdicts expected"
[ "$(wc -l <"$T/demo")" -le 24 ] || fail "demo: more than one screen ($(wc -l <"$T/demo") lines)"
awk 'length > 100 { exit 1 }' "$T/demo" || fail "demo: a line over 100 columns"
ok repro fork --seeds 1
b=$(awk '$1 == 2 { print $2 }' "$T/out")
grep -E "^   build time +$b s " "$T/demo" >/dev/null || fail "demo: build time is not repro fork's $b s"
ok repro fio --disks 1 --governors menu-tng
m=$(awk '$2 == "menu-tng" { printf "%.1f", $3 }' "$T/out")
grep -E "^   MB/s +[0-9.]+ +[0-9.]+ +$m\$" "$T/demo" >/dev/null || fail "demo: menu-tng MB/s is not repro fio's $m"
ok demo --json
if command -v python3 >/dev/null 2>&1; then
	python3 -c 'import json,sys; d=json.load(sys.stdin); assert set(d) == {"seed","sleepers","fork","fio"}' \
		<"$T/out" || fail "demo --json: not one object with seed, sleepers, fork, fio"
fi
[ "$(grep -c -F '"matches_2009":' "$T/out")" -eq 3 ] || fail "demo --json: three verdicts expected"
# another seed, other figures: they come out of the simulation
ok demo --seed 2
cmp -s "$T/out" "$T/demo" && fail "demo --seed 2 prints the same as seed 1"

# --- --cpuidle-disable takes stateN, N and the name, as sysfs shows them: the same run ---
ok run --machine core2 --cpuidle-disable C2 --workload periodic --duration 100ms
cp "$T/out" "$T/dis"
for s in state2 2; do
	ok run --machine core2 --cpuidle-disable "$s" --workload periodic --duration 100ms
	cmp -s "$T/out" "$T/dis" || fail "--cpuidle-disable $s differs from C2"
done
grep -E '^     C2 +\* ' "$T/dis" >/dev/null || fail "--cpuidle-disable C2: C2 not marked disabled"

# --- --machine sysfs on a machine without a cpuidle driver (a fake tree: current_driver none,
# no cpu0/cpuidle): HLT, as default_idle_call, POLL disabled, said on stderr ---
mkdir -p "$T/nodrv/cpuidle"
echo none >"$T/nodrv/cpuidle/current_driver"
"$SL" run --machine "sysfs:$T/nodrv" --workload periodic --duration 100ms >"$T/out" 2>"$T/err" ||
	fail "sysfs with no driver: exit status $?"
grep -F "no cpuidle driver (current_driver none)" "$T/err" >/dev/null || fail "sysfs none: no notice"
grep -F "cpuidle: driver sysfs:none" "$T/out" >/dev/null || fail "sysfs none: driver not sysfs:none"
grep -E '^     POLL +\* +0 ' "$T/out" >/dev/null || fail "sysfs none: POLL not disabled and unused"

# --- trace-out: the Chrome JSON closes the slice of a task still running at the end: a hog
# alone on one CPU runs the whole 10 ms, 10000 us ---
ok run --cpus 1 --workload hog --duration 10ms --trace-out "$T/hog.json"
grep -F '{"ph":"B","pid":1,"tid":0,"name":"hog-1","ts":0.000,' "$T/hog.json" >/dev/null &&
	grep -F '{"ph":"E","pid":1,"tid":0,"name":"hog-1","ts":10000.000}' "$T/hog.json" >/dev/null ||
	fail "trace-out json: the running hog's last slice: $(tail -2 "$T/hog.json")"
# a target that cannot be replaced (a directory): an I/O error, exit 1, the temporary removed
mkdir "$T/dir"
rc=0
"$SL" run --cpus 1 --workload hog --duration 1ms --trace-out "$T/dir" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && grep -F -e "--trace-out $T/dir: Is a directory" "$T/err" >/dev/null ||
	fail "trace-out onto a directory: exit $rc: $(cat "$T/err")"
[ ! -s "$T/out" ] && [ -z "$(ls -A "$T" | grep '^\.dir\.')" ] ||
	fail "trace-out onto a directory: output or temporary left"

# --- trace-stats: unknown events are counted by name; stdin reads as a file does ---
{
	echo "# tracer: nop"
	echo "  <idle>-0 [000] d..1. 1.000008: foo_event: x=1"
	echo "  <idle>-0 [000] d..1. 1.000009: foo_event: x=2"
	echo "  <idle>-0 [000] d..1. 1.000010: bar_event: y"
} >"$T/u.trace"
ok trace-stats "$T/u.trace"
grep -E '^  foo_event +2 \(unknown, skipped\)$' "$T/out" >/dev/null || fail "trace-stats: foo_event x2"
grep -E '^  bar_event +1 \(unknown, skipped\)$' "$T/out" >/dev/null || fail "trace-stats: bar_event x1"
ok trace-stats "$T/u.trace" --json
tr -d ' \n' <"$T/out" | grep -F '"unknown_events":{"foo_event":2,"bar_event":1}' >/dev/null ||
	fail "trace-stats json: unknown_events"
ok trace-stats "$T/u.trace" --json
sed 's|"trace":"[^"]*"|"trace":"X"|' "$T/out" >"$T/file.json"
rc=0
"$SL" trace-stats - --json <"$T/u.trace" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 0 ] || fail "trace-stats -: exit $rc: $(cat "$T/err")"
sed 's|"trace":"[^"]*"|"trace":"X"|' "$T/out" >"$T/stdin.json"
cmp -s "$T/file.json" "$T/stdin.json" || fail "trace-stats -: stdin and file differ"

# --- the run table: a comm of 15 characters keeps the columns; a group over 8 tasks says so ---
cat >"$T/long.json" <<'EOJ'
{ "tasks" : { "a_long_thread_n" : { "loop" : -1, "run" : 1000, "sleep" : 1000 } },
  "global" : { "duration" : 1, "calibration" : 100 } }
EOJ
ok run "$T/long.json" --workload hog:tasks=2 --duration 10ms
# the share column's % in the same column on the header's next line, every group and task row
awk '/^group / { on = 1; next } on && !NF { exit } on { p = index($0, "%");
	if (col && p != col) { print "misaligned: " $0; bad = 1 } col = p } END { exit bad }' \
	"$T/out" || fail "run table: columns move with a long comm: $(cat "$T/out")"
grep -E '^  a_long_thread_n +1 ' "$T/out" >/dev/null || fail "run table: no long comm row"
ok run --workload hog:tasks=9 --duration 10ms
grep -x -F "  (9 tasks; --per-task for all)" "$T/out" >/dev/null || fail "no per-task note"
[ "$(grep -c '^  hog ' "$T/out")" -eq 0 ] || fail "9 hogs listed without --per-task"
ok run --workload hog:tasks=9 --duration 10ms --per-task
[ "$(grep -c '^  hog  *1 ' "$T/out")" -eq 9 ] || fail "--per-task: 9 rows expected"
grep -F -e "--per-task for all" "$T/out" >/dev/null && fail "--per-task: the note stays"
# JSON: 256 tasks a group, all with --per-task
ok run --workload hog:tasks=300 --duration 1ms --json
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["groups"][0]["per_task"]) == 256' \
	"$T/out" || fail "JSON per_task: 256 expected"
ok run --workload hog:tasks=300 --duration 1ms --json --per-task
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))["groups"][0]["per_task"]) == 300' \
	"$T/out" || fail "JSON --per-task: 300 expected"
# sched_features in the JSON: debugfs's words without the trailing space
ok run --workload hog --duration 1ms --json
grep -F '"sched_features":"NEW_FAIR_SLEEPERS' "$T/out" | grep -v -F ' ",' >/dev/null ||
	fail "JSON sched_features ends with a space: $(grep -F sched_features "$T/out")"

echo "cli_outputs.sh: all checks passed"
