#!/bin/sh
# The sweep end to end: -j 1, -j 2, a resumed run, runs killed with SIGKILL at several moments and
# resumed, SIGINT, shards merged, JSON Lines: every way of producing the rows must give the same
# bytes. Then sweep-report's table, errors and plots.
# Usage: sh tests/sweep.sh path/to/schedlab [path/to/mpi/schedlab]
set -eu

MAXARGS=2
. "$(dirname "$0")/lib.sh"
MPI_SL=${2:-}

# 64 schedulers x 2 seeds of a small desktop: 128 runs.
set -- --features NEW_FAIR_SLEEPERS,START_DEBIT,WAKEUP_PREEMPT,LAST_BUDDY,SYNC_WAKEUPS,HRTICK \
	--seeds 2 --workload make:jobs=8,nice=19,count=60 --workload xclient:start=50ms \
	--workload pingpong:count=500 --duration 300ms --no-progress

"$SL" sweep "$@" -j 1 --out "$T/j1.csv" 2>"$T/err" || fail "-j 1: $(cat "$T/err")"
[ "$(wc -l <"$T/j1.csv")" -eq 129 ] || fail "-j 1 wrote $(wc -l <"$T/j1.csv") lines, expected 129"
"$SL" sweep "$@" -j 2 --out "$T/j2.csv" 2>"$T/err" || fail "-j 2: $(cat "$T/err")"
cmp -s "$T/j1.csv" "$T/j2.csv" || fail "-j 2 rows differ from -j 1 rows"

# A finished sweep rerun does nothing and changes nothing.
"$SL" sweep "$@" -j 2 --out "$T/j2.csv" 2>"$T/err" || fail "rerun: $(cat "$T/err")"
grep -q "128 runs already in" "$T/err" || fail "rerun did not say the runs were there"
cmp -s "$T/j1.csv" "$T/j2.csv" || fail "rerun changed the file"

# Resume from a prefix, and from a torn last line.
head -n 40 "$T/j1.csv" >"$T/r.csv"
head -c 300 "$T/j1.csv" | tail -n 1 | head -c 50 >>"$T/r.csv"
"$SL" sweep "$@" -j 2 --out "$T/r.csv" 2>"$T/err" || fail "resume: $(cat "$T/err")"
grep -q "torn last line" "$T/err" || fail "resume did not report the torn line"
cmp -s "$T/j1.csv" "$T/r.csv" || fail "resumed rows differ"

# SIGKILL at several moments, then resume: exactly the rows of the uninterrupted run. A longer
# sweep (128 runs of about 40 ms) so that the kills land while workers are busy.
LONG="--features NEW_FAIR_SLEEPERS,START_DEBIT,WAKEUP_PREEMPT,LAST_BUDDY,SYNC_WAKEUPS,HRTICK
	--seeds 2 --cpus 4 --workload pingpong:pairs=2,count=1000000 --workload hog:tasks=4
	--duration 4s --no-progress"
# shellcheck disable=SC2086
"$SL" sweep $LONG -j 2 --out "$T/long.csv" 2>/dev/null || fail "the long sweep"
for delay in 0.1 0.4 0.9 1.6; do
	rm -f "$T/k.csv"
	# shellcheck disable=SC2086
	"$SL" sweep $LONG -j 2 --out "$T/k.csv" 2>/dev/null &
	pid=$!
	sleep "$delay"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# shellcheck disable=SC2086
	"$SL" sweep $LONG -j 2 --out "$T/k.csv" 2>"$T/err" ||
		fail "resume after kill: $(cat "$T/err")"
	cmp -s "$T/long.csv" "$T/k.csv" || fail "rows after SIGKILL at ${delay}s and resume differ"
done

