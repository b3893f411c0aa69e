package dev.overlap.graph.cli;

import dev.overlap.graph.app.AppSettings;
import dev.overlap.transport.AggregatorConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.util.List;

/**
 * Execution model and the knobs of the asynchronous (Atos) apps. Picocli mixin. The queue, kernel, batch, wait and
 * fetch options apply to {@code --mode async}; the other modes accept and ignore them (with a note). Which modes a
 * command accepts, and its default, are the command's ({@link #mode}).
 *
 * <p>{@code --batch-bytes 0} is the command line's spelling of eager remote sends: {@link #remote} turns it into
 * {@link AggregatorConfig#eager()} here, at the edge, so that nothing behind the command line gives a batch size of 0
 * a meaning.
 */
public final class ModeOptions {
    @Option(names = "--mode", paramLabel = "MODE", description = "async (Atos worklist), bsp (bulk-synchronous "
        + "baseline), solo (the calling thread over one device's memory: the one-thread path for graphs too small "
        + "for parallelism to pay), coop (every worker of one device holding the whole graph, rounds separated by "
        + "an in-kernel barrier) or auto (solo or a parallel mode, chosen from the graph's size and shape; the run says which and why) "
        + "(default: auto for bfs, pr and sssp; bsp for scaling)")
    String mode;

    @Option(names = "--queue", paramLabel = "QUEUE", defaultValue = "auto", description = "async worklist: fifo, priority, or "
        + "auto: priority for sssp (delta-stepping), fifo for bfs and pr (default: ${DEFAULT-VALUE})")
    String queue;

    @Option(names = "--kernel", paramLabel = "KERNEL", defaultValue = "persistent", description = "async kernels: persistent or discrete "
        + "(default: ${DEFAULT-VALUE})")
    String kernel;

    @Option(names = "--batch-bytes", paramLabel = "BYTES", defaultValue = "65536", description = "async aggregation batch in bytes, "
        + "0 for eager sends (default: ${DEFAULT-VALUE})")
    int batchBytes;

    @Option(names = "--wait", paramLabel = "POLLS", defaultValue = "64", description = "async: polls before a partial batch is sent "
        + "(default: ${DEFAULT-VALUE})")
    int waitPolls;

    @Option(names = "--fetch", paramLabel = "N", defaultValue = "128", description = "async: tasks a worker takes per pop "
        + "(1 = Atos thread worker, 32 = warp) (default: ${DEFAULT-VALUE})")
    int fetch;

    /**
     * @param cl            the command line, for the usage error
     * @param commandDefault the mode when {@code --mode} is not given
     * @param allowed       the modes this command accepts, lower case, in the order the error lists them
     * @return {@code --mode} (or the default), lower case
     * @throws CommandLine.ParameterException naming the allowed modes when it is not one of them
     */
    String mode(final CommandLine cl, final String commandDefault, final List<String> allowed) {
        final String m = (mode != null ? mode : commandDefault).trim().toLowerCase(java.util.Locale.ROOT);
        if (!allowed.contains(m)) {
            throw new CommandLine.ParameterException(cl, "--mode must be " + String.join(", ", allowed.subList(0,
                allowed.size() - 1)) + " or " + allowed.get(allowed.size() - 1) + ", was '" + mode + "'");
        }
        return m;
    }

    /**
     * @param autoQueue the queue {@code --queue auto} stands for in this app
     * @return a settings builder with the mode knobs applied
     */
    AppSettings.Builder settings(final CommandLine cl, final AppSettings.Queue autoQueue) {
        final AppSettings.Builder b = AppSettings.builder();
        switch (queue.toLowerCase(java.util.Locale.ROOT)) {
            case "fifo":
                b.queue(AppSettings.Queue.FIFO);
                break;
            case "priority":
                b.queue(AppSettings.Queue.PRIORITY);
                break;
            case "auto":
                b.queue(autoQueue);
                break;
            default:
                throw new CommandLine.ParameterException(cl, "--queue must be fifo, priority or auto, was '" + queue
                    + "'");
        }
        switch (kernel.toLowerCase(java.util.Locale.ROOT)) {
            case "persistent":
                b.kernel(AppSettings.KernelStyle.PERSISTENT);
                break;
            case "discrete":
                b.kernel(AppSettings.KernelStyle.DISCRETE);
                break;
            default:
                throw new CommandLine.ParameterException(cl, "--kernel must be persistent or discrete, was '" + kernel
                    + "'");
        }
        try {
            b.remote(remote(batchBytes, waitPolls));
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--batch-bytes/--wait: " + e.getMessage());
        }
        try {
            b.fetch(fetch);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--fetch: " + e.getMessage());
        }
        return b;
    }

    /**
     * The remote sends {@code --batch-bytes} and {@code --wait} ask for.
     *
     * @param batchBytes {@code --batch-bytes}: 0 for eager sends, or a batch of 16 bytes (the 8-byte header and one
     *                   item) to {@link AppSettings#MAX_BATCH_BYTES}
     * @param waitPolls  {@code --wait}: polls before a partial batch is sent, at least 0 (0 sends it at the first
     *                   poll, as 1 does)
     * @return the transport's configuration for them
     * @throws IllegalArgumentException naming the option's valid range
     */
    static AggregatorConfig remote(final int batchBytes, final int waitPolls) {
        if (batchBytes != 0 && (batchBytes < 16 || batchBytes > AppSettings.MAX_BATCH_BYTES)) {
            throw new IllegalArgumentException("batch bytes must be 0 (eager) or in 16.." + AppSettings.MAX_BATCH_BYTES
                + ", was " + batchBytes);
        }
        if (waitPolls < 0) {
            throw new IllegalArgumentException("wait must be >= 0, was " + waitPolls);
        }
        return batchBytes == 0 ? AggregatorConfig.eager() : AggregatorConfig.batched(batchBytes, Math.max(1, waitPolls));
    }
}
