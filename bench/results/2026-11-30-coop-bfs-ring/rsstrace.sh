#!/bin/bash
# rsstrace.sh JAR ARGS...: samples VmRSS every 5 ms; prints the trace compressed (changes > 2 MiB) and the peak
java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -jar "$@" > /tmp/rss-out.txt 2>&1 &
pid=$!
t0=$(date +%s%N); last=0; peak=0
while kill -0 $pid 2>/dev/null; do
  r=$(awk '/VmRSS/{print $2}' /proc/$pid/status 2>/dev/null)
  [ -z "$r" ] && break
  if [ $r -gt $peak ]; then peak=$r; fi
  d=$(( (r - last) / 1024 )); if [ ${d#-} -ge 2 ]; then echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms: $((r/1024)) MiB"; last=$r; fi
  sleep 0.005
done
echo "peak $((peak/1024)) MiB"
