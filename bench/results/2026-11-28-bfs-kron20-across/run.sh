#!/usr/bin/env bash
# kron:20 BFS: one JVM (2 devices), two processes (launch -n 2), two loopback hosts (node, 1 device each); alternated.
set -uo pipefail
cd /work/main
out=${OUT:-runs}; mkdir -p $out
G="--generate kron:20 --threads-per-device 1 --warmups 5 --runs 5"
for r in 1 2 3; do
  ./overlap bfs $G --devices 2 --mode async --json > $out/one-r$r.json 2> $out/one-r$r.err
  ./overlap bfs $G --devices 2 --mode async --direction top-down --json > $out/onetd-r$r.json 2> $out/onetd-r$r.err
  ./overlap launch -n 2 bfs $G --devices 2 --mode async --json > $out/launch-r$r.json 2> $out/launch-r$r.err
  ./overlap node --hosts hosts.txt --rank 1 bfs $G --devices 1 > $out/node1-r$r.out 2> $out/node1-r$r.err &
  p=$!
  ./overlap node --hosts hosts.txt --rank 0 bfs $G --devices 1 --json > $out/node0-r$r.json 2> $out/node0-r$r.err
  wait $p
  echo "round $r done $(date +%T) $(uptime)"
done
