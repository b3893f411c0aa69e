#!/usr/bin/env python3
# cmp.py DIR...: the Overlap and GAP rows of each comparison side by side: median ms and rss-idle/gap
import sys, csv, os
runs = sys.argv[1:]
data = {}
for d in runs:
    for r in csv.DictReader(open(os.path.join(d, 'comparison.csv'))):
        data.setdefault((r['graph'], r['app'], r['implementation']), {})[d] = r
keys = sorted(k for k in data if k[2].startswith('overlap') or k[2] == 'gap')
print('%-15s %-5s %-16s' % ('graph', 'app', 'impl') + ''.join(' %22s' % os.path.basename(d) for d in runs))
for k in keys:
    cells = []
    for d in runs:
        r = data[k].get(d)
        if r is None: cells.append(' %22s' % '-'); continue
        cells.append(' %9s %5s %6s' % (r['medianMs'][:7], int(r['peakRssKiB'] or 0)//1024 if r['peakRssKiB'] else '-', r['rssLessIdleVsGap'][:5]))
    print('%-15s %-5s %-16s' % k + ''.join(cells))
