#!/bin/sh
# Several sets' paired runs summed seed by seed (issue 28): each FILE is the output of one
# tools/agreement_paired.sh (one set, its own machine pair, the same seeds). Per seed, the sum
# over the files of the paired difference (second - first); then the mean of those sums and its
# standard error (their standard deviation over the square root of the number of seeds). A rule
# "adopt at 2 standard errors summed over the sets" is this last line.
# Every file must list the same seeds, each once, in any order; a file with none, a seed missing
# from a file or a malformed row stops it with exit status 2.
# Usage: sh tools/agreement_paired_sum.sh FILE...
set -eu
[ $# -ge 1 ] || {
	echo "usage: $0 FILE... (outputs of tools/agreement_paired.sh)" >&2
	exit 2
}
for f in "$@"; do
	[ -r "$f" ] || {
		echo "$0: $f: cannot read" >&2
		exit 2
	}
done
awk '
function bad(msg) { printf "%s: %s\n", FILENAME ":" FNR, msg > "/dev/stderr"; err = 1; exit 2 }
FNR == 1 { nf++; name[nf] = FILENAME }
$1 == "seed" || $1 == "mean" || /^without/ { next }
{
	if ($1 !~ /^[0-9]+$/ || NF < 4 || $4 !~ /^[-+]?[0-9]+$/)
		bad("expected a row SEED FIRST SECOND DIFF of tools/agreement_paired.sh, got: " $0)
	if ((nf, $1) in seen)
		bad("seed " $1 " given twice")
	seen[nf, $1] = 1
	if (nf == 1) { ns++; order[ns] = $1 }
	sum[$1] += $4
	cnt[$1]++
	per[nf, $1] = $4
}
END {
	if (err) exit 2
	for (i = 1; i <= nf; i++)
		for (k = 1; k <= ns; k++)
			if (!((i, order[k]) in seen)) {
				printf "%s: seed %s missing\n", name[i], order[k] > "/dev/stderr"
				exit 2
			}
	for (s in cnt)
		if (cnt[s] != nf) {
			printf "seed %s is in %d of the %d files\n", s, cnt[s], nf > "/dev/stderr"
			exit 2
		}
	if (!ns) {
		print "no seed rows in the files" > "/dev/stderr"
		exit 2
	}
	printf "%-6s", "seed"
	for (i = 1; i <= nf; i++) printf " %8s", "set" i
	printf " %8s\n", "sum"
	for (k = 1; k <= ns; k++) {
		s = order[k]
		printf "%-6s", s
		for (i = 1; i <= nf; i++) printf " %+8d", per[i, s]
		printf " %+8d\n", sum[s]
		m += sum[s]
	}
	m /= ns
	for (k = 1; k <= ns; k++) v += (sum[order[k]] - m) ^ 2
	se = ns > 1 ? sqrt(v / (ns - 1)) / sqrt(ns) : 0
	printf "sum over %d sets: mean %+.1f, standard error %.1f, %d seeds", nf, m, se, ns
	if (se > 0) printf " (%.1f standard errors)", m / se
	printf "\n"
	for (i = 1; i <= nf; i++) printf "set%d: %s\n", i, name[i]
}' "$@"
