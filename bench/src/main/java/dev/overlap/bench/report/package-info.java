/**
 * The JMH report: {@code ./overlap bench} runs the suite and {@link dev.overlap.bench.report.ReportMain} turns JMH's
 * JSON into {@code report.md}, {@code report.html} and SVG charts, side by side with the JVM's peers.
 *
 * <h2>Declaring a benchmark for the report</h2>
 * Everything the report shows beyond JMH's own numbers is declared beside the benchmark with these runtime-retained
 * annotations, read reflectively from the benchmark classes named in the JMH JSON (the generator runs from the same
 * jar). {@code AnnotationLintTest} checks every declaration in the jar against the benchmark list (peer names, param
 * names and values, chart axes, families) and keeps the {@code --quick} suite within its time budget.
 * <ul>
 *   <li>{@link dev.overlap.bench.report.Family @Family("queues")} on the class: its report section. Known families,
 *       in order: core, queues, transport, proact, worklist, graphs. Default: the package
 *       ({@code dev.overlap.bench.<family>}).</li>
 *   <li>{@link dev.overlap.bench.report.ComparedTo @ComparedTo("peerMethod")} on a benchmark method (repeatable):
 *       method vs method, row by row at equal params (the params both rows have; a peer may lack some, e.g.
 *       {@code untracked} vs {@code tracked(chunkBytes)}).</li>
 *   <li>{@link dev.overlap.bench.report.ParamBaseline @ParamBaseline(param = "mode", value = "BULK")} on the class
 *       (repeatable): param value vs param value in the same method, all other params equal; {@code compare}
 *       restricts the compared values.</li>
 *   <li>Both take a {@code name} (the column header, also used by {@code @Chart(y = ...)}) and a
 *       {@link dev.overlap.bench.report.RatioStyle style}: {@code SPEEDUP} shows the ratio ({@code 1.52×}),
 *       {@code OVERHEAD} the extra time per operation ({@code +3.1%}). The direction comes from the JMH mode:
 *       {@code thrpt} is better higher (ratio = ours / peer), {@code avgt}/{@code sample}/{@code ss} better lower
 *       (ratio = peer / ours); above 1× the row wins.</li>
 *   <li>{@link dev.overlap.bench.report.Chart @Chart(x = "threads", y = "score")} on the class (repeatable): a line
 *       chart over a numeric param (log x for sizes spanning 16x or more), bars over a non-numeric one or over
 *       {@code "benchmark"}; {@code y} is {@code "score"}, an {@code @AuxCounters} metric or a comparison's name;
 *       series default to the other varying dimensions ({@code series} narrows them, the rest become one chart
 *       each). Without {@code @Chart}: one score chart over {@code threads} or the numeric param with most
 *       values. A log y axis is chosen when the scores span 30x or more (or {@code yScale = LOG}); a ratio chart
 *       gets its reference line ({@code 1×} or {@code 0%}).</li>
 *   <li>{@link dev.overlap.bench.report.BusyThreads @BusyThreads("threads + 1")} on the class (repeatable, with
 *       {@code when = "param=a|b"}): busy threads per row, for the oversubscription marks. Default: the
 *       {@code threads} param, else JMH's thread count.</li>
 *   <li>{@link dev.overlap.bench.report.ByteSize @ByteSize} on a {@code @Param} field: values are bytes
 *       ({@code 64 KiB}); automatic for params whose name contains "bytes".</li>
 *   <li>{@link dev.overlap.bench.report.Quick @Quick} on the class: its {@code --quick} settings (fewer param
 *       values, shorter or fewer iterations, forks) and its set-up cost for the time estimate.</li>
 * </ul>
 *
 * <h2>The --quick budget</h2>
 * The whole quick suite must finish in 10 minutes on 2 cores. Its estimate is, per class, the sum over benchmark x
 * mode x param combinations of {@code forks x (1 s JVM start + @Quick.setupSeconds + warmup + measurement)}, which
 * matched a real run of ProactFig6Benchmark within 3% on this machine; {@code ./overlap bench --dry-run} prints it and
 * a run prints the actual time per class next to it. {@code AnnotationLintTest} fails when the suite's estimate
 * exceeds 9 minutes (10% margin): a family that adds benchmarks adds a {@code @Quick} that keeps it within its share
 * (a guide: core 1.5 min, queues 2.5, transport 1.5, PROACT 2, worklist and graphs 1 each).
 *
 * <h2>Charts</h2>
 * {@code ReportBuilder} decides what each chart shows (the analysis that is ours: series, facets, axes and their
 * scales, units in the axis titles, ratio reference lines, which points are oversubscribed) as a
 * {@link dev.overlap.graph.report.chart.ChartData}; {@link dev.overlap.graph.report.chart.SvgCharts} in the samples
 * module draws it with JFreeChart into SVG (JFreeSVG), the same code that draws the graph comparison's size sweep and
 * {@code overlap scaling}'s chart. Files: {@code charts/<Class>-<n>.svg}, linked from both reports. Oversubscribed
 * points (busy threads &gt; cores) are drawn hollow (pale dashed bars), listed in the legend, and the x range where
 * every point is oversubscribed is shaded. Each data point is an SVG group
 * {@code <g class="point" data-series="..." data-flagged="...">} with its value and error as a tooltip; text stays
 * text, so a chart can be searched and tested.
 */
package dev.overlap.bench.report;
