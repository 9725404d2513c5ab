#!/bin/sh
# tools/idle_tick_age.py on a trace written by hand (docs/validate.md, "The idle vCPU's tick
# kept"). CPU 0 runs A throughout. CPU 1 switches to its idle task at 1.000000 and idles.
# Exits (state=4294967295), modulo 4 ms: 1.002600 (2.6 ms), 1.006600 (2.6), 1.014600 (2.6),
# 1.019300 (3.3 ms): the tick's phase is 2.6 ms (the densest bin), 1.019300 is off it.
# 1.002600: back to idle at 1.002610 with nothing run: age (2.6 ms) // 4 ms = 0, counted.
# 1.006600: back to idle at 1.006610: age 6.6 // 4 = 1, counted.
# 1.014600: B is switched in at 1.014650: something follows, not counted; B blocks at 1.015000
#           (CPU 1 idle again since 1.015000).
# 1.019300: off the phase, not counted. 1.098600 (2.6 ms): age (98.6 - 15) // 4 = 20: "20+".
# So ages 0, 1 and 20+ once each: three exits, shares 0.333.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
idle() { # idle CPU TIME STATE
	printf '%16s-%-7s [00%s] d..1.     %s: cpu_idle: state=%s cpu_id=%s\n' '<idle>' 0 "$1" "$2" "$3" "$1"
}
{
	printf '# tracer: nop\n#\n'
	sw 0 0.900000 swapper/0 0 R A 11
	sw 1 1.000000 B 12 S swapper/1 0
	idle 1 1.000000 1
	idle 1 1.002600 4294967295
	idle 1 1.002610 1
	idle 1 1.006600 4294967295
	idle 1 1.006610 1
	idle 1 1.014600 4294967295
	sw 1 1.014650 swapper/1 0 R B 12
	sw 1 1.015000 B 12 S swapper/1 0
	idle 1 1.015000 1
	idle 1 1.019300 4294967295
	idle 1 1.019310 1
	idle 1 1.098600 4294967295
	idle 1 1.098610 1
} >"$T/real.trace"

"$PY" "$TOOLPY" --json "$T/real.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
"$PY" - "$T/out" <<'PYEOF' || fail "values: $(cat "$T/out")"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["exits"] == 3, s
got = {k: v["count"] for k, v in s["ages"].items() if v["count"]}
assert got == {"0": 1, "1": 1, "20": 1}, got
assert s["ages"]["0"]["share"] == 0.333, s
PYEOF
tool_error "$T/none.trace" none.trace
tool_cut_xz "$T/real.trace"
echo "idle_tick_age: ok"
