#!/bin/sh
# `schedlab record` into a private tracefs instance (src/trace/record.c, libtracefs): the
# instance instances/schedlab-PID exists while CMD runs and is gone afterwards, also after
# SIGINT (exit 130, the trace until then saved and readable) and after a bad event name (exit 2,
# no file). Without root it must refuse (exit 2, nothing written); the recording part needs root
# and a writable tracefs, and is skipped with a message otherwise.
set -eu
. "$(dirname "$0")/lib.sh"
TR=/sys/kernel/tracing

# without root: refused, nothing written
if [ "$(id -u)" -ne 0 ]; then
	nr="$SL"
elif command -v setpriv >/dev/null 2>&1; then
	nr="setpriv --reuid=65534 --regid=65534 --clear-groups $SL"
	chmod 777 "$T"
else
	nr=""
fi
if [ -n "$nr" ]; then
	rc=0
	$nr record -o "$T/nr.trace" -- true >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "record without root: exit $rc"
	grep -q 'record: needs root' "$T/err" || fail "record without root: $(cat "$T/err")"
	[ ! -e "$T/nr.trace" ] || fail "record without root: a file was written"
fi

# --calibration DIR: checked before anything is recorded (a directory without machine.conf:
# exit 2, no trace)
usage_error "record --calibration: $T/nocal/machine.conf" record --calibration "$T/nocal" \
	-o "$T/nc.trace" -- true
[ ! -e "$T/nc.trace" ] || fail "record --calibration of nothing: a trace was written"
# an event not SYSTEM/EVENT and an -o that is a directory: refused before the machine is
# measured (as root, about a second) and before the command runs
usage_error "record: event nosuch: expected SYSTEM/EVENT" record -o "$T/ev.trace" \
	--events nosuch -- touch "$T/ran"
! grep -q measuring "$T/err" || fail "a bad event refused after measuring: $(cat "$T/err")"
mkdir "$T/odir"
rc=0
"$SL" record -o "$T/odir" -- touch "$T/ran" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "record -o DIR: exit $rc: $(cat "$T/err")"
grep -q "record: -o $T/odir: Is a directory" "$T/err" || fail "record -o DIR: $(cat "$T/err")"
[ ! -e "$T/ran" ] || fail "record ran the command before finding that -o is a directory"

if [ "$(id -u)" -ne 0 ] || [ ! -w "$TR/instances" ]; then
	echo "record.sh: skipped the recording: needs root and a writable $TR/instances"
	exit 0
fi

# the instance exists while CMD runs, is gone after
# (the instance is named after the recording process, the command's parent: other tests may
# record at the same time, each in an instance of its own)
"$SL" record -o "$T/a.trace" -- sh -c "ls $TR/instances >'$T/during'; echo \$PPID >'$T/ppid'; sleep 0.05"
inst=schedlab-$(cat "$T/ppid")
grep -qx "$inst" "$T/during" || {
	echo "record.sh: built without libtracefs (no instance seen): global buffer used"
	exit 0
}
[ ! -d "$TR/instances/$inst" ] || fail "instance $inst left after record"
"$SL" trace-stats "$T/a.trace" --json >"$T/a.json"
grep -q '"sched_switch":[1-9]' "$T/a.json" || fail "no sched_switch in the recording"
# without --calibration: this machine, its costs measured before CMD (FILE.machine.conf),
# which a replay of it takes; --calibration none: nothing beside
grep -qx "cpus $(nproc)" "$T/a.trace.machine.conf" &&
	grep -qx "kernel_release $(uname -r)" "$T/a.trace.machine.conf" &&
	grep -Eq '^param ctx_switch=[1-9][0-9]*ns$' "$T/a.trace.machine.conf" ||
	fail "record's measured costs: $(cat "$T/a.trace.machine.conf")"
"$SL" run --workload "trace:file=$T/a.trace" --no-progress >/dev/null 2>"$T/err" ||
	fail "replay of a recording: $(cat "$T/err")"
