#!/bin/sh
# schedlab compare: one set of workloads under several configurations, a row per task. The
# figures checked are derived by hand: two nice-0 hogs sharing one CPU under each fair release,
# and the hand-written trace tests/data/trace-workload/wakeup-preempt.trace (derived in
# tests/repro_workload.sh) by its recorded pids, with trace-stats' figures as "recorded"; then
# the JSON, the plot, determinism and the errors (exit status 2).
# Usage: sh tests/compare.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data
W=$D/trace-workload/wakeup-preempt.trace

# --- two nice-0 hogs (two groups) on one CPU for 1 s: each has half of the CPU under every fair
# release (CFS gives equal weights equal shares; EEVDF the same, within a slice). Their switches:
# 2.6.31 on 1 CPU, sched_latency 20 ms: a 10 ms slice each, 1000 / 20 = 50 switch-outs each;
# 6.18 checks its 0.75 ms base slice at the HZ=250 tick, so each runs 4 ms: 1000 / 8 = 125 ---
"$SL" compare --cpus 1 --duration 1s --kernel 2.6.31,2.6.32,6.18 --seeds 2 \
	--workload hog --workload hog --json >"$T/hogs.json" || fail "compare hogs: exit $?"
python3 - "$T/hogs.json" <<'PYEOF' || fail "two hogs on one CPU: 50% each"
import json, sys
d = json.load(open(sys.argv[1]))
assert [c["config"] for c in d["configurations"]] == ["2.6.31", "2.6.32", "6.18"], d
assert [c["cpus"] for c in d["configurations"]] == [1, 1, 1]
assert d["seeds"] == [1, 2]
rows = d["rows"]
assert [(r["group"], r["comm"], r["pid"], r["recorded"]) for r in rows] == \
    [("hog", "hog", None, None), ("hog#2", "hog", None, None)], rows
for r in rows + [d["total"]]:
    assert len(r["configurations"]) == 3
for ci in range(3):
    a, b = (r["configurations"][ci] for r in rows)
    for x in (a, b):
        assert x["tasks"]["mean"] == 1
        assert len(x["cpu_share_pct"]["per_seed"]) == 2
        # half of one CPU, within 1% (the switch costs, the last slice)
        assert 49.0 <= x["cpu_share_pct"]["min"] <= x["cpu_share_pct"]["max"] <= 51.0, x
        assert 490 <= x["cpu_ms"]["mean"] <= 510, x
        assert x["completion_ms"] is None  # a hog never exits
    want = {0: 50, 2: 125}.get(ci)
    if want is not None:
        assert a["context_switches"]["per_seed"] == b["context_switches"]["per_seed"] == [want] * 2, (ci, a, b)
    t = d["total"]["configurations"][ci]
    assert t["tasks"]["mean"] == 2
    assert abs(t["cpu_ms"]["mean"] - a["cpu_ms"]["mean"] - b["cpu_ms"]["mean"]) < 1e-5
    assert t["cpu_share_pct"]["mean"] <= 100.0
    assert t["context_switches"]["mean"] == (a["context_switches"]["mean"]
                                             + b["context_switches"]["mean"])
PYEOF
"$SL" compare --cpus 1 --duration 1s --kernel 2.6.31,6.18 --workload hog --workload hog \
	>"$T/hogs" || fail "compare hogs (table)"
grep -F '% of 1 CPU' "$T/hogs" >/dev/null || fail "the share does not say of what: $(cat "$T/hogs")"
grep -E '^2\.6\.31 +1 CPU +--kernel 2\.6\.31 --cpus 1 --duration 1s$' "$T/hogs" >/dev/null ||
	fail "the configurations' words: $(cat "$T/hogs")"
grep -E '^total +\(every task\) +2\.6\.31 +2 ' "$T/hogs" >/dev/null || fail "total: $(cat "$T/hogs")"

# --- the trace by its recorded pids, NEW_FAIR_SLEEPERS on and off as repro sleepers runs them
# (tests/repro_workload.sh derives ia's figures: CPU 10 ms, p50 0 and 0.499 ms, completion
# 96.509 and 101.000 ms) ---
"$SL" compare --cpus 2 --machine core2 --duration 200ms --workload "trace:file=$W" \
	--config 'sched-features=NEW_FAIR_SLEEPERS,label=nfs' \
	--config 'sched-features=NO_NEW_FAIR_SLEEPERS,label=nonfs' >"$T/tr" ||
	fail "compare trace: $(cat "$T/tr")"
grep -E '^trace +102 +ia +recorded +1 +10\.00 ' "$T/tr" >/dev/null ||
	fail "ia's recorded line: $(cat "$T/tr")"
