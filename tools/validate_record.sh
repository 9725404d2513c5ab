#!/bin/sh
# Record the real side of `schedlab validate` for the files of docs/validate.md on this machine
# (root, rt-app, tracefs; an otherwise idle machine: check `uptime` first), keep each run in
# tests/data/validate/NAME (rt-app's logs, the trace xz-compressed, machine.conf), and print the
# side-by-side table of each. `tools/calibrate` first: `schedlab calibrate -o machines/this-vm`.
# Usage: sh tools/validate_record.sh [path/to/schedlab] [CALIBRATION_DIR]
set -eu
cd "$(dirname "$0")/.."
SL=${1:-build/schedlab}
CAL=${2:-machines/fc-2vcpu}
EX=/usr/share/doc/rt-app/examples
OUT=tests/data/validate
mkdir -p "$OUT"
# NAME FILE [DURATION for a file without one]
set -- \
	example1 "$EX/tutorial/example1.json" "" \
	example2 "$EX/tutorial/example2.json" "" \
	example3 "$EX/tutorial/example3.json" "" \
	example4 "$EX/tutorial/example4.json" 2s \
	example5 "$EX/tutorial/example5.json" 2s \
	example6 "$EX/tutorial/example6.json" "" \
	example7 "$EX/tutorial/example7.json" "" \
	mp3-short "$EX/mp3-short.json" "" \
	pack tests/data/rtapp/pack.json ""
SL_BIN=$SL
while [ $# -ge 3 ]; do
	name=$1 file=$2 dur=$3
	shift 3
	echo "== $name ($file)"
	# rt-app 1.0's calibration loop ("calibration": "CPU0") now and then never ends on this
	# VM (no logs, stopped by the timeout): up to three tries
	ok=0
	for try in 1 2 3; do
		rm -rf "${OUT:?}/$name"
		if "$SL_BIN" validate "$file" --out "$OUT/$name" --calibration "$CAL" \
			${dur:+--duration "$dur"}; then
			ok=1
			break
		fi
		echo "$name: try $try failed" >&2
	done
	[ "$ok" -eq 1 ] || { echo "$name: validate failed" >&2; continue; }
	rm -f "$OUT/$name"/*.plot
	xz -9 -f "$OUT/$name/real.trace"
done
