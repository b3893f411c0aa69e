#!/usr/bin/env bash
# slowjvm.sh JAR N [graph]: N JVMs of coop BFS, one line each: median and runs
jar=$1; n=$2; graph=${3:-kron:14}
for i in $(seq 1 $n); do
  java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 \
    -jar $jar bfs --generate $graph --mode coop --warmups 10 --runs 15 --json -q 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin)
r=[float(x) for x in d["runTimesMs"].split()]
print("%.3f"%d["timeMs"], " ".join("%.3g"%x for x in r))'
done
