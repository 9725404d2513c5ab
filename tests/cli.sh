#!/bin/sh
# Command-line behaviour of schedlab: exact feature lines, exit codes and messages for bad input,
# JSON output, byte-identical reruns. Usage: sh tests/cli.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"

# ok NAME ARGS...: the command must exit 0; its stdout is in $T/out.
ok() {
	name=$1
	shift
	rc=0
	"$SL" "$@" >"$T/out" 2>"$T/err" || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$T/err" >&2
		fail "$name: schedlab $* exited $rc, expected 0"
	fi
}


# --- features ---
ok "features" features
printf '%s\n' "NEW_FAIR_SLEEPERS NO_NORMALIZED_SLEEPER ADAPTIVE_GRAN WAKEUP_PREEMPT START_DEBIT AFFINE_WAKEUPS CACHE_HOT_BUDDY SYNC_WAKEUPS NO_HRTICK NO_DOUBLE_TICK ASYM_GRAN LB_BIAS LB_WAKEUP_UPDATE ASYM_EFF_LOAD NO_WAKEUP_OVERLAP LAST_BUDDY OWNER_SPIN " >"$T/want"
cmp -s "$T/out" "$T/want" || fail "features: 2.6.31 default line differs: $(cat "$T/out")"

ok "features 2.6.32" features --kernel 2.6.32
printf '%s\n' "FAIR_SLEEPERS GENTLE_FAIR_SLEEPERS NO_NORMALIZED_SLEEPER START_DEBIT WAKEUP_PREEMPT ADAPTIVE_GRAN ASYM_GRAN NO_WAKEUP_SYNC NO_WAKEUP_OVERLAP NO_WAKEUP_RUNNING SYNC_WAKEUPS AFFINE_WAKEUPS SYNC_LESS NO_SYNC_MORE NO_NEXT_BUDDY LAST_BUDDY CACHE_HOT_BUDDY NO_ARCH_POWER NO_HRTICK NO_DOUBLE_TICK LB_BIAS LB_SHARES_UPDATE ASYM_EFF_LOAD OWNER_SPIN " >"$T/want"
cmp -s "$T/out" "$T/want" || fail "features --kernel 2.6.32: line differs: $(cat "$T/out")"

# 6.18: /sys/kernel/debug/sched/features of the target (mask 0x5F0E7DF), and a debugfs write
ok "features 6.18" features --kernel 6.18
printf '%s\n' "PLACE_LAG PLACE_DEADLINE_INITIAL PLACE_REL_DEADLINE RUN_TO_PARITY PREEMPT_SHORT NO_NEXT_BUDDY PICK_BUDDY CACHE_HOT_BUDDY DELAY_DEQUEUE DELAY_ZERO WAKEUP_PREEMPTION NO_HRTICK NO_HRTICK_DL NONTASK_CAPACITY TTWU_QUEUE SIS_UTIL NO_WARN_DOUBLE_CLOCK NO_RT_PUSH_IPI NO_RT_RUNTIME_SHARE NO_LB_MIN ATTACH_AGE_LOAD WA_IDLE WA_WEIGHT WA_BIAS UTIL_EST NO_LATENCY_WARN NI_RANDOM " >"$T/want"
cmp -s "$T/out" "$T/want" || fail "features --kernel 6.18: line differs: $(cat "$T/out")"
ok "features 6.18 NO_X Y" features --kernel 6.18 --sched-features 'NO_PLACE_LAG NEXT_BUDDY'
case $(cat "$T/out") in
"NO_PLACE_LAG PLACE_DEADLINE_INITIAL PLACE_REL_DEADLINE RUN_TO_PARITY PREEMPT_SHORT NEXT_BUDDY "*) ;;
*) fail "features --kernel 6.18 --sched-features 'NO_PLACE_LAG NEXT_BUDDY': got $(cat "$T/out")" ;;
esac
ok "sysctl 6.18" sysctl --kernel 6.18 --cpus 2
printf 'base_slice_ns = 1400000\nmigration_cost_ns = 500000\nnr_migrate = 32\ntunable_scaling = 1\nkernel.sched_rt_period_us = 1000000\nkernel.sched_rt_runtime_us = 950000\n' >"$T/want"
cmp -s "$T/out" "$T/want" || fail "sysctl --kernel 6.18: got $(cat "$T/out")"

