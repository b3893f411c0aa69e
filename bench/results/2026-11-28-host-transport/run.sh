#!/usr/bin/env bash
# The host transport over Aeron UDP against raw Aeron UDP and IPC (issue 18), one JMH run in a quiet window.
# Usage, from the repository root: bash bench/results/2026-11-28-host-transport/run.sh OUT_DIR
# Builds bench's jar (offline, no tests, no smoke pass), records the load and the commit, runs
# HostTransportBenchmark with its own settings (1 fork, 3 x 1 s warm-up, 5 x 1 s measurement), writes JMH's JSON
# and log, and prints the table (summarize.py).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUT_DIR}
mkdir -p "$out"
mvn -B -o -q -pl bench -am package -DskipTests -Djcstress.skip=true -Djmh.smoke.skip=true
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
{ date -u; git rev-parse --short HEAD; git status --short | head; uptime; } > "$out/run-info.txt"
java -Djava.io.tmpdir="$tmp" -jar bench/target/benchmarks.jar HostTransportBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s \
    -foe true -rf json -rff "$out/results.json" > "$out/jmh.log" 2>&1
uptime >> "$out/run-info.txt"
ls /dev/shm | grep -c overlap-hosts-bench >> "$out/run-info.txt" || true  # driver directories left: must be 0
python3 "$here/summarize.py" "$out/results.json"
