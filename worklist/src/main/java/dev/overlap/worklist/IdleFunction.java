package dev.overlap.worklist;

/**
 * The optional idle function {@code f2}: runs on a worker whose pop failed (Atos uses it in PageRank to re-scan
 * vertices whose residual is still above the threshold), and may push tasks through the context.
 *
 * <p>With an idle function, a run ends only when no task exists anywhere <em>and</em> every worker has run the idle
 * function once after that point without pushing or sending anything (see {@link DistributedWorklist}).
 */
@FunctionalInterface
public interface IdleFunction {
    /**
     * @param ctx the calling worker's context
     * @throws Exception stops the run like an exception of the task function
     */
    void onIdle(TaskContext ctx) throws Exception;
}
