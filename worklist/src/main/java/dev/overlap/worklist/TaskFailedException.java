package dev.overlap.worklist;

/** A task (or idle) function threw: the run stopped; the cause is the function's exception. Immutable. */
public final class TaskFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** {@link #task()} of a failure in the idle function. */
    public static final long IDLE_FUNCTION = Long.MIN_VALUE;
    /** {@link #task()} of a failure outside any function (sending, draining the inbox). */
    public static final long NO_TASK = Long.MIN_VALUE + 1;

    /** The device the failing worker belongs to. */
    private final int device;
    /** The failing worker's index on its device. */
    private final int worker;
    /** The task that failed, {@link #IDLE_FUNCTION} or {@link #NO_TASK}. */
    private final long task;

    TaskFailedException(final int device, final int worker, final long task, final Throwable cause) {
        super((task == IDLE_FUNCTION ? "idle function" : task == NO_TASK ? "worker" : "task " + task) + " failed on dev" + device + " worker "
            + worker + ": " + cause, cause);
        this.device = device;
        this.worker = worker;
        this.task = task;
    }

    /** @return the device the failing worker belongs to */
    public int device() {
        return device;
    }

    /** @return the failing worker's index on its device */
    public int worker() {
        return worker;
    }

    /** @return the task that failed, {@link #IDLE_FUNCTION} or {@link #NO_TASK} */
    public long task() {
        return task;
    }
}
