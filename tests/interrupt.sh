#!/bin/sh
# SIGINT and SIGTERM during a long run: it stops within a second, says at what simulated time and
# that nothing was written, exits 130, and leaves no temporary file and the previous outputs as
# they were. The same for a command without a simulation (trace-stats reading a pipe that never
# ends). (The sweep's SIGINT is tested in sweep.sh: it keeps the finished rows.)
# Usage: sh tests/interrupt.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# interrupt SIG DELAY CMD...: runs CMD in the background, sends SIG after DELAY seconds, and
# sets rc and took (milliseconds from the signal to the exit).
interrupt() {
	sig=$1 delay=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	sleep "$delay"
	kill -0 "$pid" 2>/dev/null || fail "$*: ended before the signal: $(cat "$T/err")"
	t0=$(now_ms)
	kill "-$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	took=$(($(now_ms) - t0))
}

# An hour of simulated time: minutes of work, so the signal lands mid-run.
echo "old report" >"$T/r.txt"
echo "old trace" >"$T/t.txt"
for sig in INT TERM; do
	interrupt "$sig" 0.5 "$SL" run --cpus 2 --workload hog:tasks=3 --workload pingpong:count=1000000000 \
		--duration 3600s -o "$T/r.txt" --trace-out "$T/t.txt"
	[ "$rc" -eq 130 ] || fail "SIG$sig: exit $rc, expected 130: $(cat "$T/err")"
	[ "$took" -lt 1000 ] || fail "SIG$sig: took $took ms to stop, expected under 1 s"
	grep -q "interrupted at simulated t=[0-9.]* s of 3600.000000 s; no output written" \
		"$T/err" || fail "SIG$sig: the message: $(cat "$T/err")"
	[ "$(cat "$T/r.txt")" = "old report" ] || fail "SIG$sig: -o file changed"
	[ "$(cat "$T/t.txt")" = "old trace" ] || fail "SIG$sig: --trace-out file changed"
	[ -z "$(ls -A "$T" | grep '^\.')" ] || fail "SIG$sig: left $(ls -A "$T" | grep '^\.')"
	[ ! -s "$T/out" ] || fail "SIG$sig: wrote a report on stdout"
	echo "interrupt.sh: SIG$sig stopped the run in $took ms" >&2
done

# Without -o: no half report on stdout either.
interrupt INT 0.3 "$SL" run --cpus 2 --workload hog:tasks=3 --workload pingpong:count=1000000000 \
	--duration 3600s --json
[ "$rc" -eq 130 ] && [ ! -s "$T/out" ] || fail "SIGINT without -o: exit $rc, stdout $(wc -c <"$T/out") bytes"
grep -q "no output written (the report is written only for a complete run)" "$T/err" ||
	fail "SIGINT without --trace-out: the message: $(cat "$T/err")"

# trace-stats on a pipe that never closes: exit 130 at once, -o's temporary removed.
mkfifo "$T/fifo"
sleep 30 >"$T/fifo" &
writer=$!
interrupt INT 0.3 "$SL" trace-stats "$T/fifo" -o "$T/ts.txt"
kill "$writer" 2>/dev/null || true
[ "$rc" -eq 130 ] || fail "trace-stats SIGINT: exit $rc: $(cat "$T/err")"
[ "$took" -lt 1000 ] || fail "trace-stats SIGINT: took $took ms"
grep -q "interrupted; no output written" "$T/err" || fail "trace-stats SIGINT: $(cat "$T/err")"
[ ! -e "$T/ts.txt" ] && [ -z "$(ls -A "$T" | grep '^\.')" ] ||
	fail "trace-stats SIGINT: left $(ls -A "$T")"
echo "interrupt.sh: all passed"
