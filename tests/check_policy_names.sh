#!/bin/sh
# tools/check_policy_names.sh on this tree passes; on a copy with one planted violation of each
# kind it fails (exit 1) naming the file and line, and a violation inside the named policy's own
# folder, or in a comment, is not one. Each copy also has a new policy folder, which the check
# must pick up by itself, and a plugin/ folder, which is shared code (NOT_POLICIES).
# Usage: sh tests/check_policy_names.sh
set -eu
R=$(cd "$(dirname "$0")/.." && pwd)
CHECK=$R/tools/check_policy_names.sh
. "$(dirname "$0")/base.sh"

sh "$CHECK" "$R" >"$T/out" 2>&1 || fail "the tree itself: $(cat "$T/out")"

# a new policy folder (no edit of the check), and the plug-in adapter's folder, which is none
NEWPOL='const struct sl_sched_class sl_newpol_class = {0};
void sl_newpol_helper(void) {}'
PLUGIN='int sl_plugin_load(const char *path) { return !path; }'
copy() {
	rm -rf "$T/tree"
	mkdir -p "$T/tree"
	cp -R "$R/src" "$T/tree/src"
	mkdir -p "$T/tree/src/sched/newpol" "$T/tree/src/sched/plugin"
	printf '%s\n' "$NEWPOL" >"$T/tree/src/sched/newpol/newpol.c"
	printf '%s\n' "$PLUGIN" >"$T/tree/src/sched/plugin/plugin.c"
}

# plant FILE LINE EXPECT: a copy of src/ with LINE appended to FILE; the check must exit 1 and
# print FILE:N: where N is the line's number, and a message containing EXPECT
plant() {
	copy
	printf '%s\n' "$2" >>"$T/tree/$1"
	n=$(wc -l <"$T/tree/$1")
	rc=0
	sh "$CHECK" "$T/tree" >"$T/out" 2>&1 || rc=$?
	[ "$rc" -eq 1 ] || fail "planted '$2' in $1: exit $rc, 1 expected: $(cat "$T/out")"
	grep -q "^$1:$n: .*$3" "$T/out" || fail "planted '$2' in $1: no '$1:$n: ...$3' in: $(cat "$T/out")"
	[ "$(wc -l <"$T/out")" -eq 1 ] || fail "planted '$2' in $1: more than the one line: $(cat "$T/out")"
}

# clean FILE LINE: the same plant is no violation
clean() {
	copy
	printf '%s\n' "$2" >>"$T/tree/$1"
	sh "$CHECK" "$T/tree" >"$T/out" 2>&1 || fail "'$2' in $1 is no violation: $(cat "$T/out")"
}

# a release's symbol, a class's address, another policy's symbol in a policy folder
plant src/config/config.c 'static int x(const struct sl_config *c) { return c->rel == &sl_cfs_2_6_31; }' \
	'names sl_cfs_2_6_31 of the policy src/sched/cfs/'
plant src/machine/machine.c 'static int y(struct sl_sim *s) { return s->rel->fair == &sl_eevdf_class; }' \
	'names sl_eevdf_class of the policy src/sched/eevdf/'
plant src/sched/bfs/bfs.c 'static const void *z = &sl_rt_class;' 'names sl_rt_class of the policy src/sched/rt/'
plant src/sched/class.h 'extern const struct sl_sched_class sl_bfs_class;' 'names sl_bfs_class'
# a function a policy's folder exports, called from the machine or from another policy
plant src/machine/lifecycle.c 'static void q(struct sl_sim *s) { sl_update_shares(s, NULL, 0, 0); }' \
	'names sl_update_shares of the policy src/sched/cfs/'
plant src/sched/eevdf/eevdf.c 'static void r(struct sl_sim *s) { sl_rt_post_schedule(s, NULL); }' \
	'names sl_rt_post_schedule of the policy src/sched/rt/'
plant src/machine/machine.c 'static void s(void) { sl_newpol_helper(); }' \
	'names sl_newpol_helper of the policy src/sched/newpol/'
plant src/sched/release.h 'extern const struct sl_sched_class sl_newpol_class;' \
	'names sl_newpol_class of the policy src/sched/newpol/'
# a policy's header
plant src/experiment/report.c '#include "sched/eevdf/eevdf.h"' 'includes a header of the policy folder src/sched/eevdf/'
# a release's name, or a prefix of one, compared
plant src/trace/ftrace_text_writer.c 'static int v(const char *k) { return !strcmp(k, "6.18"); }' \
	'compares with "6.18", a name of the policy src/sched/eevdf/'
plant src/experiment/repro_bfs.c 'static int u(const char *k) { return !strncmp(k, "2.6.", 4); }' \
	'compares with "2.6."'
plant src/config/config.c 'static int w(const struct sl_release *rel) { return !!strstr(rel->name, "x"); }' \
	"compares a release's name"

# not violations: a policy naming its own symbols, one of the shared core's, a comment, the
# registry, a release name that is no comparison (an experiment's table), a short literal
clean src/sched/eevdf/eevdf_pick.c 'static const void *own = &sl_eevdf_class;'
clean src/sched/bfs/bfs.c 'static const void *shared = &sl_prio_to_weight;'
clean src/machine/machine.c '/* 2.6.31 CFS: sl_cfs_class did this with strcmp(k, "2.6.31") */'
clean src/sched/release.c 'static const void *reg = &sl_cfs_class;'
clean src/experiment/repro_bfs.c 'static const char *const kern = "2.6.31";'
clean src/cli/main.c 'static int t(const char *k) { return !strcmp(k, "6"); }'
clean src/config/config.c 'static int pl(void) { return sl_plugin_load("x.so"); }'
clean src/sched/release.c 'static const void *np = &sl_newpol_class;'

echo "check_policy_names.sh: the tree passes; 12 planted violations found, 8 non-violations passed"
