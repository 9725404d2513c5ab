"""Checks JSON outputs against docs/json.md (tests/json_doc.sh runs it).

usage: python3 json_check.py DOC SECTION=FILE... (FILE.jsonl: one object a line)

DOC's sections are headed "## SECTION"; each has a table whose rows are
| `path` | type | unit | meaning |
where path is the key path (a.b, a[] for an array's elements, * for a key of any name) and
type is int, number, string, bool or null, several joined by "/", and a trailing ? when the key
may be absent. Every key path of every FILE must be a row of its SECTION with a type the row
allows (an int is a number); every row without ? must be in some FILE of its SECTION.
"""
import fnmatch
import json
import re
import sys

TYPES = {bool: "bool", int: "int", float: "number", str: "string", type(None): "null"}


def read_doc(path):
    sections, cur = {}, None
    row = re.compile(r"^\| `([^`]+)` \| ([a-z/?]+) \|")
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("## "):
            cur = line[3:].strip()
            sections[cur] = []
        elif cur is not None:
            m = row.match(line)
            if m:
                t = m.group(2)
                sections[cur].append((m.group(1), set(t.rstrip("?").split("/")),
                                      t.endswith("?"), n))
    return sections


def paths(o, p, out):
    if isinstance(o, dict):
        for k, v in o.items():
            paths(v, p + "." + k if p else k, out)
        if not o:
            out.setdefault(p, set())
    elif isinstance(o, list):
        for x in o:
            paths(x, p + "[]", out)
        if not o:
            out.setdefault(p + "[]", set())
    else:
        out.setdefault(p, set()).add(TYPES[type(o)])
    return out


def pat(p):
    # [] is not a character class here
    return p.replace("[]", "#")


def main():
    doc = read_doc(sys.argv[1])
    seen = {}
    bad = []
    for arg in sys.argv[2:]:
        sec, f = arg.split("=", 1)
        if sec not in doc:
            bad.append("%s: docs/json.md has no section '## %s'" % (f, sec))
            continue
        rows = doc[sec]
        found = {}
        if f.endswith(".jsonl"):  # one object per line
            for line in open(f):
                paths(json.loads(line), "", found)
        else:
            paths(json.load(open(f)), "", found)
        for p, types in sorted(found.items()):
            hit = [r for r in rows if fnmatch.fnmatchcase(pat(p), pat(r[0]))]
            if not hit and not types:  # an empty array or object: a row below it is enough
                hit = [r for r in rows if pat(r[0]).startswith(pat(p))]
            if not hit:
                bad.append("%s (%s): '%s' is not in docs/json.md" % (sec, f, p))
                continue
            allowed = set().union(*(r[1] for r in hit))
            if "number" in allowed:
                allowed.add("int")
            for t in types - allowed:
                bad.append("%s (%s): '%s' is %s, docs/json.md says %s" %
                           (sec, f, p, t, "/".join(sorted(hit[0][1]))))
            for r in hit:
                seen.setdefault(sec, set()).add(r[0])
    for sec in {a.split("=", 1)[0] for a in sys.argv[2:]}:
        for p, _, optional, n in doc.get(sec, []):
            if not optional and p not in seen.get(sec, set()):
                bad.append("docs/json.md:%d: %s: '%s' is in no output" % (n, sec, p))
    for b in bad:
        print(b)
    return 1 if bad else 0


sys.exit(main())
