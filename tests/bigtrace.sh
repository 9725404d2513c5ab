#!/bin/sh
# Bounded memory on a hostile trace: a generated trace of SL_BIGTRACE_MB (default 2048) MiB,
# streamed through a pipe into `trace-stats -` (never on disk), is read with a peak RSS under
# 64 MiB; the figures count every record. Then a trace whose pids reach the kernel's
# PID_MAX_LIMIT (4194304): the tables hold the tasks seen, by a dense id (under 768 MiB),
# and a pid beyond it is a malformed line naming the limit (exit 2), not a bigger table.
# Needs GNU time (/usr/bin/time) for the peak RSS; skipped with a message without it.
# With a third argument "sanitized" (an ASan build: its shadow memory and quarantine count in
# the RSS, and it is slower) the trace is 256 MiB and the RSS is printed, not asserted.
# Usage: sh tests/bigtrace.sh path/to/schedlab path/to/gen_trace [sanitized]
set -eu

MAXARGS=3
. "$(dirname "$0")/lib.sh"
GEN=$2
SAN=${3:-}
MB=${SL_BIGTRACE_MB:-2048}
[ -z "$SAN" ] || MB=${SL_BIGTRACE_MB:-256}

# rss_below KIB WHAT: the peak RSS in $T/rss is under KIB (not asserted under the sanitizers)
rss_below() {
	rss=$(tail -n 1 "$T/rss")
	echo "bigtrace.sh: $2: peak RSS ${rss} KiB${SAN:+ (sanitized build: not asserted)}" >&2
	[ -n "$SAN" ] || [ "$rss" -lt "$1" ] || fail "$2: peak RSS ${rss} KiB, expected under $1 KiB"
}

if [ ! -x /usr/bin/time ]; then
	echo "bigtrace.sh: SKIPPED: /usr/bin/time (Debian: time) is not installed" >&2
	exit 0
fi
t0=$(date +%s)
"$GEN" $((MB * 1048576)) 30000 | /usr/bin/time -f %M -o "$T/rss" "$SL" trace-stats - >"$T/out" ||
	fail "trace-stats on the generated ${MB} MiB trace: $(cat "$T/rss")"
took=$(($(date +%s) - t0))
rss_below 65536 "${MB} MiB streamed in ${took} s"
# each iteration of the generator writes 6 lines, one sched_switch among them; 4 header lines
lines=$(sed -n 's/^trace: -, 8 CPUs, .* ms, \([0-9]*\) lines$/\1/p' "$T/out")
sw=$(awk '$1 == "sched_switch" { print $2 }' "$T/out")
[ -n "$lines" ] && [ "$((lines - 4))" -eq "$((sw * 6))" ] ||
	fail "the counts: $lines lines, $sw sched_switch (expected 4 + 6 x switches)"

# pids up to 4194304: about 5 MiB of trace touches the whole table
"$GEN" 5000000 4194304 | /usr/bin/time -f %M -o "$T/rss" "$SL" trace-stats - >/dev/null ||
	fail "trace-stats with pids up to PID_MAX_LIMIT"
rss_below 786432 "pids up to 4194304"
rc=0
printf '          x-1    [000] d..2.  1.000000: sched_wakeup: comm=x pid=4194305 prio=120 target_cpu=000\n' |
	"$SL" trace-stats - >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "^schedlab: -:1: malformed line: expected a pid from 0 to 4194304" "$T/err" ||
	fail "pid 4194305: exit $rc: $(cat "$T/err")"
rc=0
printf '          x-1    [9000] d..2.  1.000000: sched_wakeup: comm=x pid=1 prio=120 target_cpu=000\n' |
	"$SL" trace-stats - >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "expected CPUs below 8192" "$T/err" || fail "CPU 9000: $(cat "$T/err")"
# replay-idle keeps each idle interval (every governor is fed the whole sequence): past
# SL_REPLAY_MAX_INTERVALS (8388608, 192 MiB) it stops with the limit named, exit 2. 16777218
# lines: 8388609 intervals of CPU 0 (each two lines), after the first that the limit refuses.
# The lines share one timestamp (time may not go back: a repeated pair of two would).
if [ -z "$SAN" ]; then
	rc=0
	yes '          <idle>-0       [000] d..1.  1.000002: cpu_idle: state=1 cpu_id=0
          <idle>-0       [000] d..1.  1.000002: cpu_idle: state=4294967295 cpu_id=0' |
		head -n 16777300 | /usr/bin/time -f %M -o "$T/rss" "$SL" replay-idle - >/dev/null \
		2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] && grep -q "^schedlab: -:16777218: more than 8388608 idle intervals; the limit is 8388608 (SL_REPLAY_MAX_INTERVALS)" "$T/err" ||
		fail "replay-idle past its limit: exit $rc: $(head -c 300 "$T/err")"
	rss_below 262144 "replay-idle refusing 8388609 intervals"
fi
echo "bigtrace.sh: all passed"
