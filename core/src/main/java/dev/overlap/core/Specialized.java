package dev.overlap.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an {@code int} that is the element type of a template class: an {@code IntX} from which the build generates
 * its {@code LongX} twin ({@code codegen/README.md}). The generator writes {@code long} where this marker stands,
 * and keeps every unmarked {@code int} (indices, counts, sizes); a template's {@code int[]} is always an element
 * array and needs no marker. Source-only: it reaches no class file, so users of the library never meet it.
 */
@Retention(RetentionPolicy.SOURCE)
@Target(ElementType.TYPE_USE)
public @interface Specialized {
}