ok "features --sched-features" features --sched-features NO_NEW_FAIR_SLEEPERS
case $(cat "$T/out") in
"NO_NEW_FAIR_SLEEPERS NO_NORMALIZED_SLEEPER ADAPTIVE_GRAN"*) ;;
*) fail "features --sched-features NO_NEW_FAIR_SLEEPERS: got $(cat "$T/out")" ;;
esac

# --- usage errors: status 2, a message naming the culprit, nothing on stdout ---
usage_error "--bogus" run --bogus
usage_error "sched_latency_ns" run --workload hog --sysctl kernel.sched_latency_ns=abc
usage_error "nosuchkey" run --workload hog:nosuchkey=1
usage_error "negative" run --workload hog --duration -1s
usage_error "nosuch" run --workload nosuch
usage_error "NO_FOO" run --workload hog --sched-features NO_FOO
usage_error "range" run --workload hog --sysctl kernel.sched_latency_ns=1
usage_error "kernel.nope" run --workload hog --at 1s:sysctl=kernel.nope=1
usage_error "2.6.99" run --kernel 2.6.99 --workload hog
usage_error "frobnicate" frobnicate

# --- JSON: two hogs on one CPU share it evenly ---
ok "json" run --cpus 1 --workload hog:tasks=2 --duration 1s --json
n=$(grep -o '"cpu_share":0\.5' "$T/out" | wc -l | tr -d ' ')
[ "$n" -ge 2 ] || fail "json: expected 2 per-task \"cpu_share\":0.5 entries, found $n"
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool <"$T/out" >/dev/null 2>"$T/err" ||
		fail "json: output does not parse: $(cat "$T/err")"
fi

# --- determinism: same seed, same bytes; another seed, other bytes ---
ok "seed 7 (1)" run --cpus 4 --workload make:jobs=4,count=40 --seed 7 --json
mv "$T/out" "$T/seed7a"
ok "seed 7 (2)" run --cpus 4 --workload make:jobs=4,count=40 --seed 7 --json
mv "$T/out" "$T/seed7b"
ok "seed 8" run --cpus 4 --workload make:jobs=4,count=40 --seed 8 --json
mv "$T/out" "$T/seed8"
cmp -s "$T/seed7a" "$T/seed7b" || fail "determinism: two runs with --seed 7 differ"
if cmp -s "$T/seed7a" "$T/seed8"; then
	fail "determinism: --seed 7 and --seed 8 give identical output"
fi

# determinism with C-states, a governor with history, and random I/O
for i in 1 2; do
	ok "idle determinism $i" run --machine nehalem --cpus 4 --cpuidle-governor teo --seed 3 \
		--workload make:jobs=6,count=50 --duration 1s --json \
		--workload fio:disks=2,ioengine=libaio,iodepth=2,rw=randread,bs=4k
	mv "$T/out" "$T/idle$i"
done
cmp -s "$T/idle1" "$T/idle2" || fail "determinism: two identical runs with C-states and I/O differ"

# --- trace export: ftrace text and Chrome JSON, in place only when complete ---
ok "trace-out text" run --kernel 6.18 --cpus 2 --machine nehalem --workload pingpong:count=3 --trace-out "$T/run.trace"
# the kernel's header counts the event lines; the idle task is swapper/N (6.18)
n=$(grep -vc '^#' "$T/run.trace")
grep -F "# entries-in-buffer/entries-written: $n/$n   #P:2" "$T/run.trace" >/dev/null ||
	fail "trace-out: header does not count the $n event lines"
grep -F "prev_comm=swapper/" "$T/run.trace" >/dev/null || fail "trace-out: no swapper/N"
# every layout the writers produce reads back with every switch and wake-up counted
for k in 2.6.32 6.18; do
	for e in trace systrace report; do
		f="$T/k$k.$e"
		ok "trace-out $k .$e" run --kernel "$k" --cpus 2 --workload make:jobs=3,count=6 \
			--duration 50ms --trace-out "$f"
		ok "trace-stats $k .$e" trace-stats "$f" --json
		for ev in sched_switch sched_wakeup_new; do
			g=$(grep -c " $ev:" "$f" || true)
			grep -F "\"$ev\":$g," "$T/out" >/dev/null ||
				fail "trace-out $k .$e: $ev read $(grep -F "\"$ev\"" "$T/out"), grep $g"
		done
	done
