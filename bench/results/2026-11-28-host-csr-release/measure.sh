#!/usr/bin/env bash
# measure.sh JAR TAG : peak RSS for the apps; output lines "TAG app graph mode xmx rssKB rc"
jar=$1; tag=$2; shift 2
run() { # app graph mode xmx
  while [ -e /work/notes/QUIET ]; do sleep 20; done
  local x=(); [ "$4" != default ] && x=(-Xmx$4)
  /usr/bin/time -v -o /tmp/gm/t.$$ java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED "${x[@]}" -jar "$jar" $1 $(case $2 in /*) echo --graph $2 --symmetrize --drop-self-loops --drop-duplicates;; *) echo --generate $2;; esac) --mode $3 --warmups 1 --runs 1 > /tmp/gm/out.$$ 2>&1
  local rc=$?
  echo "$tag $1 $2 $3 $4 $(grep 'Maximum resident' /tmp/gm/t.$$ | awk '{print $NF}') $rc $(grep -ci 'verif' /tmp/gm/out.$$)"
}
for spec in "$@"; do run $spec; done
