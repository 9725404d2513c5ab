#!/bin/sh
# The four real recordings of docs/workloads.md ("Against the real machine") replayed under
# --kernel 6.18 with machines/fc-2vcpu's calibration, each beside its recording.
# Usage: sh tools/trace_replay_real.sh DIR   (DIR: pipe.trace dd.trace make.trace rta.trace,
# recorded with the commands of docs/workloads.md; T.json and T.sim are written beside them)
set -eu
[ $# -eq 1 ] && [ -d "$1" ] || {
	echo "usage: sh tools/trace_replay_real.sh DIR" >&2
	exit 2
}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=${SL:-$ROOT/build/schedlab}
M=$ROOT/machines/fc-2vcpu
# the calibration's parameters, as machine.conf lists them
PARAMS=$(sed -n 's/^param \(.*\)/--param \1/p' "$M/machine.conf")
cd "$1"
for t in 'pipe:^sched-pipe$' 'dd:^dd$' 'make:^(cc1|as|gcc|make)$' 'rta:^(thr|rt-app)$'; do
	n=${t%%:*}
	comms=${t#*:}
	[ -f "$n.trace" ] || {
		echo "$1/$n.trace: not found (record it as docs/workloads.md says)" >&2
		exit 2
	}
	"$S" trace-workload "$n.trace" --json >"$n.json"
	# shellcheck disable=SC2086
	"$S" run --cpus 2 --kernel 6.18 --machine "file:$M/machine.profile" \
		--cpuidle-governor menu --cpuidle-disable POLL $PARAMS \
		--workload "trace:file=$n.trace,sync=1,preempt=1" --trace-out "$n.sim" \
		--no-progress >/dev/null
	echo "== $n"
	python3 "$ROOT/tools/trace_side_by_side.py" "$n.trace" "$n.json" "$n.sim" "" "$comms"
	python3 "$ROOT/tools/trace_side_by_side.py" "$n.trace" "$n.json" "$n.sim" "" |
		grep 'within 10%' | sed 's/^/all replayed: /'
done
