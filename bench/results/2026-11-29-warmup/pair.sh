#!/bin/bash
# pair.sh N MODE APP GRAPH JAR...: interleaved children, each printing median and min of its runs
n=$1; mode=$2; app=$3; g=$4; shift 4
for i in $(seq 1 $n); do for j in "$@"; do
  echo -n "$j "; JAR=$j.jar W=${W:-3} R=${R:-9} ./child3.sh $mode $app $g 2>&1 | grep -o '"runMillis":[^]]*' | python3 -c "import sys;v=sorted(float(x) for x in sys.stdin.read().split('[')[1].split(','));print(round(v[len(v)//2],1), round(v[0],1))"
done; done
