#!/bin/bash
# m.sh JAR ROUNDS GRAPH APP "ARGS1" "ARGS2" ... : interleaved JVMs, prints median ms and counts per config
J=$1; R=$2; G=$3; A=$4; shift 4
for i in $(seq 1 $R); do
  for cfg in "$@"; do
    o=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $J $A --graph $G $cfg --warmups 10 --runs 9 -q 2>&1 | grep -E "^(timeMs|minMs|iterations|visited|edgesScanned|verified)" | awk '{printf "%s=%s ", $1, $2}')
    echo "$(date +%H:%M:%S) [$cfg] $o"
  done
done
