#!/bin/sh
# shellcheck disable=SC2086,SC2013 # D is two directories, split on purpose; the names are words
# tools/machine_for_boot.sh (a machine directory for a boot, measured in one command) with three
# calibrate directories written by hand (tests/data/machine-for-boot: each median from a run of
# its own) and two recordings (tests/data/validate-v1300/r1: mp3-long, video-long), on
# machines/fc-2vcpu-r34. Asserted: each calibrate median and the median-exit run's profile and
# machine lines; -k the IPI's 1000 ns plus that exit; each recording line against its reader run
# here (machine_from_recordings.sh -f -k, wake_cold.py -c, wake_tail.py -c on traces filtered
# here); a line BASE lacks is not added and is named; BASE's other lines kept; then the errors
# (an OUT that exists, a BASE without machine.conf, a calibrate directory without a value, a
# recording without a trace: exit 2, named, no OUT left).
# Usage: sh tests/machine_for_boot.sh path/to/schedlab
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
C=$ROOT/tests/data/machine-for-boot
R=$ROOT/tests/data/validate-v1300/r1
BASE=$ROOT/machines/fc-2vcpu-r34
D="$R/mp3-long $R/video-long"
sh "$ROOT/tools/machine_for_boot.sh" -s "$SL" -c "$C/cal1 $C/cal2 $C/cal3" "$BASE" "$T/out" $D \
	>"$T/so" 2>"$T/serr" || fail "exit $?: $(cat "$T/serr")"
M=$T/out/machine.conf

# conf LINE: the line is in OUT's machine.conf exactly once
conf() {
	[ "$(grep -cxF -e "$1" "$M")" -eq 1 ] || fail "not one line '$1' in machine.conf: $(grep -v '^#' "$M")"
}
# value NAME FILE: `param NAME=` of FILE (one line)
value() {
	sed -n "s/^param $1=//p" "$2"
}

# the medians, each from its own run (tests/data/machine-for-boot/README.md)
conf "param ctx_switch=1000ns"
conf "param cache_refill=10ns"
conf "param timer_slack=60000ns"
conf "param migrate_core=29000ns"
conf "background_rate 22"
conf "background_run 117000ns"
# the run of the median exit (run 1, 20 us): its profile and machine lines
grep -qx 'state HLT 20.000 20.000 2000 time_valid' "$T/out/machine.profile" ||
	fail "the profile is not run 1's: $(cat "$T/out/machine.profile")"
conf "cpuidle_driver haltpoll"
conf "cpuidle_governor haltpoll"
conf "kernel_release 6.18.44-fc-v1300"
# calibrate's lines r34 has no line of (ctx_switch_bare, and its wake_local and rtapp_kloop are
# the recordings') are not taken from it
grep -q '^param ctx_switch_bare=' "$M" && fail "ctx_switch_bare added from calibrate"
[ "$(value wake_local "$M")" != 19007ns ] || fail "wake_local taken from calibrate, not the recordings"

# the recordings' lines: machine_from_recordings.sh with -k 1000 + 20000
grep -q -- '-f -k 21000,' "$M" || fail "no -k 21000 in the header: $(head -8 "$M")"
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" -f -k 21000 $D >"$T/rec" 2>"$T/err" ||
	fail "machine_from_recordings.sh: $(cat "$T/err")"
n=0
for p in $(sed -n 's/^param \([a-z_]*\)=.*/\1/p' "$T/rec"); do
	if grep -q "^param $p=" "$BASE/machine.conf"; then
		[ "$(value "$p" "$M")" = "$(value "$p" "$T/rec")" ] ||
			fail "$p=$(value "$p" "$M"), machine_from_recordings.sh says $(value "$p" "$T/rec")"
		n=$((n + 1))
	else
		grep -q "^param $p=" "$M" && fail "$p added: r34 has no such line"
		grep -q "not added:.* $p\( \|$\)" "$T/serr" || fail "$p not named on stderr: $(cat "$T/serr")"
	fi
done
[ "$n" -ge 20 ] || fail "only $n recording lines checked"
# the remote line moved by the exit: 21000 ns, not the script's default 7818
[ "$(value wake_remote "$M")" != "$(value wake_remote "$BASE/machine.conf")" ] || fail "wake_remote is r34's"
# wake_cold.py against OUT (its switch cost 1000 + 10 ns)
"$PY" "$ROOT/tools/wake_cold.py" -c "$T/out" $D >"$T/cold"
for p in wake_cold wake_cold_idle wake_cold_idle_decade; do
	[ "$(value $p "$M")" = "$(value $p "$T/cold")" ] || fail "$p=$(value $p "$M"), wake_cold.py -c OUT says $(value $p "$T/cold")"
