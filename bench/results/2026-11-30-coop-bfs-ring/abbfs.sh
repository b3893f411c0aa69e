#!/bin/bash
# abbfs.sh ROUNDS GRAPH: coop BFS (1 device x 2 workers), base.jar then ring.jar per round, one JVM each:
# median ms of 9 runs after 10 warm-ups, levels, edges scanned, and GNU time's peak RSS (KiB)
for i in $(seq 1 $1); do
  for j in base ring; do
    o=$( { /usr/bin/time -f "maxrssKiB %M" java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $j.jar bfs --graph $2 --mode coop --devices 1 --threads-per-device 2 --warmups 10 --runs 9 -q ; } 2>&1 | grep -E "^(timeMs|minMs|iterations|visited|edgesScanned|verified|maxrssKiB)" | awk '{printf "%s=%s ", $1, $2}')
    echo "$(date +%H:%M:%S) $j $o"
  done
done
