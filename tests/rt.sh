#!/bin/sh
# The real-time class from the command line (docs/model-overview.md): the trace shows the
# kernel's prio of an RT task (99 - rt_priority), the RT sysctls read and write as ints, and bad
# RT input is a usage error (status 2, empty stdout). Usage: sh tests/rt.sh path/to/schedlab
set -eu

. "$(dirname "$0")/lib.sh"

# rtprio 50 -> prio 49 in sched_switch and sched_wakeup_new; a fair nice 0 task stays 120
"$SL" run --cpus 1 --duration 20ms --workload hog:policy=fifo,rtprio=50 \
	--workload periodic --trace-out "$T/t.trace" >"$T/out"
# 2.6.32 (the default release) prints its own layouts (docs/model/formats.md §2a)
grep -F "sched_wakeup_new: task hog:1 [49] " "$T/t.trace" >/dev/null ||
	fail "trace: no prio=49 for the rtprio 50 task"
grep -F "==> hog:1 [49]" "$T/t.trace" >/dev/null ||
	fail "trace: no next_prio=49"
grep -F "periodic:2 [120]" "$T/t.trace" >/dev/null ||
	fail "trace: the fair task's prio is not 120"
# SCHED_RR rtprio 99 -> prio 0
"$SL" run --cpus 1 --duration 5ms --workload hog:policy=rr,rtprio=99 \
	--trace-out "$T/rr.trace" >"$T/out"
grep -F "==> hog:1 [0]" "$T/rr.trace" >/dev/null || fail "trace: rtprio 99 is not prio 0"

# the sysctls, as `sysctl` prints them: ints, -1 = no limit
"$SL" sysctl >"$T/out"
grep -Fx "kernel.sched_rt_period_us = 1000000" "$T/out" >/dev/null || fail "sysctl: period"
grep -Fx "kernel.sched_rt_runtime_us = 950000" "$T/out" >/dev/null || fail "sysctl: runtime"
"$SL" sysctl --sysctl kernel.sched_rt_runtime_us=-1 >"$T/out"
grep -Fx "kernel.sched_rt_runtime_us = -1" "$T/out" >/dev/null || fail "sysctl: runtime -1"

usage_error "policy=fifo needs rtprio=1..99" run --workload hog:policy=fifo
usage_error "rtprio=3: only policy=fifo or rr takes a priority" run --workload periodic:rtprio=3
usage_error "out of range" run --workload hog:policy=rr,rtprio=100
usage_error "more than kernel.sched_rt_period_us" run --workload hog \
	--sysctl kernel.sched_rt_runtime_us=2000000
usage_error "kernel.sched_rt_runtime_us" run --workload hog \
	--at 1s:sysctl=kernel.sched_rt_runtime_us=-5
# --at writes are checked in the order the run makes them (by time): runtime 400000 then period
# 500000 is valid; the other way round the period write meets runtime 950000 and is refused
"$SL" run --cpus 1 --duration 10ms --workload hog --at 4ms:sysctl=kernel.sched_rt_runtime_us=400000 \
	--at 5ms:sysctl=kernel.sched_rt_period_us=500000 >"$T/out" || fail "--at runtime, period: refused"
usage_error "less than kernel.sched_rt_runtime_us=950000" run --workload hog \
	--at 6ms:sysctl=kernel.sched_rt_runtime_us=400000 \
	--at 5ms:sysctl=kernel.sched_rt_period_us=500000
exit 0
