#!/bin/sh
# shellcheck disable=SC2016,SC2046 # awk programs in single quotes; counts split into words on purpose
# The machine.conf lines read from recordings, in one command (issue 28, step 17): every `param`
# line of a machine directory (machines/fc-2vcpu-r28) that was measured on the calibration
# half's recorded traces rather than by `schedlab calibrate` on the machine, each read by the
# reader its line cites (docs/validate-map.md, part 2), printed as machine.conf lines with a
# comment line of counts before each:
#   wake_local, _sd, _decade     schedlab calibrate --recordings (timer wake-ups of an idle vCPU)
#   wake_remote, _sd, _decade    the same, --remote-known NS (NS: the IPI and the HLT exit the
#                                model charges already on that path)
#   vcpu_pack_waker              tools/sis_util.py --split: the rate over the wake-ups whose
#                                SIS_UTIL budget was > 0 (the residual, rule 3); the comment
#                                also gives tools/wake_pack.py --fit's count over all of them
#   vcpu_pack_queued             the same, with others queued on the waker's vCPU
#   vcpu_pack_room, _small, _prio  wake_pack.py --fit, the room without a bound on the wakee's
#                                size (small 1024, as machines/fc-2vcpu-r28); the fit's best
#                                size bound in the comment
#   wake_preempt                 tools/wake_preempt_pairs.py --no-again, the row "neither"
#                                (neither utilization 8 times the other's)
#   wake_preempt_ratio, _up, _down  the same table's bound (8, not measured: the rates are read
#                                at it) and its two other rows (these four are the long
#                                sleepers' rates, which machines/fc-2vcpu-r32 leaves out: there
#                                the policy's check decides, wake_preempt_long_policy; printed
#                                for reading and for r28 to r31's form)
#   wake_preempt_short           wake_preempt_pairs.py --short --no-again, all counted; when
#                                its table by run has wakers on both sides of 160 us, its
#   wake_preempt_short_late, _run  split line instead (machines/fc-2vcpu-r34, step 23): the
#                                rate under 160 us, the rate from it, and the 160 us
#   wake_preempt_again           wake_preempt_pairs.py --again, all counted
#   ipi_busy, vcpu_pack_wait     tools/wake_situations.py (the real median; "as high" moved)
#   vcpu_pack_wait_alone, _lower_alone, _crowded, _lower_crowded, vcpu_pack_join, vcpu_pack_stay,
#   vcpu_pack_irq
#                                the same reader: vcpu_pack_wait split by what waits on the
#                                other vCPU, and the wakee last there (docs/validate.md step 27),
#                                read from the whole traces, -f or not
#   task_preempt                 tools/preempt_switch.py: from a task's wake-up to its switch
#                                to the wakee that preempts it on its own vCPU, the median
#   rtapp_kloop, _sd             tools/run_stretch.py: rt-app's loop in the runs of 1000 us or
#                                more nothing preempted, the medians over the directories whose
#                                log clock offset is sure (machines/fc-2vcpu-r30: the loop's two
#                                host states, docs/validate.md step 19); none when no directory is
# Not here: the lines `schedlab calibrate` measures on the machine, the flags, wake_tail (a
# reader of its own) and wake_cold, _idle, _idle_decade (tools/wake_cold.py, which reads whole
# traces: a filtered one loses the switches to idle from foreign tasks, and the wake-ups of
# threads whose 16-character names leave them "rt-app"). The recordings must be read as their
# readers were written: traces that keep only the file's own tasks (validate_record_set.sh's
# default). A whole trace (FULL=1) is
# filtered first with -f (tools/trace_keep_file.sh on a temporary copy of each directory).
# Usage: sh tools/machine_from_recordings.sh [-s schedlab] [-k NS] [-n US] [-f] [-u] DIR...
#   DIR  a recorded `validate --out` directory (real.trace.xz or real.trace, NAME.json and the
#        rt-app logs beside it), e.g. tests/data/validate-rep/r[123]/ of the calibration half
#   -s   the binary (default build/schedlab)
#   -k   the ns wake_remote leaves out (default 7818: the IPI's 1000 ns and fc-2vcpu-r28's HLT
#        exit, 6818 ns)
#   -n   the Python readers with --no-foreign=US (the wake-ups while a foreign task held a vCPU
#        or had run on one at most US us before left out; not calibrate --recordings): for
#        reading, not machine.conf's way
#   -f   filter each trace to the file's own tasks first (a copy; DIR is not written)
#   -u   the room on the waker vCPU's attached tasks (wake_pack.py --fit --sum), and the line
#        param vcpu_pack_room_sum=1 before it: for a machine with that flag (docs/validate.md,
#        step 28)
# A DIR whose rt-app logs hold no run at all is left out, said on stderr (rt-app failed there;
# docs/validate.md, step 30). Each reader runs once over all the traces, one after another.
# Exit 2, naming it, on a DIR that is not a directory or has no trace, on DIRs that are all
# rt-app's failures, and on a reader's error (its message); 1 on a
# reader's output this script does not understand.
set -eu
TOOLS=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
SL=build/schedlab
KNOWN=7818
NF=
KEEP=0
SUM=
usage() {
	echo "usage: $0 [-s schedlab] [-k NS] [-n US] [-f] [-u] DIR..." >&2
	exit 2
}
while getopts s:k:n:fu o; do
	case $o in
	s) SL=$OPTARG ;;
	k) KNOWN=$OPTARG ;;
	n) NF=$OPTARG ;;
	f) KEEP=1 ;;
	u) SUM=--sum ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
