# The start the tests of tools/*.py on traces written by hand share; sourced with
# `. "$(dirname "$0")/pytool.sh"` after `set -eu` by tests/NAME.sh, the test of tools/NAME.py.
# Gives tests/base.sh's T and fail, PY (python3, or $PYTHON), TOOLPY (the tool's path) and
# tool_error and tool_cut_xz (below).
. "$(dirname "$0")/base.sh"
PY=${PYTHON:-python3}
TOOLPY="$(cd "$(dirname "$0")/.." && pwd)/tools/$(basename "$0" .sh).py"

# tool_error FILE WANT [ARG...]: the tool (ARGs first) on FILE exits 2 and says WANT (a regular
# expression) on stderr; `tool_error "$T/none.trace" none.trace`: a file that does not exist,
# named; `tool_error "$T/p.trace" Usage --x`: an option the tool does not take
tool_error() {
	f=$1
	w=$2
	shift 2
	rc=0
	"$PY" "$TOOLPY" "$@" "$f" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$(basename "$f") $*: exit $rc, expected 2 ($(cat "$T/err"))"
	grep -q -e "$w" "$T/err" || fail "$(basename "$f") $*: stderr does not say '$w': $(cat "$T/err")"
}

# tool_cut_xz TRACE [ARG...]: the tool (ARGs first) on TRACE compressed and cut short, as
# cut.trace.xz beside it (removed after), exits 2 saying "a cut or corrupt .xz file" and names
# the cut file once ("PATH: a cut ...", not "PATH: PATH: a cut ...")
tool_cut_xz() {
	cut="$(dirname "$1")/cut.trace.xz"
	xz -c "$1" >"$T/whole.xz"
	head -c $(($(wc -c <"$T/whole.xz") / 2)) "$T/whole.xz" >"$cut"
	shift
	rc=0
	"$PY" "$TOOLPY" "$@" "$cut" >/dev/null 2>"$T/err" || rc=$?
	rm -f "$cut" "$T/whole.xz"
	[ "$rc" -eq 2 ] || fail "cut.trace.xz: exit $rc, expected 2 ($(cat "$T/err"))"
	grep -q 'a cut or corrupt \.xz file' "$T/err" || fail "cut.trace.xz: $(cat "$T/err")"
	[ "$(grep -oF "$cut" "$T/err" | wc -l)" -eq 1 ] ||
		fail "cut.trace.xz: the path not named once: $(cat "$T/err")"
}
