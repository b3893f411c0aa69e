/**
 * The one-device paths of the graph apps: the whole graph placed on one device's memory, as every mode places it.
 *
 * <p>{@code --mode solo} ({@link dev.overlap.graph.solo.SoloAlgorithms}): the calling thread runs a tight sequential
 * loop over the CSR arrays: a queue-based top-down BFS, a pull PageRank with the BSP baseline's stopping rule, and a
 * bucketed (delta-stepping) SSSP. No launch, transport, worklist, barriers or termination waves: on a graph too small
 * for parallelism to pay, none of that machinery is paid for.
 *
 * <p>{@code --mode coop} ({@link dev.overlap.graph.solo.CoopAlgorithms}): every worker of the device in one persistent
 * launch, the rounds separated by the launch's barrier ({@link dev.overlap.core.KernelLaunch#syncWorkers}): a
 * level-synchronous direction-optimizing BFS and the pull PageRank, the shape of a shared-memory machine.
 *
 * <p>{@link dev.overlap.graph.app.AutoMode} decides when a run takes one of them.
 */
package dev.overlap.graph.solo;
