#!/bin/sh
# Line and branch coverage of src/: builds with gcov instrumentation in build-cov/
# (-DSCHEDLAB_COVERAGE=ON: --coverage -O0), runs every test (ctest: unit tests and cli.sh) from
# zeroed counters, and prints gcovr's per-file line table and the line, function and branch
# summary of src/; the per-file branch table is left in build-cov/coverage-branches.txt.
# Also `cmake --build build --target coverage`. Needs gcovr (tools/setup.sh).
set -eu
cd "$(dirname "$0")/.."
dir=build-cov
jobs=$(nproc)
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DSCHEDLAB_COVERAGE=ON >/dev/null
cmake --build "$dir" -j "$jobs"
# Counters accumulate across runs: start from zero so the figures are this run's tests only.
find "$dir" -name '*.gcda' -delete
ctest --test-dir "$dir" --output-on-failure -j "$jobs"
gcov="gcovr -r . --filter src/ --object-directory $dir -j $jobs"
$gcov --branches --txt "$dir/coverage-branches.txt"
$gcov --txt "$dir/coverage-lines.txt" --print-summary >"$dir/coverage-summary.txt"
cat "$dir/coverage-lines.txt"
grep -E '^(lines|functions|branches):' "$dir/coverage-summary.txt"
