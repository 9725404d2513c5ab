#!/bin/sh
# Every usage error of the schedlab command (src/cli/main.c, and the parsers it calls) gives exit
# status 2, an empty stdout and a message on stderr naming the option or value and what was
# expected (docs/usage.md: "Bad input ... exits with status 2 and a message naming the option
# and what was expected; nothing is written to stdout"). Usage: sh tests/cli_errors.sh
# path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data
TR=$D/idle-sleep-loop.trace.xz

SLA=$(cd "$(dirname "$SL")" && pwd)/$(basename "$SL")
# rep N WORD: WORD repeated N times, no separator
rep() {
	i=0
	s=""
	while [ "$i" -lt "$1" ]; do
		s="$s$2"
		i=$((i + 1))
	done
	printf '%s' "$s"
}

# --- the command line itself ---
usage_error "no command given" # no arguments at all
grep -F "usage: schedlab COMMAND" "$T/err" >/dev/null || fail "no command: no usage on stderr"
usage_error "unknown command 'frobnicate'" frobnicate
usage_error "unexpected argument 'foo'" run foo
# a file that is not an rt-app .json: most likely a recording, named the way run takes one
usage_error "unexpected argument '$TR' (see schedlab run --help; a trace to replay: --workload trace:file=$TR)" \
	run "$TR"
usage_error "unexpected argument 'extra' (schedlab --version takes none)" --version extra
# an option name longer than any known one is cut to 40 characters in the message
usage_error "unknown option '--$(rep 38 a)...'" run "--$(rep 70 a)"
usage_error "--json takes no value" run --json=1
usage_error "--json does not apply to this command" sweep-merge --json
usage_error "--cpus does not apply to this command" features --cpus 2
usage_error "--cpus does not apply to this command" demo --cpus 2
usage_error "--workload needs a value" run --workload
usage_error "run: give at least one --workload" run
usage_error "run: give at least one --workload" run --duration=1s
# the listing commands take --json and -o only
for c in workloads params machines governors; do
	usage_error "unexpected argument 'x' (see schedlab $c --help)" $c x
	usage_error "$c: --cpus does not apply to this command" $c --cpus 2
done
# a list option is taken at most SL_MAX_LIST (64) times
many=""
i=0
while [ "$i" -lt 65 ]; do
	many="$many --sysctl kernel.sched_nr_migrate=32"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # word splitting of $many is the point
usage_error "--sysctl: at most 64 times" run --workload hog $many

# --- errors of the configuration, through every command that builds one ---
usage_error "unknown sched feature 'NO_X'" features --sched-features NO_X
usage_error "unknown sysctl 'kernel.x'" sysctl --sysctl kernel.x=1
# 6.18 has its debugfs tunables only; 2.6.3x lack them
usage_error "valid for --kernel 6.18: base_slice_ns" run --kernel 6.18 --workload hog \
	--sysctl kernel.sched_latency_ns=10000000
usage_error "Linux 2.6.31 has no such tunable" run --workload hog --sysctl base_slice_ns=1
usage_error "out of range [0, 2]" run --kernel 6.18 --workload hog --sysctl tunable_scaling=3
usage_error "unknown sched feature 'GENTLE_FAIR_SLEEPERS'" run --kernel 6.18 --workload hog \
	--sched-features GENTLE_FAIR_SLEEPERS
usage_error "6.18 has no sched_child_runs_first" repro fork --kernel 6.18
usage_error "runtime: expected a fixed duration" run --kernel 6.18 \
	--workload hog:runtime=uniform:1ms:2ms
usage_error "sched feature word '$(rep 40 A)...' is too long" run --workload hog \
	--sched-features "$(rep 80 A)"
usage_error "--duration must be above 0" run --workload hog --duration 0s
usage_error "is too large" run --workload hog --duration 18446744073709551615s
usage_error "--seed: 'x' is not a non-negative integer" run --workload hog --seed x
usage_error "--topology '64x64x2': at most 4096 CPUs" run --workload hog --topology 64x64x2
usage_error "expected TIME:sched-features=WORDS or TIME:sysctl=NAME=VALUE" run --workload hog --at 1s
usage_error "expected TIME:sched-features=WORDS or TIME:sysctl=NAME=VALUE" run --workload hog \
	--at "$(rep 70 1)s:sysctl=kernel.sched_nr_migrate=1"
