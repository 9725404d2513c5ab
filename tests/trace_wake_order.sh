#!/bin/sh
# The model's ftrace text writes a wake-up's move as the kernel's try_to_wake_up does: sched_waking,
# then sched_migrate_task, then sched_wakeup, the first two on the CPU that ran the wake-up (the
# simulator moves the task before it emits the wake-up; src/trace/ftrace_text_writer.c holds the
# move). A validate run of a recorded browser file (seed 3) has such moves: every
# sched_migrate_task directly before a sched_wakeup of its task at its time follows that task's
# sched_waking at that time on the same CPU, and no sched_migrate_task comes directly before a
# sched_waking of its task at its time (the order before step 30).
set -eu
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")" && pwd)/data/validate-v1300e/r1/browser-long
M=$(cd "$(dirname "$0")/.." && pwd)/machines/fc-2vcpu-v1300e
"$SL" validate "$D/browser-long.json" --real "$D" --calibration "$M" --seed 3 --sim-out "$T/sim" \
	>/dev/null 2>"$T/err" || fail "validate: $(cat "$T/err")"
awk '
function pid(s) { sub(/.* pid=/, "", s); sub(/ .*/, "", s); return s }
function cpu(s) { sub(/^[^[]*\[/, "", s); sub(/\].*/, "", s); return s }
function ts(s) { sub(/:.*/, "", s); sub(/.* /, "", s); return s }
function ev(s) { if (match(s, /: (sched_[a-z_]+):/)) return substr(s, RSTART + 2, RLENGTH - 3); return "" }
{ line[NR] = $0 }
END {
	for (i = 2; i < NR; i++) {
		if (ev(line[i]) != "sched_migrate_task") continue
		p = pid(line[i]); t = ts(line[i])
		if (ev(line[i + 1]) == "sched_waking" && pid(line[i + 1]) == p && ts(line[i + 1]) == t)
			{ print "the move before its waking: " line[i]; bad++ }
		if (ev(line[i + 1]) != "sched_wakeup" || pid(line[i + 1]) != p || ts(line[i + 1]) != t)
			continue
		if (ev(line[i - 1]) != "sched_waking" || pid(line[i - 1]) != p ||
		    ts(line[i - 1]) != t || cpu(line[i - 1]) != cpu(line[i]))
			{ print "a move not after its waking on its CPU: " line[i]; bad++ }
		else
			good++
	}
	printf "%d moves at a wake-up in order\n", good
	exit bad > 0 || good < 10
}' "$T/sim/sim.trace" >"$T/out" || fail "$(head -n 5 "$T/out")"
