#!/bin/bash
# demovs.sh N OUTDIR: N interleaved pairs of `overlap demo` from the old and the new jar, the launcher's flags
n=$1; out=$2; mkdir -p $out
for i in $(seq 1 $n); do for j in old new; do
  java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar /work/scratch/s9/demo-$j.jar demo > $out/demo-$j-$i.txt 2>&1
  echo "$j $i rc=$? $(grep -c ' 0\.[0-9][0-9]x' $out/demo-$j-$i.txt) rows below 1.0x"
done; done