done
"$PY" "$ROOT/tools/wake_cold.py" -c "$BASE" $D >"$T/cold0"
[ "$(value wake_cold "$T/cold")" != "$(value wake_cold "$T/cold0")" ] ||
	fail "the fixture cannot tell wake_cold against OUT from against BASE"
# wake_tail.py against OUT on the traces filtered here
for d in $D; do
	sh "$ROOT/tools/trace_keep_file.sh" -c "$T/filt/$(basename "$d")" "$d"
done
"$PY" "$ROOT/tools/wake_tail.py" -s "$SL" -c "$T/out" "$T/filt/mp3-long" "$T/filt/video-long" >"$T/tail"
[ "$(value wake_tail "$M")" = "$(value wake_tail "$T/tail")" ] ||
	fail "wake_tail=$(value wake_tail "$M"), wake_tail.py says $(value wake_tail "$T/tail")"
# BASE's other lines kept: its flags and its mechanisms' lines
for l in "param wake_preempt_all=1" "param wake_skip_delayed=1" "param vcpu_pack_irq_alone=953" \
	"cpuidle_disable POLL" "background_phase_random 1" "param rtapp_calib=15ns"; do
	conf "$l"
done
# every line of OUT that is not a comment is BASE's or read (the same count of lines)
[ "$(grep -vc '^#' "$M")" -eq "$(grep -vc '^#' "$BASE/machine.conf")" ] || fail "lines added or lost"
# validate takes it
"$SL" validate "$R/mp3-long/mp3-long.json" --real "$R/mp3-long" --calibration "$T/out" >/dev/null ||
	fail "validate refused OUT"

# a BASE with vcpu_pack_room_sum=1: the room fitted on the attached tasks' sum
# (machine_from_recordings.sh -u, named in the header); without the flag, the header says -f -k
grep -q '^# -f -k [0-9]*, wake_cold.py' "$M" || fail "the header: $(sed -n 4p "$M")"
mkdir -p "$T/bsum"
cp "$BASE/machine.profile" "$T/bsum/"
sed 's/^param vcpu_pack_room=675$/param vcpu_pack_room_sum=1\n&/' "$BASE/machine.conf" >"$T/bsum/machine.conf"
sh "$ROOT/tools/machine_for_boot.sh" -s "$SL" -c "$C/cal1 $C/cal2 $C/cal3" "$T/bsum" "$T/osum" $D \
	>"$T/so" 2>"$T/serr" || fail "sum: exit $?: $(cat "$T/serr")"
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" -f -u $D >"$T/recu"
grep -q '^# -f -u -k [0-9]*, wake_cold.py' "$T/osum/machine.conf" &&
	grep -qx 'param vcpu_pack_room_sum=1' "$T/osum/machine.conf" &&
	[ "$(value vcpu_pack_room "$T/osum/machine.conf")" = "$(value vcpu_pack_room "$T/recu")" ] ||
	fail "sum: $(grep 'vcpu_pack_room\|^# -f' "$T/osum/machine.conf")"

# errors: exit 2, named, no OUT
expect2() {
	out=$1
	shift
	if sh "$ROOT/tools/machine_for_boot.sh" -s "$SL" "$@" >"$T/so" 2>"$T/err"; then
		fail "exit 0 for $*"
	else
		rc=$?
	fi
	[ "$rc" -eq 2 ] || fail "exit $rc for $*: $(cat "$T/err")"
	[ "$out" = - ] || [ ! -e "$out" ] || fail "$out left behind for $*"
}
expect2 - -c "$C/cal1" "$BASE" "$T/out" $D
grep -q "$T/out: exists" "$T/err" || fail "an OUT that exists not named: $(cat "$T/err")"
expect2 "$T/o2" -c "$C/cal1" "$C" "$T/o2" $D
grep -q "$C: no machine.conf" "$T/err" || fail "a BASE without machine.conf not named: $(cat "$T/err")"
mkdir -p "$T/bad"
grep -v '^param migrate_core=' "$C/cal2/machine.conf" >"$T/bad/machine.conf"
cp "$C/cal2/machine.profile" "$T/bad/"
expect2 "$T/o3" -c "$C/cal1 $T/bad" "$BASE" "$T/o3" $D
grep -q "$T/bad/machine.conf: no migrate_core line" "$T/err" || fail "a missing value not named: $(cat "$T/err")"
mkdir -p "$T/notrace"
expect2 "$T/o4" -c "$C/cal1" "$BASE" "$T/o4" "$T/notrace"
grep -q "$T/notrace: no real.trace" "$T/err" || fail "a recording without a trace not named: $(cat "$T/err")"
expect2 "$T/o5" -n x "$BASE" "$T/o5" $D
grep -q -- "-n x: expected" "$T/err" || fail "-n x not named: $(cat "$T/err")"
exit 0
