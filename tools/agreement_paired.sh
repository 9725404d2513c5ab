#!/bin/sh
# Two machine descriptions judged on the same recordings, seed by seed (issue 28): for each seed
# the count of agreeing figures of each (tools/validate_agreement.sh -S SEED -c DIR), then the
# mean of each, the mean of the paired differences (second - first) and its standard error
# (the differences' standard deviation over the square root of the number of seeds). One
# seed's count moves by about +-7 figures on a half of tests/data/validate-rep; the paired
# difference takes the part both share out.
# Usage: sh tools/agreement_paired.sh [-s schedlab] [-t schedlab] [-S 'SEEDS'] [-R SETDIR]
#        BASE_DIR CAND_DIR NAME...
#   -S the seeds (default '1 2 3 4 5 6 7 8 9 10'), -R the set (default tests/data/validate-rep),
#   -s the binary (default build/schedlab), -t the candidate's own binary (default -s's): a
#   change of the code judged on one machine directory given twice, old build against new
# A seed where the model deadlocks in a file on one side only (docs/validate.md, "Lost resumes
# in the browser (issue 28)": some 46 figures of browser-long) is marked with those files, and
# a last line gives the mean without such seeds: for reading, the first line stays the measure.
set -eu
SL=build/schedlab
SL2=
SEEDS='1 2 3 4 5 6 7 8 9 10'
SET=tests/data/validate-rep
while getopts s:t:S:R: o; do
	case $o in
	s) SL=$OPTARG ;;
	t) SL2=$OPTARG ;;
	S) SEEDS=$OPTARG ;;
	R) SET=$OPTARG ;;
	*)
		echo "usage: $0 [-s schedlab] [-t schedlab] [-S 'seeds'] [-R setdir] BASE_DIR CAND_DIR NAME..." >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ -n "$SL2" ] || SL2=$SL
[ $# -ge 3 ] || {
	echo "$0: give two machine directories and the files (NAME...)" >&2
	exit 2
}
A=$1
B=$2
shift 2
AG=$(dirname "$0")/validate_agreement.sh
ERR=$(mktemp -d)
trap 'rm -rf "$ERR"' EXIT
# agreeing figures in all, with binary $1, machine directory $2 and seed $3, of the files after;
# validate_agreement.sh's stderr into $ERR/$4
agreeing() {
	bin=$1
	dir=$2
	seed=$3
	side=$4
	shift 4
	sh "$AG" -s "$bin" -S "$seed" -c "$dir" -R "$SET" "$@" 2>"$ERR/$side" |
		awk '/^total all/ { split($3, x, "/"); print x[1] }'
}
# the files whose model run deadlocked on side $1, sorted, separated by commas
deadlocked() {
	awk '$2 == "deadlock:" { print $3 }' "$ERR/$1" | sort -u | paste -s -d, -
}
printf '%-6s %10s %10s %6s\n' seed "$(basename "$A")" "$(basename "$B")" diff
for s in $SEEDS; do
	a=$(agreeing "$SL" "$A" "$s" first "$@")
	b=$(agreeing "$SL2" "$B" "$s" second "$@")
	[ -n "$a" ] && [ -n "$b" ] || {
		cat "$ERR/first" "$ERR/second" >&2
		echo "$0: seed $s: no total" >&2
		exit 1
	}
	da=$(deadlocked first)
	db=$(deadlocked second)
	mark=
	[ "$da" = "$db" ] || mark="  deadlock: first [$da] second [$db]"
	printf '%-6s %10s %10s %+6d%s\n' "$s" "$a" "$b" "$((b - a))" "$mark"
done | awk '{ print } $1 ~ /^[0-9]+$/ {
	n++; a += $2; b += $3; d[n] = $3 - $2; sd += $3 - $2
	if ($5 != "deadlock:") { k++; e[k] = $3 - $2; se_ += $3 - $2 }
}
function stats(x, c, sum,    m, v, i) {
	m = sum / c; v = 0
	for (i = 1; i <= c; i++) v += (x[i] - m) ^ 2
	return sprintf("%+6.1f  (standard error %.1f, %d seeds)", m,
		       c > 1 ? sqrt(v / (c - 1)) / sqrt(c) : 0, c)
}
END {
	if (!n) exit 1
	printf "mean   %10.1f %10.1f %s\n", a / n, b / n, stats(d, n, sd)
	if (k < n)
		printf "without the seeds deadlocked on one side only: %s\n",
		       k ? stats(e, k, se_) : "no seed left"
}'
