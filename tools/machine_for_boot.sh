#!/bin/sh
# shellcheck disable=SC2016 # awk programs in single quotes
# A machine directory for the boot the recordings were made on, in one command (issue 28, step
# 24). A machine description belongs to its boot: rt-app's loop cost 19 ns on one boot of this
# guest and 14 on the next, and the earlier boot's directory agreed on 61.7% of the new
# recordings' figures where the one measured again got 82.9% (docs/validate.md, "Step 24").
# This is the way machines/fc-2vcpu-r29 and machines/fc-2vcpu-v1300 were measured, so that
# nobody has to redo it by hand:
#   1. `schedlab calibrate` RUNS times on this machine (or -c: the directories of earlier runs),
#      and of each of ctx_switch, cache_refill, timer_slack, migrate_core, background_rate and
#      background_run the median (the middle value; of an even count the lower middle: always a
#      measured value); the idle profile (machine.profile) and the machine lines (cpus,
#      kernel_release, cpuidle_driver, cpuidle_governor) of the run whose deepest idle state's
#      exit latency is the median of theirs;
#   2. tools/machine_from_recordings.sh -f on the recordings, with -k the IPI (BASE's `ipi`
#      line, else the 1000 ns default) plus that exit latency: what the model charges already on
#      a wake-up from the other CPU (and -u when BASE sets vcpu_pack_room_sum=1: its room is
#      fitted on the attached tasks' sum);
#   3. tools/wake_cold.py -c OUT (it takes the new switch cost out), then tools/wake_tail.py -c
#      OUT on the recordings filtered to the file's tasks (as r29's were read).
# Each line read replaces BASE's line of the same name; a line BASE does not have is not added
# (BASE's mechanisms decide which lines it takes: r34 has no wake_preempt line since the long
# sleepers went to the policy's check), and is named on stderr. Every other line of BASE (the
# flags, the mechanisms' other parameters) is kept. OUT/machine.conf starts with a header
# naming the measurement and the lines read, then BASE's own lines.
# Usage: sh tools/machine_for_boot.sh [-s schedlab] [-n RUNS] [-c 'CALDIR ...'] BASE OUT DIR...
#   BASE  a machine directory (machine.conf, its idle profile) whose mechanisms OUT keeps
#   OUT   the new machine directory; it must not exist (nothing is written over)
#   DIR   recorded `validate --out` directories of the calibration half, whole or filtered traces
#   -s    the binary (default build/schedlab); -n calibrate's runs (default 3); -c the
#         directories of earlier `schedlab calibrate -o` runs instead of running it
# Exit 2, naming it, on bad input (a BASE without machine.conf, an OUT that exists, a recording
# without a trace, a calibrate directory without a value, a reader's error); 1 when OUT cannot
# be written. OUT appears only when every step succeeded.
set -eu
TOOLS=$(cd "$(dirname "$0")" && pwd)
PY=${PYTHON:-python3}
SL=build/schedlab
RUNS=3
CALS=
usage() {
	echo "usage: $0 [-s schedlab] [-n runs] [-c 'caldir ...'] BASE OUT DIR..." >&2
	exit 2
}
while getopts s:n:c: o; do
	case $o in
	s) SL=$OPTARG ;;
	n) RUNS=$OPTARG ;;
	c) CALS=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || usage
BASE=$1
OUT=$2
shift 2
die() {
	echo "$0: $*" >&2
	exit 2
}
case $RUNS in '' | 0 | *[!0-9]*) die "-n $RUNS: expected a number of runs (1 or more)" ;; esac
[ -f "$BASE/machine.conf" ] || die "$BASE: no machine.conf (expected a machine directory)"
[ ! -e "$OUT" ] || die "$OUT: exists (expected a new directory's name)"
for d; do
	[ -d "$d" ] || die "$d: not a directory (expected a recorded validate --out directory)"
	[ -f "$d/real.trace.xz" ] || [ -f "$d/real.trace" ] ||
		die "$d: no real.trace.xz or real.trace (expected a recorded validate --out directory)"
done
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
say() {
	[ ! -t 2 ] || echo "$0: $*" >&2
}