grep -E '^ +nfs +1 +10\.00 .* 0\.000 .* 96\.51$' "$T/tr" >/dev/null ||
	fail "ia under NEW_FAIR_SLEEPERS: $(cat "$T/tr")"
grep -E '^ +nonfs +1 +10\.00 .* 0\.499 .* 101\.00$' "$T/tr" >/dev/null ||
	fail "ia under NO_NEW_FAIR_SLEEPERS: $(cat "$T/tr")"
for p in 100 101 102; do
	grep -E "^trace +$p " "$T/tr" >/dev/null || fail "no row of pid $p: $(cat "$T/tr")"
done
"$SL" trace-stats --json "$W" >"$T/ts.json" || fail "trace-stats"
"$SL" compare --cpus 2 --duration 200ms --workload "trace:file=$W" --kernel 2.6.31,6.18 \
	--seeds 2 --json >"$T/tr.json" || fail "compare trace --json"
python3 - "$T/tr.json" "$T/ts.json" <<'PYEOF' || fail "compare trace --json: the figures above"
import json, sys
d = json.load(open(sys.argv[1]))
ts = {t["pid"]: t for t in json.load(open(sys.argv[2]))["per_task"]}
assert [(r["pid"], r["comm"]) for r in d["rows"]] == [(100, "hog"), (101, "hog"), (102, "ia")]
tot = 0
for r in d["rows"]:
    rec, t = r["recorded"], ts[r["pid"]]
    # recorded: what trace-stats counts for that pid
    assert abs(rec["cpu_ms"] - t["cpu_time_ns"] / 1e6) < 1e-6, (rec, t)
    assert rec["context_switches"] == t["context_switches"], (rec, t)
    assert rec["wakeups"] == t["wakeups"]
    # counts, integers as trace-stats prints them; the share over the trace's length
    assert type(rec["context_switches"]) is int and type(rec["wakeups"]) is int, rec
    span = json.load(open(sys.argv[2]))["duration_ns"]
    assert abs(rec["cpu_share_pct"] - 100 * t["cpu_time_ns"] / span) < 1e-5, (rec, span)
    tot += rec["cpu_ms"]
    for c in r["configurations"]:
        assert c["tasks"]["per_seed"] == [1, 1]
        assert c["completion_ms"] is not None  # every replayed task exits
assert abs(d["total"]["recorded"]["cpu_ms"] - tot) < 1e-5
ia = d["rows"][2]
assert ia["recorded"]["cpu_ms"] == 10.0
for c in ia["configurations"]:
    assert c["cpu_ms"]["mean"] == 10.0, c
PYEOF

# --- a list times each --config; the same output twice; the plot ---
"$SL" compare --cpus 2 --duration 100ms --workload "trace:file=$W" --kernel 2.6.31,2.6.32 \
	--config 'sysctl=kernel.sched_child_runs_first=1,label=crf1' --config 'label=plain' \
	--plot "$T/p.svg" >"$T/a" || fail "compare with --plot"
"$SL" compare --cpus 2 --duration 100ms --workload "trace:file=$W" --kernel 2.6.31,2.6.32 \
	--config 'sysctl=kernel.sched_child_runs_first=1,label=crf1' --config 'label=plain' >"$T/b"
cmp -s "$T/a" "$T/b" || fail "compare: two runs differ"
[ "$(grep -c -E '^(2\.6\.3[12] (crf1|plain)) +2 CPUs' "$T/a")" -eq 4 ] ||
	fail "2 kernels x 2 --config: 4 configurations expected: $(cat "$T/a")"
grep -E '^2\.6\.32 crf1 +2 CPUs +--kernel 2\.6\.32 --cpus 2 --duration 100ms --sysctl kernel\.sched_child_runs_first=1$' \
	"$T/a" >/dev/null || fail "a --config's options: $(cat "$T/a")"
# a configuration named by words longer than 24 characters is numbered, its words listed
"$SL" compare --duration 10ms --workload hog --config kernel=2.6.31 \
	--config 'kernel=6.18,sysctl=base_slice_ns=3000000' >"$T/c" || fail "compare: long names"
grep -E '^kernel=2\.6\.31 +2 CPUs +--kernel 2\.6\.31 --duration 10ms$' "$T/c" >/dev/null &&
	grep -E '^c2 +2 CPUs +--kernel 6\.18 --duration 10ms --sysctl base_slice_ns=3000000$' \
		"$T/c" >/dev/null || fail "compare: the configurations' names: $(cat "$T/c")"
python3 - "$T/p.svg" <<'PYEOF' || fail "the plot is not an SVG with a bar per row and configuration"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg")
rects = [e for e in root.iter() if e.tag.endswith("rect")]
# the background, 5 legend boxes, per panel 3 rows x 4 configurations (+ recorded for CPU)
assert len(rects) == 1 + 5 + 3 * 5 + 3 * 4, len(rects)
PYEOF

