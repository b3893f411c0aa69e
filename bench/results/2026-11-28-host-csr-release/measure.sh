#!/usr/bin/env bash
# measure.sh JAR TAG SPEC... : peak RSS for the apps; output lines "TAG app graph mode xmx rssKB rc verifyLines"
# SPEC is "app graph mode xmx" (xmx: default or an -Xmx value); OPTS (environment) adds JVM flags, e.g. the launcher's
# OPTS="-XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30"
jar=$1; tag=$2; shift 2
run() { # app graph mode xmx
  while [ -e /work/notes/QUIET ]; do sleep 20; done
  local x=(); [ "$4" != default ] && x=(-Xmx$4)
  /usr/bin/time -v -o ${TMPDIR:-/tmp}/gm-t.$$ java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${OPTS:-} "${x[@]}" -jar "$jar" $1 $(case $2 in /*) echo --graph $2 --symmetrize --drop-self-loops --drop-duplicates;; *) echo --generate $2;; esac) --mode $3 --warmups 1 --runs 1 > ${TMPDIR:-/tmp}/gm-out.$$ 2>&1
  local rc=$?
  echo "$tag $1 $2 $3 $4 $(grep 'Maximum resident' ${TMPDIR:-/tmp}/gm-t.$$ | awk '{print $NF}') $rc $(grep -ci 'verif' ${TMPDIR:-/tmp}/gm-out.$$)"
}
for spec in "$@"; do run $spec; done
