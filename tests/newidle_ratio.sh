#!/bin/sh
# tools/newidle_ratio.py on a trace written by hand (docs/validate.md, "The newidle balance, rule
# by rule"). X (11), Z (13) and Q (14) run on both CPUs first; then CPU 0 runs W (10) and CPU 1
# Y (12). Y wakes Z onto CPU 1, W blocks and CPU 0 pulls Z (migrated 5 us before the switch
# W -> Z): a newidle pull, no switch to idle. Z blocks: CPU 0 idles (1). Y wakes W onto it; W
# blocks (2); an interrupt wakes W; W blocks with Y waiting on CPU 1 (3) and CPU 0 pulls Y 20 us
# later. By hand: 3 idle entries, 2 pulls, 5 newidle calls at most: ratio 1024 x sqrt(2 / 5) =
# 647.6, `param newidle_ratio=648`; two copies pooled: 6 and 4, the same. A file that does not
# exist, a trace of three CPUs, a trace with no CPU going idle and no argument: exit 2.
set -eu
. "$(dirname "$0")/pytool.sh"
. "$(dirname "$0")/trace_fixture.sh"
newidle_trace >"$T/idle.trace"
cp "$T/idle.trace" "$T/idle2.trace"
"$PY" "$TOOLPY" "$T/idle.trace" "$T/idle2.trace" >"$T/out" || fail "exit $? ($(cat "$T/out"))"
grep -q '^ *3  *2  *647\.6  .*idle\.trace$' "$T/out" &&
	grep -q '^ *6  *4  *647\.6  all 2 traces: param newidle_ratio=648$' "$T/out" ||
	fail "the table: $(cat "$T/out")"
"$PY" "$TOOLPY" --json "$T/idle.trace" >"$T/out" || fail "--json: exit $?"
"$PY" -c 'import json,sys; t=json.load(open(sys.argv[1]))["total"]; assert (t["idle_entries"], t["pulls"], round(t["ratio"], 1)) == (3, 2, 647.6), t' "$T/out" ||
	fail "--json: $(cat "$T/out")"
tool_error "$T/missing.trace" missing.trace
sed 's/\[001\]/[002]/' "$T/idle.trace" >"$T/three.trace"
tool_error "$T/three.trace" "2-CPU"
printf '# tracer: nop\n' >"$T/empty.trace"
tool_error "$T/empty.trace" "no CPU went idle"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'Usage' "$T/err" || fail "no argument: exit $rc ($(cat "$T/err"))"
echo "newidle_ratio.sh: ok"
