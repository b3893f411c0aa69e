package dev.overlap.core;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Factories of Agrona idle strategies for device workers and transport threads, and the default that degrades
 * gracefully when busy threads outnumber cores. Stateless; thread-safe. Each supplier returns a new strategy per
 * call, since strategies such as backoff keep per-thread state.
 *
 * <p>Why the default matters: a thread that busy-spins while the thread it waits for is descheduled burns the
 * very core that thread needs (the classic OpenMP-under-load slowdown). With spare cores, the default spins
 * briefly before yielding and parking; oversubscribed, it yields almost at once and parks after a few rounds.
 */
public final class IdleStrategies {
    private IdleStrategies() {
    }

    /**
     * @param busyThreads threads that will poll concurrently (devices x workers, plus helpers)
     * @return the default for that many threads on this machine
     */
    public static Supplier<IdleStrategy> defaultFor(final int busyThreads) {
        final int cores = Runtime.getRuntime().availableProcessors();
        if (busyThreads <= cores) {
            return () -> new BackoffIdleStrategy(256, 64, 1_000, 100_000);
        }
        return () -> new BackoffIdleStrategy(8, 8, 1_000, 100_000);
    }

    /**
     * Parses a strategy name: {@code spin}, {@code noop}, {@code yield}, {@code backoff}, {@code sleep} or
     * {@code sleep:<micros>}.
     *
     * @param name the name (case-insensitive)
     * @return a supplier of new instances
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Supplier<IdleStrategy> parse(final String name) {
        final String n = name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "spin":
                return BusySpinIdleStrategy::new;
            case "noop":
                return () -> NoOpIdleStrategy.INSTANCE;
            case "yield":
                return YieldingIdleStrategy::new;
            case "backoff":
                return BackoffIdleStrategy::new;
            case "sleep":
                return () -> new SleepingIdleStrategy(50_000);
            default:
                if (n.startsWith("sleep:")) {
                    final long micros;
                    try {
                        micros = Long.parseLong(n.substring("sleep:".length()));
                    } catch (final NumberFormatException e) {
                        throw new IllegalArgumentException("idle strategy '" + name + "': sleep period must be whole"
                            + " microseconds, e.g. sleep:100");
                    }
                    if (micros <= 0) {
                        throw new IllegalArgumentException("idle strategy '" + name + "': sleep period must be > 0");
                    }
                    return () -> new SleepingIdleStrategy(micros * 1000);
                }
                throw new IllegalArgumentException("unknown idle strategy '" + name
                    + "': expected spin, noop, yield, backoff, sleep or sleep:<micros>");
        }
    }
}
