#!/usr/bin/env python3
"""The host-transport table from JMH's JSON (HostTransportBenchmark): per benchmark and message size, messages/s
of each system, MB/s (10^6 bytes) of Overlap and raw UDP, Overlap's items/s for push, and the ratios of Overlap over
UDP to raw Aeron over UDP (issue 18's target: at least 0.80), to the control RAW_AERON_UDP_BOTH_WAYS (raw UDP on a
driver of the two ranks' shape; a dash when the run has no such rows) and of raw UDP to raw IPC.

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
    systems = ('OVERLAP_UDP', 'RAW_AERON_UDP', 'RAW_AERON_UDP_BOTH_WAYS', 'RAW_AERON_IPC')
    print('| benchmark | message (B) | Overlap UDP msg/s | raw UDP msg/s | raw UDP both ways msg/s | raw IPC msg/s '
          '| Overlap UDP MB/s | raw UDP MB/s | Overlap items/s | **Overlap / raw UDP** | Overlap / raw both ways '
          '| raw UDP / raw IPC |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for bench in ('push', 'put'):
        for size in sorted({k[1] for k in rows if k[0] == bench}):
            o, u, b, i = (rows.get((bench, size, s)) for s in systems)
            cell = lambda v: '-' if v is None else '%s ± %s' % (fmt(v[0]), fmt(v[1]))
            mb = lambda v: '-' if v is None else fmt(v[0] * size / 1e6)
            ratio = lambda x, y: '%.2f' % (x[0] / y[0]) if x and y else '-'
            items = fmt(o[0] * ((size - HEADER) // 4)) if bench == 'push' and o else '-'
            print('| `%s` | %d | %s | %s | %s | %s | %s | %s | %s | **%s** | %s | %s |' % (
                bench, size, cell(o), cell(u), cell(b), cell(i), mb(o), mb(u), items, ratio(o, u), ratio(o, b),
                ratio(u, i)))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
