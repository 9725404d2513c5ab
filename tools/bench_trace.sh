#!/bin/bash
# The compressed-trace benchmark of docs/performance.md ("reading a compressed trace within 1.1x
# of xz -dc"). Three traces of about 97 MB of ftrace text (6.18's layout), each as text, .xz
# (xz -T1) and .gz:
#   make      `schedlab run --kernel 6.18 --cpus 8 --duration 130s --workload
#             make:jobs=16,count=100000 --trace-out`: 4.5 MB as xz, slow to decompress
#   make16    its first 6.1 MB (whole lines), then its event lines 15 more times: 0.3 MB as xz
#             (the copies lie within xz's 8 MiB window): the first 6 MB decompress slowly, the
#             rest almost for nothing (the timestamps start again at each copy: its figures are
#             nonsense; the reader refuses a timestamp going back, so it is read with --lenient,
#             which counts those lines malformed once their common columns and event name are
#             read, without reading their fields: 15/16 of its lines)
#   periodic  `schedlab run --kernel 6.18 --cpus 8 --duration 26s --workload
#             periodic:period=10ms,run=1ms,tasks=64 --trace-out`: 0.9 MB as xz, evenly quick to
#             decompress, so that parsing is what shows
# and for each: `xz -dc` and `gzip -dc` to /dev/null, `schedlab trace-stats` of the text, .xz
# and .gz (to /dev/null), each run RUNS times (default 5) alternating: the best wall and the best
# CPU (user + sys) time in seconds, trace-stats .xz over xz -dc and .gz over gzip -dc. The
# machine's load average is printed before and after: with another process on one of two cores
# the decoder thread and the parser share the other, and the wall time is their sum.
# Usage: bash tools/bench_trace.sh ['SCHEDLAB...' [RUNS [DIR]]]   (several binaries, separated
# by spaces, are measured in turn within each run, e.g. a reference build's beside this one;
# DIR: where the traces are kept, default /tmp/schedlab-bench-trace; made once, reused)
set -eu
read -r -a SLS <<<"${1:-build/schedlab}"
SL=${SLS[0]}
RUNS=${2:-5}
DIR=${3:-/tmp/schedlab-bench-trace}
mkdir -p "$DIR"

TRACES="make make16 periodic"
if [ ! -s "$DIR/periodic.trace.gz" ]; then
	"$SL" run --kernel 6.18 --cpus 8 --duration 130s --workload make:jobs=16,count=100000 \
		--trace-out "$DIR/make.trace" >/dev/null
	head -c 6100000 "$DIR/make.trace" | head -n -1 >"$DIR/seg"
	{
		cat "$DIR/seg"
		for _ in $(seq 15); do grep -v '^#' "$DIR/seg"; done
	} >"$DIR/make16.trace"
	rm "$DIR/seg"
	"$SL" run --kernel 6.18 --cpus 8 --duration 26s \
		--workload periodic:period=10ms,run=1ms,tasks=64 --trace-out "$DIR/periodic.trace" \
		>/dev/null
	for t in $TRACES; do
		xz -k -f -T1 "$DIR/$t.trace"
		gzip -k -f "$DIR/$t.trace"
	done
fi

TIMEFORMAT='%3R %3U %3S'
declare -A wall cpu
# measure KEY CMD...: runs CMD once; wall[KEY] and cpu[KEY] keep the least seen so far
measure() {
	local key=$1 t
	shift
	t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
	read -r wall["$key"] cpu["$key"] <<<"$(echo "$t ${wall[$key]:-} ${cpu[$key]:-}" |
		awk '{ c = $2 + $3; w = $1; if ($4 != "" && $4 < w) w = $4
			if ($5 != "" && $5 < c) c = $5; printf "%.3f %.3f\n", w, c }')"
}

echo "before: $(uptime)"
for t in $TRACES; do
	f=$DIR/$t.trace
	for _ in $(seq "$RUNS"); do
		measure "$t xz -dc" xz -dc "$f.xz"
		measure "$t gzip -dc" gzip -dc "$f.gz"
		lenient=
		[ "$t" = make16 ] && lenient=--lenient
		for b in "${SLS[@]}"; do
			measure "$t $b text" "$b" trace-stats $lenient "$f"
			measure "$t $b .xz" "$b" trace-stats $lenient "$f.xz"
			measure "$t $b .gz" "$b" trace-stats $lenient "$f.gz"
		done
	done
done
echo "after:  $(uptime)"
for i in "${!SLS[@]}"; do echo "[$i] ${SLS[$i]}"; done
printf '%-32s %8s %8s   (best of %s)\n' "" "wall s" "cpu s" "$RUNS"
row() { printf '  %-30s %8.3f %8.3f\n' "$1" "$2" "$3"; }
for t in $TRACES; do
	f=$DIR/$t.trace
	echo "$t: $(stat -c %s "$f") bytes, .xz $(stat -c %s "$f.xz"), .gz $(stat -c %s "$f.gz")"
	row "xz -dc" "${wall[$t xz -dc]}" "${cpu[$t xz -dc]}"
	row "gzip -dc" "${wall[$t gzip -dc]}" "${cpu[$t gzip -dc]}"
	for i in "${!SLS[@]}"; do
		b=${SLS[$i]}
		for k in text .xz .gz; do
			row "[$i] trace-stats $k" "${wall[$t $b $k]}" "${cpu[$t $b $k]}"
		done
		row "[$i] .xz / xz -dc" \
			"$(awk "BEGIN { print ${wall[$t $b .xz]} / ${wall[$t xz -dc]} }")" \
			"$(awk "BEGIN { print ${cpu[$t $b .xz]} / ${cpu[$t xz -dc]} }")"
		row "[$i] .gz / gzip -dc" \
			"$(awk "BEGIN { print ${wall[$t $b .gz]} / ${wall[$t gzip -dc]} }")" \
			"$(awk "BEGIN { print ${cpu[$t $b .gz]} / ${cpu[$t gzip -dc]} }")"
	done
done
