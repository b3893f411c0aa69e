package dev.overlap.bench.report;

/**
 * How a comparison is shown. Both are derived from the same "times better" ratio {@code r}: for a score where higher
 * is better (JMH {@code thrpt}: ops per time) {@code r = score / peerScore}; where lower is better ({@code avgt},
 * {@code sample}, {@code ss}: time per op) {@code r = peerScore / score}. So {@code r > 1} always means the row beats
 * its peer or baseline, whatever the unit.
 */
public enum RatioStyle {
    /** {@code r} itself, shown as {@code 1.52x}: the speedup over the peer (above 1: this row is faster). */
    SPEEDUP,
    /**
     * {@code 1/r - 1}, shown as {@code +3.1%}: the extra time per operation relative to the peer (e.g. tracking
     * overhead {@code TRACK_ONLY / NONE - 1}); positive means this row is costlier.
     */
    OVERHEAD
}
