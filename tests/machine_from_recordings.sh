#!/bin/sh
# tools/machine_from_recordings.sh (machine.conf's lines read from recordings, one command) on
# two recordings of the calibration half (tests/data/validate-rep/r1: browser-long, example1).
# Each printed line is asserted against the reader its line cites, run here on the
# same traces and read here (its own rows, not the script's parsing): a line taken from another
# reader or another row of the right one fails, and so does a count in a comment. The values
# the test tells apart are checked to differ on these traces (else a swap could not show).
# Then the errors: a directory without a trace, a file for a directory (exit 2, named); and -f
# (whole traces filtered to the file's tasks first).
# Usage: sh tests/machine_from_recordings.sh path/to/schedlab
set -eu
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3}
R=$ROOT/tests/data/validate-rep/r1
D="$R/browser-long $R/example1"
TR="$R/browser-long/real.trace.xz $R/example1/real.trace.xz"
# shellcheck disable=SC2086
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" -k 5000 $D >"$T/out" 2>"$T/err" ||
	fail "exit $?: $(cat "$T/err")"

# line NAME: the value of `param NAME=` in the script's output (exactly one such line)
line() {
	[ "$(grep -c "^param $1=" "$T/out")" -eq 1 ] || fail "$1: not one line: $(cat "$T/out")"
	sed -n "s/^param $1=//p" "$T/out"
}
# is NAME WANT: the script's NAME is WANT
is() {
	got=$(line "$1")
	[ "$got" = "$2" ] || fail "$1=$got, expected $2 (the reader's own)"
}
# has TEXT: a comment line of the output holds TEXT (a fixed string)
has() {
	grep '^#' "$T/out" | grep -qF -e "$1" || fail "no comment with '$1': $(cat "$T/out")"
}
# differ A B: two readers' values differ on these traces (so that a swap would show)
differ() {
	[ "$1" != "$2" ] || fail "the fixture cannot tell $3 apart ($1 both)"
}

# calibrate --recordings, the remote row less 5000 ns (-k), the local one as printed
"$SL" calibrate --recordings --remote-known 5000 $D >"$T/cal"
for p in wake_local wake_local_sd wake_local_decade wake_remote wake_remote_sd wake_remote_decade; do
	is "$p" "$(sed -n "s/^param $p=//p" "$T/cal")"
done
# the remote row is 5000 ns under calibrate's own without -k (the option reaches calibrate)
r0=$("$SL" calibrate --recordings $D | sed -n 's/^param wake_remote=\([0-9]*\)ns$/\1/p')
is wake_remote "$((r0 - 5000))ns"
differ "$(line wake_local)" "$(line wake_remote)" "wake_local and wake_remote"
has "--remote-known 5000: "
grep -q '_tail' "$T/out" && fail "a tail line (not a machine line): $(cat "$T/out")"

# sis_util.py --split: the residuals over budget > 0, with the bal row's counts in the comment
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/sis_util.py" --split $TR >"$T/split"
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/wake_pack.py" --fit $TR >"$T/pack"
is vcpu_pack_waker "$(sed -n 's/^vcpu_pack_waker=//p' "$T/split")"
is vcpu_pack_queued "$(sed -n 's/^vcpu_pack_queued=//p' "$T/split")"
wq=$(sed -n 's/^param vcpu_pack_queued=//p' "$T/pack")
differ "$(line vcpu_pack_queued)" "$wq" "sis_util's vcpu_pack_queued and wake_pack's"
differ "$(line vcpu_pack_queued)" "$(line vcpu_pack_waker)" "vcpu_pack_queued and _waker"
q1=$(awk '$1 == "vcpu_pack_queued" && $2 == "bal" { print $7 }' "$T/split")
w1=$(awk '$1 == "vcpu_pack_waker" && $2 == "bal" { print $7 }' "$T/split")
has "budget > 0 ${q1%/*} of ${q1#*/} stayed"
has "budget > 0 ${w1%/*} of ${w1#*/} stayed"
# wake_pack.py --fit: the room, small and prio of its line without a size bound
nb=$(sed -n 's/^# without a bound.* vcpu_pack_room=\([0-9]*\) vcpu_pack_small=\([0-9]*\) vcpu_pack_prio=\([0-9]*\)$/\1 \2 \3/p' "$T/pack")
set -- $nb
is vcpu_pack_room "$1"
is vcpu_pack_small "$2"
is vcpu_pack_prio "$3"
differ "$2" "$(sed -n 's/^param vcpu_pack_small=//p' "$T/pack")" "the two vcpu_pack_small"
kept=$(sed -n "s/^# wake_pack.py --fit: \([0-9]*\) wake-ups.*, \([0-9]*\) stayed;$/\2 of \1/p" "$T/pack")
has "tools/wake_pack.py --fit: $kept"

