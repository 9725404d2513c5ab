#!/bin/sh
# Install every Debian 12 package the build and the tests need. Idempotent; run as root.
#   cmake, gcc, make, pkg-config: the build
#   libcmocka-dev: unit tests; libjson-c-dev: --json output; libbsd-dev: <bsd/sys/tree.h> rbtrees
#   liblzma-dev, zlib1g-dev: reading .xz and .gz trace files
#   libtracecmd-dev, libtraceevent-dev: reading binary trace.dat files (trace-cmd's format);
#     optional for the build, which refuses trace.dat without them (libtracecmd.pc needs
#     libtraceevent.pc, which Debian 12's libtracecmd-dev does not pull in)
#   libtracefs-dev: `schedlab record` into a private tracefs instance, leaving the global trace
#     buffer alone (optional for the build, which falls back to the global buffer)
#   gcovr: line and branch coverage of src/ (tools/coverage.sh)
#   openmpi-bin, libopenmpi-dev: the sweep's MPI engine (-DSCHEDLAB_MPI=ON) and its 2-rank test
#   gnuplot-nox: sweep-report --plot (optional at run time; the tests draw with it)
#   rt-app: its example JSON files, which tests/rtapp_examples.sh runs (skipped without it), and
#     the real side of schedlab validate
#   clang, libclang-rt-14-dev: tools/test.sh --clang (the warning-free clang build), --fuzz
#     (libFuzzer and the sanitizer runtimes clang links: -fsanitize=fuzzer,address,undefined) and
#     the second compiler of the cross-build determinism test (tools/test.sh --determinism)
#   time: GNU /usr/bin/time, the peak RSS that the bounded-memory and limit tests measure
#   zsh: the zsh completion's test (tests/cli_docs.sh; skipped without it)
#   --lint also installs clang-format and clang-tidy (tools/lint.sh)
set -eu
PKGS="build-essential cmake pkg-config libcmocka-dev libjson-c-dev libbsd-dev liblzma-dev zlib1g-dev"
PKGS="$PKGS libtracecmd-dev libtraceevent-dev libtracefs-dev"
PKGS="$PKGS gcovr openmpi-bin libopenmpi-dev gnuplot-nox rt-app clang libclang-rt-14-dev time zsh"
[ "${1:-}" = "--lint" ] && PKGS="$PKGS clang-format clang-tidy"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
n=$(echo "$PKGS" | wc -w)
if [ -z "$missing" ]; then
	echo "tools/setup.sh: all $n packages are installed; nothing to do"
	exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "tools/setup.sh: installing$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
echo "tools/setup.sh: done; all $n packages are installed"
