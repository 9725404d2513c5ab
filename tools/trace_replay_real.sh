#!/bin/sh
# Real recordings replayed by the trace workload, each beside its recording (docs/workloads.md,
# "A corpus of real recordings"): for each NAME.trace.xz (or NAME.trace) of DIR, or each one
# named, its extraction (trace-workload --json), its replay under each kernel of KERNELS
# (default: 6.18 2.6.31 2.6.32) with no option but --kernel, written as NAME.KERNEL.sim, and
# tools/trace_replay_table.py's per-task table and totals into NAME.table.md (and
# NAME.table.json). The recording machine's costs: NAME.trace.machine.conf beside it (record
# --calibration writes it), else CAL's (default machines/fc-2vcpu, the calibration of the
# machine the corpus was recorded on). RUNARGS: more options for the run lines (e.g.
# "--param vcpu_pack_waker=997"), word-split.
# Usage: sh tools/trace_replay_real.sh DIR [NAME...]
set -eu
[ $# -ge 1 ] && [ -d "$1" ] || {
	echo "usage: sh tools/trace_replay_real.sh DIR [NAME...]" >&2
	exit 2
}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=${SL:-$ROOT/build/schedlab}
CAL=${CAL:-$ROOT/machines/fc-2vcpu}
KERNELS=${KERNELS:-6.18 2.6.31 2.6.32}
DIR=$1
shift
if [ $# -eq 0 ]; then
	set -- $(cd "$DIR" && ls | sed -n 's/\.trace\(\.xz\)\{0,1\}$//p' | sort -u)
fi
for n in "$@"; do
	t=$DIR/$n.trace.xz
	[ -f "$t" ] || t=$DIR/$n.trace
	[ -f "$t" ] || {
		echo "$DIR/$n.trace.xz: not found" >&2
		exit 2
	}
	cal=
	[ -f "$DIR/$n.trace.machine.conf" ] || cal=",calibration=$CAL"
	"$S" trace-workload "$t" --json ${cal:+--calibration "$CAL"} >"$DIR/$n.json"
	sims=
	for k in $KERNELS; do
		# shellcheck disable=SC2086
		"$S" run --kernel "$k" --workload "trace:file=$t$cal" --trace-out "$DIR/$n.$k.sim" \
			--no-progress ${RUNARGS:-} >/dev/null
		sims="$sims $k=$DIR/$n.$k.sim"
	done
	# shellcheck disable=SC2086
	python3 "$ROOT/tools/trace_replay_table.py" "$t" "$DIR/$n.json" $sims \
		--json "$DIR/$n.table.json" >"$DIR/$n.table.md"
	echo "== $n"
	grep -E '^[0-9.]+: total' "$DIR/$n.table.md" || true
done