# SIGKILL at random moments, seeded and printed so that a failure can be replayed with
# SL_KILL_SEED=N: each kill lands anywhere in the sweep (0 to 4.5 s; the whole sweep takes about
# 4 s on 2 workers), then the same command resumes; a file may be killed and resumed several
# times. At the end: exactly the rows of the uninterrupted run, none lost, none twice, no torn line.
seed=${SL_KILL_SEED:-$(($(date +%s) % 100000))}
echo "sweep.sh: random SIGKILL moments from seed $seed (replay: SL_KILL_SEED=$seed)" >&2
delays=$(awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 6; i++) printf "%.3f ", rand() * 4.5 }')
rm -f "$T/rk.csv"
for delay in $delays; do
	# shellcheck disable=SC2086
	"$SL" sweep $LONG -j 2 --out "$T/rk.csv" 2>/dev/null &
	pid=$!
	sleep "$delay"
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# between kills every line but a torn last one is a whole row of the reference run
	if [ -s "$T/rk.csv" ] && head -n -1 "$T/rk.csv" | grep -vxF -f "$T/long.csv" >"$T/odd"; then
		fail "seed $seed: after SIGKILL at ${delay}s, a line that is no row: $(head -c 200 "$T/odd")"
	fi
done
# shellcheck disable=SC2086
"$SL" sweep $LONG -j 2 --out "$T/rk.csv" 2>"$T/err" ||
	fail "seed $seed: resume after random kills: $(cat "$T/err")"
cmp -s "$T/long.csv" "$T/rk.csv" ||
	fail "seed $seed: rows after SIGKILLs at $delays and resume differ (SL_KILL_SEED=$seed)"
[ "$(cut -d, -f1 "$T/rk.csv" | sort | uniq -d | wc -l)" -eq 0 ] || fail "seed $seed: a run twice"

# SIGINT: the runs in flight finish, it says what it kept, exits 130; the rest resumes.
rm -f "$T/i.csv"
# shellcheck disable=SC2086
"$SL" sweep $LONG -j 2 --out "$T/i.csv" 2>"$T/ierr" &
pid=$!
sleep 0.5
kill -INT "$pid" 2>/dev/null || true
rc=0
wait "$pid" || rc=$?
if [ "$rc" -eq 130 ]; then
	lines=$(wc -l <"$T/i.csv")
	grep -q "interrupted; $((lines - 1)) of 128 runs are in" "$T/ierr" ||
		fail "SIGINT: the message does not match the $((lines - 1)) rows kept: $(cat "$T/ierr")"
elif [ "$rc" -ne 0 ]; then
	fail "SIGINT: exit $rc, expected 130 (or 0 if it had finished)"
fi
# shellcheck disable=SC2086
"$SL" sweep $LONG -j 2 --out "$T/i.csv" 2>"$T/err" || fail "resume after SIGINT: $(cat "$T/err")"
cmp -s "$T/long.csv" "$T/i.csv" || fail "rows after SIGINT and resume differ"

# Shards, as a job array would run them, merged: the same file.
"$SL" sweep "$@" --shard 1/3 --out "$T/s1.csv" 2>/dev/null || fail "shard 1/3"
"$SL" sweep "$@" --shard 2/3 --out "$T/s2.csv" 2>/dev/null || fail "shard 2/3"
"$SL" sweep "$@" --shard 3/3 --out "$T/s3.csv" 2>/dev/null || fail "shard 3/3"
[ "$(wc -l <"$T/s1.csv")" -eq 44 ] || fail "shard 1/3 should hold runs 0,3,...,126: 43 rows"
"$SL" sweep-merge --out "$T/m.csv" "$T/s3.csv" "$T/s1.csv" "$T/s2.csv" 2>/dev/null ||
	fail "sweep-merge"
cmp -s "$T/j1.csv" "$T/m.csv" || fail "merged shards differ from -j 1"
rc=0
"$SL" sweep-merge --out "$T/m2.csv" "$T/s1.csv" "$T/s1.csv" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "is in more than one file" "$T/err" || fail "a run twice in a merge"
[ ! -e "$T/m2.csv" ] || fail "a failed merge left a file"
# A shard past the last run (2 runs: LAST_BUDDY off and on; shards 3/3 and 3/5 get none) is
# refused before any work, naming the shard and the count, and writes no file; 2/2 holds run 1.
"$SL" sweep --workload hog --duration 1ms --features LAST_BUDDY --shard 2/2 --out "$T/e2.csv" \
	2>/dev/null || fail "shard 2/2 of 2 runs"
