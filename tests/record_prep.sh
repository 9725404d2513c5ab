#!/bin/sh
# The two preparations of a recording (tools/validate_record_set.sh), on files written by hand:
# tools/rtapp_set_global.sh (a global key set to a number: replaced where present as a number
# or a string, added first in "global" where absent, a "global" object made where the file has
# none; bad KEY/NUMBER/IN: exit 2 and nothing written) and tools/trace_keep_file.sh (of a whole
# trace, the header, cpu_idle and the lines naming one of the file's tasks, cut to 15
# characters, kept; every other line dropped); and validate_record_set.sh's refusal of a bad
# CALIBRATE count, and its second try of a run in which rt-app logged no row.
set -eu
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
S=tools/rtapp_set_global.sh

# a key present as a string and one as a number, in a multi-line global
printf '{\n\t"tasks" : { "a" : { "run" : 10 } },\n\t"global" : {\n\t\t"duration" : 6,\n\t\t"calibration" : "CPU0",\n\t\t"logdir" : "./"\n\t}\n}\n' >"$T/a.json"
sh $S calibration 15 "$T/a.json" "$T/b.json"
sh $S duration 4 "$T/b.json" "$T/c.json"
[ "$(grep -c '"calibration" : 15,' "$T/c.json")" = 1 ] || fail "calibration not replaced: $(cat "$T/c.json")"
[ "$(grep -c '"duration" : 4,' "$T/c.json")" = 1 ] || fail "duration not replaced"
grep -q CPU0 "$T/c.json" && fail "CPU0 left"
[ "$(wc -l <"$T/c.json")" = 8 ] || fail "lines added to a file that had both keys"
# absent from global: added first in it
printf '{ "tasks": {"a": {"run": 1}}, "global": { "logdir": "./" } }\n' >"$T/d.json"
sh $S calibration 15 "$T/d.json" "$T/e.json"
[ "$(tr -d '\n\t ' <"$T/e.json")" = '{"tasks":{"a":{"run":1}},"global":{"calibration":15,"logdir":"./"}}' ] ||
	fail "not added first in global: $(cat "$T/e.json")"
# no global: one made, first in the root object (a comment after it, as the tutorial's files)
printf '{\n\t/* two threads */\n\t"tasks" : { "a" : { "run" : 1 } }\n}\n' >"$T/f.json"
sh $S calibration 15 "$T/f.json" "$T/g.json"
[ "$(sed -n 2p "$T/g.json" | tr -d '\t')" = '"global" : { "calibration" : 15 },' ] ||
	fail "no global made: $(cat "$T/g.json")"
[ "$(wc -l <"$T/g.json")" = 5 ] || fail "the rest of the file changed"
# bad input: exit 2, nothing written
for args in "calibration x" "calibration 1-5" "Cal 15" "calibration ''"; do
	rm -f "$T/out.json"
	set +e
	eval sh $S $args "$T/a.json" "$T/out.json" 2>"$T/err"
	rc=$?
	set -e
	[ $rc = 2 ] || fail "$args: exit $rc, expected 2"
	[ -s "$T/err" ] || fail "$args: no message"
	[ ! -e "$T/out.json" ] || fail "$args: output written"
done
set +e
sh $S calibration 15 "$T/missing.json" "$T/out.json" 2>"$T/err"
rc=$?
set -e
[ $rc = 2 ] && grep -q missing.json "$T/err" || fail "missing file: exit $rc, $(cat "$T/err")"

# trace_keep_file.sh: a validate --out directory of a file whose log_basename is "web", with
# threads "Renderer" and "CompositorTileWorker1" (cut to 15: CompositorTileW)
d=$T/web1
mkdir -p "$d"
printf '{ "tasks": {}, "global": { "log_basename" : "web" } }\n' >"$d/web1.json"
: >"$d/web-Renderer-0.log"
: >"$d/web-CompositorTileWorker1-3.log"
cat >"$d/real.trace" <<'TR'
# tracer: nop
          <idle>-0       [000] d..2.  10.000000: cpu_idle: state=4294967295 cpu_id=0
        Renderer-100     [000] d..2.  10.000010: sched_switch: prev_comm=Renderer prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
     kworker/0:1-7       [001] d..2.  10.000020: sched_switch: prev_comm=kworker/0:1 prev_pid=7 prev_prio=120 prev_state=I ==> next_comm=bash next_pid=50 next_prio=120
            bash-50      [001] dN.4.  10.000030: sched_wakeup: comm=CompositorTileW pid=101 prio=120 target_cpu=001
            bash-50      [001] d..2.  10.000040: sched_switch: prev_comm=bash prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=CompositorTileW next_pid=101 next_prio=120
            bash-50      [001] d.h1.  10.000050: irq_handler_entry: irq=11 name=virtio0
       Renderers-102     [000] d..2.  10.000060: sched_switch: prev_comm=Renderers prev_pid=102 prev_prio=120 prev_state=S ==> next_comm=web next_pid=103 next_prio=120
