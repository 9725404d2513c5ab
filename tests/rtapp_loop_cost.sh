#!/bin/sh
# tools/rtapp_loop_cost.py on logs written by hand: three launches, four rows each of 1000
# loops (perf). A asked 13 us a row (c_duration; 13 ns per loop), its rows took 14, 15, 16 and
# 20 us (14..20 ns a loop); B asked 14 us (14 ns), took 15, 15, 17, 30; C asked 13, took 15, 16,
# 17, 18 (rows spread over two logs). By hand, nearest rank int(q * 4) of each sorted cost:
# A p10 14, p25 15, p50 16; B 15, 15, 17; C 15, 16, 17. rtapp_calib the median of 13, 14, 13:
# 13 ns; rtapp_kloop the median of the p25s 15, 15, 16: 15000 ns; rtapp_kloop_sd the median of
# (p25 - p10) / 0.607: 1.647, 0, 1.647 ns a loop: 1647 ns. A row without loops (perf 0) is left
# out. Errors: no directory, a directory without logs, a row of too few columns or a word
# where a number goes: exit 2 naming the file and line. Its stdout's reader gone: exit 1.
set -eu
. "$(dirname "$0")/pytool.sh"
H='#idx perf run period start end rel_st slack c_duration c_period wu_lat'
log() { # log FILE C_DURATION RUN...: one row of 1000 loops per RUN
	f=$1
	c=$2
	shift 2
	{
		echo "# Policy : SCHED_OTHER priority : 0"
		echo "$H"
		i=0
		for r in "$@"; do
			echo "   $i     1000   $r   1000   0   0   0   0   $c   1000   0"
			i=$((i + 1))
		done
	} >"$f"
}
mkdir "$T/A" "$T/B" "$T/C"
log "$T/A/x-a-0.log" 13 14 15 16 20
echo "   9        0     5   1000   0   0   0   0   0   1000   0" >>"$T/A/x-a-0.log"
log "$T/B/x-a-0.log" 14 15 15 17 30
log "$T/C/x-a-0.log" 13 15 16
log "$T/C/x-b-0.log" 13 17 18
"$PY" "$TOOLPY" "$T/A" "$T/B" "$T/C" >"$T/out" || fail "exit $?: $(cat "$T/out")"
grep -q "A  *4  *13  *14.00  *15.00  *16.00$" "$T/out" || fail "A: $(cat "$T/out")"
grep -q "B  *4  *14  *15.00  *15.00  *17.00$" "$T/out" || fail "B: $(cat "$T/out")"
grep -q "C  *4  *13  *15.00  *16.00  *17.00$" "$T/out" || fail "C: $(cat "$T/out")"
grep -q '^param rtapp_calib=13ns$' "$T/out" || fail "calib: $(cat "$T/out")"
grep -q '^param rtapp_kloop=15000ns$' "$T/out" || fail "kloop: $(cat "$T/out")"
grep -q '^param rtapp_kloop_sd=1647ns$' "$T/out" || fail "kloop_sd: $(cat "$T/out")"
mkdir "$T/empty"
tool_error "$T/empty" "empty: no rt-app logs"
echo "   4     1000   16" >>"$T/C/x-b-0.log"
tool_error "$T/C" "x-b-0.log:5: expected 11 columns"
log "$T/C/x-b-0.log" 13 17 x
tool_error "$T/C" "x-b-0.log:4: expected integers"
rc=0
"$PY" "$TOOLPY" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "no directory: exit $rc"
# the reader gone (| head; here a pipe closed before it runs): exit 1, nothing on stderr
# (tools/cli_common.py's run)
rc=0
"$PY" -c 'import os, subprocess, sys
r, w = os.pipe()
os.close(r)
sys.exit(subprocess.run(sys.argv[1:], stdout=w).returncode)' "$PY" "$TOOLPY" "$T/A" "$T/B" \
	2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$T/err" ] || fail "closed stdout: exit $rc, stderr: $(cat "$T/err")"
echo "rtapp_loop_cost: ok"
