/**
 * The lab's charts, drawn in one place for the JMH report and the size sweep (bench) and {@code overlap scaling}
 * (here): {@link dev.overlap.graph.report.chart.ChartData} says what a chart shows (series per implementation or peer,
 * axis titles with units, linear, logarithmic or category axes, stacked panels, reference lines, flagged points such as
 * oversubscribed runs, a shaded x range) and checks it; {@link dev.overlap.graph.report.chart.SvgCharts} draws it with
 * JFreeChart into a standalone SVG document through JFreeSVG, headless. The rest of the package is how: axis ranges
 * and ticks chosen from the data ({@code AxisLayout}), axes that put their ticks there, renderers that draw flagged
 * points hollow and wrap every point in an SVG group, and the shared look ({@code Style}). Lab code only: no library
 * module may use it (ArchitectureTest).
 */
package dev.overlap.graph.report.chart;
