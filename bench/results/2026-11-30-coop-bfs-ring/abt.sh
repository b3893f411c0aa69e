#!/bin/bash
# abt.sh ROUNDS GRAPH APP ARGS: base.jar then ring.jar per round, one JVM each, median ms of 9 runs after 10 warm-ups
R=$1; G=$2; A=$3; shift 3
for i in $(seq 1 $R); do
  for j in base ring; do
    o=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $j.jar $A --graph $G "$@" --warmups 10 --runs 9 -q --no-verify 2>&1 | grep -E "^(timeMs|minMs)" | awk '{printf "%s=%s ", $1, $2}')
    echo "$(date +%H:%M:%S) $j $o"
  done
done
