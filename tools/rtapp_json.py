#!/usr/bin/env python3
"""rt-app's lax JSON, read in one place for the tools that read the workload files
(rtapp_event_cost.py, irq_background.py, foreign_runs.py, sis_util.py, run_stretch.py,
busy_preempt.py), as the recordings' rt-app read them and as schedlab reads them (src/core/json.h,
src/workload/rtapp_parse.c):

- comments, /* ... */ and // to the end of the line, outside strings (json-c skips them);
- one trailing comma before a closing brace or bracket (json-c accepts it; two commas in a row
  are refused, by json-c as here);
- repeated keys kept, in file order: an object is an Obj, a list of (key, value) pairs. rt-app
  reads its file with json-c, which keeps the LAST of a repeated key (at the first one's place:
  checked with json-c 0.16, `{"a":1,"b":2,"a":3}` reads {"a":3,"b":2}), but the recordings ran it
  through workgen (tests/data/validate-rep/README.md), which first renames a repeated key by
  appending an index ("run", "run1"...): rt-app then runs every "run" in order, which is what
  schedlab models (docs/model/formats.md, section 6). A key that names one thing ("tasks",
  "phases", "global", "log_basename") given twice is refused by get(), naming both lines, as
  schedlab refuses a second "tasks" or "global": the file means either;
- a bare string as an object member (`"suspend",` with no ':'): workgen gives a bare "suspend"
  the task's name as its value; here its value is None;
- strings decoded (escapes), numbers as int (no fraction or exponent) or float, true, false, null.

Anything else is refused with BadInput "FILE:LINE: expected ..., found ...": a tool says it and
exits 2.

Usage: rtapp_json.py [--tasks] FILE...
  prints each file's values in file order, one line each: FILE PATH VALUE, PATH the keys from the
  top joined by '/' ([N] for an array's element), VALUE as JSON (an empty object or array as {}
  or []); --tasks: FILE NAME, the task names (the keys of "tasks" whose value is an object),
  sorted. Exit 2 on a file that cannot be read or is not rt-app's JSON, 1 when the output cannot
  be written.
"""
import glob
import json
import os
import re
import sys

MAX_DEPTH = 64  # nested objects and arrays, as src/core/json.h's SL_JSON_MAX_DEPTH


class BadInput(Exception):
    """bad input, the message naming the file (and line): the tools exit 2 on it"""


class Obj(list):
    """a JSON object: (key, value) pairs in file order, repeated keys kept; lines[i] is the
    line of the i-th key, path the file"""

    def __init__(self, path, line):
        super().__init__()
        self.path, self.line, self.lines = path, line, []

    def get(self, key, default=None):
        """the value of key, default when absent; BadInput when the key is given twice"""
        at = [i for i, (k, _) in enumerate(self) if k == key]
        if len(at) > 1:
            raise BadInput('%s:%d: "%s" given twice (first on line %d)' %
                           (self.path, self.lines[at[1]], key, self.lines[at[0]]))
        return self[at[0]][1] if at else default


TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<num>-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)
  | (?P<word>true|false|null)
  | (?P<punct>[{}\[\]:,])
