/**
 * The plug-in point of execution models: {@link dev.overlap.graph.app.GraphAlgorithms} providers found by
 * {@link java.util.ServiceLoader} and chosen by {@code --mode} ({@code bsp} here; the asynchronous Atos apps on the
 * distributed worklist register {@code async}), with their inputs ({@link dev.overlap.graph.app.AppSettings}) and
 * outputs ({@link dev.overlap.graph.app.AppResult}, {@link dev.overlap.graph.app.WorkCounts}).
 */
package dev.overlap.graph.app;