[ "$(wc -l <"$T/e2.csv")" -eq 2 ] && grep -q '^1,' "$T/e2.csv" || fail "shard 2/2: $(cat "$T/e2.csv")"
usage_error "sweep: --shard 3/3 gets no runs: the sweep has 2 runs (shard K gets runs i with i mod N = K-1; give N at most 2)" \
	sweep --workload hog --duration 1ms --features LAST_BUDDY --shard 3/3 --out "$T/e3.csv"
usage_error "sweep: --shard 3/5 gets no runs: the sweep has 2 runs" \
	sweep --workload hog --duration 1ms --features LAST_BUDDY --shard 3/5 --out "$T/e3.csv"
[ ! -e "$T/e3.csv" ] || fail "a shard of no runs created its --out file"
# A recording of a 6.18 machine replays as 6.18: --features names 6.18's flags (they were
# checked against the default 2.6.31: PLACE_LAG was refused, LAST_BUDDY failed in the run)
cp "$(dirname "$0")/data/trace-workload/idle-wake.trace" "$T/r618.trace"
printf 'cpus 2\nkernel_release 6.18.1\ncpuidle_driver none\nparam ctx_switch=1us\n' \
	>"$T/r618.trace.machine.conf"
"$SL" sweep --workload "trace:file=$T/r618.trace" --duration 10ms --features PLACE_LAG \
	--out "$T/r618.csv" 2>"$T/err" || fail "sweep of a 6.18 recording: $(cat "$T/err")"
[ "$(wc -l <"$T/r618.csv")" -eq 3 ] && head -1 "$T/r618.csv" | grep -q ',PLACE_LAG,' ||
	fail "sweep of a 6.18 recording: $(cat "$T/r618.csv")"
usage_error "LAST_BUDDY is not a flag of 6.18, the release the recording replays as (--kernel chooses)" \
	sweep --workload "trace:file=$T/r618.trace" --duration 10ms --features LAST_BUDDY \
	--out "$T/r618b.csv"

# JSON Lines: one object per line, the same rows.
"$SL" sweep "$@" -j 2 --out "$T/j.jsonl" 2>/dev/null || fail "jsonl"
[ "$(wc -l <"$T/j.jsonl")" -eq 128 ] || fail "jsonl rows"
head -n 1 "$T/j.jsonl" | grep -q '^{"run":0,"config":"' || fail "jsonl row shape"

# A file of another sweep is refused (exit 2), not appended to.
cp "$T/j1.csv" "$T/other.csv"
rc=0
"$SL" sweep "$@" --duration 200ms -j 2 --out "$T/other.csv" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "written by another sweep" "$T/err" || fail "another sweep's file"
cmp -s "$T/j1.csv" "$T/other.csv" || fail "another sweep's file was changed"

# sweep-report: the table names the flags and the interactive figures.
"$SL" sweep-report "$T/j1.csv" --metric xclient.completion_ns --top 3 >"$T/rep" ||
	fail "sweep-report"
grep -q "^== xclient.completion_ns: 128 runs" "$T/rep" || fail "report header"
grep -q "NEW_FAIR_SLEEPERS" "$T/rep" || fail "report lacks NEW_FAIR_SLEEPERS"
grep -q "strongest two-flag interactions" "$T/rep" || fail "report lacks interactions"
"$SL" sweep-report "$T/j1.csv" --json >"$T/rep.json" || fail "sweep-report --json"
grep -q '"main_effects"' "$T/rep.json" || fail "report JSON"
rc=0
"$SL" sweep-report "$T/j1.csv" --metric nosuch >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "no metric 'nosuch'" "$T/err" || fail "unknown metric"
rc=0
"$SL" sweep-report "$T/j1.csv" --metric xclient.completion >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "did you mean 'xclient.completion_ns'? (the metrics: .*)$" "$T/err" ||
	fail "metric: no suggestion: $(cat "$T/err")"
