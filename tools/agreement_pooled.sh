#!/bin/sh
# Several recorded sets pooled (issue 28, docs/validate.md "Step 28"): one set's agreement is
# good to a few points (step 26: two sets of one boot and hour differ by 3), so the figure to
# judge the model by is the sum over sets. Each SET=MACHINE_DIR pair is a set of repeated
# recordings (tools/validate_record_set.sh) and the machine description measured for it; for
# each, tools/validate_agreement.sh -R runs the model with each seed, and the model's count is
# the mean over the seeds (the floor, the recordings against each other, is the same for every
# seed). Printed: per set and pooled, the model's agreeing figures of all and the floor's. With
# -C 'NAME ...' (the calibration half) the reported half's totals are taken, else every file's.
# Then, over the sets, the model's percentage minus the floor's: their mean and its standard
# error (the sets' spread over the root of their count). Sets of one boot and hour differ by a
# few points (step 26), so a pooled margin inside about two of these errors says the model and
# a second recording agree with a recording about as often, not which does more.
# Usage: sh tools/agreement_pooled.sh [-A] [-j] [-s schedlab] [-S 'SEEDS'] [-C 'NAME ...']
#        SET=MACHINE_DIR...
#   -S the seeds (default 1), -s the binary (default build/schedlab), -j one JSON object instead
#   of the table, -A rt-app's failed recordings counted (validate_agreement.sh -A). Exit 2
#   on bad input (an argument without '=', a set without r1, a machine
#   that is not a directory, a half with no file), 1 when a run gives no total.
#   -F FILE: also each file's figures pooled over the sets into FILE (a table: per file of
#   the half, the model's agreeing figures, the mean over the seeds summed over the sets that
#   have the file, and the floor's), for the per-file table.
set -eu
SL=build/schedlab
SEEDS=1
CAL=
JSON=0
ALLREC=
PERFILE=
usage() {
	echo "usage: $0 [-A] [-j] [-F file] [-s schedlab] [-S 'seeds'] [-C 'calibration names'] SET=MACHINE_DIR..." >&2
	exit 2
}
while getopts AjF:s:S:C: o; do
	case $o in
	A) ALLREC=-A ;;
	F) PERFILE=$OPTARG ;;
	j) JSON=1 ;;
	s) SL=$OPTARG ;;
	S) SEEDS=$OPTARG ;;
	C) CAL=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage
for s in $SEEDS; do
	case $s in
	'' | *[!0-9]*)
		echo "$0: -S: '$s' is not a seed (expected a whole number)" >&2
		exit 2
		;;
	esac
done
[ -n "$SEEDS" ] || {
	echo "$0: -S: no seed given" >&2
	exit 2
}
for p in "$@"; do
	case $p in
	*=*) ;;
	*)
		echo "$0: '$p': expected SET=MACHINE_DIR" >&2
		exit 2
		;;
	esac
	[ -d "${p%%=*}/r1" ] || {
		echo "$0: '$p': ${p%%=*} holds no r1 (a set of tools/validate_record_set.sh)" >&2
		exit 2
	}
	[ -d "${p#*=}" ] || {
		echo "$0: '$p': ${p#*=} is not a machine directory" >&2
		exit 2
	}
