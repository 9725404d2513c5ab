#!/bin/sh
# Build and run every test. --sanitize builds in build-san with -fsanitize=address,undefined;
# --determinism compares three builds' outputs (see below); --mpi the MPI engine.
set -eu
cd "$(dirname "$0")/.."
dir=build
flags=""
if [ "${1:-}" = "--sanitize" ]; then
	dir=build-san
	flags="-DSCHEDLAB_SANITIZE=ON"
fi
# --mpi: the MPI build (build-mpi) and the sweep test with 2 ranks beside -j 1
if [ "${1:-}" = "--mpi" ]; then
	cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DSCHEDLAB_MPI=ON >/dev/null
	cmake --build build-mpi -j "$(nproc)" --target schedlab
	ctest --test-dir build-mpi --output-on-failure -R '^sweep$'
	exit 0
fi
# --determinism: the same outputs, byte for byte, from gcc -O3 (build, Release), clang -O2
# (build-clang-det) and gcc -O0 with AddressSanitizer+UBSan (build-det-san): tests/determinism.sh
if [ "${1:-}" = "--determinism" ]; then
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build -j "$(nproc)" --target schedlab
	# clang at -O2 (Release is -O3): another compiler and another optimisation level
	CC=clang cmake -S . -B build-clang-det -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" >/dev/null
	cmake --build build-clang-det -j "$(nproc)" --target schedlab
	# Debug is -g with no -O: -O0
	cmake -S . -B build-det-san -DCMAKE_BUILD_TYPE=Debug -DSCHEDLAB_SANITIZE=ON >/dev/null
	cmake --build build-det-san -j "$(nproc)" --target schedlab
	sh tests/determinism.sh build/schedlab build-clang-det/schedlab build-det-san/schedlab
	exit 0
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release $flags >/dev/null
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
