import json,sys,math,collections
def load(p):
    d={}
    for r in json.load(open(p)):
        k=(r['benchmark'],tuple(sorted((r.get('params') or {}).items())),r['mode'])
        d[k]=r['primaryMetric']
    return d
b=load(sys.argv[1]); a=load(sys.argv[2])
fam=collections.defaultdict(list); allr=[]
for k in sorted(set(a)&set(b)):
    sb=b[k]['score']; sa=a[k]['score']
    if sb<=0 or sa<=0: continue
    r = sa/sb if k[2]=='thrpt' else sb/sa   # >1: better now
    f=k[0].split('.')[3]
    fam[f].append(r); allr.append((r,k))
g=lambda xs: math.exp(sum(math.log(x) for x in xs)/len(xs))
print('rows in both:',len(allr),'geomean now/baseline (>1 better): %.3f'%g([r for r,_ in allr]))
for f,xs in sorted(fam.items()):
    print('  %-10s %3d rows geomean %.3f  min %.2f max %.2f'%(f,len(xs),g(xs),min(xs),max(xs)))
allr.sort()
print('worst 5:'); [print('  %.2f %s %s'%(r,k[0].split('.')[-2]+'.'+k[0].split('.')[-1],dict(k[1]))) for r,k in allr[:5]]
print('best 3:'); [print('  %.2f %s %s'%(r,k[0].split('.')[-2]+'.'+k[0].split('.')[-1],dict(k[1]))) for r,k in allr[-3:]]
