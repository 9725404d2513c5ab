#!/bin/sh
# The help, the man page and the completions, all made from one option table
# (src/cli/cli_table.c): every command's --help exits 0 and equals `schedlab help CMD`; every
# option each --help names is in the man page; the man page renders without a warning; the bash
# completion completes commands, options and values. Usage: sh tests/cli_docs.sh
# path/to/schedlab path/to/schedlab.1 path/to/schedlab.bash
set -eu
MAXARGS=3
. "$(dirname "$0")/lib.sh"
MAN=$2
BASHC=$3

cmds="run compare demo sweep sweep-report sweep-merge trace-stats replay-idle trace-workload record validate calibrate
features sysctl workloads params machines governors help"
for c in $cmds "repro fio" "repro sleepers" "repro fork" "repro bfs"; do
	# shellcheck disable=SC2086 # the two words of "repro fio" are two arguments
	"$SL" $c --help >"$T/h" 2>"$T/err" || fail "schedlab $c --help: exit status $?"
	[ ! -s "$T/err" ] || fail "schedlab $c --help: stderr: $(cat "$T/err")"
	head -1 "$T/h" | grep -F "usage: schedlab $c" >/dev/null || fail "$c --help: first line"
	# shellcheck disable=SC2086
	"$SL" $c -h >"$T/h2" && cmp -s "$T/h" "$T/h2" || fail "schedlab $c -h differs from --help"
	# shellcheck disable=SC2086
	"$SL" help $c >"$T/h2" && cmp -s "$T/h" "$T/h2" || fail "schedlab help $c differs from --help"
	awk 'length > 79 { exit 1 }' "$T/h" || fail "$c --help: a line over 79 columns"
	# every option of the help is in the man page (roff writes - as \-)
	for o in $(grep -o -E '^  (-[a-z], )?--[a-z-]+' "$T/h" | sed 's/.*--/--/'); do
		grep -F -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$MAN" >/dev/null ||
			fail "man page: no $o (of $c)"
	done
done
# help repro: the four experiments, listed first, then each one's help
"$SL" help repro >"$T/h" && [ "$(grep -c '^usage: schedlab repro ' "$T/h")" -eq 4 ] ||
	fail "help repro: four experiments expected"
for e in fio sleepers fork bfs; do
	sed -n '2,5p' "$T/h" | grep -E "^  $e +[a-zA-Z]" >/dev/null || fail "help repro: $e not listed first"
done
# --trace-out's formats by extension, in the help and the man page
"$SL" run --help >"$T/h2"
for x in .json .systrace .report .trace; do
	tr '\n' ' ' <"$T/h2" | grep -F -- "$x" >/dev/null || fail "run --help: --trace-out: no $x"
	grep -F -- "$x" "$MAN" >/dev/null || fail "man page: --trace-out: no $x"
done
# record records the machine, not CMD alone
"$SL" record --help | tr '\n' ' ' | grep -F "whole machine" >/dev/null ||
	fail "record --help does not say it records the whole machine"
"$SL" repro --help >"$T/h2" && cmp -s "$T/h" "$T/h2" || fail "repro --help differs from help repro"
# the version is in the general help
"$SL" --help | grep -F -- "--version" >/dev/null || fail "--help does not mention --version"

# the man page renders, and groff finds nothing to warn about
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z "$MAN" 2>"$T/err" || fail "groff: exit status $?"
	[ ! -s "$T/err" ] || fail "groff warns: $(cat "$T/err")"
fi
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man -l "$MAN" >"$T/man" 2>"$T/err" || fail "man -l: exit status $?"
	grep -E '^ +repro fio' "$T/man" >/dev/null || fail "man -l: no repro fio section"
fi

