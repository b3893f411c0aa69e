#!/usr/bin/env bash
# Runs the jcstress jar from target/ (jcstress writes result files into the current directory).
# Usage: run-jcstress.sh JAVA TEST_REGEX "JCSTRESS ARGS" JVM_MODE ["EXTRA JVM ARGS"]
#   JVM_MODE  all        every JVM configuration jcstress detects (on JDK 17: C2, C2 with randomized stress flags,
#                        C1, interpreter, each with and without biased locking = 8 forks per test). The full run.
#             c2-stress  one configuration: C2 with the C2 stress randomizers (StressLCM/GCM/IGVN/CCP, a random
#                        seed per fork), the mode most likely to expose a reordering; 2 forks per test. CI budget.
#   EXTRA JVM ARGS       flags for the host and every fork (e.g. the JDK 23+ flags of the parent pom); last, because
#                        Maven may drop an empty argument
# Fails when jcstress reports a FORBIDDEN/ERROR outcome (exit code), when the regex matched no test
# (jcstress itself exits 0 then), or when jcstress could not schedule some matching tests on this machine
# (e.g. 3-actor tests on 2 CPUs: jcstress drops them silently and the run would look green).
set -euo pipefail
java_bin=$1; tests=$2; args=$3; mode=${4:-all}; jdk_args=${5:-}
fork_args="--add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${jdk_args}"
case "$mode" in
  all) jvm_opts=(-jvmArgsPrepend "$fork_args") ;;
  c2-stress) jvm_opts=(-jvmArgs "$fork_args -XX:+UnlockDiagnosticVMOptions -XX:-TieredCompilation -XX:+StressLCM \
-XX:+StressGCM -XX:+StressIGVN -XX:+StressCCP") ;;
  *) echo "run-jcstress: unknown JVM_MODE '$mode' (expected all or c2-stress)" >&2; exit 2 ;;
esac
log=jcstress-output.txt
start=$(date +%s)
set +e
# -v makes jcstress print one [OK]/[FAILED]/[ERROR] line (and the outcome table) per test and JVM configuration.
# The whole output goes to target/jcstress-output.txt; the console gets the result lines live and, at the end,
# jcstress' summary (which lists every failed test with its forbidden outcomes and samples).
# shellcheck disable=SC2086
"$java_bin" ${jdk_args} -jar jcstress.jar -v -t "$tests" $args "${jvm_opts[@]}" 2>&1 \
  | tee "$log" | grep --line-buffered -E '^\.+ \[(OK|FAILED|ERROR)\] |Test configuration|preset mode|per fork|per iteration|JVM args|FATAL|No scheduling|No JVM conf'
rc=${PIPESTATUS[0]}
set -e
sed -n '/^RUN RESULTS:/,$p' "$log"
if grep -q "No matching tests" "$log"; then
  echo "run-jcstress: no jcstress test matched '$tests'" >&2
  exit 1
fi
if grep -q "^FATAL" "$log"; then
  echo "run-jcstress: jcstress could not run: $(grep '^FATAL' "$log" | head -1)" >&2
  exit 1
fi
if grep -q "No scheduling is possible" "$log"; then
  grep -B1 "No scheduling is possible" "$log" | sed 's/^/run-jcstress: /' >&2
  echo "run-jcstress: some matching tests need more CPUs than this machine has and did NOT run" >&2
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "run-jcstress: jcstress failed (exit $rc): see the FAILED/ERROR sections above and target/results/" >&2
  exit "$rc"
fi
ok_lines=$(sed '/^RUN RESULTS:/q' "$log" | grep -E '^\.+ \[OK\] ' || true)
echo "run-jcstress: OK: $(printf '%s' "$ok_lines" | grep -c . || true) results (test x JVM configuration) of" \
  "$(printf '%s\n' "$ok_lines" | awk 'NF {print $NF}' | sort -u | wc -l) tests, JVM mode $mode, $(( $(date +%s) - start )) s"