usage_error "too long" run --workload hog --at "1s:sysctl=$(rep 300 k)"
usage_error "--param 'ctx_switch': expected NAME=VALUE" run --workload hog --param ctx_switch
usage_error "--param ctx_switch: '1' is not a duration" run --workload hog --param ctx_switch=1
usage_error "--irq-affinity '2': expected issuer, spread, bios, irqbalance or a CPU 0..1" run --workload hog \
	--irq-affinity 2
usage_error "--cpuidle-param 'nope': expected NAME=VALUE" run --workload hog --cpuidle-param nope
usage_error "--cpuidle-param menu_tng_quirks: 'x' is not a non-negative integer" run \
	--workload hog --cpuidle-param menu_tng_quirks=x
usage_error "--cpuidle-param menu_tng_quirks: expected 0 or 1" run --workload hog \
	--machine nehalem --cpuidle-param menu_tng_quirks=2
usage_error "--cpuidle-param haltpoll_allow_shrink: expected 0 or 1" run --workload hog \
	--cpuidle-param haltpoll_allow_shrink=7
usage_error "machine nehalem has no state 'C9' (POLL, C1, C1E, C3, C6)" run --workload hog \
	--machine nehalem --idle-driver intel_idle --cpuidle-param power_mw.C9=5
usage_error "machine nehalem has no state 'C2'" run --workload hog --machine nehalem --idle-driver intel_idle \
	--cpuidle-param entry_energy_nj.C2=5

# --- workload keys ---
usage_error "rw='append': expected read, randread, write or randwrite" run --workload fio:rw=append
usage_error "ioengine='mmap': expected sync or libaio" run --workload fio:ioengine=mmap
usage_error "size: '3q' is not a size (expected a number with k, m or g" run --workload fio:size=3q
usage_error "size: '4kb' is not a size" run --workload fio:size=4kb
usage_error "size: '99999999999999999999g' is not a size" run --workload fio:size=99999999999999999999g
usage_error "policy='deadline': expected normal, batch, idle, fifo, rr or iso" run --workload hog:policy=deadline
usage_error "tasks: 'x' is not an integer" run --workload hog:tasks=x
# a number beyond 64 bits is an integer out of range, and the message names the limit
usage_error "tasks=99999999999999999999 is out of range [1, 100000]" run \
	--workload hog:tasks=99999999999999999999
usage_error "--seed: '99999999999999999999' is out of range (the limit is 18446744073709551615)" \
	run --workload hog --seed 99999999999999999999
usage_error "--sysctl kernel.sched_nr_migrate=99999999999999999999: out of range [" run \
	--workload hog --sysctl kernel.sched_nr_migrate=99999999999999999999
usage_error "start: '5' is not a duration" run --workload hog:start=5
usage_error "distribution 'uniform' takes 2 value(s)" run --workload hog:work=uniform:1ms
usage_error "work: 'x' is not a duration" run --workload hog:work=exp:x
usage_error "key 'work' needs a value" run --workload hog:work=
# a value too long for the key's buffer (95 characters) says so, not "needs a value"
usage_error "key 'work': value too long (at most 95 characters)" run --workload \
	"hog:work=exp:$(rep 200 u)"
usage_error "--workload: specification too long" run --workload "hog:$(rep 300 u)=1"

# --- repro ---
usage_error "repro: give the experiment: fio, sleepers, fork or bfs" repro
usage_error "repro fio: unknown option '--bogus'" repro fio --bogus
usage_error "--disks needs a value" repro fio --disks
usage_error "--disks: 'x' is not a disk count 1..64" repro fio --disks 1,x
usage_error "--disks: '65' is not a disk count 1..64" repro fio --disks 65
usage_error "--disks: empty list" repro fio --disks ,
usage_error "--disks: at most 16 entries" repro fio --disks 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17
usage_error "--disks: list too long" repro fio --disks "$(rep 130 1,)"
usage_error "--seeds: '17' is not a count 1..16" repro fork --seeds 17
usage_error "--kernel '2.6.99': unknown release (valid: 2.6.31, 2.6.32, 6.18, 2.6.31-bfs)" repro fio --disks 1 \
	--governors poll --kernel 2.6.99
# an option the experiment does not read is refused, not ignored (sleepers runs both releases)
usage_error "repro sleepers: --kernel does not apply to this experiment" repro sleepers --kernel 2.6.32
usage_error "repro fork: --disks does not apply to this experiment" repro fork --disks 1
usage_error "repro fio: --seeds does not apply to this experiment" repro fio --seeds 2
usage_error "--duration: '5' is not a duration" repro sleepers --seeds 1 --duration 5
# fork runs each build to its end: a duration would be ignored, so it is refused (but with
# --workload, which replaces the builds)
usage_error "repro fork: --duration applies with --workload only" repro fork --duration 1s

