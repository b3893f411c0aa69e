#!/bin/bash
# gapab.sh JAR OUT GRAPH APPS [IMPLS]: one bench-graphs run with the GAP peer, with ./overlap's JVM flags, from a copy
# JAR of bench/target/benchmarks.jar (so two commits can be interleaved). GAP: the GAP suite's build (default below);
# JF: extra JVM flags (none by default).
exec java $JF --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -Xms64m \
  -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:InitiatingHeapOccupancyPercent=90 -XX:-G1UseAdaptiveIHOP \
  -cp "$1" dev.overlap.bench.graph.GraphComparison --gap "${GAP:-/work/scratch/gapbs}" --impls "${5:-coop,gap}" \
  --graphs "$3" --apps "$4" --warmups 10 --runs 7 --out "$2"
