#!/bin/bash
# interleaved: old2 (3345667) vs new2 (GS chain), coop PageRank
# usage: ab-pr.sh PAIRS GRAPH ARGS...
n=$1; g=$2; shift 2
for i in $(seq 1 $n); do
  for j in old2 new2; do
    r=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar /work/scratch/k/$j.jar pr --graph $g --devices 1 --threads-per-device ${TPD:-2} --mode ${MODE:-coop} --warmups 5 --runs 9 "$@" 2>&1 | grep -E "^(timeMs|minMs|iterations|runTimesMs|verified)" | tr -s ' ' | tr '\n' ' ')
    echo "$(date +%H:%M:%S) $j $r"
  done
done
