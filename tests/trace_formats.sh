#!/bin/sh
# The input under every trace reader (src/trace/input.c) and the probes' order
# (src/trace/registry.c): each format reads the same plain, as xz and as gzip, on every command
# that opens a trace; an input no probe claims goes to the fallback (ftrace text), whose error
# names the file and the line, exit status 2; a zstd file is refused by name.
set -eu
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data

# same NAME FILE...: trace-stats --json of each FILE is the first's
same() {
	what=$1
	shift
	"$SL" trace-stats --json "$1" >"$T/want" || fail "$what: trace-stats $1"
	for f in "$@"; do
		"$SL" trace-stats --json "$f" >"$T/got" || fail "$what: trace-stats $f"
		cmp "$T/want" "$T/got" >/dev/null || fail "$what: $f reads otherwise than $1"
	done
}

# ftrace text, idlestat's file, trace-cmd report's text: plain, xz, gzip (also on stdin)
xz -dc "$D/sync-direct-read.trace.xz" >"$T/f.trace"
gzip -c "$T/f.trace" >"$T/f.trace.gz"
same "ftrace text" "$T/f.trace" "$D/sync-direct-read.trace.xz" "$T/f.trace.gz"
cp "$D/idlestat-topology.idlestat" "$T/i.idlestat"
xz -c "$T/i.idlestat" >"$T/i.idlestat.xz"
gzip -c "$T/i.idlestat" >"$T/i.idlestat.gz"
same "idlestat" "$T/i.idlestat" "$T/i.idlestat.xz" "$T/i.idlestat.gz"
"$SL" trace-stats "$T/i.idlestat.gz" >"$T/out"
grep -q '^idle states as idlestat' "$T/out" ||
	fail "a gzip idlestat file was not read as idlestat's (no idlestat table)"
"$SL" trace-stats --json - <"$T/i.idlestat.xz" >"$T/got"
"$SL" trace-stats --json - <"$T/i.idlestat" >"$T/want"
cmp "$T/want" "$T/got" >/dev/null || fail "idlestat .xz on stdin reads otherwise"

# a trace.dat, plain and compressed, when this build reads them
xz -dc "$D/sleep-instance.trace.dat.xz" >"$T/d.dat"
if "$SL" trace-stats "$T/d.dat" >/dev/null 2>&1; then
	gzip -c "$T/d.dat" >"$T/d.dat.gz"
	same "trace.dat" "$T/d.dat" "$D/sleep-instance.trace.dat.xz" "$T/d.dat.gz"
fi

# no probe claims these: the fallback's error names the file and its first line, exit 2
printf 'hello world\nfoo\n' >"$T/u.txt"
gzip -c "$T/u.txt" >"$T/u.txt.gz"
xz -c "$T/u.txt" >"$T/u.txt.xz"
head -c 600 "$SL" >"$T/u.bin"
for f in u.txt u.txt.gz u.txt.xz; do
	usage_error "$T/$f:1: malformed line: expected comm-pid [cpu]: \"hello world\"" \
		trace-stats "$T/$f"
	usage_error "$T/$f:1: malformed line" replay-idle "$T/$f"
	usage_error "$T/$f:1: malformed line" run --workload "trace:file=$T/$f"
done
usage_error "$T/u.bin:1: malformed line: expected comm-pid [cpu]" trace-stats "$T/u.bin"
printf '\050\265\057\375\004\130\101\000' >"$T/z.zst"
usage_error "$T/z.zst: zstd-compressed" trace-stats "$T/z.zst"
usage_error "$T/z.zst: zstd-compressed" trace-stats --lenient "$T/z.zst"
# every line skipped by --lenient: no report of zeros and exit 0, but the error of an empty file
printf 'not a trace\nnor this\n' >"$T/g.txt"
usage_error "$T/g.txt: no trace events in its 2 lines, 2 malformed ones skipped" \
	trace-stats --lenient "$T/g.txt"
echo "trace_formats.sh: ok"