""", re.X | re.S)
WORDS = {"true": True, "false": False, "null": None}


def tokens(text, path):
    """[(kind, value, line)]: kind "s" (string), "v" (number or word) or the punctuation"""
    out = []
    pos, line, end = 0, 1, len(text)
    while pos < end:
        m = TOKEN.match(text, pos)
        if not m:
            what = "an unterminated comment" if text.startswith("/*", pos) else \
                "an unterminated string" if text[pos] == '"' else repr(text[pos])
            raise BadInput("%s:%d: expected rt-app's JSON, found %s" % (path, line, what))
        kind, tok = m.lastgroup, m.group()
        if kind == "str":
            try:
                out.append(("s", json.loads(tok, strict=False), line))
            except ValueError:
                raise BadInput("%s:%d: expected a string, found %s (a bad escape)" %
                               (path, line, tok)) from None
        elif kind == "num":
            out.append(("v", float(tok) if re.search(r"[.eE]", tok) else int(tok), line))
        elif kind == "word":
            out.append(("v", WORDS[tok], line))
        elif kind == "punct":
            out.append((tok, None, line))
        line += tok.count("\n")
        pos = m.end()
    out.append(("end", None, line))
    return out


def found(t):
    return "the end of the file" if t[0] == "end" else \
        "a string" if t[0] == "s" else "a value" if t[0] == "v" else "'%s'" % t[0]


def value(tok, i, path, depth):
    """(the value at tok[i], the index after it)"""
    t = tok[i]
    if t[0] in ("s", "v"):
        return t[1], i + 1
    if t[0] not in ("{", "["):
        raise BadInput("%s:%d: expected a value, found %s" % (path, t[2], found(t)))
    if depth == MAX_DEPTH:
        raise BadInput("%s:%d: more than %d nested objects and arrays" % (path, t[2], MAX_DEPTH))
    close = "}" if t[0] == "{" else "]"
    out = Obj(path, t[2]) if close == "}" else []
    i += 1
    while tok[i][0] != close:
        if close == "}":
            if tok[i][0] != "s":
                raise BadInput("%s:%d: expected a key or '}', found %s" %
                               (path, tok[i][2], found(tok[i])))
            key, line = tok[i][1], tok[i][2]
            i += 1
            val = None
            if tok[i][0] == ":":
                val, i = value(tok, i + 1, path, depth + 1)
            out.append((key, val))
            out.lines.append(line)
        else:
            val, i = value(tok, i, path, depth + 1)
            out.append(val)
        if tok[i][0] == ",":
            i += 1
        elif tok[i][0] != close:
            raise BadInput("%s:%d: expected ',' or '%s', found %s" %
                           (path, tok[i][2], close, found(tok[i])))
    return out, i + 1


def loads(text, path):
    """the top value of rt-app JSON text; path names it in errors"""
    tok = tokens(text, path)
    top, i = value(tok, 0, path, 0)
    if tok[i][0] != "end":
        raise BadInput("%s:%d: expected the end of the file, found %s" %
                       (path, tok[i][2], found(tok[i])))
    return top


def load(path):
    """the top value of the rt-app JSON file at path"""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        raise BadInput("%s: cannot read: %s" % (path, e.strerror)) from None
    return loads(text, path)


def tasks_of(path):
    """the "tasks" object of the rt-app JSON file at path"""
    top = load(path)
    tasks = top.get("tasks") if isinstance(top, Obj) else None
    if not isinstance(tasks, Obj):
        raise BadInput('%s: expected an rt-app JSON with a "tasks" object' % path)
    return tasks


def task_names(path):
    """the task names of an rt-app JSON file: the keys of its "tasks" whose value is an object"""
    names = set(k for k, v in tasks_of(path) if isinstance(v, Obj))
    if not names:
        raise BadInput('%s: expected an rt-app JSON with a "tasks" object of tasks' % path)
    return names


def is_thread(comm, names):
    """whether a trace's comm is a thread of the file whose task names are names: rt-app names
    a thread by its task (instances: NAME-N), cut to 15 characters as the kernel keeps a comm,
    and its own main thread "rt-app" (foreign_runs, irq_background and sis_util tell the file's
    threads from the rest with it)"""
    if comm == "rt-app":
        return True
    for n in names:
        if comm == n[:15] or (comm.startswith(n) and re.fullmatch(r"-\d+", comm[len(n):])):
            return True
    return False


class NamesOption:
    """the options --workload FILE.json and --tasks NAME,... of the tools that tell a file's
    threads from the rest (foreign_runs.py, irq_background.py): the file's task names given on
    the command line, read once the whole command line is (names())"""

    FLAGS = ("--workload", "--tasks")

    def __init__(self):
        self.workload, self.tasks = None, None

    def take(self, argv, i):
        """argv[i], one of FLAGS, and its value: the value's index in argv"""
        if i + 1 >= len(argv):
            raise BadInput(f"{argv[i]}: expected a value")
        if argv[i] == "--workload":
            self.workload = argv[i + 1]
        else:
            self.tasks = set(x for x in argv[i + 1].split(",") if x)
        return i + 1

    def names(self):
        """the task names given (--tasks', else --workload's file's), or None: each trace's own
        from the JSON beside it"""
        if self.tasks is not None:
            return self.tasks
        return task_names(self.workload) if self.workload else None


def log_basename(path):
    """global's log_basename in the JSON file at path, None without one"""
    top = load(path)
    glob = top.get("global") if isinstance(top, Obj) else None
    base = glob.get("log_basename") if isinstance(glob, Obj) else None
    return base if isinstance(base, str) else None


def workload_files(d):
    """the rt-app JSON files in directory d, sorted: the model's machine-background.json (a
    `validate --sim-out` directory's) left out"""
    return [j for j in sorted(glob.glob(os.path.join(d, "*.json")))
            if os.path.basename(j) != "machine-background.json"]


def names_beside(path, what="", advice=""):
    """the task names of the one rt-app JSON beside a trace (workload_files of its directory);
    BadInput naming the trace when there is not exactly one, what before the complaint (the
    option that asked, "--threads: ") and advice after it"""
    js = workload_files(os.path.dirname(path) or ".")
    if len(js) != 1:
        raise BadInput(f"{path}: {what}expected one rt-app *.json beside it (found "
                       f"{len(js)}){advice}")
    return task_names(js[0])


def leaves(v, at=""):
    """(path, value) of each value that holds no other, in file order"""
    if isinstance(v, Obj) and v:
        for k, x in v:
            yield from leaves(x, at + "/" + k if at else k)
    elif isinstance(v, list) and not isinstance(v, Obj) and v:
        for n, x in enumerate(v):
            yield from leaves(x, "%s[%d]" % (at, n))
    else:
        yield at, {} if isinstance(v, Obj) else v


def main(argv):
    names = argv[:1] == ["--tasks"]
    files = argv[1:] if names else argv
    if not files or any(a.startswith("-") for a in files):
        sys.stderr.write("usage: rtapp_json.py [--tasks] FILE...\n")
        return 2
    try:
        for p in files:
            if names:
                for n in sorted(task_names(p)):
                    print(p, n)
            else:
                for at, v in leaves(load(p)):
                    print(p, at, json.dumps(v))
        sys.stdout.flush()
    except BadInput as e:
        sys.stderr.write("rtapp_json.py: %s\n" % e)
        return 2
    except OSError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
