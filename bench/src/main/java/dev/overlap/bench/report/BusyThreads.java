package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How many threads a benchmark keeps busy, so the report can flag oversubscribed rows (busy threads above the
 * machine's cores): marked in tables and drawn hollow in charts. {@link #value()} is a sum of terms, each an integer,
 * a {@code @Param} name or {@code jmh} (JMH's thread count for the row), e.g. {@code "threads + 1"} for a pool of
 * {@code threads} workers plus the submitting JMH thread. {@link #when()} restricts a rule to rows whose param has one
 * of the listed values ({@code "mode=POLLING|TRIGGERED"}; several conditions separated by {@code ;} must all hold).
 * The first rule that applies wins. Without any rule: the {@code threads} param if the class has one, else JMH's
 * thread count.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(BusyThreads.List.class)
public @interface BusyThreads {
    /** @return the busy-thread expression */
    String value();

    /** @return the condition under which this rule applies; default always */
    String when() default "";

    /** Container of repeated {@link BusyThreads}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        /** @return the rules */
        BusyThreads[] value();
    }
}
