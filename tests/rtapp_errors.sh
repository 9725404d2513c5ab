#!/bin/sh
# rt-app files that rt-app would reject (or that the model cannot run) are refused with the
# file, the line (and the column for syntax errors) and the reason, exit status 2, and no log.
set -eu
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/data/rtapp/bad" && pwd)

# refused FILE 'FILE:LINE[:COL]: start of the reason'
refused() {
	mkdir -p "$T/log"
	set +e
	"$SL" run "$D/$1" --cpus 2 --no-progress --rtapp-logdir "$T/log" >"$T/out" 2>"$T/err"
	rc=$?
	set -e
	[ "$rc" -eq 2 ] || fail "$1: exit $rc, expected 2"
	grep -qF "$D/$2" "$T/err" || fail "$1: expected '$2' in: $(cat "$T/err")"
	[ -z "$(ls "$T/log")" ] || fail "$1: logs written for a refused file"
	[ ! -s "$T/out" ] || fail "$1: output written for a refused file"
}

refused double_comma.json 'double_comma.json:3:24: expected a member name'
refused trailing.json 'trailing.json:5:3: expected the end of the file'
refused comment.json 'comment.json:2:2: comment opened here is not closed'
refused deep.json 'deep.json:2:80: nesting deeper than 64 (limit SL_JSON_MAX_DEPTH)'
refused no_tasks.json 'no_tasks.json:1: no "tasks" object'
refused unknown_event.json 'unknown_event.json:5: unknown event "sleeep"'
refused global_unknown.json 'global_unknown.json:5: unknown global key "durration"'
refused timer_no_ref.json 'timer_no_ref.json:5: "timer": missing "ref"'
refused timer_mode.json 'timer_mode.json:4: "mode": expected "relative" or "absolute"'
refused wait_no_mutex.json 'wait_no_mutex.json:5: "wait": missing "mutex"'
refused run_string.json 'run_string.json:4: "run": expected an integer, found a string'
refused run_fraction.json 'run_fraction.json:4: "run": expected an integer, found a fraction'
refused loop_bool.json 'loop_bool.json:4: "loop": expected an integer, found a boolean'
refused fork_unknown.json 'fork_unknown.json:4: "fork": no task named "nobody"'
refused nice_range.json 'nice_range.json:4: task "t": priority 30: SCHED_OTHER takes a nice'
refused deadline.json 'deadline.json:4: policy SCHED_DEADLINE is not modelled'
refused fifo_prio.json 'fifo_prio.json:4: task "t": priority 0: SCHED_FIFO takes 1..99'
refused slash_name.json 'slash_name.json:3: task name "../escape": a '"'"'/'"'"' is not allowed'
# loops of events that take no simulated time: the clock would never move (issue 30)
refused zero_sleep_loop.json 'zero_sleep_loop.json:3: task "t": a phase that loops for ever on events taking no simulated time'
refused run0_sleep0.json 'run0_sleep0.json:3: task "t": a phase that loops for ever on events taking no simulated time'
refused zero_phases.json 'zero_phases.json:3: task "t": it repeats for ever events taking no simulated time'
refused global_twice.json 'global_twice.json:3: "global" given twice (first on line 2)'
# the global keys the model ignores have rt-app's types all the same (rt-app refuses the file)
refused logdir_number.json 'logdir_number.json:4: "logdir": expected a string, found a number'
refused lock_pages_string.json 'lock_pages_string.json:3: "lock_pages": expected true or false, found a string'
refused global_key_twice.json 'global_key_twice.json:3: "global": "duration" given twice (first on line 2)'
refused run_u64max.json 'run_u64max.json:4: "run": 1.84467e+19 is out of range [0, 1000000000000]'
refused run_1e30.json 'run_1e30.json:4: "run": 1e+30 is out of range [0, 1000000000000]'
refused cpus_range.json 'cpus_range.json:3: task "t": cpus names CPU 5, the machine has CPUs 0..1'
# no task starts (instance 0 is a fork target; nothing forks): an empty run, not a result
refused instance_zero.json 'instance_zero.json:3: every task has "instance": 0: no thread would start'

# a missing file, and the workload without file=
set +e
"$SL" run "$T/none.json" --no-progress 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "none.json: cannot open" "$T/err" || fail "missing file: exit $rc"
set +e
"$SL" run --workload rt-app --no-progress 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "file: give the rt-app JSON file" "$T/err" || fail "no file=: exit $rc"
# a directory opens: its read error is named (it said "read error" and no more)
mkdir "$T/dir.json"
usage_error "dir.json: read error: Is a directory" run "$T/dir.json" --no-progress
echo "rtapp_errors: ok"