done
AG=$(dirname "$0")/validate_agreement.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
[ -n "$CAL" ] && half=reported || half=all
nsets=$#
k=0
# validate_agreement.sh -R with seed $1 on the set and machine of the loop below
ag() {
	if [ -n "$CAL" ]; then
		sh "$AG" $ALLREC -s "$SL" -S "$1" -c "$mach" -R "$set_dir" -C "$CAL"
	else
		sh "$AG" $ALLREC -s "$SL" -S "$1" -c "$mach" -R "$set_dir"
	fi
}
# one line per set: SET MACHINE MODEL_SUM SEEDS MODEL_OF FLOOR FLOOR_OF
for p in "$@"; do
	k=$((k + 1))
	set_dir=${p%%=*}
	mach=${p#*=}
	sum=0
	n=0
	for s in $SEEDS; do
		[ -t 2 ] && printf '\r%s: set %d/%d, seed %s ' "$0" "$k" "$nsets" "$s" >&2
		ag "$s" >"$T/out" 2>"$T/err" || {
			rc=$?
			cat "$T/err" >&2
			exit "$rc"
		}
		# the total line's model and floor columns, AGREE/OF each
		line=$(awk -v h="$half" '$1 == "total" && $2 == h { print $3, $5 }' "$T/out")
		[ -n "$line" ] || {
			[ "$half" = reported ] && {
				echo "$0: $set_dir: no reported file (every file is in -C)" >&2
				exit 2
			}
			echo "$0: $set_dir, seed $s: no total from validate_agreement.sh" >&2
			exit 1
		}
		mf=${line% *}
		ff=${line#* }
		m=${mf%/*}
		mof=${mf#*/}
		fl=${ff%/*}
		flof=${ff#*/}
		sum=$((sum + m))
		n=$((n + 1))
		# the files of the half: FILE MODEL MODEL_OF FLOOR FLOOR_OF, one line per seed
		awk -v h="$half" '($2 == "rep" || $2 == "cal") && (h == "all" || substr(h, 1, 3) == $2) {
			split($3, m, "/"); split($5, f, "/"); print $1, m[1], m[2], f[1], f[2] }' \
			"$T/out" >>"$T/files"
	done
	echo "$set_dir $mach $sum $n $mof $fl $flof" >>"$T/rows"
done
[ -t 2 ] && printf '\r%*s\r' 60 '' >&2
# -F: per file, the model's count summed over seeds and sets over the number of seeds (a
# mean per seed, summed over the sets), the floor's (the same for every seed) likewise
if [ -n "$PERFILE" ]; then
	nseeds=$(echo $SEEDS | wc -w)
	awk -v ns="$nseeds" -v half="$half" -v seeds="$SEEDS" '
	function pct(a, b) { return b ? 100 * a / b : 0 }
	!($1 in seen) { seen[$1] = 1; order[++n] = $1 }
	{ m[$1] += $2; mof[$1] += $3; f[$1] += $4; fof[$1] += $5 }
	END {
		printf "%-18s %22s %22s %8s\n", "file", "model", "floor", "diff"
		for (i = 1; i <= n; i++) {
			k = order[i]
			printf "%-18s %22s %22s %+7.2f\n", k,
			       sprintf("%.2f/%d (%.2f%%)", m[k] / ns, mof[k] / ns, pct(m[k], mof[k])),
			       sprintf("%d/%d (%.2f%%)", f[k] / ns, fof[k] / ns, pct(f[k], fof[k])),
			       pct(m[k], mof[k]) - pct(f[k], fof[k])
		}
		printf "half: %s; model: the mean over seeds %s, summed over the sets\n", half, seeds
	}' "$T/files" >"$T/perfile"
	cp "$T/perfile" "$PERFILE" 2>/dev/null || {
		echo "$0: -F: cannot write $PERFILE" >&2
		rm -f "$PERFILE"
		exit 1
	}
fi
awk -v json="$JSON" -v half="$half" -v seeds="$SEEDS" '
function pct(a, b) { return b ? 100 * a / b : 0 }
{
	r++; set[r] = $1; mach[r] = $2; model[r] = $3 / $4; mof[r] = $5; fl[r] = $6; flof[r] = $7
	tm += model[r]; tmof += $5; tf += $6; tfof += $7
	d[r] = pct(model[r], mof[r]) - pct(fl[r], flof[r]); dsum += d[r]
}
END {
	# the per-set differences, in points: mean and standard error (none for one set: a
	# spread needs two)
	dmean = dsum / r
	for (i = 1; i <= r; i++) dvar += (d[i] - dmean) ^ 2
	dse = r > 1 ? sqrt(dvar / (r - 1) / r) : -1
	if (json) {
		ns = split(seeds, sd, " ")
		printf "{\"half\":\"%s\",\"seeds\":[", half
		for (i = 1; i <= ns; i++) printf "%s%s", (i > 1 ? "," : ""), sd[i]
		printf "],\"sets\":["
		for (i = 1; i <= r; i++)
			printf "%s{\"set\":\"%s\",\"machine\":\"%s\",\"model\":%.2f,\"model_of\":%d,\"floor\":%d,\"floor_of\":%d}",
			       (i > 1 ? "," : ""), set[i], mach[i], model[i], mof[i], fl[i], flof[i]
		printf "],\"pooled\":{\"model\":%.2f,\"model_of\":%d,\"floor\":%d,\"floor_of\":%d},",
		       tm, tmof, tf, tfof
		printf "\"set_difference\":{\"mean\":%.2f,\"standard_error\":%s,\"sets\":%d}}\n",
		       dmean, (dse < 0 ? "null" : sprintf("%.2f", dse)), r
		exit
	}
	printf "%-36s %-36s %22s %22s\n", "set", "machine", "model", "floor"
	for (i = 1; i <= r; i++)
		printf "%-36s %-36s %22s %22s\n", set[i], mach[i],
		       sprintf("%.2f/%d (%.2f%%)", model[i], mof[i], pct(model[i], mof[i])),
		       sprintf("%d/%d (%.2f%%)", fl[i], flof[i], pct(fl[i], flof[i]))
	printf "%-36s %-36s %22s %22s\n", "pooled", "",
	       sprintf("%.2f/%d (%.2f%%)", tm, tmof, pct(tm, tmof)),
	       sprintf("%d/%d (%.2f%%)", tf, tfof, pct(tf, tfof))
	if (dse < 0)
		printf "model - floor: %+.2f points (one set: no standard error)\n", dmean
	else
		printf "model - floor per set: mean %+.2f points, standard error %.2f (%d sets)\n",
		       dmean, dse, r
	printf "half: %s; model: the mean over seeds %s\n", half, seeds
}' "$T/rows"
