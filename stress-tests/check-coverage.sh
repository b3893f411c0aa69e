#!/usr/bin/env bash
# Every concurrent class must be named by at least one jcstress test (DESIGN.md, "Quality bars").
# A main-source class counts as concurrent when it uses VarHandles, java.util.concurrent atomics, compareAndSet or
# getAndAdd (the same rough test as the project's before-stop check); it is covered when its simple name appears as
# a word in a stress-tests source file that holds a @JCStressTest. Exceptions live in coverage-exclusions.txt, one
# per line with the reason. Fails listing the uncovered classes, and fails on an exclusion that names no such class
# (or one that a test now covers), so the list cannot rot. Usage: bash stress-tests/check-coverage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='VarHandle|AtomicLong|AtomicInteger|compareAndSet|getAndAdd'
exclusions=stress-tests/coverage-exclusions.txt
mapfile -t tests < <(grep -rl --include='*.java' '@JCStressTest' stress-tests/src/main/java | sort)
mapfile -t concurrent < <(grep -rlE --include='*.java' "$pattern" ./*/src/main/java | sed 's|^\./||' \
  | grep -v '^stress-tests/' | grep -v '/package-info\.java$' | sort)
excluded=$(grep -vE '^[[:space:]]*(#|$)' "$exclusions" | awk '{print $1}')
status=0
covered=0
for f in "${concurrent[@]}"; do
  cls=$(basename "$f" .java)
  if grep -qw -- "$cls" "${tests[@]}"; then
    covered=$((covered + 1))
    if grep -qx -- "$cls" <<<"$excluded"; then
      echo "check-coverage: $cls is excluded in $exclusions but a jcstress test names it: drop the exclusion" >&2
      status=1
    fi
  elif ! grep -qx -- "$cls" <<<"$excluded"; then
    echo "check-coverage: no jcstress test names the concurrent class $cls ($f)" >&2
    status=1
  fi
done
for cls in $excluded; do
  if ! printf '%s\n' "${concurrent[@]}" | grep -q "/$cls\.java$"; then
    echo "check-coverage: $exclusions names $cls, which is not a concurrent main class: drop the exclusion" >&2
    status=1
  fi
done
echo "check-coverage: ${covered} concurrent classes named by jcstress tests, $(grep -c . <<<"$excluded") excluded" \
  "(${exclusions}), ${#tests[@]} jcstress test files"
exit "$status"
