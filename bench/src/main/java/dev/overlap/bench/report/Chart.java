package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A chart of this class's results in the report (SVG). Without any {@code @Chart} the report draws one score chart
 * with a guessed x axis (the {@code threads} param, else the numeric param with the most values). Dimensions are the
 * param names plus the pseudo-dimension {@code "benchmark"} (the method or group name).
 * <pre>{@code
 * @Chart(title = "Speedup over BULK vs chunk size", x = "chunkBytes", y = "speedup vs BULK")
 * @Chart(title = "Throughput vs threads", x = "threads", series = {"benchmark"})
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Repeatable(Chart.List.class)
public @interface Chart {
    /** @return the chart title; default derived from y and x */
    String title() default "";

    /** @return the x dimension: a param name or {@code "benchmark"}; numeric params give a line chart, others bars */
    String x();

    /**
     * @return what is plotted: {@code "score"} (the primary metric), the name of a secondary metric (e.g. an
     *     {@code @AuxCounters} field such as {@code "bytes"}), or the name of a {@link ComparedTo} or
     *     {@link ParamBaseline} comparison (its ratio, with a reference line at "equal")
     */
    String y() default "score";

    /** @return the dimensions whose values make the series; default every other dimension that varies */
    String[] series() default {};

    /** @return x axis scale; AUTO is logarithmic for positive numeric values spanning 16x or more */
    Scale xScale() default Scale.AUTO;

    /** @return y axis scale; AUTO is logarithmic for scores spanning 30x or more (never for ratios) */
    Scale yScale() default Scale.AUTO;

    /** Axis scale. */
    enum Scale {
        /** Chosen from the data. */
        AUTO,
        /** Linear. */
        LINEAR,
        /** Logarithmic. */
        LOG
    }

    /** Container of repeated {@link Chart}. */
    @Documented
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @interface List {
        /** @return the charts */
        Chart[] value();
    }
}
