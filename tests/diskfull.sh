#!/bin/sh
# A full disk: every output (run -o, --trace-out, trace-stats -o, repro -o, a listing's -o,
# sweep --out, sweep-merge --out, sweep-report --plot, also when gnuplot itself says nothing) that
# does not fit
# fails with exit status 1 and a message naming the file, leaves no partial file (and the
# previous file intact). Standard output to /dev/full is checked the same way. The disk is a
# 64 KiB tmpfs mounted in a private mount namespace (unshare -m), so nothing outside the test
# sees it; skipped, with a message, when not root or when the mount is refused (a container
# without CAP_SYS_ADMIN).
# Usage: sh tests/diskfull.sh path/to/schedlab
set -eu

# As root, re-run inside a private mount namespace so that the tmpfs disappears with the test
# whatever happens; the marker stops the recursion.
if [ "$(id -u)" -eq 0 ] && [ -z "${SL_DISKFULL_NS:-}" ] &&
	unshare -m --propagation private true 2>/dev/null; then
	SL_DISKFULL_NS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"

# --- standard output: needs no mount ---
for cmd in "run --cpus 1 --workload hog --duration 10ms" "run --cpus 1 --workload hog --duration 10ms --json" \
	"workloads" "features" "workloads --json" "sysctl --json"; do
	rc=0
	# shellcheck disable=SC2086
	"$SL" $cmd >/dev/full 2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] && grep -q "standard output: No space left on device" "$T/err" ||
		fail "$cmd >/dev/full: exit $rc, expected 1 and the reason: $(cat "$T/err")"
done

if [ "$(id -u)" -ne 0 ]; then
	echo "diskfull.sh: SKIPPED the full-disk part: needs root to mount a tmpfs" >&2
	echo "diskfull.sh: standard output part passed"
	exit 0
fi
if [ -z "${SL_DISKFULL_NS:-}" ]; then
	echo "diskfull.sh: SKIPPED the full-disk part: unshare -m is refused here" >&2
	echo "diskfull.sh: standard output part passed"
	exit 0
fi
D=$T/full
mkdir "$D"
if ! mount -t tmpfs -o size=64k tmpfs "$D" 2>"$T/err"; then
	echo "diskfull.sh: SKIPPED the full-disk part: mount -t tmpfs refused: $(cat "$T/err")" >&2
	exit 0
fi
trap 'umount "$D" 2>/dev/null; rm -rf "$T"' EXIT

# nothing but FILES (and no temporary) in the tmpfs
only() {
	got=$(ls -A "$D" | tr '\n' ' ')
	[ "$got" = "$*" ] || fail "$what: the disk holds '$got', expected '$*'"
}

# expect_full WHAT FILE CMD...: exit 1, FILE named with the reason, nothing left behind
expect_full() {
	what=$1 file=$2
	shift 2
	rc=0
	"$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] || fail "$what: exit $rc, expected 1: $(cat "$T/err")"
	grep -F "$file" "$T/err" | grep -q "No space left on device" ||
		fail "$what: the message does not name $file and the reason: $(cat "$T/err")"
}

# 1. --trace-out of a busy run (megabytes) into 64 KiB: no file at all.
expect_full "--trace-out" "$D/t.txt" "$SL" run --cpus 2 --workload pingpong:count=20000 \
	--trace-out "$D/t.txt"
only ""
expect_full "--trace-out json" "$D/t.json" "$SL" run --cpus 2 --workload pingpong:count=20000 \
	--trace-out "$D/t.json"
only ""

# An hour-long run stops at the first failed write instead of simulating on for nothing.
expect_full "--trace-out of a long run" "$D/t.txt" timeout 60 "$SL" run --cpus 2 \
	--workload pingpong:count=1000000000 --duration 3600s --trace-out "$D/t.txt"
only ""

# 2. The previous file survives a failed rewrite: a small trace, then a big one onto its name.
"$SL" run --cpus 1 --workload hog --duration 20ms --trace-out "$D/t.txt" >/dev/null 2>"$T/err" ||
	fail "a small --trace-out on the tmpfs: $(cat "$T/err")"
