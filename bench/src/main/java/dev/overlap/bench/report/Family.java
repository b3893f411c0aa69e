package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The report section a benchmark class belongs to. Known families, in report order: {@code core}, {@code queues},
 * {@code transport}, {@code proact}, {@code worklist}, {@code graphs}; any other id gets its own section after them.
 * Without this annotation the family is taken from the package ({@code dev.overlap.bench.<family>.X}).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Family {
    /** @return the family id, e.g. {@code "queues"} */
    String value();
}
