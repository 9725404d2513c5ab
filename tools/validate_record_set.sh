#!/bin/sh
# Record the agreement set of docs/validate.md ("Agreement"): rt-app files of the Debian package
# (and of tests/data/rtapp-own) run for real on this machine, each cut to a few seconds (its
# "duration" rewritten), REPS times, kept in SETDIR/rN/NAME (rt-app's logs, the trace
# xz-compressed, machine.conf) with the load average before and after the run in
# SETDIR/rN/NAME/uptime. The protocol of issue 28: the machine is shared and a loaded recording
# is a noisier one, so a run starts only while the 1-minute load average is under MAXLOAD (1 by
# default); it waits up to WAIT seconds (300) for that, polling every 5 s, and skips the
# recording otherwise (said on stderr; a skipped recording leaves no directory). Root, rt-app,
# tracefs. Then `sh tools/validate_agreement.sh SETDIR/r1/*` (the model) and
# `sh tools/validate_agreement.sh -b SETDIR/r2 SETDIR/r1/*` (the floor).
# FULL=1 keeps the whole trace (every recorded event of every task: the machine's own tasks,
# the harness, the interrupts and timers), where the default keeps only what validate reads for
# the file's tasks; the figures are the same either way, the foreign activity is readable only
# in a full one (docs/validate.md, "The background's shape (issue 28, step 16)").
# Usage: sh tools/validate_record_set.sh [SETDIR] [SECONDS] [path/to/schedlab] [REPS] [FILES...]
set -eu
cd "$(dirname "$0")/.."
SET=${1:-tests/data/validate-set}
SECS=${2:-3}
SL=${3:-build/schedlab}
REPS=${4:-1}
[ $# -gt 4 ] && shift 4 || set --
MAXLOAD=${MAXLOAD:-1}
WAIT=${WAIT:-300}
FULL=${FULL:-0}
EX=/usr/share/doc/rt-app/examples
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$SET"
# quiet: waits until the 1-minute load average is under MAXLOAD; 1 when it never was in WAIT s
quiet() {
	waited=0
	while :; do
		l=$(cut -d' ' -f1 /proc/loadavg)
		if awk -v l="$l" -v m="$MAXLOAD" 'BEGIN { exit !(l < m) }'; then
			return 0
		fi
		[ "$waited" -ge "$WAIT" ] && return 1
		sleep 5
		waited=$((waited + 5))
	done
}
[ $# -gt 0 ] || set -- browser-short mp3-short video-short template spreading-tasks \
	tutorial/example6 tutorial/example7
for rep in $(seq 1 "$REPS"); do
for f in "$@"; do
	name=$(basename "$f" .json)
	src=$EX/$f.json
	[ -f "$src" ] || src=$f
	[ "$REPS" -gt 1 ] && dir=$SET/r$rep || dir=$SET
	# the file with its duration cut to SECS (spreading-tasks' phases are long: its first
	# phases only)
	sed 's/"duration"[ \t]*:[ \t]*[0-9-]*/"duration" : '"$SECS"'/' "$src" >"$TMP/$name.json"
	grep -q '"duration"' "$TMP/$name.json" ||
		sed -i 's/"global"[ \t]*:[ \t]*{/&\n\t\t"duration" : '"$SECS"',/' "$TMP/$name.json"
	mkdir -p "$dir"
	if ! quiet; then
		echo "$name (r$rep): skipped, load $(cut -d' ' -f1-3 /proc/loadavg) for ${WAIT}s" >&2
		continue
	fi
	echo "== $name r$rep ($(uptime))"
	ok=0
	for try in 1 2 3; do
		rm -rf "${dir:?}/$name"
		before=$(uptime)
		if "$SL" validate "$TMP/$name.json" --out "$dir/$name" >/dev/null; then
			ok=1
			printf 'before: %s\nafter:  %s\n' "$before" "$(uptime)" >"$dir/$name/uptime"
			break
		fi
		echo "$name: try $try failed" >&2
	done
	[ "$ok" -eq 1 ] || { echo "$name: validate failed" >&2; continue; }
	rm -f "$dir/$name"/*.plot
	if [ "$FULL" = 1 ]; then
		xz -9 <"$dir/$name/real.trace" >"$dir/$name/real.trace.xz"
		rm "$dir/$name/real.trace"
		continue
	fi
	# keep of the trace what validate reads for the file's tasks: the header, cpu_idle, and the
	# lines naming a task (comm=, prev_comm=, next_comm=; 15 characters as the kernel keeps);
	# on a shared machine the rest is other people's builds (the figures stay the same: checked
	# on every file of the set by validating the full and the filtered trace)
	b=$(grep -o '"log_basename"[^,}]*' "$dir/$name/$name.json" | head -1 | sed 's/.*: *"//; s/".*//')
	[ -n "$b" ] || b=rt-app
	for l in "$dir/$name"/*.log; do
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
	}' "$dir/$name/real.trace" | xz -9 >"$dir/$name/real.trace.xz"
	rm "$dir/$name/real.trace"
done
done
