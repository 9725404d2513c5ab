#!/usr/bin/env python3
"""docs/workloads.md's corpus tables from tools/trace_replay_real.sh's outputs.

Usage: trace_replay_doc.py TEST_DIR DEV_DIR [--kernel K] [--min-ms M]

Each DIR holds NAME.table.md and NAME.table.json as tools/trace_replay_real.sh writes them
(KERNELS="6.18 2.6.31 2.6.32"). Prints two markdown tables: the test half per task under
kernel K (default 6.18, the recorded kernel) for tasks of M ms or more (default 1), the smaller
ones of each recording summed up in one row; then the totals of both halves under the three
kernels. Nothing is computed here that trace_replay_table.py did not print: this only gathers.
"""
import json
import os
import re
import sys

KERNELS = ["6.18", "2.6.31", "2.6.32"]
ORDER = ["pipe", "messaging", "hackbench", "stress-cpu", "stress-switch", "stress-io",
         "sysbench-threads", "make-j2", "make-j8", "fio-randread", "dd-direct", "dd-buffered",
         "python"]


def names(d):
    have = {f[:-len(".table.json")] for f in os.listdir(d) if f.endswith(".table.json")}
    key = lambda n: next((i for i, w in enumerate(ORDER) if n.startswith(w + "-")), 99)
    return sorted(have, key=lambda n: (key(n), n))


def per_task(d, n, kernel, min_ms):
    lines = open(os.path.join(d, n + ".table.md")).read().splitlines()
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    col = head.index(kernel + " ms")
    rows, small, small_ok = [], 0, 0
    for ln in lines[2:]:
        if not ln.startswith("| "):
            break
        c = [x.strip() for x in ln.strip("|").split("|")]
        rec = float(c[2])
        if rec >= min_ms:
            rows.append("| %s | %s | %s | %s | %s | %s |" % (n, c[0], c[1], c[2], c[col], c[col + 1]))
        else:
            small += 1
            m = re.match(r"([+-]?[0-9.]+)%", c[col + 1])
            small_ok += bool(m and abs(float(m.group(1))) <= 10)
    if small:
        rows.append("| %s | | (%d tasks < %g ms: %d within 10%%) | | | |" % (n, small, min_ms, small_ok))
    return rows


def main():
    args = sys.argv[1:]
    kernel, min_ms = "6.18", 1.0
    if "--kernel" in args:
        i = args.index("--kernel")
        kernel = args[i + 1]
        del args[i:i + 2]
    if "--min-ms" in args:
        i = args.index("--min-ms")
        min_ms = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2 or not all(os.path.isdir(a) for a in args):
        sys.stderr.write("usage: trace_replay_doc.py TEST_DIR DEV_DIR [--kernel K] [--min-ms M]\n")
        return 2
    test, dev = args
    print("| recording | pid | comm | recorded ms | replayed ms (%s) | error |" % kernel)
    print("|---|---|---|---|---|---|")
    for n in names(test):
        print("\n".join(per_task(test, n, kernel, min_ms)))
    print()
    print("| half | recording | recorded ms | " + " | ".join("%s ms (err)" % k for k in KERNELS) +
          " | switches rec / " + " / ".join(KERNELS) + " | migrations rec / " + " / ".join(KERNELS) +
          " | tasks > 10 ms within 25% (" + kernel + ") |")
    print("|---|---|---|---|---|---|---|---|---|")
    for half, d in (("test", test), ("dev", dev)):
        for n in names(d):
            t = json.load(open(os.path.join(d, n + ".table.json")))
            r = t["replays"]
            if any(k not in r for k in KERNELS):
                sys.stderr.write("%s/%s.table.json: no replay under %s\n" % (d, n, KERNELS))
                return 2
            cells = ["%.1f (%+.1f%%)" % (r[k]["cpu_ms"], r[k]["error_pct"]) for k in KERNELS]
            sw = " / ".join([str(t["switches"])] + [str(r[k]["switches"]) for k in KERNELS])
            mg = " / ".join([str(t["migrations"])] + [str(r[k]["migrations"]) for k in KERNELS])
            w = r[kernel]["over10ms_within25"]
            print("| %s | %s | %.1f | %s | %s | %s | %d of %d |" % (half, n, t["recorded_ms"],
                                                             " | ".join(cells), sw, mg, w[0], w[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
