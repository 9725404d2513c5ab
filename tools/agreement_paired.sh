#!/bin/sh
# Two machine descriptions judged on the same recordings, seed by seed (issue 28): for each seed
# the count of agreeing figures of each (tools/validate_agreement.sh -S SEED -c DIR), then the
# mean of each, the mean of the paired differences (second - first) and its standard error
# (the differences' standard deviation over the square root of the number of seeds). One
# seed's count moves by about +-7 figures on a half of tests/data/validate-rep; the paired
# difference takes the part both share out.
# Usage: sh tools/agreement_paired.sh [-s schedlab] [-S 'SEEDS'] [-R SETDIR] BASE_DIR CAND_DIR
#        NAME...
#   -S the seeds (default '1 2 3 4 5 6 7 8 9 10'), -R the set (default tests/data/validate-rep)
set -eu
SL=build/schedlab
SEEDS='1 2 3 4 5 6 7 8 9 10'
SET=tests/data/validate-rep
while getopts s:S:R: o; do
	case $o in
	s) SL=$OPTARG ;;
	S) SEEDS=$OPTARG ;;
	R) SET=$OPTARG ;;
	*)
		echo "usage: $0 [-s schedlab] [-S 'seeds'] [-R setdir] BASE_DIR CAND_DIR NAME..." >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || {
	echo "$0: give two machine directories and the files (NAME...)" >&2
	exit 2
}
A=$1
B=$2
shift 2
AG=$(dirname "$0")/validate_agreement.sh
# agreeing figures in all, with machine directory $1 and seed $2, of the files named after
agreeing() {
	dir=$1
	seed=$2
	shift 2
	sh "$AG" -s "$SL" -S "$seed" -c "$dir" -R "$SET" "$@" |
		awk '/^total all/ { split($3, x, "/"); print x[1] }'
}
printf '%-6s %10s %10s %6s\n' seed "$(basename "$A")" "$(basename "$B")" diff
for s in $SEEDS; do
	a=$(agreeing "$A" "$s" "$@")
	b=$(agreeing "$B" "$s" "$@")
	[ -n "$a" ] && [ -n "$b" ] || {
		echo "$0: seed $s: no total" >&2
		exit 1
	}
	printf '%-6s %10s %10s %+6d\n' "$s" "$a" "$b" "$((b - a))"
done | awk '{ print } $1 ~ /^[0-9]+$/ { n++; a += $2; b += $3; d[n] = $3 - $2; sd += $3 - $2 }
END {
	if (!n) exit 1
	m = sd / n; v = 0
	for (i = 1; i <= n; i++) v += (d[i] - m) ^ 2
	se = n > 1 ? sqrt(v / (n - 1)) / sqrt(n) : 0
	printf "mean   %10.1f %10.1f %+6.1f  (standard error %.1f, %d seeds)\n", a / n, b / n, m, se, n
}'
