package dev.overlap.bench.graph;

/**
 * The footprint of a JVM that does nothing: started by {@code bench-graphs} with the same java, JVM options and class
 * path as its forked measurements, it prints its own peak RSS ({@code IDLE\tKiB}, {@code -1} where it cannot be read)
 * and exits. A forked measurement's peak RSS less this is what the measurement itself cost.
 */
public final class IdleJvm {
    private IdleJvm() {
    }

    /**
     * Prints this JVM's peak RSS.
     *
     * @param args ignored
     */
    public static void main(final String[] args) {
        System.out.println("IDLE\t" + PeakRss.selfKib());
    }

    /** @return the figure in a line {@link #main} printed, or {@link PeakRss#UNKNOWN} */
    static long parse(final String line) {
        if (line != null && line.startsWith("IDLE\t")) {
            try {
                return Long.parseLong(line.substring(5).trim());
            } catch (final NumberFormatException e) {
                return PeakRss.UNKNOWN;
            }
        }
        return PeakRss.UNKNOWN;
    }
}
