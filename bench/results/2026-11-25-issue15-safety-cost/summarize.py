#!/usr/bin/env python3
"""Before/after table from the JSON files run.sh writes: for each benchmark and parameter set, the score of each
round, the mean of the rounds, and the cost of the change (positive: the 'after' jar is slower)."""
import glob, json, os, statistics, sys

def load(out, side):
    rows = {}
    for path in sorted(glob.glob(os.path.join(out, side + '-r*-*.json'))):
        for r in json.load(open(path)):
            params = ','.join('%s=%s' % kv for kv in sorted((r.get('params') or {}).items()))
            key = (r['benchmark'].split('.')[-2] + '.' + r['benchmark'].split('.')[-1], params, r['mode'])
            rows.setdefault(key, []).append((r['primaryMetric']['score'], r['primaryMetric']['scoreError'],
                                             r['primaryMetric']['scoreUnit']))
    return rows

def main(out):
    before, after = load(out, 'before'), load(out, 'after')
    print('| benchmark | params | unit | before (rounds) | after (rounds) | cost of the change |')
    print('| --- | --- | --- | --- | --- | --- |')
    for key in sorted(set(before) & set(after)):
        name, params, mode = key
        b = statistics.mean(s for s, _, _ in before[key])
        a = statistics.mean(s for s, _, _ in after[key])
        unit = before[key][0][2]
        cost = (a / b - 1) if mode in ('avgt', 'sample', 'ss') else (b / a - 1)
        fmt = lambda xs: ' / '.join('%.4g' % s for s, _, _ in xs)
        print('| %s | %s | %s | %s | %s | %+.1f%% |' % (name, params, unit, fmt(before[key]), fmt(after[key]),
                                                        100 * cost))

if __name__ == '__main__':
    main(sys.argv[1])