# --- trace-stats, replay-idle, record ---
usage_error "trace-stats: unknown option '--bogus'" trace-stats --bogus
usage_error "trace-stats: --sort: 'cpu' is not a key" trace-stats --sort runtime,cpu x.trace
usage_error "trace-stats: one trace at a time ('a' and 'b')" trace-stats a b
usage_error "trace-stats: give a trace file" trace-stats
usage_error "--machine needs a value" replay-idle --machine
usage_error "replay-idle: unknown option '--bogus'" replay-idle --bogus
usage_error "replay-idle: one trace at a time" replay-idle a b
usage_error "--cpuidle-governor: empty list" replay-idle "$TR" --cpuidle-governor ,
usage_error "--cpuidle-governor 'nosuch': unknown (see schedlab governors)" replay-idle "$TR" \
	--cpuidle-governor poll,nosuch
usage_error "--machine nosuch: unknown idle profile 'nosuch'" replay-idle "$TR" --machine nosuch
usage_error "no-such.trace" replay-idle "$T/no-such.trace"
usage_error "-o needs a value" record -o
usage_error "record: unknown option '--bogus'" record --bogus
usage_error "record: give a command after --" record -o "$T/r.trace"
usage_error "record: give a command after --" record -o "$T/r.trace" --
# - is standard output for a report (-o -), not for a trace: refused, no file named '-'
rc=0
(cd "$T" && exec "$SLA" record -o - -- true) >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "record: -o -: expected a file" "$T/err" ||
	fail "record -o -: exit $rc: $(cat "$T/err")"
rc=0
(cd "$T" && exec "$SLA" run --workload hog --duration 10ms --trace-out -) >/dev/null \
	2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "trace-out -: the report goes to standard output" "$T/err" ||
	fail "run --trace-out -: exit $rc: $(cat "$T/err")"
rc=0
(cd "$T" && exec "$SLA" sweep-merge --out - x.csv) >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "sweep-merge: --out -: expected a file" "$T/err" ||
	fail "sweep-merge --out -: exit $rc: $(cat "$T/err")"
[ ! -e "$T/-" ] || fail "a file named '-' was written"
usage_error "--events: empty list" record -o "$T/r.trace" --events , -- true
[ ! -e "$T/r.trace" ] || fail "record: a trace written after a usage error"
# calibrate: an -o that cannot be a directory is found before the 30 s of measuring (exit 1:
# an output that cannot be written), and a bad --remote-known names its value
: >"$T/cal.file"
rc=0
timeout 10 "$SL" calibrate -o "$T/cal.file" >"$T/out" 2>"$T/err" || rc=$?
[ "$rc" -eq 1 ] || fail "calibrate -o FILE: exit $rc: $(cat "$T/err")"
grep -qF "calibrate: -o $T/cal.file: Not a directory" "$T/err" ||
	fail "calibrate -o FILE: $(cat "$T/err")"
usage_error "unexpected '--remote-known 1e3'" calibrate --recordings --remote-known 1e3 "$T"
# validate --calibration DIR that does not load: refused before rt-app runs for real
mkdir -p "$T/badcal"
printf 'cpus 2\nparam ctx_switch=abc\n' >"$T/badcal/machine.conf"
usage_error "badcal/machine.conf:2: param: --param ctx_switch: 'abc' is not a duration" \
	validate --calibration "$T/badcal" "$D/rtapp/lock.json"
! grep -q "for real" "$T/err" || fail "validate ran rt-app before reading --calibration"
# and so is an --out or --sim-out that cannot be a directory: an output not written, exit 1
status_error 1 "--sim-out $T/cal.file: Not a directory" validate --sim-out "$T/cal.file" \
	"$D/rtapp/lock.json"
! grep -q "for real" "$T/err" || fail "validate ran rt-app before making --sim-out"
status_error 1 "--out $T/cal.file: Not a directory" validate --out "$T/cal.file" \
	"$D/rtapp/lock.json"

# --- an output naming an input would replace it: refused, the input left as it was ---
cp "$D/trace-workload/small.trace" "$T/in.trace"
cp "$T/in.trace" "$T/in.copy"
usage_error "--output $T/in.trace: an input of this command" trace-stats "$T/in.trace" \
	-o "$T/in.trace"
