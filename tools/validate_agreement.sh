#!/bin/sh
# The per-figure agreement of the model with a recorded set of real rt-app runs (issue 21,
# docs/validate.md "Agreement"): for every task of every recording, five figures of
# `schedlab validate`, each agreeing when the simulated value is within the tolerance of the
# real one:
#   run mean              |sim - real| <= 15% of real
#   period mean           |sim - real| <= 10% of real
#   wake-up latency p50   |sim - real| <= 50% of real, or <= 20 us
#   wake-up latency p95   the same
#   context switches /s   |sim - real| <= 25% of real
# (a real value of 0 agrees only with a simulated 0, but for the 20 us of the latencies).
# Prints one line per figure kind (agreeing / all) and the total; -v also every figure.
# -b OTHERSET: the noise floor instead: each DIR's real figures against the real figures of
# OTHERSET/NAME, another recording of the same file (the model is not run for the comparison).
# Usage: sh tools/validate_agreement.sh [-v] [-s path/to/schedlab] [-c CALIBRATION_DIR]
#        [-b OTHERSET] [-d 'NAME=DUR ...'] DIR...
# Each DIR is a `validate --out` directory holding NAME.json, NAME being the directory's name
# (tools/validate_record.sh makes them); -d 'NAME=DUR ...' gives the duration of the named ones
# whose file has none (what they were recorded with: -d 'example4=2s example5=2s' for
# tests/data/validate, as tests/validate.sh does); the others run as validate decides.
set -eu
SL=build/schedlab
CAL=machines/fc-2vcpu
VERBOSE=0
OTHER=
DUR=
while getopts vs:c:b:d: o; do
	case $o in
	d) DUR=$OPTARG ;;
	v) VERBOSE=1 ;;
	b) OTHER=$OPTARG ;;
	s) SL=$OPTARG ;;
	c) CAL=$OPTARG ;;
	*)
		echo "usage: $0 [-v] [-s schedlab] [-c calibration_dir] [-b otherset] DIR..." >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || {
	echo "$0: give one or more recorded directories" >&2
	exit 2
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# rows FILE TASK KIND REAL SIM of the validate of DIR into file OUT
rows() {
	d=$1
	name=$(basename "$d")
	if [ ! -f "$d/$name.json" ]; then
		echo "$0: $d/$name.json: no such file (DIR must hold DIR-name.json)" >&2
		exit 2
	fi
	dur=
	for nd in $DUR; do
		[ "${nd%%=*}" = "$name" ] && dur=${nd#*=}
	done
	if ! "$SL" validate "$d/$name.json" --real "$d" --calibration "$CAL" ${dur:+--duration "$dur"} \
		>"$TMP/out" 2>"$TMP/err"; then
		echo "$0: validate $d: $(cat "$TMP/err")" >&2
		exit 2
	fi
	awk -v f="$name" '
	function emit(kind, pat) {
		i = index($0, pat)
		if (i == 0) return 0
		task = substr($0, 1, i - 1)
		print f, task, kind, $(NF - 2), $(NF - 1)
		return 1
	}
	emit("run_mean", " run mean (us) ") { next }
	emit("period_mean", " period mean (us) ") { next }
	emit("wakeup_p50", " wake-up latency p50 (us) ") { next }
	emit("wakeup_p95", " wake-up latency p95 (us) ") { next }
	emit("switches", " context switches /s ") { next }
	' "$TMP/out" >>"$2"
}
for d in "$@"; do
	# (a set's README.md beside its directories: SET/* may be given)
	[ -d "$d" ] || continue
	if [ -z "$OTHER" ]; then
		rows "$d" "$TMP/rows"
		continue
	fi
	# the noise floor: this recording's real figures against another's, as REAL and SIM
	rows "$d" "$TMP/a"
	rows "$OTHER/$(basename "$d")" "$TMP/b"
done
if [ -n "$OTHER" ]; then
	awk 'NR == FNR { b[$1 " " $2 " " $3] = $4; next }
	($1 " " $2 " " $3) in b { print $1, $2, $3, $4, b[$1 " " $2 " " $3] }' "$TMP/b" "$TMP/a" >"$TMP/rows"
fi
awk -v verbose="$VERBOSE" '
function abs(x) { return x < 0 ? -x : x }
{
	real = $4 + 0; sim = $5 + 0; d = abs(sim - real)
	if ($3 == "run_mean") ok = d <= 0.15 * abs(real)
	else if ($3 == "period_mean") ok = d <= 0.10 * abs(real)
	else if ($3 == "switches") ok = d <= 0.25 * abs(real)
	else ok = d <= 0.5 * abs(real) || d <= 20
	n[$3]++; a[$3] += ok; N++; A += ok
	if (verbose)
		printf "%-12s %-18s %-12s %12.2f %12.2f %s\n", $1, $2, $3, real, sim, ok ? "ok" : "OFF"
}
END {
	split("run_mean period_mean wakeup_p50 wakeup_p95 switches", k, " ")
	printf "%-12s %8s %6s %7s\n", "figure", "agree", "of", "rate"
	for (i = 1; i <= 5; i++)
		printf "%-12s %8d %6d %6.1f%%\n", k[i], a[k[i]], n[k[i]], n[k[i]] ? 100 * a[k[i]] / n[k[i]] : 0
	printf "%-12s %8d %6d %6.1f%%\n", "all", A, N, N ? 100 * A / N : 0
}' "$TMP/rows"
