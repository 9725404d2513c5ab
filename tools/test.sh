#!/bin/sh
# The README's test command: every stage, in order, then one line "stages: N passed, N failed".
#   unit              build-test/ with gcc -O3: the unit and command-line tests (ctest -LE
#                     scenario), seconds
#   scenario          build-test/ again (built already): the scenario tests, the sweeps,
#                     validations and trace replays that take minutes (ctest -L scenario)
#   sanitize          build-san with ASan + UBSan, LeakSanitizer on (ASAN_OPTIONS=detect_leaks=1):
#                     the same tests, so one run is both the sanitizer run and the leak-clean run
#   clang             build-clang: the whole build and the tests with clang, -Wall -Wextra -Werror
#   determinism       the same outputs, byte for byte, from gcc -O3, clang -O2 and gcc -O0
#                     ASan+UBSan builds (tests/determinism.sh)
#   fuzz [SECONDS]    the libFuzzer targets (fuzz/), clang, in build-fuzz, each for SECONDS
#                     (default 30), two at a time (tools/fuzz.sh); fails on any crash or leak
#   mpi               the MPI build (build-mpi) and the sweep test with 2 ranks beside -j 1
# One stage: tools/test.sh --unit | --scenario | --sanitize | --lsan | --clang | --determinism |
# --fuzz [S] | --mpi. FUZZ_SECONDS sets the fuzzing time of the full run. Each stage builds in a
# folder of its own, so that none reconfigures another's (or the developer's build/) with other
# flags and forces a full rebuild. The full run keeps each stage's output in build-logs/<stage>.log
# and prints the last 100 lines of each failed stage again at its end.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Each stage chains its steps with && (set -e does not act inside an `if`, where the full run
# calls the stages): a failed build must fail the stage, not run the old binaries' tests.
# DIR [CMAKE FLAGS...]: configure, build and run the tests there ($CTEST_ARGS: which ones)
# shellcheck disable=SC2086 # CTEST_ARGS is words
ctest_in() {
	d=$1
	shift
	cmake -S . -B "$d" -DCMAKE_BUILD_TYPE=Release -DSCHEDLAB_WERROR=ON "$@" >/dev/null &&
		cmake --build "$d" -j "$jobs" &&
		ctest --test-dir "$d" --output-on-failure -j "$jobs" ${CTEST_ARGS:-}
}

# the tests labelled scenario in CMakeLists.txt apart: the unit stage stays under 30 s
stage_unit() { CTEST_ARGS="-LE scenario" ctest_in build-test; }

stage_scenario() { CTEST_ARGS="-L scenario" ctest_in build-test; }

stage_sanitize() {
	# ASan's leak checker is on by default on x86-64 Linux; said here so that a changed default
	# or an inherited ASAN_OPTIONS cannot turn it off unnoticed. An allocation over 2 GiB is
	# refused before it is made, as in tools/fuzz.sh (a fuzz regression input asks 22 GiB).
	ASAN_OPTIONS="detect_leaks=1:max_allocation_size_mb=2048${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		ctest_in build-san \
		-DSCHEDLAB_SANITIZE=ON
}

stage_clang() { ctest_in build-clang -DCMAKE_C_COMPILER=clang; }

stage_determinism() {
	# clang at -O2 (Release is -O3): another compiler and another optimisation level; the
	# sanitizer build at Debug, which is -g with no -O: -O0
	cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DSCHEDLAB_WERROR=ON >/dev/null &&
		cmake --build build-test -j "$jobs" --target schedlab &&
		CC=clang cmake -S . -B build-clang-det -DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null &&
		cmake --build build-clang-det -j "$jobs" --target schedlab &&
		cmake -S . -B build-det-san -DCMAKE_BUILD_TYPE=Debug -DSCHEDLAB_SANITIZE=ON \
			>/dev/null &&
		cmake --build build-det-san -j "$jobs" --target schedlab &&
		sh tests/determinism.sh build-test/schedlab build-clang-det/schedlab \
			build-det-san/schedlab
}

# The full run (CI) fuzzes from a fixed seed, FUZZ_SEED (default 1), so that a run that fails
# can be run again and fail the same way; --fuzz alone draws a seed per run, to explore.
stage_fuzz() { sh tools/fuzz.sh "${1:-30}"; }

stage_mpi() {
	cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DSCHEDLAB_MPI=ON >/dev/null &&
		cmake --build build-mpi -j "$jobs" --target schedlab &&
		ctest --test-dir build-mpi --output-on-failure -R '^sweep$'
}

case "${1:-}" in
--unit) stage_unit ;;
--scenario) stage_scenario ;;
--sanitize | --lsan) stage_sanitize ;;
--clang) stage_clang ;;
--determinism) stage_determinism ;;
--fuzz) stage_fuzz "${2:-30}" ;;
--mpi) stage_mpi ;;
"")
	passed=0
	failed=0
	names=""
	mkdir -p build-logs
	for s in unit scenario sanitize clang determinism fuzz mpi; do
		echo "== tools/test.sh: stage $s"
		secs=""
		[ "$s" = fuzz ] && secs=${FUZZ_SECONDS:-30} && FUZZ_SEED=${FUZZ_SEED:-1} &&
			export FUZZ_SEED
		# Each stage's output is also kept in build-logs/<stage>.log, so that a failed stage's
		# end can be printed again last: CI keeps only the end of what a run prints, and
		# that end is otherwise the later stages' build lines. set +e: as inside an `if`.
		rm -f "build-logs/$s.rc"
		# shellcheck disable=SC2086
		(
			set +e
			"stage_$s" $secs
			echo $? >"build-logs/$s.rc"
		) 2>&1 | tee "build-logs/$s.log"
		if [ "$(cat "build-logs/$s.rc" 2>/dev/null)" = 0 ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			names="$names $s"
		fi
	done
	for s in $names; do
		echo "== tools/test.sh: the last 100 lines of the failed stage $s (build-logs/$s.log)"
		tail -n 100 "build-logs/$s.log"
	done
	[ "$failed" -eq 0 ] || echo "tools/test.sh: failed stages:$names"
	echo "stages: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	;;
*)
	echo "usage: tools/test.sh [--unit | --scenario | --sanitize | --lsan | --clang |" \
		"--determinism | --fuzz [SECONDS] | --mpi]" >&2
	exit 2
	;;
esac
