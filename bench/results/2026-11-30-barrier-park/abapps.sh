#!/usr/bin/env bash
# abapps.sh ROUNDS JAR... : coop bfs/pr/sssp on grid 1000 and kron 18, one JVM per line, jars interleaved
rounds=$1; shift
for r in $(seq 1 $rounds); do
 for g in grid:1000x1000 kron:18; do
  for app in bfs sssp pr; do
   for jar in "$@"; do
    extra=""; [ $app = pr ] && extra="--sweep jacobi"
    out=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 \
      -jar $jar $app --generate $g --mode coop --devices 1 --threads-per-device 2 $extra --warmups 10 --warmup-ms 1500 --runs 9 --json -q 2>/dev/null)
    echo "$g $app $(basename $jar) $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.2f %.2f %s"%(d["timeMs"],d["minMs"],d["verified"]))')"
   done
  done
 done
done
