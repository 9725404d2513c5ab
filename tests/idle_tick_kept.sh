#!/bin/sh
# tools/idle_tick_kept.py on a trace written by hand (docs/validate.md, "The idle vCPU's tick
# after a busy period (issue 28, step 15)"). The tick's phase is 2.6 ms: the exits at 1.002610,
# 1.010650 and 1.014610 share the densest bin (the periods' last exits, 1.012000 and 1.020300,
# are in bins 0 and 3).
# CPU 0 runs A from 0.900000 to 1.016000, then idles (an entry the trace does not close: not
# counted). CPU 1 runs B 0.999000-1.000000 (busy 1 ms) and idles: it enters the NO_HZ mask and
# sets needs_update.
# Period 1 (1-4 ms bucket): tick 1 at 1.002600: CPU 0 busy there, leaves the mask, and its
#   needs_update kicks CPU 1: "busy, kick"; CPU 1 leaves idle at 1.002610 for nothing: taken.
#   Tick 2 (1.006600): no exit, CPU 0 busy, no kick: "busy", not taken. Tick 3 (1.010600): exit
#   at 1.010650, back to idle: "busy", taken. 1.012000: the period's last exit, C runs: tick 4
#   (1.014600) is past the period. Run of taken ticks from tick 1: 1.
# Period 2 (< 1 ms): C 1.012010-1.013000 held no tick, so CPU 1 is still in the mask: no
#   needs_update. Tick 1 (1.014600): exit 1.014610, nothing follows, CPU 0 busy, no kick: "busy",
#   taken. Tick 2 (1.018600): CPU 0 idle since 1.016000: "idle", not taken. Tick 3 (1.022600):
#   its window holds the period's last exit (1.022650, D runs): not seen. Run: 1.
# So all: entries 2; "busy, kick" tick 1: 1 of 1; "busy" tick 1 1/1, tick 2 0/1, tick 3 1/1;
# "idle" tick 2 0/1; runs 0/2/0/0/0. Bucket 1-4ms: period 1's; <1ms: period 2's.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
idle() { # idle CPU TIME STATE
	printf '%16s-%-7s [00%s] d..1.     %s: cpu_idle: state=%s cpu_id=%s\n' '<idle>' 0 "$1" "$2" "$3" "$1"
}
X=4294967295
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R A 11
	sw 1 0.999000 swapper/1 0 R B 12
	sw 1 1.000000 B 12 S swapper/1 0
	idle 1 1.000000 1
	idle 1 1.002610 $X
	idle 1 1.002620 1
	idle 1 1.010650 $X
	idle 1 1.010660 1
	idle 1 1.012000 $X
	sw 1 1.012010 swapper/1 0 R C 13
	sw 1 1.013000 C 13 S swapper/1 0
	idle 1 1.013000 1
	idle 1 1.014610 $X
	idle 1 1.014620 1
	sw 0 1.016000 A 11 S swapper/0 0
	idle 0 1.016000 1
	idle 1 1.022650 $X
	sw 1 1.022660 swapper/1 0 R D 14
} >"$T/real.trace"

"$PY" "$TOOLPY" --json "$T/real.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
"$PY" - "$T/out" <<'PYEOF' || fail "values: $(cat "$T/out")"
import json, sys
s = json.load(open(sys.argv[1]))
a = s["all"]
assert a["entries"] == 2, a
assert a["busy, kick"]["taken"] == [1, 0, 0, 0, 0, 0], a
assert a["busy, kick"]["seen"] == [1, 0, 0, 0, 0, 0], a
assert a["busy"]["taken"] == [1, 0, 1, 0, 0, 0], a
assert a["busy"]["seen"] == [1, 1, 1, 0, 0, 0], a
assert a["idle"]["seen"] == [0, 1, 0, 0, 0, 0], a
assert a["idle"]["taken"] == [0] * 6, a
assert a["busy"]["share"][:3] == [1.0, 0.0, 1.0], a
assert a["runs"] == [0, 2, 0, 0, 0], a
b = s["1-4ms"]
assert b["entries"] == 1 and b["busy, kick"]["taken"][0] == 1, b
assert b["busy"]["seen"] == [0, 1, 1, 0, 0, 0], b
c = s["<1ms"]
assert c["entries"] == 1 and c["busy"]["seen"] == [1, 0, 0, 0, 0, 0], c
assert c["idle"]["seen"][1] == 1, c
PYEOF
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/real.trace"
echo "idle_tick_kept: ok"
