# The start the tests of tools/*.py on traces written by hand share; sourced with
# `. "$(dirname "$0")/pytool.sh"` after `set -eu` by tests/NAME.sh, the test of tools/NAME.py.
# Gives tests/base.sh's T and fail, PY (python3, or $PYTHON), TOOLPY (the tool's path) and
# tool_error (below).
. "$(dirname "$0")/base.sh"
PY=${PYTHON:-python3}
TOOLPY="$(cd "$(dirname "$0")/.." && pwd)/tools/$(basename "$0" .sh).py"

# tool_error FILE WANT: the tool on FILE exits 2 and says WANT (a regular expression) on stderr;
# `tool_error "$T/none.trace" none.trace`: a file that does not exist, named
tool_error() {
	rc=0
	"$PY" "$TOOLPY" "$1" >/dev/null 2>"$T/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$(basename "$1"): exit $rc, expected 2 ($(cat "$T/err"))"
	grep -q -e "$2" "$T/err" || fail "$(basename "$1"): stderr does not say '$2': $(cat "$T/err")"
}
