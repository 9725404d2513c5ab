#!/bin/sh
# The policy plug-in API (include/schedlab/policy.h, docs/policy-api.md): the examples build with
# plain `cc -shared -fPIC -I include` from the source tree, and run; their shares are the ones
# their rules give, computed by hand below; a sweep over vtime's own features and sysctl gives
# rows; a bad plug-in (no file, not a shared object, no entry point, another ABI, a feature
# declared twice) is refused with exit status 2 and a message saying what was expected.
# With the bash completion (schedlab.bash) as a third argument, it completes the policy's own
# flags and sysctls, asked of the schedlab on the PATH.
# Usage: sh tests/policy.sh path/to/schedlab path/to/source [path/to/schedlab.bash]
set -eu
MAXARGS=3
. "$(dirname "$0")/lib.sh"
SRC=$2
BASHC=${3-}
CC=${CC:-cc}

# built exactly as docs/policy-api.md says, against include/ alone
(cd "$SRC" && $CC -shared -fPIC -I include -o "$T/vtime.so" examples/policy/vtime.c) ||
	fail "vtime.c does not build with cc -shared -fPIC -I include"
(cd "$SRC" && $CC -shared -fPIC -I include -o "$T/global.so" examples/policy/global.c) ||
	fail "global.c does not build with cc -shared -fPIC -I include"

# cpu_time_ns of each task, in pid order, from run --json
cpu_times() {
	"$SL" run "$@" --json --no-progress >"$T/run.json" || fail "schedlab run $*: exit $?"
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
ts = sorted((t["pid"], t["cpu_time_ns"]) for g in r["groups"] for t in g["per_task"])
print(" ".join(str(ns) for _, ns in ts))' "$T/run.json"
}

# within NS of WANT (all in ns)
near() {
	awk -v got="$1" -v want="$2" -v tol="$3" 'BEGIN { d = got - want; if (d < 0) d = -d;
		exit !(d <= tol) }'
}

