import json, sys, os, glob, random
# Result files for scripts/bench-report-scale.sh and tests/integration/t-94-report-scale.sh, made
# from a profile's fixture results (iozone-a: 4k and 64k of four patterns, two repeats):
#   gen-results.py FIXDIR OUTDIR DRIVES REPEATS [TSPOINTS [halves]]
# writes OUTDIR/drive-NNN/CASE-rR.json for DRIVES drives x 20 cases (5 request sizes x 4 patterns)
# x REPEATS, each with its own label, serial, model, firmware, start time and rates (drive 7 is 30 %
# slower), and a time series of TSPOINTS samples. With "halves", the first half of the drives is
# labelled fleet-a and the second fleet-b (one device a side, for compare).
fix, out, drives, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tsn = int(sys.argv[5]) if len(sys.argv) > 5 else 0
halves = len(sys.argv) > 6 and sys.argv[6] == 'halves'
tpl = {}
for f in sorted(glob.glob(os.path.join(fix, '*.json'))):
    d = json.load(open(f))
    if d.get('schema') != 'ssdbench-result' or d['profile']['phase'] != 'measure':
        continue
    tpl[(d['profile']['case'], d['profile']['repeat_index'])] = d
pats = ['write', 'read', 'randread', 'randwrite']
sizes = [('4k', 4096, '4k'), ('8k', 8192, '4k'), ('16k', 16384, '64k'), ('32k', 32768, '64k'), ('64k', 65536, '64k')]
rnd = random.Random(1)
n = 0
for dv in range(drives):
    label = 'drive-%03d' % dv
    if halves:
        label = 'fleet-a' if dv < drives // 2 else 'fleet-b'
    ddir = os.path.join(out, 'drive-%03d' % dv)
    os.makedirs(ddir, exist_ok=True)
    speed = 1.0 - 0.3 * (dv == 7) + rnd.uniform(-0.05, 0.05)   # drive 7 is slow
    for name, bs, tname in sizes:
        for p in pats:
            for r in range(1, repeats + 1):
                d = json.loads(json.dumps(tpl[('%s-%s' % (tname, p), 1 + (r - 1) % 2)]))
                t = d['target']
                t['label'] = label; t['path'] = '/dev/sim%d' % dv; t['serial'] = 'SN%08d' % dv
                t['model'] = 'SIM-MODEL-%d' % (dv % 3); t['firmware'] = 'FW%d' % (dv % 2)
                d['job']['label'] = label; d['job']['bs'] = bs; d['job']['stride'] = 2 * bs
                d['profile']['case'] = '%s-%s' % (name, p)
                d['profile']['repeat_index'] = r; d['profile']['repeat_count'] = repeats
                ms = n * 37
                d['started_at'] = '2026-11-%02dT%02d:%02d:%02d.%03dZ' % (1 + ms // 86400000, ms // 3600000 % 24, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)
                ms += 30
                d['finished_at'] = '2026-11-%02dT%02d:%02d:%02d.%03dZ' % (1 + ms // 86400000, ms // 3600000 % 24, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)
                f = speed * rnd.uniform(0.98, 1.02)
                rt = int(d['results']['runtime_ns'] / f)
                d['results']['runtime_ns'] = rt
                for k in ('read', 'write', 'total'):
                    o = d['results'][k]
                    o['bytes'] = o['ios'] * bs
                    o['iops'] = o['ios'] * 1e9 / rt; o['bw_bytes'] = o['bytes'] * 1e9 / rt
                if tsn:
                    io = d['results']['total']['iops']
                    ts = d['results']['timeseries']
                    ts['iops'] = [round(io * rnd.uniform(0.9, 1.1), 1) for _ in range(tsn)]
                    ts['bw_bytes'] = [round(x * bs, 1) for x in ts['iops']]
                    ts['lat_mean_ns'] = [round(1e9 / max(x, 1), 1) for x in ts['iops']]
                with open(os.path.join(ddir, '%s-r%d.json' % (d['profile']['case'], r)), 'w') as fo:
                    json.dump(d, fo, separators=(',', ':'))
                n += 1
print(n)