usage_error "-o $T/in.trace: the trace read" trace-workload "$T/in.trace" -o "$T/in.trace"
usage_error "--trace-out $T/in.trace: an input of this run" run --duration 10ms \
	--workload "trace:file=$T/in.trace,calibration=none" --trace-out "$T/in.trace"
# compare reads its workloads' files after opening -o: refused before the commit
usage_error "in.trace: an input of this command" compare --duration 10ms \
	--workload "trace:file=$T/in.trace,calibration=none" -o "$T/../$(basename "$T")/in.trace"
cmp -s "$T/in.trace" "$T/in.copy" || fail "an output replaced its input"

# --- limits: an absurd size is refused with the limit named, before anything is allocated: the
# refusal's peak RSS is within 4 MiB of a refusal that allocates nothing (--cpus 0), whatever the
# build (ASan's baseline is larger); 100000 tasks alone would be 65 MB, 67 M fio request slots
# gigabytes. docs/limits.md lists them. ---
base=""
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o "$T/rss" "$SL" run --workload hog --cpus 0 >/dev/null 2>&1 || true
	base=$(tail -n 1 "$T/rss")
fi
limit_error() {
	usage_error "$@"
	if [ -n "$base" ]; then
		shift
		/usr/bin/time -f %M -o "$T/rss" "$SL" "$@" >/dev/null 2>&1 || true
		[ "$(tail -n 1 "$T/rss")" -lt $((base + 4096)) ] ||
			fail "schedlab $*: refused after using $(tail -n 1 "$T/rss") KB (baseline $base KB)"
	fi
}
limit_error "--cpus '4097': expected a number of CPUs, 1..4096" run --workload hog --cpus 4097
limit_error "--topology '1024x1024x1024': at most 4096 CPUs" run --workload hog \
	--topology 1024x1024x1024
limit_error "tasks=100001 is out of range [1, 100000]" run --workload hog:tasks=100001
limit_error "pairs=100001 is out of range [1, 100000]" run --workload pingpong:pairs=100001
limit_error "jobs=100001 is out of range [1, 100000]" run --workload make:jobs=100001
limit_error "numjobs=1025 is out of range [1, 1024]" run --workload fio:numjobs=1025
# 11 groups of 100000 hogs: each allowed, together beyond SL_MAX_TASKS (10^6)
many=""
for i in 1 2 3 4 5 6 7 8 9 10; do many="$many --workload hog:tasks=100000"; done
# shellcheck disable=SC2086
limit_error "the workloads create up to 1000001 tasks; the limit is 1000000 (SL_MAX_TASKS" \
	run $many --workload hog
# make forks count + 1 jobs, each with its assembler under pipe=: 1 + 10000001 x 2 tasks
limit_error "the workloads create up to 20000003 tasks; the limit is 1000000" \
	run --workload make:count=10000000,pipe=1
# 1024 x 16 x 4096 request slots
limit_error "disks x numjobs x iodepth = 67108864 requests in flight; the limit is 1048576" \
	run --workload fio:disks=1024,numjobs=16,iodepth=4096,ioengine=libaio
limit_error "--duration 1000001s: the limit is 1000000 s of simulated time (SL_MAX_DURATION)" \
	run --workload hog --duration 1000001s
limit_error "duration '18446744074s' is too large" run --workload hog --duration 18446744074s
limit_error "--seeds wants a count from 1 to 64" sweep --workload hog --seeds 65 --out "$T/x.csv"
# all 2^15 schedulers x 64 seeds x 40 latencies: 83886080 runs, beyond 2^26
lat=$(seq -s, 1000000 1000000 40000000)
limit_error "sweep: 83886080 runs asked for; the limit is 67108864" sweep --workload hog \
	--features all --seeds 64 --vary "kernel.sched_latency_ns=$lat" --out "$T/x.csv"
[ ! -e "$T/x.csv" ] || fail "a refused sweep created its --out file"
# a refused --mix or --vary value frees its copy (the sanitizer build's leak check: exit 1)
usage_error "--mix wants SPEC[+SPEC...]" sweep --mix "" --out "$T/x.csv"
usage_error "--mix: too many workloads" sweep --mix "$(rep 64 a+)a" --out "$T/x.csv"
usage_error "--vary wants 1 to 64 comma-separated values" sweep --workload hog \
	--vary "kernel.sched_latency_ns=$(seq -s, 1000000 1000000 65000000)" --out "$T/x.csv"

