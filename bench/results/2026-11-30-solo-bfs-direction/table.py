import sys
rows={}; tail={}
for line in open(sys.argv[1]):
    line=line.rstrip('\n')
    if not line.strip(): continue
    parts=line.split('  ')
    last=parts[-1].strip().split(' ',1)
    label=last[0]; tail.setdefault(label,[]).append(last[1] if len(last)>1 else '')
    for p in parts[:-1]:
        p=p.strip()
        if not p: continue
        k,v=p.rsplit(' ',1)
        rows.setdefault(k,{}).setdefault(label,[]).append(v)
labels=list(tail)
for k,d in rows.items():
    print(f"{k:45s} " + "  ".join(f"{l} {' '.join(d.get(l,[])):18s}" for l in labels))
for l in labels: print(l, tail[l])