case $KNOWN in '' | *[!0-9]*)
	echo "$0: -k $KNOWN: expected ns as a whole number" >&2
	exit 2
	;;
esac
case $NF in *[!0-9]*)
	echo "$0: -n $NF: expected us as a whole number" >&2
	exit 2
	;;
esac
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
die() {
	echo "$0: $*" >&2
	exit 2
}
# the traces, in the order of the directories; their directories (the filtered copies with -f),
# one a line, in $W/dirs for run_stretch.py
n=$#
i=0
: >"$W/dirs"
: >"$W/whole"
for d; do
	i=$((i + 1))
	[ -d "$d" ] || die "$d: not a directory (expected a recorded validate --out directory)"
	if [ -f "$d/real.trace.xz" ]; then
		tr=$d/real.trace.xz
	elif [ -f "$d/real.trace" ]; then
		tr=$d/real.trace
	else
		die "$d: no real.trace.xz or real.trace (expected a recorded validate --out directory)"
	fi
	# rt-app's failure (no thread logged a run: docs/validate.md, step 30) measured nothing
	if ls "$d"/*.log >/dev/null 2>&1 && ! cat "$d"/*.log | grep -qv '^#'; then
		echo "$0: $d: rt-app logged no run (rt-app's failure): left out" >&2
		continue
	fi
	printf '%s\n' "$tr" >>"$W/whole"
	if [ "$KEEP" = 1 ]; then
		k=$W/keep/$i/$(basename "$d")
		sh "$TOOLS/trace_keep_file.sh" -c "$k" "$d" 2>"$W/err" || die "$(cat "$W/err")"
		tr=$k/real.trace.xz
		printf '%s\n' "$k" >>"$W/dirs"
	else
		printf '%s\n' "$d" >>"$W/dirs"
	fi
	set -- "$@" "$tr"
done
shift "$n"
[ $# -ge 1 ] || die "every directory given is rt-app's failure (no run logged): nothing to read"
NFO=
[ -z "$NF" ] || NFO=--no-foreign=$NF

# run NAME COMMAND...: the command's output into $W/NAME; its error ends the script
run() {
	out=$1
	shift
	"$@" >"$W/$out" 2>"$W/err" || die "$(basename "$2"): $(cat "$W/err")"
}
run cal "$SL" calibrate --recordings --remote-known "$KNOWN" "$@"
# shellcheck disable=SC2086 # SUM and NFO are one word or none
run pack "$PY" "$TOOLS/wake_pack.py" --fit $SUM $NFO "$@"
# shellcheck disable=SC2086
run split "$PY" "$TOOLS/sis_util.py" --split $NFO "$@"
# shellcheck disable=SC2086
run pairs "$PY" "$TOOLS/wake_preempt_pairs.py" --no-again $NFO "$@"
# shellcheck disable=SC2086
run short "$PY" "$TOOLS/wake_preempt_pairs.py" --short --no-again $NFO "$@"
# shellcheck disable=SC2086
run again "$PY" "$TOOLS/wake_preempt_pairs.py" --again $NFO "$@"
# shellcheck disable=SC2086
run sit "$PY" "$TOOLS/wake_situations.py" $NFO "$@"
run pswitch "$PY" "$TOOLS/preempt_switch.py" "$@"
# step 27's lines from the whole traces: its rules look at what waits on each vCPU, where the
# model's background tasks wait and run as the foreign ones do (a filtered trace shows a vCPU
# that runs a foreign task idle); the reading they were tested on. Without -f and -n that is
# the reading just made
if [ "$KEEP" = 0 ] && [ -z "$NFO" ]; then
	cp "$W/sit" "$W/sitw"
else
	tr '\n' '\0' <"$W/whole" | xargs -0 "$PY" "$TOOLS/wake_situations.py" >"$W/sitw" 2>"$W/err" ||
		die "wake_situations.py: $(cat "$W/err")"
fi
# run_stretch.py reads directories (the rt-app logs beside each trace), not traces
tr '\n' '\0' <"$W/dirs" | xargs -0 "$PY" "$TOOLS/run_stretch.py" >"$W/stretch" 2>"$W/err" ||
	die "run_stretch.py: $(cat "$W/err")"

# get FILE AWK: the one line AWK prints from FILE; 1 naming FILE's reader when it prints none
get() {
	v=$(awk "$2" "$W/$1")
	[ -n "$v" ] || {
		echo "$0: $1: the reader's output is not as expected ($2)" >&2
		exit 1
	}
	printf '%s\n' "$v"
}

echo "# read from $# recording(s) by tools/machine_from_recordings.sh${NFO:+ ($NFO on the Python readers)}"
# calibrate --recordings: the local block, its comment lines and three param lines, then the
# remote block's (the tail lines, not machine lines, left out)
awk '/^# calibrate --recordings: .* timer wake-ups/ { on = 1 }
/^# calibrate --recordings: .* from another CPU/ { on = 2 }
/^# calibrate --recordings: .* wake-ups by a running task/ { on = 0 }
on && /^param wake_(local|remote)_tail/ { next }
on && /^# (the tail|[0-9]+ ran second|[0-9]+ wake-ups ran first)/ { next }
on { print }' "$W/cal" >"$W/cal.lines"
for p in wake_local wake_local_sd wake_local_decade wake_remote wake_remote_sd wake_remote_decade; do
	grep -q "^param $p=[0-9]*ns\$" "$W/cal.lines" || {
		echo "$0: calibrate --recordings printed no $p line:" >&2
		cat "$W/cal" >&2
		exit 1
	}
done
sed '/^# calibrate --recordings: .* from another CPU/s/^# calibrate --recordings:/# calibrate --recordings --remote-known '"$KNOWN"':/' "$W/cal.lines"

# sis_util.py --split: the bal rows of the two rules (all, budget 0, budget > 0: kept/of)
row() {
	get split '$1 == "'"$1"'" && $2 == "bal" { print $3, $5, $7 }'
}
# k/n -> "k of n"
of() {
	echo "$1" | sed 's|/| of |'
}
set -- $(row vcpu_pack_waker)
wa=$1 w0=$2 w1=$3
set -- $(row vcpu_pack_queued)
qa=$1 q0=$2 q1=$3
fit=$(get pack '/^# wake_pack.py --fit: / { print $(NF - 1) " of " $4 }')
echo "# tools/sis_util.py --split: of the wake-ups of a task last on its waker's vCPU, the waker alone there and the other vCPU idle, over a SIS_UTIL budget > 0 $(of "$w1") stayed (budget 0: $(of "$w0"); all: $(of "$wa")); tools/wake_pack.py --fit: $fit"
get split '/^vcpu_pack_waker=/ { print "param " $0 }'
qfit=$(get pack '/^# [0-9]+ wake-ups of a task last on the waker.s CPU, others queued there/ {
	print ($NF == "stayed" ? $(NF - 1) : 0) " of " $2 }')
echo "# tools/sis_util.py --split: the same with others waiting on the waker's vCPU, over a budget > 0 $(of "$q1") stayed (budget 0: $(of "$q0"); all: $(of "$qa"); wake_pack.py --fit: $qfit)"
get split '/^vcpu_pack_queued=/ { print "param " $0 }'

# wake_pack.py --fit: the room without a size bound (the param lines), the best bound beside
nb=$(get pack '/^# [0-9]+ of a task last on the idle CPU: the pair below says where/ { print $2 }')
set -- $(get pack '/^# [0-9]+ of a task last on the idle CPU: the pair below says where/ { print $(NF - 2), $NF }')
bw="$1 of $nb went $2"
bp=$(get pack '/^param vcpu_pack_(room|small|prio)=/ { printf "%s%s", s, substr($0, 7); s = " " } END { print "" }')
set -- $(get pack '/^# without a bound on the wakee.s size: / { sub(/:$/, "", $(NF - 3)); print $(NF - 5), $(NF - 3) }')
echo "# tools/wake_pack.py --fit: a task last on the idle vCPU joins a waker alone on its vCPU when their utilizations sum under the room and its prio is under the bound, no bound on its own size: says where $1 of $nb went $2 (the fit's best size bound, $bp, says where $bw)"
[ -z "$SUM" ] || get pack '/^param vcpu_pack_room_sum=/'
get pack '/^# without a bound on the wakee.s size: / {
	for (i = 1; i <= NF; i++) if ($i ~ /^vcpu_pack_(room|small|prio)=/) print "param " $i }'

# wake_preempt_pairs.py: the table by utilization of --no-agains run, then the two totals
urow() {
	get pairs '/^utilization \(the ratio / { on = 1; next } on && index($0, "'"$1"'") == 1 { print $(NF - 2), $(NF - 1), $NF }'
}
set -- $(urow neither)
echo "# tools/wake_preempt_pairs.py --no-again: of the wake-ups by a running task, inside its first 1.4 ms, of a task asleep 1 ms or more onto its vCPU, neither utilization 8 times the other's, $2 of $1 set need_resched"
echo "param wake_preempt=$3"
ratio=$(get pairs '/^utilization \(the ratio [0-9]+\)/ { sub(/^utilization \(the ratio /, ""); sub(/\).*/, ""); print }')
set -- $(urow "waker's $ratio times the wakee's or more")
up="$2 of $1" upv=$3
set -- $(urow "wakee's $ratio times the waker's or more")
echo "# the same table (ratio $ratio): the waker's utilization $ratio times the wakee's or more, $up set need_resched; the wakee's $ratio times the waker's, $2 of $1"
echo "param wake_preempt_ratio=$ratio"
echo "param wake_preempt_up=$upv"
echo "param wake_preempt_down=$3"
total() {
	get "$1" '/ counted wake-ups in [0-9]+ trace/ { sub(/\(/, "", $(NF - 2)); print $1, $10, $(NF - 2) }'
}
set -- $(total short)
echo "# tools/wake_preempt_pairs.py --short --no-again: of the same of a task asleep under 1 ms, the hand-offs' second halves left out, $2 of $1 set need_resched"
if grep -q '^param wake_preempt_short=[0-9]* wake_preempt_short_late=' "$W/short"; then
	echo "# the same by the waker's run since its switch-in, split at 160 us (its table by run): the rate under it, the rate from it"
	get short '/^param wake_preempt_short=[0-9]+ wake_preempt_short_late=/ { print "param " $2; print "param " $3; print "param " $4 }'
