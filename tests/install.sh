#!/bin/sh
# cmake --install: the binary, the man page, the bash and zsh completions and the documentation
# in their FHS places under a prefix, and the installed binary runs the demo. Usage: sh
# tests/install.sh path/to/schedlab BUILD_DIR
set -eu
MAXARGS=2
. "$(dirname "$0")/lib.sh"
B=$2
cmake --install "$B" --prefix "$T/p" >"$T/log" 2>&1 || fail "cmake --install: $(tail -3 "$T/log")"
for f in bin/schedlab share/man/man1/schedlab.1 share/bash-completion/completions/schedlab \
	share/zsh/vendor-completions/_schedlab share/doc/schedlab/README.md \
	share/doc/schedlab/usage.md share/doc/schedlab/model/cfs.md; do
	[ -s "$T/p/$f" ] || fail "cmake --install did not install $f"
done
[ -x "$T/p/bin/schedlab" ] || fail "the installed schedlab is not executable"
"$T/p/bin/schedlab" demo >"$T/out" 2>"$T/err" || fail "installed schedlab demo: $(cat "$T/err")"
[ "$(grep -c '^   verdict: ' "$T/out")" -eq 3 ] || fail "installed demo: three verdicts expected"
"$T/p/bin/schedlab" --version | grep -x -E 'schedlab [0-9]+\.[0-9]+\.[0-9]+' >/dev/null ||
	fail "installed --version"
echo "install.sh: all checks passed"
