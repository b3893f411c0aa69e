#!/bin/bash
# cmp.sh DIR...: per row, the median ms, time/gap and rss-idle/gap of each run side by side
for d in "$@"; do grep "^| grid\|^| kron" $d/comparison.md | grep "overlap\|gap  " | awk -F'|' -v d=$d '{gsub(/ +/," "); printf "%s|%s|%s|%s %s %s %s\n", $2,$3,$4, d, $6, $12, $13}'; done | sort -t'|' -k1,3 -s | awk -F'|' '{k=$1"|"$2"|"$3; a[k]=a[k]"   "$4} END {for (k in a) print k a[k]}' | sort
grep -h "idle JVM" "$@"/comparison.md 2>/dev/null | grep -o "An idle JVM[^.]*"
