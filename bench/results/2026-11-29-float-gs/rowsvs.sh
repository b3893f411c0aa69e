#!/bin/bash
# rowsvs.sh N APP FILE SOURCE "label|env|mode" ...: as gapvs.sh, printing each child's settings and L1 error too
n=$1; app=$2; f=$3; src=$4; shift 4
for i in $(seq 1 $n); do
  OMP_NUM_THREADS=2 /work/scratch/gapbs/pr -f $f -s -n 7 -t ${GAPTOL:-1e-4} -i 1000 | grep "Trial Time" | awk '{print $3*1000}' | sort -n | awk '{a[NR]=$1} END{print "gap", a[4]}'
  for spec in "$@"; do IFS='|' read -r label envs mode <<< "$spec"
    env $envs W=${W:-5} R=${R:-7} ./child3.sh ${mode:-coop} $app $f 2>/dev/null | grep '"row"' | python3 -c "
import sys,json
r=json.loads(sys.stdin.read().split(' ',1)[1])['row']; m=sorted(r['runMillis']); print('$label', round(m[len(m)//2],1), r['peakRssKib']//1024, r['verification'], '%.2e'%r.get('prError',0), r.get('settings'))"
  done
done