# 1. calibrate's runs
if [ -z "$CALS" ]; then
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		say "schedlab calibrate, run $i of $RUNS (about 40 s each)"
		"$SL" calibrate -o "$W/cal$i" >"$W/err" 2>&1 || die "schedlab calibrate: $(cat "$W/err")"
		CALS="$CALS $W/cal$i"
	done
fi
# one line per run: DIR then the values, in the order of KEYS (the HLT's exit last, in ns)
KEYS="ctx_switch cache_refill timer_slack migrate_core background_rate background_run"
: >"$W/vals"
for c in $CALS; do
	[ -f "$c/machine.conf" ] || die "$c: no machine.conf (expected a schedlab calibrate -o directory)"
	prof=$(awk '$1 == "idle_profile" { print $2 }' "$c/machine.conf")
	{ [ -n "$prof" ] && [ -f "$c/$prof" ]; } || die "$c/machine.conf: no idle_profile line naming a file beside it"
	awk -v dir="$c" -v keys="$KEYS" -v prof="$c/$prof" '
		FILENAME != prof && $1 == "param" { split($2, kv, "="); v[kv[1]] = kv[2] }
		FILENAME != prof && ($1 == "background_rate" || $1 == "background_run") { v[$1] = $2 }
		FILENAME == prof && $1 == "state" { exit_us = $3 }
		END {
			n = split(keys, k, " ")
			line = dir
			for (i = 1; i <= n; i++) {
				if (!(k[i] in v)) {
					printf "%s/machine.conf: no %s line\n", dir, k[i] > "/dev/stderr"
					exit 2
				}
				x = v[k[i]]
				sub(/ns$/, "", x)
				if (x !~ /^[0-9]+$/) {
					printf "%s/machine.conf: %s=%s: expected a whole number (ns)\n", dir, k[i], v[k[i]] > "/dev/stderr"
					exit 2
				}
				line = line " " x
			}
			if (exit_us == "" || exit_us !~ /^[0-9.]+$/) {
				printf "%s: no idle state with an exit latency (us)\n", prof > "/dev/stderr"
				exit 2
			}
			printf "%s %d\n", line, exit_us * 1000 + 0.5
		}' "$c/machine.conf" "$c/$prof" >>"$W/vals" 2>"$W/err" || die "$(cat "$W/err")"
done
NCAL=$(wc -l <"$W/vals")
[ "$NCAL" -ge 1 ] || die "-c '$CALS': no calibrate directory"
# median COLUMN: the middle value of the runs' column (of an even count the lower middle)
median() {
	awk -v c="$1" '{ print $c }' "$W/vals" | sort -n | sed -n "$(((NCAL + 1) / 2))p"
}
HLT=$(median 8)
# the run whose exit latency is the median: its profile and machine lines
MID=$(awk -v h="$HLT" '$8 == h { print $1; exit }' "$W/vals")
mkdir -p "$W/out"
cp "$BASE/machine.conf" "$W/out/machine.conf.base"
prof=$(awk '$1 == "idle_profile" { print $2 }' "$MID/machine.conf")
cp "$MID/$prof" "$W/out/$prof"
# the new lines, machine.conf's form, in $W/new
{
	awk '$1 == "cpus" || $1 == "kernel_release" || $1 == "cpuidle_driver" ||
		$1 == "cpuidle_governor" || $1 == "idle_profile"' "$MID/machine.conf"
	col=1
	for k in $KEYS; do
		col=$((col + 1))
		case $k in
		background_*) [ "$k" = background_rate ] && echo "$k $(median $col)" || echo "$k $(median $col)ns" ;;
		*) echo "param $k=$(median $col)ns" ;;
		esac
	done
} >"$W/new"