done
[ -s "$T/run.trace" ] || fail "trace-out: no file"
[ ! -e "$T/run.trace.tmp" ] || fail "trace-out: temporary file left behind"
head -1 "$T/run.trace" | grep -F "# tracer: nop" >/dev/null || fail "trace-out: no tracer header"
n=$(grep -c "sched_waking:" "$T/run.trace" || true)
m=$(grep -c "sched_wakeup:" "$T/run.trace" || true)
[ "$n" -gt 0 ] && [ "$n" -eq "$m" ] || fail "trace-out: sched_waking ($n) should precede every sched_wakeup ($m)"
grep -F "cpu_idle: state=4294967295" "$T/run.trace" >/dev/null || fail "trace-out: no idle exits"
ok "trace-out json" run --cpus 2 --machine nehalem --workload pingpong:count=3 --trace-out "$T/run.json"
grep -F '"traceEvents"' "$T/run.json" >/dev/null || fail "trace-out json: no traceEvents"
if command -v python3 >/dev/null 2>&1; then
	python3 -m json.tool <"$T/run.json" >/dev/null || fail "trace-out json: does not parse"
fi
# a missing directory: the output cannot be written (exit 1, as -o's); an empty name is bad
# input (exit 2, as -o's)
rc=0
"$SL" run --workload hog --duration 10ms --trace-out "$T/no/such/dir/x" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && grep -F -e "--trace-out $T/no/such/dir/x: No such file or directory" "$T/err" >/dev/null ||
	fail "trace-out into a missing directory: exit $rc: $(cat "$T/err")"
usage_error "--trace-out: an empty file name" run --workload hog --duration 10ms --trace-out ''
usage_error "--output: an empty file name" run --workload hog --duration 10ms -o ''

