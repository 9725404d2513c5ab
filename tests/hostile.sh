#!/bin/sh
# Hostile input at the command line (issue 30): each is refused with exit status 2 and a message
# naming the file and line (or the output with exit status 1), never a hang, a crash or a silent
# exit 0 with wrong figures. The readers' own inputs are in tests/data/fuzz-regress/ (replayed
# by test_fuzz_regress) and tests/data/rtapp/bad/ (tests/rtapp_errors.sh).
set -eu
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data

# --- an endless line is refused as soon as it is over-long: --machine file:/dev/zero read
# the whole endless "line" before refusing (it never ended)
rc=0
timeout 20 "$SL" run --cpus 1 --workload hog --duration 1ms --machine file:/dev/zero \
	>"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "/dev/zero:1: line longer than 256 characters" "$T/err" ||
	fail "--machine file:/dev/zero: exit $rc (124: it did not end): $(cat "$T/err")"

# --- timestamps that go backwards: exit 2 with the line (they gave wrapped idle intervals)
L='  <idle>-0 [000] d..1.'
{
	echo "$L 1.000000: cpu_idle: state=1 cpu_id=0"
	echo "$L 1.500000: cpu_idle: state=4294967295 cpu_id=0"
	echo "$L 1.000000: cpu_idle: state=1 cpu_id=0"
} >"$T/back.trace"
usage_error "back.trace:3: malformed line: expected a timestamp not before line 2's (1.500000000)" \
	trace-stats "$T/back.trace"
# lenient: the line is skipped and counted, the figures are those of the lines in order
"$SL" trace-stats --lenient "$T/back.trace" >"$T/out" || fail "--lenient backwards: exit $?"
grep -q "^malformed lines skipped: 1;" "$T/out" || fail "--lenient backwards: $(cat "$T/out")"
{
	head -n 37 "$D/idlestat-synthetic.idlestat"
	echo "          <idle>-0     [000] d..1.   99.999990: cpu_idle: state=4294967295 cpu_id=0"
	echo "          <idle>-0     [000] d..1.   99.000000: cpu_idle: state=1 cpu_id=0"
} >"$T/back.idlestat"
usage_error "back.idlestat:39: malformed line: expected a timestamp not before line 38's" \
	trace-stats "$T/back.idlestat"

# --- idlestat: a residency beyond what an int holds, a negative one, a state or a CPU the
# header does not have (the event was dropped without a word)
head -n 37 "$D/idlestat-synthetic.idlestat" | sed '9s/.*/\t18446744073709551617/' >"$T/r.idlestat"
usage_error "r.idlestat:9: malformed idlestat header: expected a target residency" \
	trace-stats "$T/r.idlestat"
head -n 37 "$D/idlestat-synthetic.idlestat" | sed '9s/.*/\t-5/' >"$T/r.idlestat"
usage_error "r.idlestat:9: malformed idlestat header: expected a target residency" \
	trace-stats "$T/r.idlestat"
{
	head -n 37 "$D/idlestat-synthetic.idlestat"
	echo "          <idle>-0     [000] d..1.   99.999990: cpu_idle: state=16 cpu_id=0"
} >"$T/s.idlestat"
usage_error "s.idlestat:38: malformed line: expected a state of the header's table" \
	trace-stats "$T/s.idlestat"
{
	head -n 37 "$D/idlestat-synthetic.idlestat"
	echo "          <idle>-0     [000] d..1.   99.999990: cpu_idle: state=1 cpu_id=1"
} >"$T/c.idlestat"
usage_error "c.idlestat:38: malformed line: expected a cpu_id below the header's cpus=" \
	trace-stats "$T/c.idlestat"

# --- an empty trace is no trace (it gave exit 0 and a report of "0 lines")
: >"$T/empty.trace"
usage_error "empty.trace: no trace events in its 0 lines" trace-stats "$T/empty.trace"
usage_error "/dev/null: no trace events in its 0 lines" trace-stats /dev/null
usage_error "/dev/null: no idle period in its 0 lines" replay-idle /dev/null

# --- a negative pid and a prev_state of no kernel's letters
S='  a-1 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120'
echo "$S prev_state=ZZZZ ==> next_comm=b next_pid=2 next_prio=120" >"$T/st.trace"
usage_error "st.trace:1: malformed line: expected a prev_state of the kernel's letters" \
	trace-stats "$T/st.trace"
echo "$S prev_state=S ==> next_comm=b next_pid=-2 next_prio=120" >"$T/neg.trace"
usage_error "neg.trace:1: malformed line: expected a pid from 0 to 4194304" \
	trace-stats "$T/neg.trace"

# --- control bytes of the input are escaped in messages (an escape sequence reached the
# terminal raw)
printf '  a-1 [000] d..2. 1.000000: sched_switch: \033[2J\033[31mred\rX\n' >"$T/esc.trace"
usage_error 'esc.trace:1: malformed line: expected comm:pid [prio]' trace-stats "$T/esc.trace"
grep -q "$(printf '\033')" "$T/err" && fail "an ESC byte of the input printed raw: $(od -c "$T/err")"
grep -qF '\x1b[2J\x1b[31mred\x0dX' "$T/err" || fail "the escape sequence not shown escaped: $(cat "$T/err")"

