package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Settings of this class in a {@code --quick} report run (the whole suite must finish in 10 minutes on 2 cores). The
 * suite-wide quick settings are {@code -f 1 -wi 1 -w 1s -i 3 -r 1s} with every param value; a class overrides what it
 * needs here. {@code --full} ignores this annotation (the class's own {@code @Fork}/{@code @Warmup}/{@code @Measurement}
 * or JMH defaults apply). Example:
 * <pre>{@code
 * @Quick(params = {"regionMiB=64", "chunkBytes=4096,65536,1048576,16777216"}, warmupTime = "500ms", time = "500ms",
 *     setupSeconds = 1.5)
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Quick {
    /** @return param overrides in JMH's {@code -p} syntax, {@code name=v1,v2} */
    String[] params() default {};

    /** @return forks; -1: the suite's quick value */
    int forks() default -1;

    /** @return warmup iterations; -1: the suite's quick value */
    int warmupIterations() default -1;

    /** @return warmup iteration time in JMH syntax ({@code 500ms}, {@code 1s}); empty: the suite's quick value */
    String warmupTime() default "";

    /** @return measurement iterations; -1: the suite's quick value */
    int iterations() default -1;

    /** @return measurement iteration time in JMH syntax; empty: the suite's quick value */
    String time() default "";

    /** @return seconds of trial set-up per fork beyond JVM start (allocation, calibration): for the time estimate */
    double setupSeconds() default 0;
}
