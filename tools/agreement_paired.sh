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
# agreeing figures in all, with binary $1, machine directory $2 and seed $3, of the files after
agreeing() {
	bin=$1
	dir=$2
	seed=$3
	shift 3
	sh "$AG" -s "$bin" -S "$seed" -c "$dir" -R "$SET" "$@" |
		awk '/^total all/ { split($3, x, "/"); print x[1] }'
}
printf '%-6s %10s %10s %6s\n' seed "$(basename "$A")" "$(basename "$B")" diff
for s in $SEEDS; do
	a=$(agreeing "$SL" "$A" "$s" "$@")
	b=$(agreeing "$SL2" "$B" "$s" "$@")
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