# --- traces in: every shared trace reads; replay-idle's oracle is the lowest energy ---
D=$(dirname "$0")/data
for f in "$D"/*.trace.xz; do
	ok "trace-stats $f" trace-stats "$f" --json
	grep -F '"sched_switch"' "$T/out" >/dev/null || fail "trace-stats $f: no sched_switch count"
done
ok "replay-idle" replay-idle "$D/idle-sleep-loop.trace.xz" --machine nehalem --json
for g in poll ladder menu-2.6.31 menu-tng menu teo haltpoll oracle; do
	grep -F "\"governor\":\"$g\"" "$T/out" >/dev/null || fail "replay-idle: no $g"
done
if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/out" <<'PYEOF' || fail "replay-idle: a governor used less energy than the oracle"
import json, sys
d = json.load(open(sys.argv[1]))
for g in d["governors"]:
    assert g["energy_j"] >= g["oracle_energy_j"] - 1e-12, g["governor"]
PYEOF
fi
# record: on a machine with root and tracefs it records; elsewhere it must say why, exit 2
rc=0
"$SL" record -o "$T/rec.trace" -- sh -c 'sleep 0.02' >"$T/out" 2>"$T/err" || rc=$?
if [ "$rc" -eq 0 ]; then
	head -1 "$T/rec.trace" | grep -F "# tracer" >/dev/null || fail "record: no trace header"
	ok "trace-stats of a recording" trace-stats "$T/rec.trace"
else
	[ "$rc" -eq 2 ] || fail "record: exit status $rc"
	grep -F "record:" "$T/err" >/dev/null || fail "record: no message"
	[ ! -e "$T/rec.trace" ] || fail "record: a file left after a failure"
fi
usage_error "give -o" record -- true
usage_error "no-such" trace-stats "$T/no-such.trace"
usage_error "replay-idle" replay-idle

# --- listings and help ---
ok "workloads" workloads
for w in hog periodic pingpong make mutex; do
	grep -E "^$w([^a-z_]|$)" "$T/out" >/dev/null || fail "workloads: '$w' not listed"
done
ok "params" params
# its own list, not another command's (a command runs the handler of its table row)
grep -E "^hz +1000 " "$T/out" >/dev/null || fail "params: no hz row: $(head -1 "$T/out")"
ok "--help" --help

# --- cpuidle ---
ok "machines" machines
for m in nehalem nehalem-acpi core2 skylake skylake-server sapphire-rapids vm-haltpoll sysfs; do
	grep -E "^$m " "$T/out" >/dev/null || fail "machines: '$m' not listed"
done
ok "governors" governors
for g in poll ladder menu-2.6.31 menu-tng menu teo haltpoll oracle; do
	grep -E "^$g " "$T/out" >/dev/null || fail "governors: '$g' not listed"
done
usage_error "nosuchmachine" run --workload hog --machine nosuchmachine
usage_error "/nonexistent" run --workload hog --machine sysfs:/nonexistent
usage_error "C7" run --workload hog --machine nehalem --cpuidle-disable C7
usage_error "bogusgov" run --workload hog --cpuidle-governor bogusgov
usage_error "pm-qos" run --workload hog --pm-qos-latency-us -3
usage_error "idle" run --workload hog --idle halt
usage_error "nope" run --workload hog --cpuidle-param nope=1
ok "menu-tng json" run --machine nehalem --cpuidle-governor menu-tng \
	--workload periodic:period=10ms,run=1ms --duration 1s --json
for k in '"residency_share"' '"above"' '"below"' '"energy_j"' '"average_power_w"' \
	'"agreement"' '"energy_ratio"' '"wake_delay_ns"' '"governor":"menu-tng"'; do
	grep -F "$k" "$T/out" >/dev/null || fail "menu-tng json: no $k"
done

# --- repro fio: the ordering the 2009 result shows ---
# the exit-latency mechanism alone: the intel_idle table, completions on the issuer's CPU
ok "repro fio" repro fio --disks 1,2 --duration 1s --json --idle-driver intel_idle \
	--irq-affinity issuer
if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/out" <<'PYEOF' || fail "repro fio: the figures do not hold"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
by = {(r["disks"], r["governor"]): r for r in runs}
for d in (1, 2):
    poll, old, tng = by[(d, "poll")], by[(d, "menu-2.6.31")], by[(d, "menu-tng")]
    assert tng["ratio_to_poll"] >= 0.95, (d, tng["ratio_to_poll"])
    assert old["ratio_to_poll"] < tng["ratio_to_poll"], (d, old["ratio_to_poll"])
    assert tng["energy_j"] < poll["energy_j"], (d, tng["energy_j"], poll["energy_j"])
PYEOF
	# acpi_idle's bus-master check, when on, demotes the old menu's C3 entries while a disk
	# transfers (nearly always at queue depth 1); the fio machine has it off (BM_STS not set
	# by the HBA's DMA: the --explore choice), so nothing is demoted by default
	ok "repro fio acpi" repro fio --disks 1 --duration 200ms --json --cpuidle-param bm_check=1
	python3 - "$T/out" <<'PYEOF' || fail "repro fio: acpi_idle defaults do not show"
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
old = [r for r in runs if r["governor"] == "menu-2.6.31"][0]
assert old["idle_driver"] == "nehalem-acpi", old["idle_driver"]
assert old["bm_demoted"] > 0.9, old["bm_demoted"]
PYEOF
	ok "repro fio machine" repro fio --disks 1 --duration 200ms --json
	python3 - "$T/out" <<'PYEOF' || fail "repro fio: the fio machine does not show"
import json, sys
r = json.load(open(sys.argv[1]))
assert "bm_check=0" in r["machine_params"] and "hba_mbps=595" in r["machine_params"]
old = [x for x in r["runs"] if x["governor"] == "menu-2.6.31"][0]
assert old["bm_demoted"] == 0, old["bm_demoted"]
PYEOF
fi
# --explore on a small grid: one unknown (three background wake-up rates), 27 short runs
ok "repro fio explore" repro fio --explore --unknowns bg_wakeup --duration 100ms --jobs 2 --json
if command -v python3 >/dev/null 2>&1; then
	python3 - "$T/out" <<'PYEOF' || fail "repro fio --explore: the report does not hold"
import json, sys
r = json.load(open(sys.argv[1]))
cs = r["combinations"]
assert r["experiment"] == "fio-explore" and len(cs) == 3, len(cs)
assert sorted(c["settings"]["bg_wakeup"] for c in cs) == ["100ms", "20ms", "50ms"]
assert [c["rank"] for c in cs] == [1, 2, 3]
# sorted: the reproducing ones first, then by score
keys = [(not c["reproduces"], not c["power_ok"], c["score"]) for c in cs]
assert keys == sorted(keys), keys
assert r["reproducing"] == sum(c["reproduces"] for c in cs)
ex = [u["name"] for u in r["unknowns"] if u["explored"]]
assert ex == ["bg_wakeup"], ex
# the score by its definition: the largest residual over its tolerance, against the seed's
# 107/85/105, 215/123/209, 590/320/585 MB/s
seed = [(107, 85, 105), (215, 123, 209), (590, 320, 585)]
for c in cs:
    assert len(c["poll_bw_mb_s"]) == 3 and len(c["menu_2_6_31_ratio_to_poll"]) == 3
    want = 0
    for d in range(3):
        p, o, t = seed[d]
        want = max(want, abs(c["poll_bw_mb_s"][d] - p) / p / 0.10,
                   abs(c["menu_2_6_31_ratio_to_poll"][d] - o / p) / 0.05,
                   abs(c["menu_tng_ratio_to_poll"][d] - t / p) / 0.05)
    assert abs(c["score"] - want) < 1e-4, (c["score"], want)
    pw = c["average_power_w"]
    assert c["power_ok"] == all(pw[d][2] >= pw[d][1] for d in range(3))
    assert c["reproduces"] == (c["score"] <= 1 and c["power_ok"])
PYEOF
fi
usage_error "is not an unknown" repro fio --explore --unknowns bogus
usage_error "apply with --explore" repro fio --jobs 2
usage_error "do not apply" repro fio --explore --disks 1
usage_error "at least 100us" run --workload hog --param bg_wakeup=1ns
usage_error "expected 0..100000" run --workload hog --param hba_mbps=100001
usage_error "idle-driver" run --workload hog --machine nehalem --idle-driver bogus
usage_error "expected 0 or 1" run --workload hog --param smt_resolve=2
usage_error "does not apply" repro sleepers --param bcast_lock=0ns
# run under 2.6.31 on nehalem reports acpi_idle's counters; 6.18 does not run that path
ok "run acpi" run --cpus 2 --machine nehalem --workload fio:disks=2 --duration 50ms --no-progress
grep -E "^acpi_idle: [0-9]+ C3-type entries demoted" "$T/out" >/dev/null || fail "run: no acpi_idle line"
ok "run 6.18 nehalem" run --kernel 6.18 --cpus 2 --machine nehalem --workload fio:disks=2 \
	--duration 50ms --no-progress
grep -F "acpi_idle:" "$T/out" >/dev/null && fail "run 6.18: acpi_idle line"
usage_error "not an acpi_idle table" run --workload hog --machine skylake --cpuidle-param bm_check=0
usage_error "latency_factor" run --workload hog --machine nehalem --cpuidle-param latency_factor=0
ok "repro sleepers" repro sleepers --seeds 2 --json
grep -F '"setting":"2.6.31 NO_NEW_FAIR_SLEEPERS"' "$T/out" >/dev/null || fail "repro sleepers: no setting"
ok "repro fork" repro fork --seeds 2 --json
grep -F '"build_ratio_child_over_parent"' "$T/out" >/dev/null || fail "repro fork: no ratio"
usage_error "seeds" repro fork --seeds 0
usage_error "bogus" repro fio --governors poll,bogus
usage_error "disk count" repro fio --disks 0
usage_error "experiment" repro nosuch
usage_error "bs" run --workload fio:bs=1000
usage_error "direct=0" run --workload fio:direct=0
usage_error "libaio" run --workload fio:iodepth=4
usage_error "irq-affinity" run --workload hog --irq-affinity 99

echo "cli.sh: all checks passed"
