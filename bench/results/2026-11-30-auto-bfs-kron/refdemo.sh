#!/bin/bash
# usage: refdemo.sh N label [java opts...]; prints each row's graph, mode and time, one line per JVM
n=$1; label=$2; shift 2
for i in $(seq $n); do
  OVERLAP_JAVA_OPTS="$*" /work/main/overlap demo --apps ${APPS:-bfs} --modes ${MODES:-solo} --graphs ${GRAPHS:-kron:16,grid:512x512} -q 2>&1 \
   | awk -F'  +' -v l="$label" '/^(bfs|pr|sssp) / {printf "%s/%s/%s %s  ", $1, $2, $3, $5} END {print l}'
done
