#!/bin/bash
# child.sh GRAPH APP MODE [extra java flags...]: the forked bench-graphs child of one row (as rss-spread's)
g=$1; app=$2; mode=$3; shift 3
exec java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:InitiatingHeapOccupancyPercent=90 -XX:-G1UseAdaptiveIHOP "$@" \
  -cp ${JAR:-/work/scratch/s24/sl/base.jar} dev.overlap.bench.graph.GraphComparison --child --quiet --graphs $g --apps $app --impls $mode \
  --warmups 5 --warmup-ms 500 --runs 5 --seed 1 --devices 2 --threads 2 --pr-error 1.0E-5