# --- hostile sweep files: a line beyond 64 KiB is not read whole, JSON nesting is not recursed ---
awk 'BEGIN { s = "{\"run\":0,\"config\":"; for (i = 0; i < 1000; i++) s = s "["; for (i = 0; i < 1000; i++) s = s "]"; print s "}" }' >"$T/deep.jsonl"
usage_error "deep.jsonl: line 1: a JSON object nested too deep (a row is one flat object)" \
	sweep-report "$T/deep.jsonl"
usage_error "deep.jsonl: line 1: a JSON object nested too deep" sweep --workload hog \
	--duration 1ms --out "$T/deep.jsonl"
head -c 200000 /dev/zero | tr '\0' a >"$T/huge.csv"
echo >>"$T/huge.csv"
usage_error "huge.csv: line 1: a line longer than 65536 bytes: not a row of a sweep" \
	sweep-report "$T/huge.csv"
cp "$T/huge.csv" "$T/huge2.csv"
usage_error "huge2.csv: line 1: a line longer than 65536 bytes" sweep --workload hog \
	--duration 1ms --out "$T/huge2.csv"
cmp -s "$T/huge.csv" "$T/huge2.csv" || fail "a refused resume changed its --out file"

# --- did you mean (core/suggest.c: edit distance at most a third of the word, or the name
# without its dotted prefix) ---
usage_error "unknown command 'swep'; did you mean 'sweep'?" swep
# every command is in the unknown-command list
usage_error "(commands: run, compare, demo, repro, sweep, sweep-report, sweep-merge, trace-stats, replay-idle, trace-workload, record, validate, calibrate, features, sysctl, workloads, params, machines, governors, help)" frobnicate
usage_error "unknown experiment 'repro foi'; did you mean 'repro fio'?" repro foi
usage_error "unknown experiment 'repro nosuch' (experiments: fio, sleepers, fork, bfs)" repro nosuch
usage_error "run: unknown option '--duraton'; did you mean '--duration'?" run --duraton 1s
usage_error "sweep-report: unknown option '--metirc'; did you mean '--metric'?" sweep-report --metirc x f.csv
usage_error "trace-stats: unknown option '--jsn'; did you mean '--json'?" trace-stats --jsn
# an option of another command: said so, not "unknown"
usage_error "trace-stats: --kernel does not apply to this command" trace-stats --kernel 6.18 x
usage_error "unknown command 'rnu'; did you mean 'run'?" help rnu
# an option is no command name (it said "unknown command 'run --json'")
usage_error "help: unexpected '--json' (schedlab help COMMAND [EXPERIMENT]: the help is text only)" \
	help run --json
usage_error "help: unexpected '--json'" help --json
usage_error "did you mean 'NO_NEW_FAIR_SLEEPERS'?" run --workload hog --sched-features NO_NEW_FAIR_SLEEPER
usage_error "unknown sysctl 'sched_latency_ns'; did you mean 'kernel.sched_latency_ns'?" run --workload hog \
	--sysctl sched_latency_ns=10000000
usage_error "unknown workload 'hgo'; did you mean 'hog'?" run --workload hgo
usage_error "unknown key 'taks'; did you mean 'tasks'?" run --workload hog:taks=2
usage_error "unknown --param 'ctx_swtich'; did you mean 'ctx_switch'?" run --workload hog --param ctx_swtich=1
usage_error "--cpuidle-governor 'mneu': unknown; did you mean 'menu'? (valid:" run --workload hog \
	--machine nehalem --cpuidle-governor mneu
usage_error "--cpuidle-governor 'mneu': unknown; did you mean 'menu'? (see schedlab governors)" \
	replay-idle "$TR" --cpuidle-governor mneu
usage_error "--governors: unknown governor 'mneu'; did you mean 'menu'?" repro fio --governors mneu
usage_error "--machine nehalm: unknown idle profile 'nehalm'; did you mean 'nehalem'? (known:" \
	run --workload hog --machine nehalm
usage_error "sweep: --features: NEW_FAIR_SLEEPRS is not a flag of 2.6.31; did you mean 'NEW_FAIR_SLEEPERS'? (its flags:" \
	sweep --workload hog --features NEW_FAIR_SLEEPRS --out "$T/f.csv"
# (record --events' suggestion needs root and tracefs: tests/record.sh)
# the option given is checked before the missing workload is asked for
usage_error "--kernel '2.6.33': unknown release" run --kernel 2.6.33
usage_error "--machine nehalm: unknown idle profile" run --machine nehalm
# one sentence per suggestion: no "?;" nor "?:"
usage_error "unknown sysctl 'sched_latency_ns'; did you mean 'kernel.sched_latency_ns'? (valid: " run \
	--workload hog --sysctl sched_latency_ns=1
