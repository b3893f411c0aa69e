#!/bin/bash
# interleaved: old jar (4a5dff3, long words) vs new jar (int words), coop SSSP on kron 20
# usage: ab-jars.sh PAIRS GRAPH
for i in $(seq 1 $1); do
  for j in old new; do
    r=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar /work/scratch/k/$j.jar sssp --graph $2 --mode coop --devices 1 --threads-per-device 2 --warmups 3 --runs 9 2>&1 | grep -E "^(timeMs|minMs|runTimesMs|verified|edgesScanned)" | tr -s ' ' | tr '\n' ' ')
    echo "$(date +%H:%M:%S) $j $r"
  done
done
