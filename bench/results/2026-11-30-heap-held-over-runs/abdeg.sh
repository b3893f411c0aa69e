#!/bin/bash
# abdeg.sh ROUNDS : kron 20 PageRank on one device (coop, 2 workers), range (identity) against degree-ordered ids,
# Jacobi 13 iterations and Gauss-Seidel to a tolerance, interleaved; one JVM per row
for i in $(seq 1 $1); do
  for s in "--sweep jacobi --iterations 13" "--sweep gauss-seidel --tolerance 2.45e-4"; do
    for p in range degree; do
      java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar new.jar pr --graph /work/scratch/k/kron20w.bcsr --mode coop $s --partition $p --warmups 10 --runs 7 --json 2>&1 | python3 -c "
import json,sys
d=json.load(sys.stdin); print('$(date +%T) ${s%% --*} $p', 'median', d.get('timeMs'), 'min', d.get('minMs'), 'sweeps', d.get('iterations'), 'place', d.get('placeMs'), '|', d.get('verification'))"
    done
  done
done
