#!/bin/bash
# abflag.sh ROUNDS "ARGS" "FLAGS A" "FLAGS B" : one JVM per flag set per round, interleaved, the launcher's heap flags
# first (as ./overlap runs the apps); prints the median, min and peak RSS
R=$1; A=$2; shift 2
for i in $(seq 1 $R); do
  for f in "$@"; do
    o=$( { /usr/bin/time -f "rssKB=%M" java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 $f -jar cur.jar $A 2>&1; } 2>&1 | grep -E "^(timeMs|minMs|verified|rssKB)" | sed 's/ \+/=/' | tr '\n' ' ')
    echo "$(date +%T) [$f] $o"
  done
done
