#!/bin/bash
# child3.sh MODE APP GRAPH [java flags]: as child.sh, java flags from JFLAGS too
mode=$1; app=$2; g=$3; shift 3
exec java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 $JFLAGS "$@" \
  -cp ${JAR:-/work/main/bench/target/benchmarks.jar} dev.overlap.bench.graph.GraphComparison --child --quiet --graphs $g --apps $app \
  --impls $mode --warmups ${W:-5} --runs ${R:-5} --seed 1 --devices 2 --threads 2 --pr-iterations 16 --pr-error 1e-5 ${PRREF:+--pr-reference $PRREF}
