#!/bin/sh
# A real viewer opens schedlab's Chrome JSON: speedscope (npm package `speedscope`) in Debian's
# headless chromium loads a `run --trace-out .json` and must import it as Trace Event Format
# with every E event ending the slice its B began (speedscope matches them by name: a mismatch
# prints "Tried to end ... Doing nothing instead" and nests every later slice under the open
# one). The page title must name the first track. The screenshot is kept when OUTDIR is given.
#
# Usage: sh tests/speedscope.sh path/to/schedlab [OUTDIR]
#        sh tests/speedscope.sh --install     (npm install speedscope into the cache below)
# Needs chromium, python3 (a local HTTP server: chromium does not fetch file:// URLs for a page)
# and speedscope in $SPEEDSCOPE_DIR or ${XDG_CACHE_HOME:-$HOME/.cache}/schedlab-speedscope;
# skips with a message when one is missing. Not part of tools/setup.sh: chromium is large.
set -eu
CACHE=${SPEEDSCOPE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/schedlab-speedscope}
if [ "${1:-}" = "--install" ]; then
	mkdir -p "$CACHE"
	npm install --prefix "$CACHE" --no-audit --no-fund speedscope@1.25.0
	exit 0
fi
MAXARGS=2
. "$(dirname "$0")/lib.sh"
OUT=${2:-}
SS=$CACHE/node_modules/speedscope/dist/release
skip() {
	echo "speedscope.sh: skipped: $*"
	exit 0
}
command -v chromium >/dev/null 2>&1 || skip "no chromium (apt-get install chromium)"
command -v python3 >/dev/null 2>&1 || skip "no python3"
[ -f "$SS/index.html" ] || skip "no speedscope in $CACHE (sh tests/speedscope.sh --install)"

"$SL" run --cpus 2 --machine nehalem --workload make:jobs=4,count=30 --duration 300ms \
	--trace-out "$T/run.json" --no-progress >/dev/null
mkdir "$T/www"
cp -R "$SS" "$T/www/ss"
cp "$T/run.json" "$T/www/run.json"
# a server on a free port, named on its first line of output
(cd "$T/www" && exec python3 -u -m http.server 0 --bind 127.0.0.1) >"$T/http.log" 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$T"' EXIT
i=0
while ! grep -q 'port [0-9]' "$T/http.log" && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$T/http.log" | head -1)
[ -n "$port" ] || fail "the HTTP server did not start: $(cat "$T/http.log")"
url="http://127.0.0.1:$port/ss/index.html#profileURL=http://127.0.0.1:$port/run.json"
timeout 120 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
	--user-data-dir="$T/profile" --window-size=1400,900 --virtual-time-budget=15000 \
	--enable-logging=stderr --v=0 --screenshot="$T/shot.png" "$url" >/dev/null 2>"$T/console" ||
	fail "chromium failed: $(tail -5 "$T/console")"
timeout 120 chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$T/profile" \
	--window-size=1400,900 --virtual-time-budget=15000 --dump-dom "$url" >"$T/dom" 2>/dev/null ||
	fail "chromium --dump-dom failed"
grep -q 'Importing as Trace Event Format profile' "$T/console" ||
	fail "speedscope did not import the file: $(grep CONSOLE "$T/console" | tail -5)"
! grep -q 'Doing nothing instead' "$T/console" ||
	fail "speedscope could not match B/E events: $(grep 'Doing nothing' "$T/console" | head -3)"
! grep -qi 'Uncaught\|Failed to load\|Something went wrong' "$T/console" "$T/dom" ||
	fail "speedscope error: $(grep -i 'Uncaught\|Failed\|went wrong' "$T/console" "$T/dom" | head -3)"
grep -q 'CPUs (pid 1), CPU 0 (tid 0)' "$T/dom" || fail "the page does not show the CPU 0 track"
[ -s "$T/shot.png" ] || fail "no screenshot"
[ -z "$OUT" ] || cp "$T/shot.png" "$OUT/speedscope.png"
echo "speedscope.sh: ok ($(grep -c 'Ending .* instead' "$T/console") E events end a slice whose B had other args)"
