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

cmds="run compare demo sweep sweep-report sweep-merge trace-stats replay-idle record validate calibrate
features sysctl workloads params machines governors help"
for c in $cmds "repro fio" "repro sleepers" "repro fork"; do
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
# help repro: the four experiments
"$SL" help repro >"$T/h" && [ "$(grep -c '^usage: schedlab repro ' "$T/h")" -eq 4 ] ||
	fail "help repro: four experiments expected"
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
	complete_() { # WORDS...: the completions of the last word
		bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1));
			_schedlab; printf "%s\n" "${COMPREPLY[@]}"' _ "$BASHC" schedlab "$@"
	}
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
	# an option of another command is not offered
	complete_ trace-stats --ker | grep . >/dev/null && fail "bash: trace-stats offers --kernel"
fi
echo "cli_docs.sh: all checks passed"