# --- a recording with its machine.conf (tests/data/corpus: Linux 6.18.44, 2 CPUs, cpuidle
# driver haltpoll): compare replays it on the machine run replays it on, the recorded kernel,
# its CPU count and its idle (vm-haltpoll) where the configuration does not say, so that each
# column's figures are run's for the same words, to the nanosecond ---
R=$D/corpus/make-j8-high.trace.xz
"$SL" compare --workload "trace:file=$R" --json >"$T/rec.json" 2>/dev/null ||
	fail "compare of a recording: exit $?"
"$SL" compare --kernel 2.6.31,6.18 --workload "trace:file=$R" --json >"$T/rec2.json" \
	2>/dev/null || fail "compare --kernel 2.6.31,6.18 of a recording: exit $?"
"$SL" run --workload "trace:file=$R" --json >"$T/run.json" 2>/dev/null || fail "run: exit $?"
"$SL" run --kernel 2.6.31 --workload "trace:file=$R" --json >"$T/run31.json" 2>/dev/null ||
	fail "run --kernel 2.6.31: exit $?"
python3 - "$T/rec.json" "$T/rec2.json" "$T/run.json" "$T/run31.json" <<'PYEOF' ||
import json, sys
rec, rec2, run, run31 = (json.load(open(f)) for f in sys.argv[1:])
# the recorded kernel and CPUs, as run takes them (machine.conf: kernel_release 6.18.44, cpus 2)
assert [(c["kernel"], c["cpus"]) for c in rec["configurations"]] == [("6.18", 2)], rec["configurations"]
assert (run["kernel"], run["cpus"], run31["kernel"]) == ("6.18", 2, "2.6.31"), (run["kernel"], run31["kernel"])
assert [(c["kernel"], c["cpus"]) for c in rec2["configurations"]] == \
    [("2.6.31", 2), ("6.18", 2)], rec2["configurations"]
# the words of each column say the machine it took (vm-haltpoll for the haltpoll driver)
assert [c["args"] for c in rec2["configurations"]] == \
    ["--kernel 2.6.31 --cpus 2 --machine vm-haltpoll",
     "--kernel 6.18 --cpus 2 --machine vm-haltpoll"], rec2["configurations"]
def same(col, r, what):
    g = r["groups"][0]
    t = col
    assert round(t["cpu_ms"]["mean"] * 1e6) == g["cpu_time_ns"], (what, t["cpu_ms"], g["cpu_time_ns"])
    assert t["wakeups"]["mean"] == g["wakeups"], (what, t["wakeups"], g["wakeups"])
    assert round(t["wakeup_latency_max_ms"]["mean"] * 1e6) == g["wakeup_latency_ns"]["max"], what
    assert round(t["completion_ms"]["mean"] * 1e6) == g["completion_ns"], what
    assert t["tasks"]["mean"] == g["tasks"], what
same(rec["total"]["configurations"][0], run, "compare, no options")
same(rec2["total"]["configurations"][1], run, "compare --kernel 6.18")
same(rec2["total"]["configurations"][0], run31, "compare --kernel 2.6.31")
PYEOF
	fail "compare's figures for a recording are not run's"
# a sysctl only the recorded kernel has (6.18's migration_cost_ns), without --kernel: run
# checks it against the release it replays under, as compare does, and both give one figure
"$SL" run --sysctl migration_cost_ns=0 --workload "trace:file=$R" --json >"$T/sy.json" \
	2>"$T/err" || fail "run --sysctl migration_cost_ns=0 of a 6.18 recording: $(cat "$T/err")"
"$SL" compare --sysctl migration_cost_ns=0 --workload "trace:file=$R" --json >"$T/syc.json" \
	2>/dev/null || fail "compare --sysctl migration_cost_ns=0: exit $?"
python3 - "$T/syc.json" "$T/sy.json" <<'PYEOF' || fail "run and compare with a 6.18 sysctl"
import json, sys
c, r = (json.load(open(f)) for f in sys.argv[1:])
assert r["kernel"] == "6.18" and r["sysctl"]["migration_cost_ns"] == 0, r["sysctl"]
t, g = c["total"]["configurations"][0], r["groups"][0]
assert round(t["cpu_ms"]["mean"] * 1e6) == g["cpu_time_ns"], (t["cpu_ms"], g["cpu_time_ns"])
PYEOF
# a recording whose vCPUs halted (cpuidle driver none: vm-hlt, POLL off): the column's words
# say so, and run with exactly those words gives its figures
cp "$R" "$T/hlt.trace.xz"
sed 's/^cpuidle_driver .*/cpuidle_driver none/' "$D/corpus/make-j8-high.trace.machine.conf" \
	>"$T/hlt.trace.machine.conf"
