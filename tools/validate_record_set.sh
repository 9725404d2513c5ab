#!/bin/sh
# Record the agreement set of docs/validate.md ("Agreement"): rt-app files of the Debian package
# run for real on this machine, each cut to a few seconds (its "duration" rewritten), kept in
# SETDIR/NAME (rt-app's logs, the trace xz-compressed, machine.conf) with the load average
# before and after the run in SETDIR/NAME/uptime (the machine is shared: a loaded recording is
# a noisier one). Root, rt-app, tracefs. Then `sh tools/validate_agreement.sh SETDIR/*`.
# Usage: sh tools/validate_record_set.sh [SETDIR] [SECONDS] [path/to/schedlab]
set -eu
cd "$(dirname "$0")/.."
SET=${1:-tests/data/validate-set}
SECS=${2:-3}
SL=${3:-build/schedlab}
EX=/usr/share/doc/rt-app/examples
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$SET"
for f in browser-short mp3-short video-short template spreading-tasks tutorial/example6 \
	tutorial/example7; do
	name=$(basename "$f")
	# the file with its duration cut to SECS (spreading-tasks' phases are long: its first
	# phases only)
	sed 's/"duration"[ \t]*:[ \t]*[0-9-]*/"duration" : '"$SECS"'/' "$EX/$f.json" >"$TMP/$name.json"
	grep -q '"duration"' "$TMP/$name.json" ||
		sed -i 's/"global"[ \t]*:[ \t]*{/&\n\t\t"duration" : '"$SECS"',/' "$TMP/$name.json"
	echo "== $name ($(uptime))"
	ok=0
	for try in 1 2 3; do
		rm -rf "${SET:?}/$name"
		before=$(uptime)
		if "$SL" validate "$TMP/$name.json" --out "$SET/$name" >/dev/null; then
			ok=1
			printf 'before: %s\nafter:  %s\n' "$before" "$(uptime)" >"$SET/$name/uptime"
			break
		fi
		echo "$name: try $try failed" >&2
	done
	[ "$ok" -eq 1 ] || { echo "$name: validate failed" >&2; continue; }
	rm -f "$SET/$name"/*.plot
	xz -9 -f "$SET/$name/real.trace"
done
