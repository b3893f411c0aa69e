package dev.overlap.core;

/**
 * Thrown by a blocking call of Overlap ({@link KernelLaunch#join()}, {@link Device#synchronize()}, a remote get, a
 * worklist run, a transfer wait...) when the waiting thread is interrupted. Unchecked, so that the blocking calls
 * keep their signatures; the {@link java.util.concurrent.Future} methods of {@link KernelLaunch} throw the checked
 * {@link InterruptedException} instead.
 *
 * <p>Before it is thrown the thread's interrupt status is set again, so code further up that checks
 * {@link Thread#isInterrupted()} still sees the interrupt. The operation that was waited for is not cancelled by the
 * interrupt: a kernel launch keeps running, a remote get still completes into its reply slot; the caller may wait
 * for it again.
 */
public class InterruptedWaitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param waitingFor what the interrupted thread was waiting for, for the message */
    public InterruptedWaitException(final String waitingFor) {
        super("interrupted while waiting for " + waitingFor);
    }
}
