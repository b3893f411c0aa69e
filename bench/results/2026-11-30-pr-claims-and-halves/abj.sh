#!/usr/bin/env bash
# abj.sh ROUNDS "APP ARGS..." "name=JAR FLAGS" ... : one JVM per variant per round, interleaved
rounds=$1; shift; args=$1; shift
for r in $(seq 1 $rounds); do
  for v in "$@"; do
    name=${v%%=*}; rest=${v#*=}; jar=${rest%% *}; flags=""; [ "$jar" != "$rest" ] && flags=${rest#* }
    out=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 $flags \
      -jar $jar $args --json -q 2>/tmp/ab.err)
    echo "$r $name $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.2f %.2f %s %s"%(d["timeMs"],d["minMs"],d["verified"],d.get("iterations","")))' 2>&1 | tail -1)"
  done
done
