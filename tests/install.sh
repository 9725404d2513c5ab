#!/bin/sh
# cmake --install: the binary, the man page, the bash and zsh completions and the documentation
# in their FHS places under a prefix, and the installed binary runs the demo. Usage: sh
# tests/install.sh path/to/schedlab BUILD_DIR
set -eu
MAXARGS=2
. "$(dirname "$0")/lib.sh"
B=$2
cmake --install "$B" --prefix "$T/p" >"$T/log" 2>&1 || fail "cmake --install: $(tail -3 "$T/log")"
for f in bin/schedlab share/man/man1/schedlab.1.gz share/bash-completion/completions/schedlab \
	share/zsh/vendor-completions/_schedlab share/doc/schedlab/README.md \
	share/doc/schedlab/usage.md share/doc/schedlab/model/cfs.md; do
	[ -s "$T/p/$f" ] || fail "cmake --install did not install $f"
done
[ -x "$T/p/bin/schedlab" ] || fail "the installed schedlab is not executable"
# the man page as Debian policy has it: gzip -9n (header: no FNAME flag, mtime 0, XFL 2 = best
# compression), and it is the page of the build
[ "$(od -An -tx1 -j3 -N6 "$T/p/share/man/man1/schedlab.1.gz" | tr -d ' \n')" = 000000000002 ] ||
	fail "the man page is not gzip -9n: $(od -An -tx1 -N10 "$T/p/share/man/man1/schedlab.1.gz")"
gzip -dc "$T/p/share/man/man1/schedlab.1.gz" | cmp -s - "$B/schedlab.1" ||
	fail "the installed man page is not the build's"
"$T/p/bin/schedlab" demo >"$T/out" 2>"$T/err" || fail "installed schedlab demo: $(cat "$T/err")"
[ "$(grep -c '^   verdict: ' "$T/out")" -eq 3 ] || fail "installed demo: three verdicts expected"
"$T/p/bin/schedlab" --version | grep -x -E 'schedlab [0-9]+\.[0-9]+\.[0-9]+' >/dev/null ||
	fail "installed --version"
# tools/setup.sh with every package installed (dpkg-query answering so) says so and installs
# nothing (an apt-get on PATH that is called fails the check)
# a policy plug-in built from the installed example against the installed header alone
[ -s "$T/p/include/schedlab/policy.h" ] || fail "cmake --install did not install the policy API"
${CC:-cc} -shared -fPIC -I "$T/p/include" -o "$T/vtime.so" \
	"$T/p/share/doc/schedlab/examples/policy/vtime.c" ||
	fail "the installed vtime.c does not build against the installed policy.h"
"$T/p/bin/schedlab" run --policy "$T/vtime.so" --cpus 1 --workload hog:tasks=2 --duration 100ms \
	>"$T/out" 2>"$T/err" || fail "installed schedlab --policy vtime.so: $(cat "$T/err")"
mkdir "$T/bin"
printf '#!/bin/sh\nprintf "install ok installed"\n' >"$T/bin/dpkg-query"
printf '#!/bin/sh\necho apt-get called >&2\nexit 1\n' >"$T/bin/apt-get"
chmod +x "$T/bin/dpkg-query" "$T/bin/apt-get"
PATH="$T/bin:$PATH" sh "$(dirname "$0")/../tools/setup.sh" >"$T/out" 2>&1 ||
	fail "tools/setup.sh with everything installed: $(cat "$T/out")"
grep -E '^tools/setup.sh: all [0-9]+ packages are installed; nothing to do$' "$T/out" >/dev/null ||
	fail "tools/setup.sh does not say all is installed: $(cat "$T/out")"
echo "install.sh: all checks passed"
