#!/bin/sh
# idlestat's trace file (src/trace/idlestat.c) and trace-stats's idle states as idlestat reports
# them (src/trace/trace_stats.c: idlestat_event, igroup_update), per cluster, core and CPU,
# against idlestat's own report.
set -eu
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data

# The lines of trace-stats's idlestat table in $2, compared with those in $3 (a here-document).
check_lines() {
	sed -n '/^idle states as idlestat/,/^$/p' "$2" | awk 'NR > 2 && NF' >"$T/lines"
	cmp "$3" "$T/lines" >/dev/null || {
		diff "$3" "$T/lines" >&2
		fail "$1 differs from idlestat's report"
	}
}

# tests/data/idlestat-2s.idlestat.xz: `idlestat --trace -f x.trace -t 2` (idlestat 0.8, Debian 12)
# on the 2-vCPU development VM (no cpuidle driver: its C-states are all "(null)", and the
# kernel's default idle enters state 1), then xz. Its topology: clusterA with core0 = cpu0 and
# core1 = cpu1 (one CPU per core: no core lines). `idlestat --import -f x.trace` printed:
#   | clusterA ... |      1us |  47.44ms |   2.76ms | 844.76ms |   306 |     0 |     0 |
#   | cpu0     ... |      2us | 100.04ms |   5.43ms |    1.12s |   207 |     0 |     0 |
#   | cpu1     ... |      2us |  64.02ms |   3.14ms | 988.48ms |   315 |     0 |     0 |
# The cluster line is the time when both CPUs were idle together: fewer periods than either
# CPU's, the longest shorter than either CPU's longest, the total below either CPU's.
"$SL" trace-stats "$D/idlestat-2s.idlestat.xz" >"$T/out"
cat >"$T/want" <<'EOF'
  clusterA      1                   1us    47.44ms     2.76ms   844.76ms     306      0      0
  cpu0          1                   2us   100.04ms     5.43ms      1.12s     207      0      0
  cpu1          1                   2us    64.02ms     3.14ms   988.48ms     315      0      0
EOF
check_lines "the 2 s capture" "$T/out" "$T/want"
# 306, 207 and 315 hits: every exit after an entry; the JSON says the same, unit by unit
"$SL" trace-stats "$D/idlestat-2s.idlestat.xz" --json | tr -d ' \n' >"$T/json"
grep -q '"unit":"clusterA","cluster":"A","state":1,"name":"","hits":306,' "$T/json" &&
	grep -q '"unit":"cpu0","cpu":0,"state":1,"name":"","hits":207,' "$T/json" &&
	grep -q '"unit":"cpu1","cpu":1,"state":1,"name":"","hits":315,' "$T/json" || fail "JSON idlestat entries"

# tests/data/idlestat-synthetic.idlestat: written by hand, one CPU with states POLL 0, C1 2 us,
# C2 20 us, C3 100 us (name, target residency). By idlestat's rules (docs/traces.md):
#   99.999990 exit before any entry: ignored
#   C1 100.000000-100.000001: 1 us < 2 (C1's residency): over
#   C1 100.000010, C1 again at .000020 (already in C1: ignored), exit .000060: 50 us; the
#     deepest state seen so far is C1, so no deeper state to compare with
#   exit at .000070 while not idle: ignored
#   C3 100.001000-.001050: 50 us < 100: over
#   C1 100.002000-.002030: 30 us >= C2's 20 us (C2 <= deepest seen, C3): under
#   C2 100.003000-.005000: 2000 us >= C3's 100: under
#   C2 at 100.006000 never exits: not counted
# C1: 3 hits, min 1, max 50, avg (1 + 50 + 30) / 3 = 27, total 81 us, over 1, under 1;
# C2: 1 hit of 2.00 ms, under 1; C3: 1 hit of 50 us, over 1. Its topology is clusterA with cpu0
# alone: the cluster is idle exactly when cpu0 is, with cpu0's target residencies, so its lines
# are cpu0's. `idlestat --import -f idlestat-synthetic.idlestat` prints the same six lines, with
# every name blank (idlestat 0.8-6 as Debian 12 builds it opens only the trace file, yet prints
# no name: docs/traces.md).
"$SL" trace-stats "$D/idlestat-synthetic.idlestat" >"$T/syn"
cat >"$T/want" <<'EOF'
  clusterA      1 C1                1us       50us       27us       81us       3      1      1
  clusterA      2 C2             2.00ms     2.00ms     2.00ms     2.00ms       1      0      1
  clusterA      3 C3               50us       50us       50us       50us       1      1      0
  cpu0          1 C1                1us       50us       27us       81us       3      1      1
  cpu0          2 C2             2.00ms     2.00ms     2.00ms     2.00ms       1      0      1
  cpu0          3 C3               50us       50us       50us       50us       1      1      0
