#!/bin/bash
# abpr.sh ROUNDS GRAPH JARS... : coop Gauss-Seidel PageRank, one JVM per jar per round, interleaved
R=$1; G=$2; shift 2
for i in $(seq 1 $R); do
  for j in "$@"; do
    o=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $j pr --graph $G --mode coop --sweep gauss-seidel --tolerance 2.4e-4 --devices 1 --threads-per-device 2 --warmups 5 --runs 9 -q 2>&1 | grep -E "^(timeMs|minMs|iterations|verified)" | awk '{printf "%s=%s ", $1, $2}')
    echo "$(date +%T) $j $o"
  done
done
