#!/usr/bin/env python3
"""Hostile inputs against every reader, through the command line (docs/testing.md, "Hostile
input"). Usage: tools/hostile_campaign.py path/to/schedlab RUNS-PER-READER SCRATCH-DIR

Each reader's seed (a test input) is mutated RUNS times (a byte changed, a NUL or an escape
sequence inserted, the file cut, two lines swapped or one doubled, a huge or negative number or
an over-long run of bytes inserted, digits and separators scattered; random.Random(3030), so the
same inputs every time) and given to schedlab. Counted per reader: runs, accepted (exit 0),
refused (exit 2), crashes (a signal, or a sanitizer's report: run it with the ASan+UBSan build
and ASAN_OPTIONS=detect_leaks=1 to count leaks too), hangs (10 s), other exit statuses, and
refusals that do not name the file. Inputs that crash, hang or exit otherwise are kept in
SCRATCH-DIR.
"""
import random, subprocess, sys, os, lzma
sl = sys.argv[1]; per = int(sys.argv[2]); out = sys.argv[3]
W = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.makedirs(out, exist_ok=True)
def rd(p):
    return lzma.open(p).read() if p.endswith('.xz') else open(p,'rb').read()
def cut(b):
    b = b[:20000]
    return b[:b.rfind(b'\n') + 1]
seeds = {
 'ftrace': (cut(rd(W+'/tests/data/sync-direct-read.trace.xz')), 'x.trace', ['trace-stats']),
 'idlestat': (rd(W+'/tests/data/idlestat-synthetic.idlestat'), 'x.idlestat', ['trace-stats']),
 'report': (cut(rd(W+'/tests/data/sleep-instance.report.xz')), 'x.txt', ['trace-stats']),
 'sweep_csv': (rd(W+'/fuzz/corpus/sweep_resume/full.csv'), 'x.csv', ['sweep-report']),
 'sweep_jsonl': (rd(W+'/fuzz/corpus/sweep_resume/full.jsonl'), 'x.jsonl', ['sweep-report']),
 'rtapp': (rd(W+'/tests/data/rtapp/timer.json'), 'x.json', ['run', '--duration', '50ms', '--no-progress']),
 'profile': (rd(W+'/fuzz/corpus/profile/'+'builtin-nehalem'), 'x.profile', None),
 'trace_workload': (cut(rd(W+'/tests/data/sync-direct-read.trace.xz')), 'x.trace', None),
}
rnd = random.Random(3030)
def mutate(b):
    b = bytearray(b)
    op = rnd.randrange(9)
    if not b: return b
    p = rnd.randrange(len(b))
    if op == 0: b[p] = rnd.randrange(256)
    elif op == 1: b[p:p] = b'\0'
    elif op == 2: del b[p:]
    elif op == 3:
        lines = bytes(b).split(b'\n'); i = rnd.randrange(len(lines)); j = rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]; b = bytearray(b'\n'.join(lines))
    elif op == 4: b[p:p] = rnd.choice([b'18446744073709551617', b'-1', b'4294967296', b'1e30', b'-2147483648', b'99999999999999999999999'])
    elif op == 5: b[p:p] = b'\x1b[31m\r'
    elif op == 6: b[p:p] = b'A' * rnd.choice([300, 5000, 70000])
    elif op == 7:
        lines = bytes(b).split(b'\n'); i = rnd.randrange(len(lines)); lines.insert(i, lines[i]); b = bytearray(b'\n'.join(lines))
    else:
        for _ in range(4): b[rnd.randrange(len(b))] = rnd.choice(b'0123456789.:-=, \t\n')
    return b
stats = {}
for name, (seed, fname, cmd) in seeds.items():
    if not seed: continue
    for i in range(per):
        b = mutate(seed)
        p = f'{out}/{fname}'
        open(p, 'wb').write(b)
        if name == 'profile':
            args = [sl, 'run', '--cpus', '1', '--workload', 'hog', '--duration', '1ms', '--machine', 'file:'+p]
        elif name == 'trace_workload':
            args = [sl, 'run', '--workload', 'trace:file='+p, '--duration', '20ms', '--no-progress']
        elif name == 'rtapp':
            args = [sl, 'run', p, '--cpus', '2', '--duration', '50ms', '--no-progress']
        else:
            args = [sl] + cmd + [p]
        s = stats.setdefault(name, {'runs':0,'ok':0,'refused':0,'crash':0,'hang':0,'other':0,'noname':0})
        s['runs'] += 1
        try:
            r = subprocess.run(args, capture_output=True, timeout=10)
        except subprocess.TimeoutExpired:
            s['hang'] += 1; open(f'{out}/hang-{name}-{i}','wb').write(b); continue
        err = r.stderr.decode(errors='replace')
        if r.returncode < 0 or r.returncode >= 128 or 'Sanitizer' in err or 'runtime error' in err:
            s['crash'] += 1; open(f'{out}/crash-{name}-{i}','wb').write(b); print(name, i, r.returncode, err[-300:]); continue
        if r.returncode == 0: s['ok'] += 1
        elif r.returncode == 2:
            s['refused'] += 1
            if fname not in err: s['noname'] += 1; open(f'{out}/noname-{name}-{i}','wb').write(b)
        else: s['other'] += 1; open(f'{out}/other-{name}-{i}','wb').write(b); print('other', name, i, r.returncode, err[-200:])
for k, v in stats.items(): print(k, v)
t = {k: sum(v[k] for v in stats.values()) for k in ['runs','ok','refused','crash','hang','other','noname']}
print('total', t)
