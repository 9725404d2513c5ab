#!/bin/sh
# Keep of a recorded trace what validate reads for the rt-app file's own tasks: the header,
# cpu_idle, and the lines naming one of its tasks (comm=, prev_comm=, next_comm=; the names cut
# to 15 characters as the kernel keeps them). On a shared machine the rest is other people's
# work; validate's figures are the same either way (checked on every file of
# tests/data/validate-rep by validating the full and the filtered trace), but the readers of
# tools/ that measure machine.conf's rates were written against such filtered traces
# (docs/validate.md, "Lost lines"), so a whole recording (validate_record_set.sh's FULL=1) is
# filtered with this before they read it, to measure the same way.
# Usage: sh tools/trace_keep_file.sh DIR [OUT]  (DIR: a `validate --out` directory holding
# NAME.json, the rt-app logs and real.trace or real.trace.xz; writes the filtered trace,
# xz-compressed, to OUT, by default DIR/real.trace.xz in place of a real.trace)
#        sh tools/trace_keep_file.sh -c COPY DIR  (a filtered copy: COPY, made if missing, gets
# DIR's other files and the filtered trace as COPY/real.trace.xz; what the readers of a whole
# recording read, DIR left as it is)
set -eu
copy=
if [ "${1:-}" = -c ]; then
	[ $# -eq 3 ] || { echo "usage: $0 -c COPY DIR" >&2; exit 2; }
	copy=$2
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 DIR [OUT] | -c COPY DIR" >&2; exit 2; }
dir=$1
name=$(basename "$dir")
out=${2:-$dir/real.trace.xz}
[ -f "$dir/$name.json" ] || { echo "$dir: no $name.json (expected a validate --out directory)" >&2; exit 2; }
if [ -n "$copy" ]; then
	mkdir -p "$copy"
	for f in "$dir"/*; do
		case $f in
		*/real.trace | */real.trace.xz) ;;
		*) [ ! -f "$f" ] || cp "$f" "$copy"/ ;;
		esac
	done
	out=$copy/real.trace.xz
fi
if [ -f "$dir/real.trace" ]; then
	cat_trace() { cat "$dir/real.trace"; }
elif [ -f "$dir/real.trace.xz" ]; then
	cat_trace() { xz -dc "$dir/real.trace.xz"; }
else
	echo "$dir: no real.trace or real.trace.xz" >&2
	exit 2
fi
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.xz"' EXIT
b=$(grep -o '"log_basename"[^,}]*' "$dir/$name.json" | head -1 | sed 's/.*: *"//; s/".*//')
[ -n "$b" ] || b=rt-app
# (checked before the pipeline: an exit inside it would leave only its own subshell)
set -- "$dir"/*.log
[ -f "$1" ] || { echo "$dir: no rt-app logs (*.log)" >&2; exit 2; }
for l in "$@"; do
	basename "$l" .log
done | sed 's|-[0-9]*$||' |
	awk -v b="$b" '{ sub("^" b "-", ""); print substr($0, 1, 15) }' | sort -u >"$tmp"
cat_trace | awk -v tf="$tmp" '
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
}' | xz -9 >"$tmp.xz"
mv "$tmp.xz" "$out"
[ ! -f "$dir/real.trace" ] || [ "$out" != "$dir/real.trace.xz" ] || rm "$dir/real.trace"