cp "$D/t.txt" "$T/t.before"
expect_full "--trace-out over an old file" "$D/t.txt" "$SL" run --cpus 2 \
	--workload pingpong:count=20000 --trace-out "$D/t.txt"
cmp -s "$D/t.txt" "$T/t.before" || fail "the old --trace-out file was changed"
only "t.txt "
rm -f "$D/t.txt"

# 3. run -o with the report, when a filler leaves no room: nothing written.
head -c 65536 /dev/zero >"$D/filler" 2>/dev/null || true
expect_full "run -o" "$D/r.txt" "$SL" run --cpus 1 --workload hog --duration 10ms -o "$D/r.txt"
only "filler "
"$SL" run --cpus 2 --workload pingpong:count=20000 --trace-out "$T/ping.txt" >/dev/null 2>&1 ||
	fail "a trace to read"
expect_full "trace-stats -o" "$D/ts.json" "$SL" trace-stats "$T/ping.txt" --json -o "$D/ts.json"
only "filler "
expect_full "replay-idle -o" "$D/ri.txt" "$SL" replay-idle \
	"$(dirname "$0")/data/idle-sleep-loop.trace.xz" -o "$D/ri.txt"
only "filler "
expect_full "workloads --json -o" "$D/w.json" "$SL" workloads --json -o "$D/w.json"
only "filler "
expect_full "params -o" "$D/p.txt" "$SL" params -o "$D/p.txt"
only "filler "
expect_full "repro -o" "$D/fio.txt" "$SL" repro fio --disks 1 --governors poll \
	--duration 20ms -o "$D/fio.txt"
only "filler "
rm -f "$D/filler"

# 3b. rt-app logs (--rtapp-logdir): thread a's log (10 rows) fits, thread b's (10000 rows,
# about 1.5 MB) does not: exit 1 naming b's log (it was exit 2, as for bad input), and none of the
# run's logs left (a's was kept alone)
cat >"$T/two.json" <<EOJ
{ "global": { "duration": 10 },
  "tasks": { "a": { "run": 100, "timer": { "ref": "ta", "period": 1000000 } },
             "b": { "run": 100, "timer": { "ref": "tb", "period": 1000 } } } }
EOJ
expect_full "--rtapp-logdir" "$D/rt-app-b-1.log" "$SL" run "$T/two.json" --cpus 2 --no-progress \
	--rtapp-logdir "$D"
only ""

# 3c. validate --sim-out on the full disk: the simulated side's trace not written is exit 1 (it
# was 2). The "real" run is a simulation (as tests/validate.sh makes one).
R=$T/real
mkdir "$R"
cp "$(dirname "$0")/data/rtapp/timer.json" "$R/"
printf 'cpus 1\nkernel_release 6.18.44-test\ncpuidle_driver none\n' >"$R/machine.conf"
"$SL" run "$R/timer.json" --kernel 6.18 --cpus 1 --machine vm-hlt --cpuidle-disable POLL \
	--rtapp-logdir "$R" --trace-out "$R/real.trace" --no-progress >/dev/null ||
	fail "the reference run for validate"
expect_full "validate --sim-out" "$D/sim.trace" "$SL" validate "$R/timer.json" --real "$R" \
	--sim-out "$D"
rm -f "$D/timer.json"
only ""

# 4. A sweep whose rows (1024 runs, about 90 KiB) outgrow the disk: exit 1 naming the file, only
# whole rows on disk; with room again, the same command resumes to exactly the rows of an
# uninterrupted sweep.
set -- --features NEW_FAIR_SLEEPERS,START_DEBIT,WAKEUP_PREEMPT,LAST_BUDDY,SYNC_WAKEUPS,HRTICK \
	--seeds 16 --workload hog:tasks=2 --duration 10ms --no-progress -j 2