# Two nice-0 hogs on one CPU for 10 s: 5 s each. vtime preempts at the first tick after the
# running task's lead passes the granularity (1 ms), so at any instant the two virtual times,
# here the two run times, differ by at most granularity + one tick (HZ=1000: 1 ms) = 2 ms, and
# each task's time is within 1 ms of 5 s.
# shellcheck disable=SC2046 # the words are the figures, split on purpose
set -- $(cpu_times --policy "$T/vtime.so" --cpus 1 --workload hog:tasks=2 --duration 10s)
[ $# -eq 2 ] || fail "two hogs: $# tasks in the report"
for ns in "$@"; do
	near "$ns" 5000000000 1000000 || fail "two nice-0 hogs under vtime: $ns ns, expected 5 s +- 1 ms"
done

# nice 0 against nice 5 (weights 1024 and 335, the kernel's table) on one CPU for 10 s: the
# virtual times t0 and t5 * 1024 / 335 stay within granularity + one tick of the nice-5 task's
# virtual time (1 ms + 1024/335 ms = 4.06 ms) of each other, and t0 + t5 = 10 s, so
# t0 = 10 s * 1024 / 1359 = 7.53495 s and t5 = 2.46505 s (75.35% / 24.65%), each within
# 4.06 ms / (1 + 1024/335) = 1.0 ms. The tolerance is 1.5 ms (0.015 points of share): the
# integer division of each charge (delta * 1024 / weight) loses under 1 ns of virtual time per
# charge, a few microseconds over the run.
# shellcheck disable=SC2046 # the words are the figures, split on purpose
set -- $(cpu_times --policy "$T/vtime.so" --cpus 1 --workload hog --workload hog:nice=5 \
	--duration 10s)
near "$1" 7534952170 1500000 || fail "nice 0 against nice 5: nice 0 ran $1 ns, expected 7.53495 s"
near "$2" 2465047830 1500000 || fail "nice 0 against nice 5: nice 5 ran $2 ns, expected 2.46505 s"
# the table's share column says it to two decimals
"$SL" run --policy "$T/vtime.so" --cpus 1 --workload hog --workload hog:nice=5 --duration 10s \
	--no-progress >"$T/table"
grep -q '75\.35%' "$T/table" && grep -q '24\.65%' "$T/table" ||
	fail "nice 0 against nice 5: the table does not say 75.35% / 24.65%: $(cat "$T/table")"
grep -q '^schedlab run: kernel vtime,' "$T/table" || fail "the report does not name the policy"

# the same run twice: the same bytes
"$SL" run --policy "$T/vtime.so" --cpus 4 --workload make:jobs=8,nice=19,count=40 \
	--workload xclient --workload pingpong:count=300 --duration 300ms --json --no-progress \
	>"$T/a.json"
"$SL" run --policy "$T/vtime.so" --cpus 4 --workload make:jobs=8,nice=19,count=40 \
	--workload xclient --workload pingpong:count=300 --duration 300ms --json --no-progress \
	>"$T/b.json"
cmp -s "$T/a.json" "$T/b.json" || fail "two runs of vtime differ"

# a recorded trace replayed under the policy, as under a release
"$SL" run --policy "$T/vtime.so" --workload "trace:file=$SRC/tests/data/latency-under-nice-make.trace.xz" \
	--duration 100ms --no-progress >"$T/trace.out" 2>/dev/null || fail "a trace workload under vtime: exit $?"
grep -q '^schedlab run: kernel vtime,' "$T/trace.out" && grep -q '^trace ' "$T/trace.out" ||
	fail "a trace workload under vtime: $(cat "$T/trace.out")"

# validate: a real rt-app run beside the policy's simulation of it, the header naming the policy
V=$SRC/tests/data/validate-rep/r1/example1
"$SL" validate "$V/example1.json" --real "$V" --policy "$T/vtime.so" >"$T/val.out" 2>/dev/null ||
	fail "validate --policy: exit $?"
grep -q 'vs simulated (--kernel vtime)$' "$T/val.out" || fail "validate --policy: $(head -n 3 "$T/val.out")"

# global: three hogs on two CPUs share them round robin, 4 ms slices: 2/3 of 2 s each, within
# one slice and one tick (5 ms)
# shellcheck disable=SC2046 # the words are the figures, split on purpose
set -- $(cpu_times --policy "$T/global.so" --cpus 2 --workload hog:tasks=3 --duration 2s)
for ns in "$@"; do
	near "$ns" 1333333333 5000000 || fail "three hogs on two CPUs under global: $ns ns"
done

# the policy's own flags and tunables, where --kernel's are listed and written
[ "$("$SL" features --policy "$T/vtime.so")" = "WAKE_PLACE_MIN WAKEUP_PREEMPT " ] ||
	fail "features --policy vtime.so: $("$SL" features --policy "$T/vtime.so")"
"$SL" features --policy "$T/vtime.so" --sched-features NO_WAKE_PLACE_MIN | grep -q '^NO_WAKE_PLACE_MIN' ||
	fail "features --policy vtime.so --sched-features NO_WAKE_PLACE_MIN"
"$SL" sysctl --policy "$T/vtime.so" --sysctl vtime.granularity_ns=3000 |
	grep -q '^vtime.granularity_ns = 3000$' || fail "sysctl --policy vtime.so --sysctl"
usage_error "out of range [0, 1000000000]" run --policy "$T/vtime.so" --workload hog \
	--sysctl vtime.granularity_ns=-1
usage_error "valid for --kernel vtime: vtime.granularity_ns" run --policy "$T/vtime.so" \
	--workload hog --sysctl kernel.sched_latency_ns=10000000
usage_error "WAKE_PLACE_MIN WAKEUP_PREEMPT" run --policy "$T/vtime.so" --workload hog \
	--sched-features NO_NEW_FAIR_SLEEPERS

# a sweep over vtime's own features: four rows, and the flags change what runs (a hog and a
# waking pair share one CPU: the wakee's placement and preemption move the hog's share)
"$SL" sweep --policy "$T/vtime.so" --features WAKE_PLACE_MIN,WAKEUP_PREEMPT --cpus 1 \
	--workload hog --workload pingpong:count=300,think=2ms --duration 300ms -j 1 \
	--out "$T/s.csv" --no-progress 2>/dev/null || fail "sweep over vtime's features: exit $?"
[ "$(wc -l <"$T/s.csv")" -eq 5 ] || fail "sweep over vtime's features: $(wc -l <"$T/s.csv") lines"
head -1 "$T/s.csv" | grep -q ',WAKE_PLACE_MIN,WAKEUP_PREEMPT,' || fail "sweep: no flag columns"
python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
shares = {r["hog.cpu_share"] for r in rows}
sys.exit(len(shares) < 2)' "$T/s.csv" || fail "sweep over vtime's features: every row the same"
# and over its sysctl; and against an in-tree release, by name, in one sweep
"$SL" sweep --policy "$T/vtime.so" --vary vtime.granularity_ns=100000,4000000 --cpus 1 \
	--workload hog --workload pingpong:count=100 --duration 100ms -j 1 --out "$T/v.csv" \
	--no-progress 2>/dev/null || fail "sweep --vary vtime.granularity_ns: exit $?"
[ "$(wc -l <"$T/v.csv")" -eq 3 ] || fail "sweep --vary vtime.granularity_ns: $(wc -l <"$T/v.csv") lines"
"$SL" sweep --policy "$T/vtime.so" --vary kernel=vtime,2.6.31 --cpus 1 --workload hog:tasks=2 \
	--duration 100ms -j 1 --out "$T/k.csv" --no-progress 2>/dev/null ||
	fail "sweep --vary kernel=vtime,2.6.31: exit $?"
[ "$(wc -l <"$T/k.csv")" -eq 3 ] || fail "sweep --vary kernel=vtime,2.6.31: $(wc -l <"$T/k.csv") lines"

# the refusals: exit status 2, nothing on stdout, what was expected on stderr
usage_error "No such file or directory" run --policy "$T/none.so" --workload hog
echo "not an object" >"$T/text.so"
usage_error "cannot load it as a shared object" run --policy "$T/text.so" --workload hog
echo 'int not_a_policy;' >"$T/nosym.c"
$CC -shared -fPIC -o "$T/nosym.so" "$T/nosym.c"
usage_error "no symbol schedlab_policy_register" run --policy "$T/nosym.so" --workload hog
sed 's/\.abi = SCHEDLAB_POLICY_ABI,/.abi = SCHEDLAB_POLICY_ABI + 1,/' "$SRC/examples/policy/vtime.c" \
	>"$T/abi.c"
grep -q 'SCHEDLAB_POLICY_ABI + 1' "$T/abi.c" || fail "abi.c: the ABI line was not found"
$CC -shared -fPIC -I "$SRC/include" -o "$T/abi.so" "$T/abi.c"
abi=$(sed -n 's/^#define SCHEDLAB_POLICY_ABI \([0-9]*\)$/\1/p' "$SRC/include/schedlab/policy.h")
usage_error "built for policy ABI $((abi + 1)), this schedlab has ABI $abi" \
	run --policy "$T/abi.so" --workload hog
sed 's/{"WAKEUP_PREEMPT", true,/{"WAKE_PLACE_MIN", true,/' "$SRC/examples/policy/vtime.c" >"$T/dup.c"
$CC -shared -fPIC -I "$SRC/include" -o "$T/dup.so" "$T/dup.c"
usage_error "feature 'WAKE_PLACE_MIN' is declared twice" run --policy "$T/dup.so" --workload hog
usage_error "--policy does not apply" demo --policy "$T/vtime.so"
# a policy that breaks the contract during the run (pick_next hands back a sleeping task): the
# run ends with the policy and the callback named, exit status 2
cat >"$T/badpick.c" <<'EOF'
#include <schedlab/policy.h>

static struct schedlab_task *first; /* the first task seen, returned whatever its state */

static void enq(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned f)
{
	(void)s, (void)cpu, (void)f;
	if (!first)
		first = t;
}

static void deq(struct schedlab_sched *s, int cpu, struct schedlab_task *t, unsigned f)
{
	(void)s, (void)cpu, (void)t, (void)f;
}

static struct schedlab_task *pick(struct schedlab_sched *s, int cpu)
{
	(void)s, (void)cpu;
	return first;
}

static void put(struct schedlab_sched *s, int cpu, struct schedlab_task *t, bool r)
{
	(void)s, (void)cpu, (void)t, (void)r;
}

static const struct schedlab_policy p = {.abi = SCHEDLAB_POLICY_ABI, .name = "badpick",
	.enqueue = enq, .dequeue = deq, .pick_next = pick, .put_prev = put};

const struct schedlab_policy *schedlab_policy_register(const struct schedlab_host *h)
{
	(void)h;
	return &p;
}
EOF
$CC -shared -fPIC -I "$SRC/include" -o "$T/badpick.so" "$T/badpick.c"
usage_error "policy badpick ($T/badpick.so): pick_next(cpu 0) returned pid 1, which is not runnable" \
	run --policy "$T/badpick.so" --cpus 1 --workload pingpong:count=10 --no-progress
# a policy whose init refuses the machine (here: more than 2 CPUs) fails the run at its start
sed 's/\.task_fork = vt_task_fork,/.init = vt_init, .task_fork = vt_task_fork,/
s/^static const struct schedlab_policy vtime = {/static int vt_init(struct schedlab_sched *s) { return H->nr_cpus(s) > 2; }\n&/' \
	"$SRC/examples/policy/vtime.c" >"$T/init.c"
grep -q 'vt_init' "$T/init.c" || fail "init.c: the policy's table was not found"
$CC -shared -fPIC -I "$SRC/include" -o "$T/init.so" "$T/init.c"
"$SL" run --policy "$T/init.so" --cpus 2 --workload hog --duration 10ms >/dev/null ||
	fail "a policy whose init takes 2 CPUs refused them"
usage_error "policy vtime ($T/init.so): init refused this machine (4 CPUs)" \
	run --policy "$T/init.so" --cpus 4 --workload hog --duration 10ms

# bash completion: the --policy's names, from `schedlab features|sysctl --policy`
if [ -n "$BASHC" ] && command -v bash >/dev/null 2>&1; then
	complete_() {
		PATH="$(cd "$(dirname "$SL")" && pwd):$PATH" bash -c '. "$1"; shift;
			compopt() { :; }; COMP_LINE="schedlab $*"; COMP_POINT=${#COMP_LINE};
			COMP_WORDS=(schedlab "$@"); COMP_CWORD=$#;
			_schedlab; printf "%s\n" "${COMPREPLY[@]}"' _ "$BASHC" "$@"
	}
	complete_ run --policy "$T/vtime.so" --sched-features NO_WAKE | grep -qx NO_WAKE_PLACE_MIN ||
		fail "bash: --sched-features NO_WAKE after --policy vtime.so"
	complete_ run --policy "$T/vtime.so" --sysctl vti | grep -qx 'vtime.granularity_ns=' ||
		fail "bash: --sysctl vti after --policy vtime.so"
fi
# and zsh's (where zsh is installed; _schedlab is beside schedlab.bash)
if [ -n "$BASHC" ] && command -v zsh >/dev/null 2>&1; then
	zc() { # LINE: the candidates zsh offers, sorted, space-separated
		PATH="$(cd "$(dirname "$SL")" && pwd):$PATH" zsh -f \
			"$(dirname "$0")/tools/zsh_complete.zsh" "$(dirname "$BASHC")" "$1" |
			tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | grep -v '^$' | LC_ALL=C sort -u |
			tr '\n' ' '
	}
	[ "$(zc "schedlab run --policy $T/vtime.so --sched-features NO_WAKE")" = \
		"NO_WAKEUP_PREEMPT NO_WAKE_PLACE_MIN " ] ||
		fail "zsh: --sched-features NO_WAKE: $(zc "schedlab run --policy $T/vtime.so --sched-features NO_WAKE")"
	[ "$(zc "schedlab run --policy $T/vtime.so --sysctl vt")" = "vtime.granularity_ns= " ] ||
		fail "zsh: --sysctl vt: $(zc "schedlab run --policy $T/vtime.so --sysctl vt")"
fi
echo "policy.sh: ok"
