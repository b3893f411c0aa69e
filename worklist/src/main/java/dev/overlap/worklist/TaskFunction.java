package dev.overlap.worklist;

/**
 * The application function {@code f}: runs one task on a worker. It may push local and remote tasks and issue
 * remote atomics through the context; it must not block on other tasks. Called by one worker thread at a time per
 * context, concurrently on different workers.
 */
@FunctionalInterface
public interface TaskFunction {
    /**
     * @param task the task (an application-defined {@code int}, e.g. a vertex id)
     * @param ctx  the calling worker's context; {@link TaskContext#priority()} is the task's priority
     * @throws Exception stops the run; it surfaces from {@link DistributedWorklist#run} as a
     *                   {@link TaskFailedException} naming the task and device
     */
    void run(int task, TaskContext ctx) throws Exception;
}
