# The start every shell test of schedlab shares; sourced with `. "$(dirname "$0")/lib.sh"` after
# `set -eu`.
# Takes the script's own arguments: path/to/schedlab, then at most MAXARGS-1 more (MAXARGS,
# default 1, set by the script). Gives SL (the binary), tests/base.sh's T and fail, and
# usage_error (below).
if [ $# -lt 1 ] || [ $# -gt "${MAXARGS:-1}" ]; then
	echo "usage: $0 path/to/schedlab" >&2
	exit 1
fi
SL=$1
. "$(dirname "$0")/base.sh"

# status_error STATUS MESSAGE ARGS...: `schedlab ARGS` exits STATUS, writes nothing on stdout,
# and says MESSAGE (a fixed string: the part that says what was expected) on stderr.
status_error() {
	want_rc=$1
	want=$2
	shift 2
	rc=0
	"$SL" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" -eq "$want_rc" ] ||
		fail "schedlab $*: exit status $rc, expected $want_rc ($(cat "$T/err"))"
	grep -F -e "$want" "$T/err" >/dev/null ||
		fail "schedlab $*: stderr does not say '$want': $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "schedlab $*: stdout is not empty on error"
}

# usage_error MESSAGE ARGS...: bad input, exit status 2 (status_error)
usage_error() {
	status_error 2 "$@"
}