EOF
check_lines "the synthetic file" "$T/syn" "$T/want"

# tests/data/idlestat-topology.idlestat: written by hand, 4 CPUs in two clusters:
#   clusterA: core0 = cpu0 + cpu1 (a core of two CPUs: a core line), clusterB: cpu2, cpu3 (each
#   its own core). States POLL, C1, C2, C3 with target residencies 0, 2, 20, 100 us on cpu0-2 and
#   0, 10, 50, 200 us on cpu3 (clusterB counts with cpu2's, its first CPU's). Times in us after
#   100 s. A group is idle in the shallowest of its CPUs' states, and only while all are idle.
#   cpu0 C3 at 0; cpu1 C1 at 10: core0 (and clusterA, the same CPUs) enter C1 at 10
#   cpu1 exits at 15: group C1 5 us (>= 2; deepest the group has seen is C1: no under)
#   cpu1 C2 at 20: group C2 at 20; cpu1 C3 at 100 without an exit: group C2 ends, 80 us (>= 20;
#     deepest seen C2: no under), group C3 at 100
#   cpu0 exits at 150: group C3 50 us < 100: over; cpu0 C3 150 us (no deeper state: no under)
#   cpu0 C1 at 200: group C1 at 200 (min(1, 3)); cpu1 exits at 231: group C1 31 us >= C2's 20
#     and C3 seen: under; cpu1 C1 5 us, C2 80 us, C3 131 us
#   cpu0 exits at 300: C1 100 us >= 20: under (the group is not idle already)
#   cpu2 C2 at 1000; cpu3 C2 at 1005: clusterB C2 at 1005; cpu3 exits at 1035: clusterB C2
#     30 us, not over by cpu2's 20 (cpu3's own C2: 30 < 50, over)
#   cpu3 C1 at 1100: clusterB C1 at 1100 (min(2, 1)); cpu3 exits at 1103: 3 us, not over by
#     cpu2's 2 (cpu3's C1: 3 < 10, over); cpu2 exits at 2000: cpu2 C2 1000 us
#   cpu2 C1 at 3000, cpu3 C1 at 3010, never exited: not counted
# core0 and clusterA: C1 2 hits, 5 and 31 us, avg 18, total 36, under 1; C2 80 us; C3 50 us,
# over 1. clusterB: C1 3 us, C2 30 us. `idlestat --import` prints the same lines in this order
# (cluster, then the core of several CPUs, then its CPUs); 999.99999 us shows as 1000us there too.
"$SL" trace-stats "$D/idlestat-topology.idlestat" >"$T/topo"
cat >"$T/want" <<'EOF'
  clusterA      1 C1                5us       31us       18us       36us       2      0      1
  clusterA      2 C2               80us       80us       80us       80us       1      0      0
  clusterA      3 C3               50us       50us       50us       50us       1      1      0
  core0         1 C1                5us       31us       18us       36us       2      0      1
  core0         2 C2               80us       80us       80us       80us       1      0      0
  core0         3 C3               50us       50us       50us       50us       1      1      0
  cpu0          1 C1              100us      100us      100us      100us       1      0      1
  cpu0          3 C3              150us      150us      150us      150us       1      0      0
  cpu1          1 C1                5us        5us        5us        5us       1      0      0
  cpu1          2 C2               80us       80us       80us       80us       1      0      0
  cpu1          3 C3              131us      131us      131us      131us       1      0      0
  clusterB      1 C1                3us        3us        3us        3us       1      0      0
  clusterB      2 C2               30us       30us       30us       30us       1      0      0
  cpu2          2 C2             1000us     1000us     1000us     1000us       1      0      0
  cpu3          1 C1                3us        3us        3us        3us       1      1      0
  cpu3          2 C2               30us       30us       30us       30us       1      1      0
