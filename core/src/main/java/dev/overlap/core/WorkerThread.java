package dev.overlap.core;

/**
 * Which device a worker thread serves. Knowing its device lets the blocking calls refuse
 * the one wait that can never end: a worker waiting for a launch of its own device (that launch runs only after the
 * worker's current one, which cannot finish while the worker waits). The device is a thread-local set by the worker's
 * body ({@link DeviceWorker#run()}), so a worker may run on a thread of any class, made by the user's
 * {@code ThreadFactory} ({@link Mesh.Builder#threadFactory}). Stateless apart from that thread-local; thread-safe.
 */
final class WorkerThread {
    private static final ThreadLocal<Device> DEVICE = new ThreadLocal<>();

    private WorkerThread() {
    }

    /** Marks the calling thread as a worker of {@code device} (its body's first step). */
    static void enter(final Device device) {
        DEVICE.set(device);
    }

    /** Forgets the mark (its body's last step). */
    static void leave() {
        DEVICE.remove();
    }

    /** @return the device whose worker the calling thread is, or null */
    static Device currentDevice() {
        return DEVICE.get();
    }

    /**
     * @throws IllegalStateException if the calling thread is a worker of {@code device}, naming the wait
     */
    static void checkNotWorkerOf(final Device device, final String waitFor) {
        if (currentDevice() == device) {
            throw new IllegalStateException(Thread.currentThread().getName() + " would wait forever for " + waitFor
                + ": a worker of dev" + device.id() + " cannot wait for work of its own device, which runs only after"
                + " the launch the worker is executing (launch it on another device, or return and let the host"
                + " thread wait)");
        }
    }
}
