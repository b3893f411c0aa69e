#!/usr/bin/env bash
# The cost of issue 15's safety (lifetime checks, interruptible waits) on the hot paths, before/after in one run:
# two benchmark jars built from the commit before the change (cc7899a, plus DeviceArrayAccessBenchmark copied in,
# which uses only the public API both versions share) and from the commit measured, run alternately, two rounds
# each, same JMH settings, on an idle machine. Usage: run.sh BEFORE.jar AFTER.jar OUT_DIR [quick]
# The second form (any fourth argument) is the focused re-run of the queue, remote-operation and launch benchmarks
# with three forks, whose single-fork figures in the first run varied by more than the 3% asked of the change.
set -euo pipefail
before=$1; after=$2; out=$3
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
forks=1; [ $# -ge 4 ] && forks=3
flags=(-foe true -wi 3 -w 1s -i 5 -r 1s -jvmArgsAppend "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED")
run() { # jar label round pattern [params...]
  local jar=$1 label=$2 round=$3 pattern=$4; shift 4
  java -Djava.io.tmpdir="$tmp" -jar "$jar" "$pattern" -f "$forks" "${flags[@]}" "$@" -rf json \
    -rff "$out/$label-r$round-$(echo "$pattern" | tr -c 'A-Za-z0-9' '_').json" > "$out/$label-r$round.log" 2>&1
}
uptime | tee "$out/load.txt"
for round in 1 2; do
  for side in before after; do
    jar=$before; [ "$side" = after ] && jar=$after
    if [ $# -lt 4 ]; then
      run "$jar" "$side" "$round" 'DeviceArrayAccessBenchmark'
      run "$jar" "$side" "$round" 'QueueThroughputBenchmark' -p impl=counterRing,counterRingQueue,jctoolsMpmc
      run "$jar" "$side" "$round" 'RemoteOpsBenchmark'
      run "$jar" "$side" "$round" 'LaunchOverheadBenchmark.overlapLaunchJoin' -p threads=1
    else
      run "$jar" "$side" "$round" 'QueueThroughputBenchmark' -p impl=counterRing,counterRingQueue,jctoolsMpmc
      run "$jar" "$side" "$round" 'RemoteOpsBenchmark'
      run "$jar" "$side" "$round" 'LaunchOverheadBenchmark.overlapLaunchJoin' -p threads=1
    fi
  done
done
uptime | tee -a "$out/load.txt"
