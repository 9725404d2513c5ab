#!/bin/sh
# Record the agreement set of docs/validate.md ("Agreement"): rt-app files of the Debian package
# (and of tests/data/rtapp-own) run for real on this machine, each cut to a few seconds (its
# "duration" rewritten), REPS times, kept in SETDIR/rN/NAME (rt-app's logs, the trace
# xz-compressed, machine.conf) with the load average before and after the run in
# SETDIR/rN/NAME/uptime. The protocol of issue 28: the machine is shared and a loaded recording
# is a noisier one, so a run starts only while the 1-minute load average is under MAXLOAD (1 by
# default); it waits up to WAIT seconds (300) for that, polling every 5 s, and skips the
# recording otherwise (said on stderr; a skipped recording leaves no directory). A run in which
# no thread of rt-app logged a single row is rt-app's failure, not a measurement: it is made
# again at once, up to three tries in all (docs/validate.md, step 30). Root, rt-app,
# tracefs. Then `sh tools/validate_agreement.sh SETDIR/r1/*` (the model) and
# `sh tools/validate_agreement.sh -b SETDIR/r2 SETDIR/r1/*` (the floor).
# FULL=1 keeps the whole trace (every recorded event of every task: the machine's own tasks,
# the harness, the interrupts and timers), where the default keeps only what validate reads for
# the file's tasks; the figures are the same either way, the foreign activity is readable only
# in a full one (docs/validate.md, "The background's shape (issue 28, step 16)").
# CALIB fixes rt-app's ns per loop in every recorded file: rt-app measures it anew at each
# launch when the file says "calibration": "CPU0", and on this machine the draw moved between
# 15 and 21 ns from one launch to the next (tests/data/validate-full), so the same "run" event
# ran 12-29% shorter in some recordings than in others: noise of rt-app's, not of the machine,
# which lowers the floor. CALIB=N writes "calibration" : N into each file's global object (a run
# of U us is then U*1000/N loops in every recording, and the model reads the same N from the
# recorded file); CALIB=auto measures N first: the
# median of CALIB_LAUNCHES (7) launches of rt-app's own calibration on CPU0, each value and the
# median kept in SETDIR/calibration. Unset (the default): the files' own "calibration".
# CALIBRATE=N runs `schedlab calibrate` N times right after the recordings, each only while the
# load is under MAXLOAD (as a recording), into SETDIR/calibrate/runK with its `uptime`: a machine
# description holds for the host's state it was measured in, and that state moves within a boot
# (docs/validate.md, step 26), so `tools/machine_for_boot.sh -c` takes these with the
# recordings of the same time. 0 (the default): none.
# Usage: sh tools/validate_record_set.sh [SETDIR] [SECONDS] [path/to/schedlab] [REPS] [FILES...]
set -eu
cd "$(dirname "$0")/.."
SET=${1:-tests/data/validate-set}
SECS=${2:-3}
SL=${3:-build/schedlab}
REPS=${4:-1}
[ $# -gt 4 ] && shift 4 || set --
MAXLOAD=${MAXLOAD:-1}
WAIT=${WAIT:-300}
FULL=${FULL:-0}
CALIB=${CALIB:-}
CALIB_LAUNCHES=${CALIB_LAUNCHES:-7}
CALIBRATE=${CALIBRATE:-0}
case $CALIBRATE in
'' | *[!0-9]*)
	echo "CALIBRATE: expected how many schedlab calibrate runs (0 or more), got '$CALIBRATE'" >&2
	exit 2
	;;
esac
EX=/usr/share/doc/rt-app/examples
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$SET"
# quiet: waits until the 1-minute load average is under MAXLOAD; 1 when it never was in WAIT s
quiet() {
	waited=0
	while :; do
		l=$(cut -d' ' -f1 /proc/loadavg)
		if awk -v l="$l" -v m="$MAXLOAD" 'BEGIN { exit !(l < m) }'; then
			return 0
		fi
		[ "$waited" -ge "$WAIT" ] && return 1
		sleep 5
		waited=$((waited + 5))
	done
}
[ $# -gt 0 ] || set -- browser-short mp3-short video-short template spreading-tasks \
	tutorial/example6 tutorial/example7
case $CALIB in
'') ;;
auto)
	# rt-app's own measurement, as a "calibration": "CPU0" file gets it at launch
	printf '{ "tasks": { "c": { "loop": 1, "run": 1000 } },\n' >"$TMP/calib.json"
	printf '  "global": { "duration": 1, "calibration": "CPU0", "logdir": "%s" } }\n' \
		"$TMP" >>"$TMP/calib.json"
	: >"$TMP/pload"
	for i in $(seq 1 "$CALIB_LAUNCHES"); do
		quiet || { echo "CALIB=auto: load $(cut -d' ' -f1-3 /proc/loadavg) for ${WAIT}s" >&2; exit 1; }
		rt-app "$TMP/calib.json" 2>&1 | sed -n 's/.*pLoad = \([0-9]*\)ns.*/\1/p' >>"$TMP/pload"
	done
	n=$(wc -l <"$TMP/pload")
	[ "$n" -ge 1 ] || { echo "CALIB=auto: rt-app printed no pLoad" >&2; exit 1; }
	CALIB=$(sort -n "$TMP/pload" | sed -n "$(((n + 1) / 2))p")
	mkdir -p "$SET"
	{
		echo "# rt-app's pLoad (ns per loop) at $CALIB_LAUNCHES launches, $(date -u '+%F %T') UTC, $(uname -r):"
		tr '\n' ' ' <"$TMP/pload"
		echo
		echo "# median, written as \"calibration\" into every recorded file:"
		echo "$CALIB"
	} >"$SET/calibration"
	echo "CALIB=auto: $(tr '\n' ' ' <"$TMP/pload")-> $CALIB ns per loop" >&2
	;;