else
	echo "param wake_preempt_short=$3"
fi
set -- $(total again)
echo "# tools/wake_preempt_pairs.py --again: of the wake-ups of a task that had taken the vCPU from its waker, run at most 10 us and slept, by that waker, $2 of $1 set need_resched"
echo "param wake_preempt_again=$3"

# wake_situations.py: the real median of the busy remote wake-ups, the "as high" moved
ib=$(get sit '/^  real +[0-9]+ wake-ups/ { print $2 " wake-ups, median " $7 " us" }')
echo "# tools/wake_situations.py: a wake-up by a task onto the other vCPU, running a task the wakee then preempted, switches there after sched_waking: $ib"
get sit '/^param ipi_busy=/'
wt=$(get sit '/^  real +as high: / { print $4 " of " $6 }')
echo "# tools/wake_situations.py: with both vCPUs running a task, a wakee last on its waker's vCPU where a task of its priority or higher waits moves to the other vCPU $wt times"
get sit '/^param vcpu_pack_wait=/'
# the same split by what waits on the other vCPU, and the wakee last there (step 27), read
# from the whole traces
wa=$(get sitw '/^  real +\(B alone\) as high: / { print $6 " of " $8 ", only lower ones waiting " $10 " of " $12 }')
echo "# tools/wake_situations.py on the whole traces: the same where the other vCPU's task runs alone: $wa moved; where others wait there too, the rest (the _crowded lines)"
get sitw '/^param vcpu_pack_wait_(lower_)?(alone|crowded)=/'
jn=$(get sitw '/^  real +[0-9]+ of [0-9]+ \(/ { n++; if (n == 1) print $2 " of " $4 }')
st=$(get sitw '/^  real +[0-9]+ of [0-9]+ \(/ { n++; if (n == 2) print $2 " of " $4 }')
echo "# tools/wake_situations.py on the whole traces: a wake-up by a task alone on its vCPU of a task last on the other, busy one: with others waiting there, onto the waker's $jn (join); with its task alone there, stayed $st (stay)"
get sitw '/^param vcpu_pack_join=/'
get sitw '/^param vcpu_pack_stay=/'
ip=$(get sitw '/^  real +[0-9]+ of [0-9]+ \(/ { n++; if (n == 3) print $2 " of " $4 }')
echo "# tools/wake_situations.py on the whole traces: an interrupt on an idle vCPU with a woken task on its way there, waking a task last there, the other vCPU idle: stayed $ip"
get sitw '/^param vcpu_pack_irq=/'

# preempt_switch.py: the switch of an own-vCPU preemption after its wake-up
echo "# tools/preempt_switch.py: $(get pswitch '/ wake-ups preempting their waker / { sub(/ wake-ups preempting their waker on its own CPU; from the sched_waking to the switch \(us\): /, " such wake-ups, from the sched_waking to the switch (us): "); print }')"
get pswitch '/^param task_preempt=/'

# run_stretch.py: the loop's cost where nothing took the CPU, when a directory's clock is sure
if grep -q '^# the medians over [0-9]* directories' "$W/stretch"; then
	nd=$(get stretch '/^# the medians over [0-9]+ directories/ { print $5 }')
	echo "# tools/run_stretch.py: rt-app's loop in the runs of 1000 us or more nothing preempted, the medians over $nd directories whose log clock offset is sure of their mean ns a loop and spread"
	get stretch '/^param rtapp_kloop=/'
	get stretch '/^param rtapp_kloop_sd=/'
else
	echo "# tools/run_stretch.py: no directory with a sure log clock offset and 8 unpreempted long runs: no rtapp_kloop line"
fi
