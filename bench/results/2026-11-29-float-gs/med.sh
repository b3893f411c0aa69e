#!/bin/bash
# med.sh N "label|env|flags" ... : interleaved peak RSS medians (MiB) of child.sh coop pr grid:1000x1000
n=$1; shift
declare -A res
for i in $(seq 1 $n); do
  for spec in "$@"; do
    IFS='|' read -r label envs flags <<< "$spec"
    k=$(env $envs /usr/bin/time -f "%M" ./child.sh ${APPMODE:-coop} ${APP:-pr} ${GRAPH:-grid:1000x1000} $flags 2>&1 >/dev/null | tail -1)
    res[$label]="${res[$label]} $k"
  done
done
for spec in "$@"; do IFS='|' read -r label envs flags <<< "$spec"; echo "$label: $(echo ${res[$label]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1/1024} END{printf "median %.1f  (min %.1f max %.1f)", a[int((NR+1)/2)], a[1], a[NR]}')"; done
