package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Param value versus param value: rows whose {@link #param()} has one of the {@link #compare()} values get a column
 * with their ratio to the row of the same benchmark method and JMH mode where {@code param = value()} and every other
 * param is equal. PROACT's speedup of each transfer mode over BULK at the same chunk size:
 * <pre>{@code
 * @ParamBaseline(param = "mode", value = "BULK", name = "speedup vs BULK")
 * @ParamBaseline(param = "mode", value = "NONE", compare = "TRACK_ONLY", name = "tracking overhead",
 *     style = RatioStyle.OVERHEAD)
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(ParamBaseline.List.class)
public @interface ParamBaseline {
    /** @return the {@code @Param} name */
    String param();

    /** @return the baseline value of that param */
    String value();

    /** @return the values to compare with the baseline; default every other value in the run */
    String[] compare() default {};

    /** @return column header and name of the comparison; default {@code "vs <param>=<value>"} */
    String name() default "";

    /** @return how the ratio is shown */
    RatioStyle style() default RatioStyle.SPEEDUP;

    /** @return the benchmark names (methods or groups) it applies to; default all of the class */
    String[] benchmarks() default {};

    /**
     * @return the metric the ratio is taken on: empty for the primary score (the default), or the name of a
     * secondary metric (an {@code @AuxCounters} field such as {@code "polled"}, for group benchmarks whose primary
     * score also counts failed calls); rows without that metric get no ratio
     */
    String metric() default "";

    /** Container of repeated {@link ParamBaseline}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        /** @return the comparisons */
        ParamBaseline[] value();
    }
}