printf 'run,config\n1,2,3\n' >"$T/bad.csv"
rc=0
"$SL" sweep-report "$T/bad.csv" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q "bad.csv: line 2: expected 2 comma-separated fields" "$T/err" ||
	fail "malformed report input: $(cat "$T/err")"
# a metric cell that is not a number was read as an empty one, and a run given twice (two shard
# files appended by hand) counted twice in the means: both refused with the line
{
	head -n 2 "$T/j1.csv"
	sed -n 3p "$T/j1.csv" | awk -F, -v OFS=, '{ $NF = "abc"; print }'
} >"$T/nan.csv"
usage_error "nan.csv: line 3: column events: 'abc' is not a number" sweep-report "$T/nan.csv"
{
	head -n 3 "$T/j1.csv"
	sed -n 2p "$T/j1.csv"
} >"$T/twice.csv"
usage_error "twice.csv: line 4: run 0 given twice (first on line 2)" sweep-report "$T/twice.csv"

# Human units: times in ms/us/s in the table (the CSV keeps ns). By hand: AA off = runs 0, 1
# (1 ms, 2 ms), on = runs 2, 3 (5 ms, 4 ms): means 1.5 ms and 4.5 ms, effect +3.000 ms.
{
	echo "run,config,mix,seed,AA,g.lat_p99_ns"
	echo "0,0123456789abcdef,hog,1,0,1000000"
	echo "1,0123456789abcdef,hog,2,0,2000000"
	echo "2,0123456789abcdef,hog,1,1,5000000"
	echo "3,0123456789abcdef,hog,2,1,4000000"
} >"$T/units.csv"
"$SL" sweep-report "$T/units.csv" >"$T/rep" || fail "sweep-report units.csv"
grep -q "^== g.lat_p99_ns: 4 runs, mean 3.000 ms, min 1.000 ms, max 5.000 ms" "$T/rep" ||
	fail "units: header: $(grep '^==' "$T/rep")"
grep -E -q "^  1 +AA +3.000 ms .* 4.500 ms +1.500 ms" "$T/rep" || fail "units: effect row"
grep -q "e+0" "$T/rep" && fail "units: a %g exponent in the table"
# Resolution: 2 configurations (AA off, on) of 2 seeds each, deterministic (ci 0): AA's effect
# of 10 ns on a mean of 1000005 ns is below 0.1% of the mean (1000.005 ns, 1.000 us) and is
# marked so, not ranked as an effect; the header counts runs and configurations apart.
{
	echo "run,config,mix,seed,AA,g.lat_p99_ns"
	echo "0,0123456789abcdef,hog,1,0,1000000"
	echo "1,0123456789abcdef,hog,2,0,1000000"
	echo "2,0123456789abcdef,hog,1,1,1000010"
	echo "3,0123456789abcdef,hog,2,1,1000010"
} >"$T/res.csv"
"$SL" sweep-report "$T/res.csv" >"$T/rep" || fail "sweep-report res.csv"
grep -q "^sweep: 4 runs of 2 configurations " "$T/rep" || fail "res: header: $(head -1 "$T/rep")"
grep -q "the resolution is 0.1% of the mean, 1.000 us" "$T/rep" || fail "res: no resolution stated"
grep -E -q "^  1 +AA +10 ns +0 ns .*\(below resolution\)$" "$T/rep" ||
	fail "res: AA not marked: $(cat "$T/rep")"
"$SL" sweep-report "$T/res.csv" --json >"$T/rep.json" || fail "sweep-report res.csv --json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); e = d["metrics"][0]["main_effects"][0]
assert d["configurations"] == 2 and e["significant"] and not e["above_resolution"], d' \
	"$T/rep.json" || fail "res: JSON: $(cat "$T/rep.json")"