# replace FILE: BASE's copy ($W/out/machine.conf.base) with FILE's lines put in place of its
# lines of the same name; the names replaced appended to $W/done, the others to $W/left
replace() {
	awk -v done="$W/done" -v left="$W/left" '
		function key(    k) {
			if ($1 == "param") { split($2, kv, "="); return "param " kv[1] }
			return $1
		}
		FNR == NR { if ($0 !~ /^#/ && NF) { nl[key()] = $0; order[++n] = key() } next }
		$0 !~ /^#/ && NF && (key() in nl) { print nl[key()]; seen[key()] = 1; next }
		{ print }
		END {
			for (i = 1; i <= n; i++) {
				k = order[i]
				sub(/^param /, "", k)
				print k >> (order[i] in seen ? done : left)
			}
		}' "$1" "$W/out/machine.conf.base" >"$W/out/machine.conf.next"
	mv "$W/out/machine.conf.next" "$W/out/machine.conf.base"
	cp "$W/out/machine.conf.base" "$W/out/machine.conf"
}
: >"$W/done"
: >"$W/left"
replace "$W/new"

# 2. the recordings' lines, the remote path less the IPI and this exit latency
IPI=$(sed -n 's/^param ipi=\([0-9]*\)ns$/\1/p' "$BASE/machine.conf")
[ -n "$IPI" ] || IPI=1000
K=$((IPI + HLT))
# a BASE whose room reads the attached tasks' sum has its room fitted on that sum
U=
grep -q '^param vcpu_pack_room_sum=1$' "$BASE/machine.conf" && U=-u
say "tools/machine_from_recordings.sh -f $U -k $K on $# recordings"
# shellcheck disable=SC2086 # U is one word or none
sh "$TOOLS/machine_from_recordings.sh" -s "$SL" -f $U -k "$K" "$@" >"$W/rec" 2>"$W/err" ||
	die "$(cat "$W/err")"
grep '^param ' "$W/rec" >"$W/rec.lines" || die "tools/machine_from_recordings.sh printed no line"
replace "$W/rec.lines"

# 3. the cold start and the waker's tail, each against OUT as it stands
say "tools/wake_cold.py -c OUT"
"$PY" "$TOOLS/wake_cold.py" -c "$W/out" "$@" >"$W/cold" 2>"$W/err" ||
	die "tools/wake_cold.py: $(cat "$W/err")"
grep '^param ' "$W/cold" >"$W/cold.lines" || die "tools/wake_cold.py printed no line"
replace "$W/cold.lines"
say "tools/wake_tail.py -c OUT on the filtered recordings"
i=0
for d; do
	i=$((i + 1))
	f=$W/filt/$i/$(basename "$d")
	sh "$TOOLS/trace_keep_file.sh" -c "$f" "$d" 2>"$W/err" || die "$(cat "$W/err")"
	set -- "$@" "$f"
done
shift "$i"
"$PY" "$TOOLS/wake_tail.py" -s "$SL" -c "$W/out" "$@" >"$W/tail" 2>"$W/err" ||
	die "tools/wake_tail.py: $(cat "$W/err")"
grep '^param wake_tail=' "$W/tail" >"$W/tail.lines" || die "tools/wake_tail.py printed no wake_tail line"
replace "$W/tail.lines"

if [ -s "$W/left" ]; then
	echo "$0: not in $BASE, so not added: $(sort -u "$W/left" | tr '\n' ' ' | sed 's/ $//')" >&2
fi
# the header, then BASE's lines with the new values
{
	echo "# schedlab machine description (docs: schedlab validate --help)"
	echo "# Measured for its boot by tools/machine_for_boot.sh from $(basename "$BASE"): schedlab calibrate's"
	echo "# medians over $NCAL run(s), the recordings' readers on $# recording(s) (machine_from_recordings.sh"
	echo "# -f${U:+ $U} -k $K, wake_cold.py and wake_tail.py -c this directory). The lines read:"
	sort -u "$W/done" | awk 'l != "" && length(l) + 1 + length($0) > 90 { print "#   " l; l = "" }
		{ l = l == "" ? $0 : l " " $0 }
		END { if (l != "") print "#   " l }'
	echo "# The comments below are $(basename "$BASE")'s."
	echo "#"
	grep -v '^# schedlab machine description' "$W/out/machine.conf.base"
} >"$W/out/machine.conf"
rm "$W/out/machine.conf.base"
mkdir -p "$(dirname "$OUT")" 2>/dev/null || true
cp -r "$W/out" "$OUT" 2>"$W/err" || {
	echo "$0: $OUT: $(cat "$W/err")" >&2
	rm -rf "$OUT"
	exit 1
}
echo "$OUT: $(sort -u "$W/done" | wc -l) lines measured"
