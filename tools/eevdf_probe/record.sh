#!/bin/sh
# Record an rt-app file with EEVDF's wake-up state (probe.bpf.c) beside the sched events, for
# wake_state.py (docs/validate.md, issue 28 step 32). A diagnostic, never an agreement
# recording: the probe runs in every wake-up. Needs root, a kernel with CONFIG_BPF_SYSCALL,
# BTF (/sys/kernel/btf/vmlinux) and tracefs, and Debian's clang, libbpf-dev and bpftool (not
# installed by tools/setup.sh: nothing else uses them). Like the recording protocol, it runs
# only while the 1-minute load is under 1 and writes `uptime` beside the trace.
# Usage: sh tools/eevdf_probe/record.sh FILE.json OUT.trace
set -eu
[ $# -eq 2 ] || { echo "usage: $0 FILE.json OUT.trace" >&2; exit 2; }
json=$1
out=$2
[ -r "$json" ] || { echo "$0: $json: cannot read" >&2; exit 2; }
json=$(cd "$(dirname "$json")" && pwd)/$(basename "$json")
for c in clang bpftool rt-app; do
	command -v $c >/dev/null || { echo "$0: $c not found (apt-get install clang bpftool libbpf-dev rt-app)" >&2; exit 2; }
done
T=/sys/kernel/debug/tracing
[ -w $T/trace ] || T=/sys/kernel/tracing
[ -w $T/trace ] || { echo "$0: no writable tracefs" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$work/vmlinux.h"
clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -I"$work" -c "$here/probe.bpf.c" -o "$work/probe.bpf.o"
cc -O2 -Wall "$here/loader.c" -o "$work/loader" -lbpf
load=$(cut -d' ' -f1 /proc/loadavg)
if [ "$(echo "$load < 1" | bc)" != 1 ]; then
	echo "$0: 1-minute load $load: not under 1, not recorded" >&2
	exit 1
fi
echo 0 >$T/tracing_on
echo >$T/trace
echo 60000 >$T/buffer_size_kb
for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task; do
	echo 1 >$T/events/sched/$e/enable
done
"$work/loader" "$work/probe.bpf.o" &
pid=$!
sleep 1
uptime >"$out.uptime"
echo 1 >$T/tracing_on
(cd "$work" && rt-app "$json") >"$out.rtapp.log" 2>&1 || true
echo 0 >$T/tracing_on
kill $pid
wait $pid || true
cat $T/trace >"$out"
echo "$out: $(grep -c ' SLP ' "$out") probed wake-ups" >&2
