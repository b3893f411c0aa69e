#!/bin/bash
# gapab.sh JAR OUT GRAPH APPS IMPLS: one bench-graphs run with GAP, flags as ./overlap's
exec java $JF --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -Xms64m -XX:MinHeapFreeRatio=10 \
  -XX:MaxHeapFreeRatio=30 -XX:InitiatingHeapOccupancyPercent=90 -XX:-G1UseAdaptiveIHOP -cp $1 \
  dev.overlap.bench.graph.GraphComparison --gap /work/scratch/gapbs --impls ${5:-coop,gap} --graphs $3 --apps $4 \
  --warmups 10 --runs 7 --out $2
