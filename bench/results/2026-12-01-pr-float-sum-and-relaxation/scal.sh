#!/bin/bash
# scal.sh JAR TAG THREADS: coop-gs and gap kron 20 pr, one device, THREADS workers / OMP threads
exec java $JF --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -XX:MaxRAMPercentage=50 -Xms64m -XX:MinHeapFreeRatio=10 \
  -XX:MaxHeapFreeRatio=30 -XX:InitiatingHeapOccupancyPercent=90 -XX:-G1UseAdaptiveIHOP -cp $1 \
  dev.overlap.bench.graph.GraphComparison --gap /work/scratch/gapbs --impls ${IMPLS:-coop-gs,gap} --graphs ${G:-/work/scratch/s18/pr1/graphs/kron-20-seed1.el} --apps ${APPS:-pr} \
  --warmups 10 --runs 7 --devices 1 --threads $3 --out /work/scratch/s23/$2
