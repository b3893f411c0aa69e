package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Method versus method: the report adds a column with this benchmark's ratio to the named peer benchmark of the same
 * class, measured in the same run, row by row. A row is matched with the peer row of the same JMH mode whose params
 * agree on every param both rows have (so a peer may have fewer params than the subject, e.g. {@code untracked}
 * without {@code chunkBytes}); when several peer rows match, the ratio is left out and the report says why.
 *
 * <p>Put it on the {@code @Benchmark} method (for a {@code @Group} benchmark: on any method of the group; the name
 * the report uses is the group's). Repeat it for several peers:
 * <pre>{@code
 * @Benchmark @ComparedTo("jctoolsMpmc") @ComparedTo("concurrentLinkedQueue")
 * public void overlapQueue() { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Repeatable(ComparedTo.List.class)
public @interface ComparedTo {
    /** @return the peer benchmark's name in the same class: a {@code @Benchmark} method name or a {@code @Group} name */
    String value();

    /** @return column header and name of the comparison; default {@code "vs <peer>"} */
    String name() default "";

    /** @return how the ratio is shown */
    RatioStyle style() default RatioStyle.SPEEDUP;

    /** Container of repeated {@link ComparedTo}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @interface List {
        /** @return the comparisons */
        ComparedTo[] value();
    }
}
