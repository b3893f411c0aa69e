#!/usr/bin/env bash
# The JMH report command, normally run as `./overlap bench ...` from the repository root:
#   ./overlap bench [--quick|--full] [--include REGEX]... [--out DIR] [--baseline OLD.json] [--dry-run] [-- JMH args]
#       runs the JMH suite of bench (JSON results, -foe true, one JMH invocation per benchmark class), then writes
#       the report folder (report.md, report.html, charts/*.svg, results.json, run.json); default --quick.
#   ./overlap bench report [--out DIR] [--baseline OLD.json] RESULT.json...
#       writes the report from existing JMH JSON.
# Builds bench/target/benchmarks.jar on first use or when sources changed; the generator runs from that jar
# (dev.overlap.bench.report.ReportMain). JMH's lock file goes to a private tmpdir (bench/target/jmh-tmp).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar="$root/bench/target/benchmarks.jar"
java_bin=${JAVA_HOME:+$JAVA_HOME/bin/}java
if [ ! -f "$jar" ] || [ -n "$(find "$root" -path "$root/*/target" -prune -o \( -name '*.java' -o -name pom.xml \) -newer "$jar" -print -quit)" ]; then
  echo "overlap bench: building bench/target/benchmarks.jar (first use or sources changed)..." >&2
  (cd "$root" && mvn -B -q -DskipTests -Djcstress.skip=true -Djmh.smoke.skip=true -Doverlap.docs.skip=true -pl bench -am package) >&2
fi
jdk_flags=()
if "$java_bin" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q UseCompactObjectHeaders; then
  jdk_flags+=(--sun-misc-unsafe-memory-access=allow --enable-native-access=ALL-UNNAMED)
fi
case "${1:-}" in
  run|report|help|--version|-V) ;;
  -h|--help) set -- run --help ;;
  *) set -- run "$@" ;;
esac
tmp="$root/bench/target/jmh-tmp"
mkdir -p "$tmp"
# JMH forks inherit this JVM's flags (the benchmarks' @Fork adds --add-exports): keep them few, they are reported.
OVERLAP_ROOT="$root" exec "$java_bin" "${jdk_flags[@]}" -Djava.io.tmpdir="$tmp" ${OVERLAP_JAVA_OPTS:-} \
  -cp "$jar" dev.overlap.bench.report.ReportMain "$@"