"$SL" compare --workload "trace:file=$T/hlt.trace.xz" --json >"$T/hlt.json" 2>/dev/null ||
	fail "compare of a halting recording: exit $?"
words=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["configurations"][0]["args"])' \
	"$T/hlt.json")
[ "$words" = "--kernel 6.18 --cpus 2 --machine vm-hlt --cpuidle-disable POLL" ] ||
	fail "the words of a halting recording's column: $words"
# shellcheck disable=SC2086
"$SL" run $words --workload "trace:file=$T/hlt.trace.xz" --json >"$T/hltrun.json" 2>/dev/null ||
	fail "run $words: exit $?"
python3 - "$T/hlt.json" "$T/hltrun.json" <<'PYEOF' || fail "run with a column's words is not that column"
import json, sys
c, r = (json.load(open(f)) for f in sys.argv[1:])
t, g = c["total"]["configurations"][0], r["groups"][0]
assert round(t["cpu_ms"]["mean"] * 1e6) == g["cpu_time_ns"], (t["cpu_ms"], g["cpu_time_ns"])
assert round(t["completion_ms"]["mean"] * 1e6) == g["completion_ns"], (t, g)
PYEOF

# --- progress: a line per run on stderr when it is a terminal (script(1) gives one), none with
# --no-progress, and the report the same either way ---
if command -v script >/dev/null 2>&1; then
	pc="\"$SL\" compare --workload hog --duration 10ms --kernel 2.6.31,6.18 --seeds 2"
	script -qc "$pc >'$T/p1.out'" /dev/null >"$T/p1.tty" </dev/null || fail "compare on a terminal"
	grep -q "compare: run 4 of 4 (6.18, seed 2)" "$T/p1.tty" || fail "no progress: $(cat "$T/p1.tty")"
	script -qc "$pc --no-progress >'$T/p2.out'" /dev/null >"$T/p2.tty" </dev/null ||
		fail "compare --no-progress on a terminal"
	! grep -q "compare: run" "$T/p2.tty" || fail "progress with --no-progress"
	eval "$pc" >"$T/p3.out" 2>"$T/p3.err" || fail "compare off a terminal"
	[ ! -s "$T/p3.err" ] || fail "progress off a terminal: $(cat "$T/p3.err")"
	cmp -s "$T/p1.out" "$T/p3.out" && cmp -s "$T/p2.out" "$T/p3.out" ||
		fail "the report differs with progress shown"
fi

# --- errors: exit status 2, nothing on stdout ---
usage_error "tasks=nomatch matches no task of the trace" compare --duration 100ms \
	--workload "trace:file=$W,tasks=nomatch" --plot "$T/none.svg"
usage_error "start=1s is not before the run's end (0.1s)" compare --duration 100ms \
	--workload hog:start=1s --kernel 2.6.31,6.18
usage_error "unknown key 'kernle'; did you mean 'kernel'?" compare \
	--workload hog --config kernle=6.18
usage_error "--kernel already gives a list" compare --workload hog --kernel 2.6.31,6.18 \
	--config kernel=2.6.32
usage_error "configuration 2.6.99" compare --workload hog --kernel 2.6.31,2.6.99
usage_error "--seeds: '17' is not a count 1..16" compare --workload hog --seeds 17
usage_error "give at least one --workload" compare --kernel 2.6.31,6.18
# two configurations of one name: their rows could not be told apart (both were printed)
usage_error "compare: configurations 1 and 2 are both '6.18' (each needs its own values or label=)" \
	compare --workload hog --duration 10ms --kernel 6.18,6.18
usage_error "compare: configurations 1 and 2 are both 'a'" compare --workload hog --duration 10ms \
	--config kernel=6.18,label=a --config kernel=2.6.31,label=a
usage_error "is not KEY=VALUE" compare --workload hog --config 6.18
[ ! -e "$T/none.svg" ] || fail "a plot of a refused run"
# a plot that cannot be written: exit status 1, no report
rc=0
"$SL" compare --workload hog --duration 10ms --cpus 1,2 --plot "$T/no/p.svg" >"$T/out" \
	2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && grep -F -- "--plot: $T/no/p.svg" "$T/err" >/dev/null ||
	fail "an unwritable --plot: exit status $rc, $(cat "$T/out" "$T/err")"
# a list of numbers names its configurations with the option
"$SL" compare --workload hog --duration 10ms --cpus 1,2 >"$T/out" || fail "--cpus 1,2"
grep -E '^cpus=1 +1 CPU +--kernel 2\.6\.31 --cpus 1 --duration 10ms$' "$T/out" >/dev/null ||
	fail "--cpus 1,2: $(cat "$T/out")"
echo "compare.sh: all checks passed"
