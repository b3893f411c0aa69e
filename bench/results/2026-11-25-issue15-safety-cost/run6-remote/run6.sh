#!/usr/bin/env bash
# RemoteOps rows whose cost the focused runs could not settle: the direct paths (code identical before and after)
# and the ring paths that showed bimodal forks; more forks, three rounds, interleaved.
set -e
cd /work/baseline/jmh5
while pgrep -f run5.sh > /dev/null; do sleep 5; done
rm -f /tmp/jmh-done
uptime >> load6.txt
for r in 1 2 3; do for side in before after-ee1ebdf; do
java -Djava.io.tmpdir=/tmp/jmh5tmp -jar /work/baseline/benchmarks-$side.jar 'RemoteOpsBenchmark.(atomicAdd|put256|put8)' -f 3 -foe true -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED" -rf json -rff remote/${side%%-*}-r$r-RemoteOps.json > remote/${side%%-*}-r$r.log 2>&1
done; done
uptime >> load6.txt
touch /tmp/jmh-done
