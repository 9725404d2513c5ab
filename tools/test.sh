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
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release $flags >/dev/null
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)"
