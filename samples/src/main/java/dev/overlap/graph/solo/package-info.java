/**
 * The one-thread path of the graph apps ({@code --mode solo}): the graph placed on one device's memory, as every mode
 * places it, and the calling thread running a tight sequential loop over its CSR arrays: a queue-based
 * top-down BFS, a pull PageRank with the BSP baseline's stopping rule, and a bucketed (delta-stepping) SSSP. No
 * transport, worklist, barriers or termination waves: on a graph too small for parallelism to pay, none of that
 * machinery is paid for. {@link dev.overlap.graph.app.AutoMode} decides when a run takes this path.
 */
package dev.overlap.graph.solo;
