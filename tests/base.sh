# What every shell test starts with; sourced with `. "$(dirname "$0")/base.sh"` after `set -eu`
# (tests/lib.sh, the start of the tests of schedlab, and tests/pytool.sh, of tools/*.py, source
# it for theirs). Gives T (a temporary directory removed on exit, and on a signal) and
# fail MESSAGE (names the script, exits 1).
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

fail() {
	echo "$(basename "$0"): FAIL: $*" >&2
	exit 1
}
