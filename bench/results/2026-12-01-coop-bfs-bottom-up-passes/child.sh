#!/bin/bash
# child.sh GRAPHFILE APP MODE [extra java flags...]: the forked bench-graphs child of one row (as rss-spread/child.sh)
g=$1; app=$2; mode=$3; shift 3
extra=""
[ "$app" = pr ] && extra="--pr-iterations 16 --pr-reference ${PRREF:-/work/scratch/s20/grid-pr-ref.bin}"
exec java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 "$@" \
  -cp ${JAR:-/work/main/bench/target/benchmarks.jar} dev.overlap.bench.graph.GraphComparison --child --quiet --graphs $g --apps $app --impls $mode \
  --warmups 10 --warmup-ms 500 --runs 7 --seed 1 --devices ${DEVICES:-2} --threads ${THREADS:-2} --pr-error 1.0E-5 $extra
