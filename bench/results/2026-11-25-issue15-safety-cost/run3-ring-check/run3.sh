#!/usr/bin/env bash
set -e
for r in 1 2 3; do for side in before after variant; do
java -Djava.io.tmpdir=/tmp -jar /work/baseline/benchmarks-$side.jar 'QueueThroughputBenchmark' -p impl=counterRing -f 2 -foe true -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED" -rf json -rff $side-r$r.json > $side-r$r.log 2>&1
done; done
uptime > load.txt
