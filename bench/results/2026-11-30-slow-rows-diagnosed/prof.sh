#!/bin/bash
# prof.sh JAR OUT ARGS... : one JVM under async-profiler (cpu, itimer), flat and collapsed output
J=$1; O=$2; shift 2
java --add-exports java.base/jdk.internal.misc=ALL-UNNAMED -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 \
  -agentpath:/tmp/ap/linux-x64/libasyncProfiler.so=start,event=itimer,interval=100us,file=$O.collapsed,collapsed \
  -jar $J "$@" -q 2>&1 | grep -E "^(timeMs|minMs|iterations|visited|edgesScanned|verified)"
