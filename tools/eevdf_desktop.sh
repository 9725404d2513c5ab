#!/bin/sh
# The desktop case of `repro sleepers` (2 CPUs, core2 idle states, nice -n 19 make -j20 of 300
# jobs, an xmodmap-like client at 1 s, a 25 fps video decoding 8 ms a frame) under --kernel 2.6.31
# and 6.18, seeds 1-5: xclient completion, the p99 wake-up latency of the client, the video and
# make, and make's completion; mean [min, max]. Extra arguments go to every 6.18 run
# (e.g. --param hz=1000). Prints the figures of the EEVDF section of docs/experiments-2009.md.
set -eu
SL=${SL:-build/schedlab}
D="--cpus 2 --machine core2 --workload make:jobs=20,nice=19,count=300 --workload xclient:start=1s,rounds=9 --workload video:fps=25,decode=8ms --duration 8s"
for k in 2.6.31 6.18; do
	extra=""
	[ "$k" = 6.18 ] && extra="$*"
	for s in 1 2 3 4 5; do
		# shellcheck disable=SC2086
		$SL run --kernel "$k" $D --seed "$s" --json $extra
		echo
	done | python3 -c '
import json, sys
k = sys.argv[1]
text, rows, dec, i = sys.stdin.read(), [], json.JSONDecoder(), 0
while text[i:].strip():
	while text[i].isspace():
		i += 1
	obj, i = dec.raw_decode(text, i)
	rows.append(obj)
def g(d, n): return [x for x in d["groups"] if x["name"] == n][0]
def col(f): return [f(r) for r in rows]
def fmt(v, unit):
	return "%.2f [%.2f, %.2f]" % (sum(v) / len(v), min(v), max(v))
x = col(lambda r: g(r, "xclient")["completion_ns"] / 1e6)
xp = col(lambda r: g(r, "xclient")["wakeup_latency_ns"]["p99"] / 1e6)
vp = col(lambda r: g(r, "video")["wakeup_latency_ns"]["p99"] / 1e6)
mp = col(lambda r: g(r, "make")["wakeup_latency_ns"]["p99"] / 1e6)
m = col(lambda r: g(r, "make")["completion_ns"] / 1e9)
print("%-7s xclient ms %s | wake p99 ms: xclient %s, video %s, make %s | make s %s" % (k, fmt(x, ""), fmt(xp, ""), fmt(vp, ""), fmt(mp, ""), fmt(m, "")))
' "$k${extra:+ $extra}"
done
