package dev.overlap.bench.report;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code @Param} field whose values are byte counts, so the report prints {@code 64 KiB} instead of
 * {@code 65536} and uses a base-2 log axis. Params whose name contains {@code bytes} (any case) are treated so without
 * it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface ByteSize {
}
