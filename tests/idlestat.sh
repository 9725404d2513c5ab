#!/bin/sh
# idlestat's trace file (src/trace/idlestat.c) and trace-stats's idle states as idlestat reports
# them (src/trace/trace_stats.c: idlestat_event), against idlestat's own report.
set -eu
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/data

# tests/data/idlestat-2s.idlestat.xz: `idlestat --trace -f x.trace -t 2` (idlestat 0.8, Debian 12)
# on the 2-vCPU development VM (no cpuidle driver: its C-states are all "(null)", and the
# kernel's default idle enters state 1), then xz. `idlestat --import -f x.trace` printed:
#   | clusterA ... |      1us |  47.44ms |   2.76ms | 844.76ms |   306 |     0 |     0 |
#   | cpu0     ... |      2us | 100.04ms |   5.43ms |    1.12s |   207 |     0 |     0 |
#   | cpu1     ... |      2us |  64.02ms |   3.14ms | 988.48ms |   315 |     0 |     0 |
# (the cluster line, the time when both CPUs were idle, is not computed by schedlab)
"$SL" trace-stats "$D/idlestat-2s.idlestat.xz" >"$T/out"
grep -q '^  cpu0      1                   2us   100.04ms     5.43ms      1.12s     207      0      0$' "$T/out" ||
	fail "cpu0 differs from idlestat's report: $(grep '^  cpu0 ' "$T/out")"
grep -q '^  cpu1      1                   2us    64.02ms     3.14ms   988.48ms     315      0      0$' "$T/out" ||
	fail "cpu1 differs from idlestat's report: $(grep '^  cpu1 ' "$T/out")"
[ "$(sed -n '/^idle states as idlestat/,/^$/p' "$T/out" | grep -c '^  cpu[0-9]')" -eq 2 ] || fail "more states than idlestat reports"
# 207 + 315 hits: every exit after an entry; the JSON says the same
"$SL" trace-stats "$D/idlestat-2s.idlestat.xz" --json >"$T/json"
grep -q '"hits":207,' "$T/json" && grep -q '"hits":315,' "$T/json" || fail "JSON hits"

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
# C2: 1 hit of 2.00 ms, under 1; C3: 1 hit of 50 us, over 1.
# `idlestat --import -f idlestat-synthetic.idlestat` prints the same three lines (without the names:
# its import takes names from the running machine's sysfs, which has none here).
"$SL" trace-stats "$D/idlestat-synthetic.idlestat" >"$T/syn"
for want in \
	'  cpu0      1 C1                1us       50us       27us       81us       3      1      1' \
	'  cpu0      2 C2             2.00ms     2.00ms     2.00ms     2.00ms       1      0      1' \
	'  cpu0      3 C3               50us       50us       50us       50us       1      1      0'; do
	grep -qxF "$want" "$T/syn" || fail "synthetic: no line '$want' in: $(sed -n '/idlestat/,$p' "$T/syn")"
done

# With idlestat installed: its own report of both files, now, line for line (per CPU and state:
# min, max, avg, total, hits, over, under; its cluster and core lines are left out).
if command -v idlestat >/dev/null 2>&1; then
	for f in idlestat-2s.idlestat.xz idlestat-synthetic.idlestat; do
		case $f in
		*.xz) xz -dc "$D/$f" >"$T/in" ;;
		*) cp "$D/$f" "$T/in" ;;
		esac
		idlestat --import -f "$T/in" 2>/dev/null | awk -F'|' '
			/^\|  +(cluster|core|cpu)[A-Za-z0-9]+ +\|$/ { gsub(/ /, "", $2); sec = $2; next }
			/^\| .* \| +[0-9]/ && sec ~ /^cpu/ {
				for (i = 3; i <= 9; i++) gsub(/ /, "", $i)
				print sec, $3, $4, $5, $6, $7, $8, $9
			}' >"$T/theirs"
		"$SL" trace-stats "$T/in" | sed -n '/^idle states as idlestat/,/^$/p' |
			awk '/^  cpu[0-9]/ { n = NF; print $1, $(n-6), $(n-5), $(n-4), $(n-3), $(n-2), $(n-1), $n }' >"$T/ours"
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
# a plain ftrace text has no idlestat section
"$SL" trace-stats "$D/idle-sleep-loop.trace.xz" | grep -q 'idlestat' && fail "idlestat section for ftrace text"
echo "idlestat.sh: ok"