# wake_preempt_pairs.py: --no-again's table by size, --short --no-again's and --again's totals
# the rows' per-1000 column of the table after its heading
size() {
	awk -v w="$2" '/^utilization/ { on = 1 } on && substr($0, 1, length(w)) == w { print $NF }' "$1"
}
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/wake_preempt_pairs.py" --no-again $TR >"$T/pairs"
is wake_preempt "$(size "$T/pairs" neither)"
is wake_preempt_up "$(size "$T/pairs" "waker's 8 times")"
is wake_preempt_down "$(size "$T/pairs" "wakee's 8 times")"
is wake_preempt_ratio 8
per1000() {
	sed -n 's/.*need_resched set in \([0-9]*\) (\([0-9]*\) per 1000)$/\2/p' "$1"
}
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/wake_preempt_pairs.py" --short --no-again $TR >"$T/short"
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/wake_preempt_pairs.py" --again $TR >"$T/again"
# these traces have short sleepers' wakers on both sides of 160 us of run: the split line's
# three values (step 23), not the pooled rate, which the comment keeps
split=$(sed -n 's/^param \(wake_preempt_short=[0-9]* wake_preempt_short_late=[0-9]* wake_preempt_short_run=[0-9]*ns\)$/\1/p' "$T/short")
[ -n "$split" ] || fail "no split line from wake_preempt_pairs.py --short: $(cat "$T/short")"
for kv in $split; do
	is "${kv%%=*}" "${kv#*=}"
done
differ "$(line wake_preempt_short)" "$(per1000 "$T/short")" "the split's rate under 160 us and the pooled"
is wake_preempt_again "$(per1000 "$T/again")"
differ "$(line wake_preempt)" "$(per1000 "$T/pairs")" "the row 'neither' and --no-again's total"
differ "$(line wake_preempt_up)" "$(line wake_preempt_down)" "wake_preempt_up and _down"
differ "$(line wake_preempt_short)" "$(line wake_preempt_again)" "the short and the again"
differ "$(line wake_preempt_short)" "$(line wake_preempt)" "wake_preempt_short and wake_preempt"
s=$(sed -n 's/^\([0-9]*\) counted.*need_resched set in \([0-9]*\) .*/\2 of \1/p' "$T/short")
has "--short --no-again: of the same of a task asleep under 1 ms, the hand-offs' second halves left out, $s set"

# preempt_switch.py: its task_preempt line and its count
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/preempt_switch.py" $TR >"$T/pswitch"
is task_preempt "$(sed -n 's/^param task_preempt=//p' "$T/pswitch")"
has "tools/preempt_switch.py: $(sed -n 's/^\([0-9]*\) wake-ups preempting.*/\1/p' "$T/pswitch") such wake-ups"

# wake_situations.py: its ipi_busy and vcpu_pack_wait lines, not its vcpu_pack_queued
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/wake_situations.py" $TR >"$T/sit"
is ipi_busy "$(sed -n 's/^param ipi_busy=//p' "$T/sit")"
is vcpu_pack_wait "$(sed -n 's/^param vcpu_pack_wait=//p' "$T/sit")"
differ "$(sed -n 's/^param vcpu_pack_queued=//p' "$T/sit")" "$(line vcpu_pack_queued)" \
	"wake_situations' vcpu_pack_queued and sis_util's"