EOF
check_lines "the topology file" "$T/topo" "$T/want"
"$SL" trace-stats "$D/idlestat-topology.idlestat" --json | tr -d ' \n' >"$T/json"
grep -q '"unit":"core0","cluster":"A","core":0,"state":1,"name":"C1","hits":2,' "$T/json" &&
	grep -q '"unit":"clusterB","cluster":"B","state":2,"name":"C2","hits":1,' "$T/json" ||
	fail "topology file: JSON core and cluster entries"

# With idlestat installed: its own report of the three files, now, line for line (per cluster,
# core, CPU and state, in its order: min, max, avg, total, hits, over, under).
if command -v idlestat >/dev/null 2>&1; then
	for f in idlestat-2s.idlestat.xz idlestat-synthetic.idlestat idlestat-topology.idlestat; do
		case $f in
		*.xz) xz -dc "$D/$f" >"$T/in" ;;
		*) cp "$D/$f" "$T/in" ;;
		esac
		idlestat --import -f "$T/in" 2>/dev/null | awk -F'|' '
			/^\| +(cluster|core|cpu)[A-Za-z0-9]+ +\|$/ { gsub(/ /, "", $2); sec = $2; next }
			/^\| .* \| +[0-9]/ && sec != "" {
				for (i = 3; i <= 9; i++) gsub(/ /, "", $i)
				print sec, $3, $4, $5, $6, $7, $8, $9
			}' >"$T/theirs"
		"$SL" trace-stats "$T/in" | sed -n '/^idle states as idlestat/,/^$/p' |
			awk '/^  (cluster|core|cpu)[A-Za-z0-9]/ { n = NF; print $1, $(n-6), $(n-5), $(n-4), $(n-3), $(n-2), $(n-1), $n }' >"$T/ours"
		[ -s "$T/theirs" ] || fail "$f: no lines from idlestat --import"
		cmp "$T/theirs" "$T/ours" >/dev/null || {
			diff "$T/theirs" "$T/ours" >&2
			fail "$f: trace-stats differs from idlestat --import"
		}
	done
else
	echo "idlestat.sh: no idlestat: compared with the pinned numbers only"
fi

# a damaged header: exit 2 naming the file, the line and what was expected
sed '6s/.*/POLL/' "$D/idlestat-synthetic.idlestat" >"$T/bad.trace"
rc=0
"$SL" trace-stats "$T/bad.trace" >"$T/o" 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] || fail "bad header: exit $rc"
grep -q 'bad.trace:6: malformed idlestat header: expected a C-state name' "$T/err" ||
	fail "bad header: $(cat "$T/err")"
[ ! -s "$T/o" ] || fail "bad header: output written"
# a damaged topology: each names the line and what was expected (line 9 is "\tcpu3" in clusterB,
# which has no core line; line 5 "\t\tcpu0" under "\tcore0"; line 7 "clusterB:")
bad_topo() {
	rc=0
	"$SL" trace-stats "$T/bad.trace" >"$T/o" 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] && grep -qF "bad.trace:$1: malformed idlestat header: expected $2" "$T/err" &&
		[ ! -s "$T/o" ] || fail "bad topology (line $1): exit $rc, $(cat "$T/err")"
}
sed '9s/.*/\tcpu4/' "$D/idlestat-topology.idlestat" >"$T/bad.trace"
bad_topo 9 'cpuN after one tab (two under a core line), N below cpus='
sed '9s/.*/\tcpu2/' "$D/idlestat-topology.idlestat" >"$T/bad.trace"
bad_topo 9 'each CPU listed once in the topology'
sed '9s/.*/\t\tcpu3/' "$D/idlestat-topology.idlestat" >"$T/bad.trace"
bad_topo 9 'cpuN after one tab (no core line above it in this cluster)'
sed '5s/.*/\tcpu0/' "$D/idlestat-topology.idlestat" >"$T/bad.trace"
bad_topo 5 'cpuN after two tabs (under the core line above it)'
sed '7s/.*/cluster:/' "$D/idlestat-topology.idlestat" >"$T/bad.trace"
bad_topo 7 'clusterX: with X one character from A to ~'
# a plain ftrace text has no idlestat section
"$SL" trace-stats "$D/idle-sleep-loop.trace.xz" | grep -q 'idlestat' && fail "idlestat section for ftrace text"
echo "idlestat.sh: ok"
