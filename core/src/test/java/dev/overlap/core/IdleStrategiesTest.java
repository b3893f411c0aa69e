package dev.overlap.core;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link IdleStrategies#parse}: Agrona's aliases, Aeron's class-name form, and a clear error for anything else. */
class IdleStrategiesTest {
    @Test
    void everyAgronaAliasNamesItsStrategy() {
        final List<IdleStrategy> samples = List.of(new BusySpinIdleStrategy(), NoOpIdleStrategy.INSTANCE,
            new YieldingIdleStrategy(), new SleepingIdleStrategy(), new SleepingMillisIdleStrategy(),
            new BackoffIdleStrategy());
        for (final IdleStrategy sample : samples) {
            final IdleStrategy parsed = IdleStrategies.parse(sample.alias()).get();
            assertEquals(sample.getClass(), parsed.getClass(), sample.alias());
            assertEquals(sample.alias(), parsed.alias());
            assertTrue(IdleStrategies.ALIASES.contains(sample.alias()), IdleStrategies.ALIASES);
        }
        assertInstanceOf(BackoffIdleStrategy.class, IdleStrategies.parse(" BACKOFF ").get());
    }

    @Test
    void aClassNameMakesANewInstancePerCall() {
        final Supplier<IdleStrategy> s = IdleStrategies.parse(YieldingIdleStrategy.class.getName());
        assertInstanceOf(YieldingIdleStrategy.class, s.get());
        assertNotSame(s.get(), s.get());
        assertInstanceOf(Counting.class, IdleStrategies.parse(Counting.class.getName()).get());
    }

    @Test
    void aBadNameIsRefusedNamingItAndTheAliases() {
        for (final String bad : new String[] {"sleep:100", "sleep", "spinning", "java.lang.String",
            "org.agrona.concurrent.ControllableIdleStrategy", "no.such.Strategy"}) {
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IdleStrategies.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
            assertTrue(e.getMessage().contains(IdleStrategies.ALIASES), e.getMessage());
        }
    }

    /** A user's strategy, loaded by name. */
    public static final class Counting implements IdleStrategy {
        int idles;

        @Override
        public void idle(final int workCount) {
            idles++;
        }

        @Override
        public void idle() {
            idles++;
        }

        @Override
        public void reset() {
        }
    }
}
