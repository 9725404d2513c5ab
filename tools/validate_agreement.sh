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
# -R SETDIR: repeated recordings (issue 28's protocol, tools/validate_record_set.sh with REPS):
# SETDIR/r1, SETDIR/r2, ... each hold NAME directories; DIR... are then the NAMEs (default:
# those of SETDIR/r1 that have an `uptime`, i.e. a finished recording). Per file and in total:
# the model against each recording (model), and each recording against each other one, every
# ordered pair, the first taken as the real one (floor: what the model can be expected to
# reach). -C 'NAME ...' names the calibration half: the table then gives the totals of the
# reported half (the other files), of the calibration half, and of both.
# Usage: sh tools/validate_agreement.sh [-v] [-s path/to/schedlab] [-c CALIBRATION_DIR]
#        [-b OTHERSET] [-d 'NAME=DUR ...'] DIR...
#        sh tools/validate_agreement.sh [-A] [-v] [-s ...] [-c ...] [-d ...] -R SETDIR
#        [-C 'NAME ...'] [NAME...]
# Each DIR is a `validate --out` directory holding NAME.json, NAME being the directory's name
# (tools/validate_record.sh makes them); -d 'NAME=DUR ...' gives the duration of the named ones
# whose file has none (what they were recorded with: -d 'example4=2s example5=2s' for
# tests/data/validate, as tests/validate.sh does); the others run as validate decides.
# A recording of -R whose rt-app logs hold under 3/4 of the runs of its file's median recording
# (a run that stalled) is named on stderr; it still counts. One whose logs hold no run at all is
# rt-app's failure, not the machine's (docs/validate.md, step 30): named on stderr and left out,
# of the model's count and of the floor; -A counts it as any other (the figures of step 29).
# -S N runs the model with seed N (validate --seed; default 1): one seed's count moves by
# about +-10 figures of 528 on tests/data/validate-rep, so a mechanism is judged on the mean
# of several (docs/validate.md, "Placement, from the recordings").
# -K DIR keeps the model's side of each file in DIR/NAME (validate --sim-out: its rt-app logs
# and sim.trace; with -R, of the first recording's run, the model being the same for each):
# tools/agreement_breakdown.py reads its trace.
set -eu
SL=build/schedlab
CAL=machines/fc-2vcpu
VERBOSE=0
OTHER=
DUR=
REPSET=
CALSET=
SEED=1
KEEP=
ALLREC=0
while getopts Avs:c:b:d:R:C:S:K: o; do
	case $o in
	A) ALLREC=1 ;;
	K) KEEP=$OPTARG ;;
	S) SEED=$OPTARG ;;
	R) REPSET=$OPTARG ;;
	C) CALSET=$OPTARG ;;
	d) DUR=$OPTARG ;;
	v) VERBOSE=1 ;;
	b) OTHER=$OPTARG ;;
	s) SL=$OPTARG ;;
	c) CAL=$OPTARG ;;
	*)
		echo "usage: $0 [-A] [-v] [-s schedlab] [-c calibration_dir] [-b otherset] [-S seed] [-K keepdir] DIR..." >&2
		exit 2
		;;
	esac
