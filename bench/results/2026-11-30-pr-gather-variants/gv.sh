#!/usr/bin/env bash
# gv.sh ROUNDS VARIANTS...: coop Gauss-Seidel PageRank on kron 20 (file), gather variant per JVM, interleaved
rounds=$1; shift
G=/work/scratch/s18/pr1/graphs/kron-20-seed1.el
for r in $(seq 1 $rounds); do
  for v in "$@"; do
    out=$(java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -Xms64m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -Dgv=$v \
      -jar /work/scratch/s18/gv.jar pr --graph $G --symmetrize --drop-self-loops --drop-duplicates --mode coop --sweep gauss-seidel \
      --tolerance 2.44e-4 --devices 1 --threads-per-device 2 --warmups 10 --runs 9 --json -q 2>/dev/null)
    echo "gv=$v $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.1f %.1f it=%d %s"%(d["timeMs"],d["minMs"],d["iterations"],d["verified"]))')"
  done
done
