#!/bin/sh
# Build and run every test (build/, gcc). Other stages, one per option:
#   --sanitize        the same in build-san with ASan + UBSan (leak detection on, as --lsan)
#   --lsan            the same in build-san, LeakSanitizer explicitly on (ASAN_OPTIONS=detect_leaks=1)
#   --clang           the whole build and the tests with clang at -Wall -Wextra -Werror (build-clang)
#   --fuzz [SECONDS]  the libFuzzer targets (fuzz/) built with clang in build-fuzz, each run for
#                     SECONDS (default 30), two at a time; a line per target; fails on any crash
#   --mpi             the MPI build (build-mpi) and the sweep test with 2 ranks beside -j 1
set -eu
cd "$(dirname "$0")/.."
dir=build
flags=""
jobs=$(nproc)
case "${1:-}" in
--sanitize | --lsan)
	dir=build-san
	flags="-DSCHEDLAB_SANITIZE=ON"
	# ASan's leak checker is on by default on x86-64 Linux; said here so that a changed default
	# or an inherited ASAN_OPTIONS cannot turn it off unnoticed.
	ASAN_OPTIONS="detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
	export ASAN_OPTIONS
	;;
--clang)
	dir=build-clang
	flags="-DCMAKE_C_COMPILER=clang"
	;;
--mpi)
	cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DSCHEDLAB_MPI=ON >/dev/null
	cmake --build build-mpi -j "$jobs" --target schedlab
	ctest --test-dir build-mpi --output-on-failure -R '^sweep$'
	exit 0
	;;
--fuzz)
	exec sh tools/fuzz.sh "${2:-30}"
	;;
"") ;;
*)
	echo "usage: tools/test.sh [--sanitize | --lsan | --clang | --fuzz [SECONDS] | --mpi]" >&2
	exit 2
	;;
esac
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release $flags >/dev/null
cmake --build "$dir" -j "$jobs"
ctest --test-dir "$dir" --output-on-failure -j "$jobs"
