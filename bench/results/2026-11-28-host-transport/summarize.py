#!/usr/bin/env python3
"""The host-transport table from JMH's JSON (HostTransportBenchmark): per benchmark and message size, messages/s
and MB/s (10^6 bytes) of each system, Overlap's items/s for push, and the ratio of Overlap over UDP to raw Aeron
over UDP (issue 18's target: at least 0.80) and of raw UDP to raw IPC.

Usage: summarize.py results.json"""
import json, sys

HEADER = 32  # HostTransportBenchmark.HEADER: a batch's items and a put's bytes start here


def fmt(x):
    x = float(x)  # JMH writes "NaN" for the error of a single iteration
    return 'NaN' if x != x else '%.3g' % x if x < 1e3 else '{:,.0f}'.format(x)


def main(path):
    rows = {}
    for r in json.load(open(path)):
        p = r['params']
        m = r['primaryMetric']
        rows[(r['benchmark'].rsplit('.', 1)[1], int(p['batch']), p['system'])] = (m['score'], m['scoreError'])
    print('| benchmark | message (B) | Overlap UDP msg/s | raw UDP msg/s | raw IPC msg/s | Overlap UDP MB/s '
          '| raw UDP MB/s | raw IPC MB/s | Overlap items/s | **Overlap / raw UDP** | raw UDP / raw IPC |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for bench in ('push', 'put'):
        for size in sorted({k[1] for k in rows if k[0] == bench}):
            o, u, i = (rows.get((bench, size, s)) for s in ('OVERLAP_UDP', 'RAW_AERON_UDP', 'RAW_AERON_IPC'))
            cell = lambda v: '-' if v is None else '%s ± %s' % (fmt(v[0]), fmt(v[1]))
            mb = lambda v: '-' if v is None else fmt(v[0] * size / 1e6)
            items = fmt(o[0] * ((size - HEADER) // 4)) if bench == 'push' and o else '-'
            ratio = '%.2f' % (o[0] / u[0]) if o and u else '-'
            ceiling = '%.2f' % (u[0] / i[0]) if u and i else '-'
            print('| `%s` | %d | %s | %s | %s | %s | %s | %s | %s | **%s** | %s |' % (
                bench, size, cell(o), cell(u), cell(i), mb(o), mb(u), mb(i), items, ratio, ceiling))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
