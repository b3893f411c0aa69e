#!/bin/bash
# Interleaved A/B of async pull PageRank: old.jar (fixed teleport term, degree start) against new.jar (homogeneous
# term kept by the block runs, and its start rule). One JVM per run, 2 devices x 1 worker, the default tolerance
# (1e-4). JARS names the folder of the two jars (default: here): old.jar built at 1f5bd61, new.jar at 6558a6b.
# usage: ab-pull.sh ROUNDS GRAPH-ARGS...
rounds=$1; shift
for i in $(seq 1 $rounds); do
  for j in old new; do
    r=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 \
      -jar ${JARS:-.}/$j.jar pr "$@" --mode async --devices 2 --threads-per-device 1 --warmups 3 --runs 7 2>&1 \
      | grep -E "^(timeMs|minMs|iterations|normalizedWork|referenceMs|verified)" | tr -s ' ' | tr '\n' ' ')
    echo "$(date +%H:%M:%S) $j $r"
  done
done
