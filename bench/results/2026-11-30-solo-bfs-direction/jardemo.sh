#!/bin/bash
# jardemo.sh JAR label: one demo JVM from JAR with the launcher's demo flags; each row's graph, mode and time on one line
jar=$1; label=$2
java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:+AlwaysPreTouch \
  -jar $jar demo --apps ${APPS:-bfs} --modes ${MODES:-solo} --graphs ${GRAPHS:-kron:16} -q 2>&1 \
  | awk -F'  +' -v l="$label" '/^(bfs|pr|sssp) / {printf "%s/%s/%s %s  ", $1, $2, $3, $5} END {print l}'