! grep -q "2009" "$T/err" || fail "replay of a recording with its costs: $(cat "$T/err")"
"$SL" record --calibration none -o "$T/n.trace" -- true 2>/dev/null || fail "--calibration none"
[ ! -e "$T/n.trace.machine.conf" ] || fail "--calibration none: a machine.conf was written"

# SIGINT while CMD runs: exit 130, instance removed, the trace saved
"$SL" record -o "$T/b.trace" -- sh -c "ls $TR/instances >'$T/during2'; exec sleep 30" 2>"$T/err" &
pid=$!
i=0
while [ ! -s "$T/during2" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -d "$TR/instances/schedlab-$pid" ] || fail "no instance schedlab-$pid while recording"
kill -INT $pid
rc=0
wait $pid || rc=$?
[ "$rc" -eq 130 ] || fail "SIGINT: exit $rc: $(cat "$T/err")"
grep -q 'interrupted by Interrupt (the trace until then is saved)' "$T/err" || fail "SIGINT: $(cat "$T/err")"
[ ! -d "$TR/instances/schedlab-$pid" ] || fail "SIGINT: instance schedlab-$pid left"
"$SL" trace-stats "$T/b.trace" >/dev/null || fail "SIGINT: the saved trace does not read"
[ -s "$T/b.trace.machine.conf" ] || fail "SIGINT: the saved trace has no machine.conf beside it"
# CMD failing: exit 1, the trace saved, and its costs beside it as for a success
rc=0
"$SL" record -o "$T/f.trace" -- false >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "record -- false: exit $rc: $(cat "$T/err")"
grep -q 'false exited with status 1 (the trace is saved)' "$T/err" || fail "$(cat "$T/err")"
[ -s "$T/f.trace" ] && [ -s "$T/f.trace.machine.conf" ] ||
	fail "record -- false: the trace or its machine.conf missing ($(ls "$T"))"

# a bad event: exit 2 naming it, no file, no instance
rc=0
"$SL" record --calibration none -o "$T/c.trace" --events sched/no_such_event -- true >"$T/out" 2>"$T/err" &
pid=$!
wait $pid || rc=$?
[ ! -d "$TR/instances/schedlab-$pid" ] || fail "bad event: instance schedlab-$pid left"
[ "$rc" -eq 2 ] || fail "bad event: exit $rc"
grep -q 'no event sched/no_such_event' "$T/err" || fail "bad event: $(cat "$T/err")"
[ ! -e "$T/c.trace" ] || fail "bad event: a file was written"
# a misspelt event: the nearest of tracefs's events
rc=0
"$SL" record --calibration none -o "$T/d.trace" --events sched/sched_swtch -- true >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "misspelt event: exit $rc"
grep -q "no event sched/sched_swtch in $TR/events; did you mean 'sched/sched_switch'?" "$T/err" ||
	fail "misspelt event: $(cat "$T/err")"
# --calibration DIR writes DIR's costs beside the trace (FILE.machine.conf), which a replay
# takes; a calibration of another machine (CPUs or kernel release) is refused before recording
CAL=$(dirname "$0")/../machines/fc-2vcpu
rc=0
"$SL" record --calibration "$CAL" -o "$T/k.trace" -- true >"$T/out" 2>"$T/err" || rc=$?
if grep -q "^kernel_release $(uname -r)\$" "$CAL/machine.conf" && [ "$(nproc)" -eq 2 ]; then
	[ "$rc" -eq 0 ] || fail "record --calibration: exit $rc: $(cat "$T/err")"
	grep -qx 'param ctx_switch_bare=324ns' "$T/k.trace.machine.conf" ||
		fail "record --calibration: $(cat "$T/k.trace.machine.conf")"
else
	[ "$rc" -eq 2 ] && grep -q "are not this machine's" "$T/err" ||
		fail "record --calibration of another machine: exit $rc: $(cat "$T/err")"
	[ ! -e "$T/k.trace" ] || fail "record --calibration of another machine: a trace was written"
fi
echo "record.sh: ok"
