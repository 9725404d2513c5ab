#!/usr/bin/env python3
"""rt-app's loop in recorded launches: its calibration and what a loop costs (issue 28).

rt-app calibrates its ns per loop at each launch and turns a run of N us into N * 1000 / that
many loops; a recording's logs (<basename>-<task>-<instance>.log: idx perf run period start end
rel_st slack c_duration c_period wu_lat) give both sides of each row: perf, the loops of the
row's runs, c_duration, the microseconds asked, and run, the wall time they took. So, per
recorded directory:

  calib    the launch's ns per loop: sum(c_duration) * 1000 / sum(perf), rounded (what
           `validate --real` takes with the machine parameter rtapp_calib_real)
  cost     each row's ns per loop of wall time, run * 1000 / perf: its lower quartile (a row
           is slowed by preemptions and interrupts, never sped up; a quarter of the rows, the
           least disturbed), its median

and, over the directories, the machine parameters of rt-app's loop: rtapp_calib, the median
launch's calibration; rtapp_kloop, the median of the lower quartiles (the ns of 1000 loops; it
includes the runs' cold start, rtapp_cold's part); rtapp_kloop_sd, the median of (p25 - p10) /
0.607, a normal spread's from its lower tail (a normal's p10 and p25 lie 1.282 and 0.674
standard deviations below its mean), where preemptions rarely reach.

Usage: rtapp_loop_cost.py DIR...   (each a recorded directory holding the launch's logs)
Exit 2 on a directory without logs or a log that cannot be read, 1 when the output cannot be
written.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import run  # noqa: E402
from run_stretch import BadInput, log_rows  # noqa: E402


def rows(path):
    """(perf, run, c_duration) of each row of one log (run_stretch.py's reader); raises
    run_stretch.BadInput naming the line"""
    return [(perf, run, cdur) for perf, run, _, _, cdur in log_rows(path)]


def quantile(v, q):
    """nearest rank, v sorted"""
    return v[min(len(v) - 1, int(q * len(v)))]


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def main(argv):
    if not argv or any(a.startswith("-") for a in argv):
        sys.stderr.write("usage: rtapp_loop_cost.py DIR...\n")
        return 2
    lows, sds, calibs = [], [], []
    print("%-44s %5s %6s %9s %9s %9s" % ("directory", "rows", "calib", "cost p10", "cost p25",
                                         "cost p50"))
    for d in argv:
        logs = sorted(glob.glob(os.path.join(d, "*.log")))
        if not logs:
            sys.stderr.write("rtapp_loop_cost.py: %s: no rt-app logs (*.log)\n" % d)
            return 2
        loops = asked = 0
        cost = []
        for p in logs:
            try:
                for perf, run, cdur in rows(p):
                    if perf > 0 and cdur > 0:
                        loops += perf
                        asked += cdur
                        cost.append(run * 1000.0 / perf)
            except (OSError, BadInput) as e:
                sys.stderr.write("rtapp_loop_cost.py: %s\n" % e)
                return 2
        if not loops:
            print("%-44s %5d %6s %9s %9s %9s" % (d, 0, "-", "-", "-", "-"))
            continue
        cost.sort()
        calib = (asked * 1000 + loops // 2) // loops
        lows.append(quantile(cost, 0.25))
        sds.append((quantile(cost, 0.25) - quantile(cost, 0.1)) / 0.607)
        calibs.append(calib)
        print("%-44s %5d %6d %9.2f %9.2f %9.2f" % (d, len(cost), calib, quantile(cost, 0.1),
                                                   quantile(cost, 0.25), quantile(cost, 0.5)))
    if not lows:
        sys.stderr.write("rtapp_loop_cost.py: no row with a run in %s\n" % " ".join(argv))
        return 2
    print("# the medians over %d recorded launches" % len(lows))
    print("param rtapp_calib=%dns" % round(median(calibs)))
    print("param rtapp_kloop=%dns" % round(median(lows) * 1000))
    print("param rtapp_kloop_sd=%dns" % round(median(sds) * 1000))
    return 0


if __name__ == "__main__":
    run(main)
