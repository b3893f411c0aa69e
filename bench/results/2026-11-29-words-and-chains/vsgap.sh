#!/bin/bash
# interleaved rounds: overlap coop (median of 7 after 3 warm-ups, its own JVM) then GAP (2 threads, 7 trials, mean)
# on one .wel file (bench-graphs' kron 20), both symmetrized. usage: vsgap.sh ROUNDS APP
W=bench-graphs kron:20 file (--keep-graph-files)
J=/work/scratch/k/new.jar
for i in $(seq 1 $1); do
  case $2 in
    sssp) o=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $J sssp --graph $W --symmetrize --drop-self-loops --drop-duplicates --source 80421 --mode coop --devices 1 --threads-per-device 2 --warmups 3 --runs 7 2>&1 | grep -E "^(timeMs|verified)" | tr -s ' ' | tr '\n' ' ')
          g=$(OMP_NUM_THREADS=2 /work/scratch/gapbs/sssp -f $W -s -r 80421 -d 2 -n 7 2>&1 | grep Average);;
    bfs)  o=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $J bfs --graph $W --symmetrize --drop-self-loops --drop-duplicates --source 80421 --mode coop --devices 1 --threads-per-device 2 --warmups 20 --runs 7 2>&1 | grep -E "^(timeMs|verified)" | tr -s ' ' | tr '\n' ' ')
          g=$(OMP_NUM_THREADS=2 /work/scratch/gapbs/bfs -f $W -s -r 80421 -n 7 2>&1 | grep Average);;
    pr)   o=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar $J pr --graph $W --symmetrize --drop-self-loops --drop-duplicates --mode coop --sweep gauss-seidel --tolerance 2.4e-4 --devices 1 --threads-per-device 2 --warmups 3 --runs 7 2>&1 | grep -E "^(timeMs|iterations|verified)" | tr -s ' ' | tr '\n' ' ')
          g=$(OMP_NUM_THREADS=2 /work/scratch/gapbs/pr -f $W -s -t 2.47e-05 -i 1000 -n 7 2>&1 | grep Average);;
  esac
  echo "$(date +%H:%M:%S) $2 overlap-coop $o | gap $g"
done
