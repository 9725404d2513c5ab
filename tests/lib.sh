# The start every shell test shares; sourced with `. "$(dirname "$0")/lib.sh"` after `set -eu`.
# Takes the script's own arguments: path/to/schedlab, then at most MAXARGS-1 more (MAXARGS,
# default 1, set by the script). Gives SL (the binary), T (a temporary directory removed on
# exit) and fail MESSAGE (names the script, exits 1).
if [ $# -lt 1 ] || [ $# -gt "${MAXARGS:-1}" ]; then
	echo "usage: $0 path/to/schedlab" >&2
	exit 1
fi
SL=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM

fail() {
	echo "$(basename "$0"): FAIL: $*" >&2
	exit 1
}
