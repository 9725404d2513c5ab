#!/bin/sh
# repro EXP --workload: an experiment's settings with a trace workload in place of its own
# workloads, reported per workload group and per comm of the trace's tasks. The figures of the
# hand-written trace tests/data/trace-workload/wakeup-preempt.trace are derived below; the real
# capture latency-under-nice-make.trace.xz checks that the per-comm rows add up to the group's;
# then the other experiments' settings, and the errors.
# Usage: sh tests/repro_workload.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data
W=$D/trace-workload/wakeup-preempt.trace

# --- sleepers: the table, one row per setting in each block ---
"$SL" repro sleepers --seeds 1 --duration 200ms --workload "trace:file=$W" >"$T/out" ||
	fail "repro sleepers --workload: $(cat "$T/out")"
for b in trace trace/hog trace/ia; do
	n=$(awk -v b="$b" '$0 == b { on = 1; next } on && /^$/ { on = 0 } on && !/^setting /' \
		"$T/out" | wc -l)
	[ "$n" -eq 8 ] || fail "block $b: $n rows, 8 settings expected: $(cat "$T/out")"
done
# ia (the trace-workload extraction): RUN 1 ms, then 9 x (SLEEP 9.501 ms, RUN 1 ms), exit; the
# two nice-19 hogs keep both CPUs busy. The three start together on 2 CPUs: ia shares CPU 0 with
# a hog and first runs at the tick at 1 ms (HZ=1000): its largest latency, 1.000 ms.
# 2.6.31, NEW_FAIR_SLEEPERS (docs/model/cfs.md, place_entity): a waking task is placed at
# min_vruntime - sched_latency (40 ms on 2 CPUs), more than the wake-up granularity (10 ms for
# nice 0) behind the running hog, so it preempts at once: each of the 9 timer wake-ups waits 0,
# and ia completes in 1 + 10 x 1 + 9 x 9.501 = 96.509 ms.
# NO_NEW_FAIR_SLEEPERS: placed at min_vruntime (the hog's own vruntime): no wake-up preemption,
# but the hog is far past its slice (40 ms x 15 / (1024 + 15) = 0.58 ms), so the next tick
# switches to ia. ia's runs then start and end on ticks, each sleep ends 9.501 ms after a tick,
# 0.499 ms before the next: p50 0.499 ms, completion 96.509 + 9 x 0.499 = 101.000 ms.
grep -E '^2\.6\.31 NEW_FAIR_SLEEPERS +1 +10\.00 \[ +10\.00, +10\.00\] +10 +0\.000 \[ +0\.000, +0\.000\] .* 96\.51 \[ +96\.51, +96\.51\]$' \
	"$T/out" >/dev/null || fail "ia under NEW_FAIR_SLEEPERS: $(cat "$T/out")"
grep -E '^2\.6\.31 NO_NEW_FAIR_SLEEPERS +1 +10\.00 \[ +10\.00, +10\.00\] +10 +0\.499 \[ +0\.499, +0\.499\] .* 101\.00 \[ +101\.00, +101\.00\]$' \
	"$T/out" >/dev/null || fail "ia under NO_NEW_FAIR_SLEEPERS: $(cat "$T/out")"

"$SL" repro sleepers --seeds 2 --duration 200ms --workload "trace:file=$W" --json >"$T/json" ||
	fail "repro sleepers --workload --json"
python3 - "$T/json" <<'PYEOF' || fail "repro sleepers --workload --json: the figures above"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["experiment"] == "sleepers" and d["seeds"] == [1, 2], d["seeds"]
assert d["workloads"][0].startswith("trace:file=")
s = {x["setting"]: x for x in d["settings"]}
assert len(s) == 8
for x in d["settings"]:
    assert [r["row"] for r in x["rows"]] == ["trace", "trace/hog", "trace/ia"]
    assert [r["comm"] for r in x["rows"]] == [None, "hog", "ia"]
    for r in x["rows"]:
        for k in ("tasks", "cpu_ms", "wakeups", "wakeup_latency_p50_ms",
                  "wakeup_latency_p95_ms", "wakeup_latency_max_ms", "context_switches",
                  "completion_ms"):
            assert set(r[k]) == {"mean", "min", "max", "per_seed"}, (k, r[k])
            assert len(r[k]["per_seed"]) == 2
    g, hog, ia = x["rows"]
    # the hogs' recorded bursts, 104.545 + 94.545 ms (trace-workload), within the switch costs
    assert hog["tasks"]["mean"] == 2 and abs(hog["cpu_ms"]["mean"] - 199.09) < 0.05, hog
    # the group is its comms: 3 tasks, their CPU time, the hogs' exit 104.545 ms after the start
    assert g["tasks"]["mean"] == 3
    assert abs(g["cpu_ms"]["mean"] - hog["cpu_ms"]["mean"] - ia["cpu_ms"]["mean"]) < 1e-5
    assert g["context_switches"]["mean"] == (hog["context_switches"]["mean"]
                                             + ia["context_switches"]["mean"])
    assert g["completion_ms"]["mean"] >= hog["completion_ms"]["mean"] > 104.5
nfs = s["2.6.31 NEW_FAIR_SLEEPERS"]["rows"][2]
nonfs = s["2.6.31 NO_NEW_FAIR_SLEEPERS"]["rows"][2]
assert nfs["wakeup_latency_p50_ms"]["mean"] == 0, nfs
# a percentile is its histogram bucket's midpoint, within 0.8% (core/hist.h)
assert abs(nonfs["wakeup_latency_p50_ms"]["mean"] - 0.499) <= 0.499 * 0.008, nonfs
assert nfs["wakeup_latency_max_ms"]["mean"] == nonfs["wakeup_latency_max_ms"]["mean"] == 1.0
assert abs(nfs["completion_ms"]["mean"] - 96.509) < 0.001, nfs["completion_ms"]
assert abs(nonfs["completion_ms"]["mean"] - 101.000) < 0.001, nonfs["completion_ms"]
PYEOF