done
shift $((OPTIND - 1))
if [ -n "$REPSET" ] && [ $# -eq 0 ]; then
	[ -d "$REPSET/r1" ] || {
		echo "$0: $REPSET/r1: no such directory (-R SETDIR holds r1, r2, ...)" >&2
		exit 2
	}
	for d in "$REPSET"/r1/*; do
		[ -f "$d/uptime" ] && set -- "$@" "$(basename "$d")"
	done
fi
[ $# -ge 1 ] || {
	echo "$0: give one or more recorded directories" >&2
	exit 2
}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# logged_runs DIR: the rows of DIR's rt-app logs, every thread's together
logged_runs() {
	cat "$1"/*.log 2>/dev/null | grep -vc '^#' || :
}
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
	keep=
	if [ -n "$KEEP" ] && [ ! -d "$KEEP/$name" ]; then
		mkdir -p "$KEEP"
		keep=$KEEP/$name
	fi
	if ! "$SL" validate "$d/$name.json" --real "$d" --calibration "$CAL" ${dur:+--duration "$dur"} \
		--seed "$SEED" ${keep:+--sim-out "$keep"} >"$TMP/out" 2>"$TMP/err"; then
		echo "$0: validate $d: $(cat "$TMP/err")" >&2
		exit 2
	fi
	# the model's run ended with its threads asleep for good (docs/validate.md, "Lost resumes
	# in the browser"): said on stderr, which tools/agreement_paired.sh reads
	if grep -q 'deadlock at t=' "$TMP/err"; then
		echo "$0: deadlock: $name $d seed $SEED $(grep -o 'deadlock at t=[0-9.]* ms' "$TMP/err" |
			head -n 1)" >&2
	fi
	# A task named with 16 characters or more has no figure of its own in a real trace:
	# rt-app 1.0's pthread_setname_np refuses the name and the thread stays "rt-app"
	# (validate prints n/a). Its trace figures are left out, of the model and of the floor.
	awk -v f="$name" '
	function emit(kind, pat) {
		i = index($0, pat)
		if (i == 0) return 0
		task = substr($0, 1, i - 1)
		if (length(task) > 15 && kind != "run_mean" && kind != "period_mean") return 1
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
# the tolerance of each figure kind (issue 21): agree KIND REAL VALUE, in awk
AGREE='
function abs(x) { return x < 0 ? -x : x }
function agree(kind, real, x,    d) {
	d = abs(x - real)
	if (kind == "run_mean") return d <= 0.15 * abs(real)
	if (kind == "period_mean") return d <= 0.10 * abs(real)
	if (kind == "switches") return d <= 0.25 * abs(real)
	return d <= 0.5 * abs(real) || d <= 20
}'
if [ -n "$REPSET" ]; then
	# every recording of every NAME against the model: rows REP FILE TASK KIND REAL SIM
	for name in "$@"; do
		for r in "$REPSET"/r*; do
			[ -f "$r/$name/uptime" ] || continue
			if [ "$ALLREC" = 0 ] && [ "$(logged_runs "$r/$name")" = 0 ]; then
				echo "$0: $r/$name: rt-app logged no run (rt-app's failure, not the machine's):" \
					"left out (-A counts it; docs/validate.md, step 30)" >&2
				continue
			fi
			: >"$TMP/one"
			rows "$r/$name" "$TMP/one"
			sed "s|^|$(basename "$r") |" "$TMP/one" >>"$TMP/rep"
		done
	done
	[ -s "$TMP/rep" ] || {
		echo "$0: no recording of $* in $REPSET/r*" >&2
		exit 2
	}
	# A recording whose run stalled (the file's own race, every thread waiting for good:
	# validate-v1300's r4/browser-short, docs/validate.md step 26) counts like any other, but
	# it lowers the floor: named on stderr when its rt-app logs hold fewer than 3/4 of the runs
	# of the median recording of its file (of an even count the lower middle)
	for name in "$@"; do
		for r in "$REPSET"/r*; do
			[ -f "$r/$name/uptime" ] || continue
			n=$(logged_runs "$r/$name")
			[ "$ALLREC" = 0 ] && [ "$n" = 0 ] && continue
			printf '%s %s\n' "$r/$name" "$n"
		done >"$TMP/runs"
		[ -s "$TMP/runs" ] || continue
		# the lower middle, as machine_for_boot.sh and validate_record_set.sh take theirs
		med=$(awk '{ print $2 }' "$TMP/runs" | sort -n |
			sed -n "$((($(wc -l <"$TMP/runs") + 1) / 2))p")
		awk -v me="$0" -v med="$med" '4 * $2 < 3 * med {
			printf "%s: warning: %s: its rt-app logs hold %d runs, the median recording " \
				"of the file %d: a run that stalled? It counts in the floor " \
				"(docs/validate.md, step 26)\n", me, $1, $2, med
		}' "$TMP/runs" >&2
	done
	awk -v verbose="$VERBOSE" -v calset=" $(printf '%s' "$CALSET" | tr -s ' \t\n' ' ') " "$AGREE"'
	{
		key = $2 SUBSEP $3 SUBSEP $4
		if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
		if (!($2 in fseen)) { fseen[$2] = 1; files[++nf] = $2 }
		if (!($1 in rseen)) { rseen[$1] = 1; reps[++nr] = $1 }
		real[$1, key] = $5; sim[$1, key] = $6
	}
	function add(tab, f, k, ok) {
		n[tab, f]++; a[tab, f] += ok; n[tab, "kind " k]++; a[tab, "kind " k] += ok
		h = index(calset, " " f " ") ? "cal" : "rep"
		n[tab, h]++; a[tab, h] += ok; n[tab, "all"]++; a[tab, "all"] += ok
		n[tab, h " " k]++; a[tab, h " " k] += ok
	}
	END {
		for (i = 1; i <= nk; i++) {
			split(keys[i], p, SUBSEP)
			for (x = 1; x <= nr; x++) {
				if (!((reps[x], keys[i]) in real)) continue
				rv = real[reps[x], keys[i]]
				ok = agree(p[3], rv, sim[reps[x], keys[i]])
				add("m", p[1], p[3], ok)
				if (verbose)
					printf "%-16s %-18s %-12s %-3s %12.2f model %12.2f %s\n", p[1], p[2], p[3], reps[x], rv, sim[reps[x], keys[i]], ok ? "ok" : "OFF"
				for (y = 1; y <= nr; y++) {
					if (y == x || !((reps[y], keys[i]) in real)) continue
					ok = agree(p[3], rv, real[reps[y], keys[i]])
					add("f", p[1], p[3], ok)
				}
			}
		}
		printf "%-16s %-4s %14s %7s %14s %7s\n", "file", "half", "model agree/of", "rate", "floor agree/of", "rate"
		for (i = 1; i <= nf; i++) {
			f = files[i]
			printf "%-16s %-4s %9d/%-4d %6.1f%% %9d/%-4d %6.1f%%\n", f, index(calset, " " f " ") ? "cal" : "rep", a["m", f], n["m", f], 100 * a["m", f] / n["m", f], a["f", f], n["f", f], n["f", f] ? 100 * a["f", f] / n["f", f] : 0
		}
		split("rep cal all", t, " ")
		split("reported calibration all", tn, " ")
		for (i = 1; i <= 3; i++) {
			if (calset == "  " && t[i] != "all") continue
			if (!n["m", t[i]]) continue
			printf "%-21s %9d/%-4d %6.1f%% %9d/%-4d %6.1f%%\n", "total " tn[i], a["m", t[i]], n["m", t[i]], 100 * a["m", t[i]] / n["m", t[i]], a["f", t[i]], n["f", t[i]], n["f", t[i]] ? 100 * a["f", t[i]] / n["f", t[i]] : 0
		}
		# per figure kind: of the reported half when there is a calibration half
		split("run_mean period_mean wakeup_p50 wakeup_p95 switches", k, " ")
		for (i = 1; i <= 5; i++) {
			c = calset == "  " ? "kind " k[i] : "rep " k[i]
			if (!n["m", c]) continue
			printf "%-21s %9d/%-4d %6.1f%% %9d/%-4d %6.1f%%\n", "  " (calset == "  " ? "" : "rep ") k[i], a["m", c], n["m", c], 100 * a["m", c] / n["m", c], a["f", c], n["f", c], n["f", c] ? 100 * a["f", c] / n["f", c] : 0
		}
		printf "recordings: %d (%s", nr, reps[1]
		for (x = 2; x <= nr; x++) printf " %s", reps[x]
		printf "); floor: every ordered pair of recordings of a file\n"
	}' "$TMP/rep"
	exit 0
fi
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
awk -v verbose="$VERBOSE" "$AGREE"'
{
	real = $4 + 0; sim = $5 + 0; ok = agree($3, real, sim)
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
