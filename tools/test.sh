#!/bin/sh
# Build and run every test. --sanitize builds in build-san with -fsanitize=address,undefined.
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
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release $flags >/dev/null
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
