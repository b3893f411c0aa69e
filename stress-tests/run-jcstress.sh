#!/usr/bin/env bash
# Runs the jcstress jar from target/ (jcstress writes result files into the current directory).
# Usage: run-jcstress.sh JAVA TEST_REGEX "JCSTRESS ARGS" "EXTRA JVM ARGS"
# Fails when jcstress reports a FORBIDDEN/ERROR outcome (exit code) or when the regex matched no test
# (jcstress itself exits 0 then).
set -euo pipefail
java_bin=$1; tests=$2; args=$3; jdk_args=${4:-}
fork_args="--add-exports java.base/jdk.internal.misc=ALL-UNNAMED ${jdk_args}"
log=jcstress-output.txt
set +e
# shellcheck disable=SC2086
"$java_bin" ${jdk_args} -jar jcstress.jar -t "$tests" $args -jvmArgsPrepend "$fork_args" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if grep -q "No matching tests" "$log"; then
  echo "run-jcstress: no jcstress test matched '$tests'" >&2
  exit 1
fi
if grep -q "No scheduling is possible" "$log"; then
  echo "run-jcstress: some tests need more actors than this machine has CPUs and were skipped; jcstress" \
       "schedules at most $(nproc) actors here: split them" >&2
  exit 1
fi
if [ "$rc" -ne 0 ]; then
  echo "run-jcstress: jcstress failed (exit $rc): see the FAILED/ERROR sections above and target/results/" >&2
  exit "$rc"
fi
grep "^(Results:" "$log" | tail -1 | sed "s/^/run-jcstress: /" || true