differ "$(sed -n 's/^param vcpu_pack_wait_lower=//p' "$T/sit")" "$(line vcpu_pack_wait)" \
	"vcpu_pack_wait and _lower"
# its seven lines of step 27 (read from the whole traces, which these are)
S27='vcpu_pack_wait_alone vcpu_pack_wait_crowded vcpu_pack_wait_lower_alone vcpu_pack_wait_lower_crowded vcpu_pack_join vcpu_pack_stay vcpu_pack_irq'
for k in $S27; do
	is "$k" "$(sed -n "s/^param $k=//p" "$T/sit")"
done
differ "$(line vcpu_pack_join)" "$(line vcpu_pack_stay)" "vcpu_pack_join and _stay"
differ "$(line vcpu_pack_wait_alone)" "$(line vcpu_pack_wait_lower_alone)" "the two _alone lines"

# run_stretch.py (directories, not traces): its two lines, over the one directory with a sure
# clock offset (example1's is not: its loops end in a timer already past)
# shellcheck disable=SC2086
"$PY" "$ROOT/tools/run_stretch.py" $D >"$T/stretch"
is rtapp_kloop "$(sed -n 's/^param rtapp_kloop=//p' "$T/stretch")"
is rtapp_kloop_sd "$(sed -n 's/^param rtapp_kloop_sd=//p' "$T/stretch")"
differ "$(line rtapp_kloop)" "$(line rtapp_kloop_sd)" "rtapp_kloop and its spread"
has "the medians over 1 directories whose log clock offset is sure"

# every line is a comment or a param line, and no other param line is printed
grep -v '^#' "$T/out" | grep -v '^param [a-z_]*=[0-9]*\(ns\)\{0,1\}$' && fail "a line that is neither"
n=$(grep -c '^param ' "$T/out")
[ "$n" -eq 31 ] || fail "$n param lines, expected 31: $(cat "$T/out")"

# errors: a directory without a trace, a file given for a directory, a bad -k; exit 2, named
mkdir "$T/empty"
for bad in "$T/empty" "$R/example1/real.trace.xz"; do
	rc=0
	sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" "$R/example1" "$bad" >"$T/o2" 2>"$T/e2" || rc=$?
	[ "$rc" -eq 2 ] || fail "$bad: exit $rc, expected 2"
	grep -qF "$bad" "$T/e2" || fail "$bad: not named: $(cat "$T/e2")"
	[ ! -s "$T/o2" ] || fail "$bad: output on error: $(cat "$T/o2")"
done
rc=0
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" -k 7e3 "$R/example1" >/dev/null 2>"$T/e2" || rc=$?
[ "$rc" -eq 2 ] || fail "-k 7e3: exit $rc, expected 2"

# -f on two whole recordings (tests/data/validate-v1272/r1, calibration half, FULL=1: every
# task's lines): the lines of the same recordings filtered here by tools/trace_keep_file.sh, and
# the whole directories not written; without -f the whole trace is read (calibrate --recordings
# counts the foreign tasks' wake-ups too), so the filter is what makes them equal
V=$ROOT/tests/data/validate-v1272/r1
before=$(ls -l --time-style=+%s.%N "$V/example1" "$V/browser-long" | md5sum)
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" -f "$V/browser-long" "$V/example1" >"$T/outf" 2>"$T/err" ||
	fail "-f: exit $?: $(cat "$T/err")"
[ "$before" = "$(ls -l --time-style=+%s.%N "$V/example1" "$V/browser-long" | md5sum)" ] ||
	fail "-f wrote into $V"
