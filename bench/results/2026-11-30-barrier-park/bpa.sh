#!/usr/bin/env bash
# bpa.sh ROUNDS GRAPH APP VALUES... : one JVM per line, barrier park-after values interleaved (old jar as "old")
rounds=$1; g=$2; app=$3; shift 3
for r in $(seq 1 $rounds); do
  for v in "$@"; do
    if [ $v = old ]; then jar=old.jar; p=""; else jar=bpa.jar; p="-Doverlap.bpa=$v"; fi
    out=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 $p \
      -jar $jar $app --generate $g --mode coop --devices 1 --threads-per-device 2 --warmups 10 --warmup-ms 1500 --runs 9 --json -q 2>/dev/null)
    echo "$g $app $v $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.2f %.2f %s"%(d["timeMs"],d["minMs"],d["verified"]))')"
  done
done
