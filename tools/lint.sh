#!/bin/sh
# Style and static checks: clang-format (kernel style, .clang-format) and clang-tidy (.clang-tidy)
# over every C file. Needs the build's compile_commands.json: run after tools/test.sh.
set -eu
cd "$(dirname "$0")/.."
# the layers of src/ point one way
sh tools/check_layers.sh
# no code outside a policy's folder names a policy (docs/architecture.md)
sh tools/check_policy_names.sh
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find src tests bench include -name '*.[ch]')
clang-format --dry-run --Werror $files
[ -f build/compile_commands.json ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
# The MPI engine is compiled only in the MPI build: checked against that build's flags.
# tools/eevdf_probe is built by its own script against the running kernel's BTF (a BPF target
# and libbpf, neither in the build): formatted, not tidied.
clang-tidy -p build --quiet --extra-arg=-Wno-unknown-warning-option \
	$(echo "$files" | grep '\.c$' | grep -v 'sweep_mpi\.c$' | grep -v '^tools/eevdf_probe/')
if [ -f build-mpi/compile_commands.json ]; then
	clang-tidy -p build-mpi --quiet --extra-arg=-Wno-unknown-warning-option \
		src/experiment/sweep_mpi.c
fi
echo "lint: clean"