# --duration: the trace lasts 104.5 ms; in 50 ms no task finishes: "-" and null
"$SL" repro sleepers --seeds 1 --duration 50ms --workload "trace:file=$W" >"$T/short" ||
	fail "--duration 50ms"
grep -E '^2\.6\.31 NEW_FAIR_SLEEPERS .* -$' "$T/short" >/dev/null || fail "no '-': $(cat "$T/short")"
grep -E '[0-9]\]$' "$T/short" >/dev/null && fail "a completion within 50 ms: $(cat "$T/short")"
"$SL" repro sleepers --seeds 1 --duration 50ms --workload "trace:file=$W" --json >"$T/json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert all(r["completion_ms"] is None for s in d["settings"] for r in s["rows"])
assert all(r["wakeups"]["mean"] < 10 for s in d["settings"] for r in s["rows"][2:])
' "$T/json" || fail "--duration 50ms --json"

# --- a real capture: each setting's comm rows add up to the trace group's row ---
"$SL" repro sleepers --seeds 1 --duration 200ms --json \
	--workload "trace:file=$D/latency-under-nice-make.trace.xz" >"$T/real" || fail "real trace"
python3 - "$T/real" <<'PYEOF' || fail "real trace: the comms do not add up"
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["settings"]:
    g, comms = s["rows"][0], s["rows"][1:]
    assert g["comm"] is None and all(c["comm"] for c in comms)
    assert "python3" in [c["comm"] for c in comms]
    for k in ("tasks", "wakeups", "context_switches"):
        assert sum(c[k]["mean"] for c in comms) == g[k]["mean"], (s["setting"], k)
    assert abs(sum(c["cpu_ms"]["mean"] for c in comms) - g["cpu_ms"]["mean"]) < 1e-3 * len(comms)
    # the 3 s recording does not end in 200 ms; rm (forked at 2.1 ms, 1.2 ms of CPU) does
    assert g["completion_ms"] is None
    assert [c for c in comms if c["comm"] == "rm"][0]["completion_ms"] is not None
PYEOF

# --- the other experiments' settings ---
# fork: on 4 and 8 CPUs each of the 3 tasks has a CPU of its own, so ia never waits (latency
# max 0); on 2 CPUs it waits 1 ms for the first tick, as above
"$SL" repro fork --seeds 1 --workload "trace:file=$W" >"$T/fork" || fail "repro fork --workload"
awk '$0 == "trace/ia" { on = 1; next } on && /^$/ { on = 0 } on && !/^setting /' "$T/fork" \
	>"$T/ia"
[ "$(wc -l <"$T/ia")" -eq 9 ] || fail "repro fork: 9 settings expected: $(cat "$T/fork")"
grep -E '^2 CPUs, child_runs_first=1 .* 1\.000 \[ +1\.000, +1\.000\] +10 ' "$T/ia" >/dev/null ||
	fail "fork, 2 CPUs: $(cat "$T/ia")"
grep -E '^4 CPUs, child_runs_first=0 .* 0\.000 \[ +0\.000, +0\.000\] +10 ' "$T/ia" >/dev/null ||
	fail "fork, 4 CPUs: $(cat "$T/ia")"
"$SL" repro fio --workload "trace:file=$W" --seed 3 --json >"$T/fio" || fail "repro fio --workload"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seeds"] == [3]
assert [s["setting"] for s in d["settings"]] == ["idle=poll", "menu-2.6.31", "menu-tng"]
assert "--idle poll" in d["settings"][0]["args"]
' "$T/fio" || fail "repro fio --workload --json"
"$SL" repro bfs --seeds 1 --duration 200ms --workload "trace:file=$W" --json >"$T/bfs" ||
	fail "repro bfs --workload"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["settings"]) == 20, len(d["settings"])
assert {s["kernel"] for s in d["settings"]} == {"2.6.31", "2.6.32", "2.6.31-bfs", "6.18"}
assert all("--duration 200ms" in s["args"] for s in d["settings"])
' "$T/bfs" || fail "repro bfs --workload --json"

# -o: the report in the file, whole
"$SL" repro sleepers --seeds 1 --duration 50ms --workload "trace:file=$W" -o "$T/o.txt" ||
	fail "-o"
cmp -s "$T/o.txt" "$T/short" || fail "-o differs from stdout"

# --- errors: as run's, exit status 2, nothing written ---
"$SL" run --workload bogus 2>"$T/run.err" && fail "run --workload bogus succeeded"
usage_error "$(sed 's/^schedlab: //' "$T/run.err")" repro sleepers --workload bogus
usage_error "bad.trace:12: malformed line" repro fork --workload "trace:file=$D/trace-workload/bad.trace" \
	-o "$T/bad.txt"
[ ! -e "$T/bad.txt" ] || fail "an output file was written for a bad workload"
usage_error "nice=50 is out of range" repro bfs --workload hog:nice=50
usage_error "--workload needs a value" repro sleepers --workload
usage_error "it does not apply with --workload" repro fio --disks 1 --workload hog
usage_error "--duration applies with --workload only" repro fork --duration 1s
echo "repro_workload.sh: ok"
