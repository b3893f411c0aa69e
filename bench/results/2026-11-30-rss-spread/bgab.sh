#!/bin/bash
# two interleaved pairs of bench-graphs against GAP: G1 (the launcher's default) and -XX:+UseSerialGC
cd /work/main
for i in 1 2; do
  for c in g1 serial; do
    opts=""; [ $c = serial ] && opts="-XX:+UseSerialGC"
    echo "$(date -u +%H:%M:%S) start $c $i" >> /work/scratch/s17/bgab.log
    OVERLAP_JAVA_OPTS="$opts" ./overlap bench-graphs --gap /work/scratch/gapbs --impls solo,coop,coop-gs,java,gap \
      --graphs grid:1000x1000,kron:20 --warmups 10 --runs 7 --out /work/scratch/s17/bg-$c-$i > /work/scratch/s17/bg-$c-$i.log 2>&1
    echo "$(date -u +%H:%M:%S) end $c $i rc=$?" >> /work/scratch/s17/bgab.log
  done
done
