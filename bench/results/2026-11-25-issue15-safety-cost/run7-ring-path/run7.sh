#!/usr/bin/env bash
# The ring path of RemoteOps (policy=NEVER): before, after (ee1ebdf), and the fix (a waiting sender samples the
# destination's consumer position and the clock once every 64 idle rounds, not on every round and at every wait's
# start); interleaved, three rounds of three forks.
set -e
cd /work/baseline/jmh7
uptime > load.txt
for r in 1 2 3; do for side in before after-ee1ebdf fix; do
java -Djava.io.tmpdir=/tmp/jmh5tmp -jar /work/baseline/benchmarks-$side.jar 'RemoteOpsBenchmark.(atomicAdd|put8|getLong)' -p policy=NEVER -f 3 -foe true -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED" -rf json -rff ${side%%-*}-r$r-RemoteOps.json > ${side%%-*}-r$r.log 2>&1
done; done
uptime >> load.txt
touch /tmp/jmh-done
