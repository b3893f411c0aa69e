#!/usr/bin/env bash
set -e
uptime > load.txt
for r in 1 2 3; do for side in before after-ee1ebdf; do
java -Djava.io.tmpdir=/tmp/jmh5tmp -jar /work/baseline/benchmarks-$side.jar 'LaunchOverheadBenchmark.overlapLaunchJoin' -p threads=1 -f 3 -foe true -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED" -rf json -rff ${side%%-*}-r$r-LaunchOverheadBenchmark_overlapLaunchJoin_.json > ${side%%-*}-r$r.log 2>&1
done; done
uptime >> load.txt
touch /tmp/jmh-done
