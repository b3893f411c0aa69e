package dev.overlap.core;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.lang.reflect.Constructor;
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

    /** The names {@link #parse} accepts besides class names: Agrona's {@code ALIAS} constants. */
    public static final String ALIASES = BusySpinIdleStrategy.ALIAS + ", " + NoOpIdleStrategy.ALIAS + ", "
        + YieldingIdleStrategy.ALIAS + ", " + SleepingIdleStrategy.ALIAS + ", " + SleepingMillisIdleStrategy.ALIAS
        + ", " + BackoffIdleStrategy.ALIAS;

    /**
     * Names an idle strategy the way Aeron's media driver does ({@code io.aeron.driver.Configuration
     * .agentIdleStrategy}): one of Agrona's aliases, {@value BusySpinIdleStrategy#ALIAS}
     * ({@link BusySpinIdleStrategy}), {@value NoOpIdleStrategy#ALIAS} ({@link NoOpIdleStrategy}),
     * {@value YieldingIdleStrategy#ALIAS} ({@link YieldingIdleStrategy}), {@value SleepingIdleStrategy#ALIAS}
     * ({@link SleepingIdleStrategy}, its default period), {@value SleepingMillisIdleStrategy#ALIAS}
     * ({@link SleepingMillisIdleStrategy}, its default period), {@value BackoffIdleStrategy#ALIAS}
     * ({@link BackoffIdleStrategy}, its default parameters), or the fully qualified name of a class that implements
     * {@link IdleStrategy} and has a public no-argument constructor. Aliases are matched ignoring case; a class name
     * exactly. No other vocabulary: a strategy with other parameters is given as a {@code Supplier} to the builders.
     *
     * @param name an alias or a class name
     * @return a supplier of new instances (the stateless {@link NoOpIdleStrategy#INSTANCE} for {@code noop})
     * @throws IllegalArgumentException naming the name and the accepted aliases when it is neither an alias nor a
     *                                  loadable idle strategy class
     */
    public static Supplier<IdleStrategy> parse(final String name) {
        final String n = name.trim();
        switch (n.toLowerCase(Locale.ROOT)) {
            case BusySpinIdleStrategy.ALIAS:
                return BusySpinIdleStrategy::new;
            case NoOpIdleStrategy.ALIAS:
                return () -> NoOpIdleStrategy.INSTANCE;
            case YieldingIdleStrategy.ALIAS:
                return YieldingIdleStrategy::new;
            case SleepingIdleStrategy.ALIAS:
                return SleepingIdleStrategy::new;
            case SleepingMillisIdleStrategy.ALIAS:
                return SleepingMillisIdleStrategy::new;
            case BackoffIdleStrategy.ALIAS:
                return BackoffIdleStrategy::new;
            default:
                return byClassName(n);
        }
    }

    private static Supplier<IdleStrategy> byClassName(final String name) {
        final String accepted = ": expected one of " + ALIASES + ", or the fully qualified name of an IdleStrategy "
            + "class with a public no-argument constructor";
        final Constructor<? extends IdleStrategy> constructor;
        try {
            final Class<?> type = Class.forName(name, false, IdleStrategies.class.getClassLoader());
            if (!IdleStrategy.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException("idle strategy '" + name + "': the class does not implement "
                    + IdleStrategy.class.getName() + accepted);
            }
            constructor = type.asSubclass(IdleStrategy.class).getConstructor();
        } catch (final ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("unknown idle strategy '" + name + "'" + accepted);
        } catch (final NoSuchMethodException e) {
            throw new IllegalArgumentException("idle strategy '" + name + "': the class has no public no-argument "
                + "constructor" + accepted);
        }
        final Supplier<IdleStrategy> supplier = () -> {
            try {
                return constructor.newInstance();
            } catch (final ReflectiveOperationException e) {
                throw new IllegalArgumentException("idle strategy '" + name + "': cannot create one: "
                    + (e.getCause() != null ? e.getCause() : e), e);
            }
        };
        supplier.get(); // fail now, not on a worker thread
        return supplier;
    }
}