for f in browser-long example1; do
	mkdir -p "$T/k/$f"
	cp "$V/$f"/* "$T/k/$f"/
	sh "$ROOT/tools/trace_keep_file.sh" "$T/k/$f"
done
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" "$T/k/browser-long" "$T/k/example1" >"$T/outk"
# step 27's seven lines (and their three comments) come from the whole traces even with -f
s27() {
	grep -v -e '^# tools/wake_situations.py on the whole traces' \
		-e '^param vcpu_pack_\(wait_\(lower_\)\{0,1\}\(alone\|crowded\)\|join\|stay\|irq\)=' "$1"
}
s27 "$T/outk" >"$T/outk2"
s27 "$T/outf" >"$T/outf2"
cmp -s "$T/outk2" "$T/outf2" || fail "-f: not the filtered recordings' lines: $(diff "$T/outk2" "$T/outf2")"
"$PY" "$ROOT/tools/wake_situations.py" "$V/browser-long/real.trace.xz" "$V/example1/real.trace.xz" >"$T/sitv"
for k in $S27; do
	[ "$(sed -n "s/^param $k=//p" "$T/outf")" = "$(sed -n "s/^param $k=//p" "$T/sitv")" ] ||
		fail "-f: $k not the whole traces' ($(grep "^param $k=" "$T/outf"))"
done
"$SL" calibrate --recordings "$V/browser-long" "$V/example1" | grep '^# calibrate --recordings: .* timer wake-ups' >"$T/whole"
grep '^# calibrate --recordings: .* timer wake-ups' "$T/outf" >"$T/kept"
cmp -s "$T/whole" "$T/kept" && fail "-f: the whole traces' counts ($(cat "$T/whole"))"
# -u: the room fitted on the attached tasks' sum (wake_pack.py --fit --sum, its line without a
# size bound) and the flag's line; without -u no flag line
! grep -q '^param vcpu_pack_room_sum=' "$T/outk" || fail "without -u: a vcpu_pack_room_sum line"
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" -u "$T/k/browser-long" "$T/k/example1" >"$T/outu" ||
	fail "-u: exit $?"
"$PY" "$ROOT/tools/wake_pack.py" --fit --sum "$T/k/browser-long/real.trace.xz" \
	"$T/k/example1/real.trace.xz" >"$T/packu"
room=$(sed -n 's/^# without a bound on the wakee.s size: .* vcpu_pack_room=\([0-9]*\) .*/\1/p' "$T/packu")
[ -n "$room" ] && grep -q '^param vcpu_pack_room_sum=1$' "$T/outu" &&
	grep -q "^param vcpu_pack_room=$room\$" "$T/outu" ||
	fail "-u: room $room: $(grep 'vcpu_pack_room' "$T/outu")"
# the room is 675 either way on these two, but the sum says where more went (85 against 81 of
# the wake-ups of a task last on the idle vCPU): the comment gives the sum's count
n=$(sed -n 's/^# without a bound on the wakee.s size: the room below says where \([0-9]*\) went.*/\1/p' "$T/packu")
grep -q "no bound on its own size: says where $n of " "$T/outu" ||
	fail "-u: not the sum's count $n: $(grep 'no bound on its own size' "$T/outu")"
grep -q "no bound on its own size: says where $n of " "$T/outk" &&
	fail "-u: the fixture cannot tell the sum from the busy time"
# rt-app's failure (step 30): a copy of example1 whose logs hold no row is left out, said on
# stderr, and the lines are those of the other two alone; given alone, nothing is left: exit 2
mkdir -p "$T/fail/example1"
cp "$T/k/example1"/* "$T/fail/example1/"
for l in "$T/fail/example1"/*.log; do
	grep '^#' "$l" >"$l.h" || :
	mv "$l.h" "$l"
done
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" "$T/k/browser-long" "$T/fail/example1" \
	"$T/k/example1" >"$T/outx" 2>"$T/err" || fail "a failed recording: exit $?, $(cat "$T/err")"
grep -q "$T/fail/example1: rt-app logged no run (rt-app's failure): left out" "$T/err" ||
	fail "the failed recording not named: $(cat "$T/err")"
cmp -s "$T/outx" "$T/outk" || fail "a failed recording read: $(diff "$T/outx" "$T/outk")"
rc=0
sh "$ROOT/tools/machine_from_recordings.sh" -s "$SL" "$T/fail/example1" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'every directory given is rt-app.s failure' "$T/err" ||
	fail "only a failed recording: exit $rc, $(cat "$T/err")"
exit 0
