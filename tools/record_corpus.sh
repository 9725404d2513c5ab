#!/bin/sh
# Record the corpus of real workloads of issue 27 (docs/workloads.md, "The corpus"): each
# workload traced by `schedlab record` (the whole machine, the scheduler's, cpuidle's and the
# block layer's events) while it runs, twice: "low", alone on a quiet machine (a run starts only
# once the 1-minute load average is under 1; it waits up to WAIT seconds, 300 by default), and
# "high", beside a background CPU load of its own (stress-ng, two workers at 60%), which is in the
# trace too. Each recording is OUTDIR/NAME-low.trace.xz and OUTDIR/NAME-high.trace.xz, with the
# command and the load averages before and after in OUTDIR/COMMANDS. Root, tracefs; the
# workloads need perf, rt-tests (hackbench), stress-ng, sysbench, fio, gcc and make.
# Usage: sh tools/record_corpus.sh [OUTDIR] [path/to/schedlab] [NAME...]
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-corpus}
SL=$(realpath "${2:-build/schedlab}")
[ $# -gt 2 ] && shift 2 || set --
WAIT=${WAIT:-300}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# a small C project for make: 12 files of some arithmetic each
mkdir -p "$W/proj"
for i in $(seq 1 12); do
	{
		echo "#include <stdio.h>"
		for j in $(seq 1 40); do
			echo "static int f${j}(int x) { int s = 0; for (int k = 0; k < x; k++) s += k * $j ^ (s >> 3); return s; }"
		done
		echo "int u$i(void) { return 0"
		for j in $(seq 1 40); do echo " + f$j($j)"; done
		echo "; }"
	} >"$W/proj/u$i.c"
done
printf 'OBJS=%s\nall: $(OBJS)\n%%.o: %%.c\n\tgcc -O2 -c $< -o $@\nclean:\n\trm -f *.o\n' \
	"$(for i in $(seq 1 12); do printf 'u%s.o ' "$i"; done)" >"$W/proj/Makefile"
cat >"$W/prog.py" <<'PY'
import threading, time, hashlib
def worker(n):
    for i in range(40):
        h = hashlib.sha256()
        for _ in range(2000):
            h.update(b"x" * 64)
        time.sleep(0.005)
ts = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
for t in ts: t.start()
for t in ts: t.join()
PY
dd if=/dev/urandom of="$W/data" bs=1M count=32 status=none
# the workloads: NAME|command (run with sh -c in $W)
cat >"$W/list" <<'L'
pipe|perf bench sched pipe -l 20000
messaging|perf bench sched messaging -g 2 -l 40
hackbench|hackbench -g 2 -l 200
stress-cpu|stress-ng --cpu 2 --timeout 2s --quiet
stress-switch|stress-ng --switch 1 --timeout 1s --quiet
stress-io|stress-ng --hdd 1 --hdd-bytes 8M --timeout 2s --quiet
sysbench-threads|sysbench threads --threads=4 --time=2 run
make-j2|make -s -C proj clean && make -s -C proj -j2
make-j8|make -s -C proj clean && make -s -C proj -j8
fio-randread|fio --name=rr --filename=data --rw=randread --direct=1 --bs=4k --size=32M --runtime=2 --time_based --output=/dev/null
dd-direct|dd if=data of=out bs=16k count=1024 iflag=direct oflag=direct status=none
dd-buffered|sync && echo 3 >/proc/sys/vm/drop_caches && dd if=data of=/dev/null bs=64k status=none
python|python3 prog.py
L
quiet() {
	waited=0
	while :; do
		l=$(cut -d' ' -f1 /proc/loadavg)
		awk -v l="$l" 'BEGIN { exit !(l < 1) }' && return 0
		[ "$waited" -ge "$WAIT" ] && return 1
		sleep 5
		waited=$((waited + 5))
	done
}
# every workload alone first, then every one under load (the background load would otherwise
# hold the load average over 1 for the next quiet recording)
for level in low high; do
	while IFS='|' read -r name cmd; do
		if [ $# -gt 0 ]; then
			case " $* " in *" $name "*) ;; *) continue ;; esac
		fi
		if [ "$level" = low ] && ! quiet; then
			echo "$name-low: skipped, load $(cut -d' ' -f1-3 /proc/loadavg) for ${WAIT}s" >&2
			continue
		fi
		bg=
		if [ "$level" = high ]; then
			stress-ng --cpu 2 --cpu-load 60 --timeout 60s --quiet </dev/null &
			bg=$!
			sleep 1
		fi
		before=$(cut -d' ' -f1-3 /proc/loadavg)
		(cd "$W" && "$SL" record -o "$OUT/$name-$level.trace" -- sh -c "$cmd" </dev/null >/dev/null 2>"$W/err") ||
			{ echo "$name-$level: record failed:" >&2; cat "$W/err" >&2; }
		after=$(cut -d' ' -f1-3 /proc/loadavg)
		[ -n "$bg" ] && { kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null || true; }
		if [ -s "$OUT/$name-$level.trace" ]; then
			xz -9 -f "$OUT/$name-$level.trace"
			printf '%s-%s|%s|%s|load before %s, after %s\n' "$name" "$level" "$cmd" \
				"$([ "$level" = high ] && echo 'beside stress-ng --cpu 2 --cpu-load 60' || echo alone)" \
				"$before" "$after" >>"$OUT/COMMANDS"
			echo "$name-$level: $(du -h "$OUT/$name-$level.trace.xz" | cut -f1) (load $before -> $after)"
		fi
	done <"$W/list"
done
