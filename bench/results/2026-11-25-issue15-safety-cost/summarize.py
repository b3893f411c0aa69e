#!/usr/bin/env python3
"""Before/after table from the JSON files run.sh writes, over one or more run folders.

For each benchmark and parameter set: the score of every fork (the mean of its measurement iterations) of every
round of every folder given, their median on each side, the range, and the cost of the change computed on the
medians (positive: the 'after' jar is slower). The median of forks is used because on 2 cores a fork that shares
the machine with a descheduled thread can be 2-3x off while the others agree."""
import glob, json, os, statistics, sys

def load(dirs, side):
    rows = {}
    for out in dirs:
        for path in sorted(glob.glob(os.path.join(out, side + '-r*-*.json'))):
            for r in json.load(open(path)):
                params = ','.join('%s=%s' % kv for kv in sorted((r.get('params') or {}).items()))
                key = (r['benchmark'].split('.')[-2] + '.' + r['benchmark'].split('.')[-1], params, r['mode'],
                       r['primaryMetric']['scoreUnit'])
                forks = [statistics.mean(f) for f in r['primaryMetric']['rawData']]
                rows.setdefault(key, []).extend(forks)
    return rows

def main(dirs):
    before, after = load(dirs, 'before'), load(dirs, 'after')
    print('| benchmark | params | unit | before: median of forks [range] (forks) | after: median [range] (forks) '
          '| cost of the change |')
    print('| --- | --- | --- | --- | --- | --- |')
    for key in sorted(set(before) & set(after)):
        name, params, mode, unit = key
        b, a = statistics.median(before[key]), statistics.median(after[key])
        cost = (a / b - 1) if mode in ('avgt', 'sample', 'ss') else (b / a - 1)
        cell = lambda xs, m: '%.4g [%.4g-%.4g] (%d)' % (m, min(xs), max(xs), len(xs))
        print('| %s | %s | %s | %s | %s | %+.1f%% |' % (name, params, unit, cell(before[key], b), cell(after[key], a),
                                                        100 * cost))

if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: summarize.py RUN_DIR...')
    main(sys.argv[1:])
