package dev.overlap.graph.app;

import java.util.function.LongSupplier;

/**
 * How a measurement warms up before its timed runs: at least {@code runs} untimed runs, and more while the warm-up
 * has lasted less than {@code minMillis} in all.
 *
 * <p>Why a time floor as well as a count: a count alone gives a run of a few milliseconds only tens of milliseconds of
 * warm-up, and the JIT's optimising compiler (one thread, with a queue of the whole program's hot methods) may not yet
 * have compiled the run's loops when the timed runs start. Those runs then time the profiling tier, which is several
 * times slower, and whether they do varies from one JVM to the next. A floor in time is what JMH's warm-up iterations
 * are; runs long enough to fill it with their count are unaffected.
 *
 * <p>Immutable; thread-safe ({@link #perform} runs its action on the calling thread).
 *
 * @param runs      untimed runs at least, 0..1000
 * @param minMillis milliseconds the untimed runs last at least in all (the last one may end past it), 0..600,000
 */
public record Warmup(int runs, long minMillis) {
    /** Checks the ranges. */
    public Warmup {
        if (runs < 0 || runs > 1000) {
            throw new IllegalArgumentException("warm-up runs must be in 0..1000, was " + runs);
        }
        if (minMillis < 0 || minMillis > 600_000) {
            throw new IllegalArgumentException("warm-up time must be in 0..600000 ms, was " + minMillis);
        }
    }

    /**
     * @param n untimed runs
     * @return a warm-up of exactly {@code n} runs, without a time floor
     */
    public static Warmup ofRuns(final int n) {
        return new Warmup(n, 0);
    }

    /**
     * Runs {@code run} until both the runs and the time of this warm-up are reached.
     *
     * @param run one untimed run
     * @return the runs made
     */
    public int perform(final Runnable run) {
        return perform(run, System::nanoTime);
    }

    /** {@link #perform(Runnable)} with the clock given (nanoseconds). */
    int perform(final Runnable run, final LongSupplier nanoClock) {
        final long start = minMillis > 0 ? nanoClock.getAsLong() : 0;
        int done = 0;
        while (more(done, minMillis > 0 ? nanoClock.getAsLong() - start : 0)) {
            run.run();
            done++;
        }
        return done;
    }

    /**
     * @param done         untimed runs made so far
     * @param elapsedNanos time since the warm-up began
     * @return whether another untimed run is due
     */
    boolean more(final int done, final long elapsedNanos) {
        return done < runs || elapsedNanos < minMillis * 1_000_000L;
    }

    /** @return how the reports say it: {@code 10 warm-up runs} or {@code 10 warm-up runs (0.5 s at least)} */
    public String describe() {
        final String count = runs + " warm-up run" + (runs == 1 ? "" : "s");
        return minMillis == 0 ? count : count + " (" + seconds() + " s at least)";
    }

    private String seconds() {
        return java.math.BigDecimal.valueOf(minMillis, 3).stripTrailingZeros().toPlainString();
    }
}
