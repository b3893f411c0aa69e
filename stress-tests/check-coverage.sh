#!/usr/bin/env bash
# Every concurrent class must be named by at least one jcstress test (DESIGN.md, "Quality bars").
# A main-source class counts as concurrent when its source matches either pattern:
#   atomics      VarHandles, java.util.concurrent atomics, compareAndSet or getAndAdd (anywhere in the file, as before);
#   sync         in code (comment lines left out): a volatile field, LockSupport park/unpark, synchronized (methods and
#                blocks: a monitor guarding state that several threads reach), Object wait/notify, release/acquire/
#                volatile accesses (VarHandle-style setRelease/getAcquire..., Agrona putLongRelease/getIntVolatile...),
#                atomic read-modify-writes (getAndSet, incrementAndGet...), Agrona's concurrent types (array queues, ring
#                buffers, broadcast, AgentRunner, atomic counters) and java.util.concurrent locks, synchronizers,
#                concurrent collections and executors.
# It is covered when its simple name appears as a word in a stress-tests source file that holds a @JCStressTest.
# Exceptions live in coverage-exclusions.txt, one per line with the reason. Fails listing the uncovered classes, and
# fails on an exclusion that names no such class (or one that a test now covers), so the list cannot rot.
# Usage: bash stress-tests/check-coverage.sh [--list]   (--list prints every concurrent class and what makes it one)
set -euo pipefail
cd "$(dirname "$0")/.."
atomics='VarHandle|AtomicLong|AtomicInteger|compareAndSet|getAndAdd'
sync='\bvolatile\b|\bLockSupport\.(park|unpark)|\bsynchronized\b|\.(wait|notify|notifyAll)\(|'\
'\b(set|get)(Release|Acquire|Opaque|Volatile)\b|\b(put|get)(Int|Long|Double)(Volatile|Release|Acquire|Ordered)\b|'\
'\b(getAndSet|getAndIncrement|getAndDecrement|incrementAndGet|decrementAndGet|addAndGet)\b|'\
'\b(ManyToMany|ManyToOne|OneToOne)Concurrent(Array|Linked)Queue\b|\b(ManyToOne|OneToOne)RingBuffer\b|'\
'\bBroadcast(Transmitter|Receiver)\b|\bAgentRunner\b|\b(AtomicCounter|ConcurrentCountersManager)\b|'\
'\b(ReentrantLock|ReentrantReadWriteLock|StampedLock|Semaphore|CountDownLatch|CyclicBarrier|Phaser|Exchanger)\b|'\
'\b(ConcurrentHashMap|ConcurrentLinkedQueue|ConcurrentLinkedDeque|ConcurrentSkipListMap|ConcurrentSkipListSet)\b|'\
'\b(CopyOnWriteArrayList|CopyOnWriteArraySet|ArrayBlockingQueue|LinkedBlockingQueue|LinkedBlockingDeque)\b|'\
'\b(PriorityBlockingQueue|LinkedTransferQueue|SynchronousQueue|DelayQueue|ExecutorService|ForkJoinPool)\b|'\
'\bCompletableFuture\b'
exclusions=stress-tests/coverage-exclusions.txt
list=false
[ "${1:-}" = "--list" ] && list=true
mapfile -t tests < <(grep -rl --include='*.java' '@JCStressTest' stress-tests/src/main/java | sort)
# Code lines only for the sync pattern: a comment that says "volatile" or "synchronized" makes no class concurrent.
# (Kept in a variable, not piped into grep -q: with pipefail, grep -q closing the pipe early would read as no match.)
code_of() {
  grep -vE '^[[:space:]]*(\*|//|/\*)' "$1" | sed 's|//.*$||'
}
concurrent=()
while IFS= read -r f; do
  why=
  code=$(code_of "$f")
  if grep -qE "$atomics" "$f"; then
    why=atomics
  elif grep -qE "$sync" <<<"$code"; then
    why="sync: $(grep -oE "$sync" <<<"$code" | sort -u | tr '\n' ' ')"
  fi
  if [ -n "$why" ]; then
    concurrent+=("$f")
    $list && printf '%-40s %s\n' "$(basename "$f" .java)" "$why"
  fi
done < <(find ./*/src/main/java -name '*.java' ! -name package-info.java | sed 's|^\./||' \
  | grep -v '^stress-tests/' | sort)
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
all_concurrent=$(printf '%s\n' "${concurrent[@]}")
for cls in $excluded; do
  if ! grep -q "/$cls\.java$" <<<"$all_concurrent"; then
    echo "check-coverage: $exclusions names $cls, which is not a concurrent main class: drop the exclusion" >&2
    status=1
  fi
done
echo "check-coverage: ${covered} concurrent classes named by jcstress tests, $(grep -c . <<<"$excluded") excluded" \
  "(${exclusions}), ${#tests[@]} jcstress test files"
exit "$status"