# --- trace-stats splits a pid reused after its task died into two tasks, as the trace workload
# does: pid 100 runs 1 ms, exits (prev_state=X); a new task 100 runs 3 ms
{
	echo "  <idle>-0 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=old next_pid=100 next_prio=120"
	echo "  old-100 [000] d..2. 1.001000: sched_switch: prev_comm=old prev_pid=100 prev_prio=120 prev_state=X ==> next_comm=swapper/0 next_pid=0 next_prio=120"
	echo "  <idle>-0 [000] d..2. 1.002000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=new next_pid=100 next_prio=120"
	echo "  new-100 [000] d..2. 1.005000: sched_switch: prev_comm=new prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"
} >"$T/reuse.trace"
"$SL" trace-stats "$T/reuse.trace" --json >"$T/reuse.json" || fail "reused pid: exit $?"
n=$(grep -o '"pid":100,' "$T/reuse.json" | wc -l)
[ "$n" -eq 2 ] || fail "reused pid 100: $n tasks listed, expected 2: $(cat "$T/reuse.json")"
# by hand: the first ran 1.000 to 1.001 (1 ms), the second 1.002 to 1.005 (3 ms)
"$SL" trace-stats "$T/reuse.trace" >"$T/reuse.txt"
grep -E -q "^ +100 old +1\.000 +1 " "$T/reuse.txt" && grep -E -q "^ +100 new +3\.000 +1 " "$T/reuse.txt" ||
	fail "reused pid 100: run times: $(cat "$T/reuse.txt")"

# --- a repeated workload key: which one was meant is a guess
usage_error "--workload hog: key 'tasks' given twice" run --workload hog:tasks=1,tasks=2 --duration 1ms

# --- outputs: checked before the run; 1 when an output cannot be written, 2 for a bad name
rc=0
"$SL" run --workload rt-app:file="$D/rtapp/timer.json" --duration 10ms --no-progress \
	--rtapp-logdir "$T/no/such" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && grep -q -e "--rtapp-logdir $T/no/such: No such file or directory" "$T/err" ||
	fail "a missing --rtapp-logdir: exit $rc: $(cat "$T/err")"
rc=0
"$SL" run --workload hog --duration 10ms -o "$T/no/such/out.txt" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "-o in a missing directory: exit $rc: $(cat "$T/err")"
# an empty name is bad input in every command (some gave 1); record checks its -o before
# running the command (it ran it, then failed)
usage_error "--output: an empty file name" trace-stats -o '' "$D/idlestat-synthetic.idlestat"
usage_error "--output: an empty file name" repro fio -o ''
usage_error "sweep-merge: --out: an empty file name" sweep-merge --out '' \
	"$(dirname "$0")/../fuzz/corpus/sweep_resume/full.csv"
usage_error "record: -o: an empty file name" record -o '' -- true
rc=0
"$SL" record -o "$T/no/such/r.trace" -- echo RAN >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] && ! grep -q RAN "$T/out" && grep -q "record: -o $T/no/such/r.trace: No such file" "$T/err" ||
	fail "record -o in a missing directory: exit $rc: $(cat "$T/out" "$T/err")"
# a FIFO is written through, not replaced by a regular file
mkfifo "$T/fifo"
# (timeout: when the FIFO is replaced, no writer ever comes, and the test must not hang)
timeout 20 cat "$T/fifo" >"$T/from-fifo" &
"$SL" run --cpus 1 --workload hog --duration 10ms -o "$T/fifo" || fail "-o FIFO: exit $?"
wait
[ -p "$T/fifo" ] || fail "-o FIFO: the FIFO was replaced"
"$SL" run --cpus 1 --workload hog --duration 10ms | cmp -s - "$T/from-fifo" ||
	fail "-o FIFO: not what standard output gets"
# a device: a private node of /dev/full's numbers (root only), never the system's own (it was
# replaced by a regular file)
if mknod "$T/full" c 1 7 2>/dev/null; then
	rc=0
	"$SL" run --cpus 1 --workload hog --duration 10ms -o "$T/full" 2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] && [ -c "$T/full" ] && grep -q "$T/full: No space left on device" "$T/err" ||
		fail "-o a full device: exit $rc: $(cat "$T/err")"
else
	echo "hostile.sh: not root: -o onto a device not tested" >&2
fi

# kill -9 during --trace-out leaves its temporary (.k.trace.PID.XXXXXX: no handler runs); the
# next run writing that output removes it
"$SL" run --cpus 2 --workload periodic:run=10us,period=100us --duration 3600s \
	--trace-out "$T/k.trace" --no-progress >/dev/null 2>&1 &
pid=$!
n=0
while [ -z "$(ls -A "$T" | grep '^\.k\.trace\.')" ] && [ "$n" -lt 100 ]; do
	sleep 0.05
	n=$((n + 1))
done
kill -9 "$pid"
wait "$pid" || true
[ -n "$(ls -A "$T" | grep "^\.k\.trace\.$pid\.")" ] || fail "kill -9: no temporary of pid $pid to clean"
"$SL" run --cpus 1 --workload hog --duration 1ms --trace-out "$T/k.trace" >/dev/null ||
	fail "the run after kill -9: exit $?"
[ -z "$(ls -A "$T" | grep '^\.k\.trace\.')" ] || fail "kill -9's temporary left: $(ls -A "$T")"

echo "hostile.sh: all passed"
