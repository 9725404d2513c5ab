#!/bin/sh
# Style and static checks: clang-format (kernel style, .clang-format) and clang-tidy (.clang-tidy)
# over every C file. Needs the build's compile_commands.json: run after tools/test.sh.
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find src tests bench include -name '*.[ch]')
clang-format --dry-run --Werror $files
[ -f build/compile_commands.json ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
clang-tidy -p build --quiet --extra-arg=-Wno-unknown-warning-option $(echo "$files" | grep '\.c$')
echo "lint: clean"