# bash completion: COMP_WORDS as bash sets them, COMPREPLY read back
if command -v bash >/dev/null 2>&1; then
	# WORDS...: the completions of the last word, as bash gives them: COMP_LINE is the line
	# up to the cursor, COMP_WORDS as bash splits it (at = and : too), and the replies replace
	# what follows the last = or :; compopt (a builtin only in a real completion) is logged
	complete_() {
		bash -c '. "$1"; shift; compopt() { echo "compopt $*" >>"$CO"; };
			COMP_LINE="schedlab $*"; COMP_POINT=${#COMP_LINE};
			COMP_WORDS=(schedlab "$@"); COMP_CWORD=$#;
			_schedlab; printf "%s\n" "${COMPREPLY[@]}"' _ "$BASHC" "$@"
	}
	CO=$T/compopt
	export CO
	complete_ swe | grep -x sweep >/dev/null || fail "bash: swe does not complete to sweep"
	complete_ comp | grep -x compare >/dev/null || fail "bash: comp does not complete to compare"
	complete_ compare --con | grep -x -- --config >/dev/null || fail "bash: compare --con"
	complete_ run --ker | grep -x -- --kernel >/dev/null || fail "bash: run --ker"
	complete_ run --kernel "" | grep -x 6.18 >/dev/null || fail "bash: run --kernel: no 6.18"
	complete_ run --machine ne | grep -x nehalem >/dev/null || fail "bash: --machine ne"
	complete_ run --cpuidle-governor menu- | grep -x menu-tng >/dev/null ||
		fail "bash: --cpuidle-governor menu-"
	complete_ run --sched-features NO_NEW | grep -x NO_NEW_FAIR_SLEEPERS >/dev/null ||
		fail "bash: --sched-features NO_NEW"
	complete_ repro "" | grep -x sleepers >/dev/null || fail "bash: repro: no sleepers"
	complete_ repro fio --d | grep -x -- --disks >/dev/null || fail "bash: repro fio --d"
	complete_ repro "" | grep -x bfs >/dev/null || fail "bash: repro: no bfs"
	complete_ repro bfs --s | grep -x -- --seeds >/dev/null || fail "bash: repro bfs --s"
	# --sysctl NAME= and no space after it (compopt -o nospace)
	: >"$CO"
	[ "$(complete_ run --sysctl kernel.sched_lat)" = kernel.sched_latency_ns= ] ||
		fail "bash: --sysctl kernel.sched_lat: $(complete_ run --sysctl kernel.sched_lat)"
	grep -x "compopt -o nospace" "$CO" >/dev/null || fail "bash: --sysctl: a space after ="
	# the values of --kernel's release: 6.18 has base_slice_ns and no NEW_FAIR_SLEEPERS
	complete_ run --kernel 6.18 --sysctl base | grep -x base_slice_ns= >/dev/null ||
		fail "bash: --kernel 6.18 --sysctl base"
	complete_ run --kernel 6.18 --sysctl kernel.sched_lat | grep . >/dev/null &&
		fail "bash: --kernel 6.18 --sysctl offers 2.6.3x's kernel.sched_latency_ns"
	complete_ run --kernel 6.18 --sched-features NO_NEW | grep . >/dev/null &&
		fail "bash: --kernel 6.18 --sched-features offers NO_NEW_FAIR_SLEEPERS"
	complete_ run --kernel 6.18 --sched-features PLACE_L | grep -x PLACE_LAG >/dev/null ||
		fail "bash: --kernel 6.18 --sched-features PLACE_L"
	complete_ run --kernel 2.6.32 --sched-features PLACE_L | grep . >/dev/null &&
		fail "bash: --kernel 2.6.32 --sched-features offers 6.18's PLACE_LAG"
	complete_ sweep --kernel=6.18 --features PLACE_L | grep -x PLACE_LAG >/dev/null ||
		fail "bash: sweep --kernel=6.18 --features PLACE_L"
	# a workload's keys after NAME:, without the part bash keeps (it breaks words at :)
	: >"$CO"
	complete_ run --workload hog: >"$T/c"
	grep -x tasks= "$T/c" >/dev/null && grep -x work= "$T/c" >/dev/null ||
		fail "bash: --workload hog: $(cat "$T/c")"
	grep -x "compopt -o nospace" "$CO" >/dev/null || fail "bash: --workload hog: a space after ="
	[ "$(complete_ run --workload hog:tasks=2,wo)" = 2,work= ] ||
		fail "bash: --workload hog:tasks=2,wo: $(complete_ run --workload hog:tasks=2,wo)"
	complete_ run --workload hog:tasks=2,ta | grep . >/dev/null &&
		fail "bash: --workload hog:tasks=2,ta offers tasks again"
	# trace: file= first, then files
	[ "$(complete_ run --workload trace:)" = file= ] ||
		fail "bash: --workload trace: $(complete_ run --workload trace:)"
	: >"$T/trace-me.trace"
	[ "$(complete_ run --workload "trace:file=$T/trace-m")" = "$T/trace-me.trace" ] ||
		fail "bash: --workload trace:file=: $(complete_ run --workload "trace:file=$T/trace-m")"
	# a directory: its name and /, no space (its files come next)
	mkdir "$T/subdir"
	: >"$CO"
	[ "$(complete_ run --workload "trace:file=$T/subd")" = "$T/subdir/" ] &&
		grep -x "compopt -o nospace" "$CO" >/dev/null ||
		fail "bash: trace:file=DIR: $(complete_ run --workload "trace:file=$T/subd")"
	# calibration= is a directory key (its row's type): directories only, trace-me.trace not
	[ "$(complete_ run --workload "trace:file=x,calibration=$T/")" = "$T/subdir/" ] ||
		fail "bash: trace:calibration=: $(complete_ run --workload "trace:file=x,calibration=$T/")"
	complete_ run --workload "trace:file=x," | grep -x x,tasks= >/dev/null ||
		fail "bash: trace:file=x,: $(complete_ run --workload "trace:file=x,")"
	[ "$(complete_ run --workload "trace:file=x,pre")" = x,preempt= ] ||
		fail "bash: trace:file=x,pre: $(complete_ run --workload "trace:file=x,pre")"
	# the listing commands' --json and -o
	for c in features sysctl params workloads machines governors; do
		complete_ "$c" --j | grep -x -- --json >/dev/null || fail "bash: $c --j"
		complete_ "$c" --ou | grep -x -- --output >/dev/null || fail "bash: $c --ou"
	done
	# an option of another command is not offered
	complete_ trace-stats --ker | grep . >/dev/null && fail "bash: trace-stats offers --kernel"
fi
# zsh completion (where zsh is installed): the same values, through the completion system
if command -v zsh >/dev/null 2>&1; then
	zc() { # LINE: the candidates zsh offers, sorted, space-separated
		zsh -f "$(dirname "$0")/tools/zsh_complete.zsh" "$(dirname "$BASHC")" "$1" |
			tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' | grep -v '^$' | sort -u |
			tr '\n' ' '
	}
	[ "$(zc 'schedlab repro ')" = "bfs fio fork sleepers " ] ||
		fail "zsh: repro: $(zc 'schedlab repro ')"
	[ "$(zc 'schedlab run --workload trace:')" = "file " ] ||
		fail "zsh: --workload trace: $(zc 'schedlab run --workload trace:')"
	# after a path key, zsh's files; only directories after a directory key
	mkdir -p "$T/zd/sub" && : >"$T/zd/f.trace"
	zc "schedlab run --workload trace:file=$T/zd/" | grep -F 'f.trace' >/dev/null ||
		fail "zsh: trace:file=DIR/: $(zc "schedlab run --workload trace:file=$T/zd/")"
	zc "schedlab run --workload trace:file=x,calibration=$T/zd/" | grep -F 'f.trace' >/dev/null &&
		fail "zsh: trace:calibration= offers a file"
	zc "schedlab run --workload trace:file=x,calibration=$T/zd/" | grep -F 'sub' >/dev/null ||
		fail "zsh: trace:calibration=DIR/: no directory"
	zc 'schedlab run --workload hog:' | grep -F ' tasks ' >/dev/null ||
		fail "zsh: --workload hog: $(zc 'schedlab run --workload hog:')"
	[ "$(zc 'schedlab run --workload hog:tasks=2,wo')" = "work " ] ||
		fail "zsh: hog:tasks=2,wo: $(zc 'schedlab run --workload hog:tasks=2,wo')"
	zc 'schedlab run --kernel 6.18 --sysctl ba' | grep -F 'base_slice_ns=' >/dev/null ||
		fail "zsh: --kernel 6.18 --sysctl ba: $(zc 'schedlab run --kernel 6.18 --sysctl ba')"
	[ -z "$(zc 'schedlab run --kernel 6.18 --sched-features NO_NEW')" ] ||
		fail "zsh: 6.18 offers NO_NEW_FAIR_SLEEPERS"
fi
echo "cli_docs.sh: all checks passed"
