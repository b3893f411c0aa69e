#!/bin/bash
# newuser.sh CLONE: issue 19's surfaces as a tired user would use them; each line: the command, its exit code, its last stderr/stdout line
cd $1
d=/work/scratch/s24/nu
printf '0 1\n1 2\n2 x\n' > $d/broken.el
printf '0 1 5\n1 2 -3\n' > $d/negative.wel
printf '0 1\n1 2\n2 3\n' > $d/good.el
mkdir -p $d/emptygap
run() { echo "\$ $*"; "$@" > $d/out.txt 2> $d/err.txt; rc=$?; echo "rc=$rc"; echo "stdout lines: $(wc -l < $d/out.txt); stderr lines: $(wc -l < $d/err.txt)"; tail -2 $d/err.txt; tail -3 $d/out.txt; echo; }
run ./overlap bfs --generate kron:10 --warmups -1
run ./overlap bfs --generate kron:10 --runs 0
run ./overlap pr --generate grid:20x20 --warmups 3 --runs 5
run ./overlap bfs --graph $d/broken.el
run ./overlap sssp --graph $d/negative.wel
run ./overlap sssp --graph $d/good.el --mode coop --warmups 2 --runs 3
run ./overlap bfs --graph $d/missing.el
run ./overlap bfs --generate kron:10 --source 5000
run ./overlap bench-graphs --gap /nonexistent/gapbs --graphs kron:10 --apps bfs --impls solo,gap --out $d/bg1
run ./overlap bench-graphs --gap $d/emptygap --graphs kron:10 --apps bfs --impls solo,gap --out $d/bg2
run ./overlap bench-graphs --graphs bogus:3 --out $d/bg3
run ./overlap bench-graphs --graphs kron:10 --apps bfs,dfs --out $d/bg4
run ./overlap bench-graphs --graphs kron:10 --impls solo,magic --out $d/bg5
run ./overlap bench-graphs --graphs $d/broken.el --apps bfs --impls solo --out $d/bg6
run ./overlap bench-graphs --graphs kron:10 --apps bfs --impls solo,coop,java,gap --gap /work/scratch/gapbs --warmups 1 --runs 3 --out $d/bg7
run ./overlap bench-graphs --threads 3 --devices 2 --graphs kron:10 --out $d/bg8
run ./overlap bfs --generate kron:10 --mode turbo