"$SL" sweep "$@" --out "$T/ref.csv" 2>"$T/err" || fail "the reference sweep: $(cat "$T/err")"
expect_full "sweep --out" "$D/s.csv" "$SL" sweep "$@" --out "$D/s.csv"
[ -s "$D/s.csv" ] || fail "sweep --out: no rows kept"
[ "$(tail -c 1 "$D/s.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
	fail "sweep --out: a torn last row after the full disk"
kept=$(($(wc -l <"$D/s.csv") - 1))
grep -q "$kept finished runs are in $D/s.csv" "$T/err" ||
	fail "sweep --out: the message does not say the $kept rows kept: $(cat "$T/err")"
head -n "$((kept + 1))" "$T/ref.csv" | cmp -s - "$D/s.csv" ||
	fail "sweep --out: the rows kept are not the first rows of the sweep"
mv "$D/s.csv" "$T/s.csv"
"$SL" sweep "$@" --out "$T/s.csv" 2>"$T/err" || fail "sweep resume after a full disk: $(cat "$T/err")"
cmp -s "$T/ref.csv" "$T/s.csv" || fail "sweep resumed after a full disk differs from the reference"

# 5. sweep-merge --out of those 90 KiB: no file; the --plot staging directory removed.
expect_full "sweep-merge" "$D/m.csv" "$SL" sweep-merge --out "$D/m.csv" "$T/ref.csv"
only ""
head -c 65536 /dev/zero >"$D/filler" 2>/dev/null || true
expect_full "sweep-report -o" "$D/rep.txt" "$SL" sweep-report "$T/ref.csv" -o "$D/rep.txt"
only "filler "
rm -f "$D/filler"
if command -v gnuplot >/dev/null 2>&1; then
	head -c 61440 /dev/zero >"$D/filler"
	rc=0
	"$SL" sweep-report "$T/ref.csv" --metric hog.cpu_share --plot "$D/plots" >/dev/null \
		2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] && grep -q "$D/plots" "$T/err" ||
		fail "--plot on a full disk: exit $rc: $(cat "$T/err")"
	[ -z "$(ls -A "$D/plots")" ] || fail "--plot on a full disk left $(ls -A "$D/plots")"
	# room for the data and the scripts but not the images: gnuplot exits 0 leaving empty PNGs
	# and a cut SVG, which were renamed into place with exit 0 (issue 30); now every image is
	# checked whole before any is kept
	rm -rf "$D/plots" "$D/filler"
	head -c 36864 /dev/zero >"$D/filler"
	rc=0
	"$SL" sweep-report "$T/ref.csv" --metric hog.cpu_share --plot "$D/plots" >/dev/null \
		2>"$T/err" || rc=$?
	[ "$rc" -eq 1 ] && grep -q "gnuplot wrote it incomplete" "$T/err" ||
		fail "--plot, images on a full disk: exit $rc: $(cat "$T/err")"
	[ -z "$(ls -A "$D/plots")" ] || fail "--plot, images on a full disk: left $(ls -A "$D/plots")"
else
	echo "diskfull.sh: gnuplot not installed: --plot not tested" >&2
fi
# 6. The tmpfs read-only: an output directory that exists but takes no file is refused before
# any work, exit 1 (validate --sim-out gave exit 2 after the simulation started; calibrate -o
# measured for 30 s first; record ran its command first)
rm -rf "$D"/*
mkdir "$D/sim" "$D/cal"
if mount -o remount,ro "$D" 2>"$T/err"; then
	# ro_refused WHAT CMD...: exit 1 and the reason, within 10 s
	ro_refused() {
		what=$1
		shift
		rc=0
		timeout 10 "$@" >"$T/out" 2>"$T/err" || rc=$?
		[ "$rc" -eq 1 ] && grep -q "Read-only file system" "$T/err" ||
			fail "$what on a read-only file system: exit $rc: $(cat "$T/err")"
		! grep -q "for real\|measuring\|RAN" "$T/out" "$T/err" ||
			fail "$what on a read-only file system: the work began: $(cat "$T/out" "$T/err")"
	}
	ro_refused "validate --sim-out" "$SL" validate "$R/timer.json" --real "$R" --sim-out "$D/sim"
	ro_refused "calibrate -o" "$SL" calibrate -o "$D/cal"
	ro_refused "record -o" "$SL" record -o "$D/r.trace" --calibration none -- echo RAN
else
	echo "diskfull.sh: remount read-only refused: $(cat "$T/err"): not tested" >&2
fi
echo "diskfull.sh: all passed"
