#!/bin/bash
# ab.sh ROUNDS "ARGS" JARS... : one JVM per jar per round, interleaved; prints median time and peak RSS
R=$1; A=$2; shift 2
for i in $(seq 1 $R); do
  for j in "$@"; do
    o=$( { /usr/bin/time -f "rssKB=%M" java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $j $A 2>&1; } 2>&1 | grep -E "^(timeMs|minMs|verified|rssKB)" | sed 's/ \+/=/' | tr '\n' ' ')
    echo "$(date +%T) $(basename $j) $o"
  done
done
