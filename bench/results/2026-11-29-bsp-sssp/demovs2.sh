#!/bin/bash
# interleaved demo runs: old jar then new jar, N pairs
N=$1; out=/work/scratch/demo
for i in $(seq 1 $N); do
  for j in old new; do
    java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar /work/scratch/$j.jar demo > $out/demo-$j-$i.txt 2>&1
  done
done
