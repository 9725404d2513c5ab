#!/bin/sh
# A scheduling policy is its folder, src/sched/<policy>/, and one line of the registry,
# src/sched/release.c (docs/architecture.md): no other code asks which policy or release runs by
# its name or its address; it asks the release, the class or the workload what they have. This
# check fails, printing FILE:LINE: why, when a file of src/ outside a policy's folder (or in
# another policy's folder) names a policy:
#  - the symbol of one of its releases or classes (the definitions of `const struct sl_release X`
#    and `const struct sl_sched_class X` in its folder), e.g. `rel == &sl_cfs_2_6_31`, or any
#    other function or object a .c file of its folder exports (what every policy shares lives
#    in src/sched/ itself, e.g. common.c);
#  - a header of its folder (#include "sched/<policy>/...");
#  - the name of one of its releases (the .name of its struct sl_release) or a prefix of one
#    ("2.6.") as a string given to a comparison (strcmp, strncmp, strcasecmp, strstr, memcmp...),
#    or a release's name compared (strcmp(rel->name, ...)). A command's own word that happens
#    to be a policy's ("repro bfs") is not a release name and is not read.
# The registry is the one place meant to name them; ALLOW below lists each other exception with
# its reason, NOT_POLICIES the folders of src/sched/ that are shared code, not a policy.
# Comments are not read.
# Usage: sh tools/check_policy_names.sh [ROOT] (ROOT: the tree to check, default this one).
# CI runs it (tools/lint.sh) and ctest (the test policy_names); tests/check_policy_names.sh
# plants each kind of violation in a copy and checks that it is found.
set -eu
cd "${1:-$(dirname "$0")/..}"
# FILE: reason, one a line
ALLOW="src/sched/release.c: the registry, one line per release"

[ -d src/sched ] || {
	echo "check_policy_names.sh: no src/sched in $(pwd)" >&2
	exit 2
}
# folders of src/sched/ that are not a policy: FOLDER: reason, one a line
NOT_POLICIES="plugin: the adapter that runs a policy loaded from a shared object (--policy PATH.so);
config and the CLI call it by design, and it names no policy of the tree"

allowed=$(printf '%s\n' "$ALLOW" | grep '^src/' | sed 's/:.*//')
notpol=$(printf '%s\n' "$NOT_POLICIES" | grep '^[a-z_0-9]*:' | sed 's/:.*//')
policies=$(find src/sched -mindepth 1 -maxdepth 1 -type d | sed 's|.*/||' | sort |
	grep -vxF "$notpol" || true)
[ -n "$policies" ] || {
	echo "check_policy_names.sh: no policy folder in src/sched" >&2
	exit 2
}

# awk reads the policy folders' files first (their definitions), then every file of src/ from
# stdin; src/ paths have no blanks, so the word splitting of the first list is safe
# shellcheck disable=SC2046
find src -name '*.[ch]' | sort | awk -v policies="$policies" -v allowed="$allowed" '
BEGIN {
	np = split(policies, pol, "\n")
	for (i = 1; i <= np; i++)
		ispol[pol[i]] = 1
	na = split(allowed, al, "\n")
	for (i = 1; i <= na; i++)
		allow[al[i]] = 1
	bad = 0
	cmp = "(strn?cmp|strn?casecmp|strstr|strcasestr|memcmp)[ \t]*\\("
}
# the policy folder a file is in ("" for the shared code)
function folder(f, parts) {
	split(f, parts, "/")
	return parts[1] == "src" && parts[2] == "sched" && (parts[3] in ispol) ? parts[3] : ""
}
# the line without its comments (a comment open at the end of a line goes on: incomment)
function strip(s, out, i, j) {
	out = ""
	while (s != "") {
		if (incomment) {
			i = index(s, "*/")
			if (!i)
				return out
			s = substr(s, i + 2)
			incomment = 0
			continue
		}
		i = index(s, "/*")
		j = index(s, "//")
		if (j && (!i || j < i))
			return out substr(s, 1, j - 1)
		if (!i)
			return out s
		out = out substr(s, 1, i - 1) " "
		s = substr(s, i + 2)
		incomment = 1
	}
	return out
}
function complain(f, n, why) {
	printf "%s:%d: %s\n", f, n, why
	bad = 1
}
# first pass: what each policy folder defines
FNR == 1 { incomment = 0; relnext = 0 }
{
	p = folder(FILENAME)
	if (p == "")
		next
	line = strip($0)
	# what a .c file of the folder exports: a function or an object at the start of a line
	if (FILENAME ~ /\.c$/ && line ~ /^[A-Za-z]/ && line !~ /^(static|extern|typedef|enum|union)[ \t]/ &&
	    match(line, /sl_[A-Za-z_0-9]+[ \t]*(\(|\[|=)/)) {
		d = substr(line, RSTART, RLENGTH)
		sub(/[ \t]*(\(|\[|=)$/, "", d)
		owner[d] = p
	}
	if (match(line, /const struct sl_(release|sched_class)[ \t]+[A-Za-z_0-9]+[ \t]*=/)) {
		d = substr(line, RSTART, RLENGTH)
		isrel = d ~ /sl_release/
		sub(/^const struct sl_[a-z_]+[ \t]+/, "", d)
		sub(/[ \t]*=$/, "", d)
		owner[d] = p
		relnext = isrel
	}
	if (relnext && match(line, /\.name[ \t]*=[ \t]*"[^"]*"/)) {
		s = substr(line, RSTART, RLENGTH)
		sub(/^[^"]*"/, "", s)
		sub(/"$/, "", s)
		relname[s] = p
		relnext = 0
	}
}
END {
	while ((getline f < "/dev/stdin") > 0) {
		me = folder(f)
		incomment = 0
		n = 0
		while ((getline raw < f) > 0) {
			n++
			if (f in allow)
				continue
			line = strip(raw)
			if (match(line, /^[ \t]*#[ \t]*include[ \t]*"sched\/[^"\/]+\//)) {
				t = substr(line, RSTART, RLENGTH)
				sub(/^[^"]*"sched\//, "", t)
				sub(/\/$/, "", t)
				if ((t in ispol) && t != me)
					complain(f, n, "includes a header of the policy folder src/sched/" t "/")
				continue
			}
			rest = line
			while (match(rest, /[A-Za-z_][A-Za-z_0-9]*/)) {
				w = substr(rest, RSTART, RLENGTH)
				rest = substr(rest, RSTART + RLENGTH)
				if ((w in owner) && owner[w] != me)
					complain(f, n, "names " w " of the policy src/sched/" owner[w] "/ (ask the release or the class for a capability)")
			}
			if (line !~ cmp)
				continue
			if (line ~ /rel(\(\))?->name/ && me == "")
				complain(f, n, "compares a release'"'"'s name (ask the release for a capability)")
			rest = line
			while (match(rest, /"[^"]*"/)) {
				s = substr(rest, RSTART + 1, RLENGTH - 2)
				rest = substr(rest, RSTART + RLENGTH)
				for (r in relname)
					if (relname[r] != me && (s == r || (length(s) >= 3 && index(r, s) == 1))) {
						complain(f, n, "compares with \"" s "\", a name of the policy src/sched/" relname[r] "/ (ask the release for a capability)")
						break
					}
			}
		}
		close(f)
	}
	if (bad)
		exit 1
	print "check_policy_names.sh: no code outside a policy folder names a policy"
}' $(for p in $policies; do find "src/sched/$p" -name '*.[ch]'; done | sort)
