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
	# keep of the trace what validate reads for the file's tasks: the header, cpu_idle, and the
	# lines naming a task (comm=, prev_comm=, next_comm=; 15 characters as the kernel keeps);
	# on a shared machine the rest is other people's builds (the figures stay the same: checked
	# on every file of the set by validating the full and the filtered trace)
	b=$(grep -o '"log_basename"[^,}]*' "$SET/$name/$name.json" | head -1 | sed 's/.*: *"//; s/".*//')
	[ -n "$b" ] || b=rt-app
	for l in "$SET/$name"/*.log; do
		basename "$l" .log
	done | sed 's|-[0-9]*$||' |
		awk -v b="$b" '{ sub("^" b "-", ""); print substr($0, 1, 15) }' | sort -u >"$TMP/tasks"
	awk -v tf="$TMP/tasks" '
	BEGIN { while ((getline t < tf) > 0) keep[t] = 1 }
	/^#/ || / cpu_idle: / { print; next }
	{
		line = $0
		while (match(line, /(comm|prev_comm|next_comm)=[^ ]*/)) {
			v = substr(line, RSTART, RLENGTH)
			sub(/^[a-z_]*=/, "", v)
			if (v in keep) { print; next }
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$SET/$name/real.trace" | xz -9 >"$SET/$name/real.trace.xz"
	rm "$SET/$name/real.trace"
done
