#!/bin/sh
# Set one key of an rt-app file's "global" object to a number, as the recording scripts run the
# files: "duration" (cut to a few seconds) and "calibration" (rt-app's ns per loop fixed, so that
# a run of U us is the same U*1000/N loops in every recording; docs/validate.md, "Step 17").
# The key's value is replaced where the file has it (a number or a string such as "CPU0"),
# else the key is added first in "global"; a file without a "global" object (the tutorial's
# example3..5) gets one holding just the key, first in the file's root object.
# Usage: sh tools/rtapp_set_global.sh KEY NUMBER IN.json OUT.json
set -eu
[ $# -eq 4 ] || { echo "usage: rtapp_set_global.sh KEY NUMBER IN.json OUT.json" >&2; exit 2; }
key=$1 val=$2 in=$3 out=$4
case $key in
'' | *[!a-z_]*) echo "rtapp_set_global.sh: KEY: expected a name of [a-z_], got '$key'" >&2; exit 2 ;;
esac
case $val in
'' | *[!0-9-]* | ?*-*) echo "rtapp_set_global.sh: $key: expected an integer, got '$val'" >&2; exit 2 ;;
esac
[ -r "$in" ] || { echo "$in: cannot read" >&2; exit 2; }
grep -q '{' "$in" || { echo "$in: no JSON object (expected an rt-app file)" >&2; exit 2; }
tmp="$out.tmp.$$"
if grep -q '"global"[[:space:]]*:[[:space:]]*{' "$in"; then
	sed -E 's/"'"$key"'"[ \t]*:[ \t]*("[^"]*"|-?[0-9]+)/"'"$key"'" : '"$val"'/' "$in" >"$tmp"
	grep -q '"'"$key"'"' "$tmp" ||
		sed -i 's/"global"[ \t]*:[ \t]*{/&\n\t\t"'"$key"'" : '"$val"',/' "$tmp"
else
	sed '0,/{/s//{\n\t"global" : { "'"$key"'" : '"$val"' },/' "$in" >"$tmp"
fi
mv "$tmp" "$out"