usage_error "unknown --param 'ctx_swtich'; did you mean 'ctx_switch'? (valid: " run --workload hog \
	--param ctx_swtich=1
# nothing near: no suggestion, the list
usage_error "unknown workload 'zzzzzz' (valid:" run --workload zzzzzz
usage_error "unknown sysctl 'kernel.x' (valid: " sysctl --sysctl kernel.x=1

# --- what cannot take effect is refused ---
# an --at change at or after the end of the run (3 s here) would never be made
usage_error "--at 5s:sched-features=NO_NEW_FAIR_SLEEPERS: not before the run's end (3s)" run --workload hog \
	--duration 3s --at 5s:sched-features=NO_NEW_FAIR_SLEEPERS
usage_error "--at 3s:sched-features=NO_NEW_FAIR_SLEEPERS: not before the run's end (3s)" run --workload hog \
	--duration 3s --at 3s:sched-features=NO_NEW_FAIR_SLEEPERS
# no --duration: the run ends when hog:work=10ms is done (10 ms of CPU, plus the start-up)
usage_error "not before the end of the run (its workloads finished)" run --workload hog:work=10ms \
	--at 1s:sched-features=NO_NEW_FAIR_SLEEPERS
# so is a group whose start= is at or after the end: its row would be empty
usage_error "workload hog:start=5s: start=5s is not before the run's end (3s)" run \
	--workload hog --workload hog:start=5s --duration 3s
# an experiment's own workload too (its client starts at 1 s), its runs freed (the leak check)
usage_error "workload xclient:start=1s,rounds=9: start=1s is not before the run's end (0.02s)" \
	repro sleepers --duration 20ms
usage_error "start=3s is not before the run's end (3s)" run --workload hog:start=3s --duration 3s
# an invalid value overridden by a later valid one is refused all the same
usage_error "'1e30s' is not a duration" run --workload hog --duration 1e30s --duration 10ms
usage_error "given before a later --duration" run --workload hog --duration 1e30s --duration 10ms
usage_error "--kernel '2.6.99': unknown release" features --kernel 2.6.99 --kernel 2.6.32
usage_error "--cpus '0'" sweep --cpus 0 --cpus 2 --features LAST_BUDDY --out "$T/s.csv"
usage_error "--cpuidle-disable state9: machine core2 has no such state (state0..state3, 0..3 or a name: POLL, C1, C2, C3)" \
	run --machine core2 --cpuidle-disable state9 --workload hog
usage_error "--cpuidle-disable 4: machine core2 has no such state" run --machine core2 --cpuidle-disable 4 \
	--workload hog
usage_error "repro fio: unexpected argument 'x'" repro fio x
usage_error "--json takes no value" repro fio --json=1

# replay-idle reads as strictly as trace-stats: a malformed line is an error unless --lenient
printf '# tracer: nop\nidlestat version = 0.8\n%s\n%s\n' \
	'          <idle>-0     [000]     0.000100000: cpu_idle: state=1 cpu_id=0' \
	'          <idle>-0     [000]     0.000200000: cpu_idle: state=4294967295 cpu_id=0' \
	>"$T/bad-replay.trace"
usage_error "bad-replay.trace:2: malformed line" replay-idle "$T/bad-replay.trace"
"$SL" replay-idle "$T/bad-replay.trace" --lenient >"$T/out" 2>"$T/err" ||
	fail "replay-idle --lenient: $(cat "$T/err")"
grep -F "malformed lines skipped: 1" "$T/out" >/dev/null || fail "replay-idle --lenient: $(cat "$T/out")"
grep -F "warning: the trace has no hrtimer events" "$T/out" >/dev/null ||
	fail "replay-idle: no warning for a trace without timer events"
# a trace without idle periods: nothing to replay, said, rather than a table of zeros
printf '# tracer: nop\n%s\n' \
	'           hog-1     [000]     0.000100000: sched_switch: task hog:1 [120] (R) ==> swapper:0 [120]' \
	>"$T/no-idle.trace"
usage_error "no-idle.trace: no idle period in its 2 lines (a cpu_idle entry, then its exit): nothing to replay" \
	replay-idle "$T/no-idle.trace"

echo "cli_errors.sh: all checks passed"