# a sweep in which nothing measured varies says so and gives the one value of each metric
{
	echo "run,config,mix,seed,kernel.sched_latency_ns,g.lat_p99_ns"
	echo "0,0123456789abcdef,hog,1,10000000,250000"
	echo "1,0123456789abcdef,hog,1,20000000,250000"
} >"$T/const.csv"
"$SL" sweep-report "$T/const.csv" >"$T/rep" || fail "sweep-report const.csv"
grep -q "^no metric varies across the 2 runs" "$T/rep" || fail "constant: not said"
grep -E -q "^  g.lat_p99_ns +250.000 us$" "$T/rep" || fail "constant: the value"

# Plots, where gnuplot is installed.
if command -v gnuplot >/dev/null 2>&1; then
	"$SL" sweep-report "$T/j1.csv" --metric xclient.completion_ns --plot "$T/plots" \
		>/dev/null 2>"$T/err" || fail "--plot: $(cat "$T/err")"
	for f in xclient.completion_ns-distribution.png xclient.completion_ns-effects.png \
		xclient.completion_ns-distribution.svg xclient.completion_ns-effects.svg; do
		[ -s "$T/plots/$f" ] || fail "--plot did not write $f"
	done
	head -c 4 "$T/plots/xclient.completion_ns-effects.png" | grep -q PNG || fail "not a PNG"
	[ "$(ls -A "$T/plots" | grep -c '^\.')" -eq 0 ] || fail "--plot left temporary files"
	# the effects plot is not scaled to an effect below the resolution: res.csv's 10 ns on an
	# axis of at least 10 resolutions (10 us), labelled in us
	"$SL" sweep-report "$T/res.csv" --plot "$T/resplots" >/dev/null 2>"$T/err" ||
		fail "--plot res.csv: $(cat "$T/err")"
	grep -q "effect on g.lat_p99 (us)" "$T/resplots/g.lat_p99_ns-effects.svg" ||
		fail "--plot: the effects axis is scaled to an effect below the resolution"
	grep -q "g.lat_p99_ns: 4 runs of 2 configurations" "$T/resplots/g.lat_p99_ns-distribution.svg" ||
		fail "--plot: the distribution's title does not count runs and configurations"
	# the same report plotted again: the same files, byte for byte (the SVGs named the random
	# temporary directory); the private directory a killed --plot left there (its pid gone) is
	# removed
	dead=$(sh -c 'echo $$')
	mkdir -p "$T/plots2/.plot.$dead.AbCdEf"
	echo x >"$T/plots2/.plot.$dead.AbCdEf/.x.dat"
	"$SL" sweep-report "$T/j1.csv" --metric xclient.completion_ns --plot "$T/plots2" \
		>/dev/null 2>"$T/err" || fail "--plot again: $(cat "$T/err")"
	[ "$(ls -A "$T/plots2" | grep -c '^\.')" -eq 0 ] || fail "--plot left a killed run's directory"
	for f in "$T"/plots/*; do
		cmp -s "$f" "$T/plots2/$(basename "$f")" || fail "--plot twice: $(basename "$f") differs"
	done
else
	echo "sweep.sh: gnuplot not installed: --plot not tested" >&2
fi

# The MPI engine: 2 ranks give the -j 1 rows, fresh and resumed.
if [ -n "$MPI_SL" ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	mpirun -np 2 --oversubscribe "$MPI_SL" sweep "$@" --out "$T/mpi.csv" 2>"$T/err" ||
		fail "mpirun: $(cat "$T/err")"
	cmp -s "$T/j1.csv" "$T/mpi.csv" || fail "2-rank MPI rows differ from -j 1"
	head -n 50 "$T/j1.csv" >"$T/mpi2.csv"
	mpirun -np 2 --oversubscribe "$MPI_SL" sweep "$@" --out "$T/mpi2.csv" 2>"$T/err" ||
		fail "mpirun resume: $(cat "$T/err")"
	cmp -s "$T/j1.csv" "$T/mpi2.csv" || fail "resumed 2-rank MPI rows differ"
fi
echo "sweep.sh: all passed"
