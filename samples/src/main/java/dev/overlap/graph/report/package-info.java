/** Run reports: {@link dev.overlap.graph.report.RunReport} as a human table or JSON. */
package dev.overlap.graph.report;
