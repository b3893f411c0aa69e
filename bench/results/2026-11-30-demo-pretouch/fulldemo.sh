#!/bin/bash
# usage: fulldemo.sh label [java opts...]: the default demo, its rows' times and the JVM's peak RSS and wall time
label=$1; shift
OVERLAP_JAVA_OPTS="$*" /usr/bin/time -f "%M KB %e s" /work/main/overlap demo -q > out-$label-$$.txt 2> time-$label-$$.txt
awk -F'  +' -v l="$label" '/^(bfs|pr|sssp|jacobi) / {printf "%s/%s/%s %s  ", $1, $2, $3, $5} END {printf "%s", l}' out-$label-$$.txt
echo " $(tail -1 time-$label-$$.txt)"
