package dev.overlap.core;

/**
 * The body of a persistent kernel: every worker of the device stays resident and calls {@link #poll} in a loop
 * until the launch is stopped ({@link KernelLaunch#stop()}, {@link WorkerContext#stopLaunch()}) or a poll throws.
 * A worker whose poll found nothing to do idles with the device's idle strategy (spin, then yield, then park),
 * so resident workers do not starve other threads when devices x threads exceed the cores.
 */
@FunctionalInterface
public interface PersistentKernel {
    /**
     * @param ctx the calling worker; valid only during the call
     * @return how much work this call did; 0 means "nothing to do" and lets the worker idle
     * @throws Exception stops the launch on every worker and fails it with this cause
     */
    int poll(WorkerContext ctx) throws Exception;
}