TR
sh tools/trace_keep_file.sh "$d"
[ ! -e "$d/real.trace" ] || fail "real.trace left beside the filtered one"
xz -dc "$d/real.trace.xz" >"$T/kept"
[ "$(wc -l <"$T/kept")" = 5 ] || fail "kept $(wc -l <"$T/kept") lines, expected 5: $(cat "$T/kept")"
grep -q 'irq_handler_entry\|kworker\|Renderers' "$T/kept" && fail "a foreign line kept"
[ "$(grep -c CompositorTileW "$T/kept")" = 2 ] || fail "the cut name not matched"
# in place again on the .xz: the same lines
sh tools/trace_keep_file.sh "$d"
xz -dc "$d/real.trace.xz" | cmp -s - "$T/kept" || fail "filtering a filtered trace changed it"
# -c COPY: DIR's other files and the filtered trace in COPY (made, with its parent), DIR as it was
cp "$d/real.trace.xz" "$T/before.xz"
sh tools/trace_keep_file.sh -c "$T/c/web1" "$d"
cmp -s "$d/real.trace.xz" "$T/before.xz" || fail "-c: DIR's trace changed"
xz -dc "$T/c/web1/real.trace.xz" | cmp -s - "$T/kept" || fail "-c: the copy's trace is not the filtered one"
for f in web1.json web-Renderer-0.log web-CompositorTileWorker1-3.log; do
	[ -f "$T/c/web1/$f" ] || fail "-c: $f not copied ($(ls "$T/c/web1"))"
done
[ "$(find "$T/c/web1" -type f | wc -l)" = 4 ] || fail "-c: the copy holds $(ls "$T/c/web1")"
set +e
sh tools/trace_keep_file.sh -c "$T/c2" 2>"$T/err"
rc=$?
set -e
[ $rc = 2 ] && grep -q "usage" "$T/err" || fail "-c without DIR: exit $rc, $(cat "$T/err")"
set +e
sh tools/trace_keep_file.sh "$T/none" 2>"$T/err"
rc=$?
set -e
[ $rc = 2 ] && grep -q "$T/none" "$T/err" || fail "missing dir: exit $rc, $(cat "$T/err")"
# a directory without rt-app logs: exit 2 naming it, its trace left as it was
n=$T/nolog
mkdir "$n"
cp "$d/web1.json" "$n/nolog.json"
printf '# tracer: nop\n' >"$n/real.trace"
set +e
sh tools/trace_keep_file.sh "$n" 2>"$T/err"
rc=$?
set -e
[ $rc = 2 ] && grep -q "$n: no rt-app logs" "$T/err" || fail "no logs: exit $rc, $(cat "$T/err")"
[ -f "$n/real.trace" ] && [ ! -e "$n/real.trace.xz" ] || fail "no logs: the trace was replaced"
# validate_record_set.sh's CALIBRATE (calibrate runs after the recordings) must be a count: a
# bad one is refused before anything is recorded or made (no SETDIR), exit 2
for bad in x -1 2s; do
	set +e
	CALIBRATE=$bad sh tools/validate_record_set.sh "$T/set-$bad" 1 build/schedlab 1 template \
		>/dev/null 2>"$T/err"
	rc=$?
	set -e
	[ $rc = 2 ] && grep -q "CALIBRATE: expected how many schedlab calibrate runs (0 or more), got '$bad'" \
		"$T/err" || fail "CALIBRATE=$bad: exit $rc, $(cat "$T/err")"
	[ ! -e "$T/set-$bad" ] || fail "CALIBRATE=$bad: the set directory was made"
done
# A run whose rt-app logged no row is rt-app's failure: validate_record_set.sh makes it again.
# A stand-in for schedlab writes, at its Nth call, a log with N-1 rows (so the first call none)
# and a trace; the recording kept is the second call's, with its uptime, and stderr names the
# first. NEVER=1 makes every call log nothing: three tries, then no uptime (not counted) and
# stderr says so.
cat >"$T/fake-sl" <<EOF
#!/bin/sh
# validate FILE --out DIR
n=\$(cat "$T/calls" 2>/dev/null || echo 0)
n=\$((n + 1))
echo \$n >"$T/calls"
mkdir -p "\$4"
echo '# idx perf run period start end rel_st slack c_duration c_period wu_lat' >"\$4/t-0.log"
[ "\${NEVER:-0}" = 1 ] || seq 2 "\$n" | sed 's/.*/0 1 1000 2000 & & & 0 1000 2000 5/' >>"\$4/t-0.log"
echo '# tracer: nop' >"\$4/real.trace"
EOF
chmod +x "$T/fake-sl"
printf '{ "tasks": { "t": { "run": 1000 } }, "global": { "duration": 5 } }\n' >"$T/one.json"
MAXLOAD=100000 FULL=1 sh tools/validate_record_set.sh "$T/rec" 1 "$T/fake-sl" 1 "$T/one.json" \
	>/dev/null 2>"$T/err" || fail "retry: exit $?, $(cat "$T/err")"
grep -q "^one: try 1: rt-app logged no run (rt-app's failure): recorded again$" "$T/err" ||
	fail "retry not said: $(cat "$T/err")"
! grep -q 'try 2' "$T/err" || fail "the second try refused: $(cat "$T/err")"
[ "$(cat "$T/calls")" = 2 ] || fail "retry: $(cat "$T/calls") calls, expected 2"
[ -f "$T/rec/one/uptime" ] && [ "$(grep -vc '^#' "$T/rec/one/t-0.log")" = 1 ] &&
	[ -f "$T/rec/one/real.trace.xz" ] || fail "retry: the second run not kept: $(ls "$T/rec/one")"
rm -f "$T/calls"
NEVER=1 MAXLOAD=100000 FULL=1 sh tools/validate_record_set.sh "$T/rec2" 1 "$T/fake-sl" 1 \
	"$T/one.json" >/dev/null 2>"$T/err" || fail "never: exit $?, $(cat "$T/err")"
[ "$(cat "$T/calls")" = 3 ] || fail "never: $(cat "$T/calls") calls, expected 3"
grep -q '^one: validate failed or rt-app logged no run, 3 tries$' "$T/err" ||
	fail "never: not said: $(cat "$T/err")"
[ ! -e "$T/rec2/one/uptime" ] || fail "never: the failed run has an uptime (it would count)"
echo "record_prep: all passed"
