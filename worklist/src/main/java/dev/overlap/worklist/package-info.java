/**
 * The distributed worklist after Atos ({@code DistributedQueues}): tasks live on the device that owns them, workers
 * pop a task or a batch ({@link dev.overlap.worklist.WorkerShape}), run the application's
 * {@link dev.overlap.worklist.TaskFunction}, and push new tasks locally or to their owner device through the
 * transport's aggregators ({@link dev.overlap.worklist.TaskContext}).
 *
 * <ul>
 *   <li>{@link dev.overlap.worklist.DistributedWorklist}: the worklist, its run loop in persistent or discrete
 *       kernels ({@link dev.overlap.worklist.KernelMode}) and its lifetime.</li>
 *   <li>{@link dev.overlap.worklist.QuiescenceDetector}: global termination without a central lock, never early:
 *       every queue empty, every aggregator flushed, nothing in flight.</li>
 *   <li>{@link dev.overlap.worklist.WorklistStats}: what a run did (tasks, pushes, messages, idle polls, time).</li>
 * </ul>
 *
 * <p>Every JVM that uses this package needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (Agrona).
 */
package dev.overlap.worklist;
