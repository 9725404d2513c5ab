#!/bin/sh
# Build the libFuzzer targets (fuzz/, clang, ASan + UBSan) in build-fuzz and run each for SECONDS
# (default 30), FUZZ_JOBS at a time (default: the number of CPUs). Each run starts from the
# committed seeds (fuzz/corpus/<target>/, never written to) plus what earlier runs found
# (build-fuzz/run/<target>/corpus/), with fuzz/dict/<target>.dict when there is one. One line per
# target: executions, new corpus entries, the result; the exit status is 1 if any target crashed,
# leaked, hit undefined behaviour or hung (its input is kept under build-fuzz/run/<target>/; the
# log's end and the input, in base64 when it is 4 KiB or less, are printed on stderr).
# Called by tools/test.sh --fuzz [SECONDS]; FUZZ_TARGETS="a b" runs only those; FUZZ_SEED=N
# gives libFuzzer -seed=N (else it draws one; each line names the seed its run used).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-30}
case "$secs" in
'' | *[!0-9]*)
	echo "tools/fuzz.sh: SECONDS must be a whole number, got '$secs'" >&2
	exit 2
	;;
esac
par=${FUZZ_JOBS:-$(nproc)}
# ASan refuses an allocation over 2 GiB (the -rss_limit_mb below) before making it. libFuzzer's
# own malloc limit reports one only after it is made, and a 22 GiB calloc that a malformed
# trace.dat asks of libtracecmd (in the reader's child process) took ASan 7 to 13 s to clear,
# past -timeout. Refused, the child aborts at once and the reader reports the file.
ASAN_OPTIONS="max_allocation_size_mb=2048${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export ASAN_OPTIONS
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DSCHEDLAB_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target fuzz >/dev/null
if [ -z "${FUZZ_TARGETS:-}" ]; then
	FUZZ_TARGETS=""
	for b in build-fuzz/fuzz/fuzz_*; do
		[ -f "$b" ] && [ -x "$b" ] && FUZZ_TARGETS="$FUZZ_TARGETS ${b#build-fuzz/fuzz/fuzz_}"
	done
fi

run_one() {
	t=$1
	w=build-fuzz/run/$t
	mkdir -p "$w/corpus" "$w/artifacts"
	rm -f "$w/artifacts/"*
	set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$w/artifacts/"
	[ -f "fuzz/dict/$t.dict" ] && set -- "$@" -dict="fuzz/dict/$t.dict"
	[ -n "${FUZZ_SEED:-}" ] && set -- "$@" -seed="$FUZZ_SEED"
	rc=0
	"build-fuzz/fuzz/fuzz_$t" "$@" "$w/corpus" "fuzz/corpus/$t" >"$w/log" 2>&1 || rc=$?
	echo "$rc" >"$w/rc"
}

summary() {
	t=$1
	w=build-fuzz/run/$t
	rc=$(cat "$w/rc")
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$w/log" | tail -n 1)
	cov=$(sed -n 's/.* cov: \([0-9]*\) .*/\1/p' "$w/log" | tail -n 1)
	new=$(ls "$w/corpus" | wc -l)
	seed=$(sed -n 's/^INFO: Seed: *//p' "$w/log" | head -n 1)
	if [ "$rc" -eq 0 ]; then
		result=ok
	else
		art=$(ls "$w/artifacts" 2>/dev/null | head -n 1)
		result="FAILED (exit $rc; input: $w/artifacts/$art; log: $w/log)"
		fail=1
		# CI keeps only what was printed: the report (stack, input in base64 when small)
		# must be here, not only in build-fuzz/ of a machine that is gone
		echo "--- fuzz $t: the last 40 lines of $w/log" >&2
		tail -n 40 "$w/log" >&2
		if [ -n "$art" ] && [ "$(wc -c <"$w/artifacts/$art")" -le 4096 ]; then
			echo "--- fuzz $t: the input, base64" >&2
			base64 "$w/artifacts/$art" >&2
		fi
	fi
	printf 'fuzz %-14s %10s executions in %ss, seed %s, coverage %s, corpus +%s: %s\n' \
		"$t" "${execs:-?}" "$secs" "${seed:-?}" "${cov:-?}" "$new" "$result"
}

fail=0
set -- $FUZZ_TARGETS
while [ $# -gt 0 ]; do
	batch=""
	i=0
	while [ $# -gt 0 ] && [ "$i" -lt "$par" ]; do
		run_one "$1" &
		batch="$batch $1"
		i=$((i + 1))
		shift
	done
	wait
	for t in $batch; do
		summary "$t"
	done
done
if [ "$fail" -ne 0 ]; then
	echo "fuzz: a target failed: reproduce with build-fuzz/fuzz/fuzz_<target> <input>" >&2
	exit 1
fi
echo "fuzz: every target ran ${secs}s without a crash"
