#!/bin/bash
# bgab.sh TAG...: one whole comparison against GAP per tag, interleaved, from a copy of the jar (JAR), with the
# launcher's flags for bench-graphs: base, or ihop (+ -XX:InitiatingHeapOccupancyPercent=90 -XX:-G1UseAdaptiveIHOP)
cd /work/main
jar=${JAR:-/work/scratch/s20/new.jar}
for t in "$@"; do
  case $t in base*) o="";; ihop*) o="-XX:InitiatingHeapOccupancyPercent=90 -XX:-G1UseAdaptiveIHOP";; esac
  echo "== $t $(date -u +%T) $(uptime)"
  java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 $o \
    -cp $jar dev.overlap.bench.graph.GraphComparison --gap /work/scratch/gapbs --impls ${IMPLS:-solo,coop,coop-gs,java,gap} \
    --graphs ${GRAPHS:-grid:1000x1000,kron:20} --warmups 10 --runs 7 --out bg-$t > /work/scratch/s20/bg-$t.log 2>&1
  echo "rc=$?"
done