*[!0-9]* | 0*)
	echo "CALIB: expected auto or ns per loop (an integer > 0), got '$CALIB'" >&2
	exit 2
	;;
*)
	# a given value is noted beside auto's measurements, so the set says what each run used
	mkdir -p "$SET"
	echo "# $(date -u '+%F %T') UTC, $(uname -r): CALIB=$CALIB given for: $*" >>"$SET/calibration"
	;;
esac
for rep in $(seq 1 "$REPS"); do
for f in "$@"; do
	name=$(basename "$f" .json)
	src=$EX/$f.json
	[ -f "$src" ] || src=$f
	[ "$REPS" -gt 1 ] && dir=$SET/r$rep || dir=$SET
	# the file with its duration cut to SECS where it has a "global" object (spreading-tasks'
	# phases are long: its first phases only; the tutorial's example3..5 have none and run as
	# validate runs them), and with CALIB's fixed calibration
	cp "$src" "$TMP/$name.json"
	if grep -q '"global"[[:space:]]*:[[:space:]]*{' "$src"; then
		sh tools/rtapp_set_global.sh duration "$SECS" "$src" "$TMP/$name.json"
	fi
	if [ -n "$CALIB" ]; then
		sh tools/rtapp_set_global.sh calibration "$CALIB" "$TMP/$name.json" "$TMP/$name.c.json"
		mv "$TMP/$name.c.json" "$TMP/$name.json"
	fi
	mkdir -p "$dir"
	if ! quiet; then
		echo "$name (r$rep): skipped, load $(cut -d' ' -f1-3 /proc/loadavg) for ${WAIT}s" >&2
		continue
	fi
	echo "== $name r$rep ($(uptime))"
	ok=0
	for try in 1 2 3; do
		rm -rf "${dir:?}/$name"
		before=$(uptime)
		if ! "$SL" validate "$TMP/$name.json" --out "$dir/$name" >/dev/null; then
			echo "$name: try $try failed" >&2
			continue
		fi
		after=$(uptime)
		# rt-app failed, not the machine: no thread logged a single run (validate-v1300b's
		# r3/example4: both threads on their vCPUs for 15 s without ending one 10 ms run).
		# Such a recording measures nothing, and tools/validate_agreement.sh -R leaves it out;
		# it is made again at once, in the same state of the host.
		if [ "$(cat "$dir/$name"/*.log 2>/dev/null | grep -vc '^#')" = 0 ]; then
			echo "$name: try $try: rt-app logged no run (rt-app's failure): recorded again" >&2
			continue
		fi
		ok=1
		printf 'before: %s\nafter:  %s\n' "$before" "$after" >"$dir/$name/uptime"
		break
	done
	[ "$ok" -eq 1 ] || {
		# a run without any logged row is kept, without its uptime, to be read, not counted
		echo "$name: validate failed or rt-app logged no run, 3 tries" >&2
		continue
	}
	rm -f "$dir/$name"/*.plot "$dir/$name"/*.unikid
	if [ "$FULL" = 1 ]; then
		xz -9 <"$dir/$name/real.trace" >"$dir/$name/real.trace.xz"
		rm "$dir/$name/real.trace"
		continue
	fi
	# keep of the trace what validate reads for the file's tasks (tools/trace_keep_file.sh): on
	# a shared machine the rest is other people's builds
	sh tools/trace_keep_file.sh "$dir/$name"
done
done
k=0
while [ "$k" -lt "$CALIBRATE" ]; do
	k=$((k + 1))
	if ! quiet; then
		echo "calibrate run$k: skipped, load $(cut -d' ' -f1-3 /proc/loadavg) for ${WAIT}s" >&2
		continue
	fi
	echo "== calibrate run$k ($(uptime))"
	mkdir -p "$SET/calibrate"
	rm -rf "$SET/calibrate/run$k"
	before=$(uptime)
	if ! "$SL" calibrate -o "$SET/calibrate/run$k" >/dev/null; then
		echo "calibrate run$k: schedlab calibrate failed" >&2
		continue
	fi
	printf 'before: %s\nafter:  %s\n' "$before" "$(uptime)" >"$SET/calibrate/run$k/uptime"
done
