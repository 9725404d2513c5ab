#!/bin/sh
# The layers of src/ point one way: a folder may include its own headers and those of the
# folders before it in this list, never one after it (docs/architecture.md says why):
#   core cpuidle sched machine stats trace workload config experiment validate cli
# A quoted include names its folder ("sched/cfs/cfs.h"); include/schedlab/ (the public types)
# includes only <schedlab/...>. Prints every include that breaks this as FILE:LINE: why, and
# exits 1 if there is one. CI runs it (tools/lint.sh).
set -eu
cd "$(dirname "$0")/.."
LAYERS="core cpuidle sched machine stats trace workload config experiment validate cli"
find src include -name '*.[ch]' | sort | xargs awk -v layers="$LAYERS" '
BEGIN {
	n = split(layers, l, " ")
	for (i = 1; i <= n; i++)
		rank[l[i]] = i
	bad = 0
}
FNR == 1 {
	split(FILENAME, parts, "/")
	pub = parts[1] == "include"
	me = parts[2]
	if (!pub && !(me in rank)) {
		printf "%s: src/%s is not a layer of tools/check_layers.sh\n", FILENAME, me
		bad = 1
	}
}
/^[ \t]*#[ \t]*include[ \t]*"/ {
	t = $0
	sub(/^[^"]*"/, "", t)
	sub(/".*$/, "", t)
	if (pub) {
		printf "%s:%d: \"%s\": the public headers include only <schedlab/...>\n", FILENAME, FNR, t
		bad = 1
		next
	}
	if (index(t, "/") == 0) {
		printf "%s:%d: \"%s\": name the folder (\"layer/file.h\")\n", FILENAME, FNR, t
		bad = 1
		next
	}
	tl = t
	sub(/\/.*$/, "", tl)
	if (!(tl in rank) || rank[tl] > rank[me]) {
		printf "%s:%d: %s includes \"%s\", a layer above it\n", FILENAME, FNR, me, t
		bad = 1
	}
}
END {
	if (bad)
		exit 1
	print "check_layers.sh: every include points down the layers (" layers ")"
}' || exit 1
