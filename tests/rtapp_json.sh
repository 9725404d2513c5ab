#!/bin/sh
# tools/rtapp_json.py (rt-app's lax JSON, the tools' one reader) on files written by hand.
# a.json: comments (/* */ before the top object, // after a member, and a "//" and "/*" inside a
# string, which are not comments), trailing commas in objects and an array, "run" twice in one
# task (both kept, in file order: workgen renames the second so rt-app runs both), a bare
# "suspend" member (no value), a number with a fraction and one with an exponent, and a task
# whose value is not an object. By hand, its values in file order are the 11 lines below; its
# tasks t1 and t2. Errors, each exit 2 naming the file and the line: two commas in a row (line
# 3), a second "tasks" (line 2, the first on line 1), a comment never closed (line 2), two
# members with no comma between them (line 1, at the second key), text after the top object
# (line 3), a file that does not exist.
set -eu
. "$(dirname "$0")/pytool.sh"
cat >"$T/a.json" <<'J'
/* a comment { "tasks" : { "z" : { } } } */
{
	"global" : { "log_basename" : "x", // "run" : 1, a comment
		"logdir" : "a//b /* no comment */", "f" : 1.5, "e" : 1e3 },
	"tasks" : {
		"t1" : { "loop" : -1, "cpus" : [0, 1,], "run" : 10, "run" : 20, "sleep" : 1000, },
		"t2" : { "phases" : { "p1" : { "suspend", "run" : 50 } }, },
		"n" : 5,
	},
}
J
cat >"$T/want" <<W
$T/a.json global/log_basename "x"
$T/a.json global/logdir "a//b /* no comment */"
$T/a.json global/f 1.5
$T/a.json global/e 1000.0
$T/a.json tasks/t1/loop -1
$T/a.json tasks/t1/cpus[0] 0
$T/a.json tasks/t1/cpus[1] 1
$T/a.json tasks/t1/run 10
$T/a.json tasks/t1/run 20
$T/a.json tasks/t1/sleep 1000
$T/a.json tasks/t2/phases/p1/suspend null
$T/a.json tasks/t2/phases/p1/run 50
$T/a.json tasks/n 5
W
"$PY" "$TOOLPY" "$T/a.json" >"$T/out" || fail "a.json: exit $?"
diff "$T/want" "$T/out" >&2 || fail "a.json: values differ (want, found)"
"$PY" "$TOOLPY" --tasks "$T/a.json" >"$T/out" || fail "--tasks a.json: exit $?"
printf '%s t1\n%s t2\n' "$T/a.json" "$T/a.json" | diff - "$T/out" >&2 || fail "--tasks a.json"

printf '{ "tasks" : {\n\t"t" : { "run" : 1,\n\t, } } }\n' >"$T/comma2.json"
tool_error "$T/comma2.json" "comma2.json:3: expected a key or '}', found ','$"
printf '{ "tasks" : { "t" : { } },\n  "tasks" : { "u" : { } } }\n' >"$T/tasks2.json"
rc=0
"$PY" "$TOOLPY" --tasks "$T/tasks2.json" >/dev/null 2>"$T/err" || rc=$?
[ "$rc" -eq 2 ] && grep -q 'tasks2.json:2: "tasks" given twice (first on line 1)$' "$T/err" ||
	fail "tasks2.json: exit $rc: $(cat "$T/err")"
printf '{ "tasks" : { "t" : { } } }\n/* open\n' >"$T/open.json"
tool_error "$T/open.json" "open.json:2: expected rt-app's JSON, found an unterminated comment$"
printf '{ "a" : 1 "b" : 2 }\n' >"$T/nocomma.json"
tool_error "$T/nocomma.json" "nocomma.json:1: expected ',' or '}', found a string$"
printf '{ "tasks" : { "t" : { } } }\n\n}\n' >"$T/after.json"
tool_error "$T/after.json" "after.json:3: expected the end of the file, found '}'$"
tool_error "$T/none.json" "none.json: cannot read"
# NamesOption (foreign_runs' and irq_background's --workload/--tasks): the value's index back;
# --tasks' names (empty ones dropped) before --workload's file, whatever the order; the last of
# each kept; neither, or an empty --workload: None (each trace's own JSON); no value: an error
printf '{ "tasks" : { "t" : { }, "u" : { } } }\n' >"$T/two.json"
"$PY" - "$(dirname "$TOOLPY")" "$T/two.json" <<'PYEOF' || fail "NamesOption"
import sys
sys.path.insert(0, sys.argv[1])
from rtapp_json import BadInput, NamesOption
w = sys.argv[2]
def given(*argv):
    o, i, at = NamesOption(), 0, []
    while i < len(argv):
        if argv[i] in NamesOption.FLAGS:
            i = o.take(list(argv), i)
            at.append(i)
        i += 1
    return o.names(), at
assert given("--workload", w) == ({"t", "u"}, [1]), given("--workload", w)
assert given("--tasks", "a,,b", "--workload", w) == ({"a", "b"}, [1, 3])
assert given("--workload", w, "x", "--tasks", "c") == ({"c"}, [1, 4])
assert given("--tasks", "a", "--tasks", "b") == ({"b"}, [1, 3])
assert given("x") == (None, []) and given("--workload", "") == (None, [1])
try:
    given("x", "--tasks")
    raise AssertionError("no value taken")
except BadInput as e:
    assert str(e) == "--tasks: expected a value", e
PYEOF
echo "rtapp_json: ok"
