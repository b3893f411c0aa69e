package dev.overlap.queues;

import java.util.Queue;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The only consumer's lap in JCTools' {@code testPeekAfterIsEmpty1..3} and {@code testPollAfterIsEmpty1..3}: when
 * {@code isEmpty()} says false, or {@code size()} is not zero, the consumer's next strict {@code peek()} or
 * {@code poll()} finds an element (nobody else takes one). Shared by {@link QueueSanityConformanceTest} (producers
 * offer) and {@link MpqSanityConformanceTest} (producers use every MPQ push form), as JCTools runs the same six
 * laps in both of its suites.
 */
enum EmptinessCheck {
    /** JCTools' {@code testPeekAfterIsEmpty1}: not empty, so the only consumer's peek finds an element. */
    PEEK_AFTER_NOT_IS_EMPTY {
        @Override
        void lap(final Queue<Integer> q) {
            if (!q.isEmpty()) {
                assertNotNull(q.peek(), "isEmpty() said false, then the only consumer's peek() found nothing");
            }
            q.poll();
        }
    },
    /** JCTools' {@code testPeekAfterIsEmpty2}: as 1, the poll first (can a consumer pass the producer?). */
    PEEK_AFTER_POLL_AND_NOT_IS_EMPTY {
        @Override
        void lap(final Queue<Integer> q) {
            q.poll();
            if (!q.isEmpty()) {
                assertNotNull(q.peek(), "isEmpty() said false, then the only consumer's peek() found nothing");
            }
        }
    },
    /** JCTools' {@code testPeekAfterIsEmpty3}: as 2, with {@code size()}. */
    PEEK_AFTER_POLL_AND_NON_ZERO_SIZE {
        @Override
        void lap(final Queue<Integer> q) {
            q.poll();
            final int size = q.size();
            if (size != 0) {
                assertNotNull(q.peek(), "size() said " + size + ", then the only consumer's peek() found nothing");
            }
        }
    },
    /** JCTools' {@code testPollAfterIsEmpty1}: not empty, so the only consumer's poll finds an element. */
    POLL_AFTER_NOT_IS_EMPTY {
        @Override
        void lap(final Queue<Integer> q) {
            if (!q.isEmpty()) {
                assertNotNull(q.poll(), "isEmpty() said false, then the only consumer's poll() found nothing");
            }
        }
    },
    /** JCTools' {@code testPollAfterIsEmpty2}. */
    POLL_AFTER_POLL_AND_NOT_IS_EMPTY {
        @Override
        void lap(final Queue<Integer> q) {
            q.poll();
            if (!q.isEmpty()) {
                assertNotNull(q.poll(), "isEmpty() said false, then the only consumer's poll() found nothing");
            }
        }
    },
    /** JCTools' {@code testPollAfterIsEmpty3}. */
    POLL_AFTER_POLL_AND_NON_ZERO_SIZE {
        @Override
        void lap(final Queue<Integer> q) {
            q.poll();
            final int size = q.size();
            if (size != 0) {
                assertNotNull(q.poll(), "size() said " + size + ", then the only consumer's poll() found nothing");
            }
        }
    };

    /** One lap of the only consumer; fails at the first wrong observation. */
    abstract void lap(Queue<Integer> q);

    /** Every check against every concurrent subject ({@link ConformanceSubject#concurrent()}). */
    static Stream<Arguments> concurrentCases() {
        return ConformanceSubject.concurrent()
            .flatMap(s -> Stream.of(values()).map(check -> Arguments.of(s, check)));
    }
}
